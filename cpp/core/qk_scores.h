// Scores of every query against every key: S = scale · Q Kᵀ.
// Q [n x d], K [m x d], S [n x m], row-major; rows may be unaligned.
#pragma once

#include <cstddef>

namespace attn {

// Reference: one dot product per score.
void qk_scores_f32__scalar(const float* q, const float* k, std::size_t n, std::size_t m,
                           std::size_t d, float scale, float* s);

#if defined(__wasm_simd128__)
// Register tiles of 2 query rows x 4 key rows: 8 f32x4 accumulators, so each
// loaded vector feeds 2 or 4 multiply-adds. 8 accumulators + 6 loads = 14 live
// v128 values, just inside V8's 16 xmm registers.
void qk_scores_f32__wasmsimd_2x4(const float* q, const float* k, std::size_t n, std::size_t m,
                                 std::size_t d, float scale, float* s);
#endif

inline void qk_scores_f32(const float* q, const float* k, std::size_t n, std::size_t m,
                          std::size_t d, float scale, float* s) {
#if defined(__wasm_simd128__)
  qk_scores_f32__wasmsimd_2x4(q, k, n, m, d, scale, s);
#else
  qk_scores_f32__scalar(q, k, n, m, d, scale, s);
#endif
}

}  // namespace attn
