// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "attention_kernel.h"

#if defined(__wasm_simd128__)
#include <algorithm>

#include "key_panels_wasm.h"
#include "simd_util_wasm.h"
#include "softmax_row.h"

namespace attn {

using simd::madd;

namespace {

// o_r = sum_j w_r[j] v_j for R = 1 to 4 rows (w rows and o rows ldw, ldo apart).
// 8 columns at a time: per key j, 2 loads of v_j and R broadcasts of w_r[j]
// feed 2R multiply-adds (8 accumulators for R = 4), and V is read once for
// all R rows. Each output sums over j in order, as the scalar twin does.
template <int R>
void weighted_sum(const float* w, std::size_t ldw, const float* v, std::size_t m, std::size_t dv, float* o,
                  std::size_t ldo) {
  const float* w0 = w;
  const float* w1 = R > 1 ? w + ldw : w;
  const float* w2 = R > 2 ? w + 2 * ldw : w;
  const float* w3 = R > 3 ? w + 3 * ldw : w;
  std::size_t c = 0;
  for (; c + 8 <= dv; c += 8) {
    v128_t a0 = wasm_f32x4_splat(0.0f), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
    const float* vj = v + c;
    for (std::size_t j = 0; j < m; ++j, vj += dv) {
      const v128_t lo = wasm_v128_load(vj), hi = wasm_v128_load(vj + 4);
      v128_t x = wasm_v128_load32_splat(w0 + j);
      a0 = madd(a0, x, lo);
      b0 = madd(b0, x, hi);
      if (R > 1) {
        x = wasm_v128_load32_splat(w1 + j);
        a1 = madd(a1, x, lo);
        b1 = madd(b1, x, hi);
      }
      if (R > 2) {
        x = wasm_v128_load32_splat(w2 + j);
        a2 = madd(a2, x, lo);
        b2 = madd(b2, x, hi);
      }
      if (R > 3) {
        x = wasm_v128_load32_splat(w3 + j);
        a3 = madd(a3, x, lo);
        b3 = madd(b3, x, hi);
      }
    }
    const v128_t out[8] = {a0, b0, a1, b1, a2, b2, a3, b3};
    for (int r = 0; r < R; ++r) {
      wasm_v128_store(o + r * ldo + c, out[2 * r]);
      wasm_v128_store(o + r * ldo + c + 4, out[2 * r + 1]);
    }
  }
  // Fewer than 8 columns left: 4 at a time, then one at a time.
  for (; c + 4 <= dv; c += 4) {
    v128_t a[4] = {wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f), wasm_f32x4_splat(0.0f)};
    for (std::size_t j = 0; j < m; ++j) {
      const v128_t x = wasm_v128_load(v + j * dv + c);
      for (int r = 0; r < R; ++r) a[r] = madd(a[r], wasm_v128_load32_splat(w + r * ldw + j), x);
    }
    for (int r = 0; r < R; ++r) wasm_v128_store(o + r * ldo + c, a[r]);
  }
  for (; c < dv; ++c) {
    for (int r = 0; r < R; ++r) {
      float a = 0.0f;
      for (std::size_t j = 0; j < m; ++j) a += w[r * ldw + j] * v[j * dv + c];
      o[r * ldo + c] = a;
    }
  }
}

}  // namespace

void attention_f32__wasmsimd(const float* q, const float* k, const float* v, AttentionDims s,
                             float scale, float* w, float* o) {
  const float* panels = simd::pack_key_panels(k, s.m, s.dk);  // once for all rows
  for (std::size_t i = 0; i < s.n; i += 4) {
    const std::size_t rows = std::min<std::size_t>(4, s.n - i);
    float* wi = w + i * s.m;
    simd::score_rows_from_panels(q + i * s.dk, rows, panels, s.m, s.dk, scale, wi, s.m);
    for (std::size_t r = 0; r < rows; ++r) softmax_row_f32__wasmsimd(wi + r * s.m, s.m);
    float* oi = o + i * s.dv;
    switch (rows) {
      case 4: weighted_sum<4>(wi, s.m, v, s.m, s.dv, oi, s.dv); break;
      case 3: weighted_sum<3>(wi, s.m, v, s.m, s.dv, oi, s.dv); break;
      case 2: weighted_sum<2>(wi, s.m, v, s.m, s.dv, oi, s.dv); break;
      default: weighted_sum<1>(wi, s.m, v, s.m, s.dv, oi, s.dv); break;
    }
  }
}

}  // namespace attn
#endif
