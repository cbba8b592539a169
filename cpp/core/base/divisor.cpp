#include "base/divisor.h"

#include <cmath>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/number.h"
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
  double v = 0;
  const bool number = read_finite_double(text, v);  // the one number grammar (base/number.h)
  if (!number || !(v >= limits::kMinDivisor && v <= limits::kMaxDivisor)) {
    // value: the number read, when the text is one (0, -1, 1e13: out of range), else the text.
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
