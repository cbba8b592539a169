// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "softmax_row.h"

#if defined(__wasm_simd128__)
#include "simd_util_wasm.h"

namespace attn {

namespace {

// exp_f32_nonpositive, four lanes at a time (see softmax_row.h).
inline v128_t exp4_nonpositive(v128_t x) {
  const v128_t underflow = wasm_f32x4_lt(x, wasm_f32x4_splat(-87.33654f));
  const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504f)));
  v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  const v128_t y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r),
                                  wasm_f32x4_splat(1.0f));
  // n in [-126, 0] here, so n + 127 is a valid biased exponent.
  const v128_t bits = wasm_i32x4_shl(
      wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(y, bits), underflow);
}

}  // namespace

void softmax_row_f32__wasmsimd(float* x, std::size_t n) {
  // 1. max
  std::size_t i = 0;
  v128_t vmax = wasm_f32x4_splat(x[0]);
  for (; i + 4 <= n; i += 4) vmax = wasm_f32x4_pmax(vmax, wasm_v128_load(x + i));
  float mx = simd::hmax(vmax);
  for (; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  // 2. x = exp(x - max), summed in two accumulators
  const v128_t vm = wasm_f32x4_splat(mx);
  v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0;
  i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t e0 = exp4_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + i), vm));
    const v128_t e1 = exp4_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + i + 4), vm));
    wasm_v128_store(x + i, e0);
    wasm_v128_store(x + i + 4, e1);
    s0 = wasm_f32x4_add(s0, e0);
    s1 = wasm_f32x4_add(s1, e1);
  }
  for (; i + 4 <= n; i += 4) {
    const v128_t e0 = exp4_nonpositive(wasm_f32x4_sub(wasm_v128_load(x + i), vm));
    wasm_v128_store(x + i, e0);
    s0 = wasm_f32x4_add(s0, e0);
  }
  float sum = simd::hsum(wasm_f32x4_add(s0, s1));
  for (; i < n; ++i) {
    x[i] = exp_f32_nonpositive(x[i] - mx);
    sum += x[i];
  }
  // 3. scale by 1 / sum
  const float inv = 1.0f / sum;
  const v128_t vi = wasm_f32x4_splat(inv);
  i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(x + i, wasm_f32x4_mul(wasm_v128_load(x + i), vi));
  for (; i < n; ++i) x[i] *= inv;
}

}  // namespace attn
#endif
