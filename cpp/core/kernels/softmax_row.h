// x = softmax(x) for one row of floats, in place, max subtracted first.
// Both twins compute exp with the same polynomial (exp_f32_nonpositive), so
// they differ only in summation order; tests hold both to std::exp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/flush_subnormals.h"

namespace attn {

// The float nearest above ln(FLT_MIN): the least input whose exp is normal.
inline constexpr float kExpFloor = -87.33654f;

// exp(x) for x <= 0 (softmax's case after the max is subtracted): Cody-Waite
// reduction x = n ln2 + r, |r| <= ln2/2, Cephes' degree-7 polynomial
// evaluated by Estrin's scheme (three short chains instead of Horner's one
// long one: the SIMD twin is bound by this latency), 2^n built in the exponent
// bits. Within 1.01 ulp of std::exp down to ln(FLT_MIN) = -87.3365 (tested).
// Below it exp would be subnormal, and arithmetic on subnormals is 50-100x
// slower on x86 (flush_subnormals.h): those inputs, and NaN, are clamped to
// -88, where 2^n becomes 0, so the result is exactly 0, as under flush-to-zero.
inline float exp_f32_nonpositive(float x) {
  if (!(x >= kExpFloor)) x = -88.0f;  // also maps NaN to -88 (so to 0); callers check inputs
  const float n = std::nearbyint(x * 1.44269504f);
  float r = x - n * 0.693359375f;  // ln2 split so n*hi is exact
  r = r - n * -2.12194440e-4f;
  const float r2 = r * r, r4 = r2 * r2;
  const float pa = 1.9875691500e-4f * r + 1.3981999507e-3f;
  const float pb = 8.3334519073e-3f * r + 4.1665795894e-2f;
  const float pc = 1.6666665459e-1f * r + 5.0000001201e-1f;
  const float p = pa * r4 + (pb * r2 + pc);
  const float y = p * r2 + r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(n) + 127) << 23;  // n = -127 gives 0.0f
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return y * scale;
}

// Both twins return no subnormal weight: exp gives 0 or a normal number, and
// a weight that scaling by 1/sum would make subnormal is flushed to 0, so the
// W·V product after it never multiplies one.
void softmax_row_f32__scalar(float* x, std::size_t n);

#if defined(__wasm_simd128__)
// Vector max, vector exp (same polynomial, 4 lanes), vector scale.
void softmax_row_f32__wasmsimd(float* x, std::size_t n);
// y = exp(x) for x <= 0 by the softmax's vector exp (its last n % 4 by
// exp_f32_nonpositive). SIMD128: exp_f32_nonpositive's bits. Relaxed SIMD: its
// multiply-adds are relaxed_madd, so the same polynomial rounded fewer times.
void exp_nonpositive_f32__wasmsimd(const float* x, float* y, std::size_t n);
#endif

inline void softmax_row_f32(float* x, std::size_t n) {
#if defined(__wasm_simd128__)
  softmax_row_f32__wasmsimd(x, n);
#else
  softmax_row_f32__scalar(x, n);
#endif
}

}  // namespace attn
