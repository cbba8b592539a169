// The SIMD kernels of the build under test, one name each, so a test written
// for "the SIMD kernel" runs in both SIMD builds: the SIMD128 build's kernels
// promise the scalar twin's bits; the relaxed-SIMD build's (ATTN_FUSED) fuse
// each multiply-add (f32x4.relaxed_madd), so they are held instead to a double
// oracle with the bound of the sums they compute (fused_bound below).
#pragma once

#include <cstddef>

#include "oracles.h"

#if defined(__wasm_simd128__)
#include "kernels/dot.h"
#include "kernels/matmul.h"
#include "kernels/qk_scores.h"
#include "kernels/attention_kernel.h"

namespace build_kernels {
#if defined(__wasm_relaxed_simd__)
#define ATTN_FUSED 1
inline constexpr auto dot = attn::dot_f32__wasmrelaxedsimd_acc4;
inline constexpr auto qk = attn::qk_scores_f32__wasmrelaxedsimd_4x8;
inline constexpr auto matmul = attn::matmul_f32__wasmrelaxedsimd_2x16;
inline constexpr auto attention = attn::attention_f32__wasmrelaxedsimd;
inline constexpr const char* dot_name = "dot_f32__wasmrelaxedsimd_acc4";
inline constexpr const char* matmul_name = "matmul_f32__wasmrelaxedsimd_2x16";
#else
inline constexpr auto dot = attn::dot_f32__wasmsimd_acc4;
inline constexpr auto qk = attn::qk_scores_f32__wasmsimd_4x8;
inline constexpr auto matmul = attn::matmul_f32__wasmsimd_2x16;
inline constexpr auto attention = attn::attention_f32__wasmsimd;
inline constexpr const char* dot_name = "dot_f32__wasmsimd_acc4";
inline constexpr const char* matmul_name = "matmul_f32__wasmsimd_2x16";
#endif
}  // namespace build_kernels
#endif

// γ_k = k·u / (1 - k·u), u = 2^-24: a float sum in which each term passes
// through at most k roundings is within γ_k · Σ|term| of the exact sum, in any
// order and whether each multiply-add rounds once (fused) or twice (Higham,
// Accuracy and Stability of Numerical Algorithms, §3.1). The double oracle's
// own error (γ_k in double, below 1e-12 of Σ|term| here) is added separately.
inline double fused_bound(std::size_t roundings, double sum_abs) {
  const double ku = static_cast<double>(roundings) * oracle::kFloatU;
  return ku / (1 - ku) * sum_abs + 1e-12 * sum_abs + 1e-37;
}
