// The attention forward kernel, unchecked: W = softmax(scale · Q Kᵀ), O = W V.
// Q [n x dk], K [m x dk], V [m x dv], W [n x m], O [n x dv], row-major.
// attention_forward() (attention.h) validates and then calls this.
#pragma once

#include <cstddef>

#include "kernels/madd.h"

namespace attn {

struct AttentionDims {
  std::size_t n, m, dk, dv;
};

// Reference: scores, softmax and W·V with the scalar twins, one row at a time.
void attention_f32__scalar(const float* q, const float* k, const float* v, AttentionDims s,
                           float scale, float* w, float* o);
// The same with the SIMD kernel's vector multiply-adds fused (kernels/madd.h).
void attention_f32__scalar_fma(const float* q, const float* k, const float* v, AttentionDims s,
                               float scale, float* w, float* o);

#if defined(__wasm_simd128__)
// K transposed into key panels once per call; then four query rows at a time,
// so their scores (4 x m floats) stay in L1 between the three passes: 4x8
// score tiles, vector exp softmax, and W·V with 4 rows x 8 columns = 8 f32x4
// accumulators held across all m keys (V read once per 4 rows).
// The relaxed-SIMD build names it __wasmrelaxedsimd (relaxed_madd in both
// tiles and the softmax's exp); from 64 keys its blocks are 5 rows, packed
// for both tiles (broadcast_tile_wasm.h).
#if defined(__wasm_relaxed_simd__)
void attention_f32__wasmrelaxedsimd(const float* q, const float* k, const float* v, AttentionDims s,
                                    float scale, float* w, float* o);
#else
void attention_f32__wasmsimd(const float* q, const float* k, const float* v, AttentionDims s,
                             float scale, float* w, float* o);
#endif
#endif

inline void attention_f32(const float* q, const float* k, const float* v, AttentionDims s,
                          float scale, float* w, float* o) {
#if defined(__wasm_relaxed_simd__)
  attention_f32__wasmrelaxedsimd(q, k, v, s, scale, w, o);
#elif defined(__wasm_simd128__)
  attention_f32__wasmsimd(q, k, v, s, scale, w, o);
#else
  if (madd_mode() == Madd::fused) attention_f32__scalar_fma(q, k, v, s, scale, w, o);
  else attention_f32__scalar(q, k, v, s, scale, w, o);
#endif
}

}  // namespace attn
