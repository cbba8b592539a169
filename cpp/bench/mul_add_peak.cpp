#include "mul_add_peak.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

// Rounds stay rounds: unrolled, clang interleaves two and V8 (15 xmm registers) spills.
#if defined(__clang__)
#define ATTN_NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define ATTN_NO_UNROLL
#endif

namespace attn::bench {

namespace {
// Read at run time, so nothing folds to a constant: with x·y of two constants
// the compiler hoists the multiply out of the loop and only adds remain.
volatile float g_grow = 1.0000001f;
}

#if defined(__wasm_simd128__)
float mul_add_peak(std::size_t iters) {
  // Seven chains of multiplies (a *= m) and seven of adds (b += m): each
  // chain waits only on itself, so seven in flight cover a 3-cycle multiply or
  // add on two pipes each, with one chain to spare; that was too little on a
  // Zen 5 (80% of its rate, measured natively against 12 + 12 chains), so
  // mul_add_peak_8x6 below is measured beside it. 14 accumulators + m = 15
  // live v128, V8's limit.
  const v128_t m = wasm_f32x4_splat(g_grow);
  v128_t a0 = wasm_f32x4_splat(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0;
  v128_t b0 = wasm_f32x4_splat(0.0f), b1 = b0, b2 = b0, b3 = b0, b4 = b0, b5 = b0, b6 = b0;
  for (std::size_t i = 0; i < iters; ++i) {
    for (int twice = 0; twice < 2; ++twice) {
      a0 = wasm_f32x4_mul(a0, m);
      b0 = wasm_f32x4_add(b0, m);
      a1 = wasm_f32x4_mul(a1, m);
      b1 = wasm_f32x4_add(b1, m);
      a2 = wasm_f32x4_mul(a2, m);
      b2 = wasm_f32x4_add(b2, m);
      a3 = wasm_f32x4_mul(a3, m);
      b3 = wasm_f32x4_add(b3, m);
      a4 = wasm_f32x4_mul(a4, m);
      b4 = wasm_f32x4_add(b4, m);
      a5 = wasm_f32x4_mul(a5, m);
      b5 = wasm_f32x4_add(b5, m);
      a6 = wasm_f32x4_mul(a6, m);
      b6 = wasm_f32x4_add(b6, m);
    }
  }
  const v128_t a = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                                  wasm_f32x4_add(wasm_f32x4_add(a4, a5), a6));
  const v128_t b = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(b0, b1), wasm_f32x4_add(b2, b3)),
                                  wasm_f32x4_add(wasm_f32x4_add(b4, b5), b6));
  const v128_t s = wasm_f32x4_add(a, b);
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}

double mul_add_peak_flops_per_round() { return 14.0 * 4 * 2; }

float mul_add_peak_8x6(std::size_t iters) {
  // Eight chains of multiplies and six of adds, eight of each a round (two
  // add chains take a second add): 14 accumulators + m, V8's limit again, but
  // the multiplies, the slower of the two on many CPUs (3 cycles against 2 on
  // AMD Zen 5), have eight chains where two pipes need six. The shape above
  // has seven and left them short: 47 against 55-58 GFLOP/s on a Zen 5 under
  // Node 20, below the Q·Kᵀ kernel's 49. Where an add takes 3 cycles or more
  // (Zen 4, Intel) the doubled add chains wait instead, and the shape above is
  // the faster: the page and bench.mjs take the faster of the two.
  const v128_t m = wasm_f32x4_splat(g_grow);
  v128_t a0 = wasm_f32x4_splat(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  v128_t b0 = wasm_f32x4_splat(0.0f), b1 = b0, b2 = b0, b3 = b0, b4 = b0, b5 = b0;
  // Not unrolled: unrolled, clang interleaves two rounds and V8 spills.
  ATTN_NO_UNROLL
  for (std::size_t i = 0; i < iters; ++i) {
    a0 = wasm_f32x4_mul(a0, m);
    b0 = wasm_f32x4_add(b0, m);
    a1 = wasm_f32x4_mul(a1, m);
    b1 = wasm_f32x4_add(b1, m);
    a2 = wasm_f32x4_mul(a2, m);
    b2 = wasm_f32x4_add(b2, m);
    a3 = wasm_f32x4_mul(a3, m);
    b3 = wasm_f32x4_add(b3, m);
    a4 = wasm_f32x4_mul(a4, m);
    b4 = wasm_f32x4_add(b4, m);
    a5 = wasm_f32x4_mul(a5, m);
    b5 = wasm_f32x4_add(b5, m);
    a6 = wasm_f32x4_mul(a6, m);
    b0 = wasm_f32x4_add(b0, m);
    a7 = wasm_f32x4_mul(a7, m);
    b1 = wasm_f32x4_add(b1, m);
  }
  const v128_t a = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                                  wasm_f32x4_add(wasm_f32x4_add(a4, a5), wasm_f32x4_add(a6, a7)));
  const v128_t b = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(b0, b1), wasm_f32x4_add(b2, b3)),
                                  wasm_f32x4_add(b4, b5));
  const v128_t s = wasm_f32x4_add(a, b);
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}

