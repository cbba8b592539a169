// The scale in softmax(q·k / divisor): √d_k (the paper's choice), d_k (μP),
// or any positive number (1 means no scaling).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace attn {

class Divisor {
 public:
  enum class Kind { Sqrt, Dk, Value };

  static Divisor sqrt_dk() { return Divisor(Kind::Sqrt, 0.0); }
  static Divisor dk() { return Divisor(Kind::Dk, 0.0); }
  static Divisor value(double v);  // throws ArgumentError unless kMinDivisor <= v <= kMaxDivisor
  // "sqrt", "dk" or a plain decimal number such as "1", "2", "8", "0.5", "1e-3"
  // (no spaces, no hex: what a reader types, read back exactly).
  static Divisor parse(std::string_view text);

  Kind kind() const { return kind_; }
  double resolve(std::size_t dk) const;  // the number the scores are divided by
  std::string label() const;             // "sqrt", "dk" or the number

 private:
  Divisor(Kind k, double v) : kind_(k), value_(v) {}
  Kind kind_;
  double value_;
};

}  // namespace attn
