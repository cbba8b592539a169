// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "attention_kernel.h"

#if defined(__wasm_simd128__)
#include "qk_scores.h"
#include "simd_util_wasm.h"
#include "softmax_row.h"

namespace attn {

using simd::madd;

namespace {

// o_r = sum_j w_r[j] v_j for R = 1 or 2 rows.
template <int R>
void weighted_sum(const float* w0, const float* w1, const float* v, std::size_t m, std::size_t dv,
                  float* o0, float* o1) {
  std::size_t c = 0;
  // 16 columns at a time: 4 vectors of v feed 2 rows = 8 accumulators.
  for (; c + 16 <= dv; c += 16) {
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    v128_t b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    for (std::size_t j = 0; j < m; ++j) {
      const float* vj = v + j * dv + c;
      const v128_t x0 = wasm_v128_load(vj), x1 = wasm_v128_load(vj + 4);
      const v128_t x2 = wasm_v128_load(vj + 8), x3 = wasm_v128_load(vj + 12);
      const v128_t s0 = wasm_f32x4_splat(w0[j]);
      a0 = madd(a0, s0, x0);
      a1 = madd(a1, s0, x1);
      a2 = madd(a2, s0, x2);
      a3 = madd(a3, s0, x3);
      if (R == 2) {
        const v128_t s1 = wasm_f32x4_splat(w1[j]);
        b0 = madd(b0, s1, x0);
        b1 = madd(b1, s1, x1);
        b2 = madd(b2, s1, x2);
        b3 = madd(b3, s1, x3);
      }
    }
    wasm_v128_store(o0 + c, a0);
    wasm_v128_store(o0 + c + 4, a1);
    wasm_v128_store(o0 + c + 8, a2);
    wasm_v128_store(o0 + c + 12, a3);
    if (R == 2) {
      wasm_v128_store(o1 + c, b0);
      wasm_v128_store(o1 + c + 4, b1);
      wasm_v128_store(o1 + c + 8, b2);
      wasm_v128_store(o1 + c + 12, b3);
    }
  }
  // 4 columns at a time.
  for (; c + 4 <= dv; c += 4) {
    v128_t a = wasm_f32x4_splat(0.0f), b = a;
    for (std::size_t j = 0; j < m; ++j) {
      const v128_t x = wasm_v128_load(v + j * dv + c);
      a = madd(a, wasm_f32x4_splat(w0[j]), x);
      if (R == 2) b = madd(b, wasm_f32x4_splat(w1[j]), x);
    }
    wasm_v128_store(o0 + c, a);
    if (R == 2) wasm_v128_store(o1 + c, b);
  }
  // Tail: fewer than 4 columns left.
  for (; c < dv; ++c) {
    float a = 0.0f, b = 0.0f;
    for (std::size_t j = 0; j < m; ++j) {
      a += w0[j] * v[j * dv + c];
      if (R == 2) b += w1[j] * v[j * dv + c];
    }
    o0[c] = a;
    if (R == 2) o1[c] = b;
  }
}

}  // namespace

void attention_f32__wasmsimd(const float* q, const float* k, const float* v, AttentionDims s,
                             float scale, float* w, float* o) {
  std::size_t i = 0;
  for (; i + 2 <= s.n; i += 2) {
    float* w0 = w + i * s.m;
    qk_scores_f32__wasmsimd_2x4(q + i * s.dk, k, 2, s.m, s.dk, scale, w0);
    softmax_row_f32__wasmsimd(w0, s.m);
    softmax_row_f32__wasmsimd(w0 + s.m, s.m);
    weighted_sum<2>(w0, w0 + s.m, v, s.m, s.dv, o + i * s.dv, o + (i + 1) * s.dv);
  }
  if (i < s.n) {
    float* w0 = w + i * s.m;
    qk_scores_f32__wasmsimd_2x4(q + i * s.dk, k, 1, s.m, s.dk, scale, w0);
    softmax_row_f32__wasmsimd(w0, s.m);
    weighted_sum<1>(w0, w0, v, s.m, s.dv, o + i * s.dv, o + i * s.dv);
  }
}

}  // namespace attn
#endif
