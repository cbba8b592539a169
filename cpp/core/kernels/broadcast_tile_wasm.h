// The inner loop both attention tiles share (Q·Kᵀ on key panels, and W·V):
// up to 4 rows of x times 8 columns of b, in f32x4 accumulators.
// Include only under __wasm_simd128__.
#pragma once

#include <cstddef>

#include "kernels/simd_util_wasm.h"

namespace attn::simd {

// Row r's 8 sums: lo[r] holds columns 0-3, hi[r] columns 4-7.
struct Tile4x8 {
  v128_t lo[4], hi[4];
};

// For R rows (1 to 4): lo[r], hi[r] = sum over s < steps of x[r·ldx + s] times
// b[s·ldb + 0..7], summed over s in order (as the scalar twins sum). Per step:
// 2 loads of b, R broadcasts of x, 2R multiply-adds; 8 accumulators + 2 b
// vectors + 1 broadcast + 1 product = 12 live v128, inside V8's 16 xmm
// registers. Written out row by row on purpose: V8 keeps the order clang
// emits, and a loop over an accumulator array risks clang hoisting loads.
template <int R>
inline Tile4x8 broadcast_tile_4x8(const float* x, std::size_t ldx, const float* b, std::size_t ldb,
                                  std::size_t steps) {
  const float* x0 = x;
  const float* x1 = R > 1 ? x + ldx : x;
  const float* x2 = R > 2 ? x + 2 * ldx : x;
  const float* x3 = R > 3 ? x + 3 * ldx : x;
  v128_t a0 = wasm_f32x4_splat(0.0f), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
  for (std::size_t s = 0; s < steps; ++s, b += ldb) {
    const v128_t lo = wasm_v128_load(b), hi = wasm_v128_load(b + 4);
    v128_t v = wasm_v128_load32_splat(x0 + s);
    a0 = madd(a0, v, lo);
    b0 = madd(b0, v, hi);
    if (R > 1) {
      v = wasm_v128_load32_splat(x1 + s);
      a1 = madd(a1, v, lo);
      b1 = madd(b1, v, hi);
    }
    if (R > 2) {
      v = wasm_v128_load32_splat(x2 + s);
      a2 = madd(a2, v, lo);
      b2 = madd(b2, v, hi);
    }
    if (R > 3) {
      v = wasm_v128_load32_splat(x3 + s);
      a3 = madd(a3, v, lo);
      b3 = madd(b3, v, hi);
    }
  }
  return {{a0, a1, a2, a3}, {b0, b1, b2, b3}};
}

}  // namespace attn::simd
