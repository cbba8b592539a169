// Small SIMD128 helpers shared by the kernels. Include only under __wasm_simd128__.
#pragma once

#include <wasm_simd128.h>

namespace attn::simd {

// [Σa, Σb, Σc, Σd] from four vectors: a 4x4 transpose folded into the adds.
inline v128_t hsum4(v128_t a, v128_t b, v128_t c, v128_t d) {
  const v128_t ab = wasm_f32x4_add(wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
  const v128_t cd = wasm_f32x4_add(wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), wasm_i32x4_shuffle(c, d, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(ab, cd, 0, 1, 4, 5), wasm_i32x4_shuffle(ab, cd, 2, 3, 6, 7));
}

inline float hsum(v128_t a) {
  return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1)) +
         (wasm_f32x4_extract_lane(a, 2) + wasm_f32x4_extract_lane(a, 3));
}

inline float hmax(v128_t a) {
  const v128_t b = wasm_f32x4_pmax(a, wasm_i32x4_shuffle(a, a, 2, 3, 0, 1));
  const v128_t c = wasm_f32x4_pmax(b, wasm_i32x4_shuffle(b, b, 1, 0, 3, 2));
  return wasm_f32x4_extract_lane(c, 0);
}

// acc + a·b. In the relaxed-SIMD build (-mrelaxed-simd) one f32x4.relaxed_madd,
// which the engine runs as a fused multiply-add where the CPU has one (one
// rounding, so not the scalar twin's bits) and as mul then add where it has
// not; in the SIMD128 build a separate mul and add, rounded as the twin rounds.
inline v128_t madd(v128_t acc, v128_t a, v128_t b) {
#if defined(__wasm_relaxed_simd__)
  return wasm_f32x4_relaxed_madd(a, b, acc);
#else
  return wasm_f32x4_add(acc, wasm_f32x4_mul(a, b));
#endif
}

}  // namespace attn::simd
