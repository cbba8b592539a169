// The few primitives the training lab's layers are written in, for two number
// types: float calls the project's kernels, double runs plain reference loops.
// Training runs in float; the gradient checks run the very same layer code in
// double, so finite differences are honest there.
//
// Every float primitive sums in one fixed order in every build: matmul_f32's
// SIMD kernel vectorises across outputs, never across a sum, and the rest are
// scalar loops. So a run is the same bit for bit natively and in wasm, SIMD or
// not. That matters more than it seems: when attention saturates, many
// gradients are rounding noise, and Adam turns noise of either sign into a
// full step of ±lr, so any difference in summation order grows into a
// different run.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "base/flush_subnormals.h"
#include "kernels/matmul.h"
#include "kernels/softmax_row.h"

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

// C [m x n] = A [m x k] · Bᵀ, B [n x k]; all contiguous. Bᵀ is copied out so
// the product goes through matmul (B is a small weight matrix here).
template <typename T>
void matmul_nt(const T* a, const T* b, T* c, std::size_t m, std::size_t n, std::size_t k) {
  std::vector<T> bt(k * n);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t p = 0; p < k; ++p) bt[p * n + j] = b[j * k + p];
  matmul(Strided<T>{a, k, 1}, bt.data(), n, c, n, m, n, k, false);
}

// s[j] = Σ_p q[p] · k[j·ks + p] for j < m (rows of k are ks apart). One chain
// per j, in p order; four chains at a time so they overlap in the pipeline.
template <typename T>
void dots(const T* q, const T* k, std::size_t ks, std::size_t m, std::size_t n, T* s) {
  std::size_t j = 0;
  for (; j + 4 <= m; j += 4) {
    const T *k0 = k + j * ks, *k1 = k0 + ks, *k2 = k1 + ks, *k3 = k2 + ks;
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (std::size_t p = 0; p < n; ++p) {
      s0 += q[p] * k0[p];
      s1 += q[p] * k1[p];
      s2 += q[p] * k2[p];
      s3 += q[p] * k3[p];
    }
    s[j] = s0, s[j + 1] = s1, s[j + 2] = s2, s[j + 3] = s3;
  }
  for (; j < m; ++j) {
    T acc = 0;
    for (std::size_t p = 0; p < n; ++p) acc += q[p] * k[j * ks + p];
    s[j] = acc;
  }
}

// The scalar twin on purpose (see above): a row is only 17 wide here.
inline void softmax_row(float* x, std::size_t n) { softmax_row_f32__scalar(x, n); }
inline void softmax_row(double* x, std::size_t n) {
  double mx = x[0];
  for (std::size_t i = 1; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += (x[i] = std::exp(x[i] - mx));
  for (std::size_t i = 0; i < n; ++i) x[i] /= sum;
}

// Gradient rows [rows x cols], row stride ld: in float, entries below 2^-100
// to 0 (flush_subnormals.h, and mha_layer.cpp for why 2^-100); the double
// reference keeps every bit, so the gradient checks see the exact derivative.
inline void flush_gradient(float* x, std::size_t rows, std::size_t cols, std::size_t ld) {
  for (std::size_t r = 0; r < rows; ++r) flush_below(x + r * ld, cols, kGradientFloor);
}
inline void flush_gradient(double*, std::size_t, std::size_t, std::size_t) {}

}  // namespace attn::ops
