#include "mul_add_peak.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
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
  // add on two pipes each. 14 accumulators + m = 15 live v128, V8's limit.
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
#endif

}  // namespace attn::bench
