#include "explain/saturation_divisor.h"

#include <cmath>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "base/number.h"
#include "base/size_limits.h"
#include "base/text.h"

namespace attn {

double ssmax_divisor(std::size_t dk, std::size_t n, double s) {
  check_size("dk", dk, 1, limits::kMaxDk);
  check_size("m", n, 2, limits::kMaxSeqLen);
  check_real("s", s, kMinSsmaxS, kMaxSsmaxS);
  // In range at every allowed (dk, n, s): from 1/(1e6·ln 4096) = 1.2e-7 to 256/(1e-6·ln 2) = 3.7e8.
  return std::sqrt(static_cast<double>(dk)) / (s * std::log(static_cast<double>(n)));
}

SaturationDivisor SaturationDivisor::parse(std::string_view text) {
  if (text == "ssmax") return SaturationDivisor(Divisor::sqrt_dk(), kSsmaxDefaultS);
  const std::string_view prefix = "ssmax:";
  if (text.substr(0, prefix.size()) == prefix) {
    double s = 0;
    const std::string_view rest = text.substr(prefix.size());
    if (read_finite_double(rest, s) && s >= kMinSsmaxS && s <= kMaxSsmaxS) return SaturationDivisor(Divisor::sqrt_dk(), s);
    const std::string shown(text);
    fail_kind("divisor", "divisor",
              range_params(limits::kMinDivisor, limits::kMaxDivisor, 0, ",\"ssmax\":true", shown.c_str()),
              "divisor 'ssmax:S' needs S a number in [%g, %g], got '%s'", kMinSsmaxS, kMaxSsmaxS,
              escaped(shown).c_str());
  }
  try {
    return SaturationDivisor(Divisor::parse(text), 0);
  } catch (const ArgumentError& e) {
    // Divisor::parse's params, and ssmax among the choices.
    std::string params = e.params();
    if (!params.empty()) params.insert(params.size() - 1, ",\"ssmax\":true");
    throw ArgumentError("divisor", "divisor", params,
                        "divisor must be 'sqrt', 'dk', 'ssmax', 'ssmax:S' or a number in [" + num(limits::kMinDivisor) +
                            ", " + num(limits::kMaxDivisor) + "], got '" + escaped(text) + "'");
  }
}

double SaturationDivisor::resolve(std::size_t dk, std::size_t n) const {
  if (ssmax()) return ssmax_divisor(dk, n, s_);
  return fixed_.resolve(dk);
}

std::string SaturationDivisor::label() const {
  return ssmax() ? "ssmax:" + num_exact(s_) : fixed_.label();
}

}  // namespace attn