double mul_add_peak_8x6_flops_per_round() { return 16.0 * 4; }

#if defined(__wasm_relaxed_simd__)
namespace {
volatile float g_step = 1e-7f;
}

float fma_peak(std::size_t iters) {
  // Twelve chains a = a·m + c: each waits only on itself, so twelve in flight
  // cover a 4-cycle FMA on two pipes (8 needed). 12 accumulators + m + c = 14
  // live v128: measured under Node 20 on a Xeon, 8 chains gave 29, 10 gave 31,
  // 12 gave 33 and 14 (spilling) 27 GFLOP/s. Where the engine does not fuse,
  // this is a mul+add rate again (the bench page shows both ceilings).
  const v128_t m = wasm_f32x4_splat(g_grow), c = wasm_f32x4_splat(g_step);
  v128_t a0 = wasm_f32x4_splat(1.0f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
  v128_t b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0;
  for (std::size_t i = 0; i < iters; ++i) {
    a0 = wasm_f32x4_relaxed_madd(a0, m, c);
    b0 = wasm_f32x4_relaxed_madd(b0, m, c);
    a1 = wasm_f32x4_relaxed_madd(a1, m, c);
    b1 = wasm_f32x4_relaxed_madd(b1, m, c);
    a2 = wasm_f32x4_relaxed_madd(a2, m, c);
    b2 = wasm_f32x4_relaxed_madd(b2, m, c);
    a3 = wasm_f32x4_relaxed_madd(a3, m, c);
    b3 = wasm_f32x4_relaxed_madd(b3, m, c);
    a4 = wasm_f32x4_relaxed_madd(a4, m, c);
    b4 = wasm_f32x4_relaxed_madd(b4, m, c);
    a5 = wasm_f32x4_relaxed_madd(a5, m, c);
    b5 = wasm_f32x4_relaxed_madd(b5, m, c);
  }
  const v128_t a = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                                  wasm_f32x4_add(a4, a5));
  const v128_t b = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(b0, b1), wasm_f32x4_add(b2, b3)),
                                  wasm_f32x4_add(b4, b5));
  const v128_t s = wasm_f32x4_add(a, b);
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}

double fma_peak_flops_per_round() { return 12.0 * 4 * 2; }
#endif
#else
float mul_add_peak(std::size_t iters) {
  const float m = g_grow;
  float a[7] = {1, 1, 1, 1, 1, 1, 1}, b[7] = {0, 0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < iters; ++i)
    for (int twice = 0; twice < 2; ++twice)
      for (int j = 0; j < 7; ++j) {
        a[j] *= m;
        b[j] += m;
      }
  float s = 0;
  for (int j = 0; j < 7; ++j) s += a[j] + b[j];
  return s;
}

double mul_add_peak_flops_per_round() { return 14.0 * 2; }

float mul_add_peak_8x6(std::size_t iters) {
  const float m = g_grow;
  float a0 = 1, a1 = 1, a2 = 1, a3 = 1, a4 = 1, a5 = 1, a6 = 1, a7 = 1;
  float b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0;
  ATTN_NO_UNROLL
  for (std::size_t i = 0; i < iters; ++i) {
    a0 *= m;
    b0 += m;
    a1 *= m;
    b1 += m;
    a2 *= m;
    b2 += m;
    a3 *= m;
    b3 += m;
    a4 *= m;
    b4 += m;
    a5 *= m;
    b5 += m;
    a6 *= m;
    b0 += m;
    a7 *= m;
    b1 += m;
  }
  return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + b0 + b1 + b2 + b3 + b4 + b5;
}

double mul_add_peak_8x6_flops_per_round() { return 16.0; }
#endif

}  // namespace attn::bench
