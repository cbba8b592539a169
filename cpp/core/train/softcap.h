// Logit soft-capping (Gemma 2): s -> c·tanh(s / c), which keeps every logit
// in (-c, c) and is the identity for |s| << c. Its derivative is
// sech²(s / c) = 1 - tanh²(s / c).
//
// The float twin builds tanh from the softmax's own exp polynomial
// (exp_f32_nonpositive), not std::tanh: the C libraries of the native and the
// wasm builds differ in the last bit, and a run must be the same bit for bit
// in every build (train_ops.h says why). The double twin is std::tanh, the
// reference the gradient checks run.
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels/softmax_row.h"

namespace attn {

// tanh(x) and sech²(x) together.
// |x| < 0.625: Cephes' tanhf polynomial (relative error about 1e-7), and
// 1 - t², which does not cancel there (t² < 0.31). Beyond: e = exp(-2|x|) < 0.29,
// t = 1 - 2e/(1 + e) and sech² = 4e/(1 + e)², which keeps its relative
// precision where 1 - t² would be all rounding; e is 0 past |x| = 43.7, so t
// is exactly ±1 and sech² exactly 0 there. NaN stays NaN.
inline void tanh_sech2(float x, float& t, float& d) {
  if (std::isnan(x)) {
    t = d = x;
    return;
  }
  const float ax = std::fabs(x);
  if (ax < 0.625f) {
    const float z = x * x;
    const float p = (((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z +
                     1.33314422036e-1f) * z - 3.33332819422e-1f;
    t = std::copysign(p * z * x + x, x);  // tanh(-0) = -0
    d = 1.0f - t * t;
  } else {
    const float e = exp_f32_nonpositive(-2.0f * ax);
    const float r = 1.0f / (1.0f + e);
    t = std::copysign(1.0f - 2.0f * e * r, x);
    d = 4.0f * e * r * r;
  }
}

inline void tanh_sech2(double x, double& t, double& d) {
  t = std::tanh(x);
  const double c = std::cosh(x);
  d = 1.0 / (c * c);  // cosh overflows to inf past |x| = 710: d = 0, as it should be
}

// s[j] = c·tanh(raw[j] / c) for j < n; dcap[j] = sech²(raw[j] / c), the
// derivative backward multiplies by (null: not kept).
template <typename T>
void softcap_forward(const T* raw, std::size_t n, T c, T* s, T* dcap) {
  for (std::size_t j = 0; j < n; ++j) {
    T t, d;
    tanh_sech2(raw[j] / c, t, d);
    s[j] = c * t;
    if (dcap) dcap[j] = d;
  }
}

}  // namespace attn
