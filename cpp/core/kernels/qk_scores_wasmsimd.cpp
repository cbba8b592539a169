// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "kernels/qk_scores.h"

#if defined(__wasm_simd128__)
#include <algorithm>
#include <cstring>

#include "kernels/broadcast_tile_wasm.h"
#include "kernels/key_panels_wasm.h"
#include "kernels/simd_util_wasm.h"

namespace attn {

namespace simd {

namespace {

// One tile: R query rows (packed by pack_row_block, or d apart where they
// are) x 8 keys (broadcast_tile_x8 over the panel, whose step p holds element
// p of the 8 keys). No horizontal sums: lane c is key c's score.
template <int R, bool Packed>
inline void tile(const float* x, std::size_t d, const float* panel, float scale, float* s, std::size_t lds,
                 std::size_t keys) {
  const TileX8 acc = broadcast_tile_x8<R, Packed>(x, d, panel, 8, d);
  const v128_t vs = wasm_f32x4_splat(scale);
  for (int r = 0; r < R; ++r) {
    float* sr = s + r * lds;
    const v128_t lo = wasm_f32x4_mul(vs, acc.lo[r]), hi = wasm_f32x4_mul(vs, acc.hi[r]);
    if (keys == 8) {
      wasm_v128_store(sr, lo);
      wasm_v128_store(sr + 4, hi);
    } else {  // the last, zero-padded panel: only its real keys are written
      float tmp[8];
      wasm_v128_store(tmp, lo);
      wasm_v128_store(tmp + 4, hi);
      std::memcpy(sr, tmp, keys * sizeof(float));
    }
  }
}

template <bool Packed>
void score_rows(const float* q, std::size_t rows, const float* panels, std::size_t m, std::size_t d, float scale,
                float* s, std::size_t lds) {
  const float* x = Packed ? pack_row_block(q, rows, d, d) : q;  // packed once for all m/8 panels
  for (std::size_t j = 0; j < m; j += 8) {
    const float* panel = panels + j * d;
    const std::size_t keys = std::min<std::size_t>(8, m - j);
    if constexpr (Packed) {
      if (rows == 5) {
        tile<5, true>(x, d, panel, scale, s + j, lds, keys);
        continue;
      }
    }
    switch (rows) {
      case 4: tile<4, Packed>(x, d, panel, scale, s + j, lds, keys); break;
      case 3: tile<3, Packed>(x, d, panel, scale, s + j, lds, keys); break;
      case 2: tile<2, Packed>(x, d, panel, scale, s + j, lds, keys); break;
      default: tile<1, Packed>(x, d, panel, scale, s + j, lds, keys); break;
    }
  }
}

}  // namespace

void score_rows_from_panels(const float* q, std::size_t rows, const float* panels, std::size_t m,
                            std::size_t d, float scale, float* s, std::size_t lds) {
  if constexpr (kPackedRows > 0) {
    if (packed_tile(m)) return score_rows<true>(q, rows, panels, m, d, scale, s, lds);
  }
  score_rows<false>(q, rows, panels, m, d, scale, s, lds);
}

}  // namespace simd

#if defined(__wasm_relaxed_simd__)
void qk_scores_f32__wasmrelaxedsimd_4x8(const float* q, const float* k, std::size_t n, std::size_t m,
                                        std::size_t d, float scale, float* s) {
#else
void qk_scores_f32__wasmsimd_4x8(const float* q, const float* k, std::size_t n, std::size_t m,
                                 std::size_t d, float scale, float* s) {
#endif
  const float* panels = simd::pack_key_panels(k, m, d);
  const std::size_t rows = simd::tile_rows(m);
  for (std::size_t i = 0; i < n; i += rows)
    simd::score_rows_from_panels(q + i * d, std::min(rows, n - i), panels, m, d, scale, s + i * m, m);
}

}  // namespace attn
#endif
