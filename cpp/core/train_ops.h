// The few primitives the training lab's layers are written in, for two number
// types: float calls the project's kernels (SIMD128 where built), double runs
// plain reference loops. Training runs in float; the gradient checks run the
// very same layer code in double, so finite differences are honest there.
#pragma once

#include <cmath>
#include <cstddef>

#include "dot.h"
#include "matmul.h"
#include "qk_scores.h"
#include "softmax_row.h"

namespace attn::ops {

// A [m x k] read as a(i, p) = a[i * rs + p * cs].
template <typename T>
struct Strided {
  const T* data;
  std::size_t rs, cs;
};

// C [m x n] (+)= A · B, B row-major [k x n] with row stride ldb.
inline void matmul(Strided<float> a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                   std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
  matmul_f32({a.data, a.rs, a.cs}, b, ldb, c, ldc, {m, n, k}, accumulate);
}
inline void matmul(Strided<double> a, const double* b, std::size_t ldb, double* c,
                   std::size_t ldc, std::size_t m, std::size_t n, std::size_t k, bool accumulate) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = accumulate ? c[i * ldc + j] : 0.0;
      for (std::size_t p = 0; p < k; ++p) s += a.data[i * a.rs + p * a.cs] * b[p * ldb + j];
      c[i * ldc + j] = s;
    }
}

// C [m x n] = A [m x k] · Bᵀ, B [n x k]; all contiguous (the dot-product form).
inline void matmul_nt(const float* a, const float* b, float* c, std::size_t m, std::size_t n,
                      std::size_t k) {
  qk_scores_f32(a, b, m, n, k, 1.0f, c);
}
inline void matmul_nt(const double* a, const double* b, double* c, std::size_t m, std::size_t n,
                      std::size_t k) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (std::size_t p = 0; p < k; ++p) s += a[i * k + p] * b[j * k + p];
      c[i * n + j] = s;
    }
}

inline float dot(const float* a, const float* b, std::size_t n) { return dot_f32(a, b, n); }
inline double dot(const double* a, const double* b, std::size_t n) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

inline void softmax_row(float* x, std::size_t n) { softmax_row_f32(x, n); }
inline void softmax_row(double* x, std::size_t n) {
  double mx = x[0];
  for (std::size_t i = 1; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += (x[i] = std::exp(x[i] - mx));
  for (std::size_t i = 0; i < n; ++i) x[i] /= sum;
}

}  // namespace attn::ops
