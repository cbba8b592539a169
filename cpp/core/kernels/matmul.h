// C = A·B (or C += A·B) for the training lab's projections and their weight
// gradients. B and C are row-major; A is read through two strides, so the same
// kernel does X·W (a_rs = k, a_cs = 1) and Xᵀ·dY (a_rs = 1, a_cs = m).
// A [m x k], B [k x n] with row stride ldb, C [m x n] with row stride ldc.
//
// Every C element is one chain c = c0 + a(i,0)·b(0,j) + a(i,1)·b(1,j) + ...
// in that order (c0 = 0, or C's old value when accumulating), in both twins:
// the SIMD kernel vectorises across j, never across the sum, so the twins
// agree bit for bit and native and wasm training runs stay close.
#pragma once

#include <cstddef>

#include "kernels/madd.h"

namespace attn {

struct MatmulDims {
  std::size_t m, n, k;
};

struct MatmulA {
  const float* data;
  std::size_t row_stride;  // step from a(i, p) to a(i+1, p)
  std::size_t col_stride;  // step from a(i, p) to a(i, p+1)
};

// Reference: i, p, j loops with p blocked so a slab of B stays in cache.
void matmul_f32__scalar(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                        MatmulDims d, bool accumulate);
// The same with the SIMD kernel's vector columns fused (kernels/madd.h).
void matmul_f32__scalar_fma(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                            MatmulDims d, bool accumulate);

#if defined(__wasm_simd128__)
// Register tiles of 2 rows x 16 columns: 8 f32x4 accumulators, 4 loads of B
// and 2 splats of A = 14 live v128 values, inside V8's 16 xmm registers.
// Then 2 x 4 and 1-row tiles, and a scalar loop for the last n % 4 columns.
// The relaxed-SIMD build names it __wasmrelaxedsimd_: each multiply-add one
// relaxed_madd, so its sums are the fused twin's bits where the engine fuses
// (tests: that twin, and a double oracle).
#if defined(__wasm_relaxed_simd__)
void matmul_f32__wasmrelaxedsimd_2x16(MatmulA a, const float* b, std::size_t ldb, float* c,
                                      std::size_t ldc, MatmulDims d, bool accumulate);
#else
void matmul_f32__wasmsimd_2x16(MatmulA a, const float* b, std::size_t ldb, float* c,
                               std::size_t ldc, MatmulDims d, bool accumulate);
#endif
#endif

inline void matmul_f32(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                       MatmulDims d, bool accumulate) {
#if defined(__wasm_relaxed_simd__)
  matmul_f32__wasmrelaxedsimd_2x16(a, b, ldb, c, ldc, d, accumulate);
#elif defined(__wasm_simd128__)
  matmul_f32__wasmsimd_2x16(a, b, ldb, c, ldc, d, accumulate);
#else
  if (madd_mode() == Madd::fused) matmul_f32__scalar_fma(a, b, ldb, c, ldc, d, accumulate);
  else matmul_f32__scalar(a, b, ldb, c, ldc, d, accumulate);
#endif
}

inline const char* matmul_f32_kernel_name() {
#if defined(__wasm_relaxed_simd__)
  return "matmul_f32__wasmrelaxedsimd_2x16";
#elif defined(__wasm_simd128__)
  return "matmul_f32__wasmsimd_2x16";
#else
  return madd_mode() == Madd::fused ? "matmul_f32__scalar_fma" : "matmul_f32__scalar";
#endif
}

}  // namespace attn
