// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "qk_scores.h"

#if defined(__wasm_simd128__)
#include <algorithm>
#include <cstring>

#include "aligned_vector.h"
#include "broadcast_tile_wasm.h"
#include "key_panels_wasm.h"
#include "simd_util_wasm.h"

namespace attn {

namespace simd {

namespace {

// Rows r0..r3 (4 floats each) -> columns c0..c3.
inline void transpose4(v128_t r0, v128_t r1, v128_t r2, v128_t r3, v128_t& c0, v128_t& c1, v128_t& c2,
                       v128_t& c3) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  c0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  c1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  c2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  c3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

void pack_full_panel(const float* k, std::size_t d, float* out) {
  std::size_t p = 0;
  for (; p + 4 <= d; p += 4, out += 32) {  // two 4x4 transposes per 4 elements
    v128_t a0, a1, a2, a3, b0, b1, b2, b3;
    transpose4(wasm_v128_load(k + p), wasm_v128_load(k + d + p), wasm_v128_load(k + 2 * d + p),
               wasm_v128_load(k + 3 * d + p), a0, a1, a2, a3);
    transpose4(wasm_v128_load(k + 4 * d + p), wasm_v128_load(k + 5 * d + p), wasm_v128_load(k + 6 * d + p),
               wasm_v128_load(k + 7 * d + p), b0, b1, b2, b3);
    wasm_v128_store(out, a0);
    wasm_v128_store(out + 4, b0);
    wasm_v128_store(out + 8, a1);
    wasm_v128_store(out + 12, b1);
    wasm_v128_store(out + 16, a2);
    wasm_v128_store(out + 20, b2);
    wasm_v128_store(out + 24, a3);
    wasm_v128_store(out + 28, b3);
  }
  for (; p < d; ++p, out += 8)
    for (std::size_t c = 0; c < 8; ++c) out[c] = k[c * d + p];
}

// One tile: R query rows x 8 keys (broadcast_tile_4x8 over the panel, whose
// step p holds element p of the 8 keys). No horizontal sums: lane c is key c's score.
template <int R>
inline void tile(const float* q, std::size_t d, const float* panel, float scale, float* s, std::size_t lds,
                 std::size_t keys) {
  const Tile4x8 acc = broadcast_tile_4x8<R>(q, d, panel, 8, d);
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

}  // namespace

const float* pack_key_panels(const float* k, std::size_t m, std::size_t d) {
  thread_local AlignedFloats buffer;  // panel loads never straddle a cache line
  const std::size_t panels = (m + 7) / 8;
  if (buffer.size() < panels * 8 * d) buffer.resize(panels * 8 * d);
  for (std::size_t j = 0; j < m; j += 8) {
    float* out = buffer.data() + j * d;
    if (j + 8 <= m) {
      pack_full_panel(k + j * d, d, out);
    } else {
      for (std::size_t p = 0; p < d; ++p)
        for (std::size_t c = 0; c < 8; ++c) out[8 * p + c] = j + c < m ? k[(j + c) * d + p] : 0.0f;
    }
  }
  return buffer.data();
}

void score_rows_from_panels(const float* q, std::size_t rows, const float* panels, std::size_t m,
                            std::size_t d, float scale, float* s, std::size_t lds) {
  for (std::size_t j = 0; j < m; j += 8) {
    const float* panel = panels + j * d;
    const std::size_t keys = std::min<std::size_t>(8, m - j);
    switch (rows) {
      case 4: tile<4>(q, d, panel, scale, s + j, lds, keys); break;
      case 3: tile<3>(q, d, panel, scale, s + j, lds, keys); break;
      case 2: tile<2>(q, d, panel, scale, s + j, lds, keys); break;
      default: tile<1>(q, d, panel, scale, s + j, lds, keys); break;
    }
  }
}

}  // namespace simd

void qk_scores_f32__wasmsimd_4x8(const float* q, const float* k, std::size_t n, std::size_t m,
                                 std::size_t d, float scale, float* s) {
  const float* panels = simd::pack_key_panels(k, m, d);
  for (std::size_t i = 0; i < n; i += 4)
    simd::score_rows_from_panels(q + i * d, std::min<std::size_t>(4, n - i), panels, m, d, scale, s + i * m, m);
}

}  // namespace attn
#endif
