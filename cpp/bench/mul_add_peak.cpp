#include "mul_add_peak.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attn::bench {

namespace {
volatile float g_seed = 1e-3f;  // read at run time, so nothing folds to a constant
}

#if defined(__wasm_simd128__)
float mul_add_peak(std::size_t iters) {
  // 8 accumulators (more than the 4 that an add's latency needs), 2 operands:
  // 10 live v128 values, inside V8's 16 xmm registers.
  const v128_t x = wasm_f32x4_splat(g_seed), y = wasm_f32x4_splat(1.0f - g_seed);
  v128_t a0 = x, a1 = y, a2 = x, a3 = y, a4 = x, a5 = y, a6 = x, a7 = y;
  for (std::size_t i = 0; i < iters; ++i) {
    for (int twice = 0; twice < 2; ++twice) {
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(x, y));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(y, x));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(x, y));
      a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(y, x));
      a4 = wasm_f32x4_add(a4, wasm_f32x4_mul(x, y));
      a5 = wasm_f32x4_add(a5, wasm_f32x4_mul(y, x));
      a6 = wasm_f32x4_add(a6, wasm_f32x4_mul(x, y));
      a7 = wasm_f32x4_add(a7, wasm_f32x4_mul(y, x));
    }
  }
  const v128_t s = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, a1), wasm_f32x4_add(a2, a3)),
                                  wasm_f32x4_add(wasm_f32x4_add(a4, a5), wasm_f32x4_add(a6, a7)));
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 3);
}

double mul_add_peak_flops_per_round() { return 16.0 * 4 * 2; }
#else
float mul_add_peak(std::size_t iters) {
  const float x = g_seed, y = 1.0f - g_seed;
  float a[16];
  for (int j = 0; j < 16; ++j) a[j] = j % 2 ? x : y;
  for (std::size_t i = 0; i < iters; ++i)
    for (int j = 0; j < 16; ++j) a[j] += x * y;
  float s = 0;
  for (float v : a) s += v;
  return s;
}

double mul_add_peak_flops_per_round() { return 16.0 * 2; }
#endif

}  // namespace attn::bench
