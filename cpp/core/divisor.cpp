#include "divisor.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "argument_error.h"
#include "size_limits.h"

namespace attn {

Divisor Divisor::value(double v) {
  if (!(v > 0.0 && v <= limits::kMaxDivisor)) {
    std::ostringstream m;
    m << "divisor must be a number in (0, " << limits::kMaxDivisor << "], 'sqrt' or 'dk', got " << v;
    throw ArgumentError("divisor", m.str());
  }
  return Divisor(Kind::Value, v);
}

Divisor Divisor::parse(std::string_view text) {
  if (text == "sqrt") return sqrt_dk();
  if (text == "dk") return dk();
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v) ||
      !(v > 0.0 && v <= limits::kMaxDivisor)) {
    std::ostringstream m;
    m << "divisor must be 'sqrt', 'dk' or a number in (0, " << limits::kMaxDivisor << "], got '"
      << s << "'";
    throw ArgumentError("divisor", m.str());
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
  std::ostringstream o;
  o.precision(17);
  o << value_;
  return o.str();
}

}  // namespace attn
