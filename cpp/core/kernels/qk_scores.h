// Scores of every query against every key: S = scale · Q Kᵀ.
// Q [n x d], K [m x d], S [n x m], row-major; rows may be unaligned.
#pragma once

#include <cstddef>

#include "kernels/madd.h"

namespace attn {

// Reference: one dot product per score.
void qk_scores_f32__scalar(const float* q, const float* k, std::size_t n, std::size_t m,
                           std::size_t d, float scale, float* s);
// The same with every multiply-add fused (kernels/madd.h).
void qk_scores_f32__scalar_fma(const float* q, const float* k, std::size_t n, std::size_t m,
                               std::size_t d, float scale, float* s);

#if defined(__wasm_simd128__)
// Register tiles of 4 query rows x 8 keys: K is first transposed into panels of
// 8 keys (key_panels_wasm.h); each step loads element p of 8 keys (2 vectors)
// and broadcasts q[r][p] for 4 rows: 6 loads feed 8 f32x4 multiply-adds, and each
// score's sum runs over p in order, so the result equals the scalar twin's bit
// for bit. No horizontal sums (a 2x4 dot-product tile spent ~10% on them at d = 64).
// The relaxed-SIMD build names it __wasmrelaxedsimd_ (each multiply-add one
// relaxed_madd: the fused twin's bits where the engine fuses; also held to a
// double oracle). Against 64 keys or more its tile is 5 query rows, packed,
// for 10 FMA chains (broadcast_tile_wasm.h); the name keeps the 4x8 family's.
#if defined(__wasm_relaxed_simd__)
void qk_scores_f32__wasmrelaxedsimd_4x8(const float* q, const float* k, std::size_t n, std::size_t m,
                                        std::size_t d, float scale, float* s);
// The same with every multiply-add fused (kernels/madd.h).
void qk_scores_f32__scalar_fma(const float* q, const float* k, std::size_t n, std::size_t m,
                               std::size_t d, float scale, float* s);
#else
void qk_scores_f32__wasmsimd_4x8(const float* q, const float* k, std::size_t n, std::size_t m,
                                 std::size_t d, float scale, float* s);
// The same with every multiply-add fused (kernels/madd.h).
void qk_scores_f32__scalar_fma(const float* q, const float* k, std::size_t n, std::size_t m,
                               std::size_t d, float scale, float* s);
#endif

namespace simd {
// Its inner part, which the fused attention kernel reuses: scores of `rows`
// (1 to tile_rows(m), broadcast_tile_wasm.h) consecutive query rows q[r·d ..]
// against all m keys, from their panels (simd::pack_key_panels):
// s[r·lds + j] = scale · Σ_p q[r][p] k[j][p], summed over p in order, as the
// scalar twin does.
void score_rows_from_panels(const float* q, std::size_t rows, const float* panels, std::size_t m,
                            std::size_t d, float scale, float* s, std::size_t lds);
}  // namespace simd
#endif

inline void qk_scores_f32(const float* q, const float* k, std::size_t n, std::size_t m,
                          std::size_t d, float scale, float* s) {
#if defined(__wasm_relaxed_simd__)
  qk_scores_f32__wasmrelaxedsimd_4x8(q, k, n, m, d, scale, s);
#elif defined(__wasm_simd128__)
  qk_scores_f32__wasmsimd_4x8(q, k, n, m, d, scale, s);
#else
  if (madd_mode() == Madd::fused) qk_scores_f32__scalar_fma(q, k, n, m, d, scale, s);
  else qk_scores_f32__scalar(q, k, n, m, d, scale, s);
#endif
}

}  // namespace attn
