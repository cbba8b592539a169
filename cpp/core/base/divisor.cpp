#include "base/divisor.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/size_limits.h"
#include "base/text.h"

namespace attn {

Divisor Divisor::value(double v) {
  if (!(v >= limits::kMinDivisor && v <= limits::kMaxDivisor)) {
    fail_kind("divisor", "divisor", range_params(limits::kMinDivisor, limits::kMaxDivisor, v),
              "divisor must be a number in [%g, %g], 'sqrt' or 'dk', got %s", limits::kMinDivisor, limits::kMaxDivisor,
              num_exact(v).c_str());
  }
  return Divisor(Kind::Value, v);
}

Divisor Divisor::parse(std::string_view text) {
  if (text == "sqrt") return sqrt_dk();
  if (text == "dk") return dk();
  const std::string s(text);
  // strtod alone would also take " 1", "0x10" and "inf": allow decimal notation only.
  const bool decimal = !s.empty() && s.find_first_not_of("0123456789.eE+-") == std::string::npos;
  char* end = nullptr;
  errno = 0;
  const double v = decimal ? std::strtod(s.c_str(), &end) : NAN;
  if (!decimal || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v) ||
      !(v >= limits::kMinDivisor && v <= limits::kMaxDivisor)) {
    // value: the number read, when the text is one (0, -1, 1e13: out of range), else the text.
    const bool number = decimal && end == s.c_str() + s.size() && std::isfinite(v);
    fail_kind("divisor", "divisor",
              range_params(limits::kMinDivisor, limits::kMaxDivisor, v, "", number ? nullptr : s.c_str()),
              "divisor must be 'sqrt', 'dk' or a number in [%g, %g], got '%s'", limits::kMinDivisor,
              limits::kMaxDivisor, escaped(s).c_str());
  }
  return Divisor(Kind::Value, v);
}

double Divisor::resolve(std::size_t dk) const {
  switch (kind_) {
    case Kind::Sqrt: return std::sqrt(static_cast<double>(dk));
    case Kind::Dk: return static_cast<double>(dk);
    case Kind::Value: break;
  }
  return value_;
}

std::string Divisor::label() const {
  switch (kind_) {
    case Kind::Sqrt: return "sqrt";
    case Kind::Dk: return "dk";
    case Kind::Value: break;
  }
  return num_exact(value_);
}

}  // namespace attn
