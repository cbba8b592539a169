#include "train/qk_layer_norm.h"

#include <cmath>

namespace attn {

template <typename T>
void qk_layer_norm_forward(const T* x, std::size_t rows, std::size_t heads, std::size_t n,
                           const T* g, T* y, T* mean, T* rstd) {
  for (std::size_t s = 0; s < rows * heads; ++s) {
    const T* xs = x + s * n;
    const T* gs = g + (s % heads) * n;
    T* ys = y + s * n;
    // 1. mean and (biased) variance of the segment
    T mu = 0;
    for (std::size_t i = 0; i < n; ++i) mu += xs[i];
    mu /= static_cast<T>(n);
    T var = 0;
    for (std::size_t i = 0; i < n; ++i) var += (xs[i] - mu) * (xs[i] - mu);
    var /= static_cast<T>(n);
    // 2. y = g ⊙ (x − μ) · r,  r = 1/√(var + ε)
    const T r = static_cast<T>(1) / std::sqrt(var + static_cast<T>(kQkNormEps));
    for (std::size_t i = 0; i < n; ++i) ys[i] = gs[i] * ((xs[i] - mu) * r);
    mean[s] = mu;
    rstd[s] = r;
  }
}

template <typename T>
void qk_layer_norm_backward(const T* x, std::size_t rows, std::size_t heads, std::size_t n,
                            const T* g, const T* mean, const T* rstd, const T* dy, T* dx, T* dg) {
  for (std::size_t s = 0; s < rows * heads; ++s) {
    const T* xs = x + s * n;
    const T* gs = g + (s % heads) * n;
    T* dgs = dg + (s % heads) * n;
    const T* dys = dy + s * n;
    T* dxs = dx + s * n;
    const T mu = mean[s], r = rstd[s];
    // 2. y = g ⊙ x̂:  dg += x̂ ⊙ dy,  dx̂ = g ⊙ dy
    // 1. x̂ = (x − μ) r:  dx = r (dx̂ − mean(dx̂) − x̂ mean(dx̂ ⊙ x̂))
    T sum_d = 0, sum_dx = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const T xh = (xs[i] - mu) * r;
      const T d = gs[i] * dys[i];
      dgs[i] += xh * dys[i];
      sum_d += d;
      sum_dx += d * xh;
    }
    const T mean_d = sum_d / static_cast<T>(n), mean_dx = sum_dx / static_cast<T>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const T xh = (xs[i] - mu) * r;
      dxs[i] = r * (gs[i] * dys[i] - mean_d - xh * mean_dx);
    }
  }
}

template void qk_layer_norm_forward<float>(const float*, std::size_t, std::size_t, std::size_t,
                                           const float*, float*, float*, float*);
template void qk_layer_norm_forward<double>(const double*, std::size_t, std::size_t, std::size_t,
                                            const double*, double*, double*, double*);
template void qk_layer_norm_backward<float>(const float*, std::size_t, std::size_t, std::size_t,
                                            const float*, const float*, const float*,
                                            const float*, float*, float*);
template void qk_layer_norm_backward<double>(const double*, std::size_t, std::size_t, std::size_t,
                                             const double*, const double*, const double*,
                                             const double*, double*, double*);

}  // namespace attn
