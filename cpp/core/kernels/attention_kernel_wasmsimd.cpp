// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "kernels/attention_kernel.h"

#if defined(__wasm_simd128__)
#include <algorithm>

#include "kernels/broadcast_tile_wasm.h"
#include "kernels/key_panels_wasm.h"
#include "kernels/qk_scores.h"
#include "kernels/simd_util_wasm.h"
#include "kernels/softmax_row.h"

namespace attn {

using simd::madd;

namespace {

// o_r = sum_j w_r[j] v_j for R = 1 to 5 rows (w rows and o rows ldw, ldo apart).
// 8 columns at a time with broadcast_tile_x8 (step j: v_j's 8 columns, w_r[j]
// broadcast; the w rows packed first where the tile is packed), so V is read
// once for all R rows; each output sums over j in order, as the scalar twin does.
template <int R, bool Packed>
void weighted_sum(const float* w, std::size_t ldw, const float* v, std::size_t m, std::size_t dv, float* o,
                  std::size_t ldo) {
  std::size_t c = 0;
  const float* wp = Packed && dv >= 8 ? simd::pack_row_block(w, R, ldw, m) : w;
  for (; c + 8 <= dv; c += 8) {
    const simd::TileX8 acc = simd::broadcast_tile_x8<R, Packed>(wp, ldw, v + c, dv, m);
    for (int r = 0; r < R; ++r) {
      wasm_v128_store(o + r * ldo + c, acc.lo[r]);
      wasm_v128_store(o + r * ldo + c + 4, acc.hi[r]);
    }
  }
  // Fewer than 8 columns left: 4 at a time, then one at a time.
  for (; c + 4 <= dv; c += 4) {
    v128_t a[R];
    for (int r = 0; r < R; ++r) a[r] = wasm_f32x4_splat(0.0f);
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

// One block of `rows` query rows (at most tile_rows(m)): their scores, softmax
// and outputs, while their weights are still in L1.
template <bool Packed>
void attend_rows(const float* q, const float* panels, const float* v, AttentionDims s, float scale,
                 std::size_t rows, float* w, float* o) {
  simd::score_rows_from_panels(q, rows, panels, s.m, s.dk, scale, w, s.m);
  for (std::size_t r = 0; r < rows; ++r) softmax_row_f32(w + r * s.m, s.m);
  if constexpr (Packed) {
    if (rows == 5) return weighted_sum<5, true>(w, s.m, v, s.m, s.dv, o, s.dv);
  }
  switch (rows) {
    case 4: weighted_sum<4, Packed>(w, s.m, v, s.m, s.dv, o, s.dv); break;
    case 3: weighted_sum<3, Packed>(w, s.m, v, s.m, s.dv, o, s.dv); break;
    case 2: weighted_sum<2, Packed>(w, s.m, v, s.m, s.dv, o, s.dv); break;
    default: weighted_sum<1, Packed>(w, s.m, v, s.m, s.dv, o, s.dv); break;
  }
}

}  // namespace

#if defined(__wasm_relaxed_simd__)
void attention_f32__wasmrelaxedsimd(const float* q, const float* k, const float* v, AttentionDims s,
                                    float scale, float* w, float* o) {
#else
void attention_f32__wasmsimd(const float* q, const float* k, const float* v, AttentionDims s,
                             float scale, float* w, float* o) {
#endif
  const float* panels = simd::pack_key_panels(k, s.m, s.dk);  // once for all rows
  const std::size_t block = simd::tile_rows(s.m);
  for (std::size_t i = 0; i < s.n; i += block) {
    const std::size_t rows = std::min(block, s.n - i);
    if constexpr (simd::kPackedRows > 0) {
      if (simd::packed_tile(s.m)) {
        attend_rows<true>(q + i * s.dk, panels, v, s, scale, rows, w + i * s.m, o + i * s.dv);
        continue;
      }
    }
    attend_rows<false>(q + i * s.dk, panels, v, s, scale, rows, w + i * s.m, o + i * s.dv);
  }
}

}  // namespace attn
#endif
