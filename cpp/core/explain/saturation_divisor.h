// The divisor of the saturation statistics, as `attnlab saturation --divisor`
// and the page's explorer take it: a Divisor ("sqrt", "dk", a number), or
// Scalable-Softmax's length-aware scale (Nakanishi 2025), which multiplies the
// scores by s·ln n / √d_k for n keys: written "ssmax" (s = 0.43, the paper's
// default) or "ssmax:S". As a divisor that is √d_k / (s·ln n), which depends
// on n as well as d_k, hence a type of its own rather than a Divisor kind
// (training and attention take no n).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/divisor.h"

namespace attn {

inline constexpr double kSsmaxDefaultS = 0.43;
// s's range: beyond it the divisor leaves [kMinDivisor, kMaxDivisor] at some n.
inline constexpr double kMinSsmaxS = 1e-6;
inline constexpr double kMaxSsmaxS = 1e6;

// √d_k / (s·ln n). Throws ArgumentError for dk outside [1, kMaxDk], n outside
// [2, kMaxSeqLen] (at n = 1, s·ln n = 0: no divisor exists; a single key has
// probability 1 whatever the scale) or s outside [kMinSsmaxS, kMaxSsmaxS].
double ssmax_divisor(std::size_t dk, std::size_t n, double s);

class SaturationDivisor {
 public:
  // "sqrt", "dk", a number as Divisor::parse reads it, "ssmax" or "ssmax:S"
  // (S in the number grammar, in [kMinSsmaxS, kMaxSsmaxS]). Throws ArgumentError
  // ("divisor", kind "divisor", params with "ssmax":true) for any other text.
  static SaturationDivisor parse(std::string_view text);
  static SaturationDivisor fixed(Divisor d) { return SaturationDivisor(d, 0); }

  bool ssmax() const { return s_ > 0; }
  double s() const { return s_; }
  // The number the scores are divided by at d_k and n keys (n >= 2 for ssmax).
  double resolve(std::size_t dk, std::size_t n) const;
  std::string label() const;  // "sqrt", "dk", the number, or "ssmax:S"

 private:
  SaturationDivisor(Divisor d, double s) : fixed_(d), s_(s) {}
  Divisor fixed_;
  double s_;  // 0: the fixed divisor
};

}  // namespace attn
