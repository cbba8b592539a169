// The SIMD kernels of the build under test, one name each, so a test written
// for "the SIMD kernel" runs in both SIMD builds, and the scalar twin whose
// bits each must give: the SIMD128 build's kernels promise the plain twin's;
// the relaxed-SIMD build's (ATTN_FUSED) use f32x4.relaxed_madd, so they
// promise the fused twin's (kernels/madd.h) where this engine fuses, and the
// plain twin's where it does not. The relaxed ones are also held to a double
// oracle with the bound of the sums they compute (fused_bound below), which
// holds either way.
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
inline bool fuses() { return attn::madd_mode() == attn::Madd::fused; }
inline auto dot_twin() { return fuses() ? attn::dot_f32__scalar_fma : attn::dot_f32__scalar; }
inline auto qk_twin() { return fuses() ? attn::qk_scores_f32__scalar_fma : attn::qk_scores_f32__scalar; }
inline auto matmul_twin() { return fuses() ? attn::matmul_f32__scalar_fma : attn::matmul_f32__scalar; }
inline auto attention_twin() { return fuses() ? attn::attention_f32__scalar_fma : attn::attention_f32__scalar; }
#else
inline constexpr auto dot = attn::dot_f32__wasmsimd_acc4;
inline constexpr auto qk = attn::qk_scores_f32__wasmsimd_4x8;
inline constexpr auto matmul = attn::matmul_f32__wasmsimd_2x16;
inline constexpr auto attention = attn::attention_f32__wasmsimd;
inline constexpr const char* dot_name = "dot_f32__wasmsimd_acc4";
inline constexpr const char* matmul_name = "matmul_f32__wasmsimd_2x16";
inline auto dot_twin() { return attn::dot_f32__scalar; }
inline auto qk_twin() { return attn::qk_scores_f32__scalar; }
inline auto matmul_twin() { return attn::matmul_f32__scalar; }
inline auto attention_twin() { return attn::attention_f32__scalar; }
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
