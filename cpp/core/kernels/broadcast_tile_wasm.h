// The inner loop both attention tiles share (Q·Kᵀ on key panels, and W·V):
// up to 5 rows of x times 8 columns of b, in f32x4 accumulators.
// Include only under __wasm_simd128__.
#pragma once

#include <cstddef>

#include "kernels/key_panels_wasm.h"
#include "kernels/simd_util_wasm.h"

namespace attn::simd {

// Rows per tile of the attention kernels (Q·Kᵀ in qk_scores_f32 and in
// attention_f32, W·V in attention_f32). SIMD128, and any build below 64 keys:
// 4 rows where they are, whose 8 accumulator chains hide the short add that
// ends each mul-then-add. Relaxed SIMD from 64 keys: 5 rows, packed
// (pack_row_block). A fused multiply-add has 4 cycles' latency at 2 a cycle,
// so 8 chains leave the FMA pipes idle at every hiccup; 5 rows give 10.
// Rows 0-3 of a step are one f32x4 load, broadcast by shuffles, which V8
// schedules next to their multiply-adds: 10 accumulators, 2 key vectors, the
// row vector and a broadcast fit x64's 15 usable xmm registers with one to
// spare. Measured on a Xeon, Q·Kᵀ 128x64, relaxed over SIMD128: 4 unpacked
// rows 1.18x (Chromium 156) and 1.18x (Node 20); 6 packed rows, each broadcast
// its own load, 1.30x and 1.08x (Node 20's V8 issues a step's 6 broadcasts
// first and spills accumulators); these 5 rows 1.29x and 1.27-1.28x. Fewer
// than 64 keys keep 4 rows: packing 6 rows for 2 key panels cost 16x64 7-18%.
#if defined(__wasm_relaxed_simd__)
inline constexpr std::size_t kPackedRows = 5;
#else
inline constexpr std::size_t kPackedRows = 0;  // no packed tile
#endif
inline constexpr std::size_t kPackedMinKeys = 64;

// Whether a call against m keys (Q·Kᵀ) or m values (W·V) runs the packed
// tile, and how many rows its tiles take.
inline constexpr bool packed_tile(std::size_t m) { return kPackedRows > 0 && m >= kPackedMinKeys; }
inline constexpr std::size_t tile_rows(std::size_t m) { return packed_tile(m) ? kPackedRows : 4; }

// Row r's 8 sums: lo[r] holds columns 0-3, hi[r] columns 4-7.
struct TileX8 {
  v128_t lo[5], hi[5];
};

// Where row r's element of the current step comes from. Packed (by
// pack_row_block, kRowStride floats a step): rows 0-3 one load, then a
// shuffle each; row 4 a broadcast load. Unpacked: a pointer a row and one
// shared step index, a broadcast load each.
template <int R, bool Packed>
struct RowCursor {
  const float* p;
  v128_t first4;
  RowCursor(const float* x, std::size_t) : p(x) {}
  void load() { first4 = wasm_v128_load(p); }
  template <int r>
  v128_t splat() const {
    if constexpr (r < 4) return wasm_i32x4_shuffle(first4, first4, r, r, r, r);
    else return wasm_v128_load32_splat(p + r);
  }
  void next() { p += kRowStride; }
};
template <int R>
struct RowCursor<R, false> {
  const float* x[R];
  std::size_t s = 0;
  RowCursor(const float* base, std::size_t ldx) {
    for (int r = 0; r < R; ++r) x[r] = base + r * ldx;
  }
  void load() {}
  template <int r>
  v128_t splat() const { return wasm_v128_load32_splat(x[r] + s); }
  void next() { ++s; }
};

// For R rows (1 to 5) of x: lo[r], hi[r] = sum over s < steps of x_r[s] times
// b[s·ldb + 0..7], summed over s in order (as the scalar twins sum). Packed:
// the rows as pack_row_block leaves them (x_r[s] at x[kRowStride·s + r]);
// unpacked: x_r[s] at x[r·ldx + s]. Per step: 2 loads of b, R broadcasts,
// 2R multiply-adds.
// Written out row by row on purpose: V8 keeps the order clang emits, and a
// loop over an accumulator array risks clang hoisting loads.
template <int R, bool Packed>
inline TileX8 broadcast_tile_x8(const float* x, std::size_t ldx, const float* b, std::size_t ldb,
                                std::size_t steps) {
  static_assert(R >= 1 && R <= 5, "1 to 5 rows");
  RowCursor<R, Packed> xs(x, ldx);
  v128_t a0 = wasm_f32x4_splat(0.0f), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
  v128_t a4 = a0, b4 = a0;
  for (std::size_t s = 0; s < steps; ++s, b += ldb, xs.next()) {
    const v128_t lo = wasm_v128_load(b), hi = wasm_v128_load(b + 4);
    xs.load();
    v128_t v = xs.template splat<0>();
    a0 = madd(a0, v, lo);
    b0 = madd(b0, v, hi);
    if constexpr (R > 1) {
      v = xs.template splat<1>();
      a1 = madd(a1, v, lo);
      b1 = madd(b1, v, hi);
    }
    if constexpr (R > 2) {
      v = xs.template splat<2>();
      a2 = madd(a2, v, lo);
      b2 = madd(b2, v, hi);
    }
    if constexpr (R > 3) {
      v = xs.template splat<3>();
      a3 = madd(a3, v, lo);
      b3 = madd(b3, v, hi);
    }
    if constexpr (R > 4) {
      v = xs.template splat<4>();
      a4 = madd(a4, v, lo);
      b4 = madd(b4, v, hi);
    }
  }
  return {{a0, a1, a2, a3, a4}, {b0, b1, b2, b3, b4}};
}

}  // namespace attn::simd
