// The inner loop both attention tiles share (Q·Kᵀ on key panels, and W·V):
// up to 6 rows of x times 8 columns of b, in f32x4 accumulators.
// Include only under __wasm_simd128__.
#pragma once

#include <cstddef>

#include "kernels/simd_util_wasm.h"

namespace attn::simd {

// Query rows per tile of the Q·Kᵀ kernel (qk_scores_f32). SIMD128: 4, whose
// 8 accumulator chains hide the short add that ends each mul-then-add.
// Relaxed SIMD, against 64 keys or more: 6. A fused multiply-add has 4
// cycles' latency at 2 a cycle, so 8 chains leave the FMA pipes idle at every
// hiccup and 12 keep them fed; relaxed_madd needs no product register, so 12
// accumulators + 2 key vectors + 1 broadcast fit V8's 15 xmm registers, and
// the 6 rows are packed (pack_row_block, stride 8) so one pointer serves them.
// Measured in Chromium 156 on a Xeon (bench.html): Q·Kᵀ 128×64 42.1 against
// 38.7 GFLOP/s with 4 rows (1.30× SIMD128, from 1.18×). Fewer keys than 64
// keep 4 rows where they are: packing 6 rows for 2 key panels cost 16×64 7%
// in Chromium. Node 20's older V8 issues the 6 broadcasts before the
// multiply-adds and spills some (bench.sh: 128×64 5-10% slower than 4 rows
// there). The attention kernel keeps 4 rows in both builds, its Q·Kᵀ blocks
// matching its W·V blocks: with 6 it was 5% slower under Node 20 and 1%
// faster in Chromium. SIMD128 runs what it ran before.
#if defined(__wasm_relaxed_simd__)
inline constexpr std::size_t kQkRows = 6;
#else
inline constexpr std::size_t kQkRows = 4;
#endif
// How that tile reads its rows: packed with this stride, or (0) where they are.
inline constexpr std::size_t kQkStride = kQkRows > 4 ? 8 : 0;
// The fewest keys for which the packed tile runs.
inline constexpr std::size_t kQkPackedMinKeys = 64;

// Row r's 8 sums: lo[r] holds columns 0-3, hi[r] columns 4-7.
struct TileX8 {
  v128_t lo[6], hi[6];
};

// Where row r's element of the current step is: packed, one pointer moving S
// floats a step (offsets r are immediates); unpacked, a pointer a row and one
// shared step index.
template <int R, int S>
struct RowCursor {
  const float* p;
  RowCursor(const float* x, std::size_t) : p(x) {}
  const float* at(int r) const { return p + r; }
  void next() { p += S; }
};
template <int R>
struct RowCursor<R, 0> {
  const float* x[R];
  std::size_t s = 0;
  RowCursor(const float* base, std::size_t ldx) {
    for (int r = 0; r < R; ++r) x[r] = base + r * ldx;
  }
  const float* at(int r) const { return x[r] + s; }
  void next() { ++s; }
};

// For R rows (1 to 6) of x: lo[r], hi[r] = sum over s < steps of x_r[s] times
// b[s·ldb + 0..7], summed over s in order (as the scalar twins sum). S > 0:
// the rows packed by pack_row_block with stride S (x_r[s] at x[S·s + r]), so
// the broadcasts come from one pointer at fixed offsets; S = 0: x_r[s] at
// x[r·ldx + s]. Per step: 2 loads of b, R broadcasts, 2R multiply-adds.
// Written out row by row on purpose: V8 keeps the order clang emits, and a
// loop over an accumulator array risks clang hoisting loads.
template <int R, int S>
inline TileX8 broadcast_tile_x8(const float* x, std::size_t ldx, const float* b, std::size_t ldb,
                                std::size_t steps) {
  static_assert(R >= 1 && R <= 6 && (S == 0 || R <= S), "1 to 6 rows, within the stride");
  RowCursor<R, S> xs(x, ldx);
  v128_t a0 = wasm_f32x4_splat(0.0f), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
  v128_t a4 = a0, b4 = a0, a5 = a0, b5 = a0;
  for (std::size_t s = 0; s < steps; ++s, b += ldb, xs.next()) {
    const v128_t lo = wasm_v128_load(b), hi = wasm_v128_load(b + 4);
    v128_t v = wasm_v128_load32_splat(xs.at(0));
    a0 = madd(a0, v, lo);
    b0 = madd(b0, v, hi);
    if constexpr (R > 1) {
      v = wasm_v128_load32_splat(xs.at(1));
      a1 = madd(a1, v, lo);
      b1 = madd(b1, v, hi);
    }
    if constexpr (R > 2) {
      v = wasm_v128_load32_splat(xs.at(2));
      a2 = madd(a2, v, lo);
      b2 = madd(b2, v, hi);
    }
    if constexpr (R > 3) {
      v = wasm_v128_load32_splat(xs.at(3));
      a3 = madd(a3, v, lo);
      b3 = madd(b3, v, hi);
    }
    if constexpr (R > 4) {
      v = wasm_v128_load32_splat(xs.at(4));
      a4 = madd(a4, v, lo);
      b4 = madd(b4, v, hi);
    }
    if constexpr (R > 5) {
      v = wasm_v128_load32_splat(xs.at(5));
      a5 = madd(a5, v, lo);
      b5 = madd(b5, v, hi);
    }
  }
  return {{a0, a1, a2, a3, a4, a5}, {b0, b1, b2, b3, b4, b5}};
}

}  // namespace attn::simd
