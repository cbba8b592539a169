// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "kernels/softmax_row.h"

#if defined(__wasm_simd128__)
#include "kernels/simd_util_wasm.h"

namespace attn {

using simd::madd;

namespace {

// exp_f32_nonpositive, four lanes at a time, the same operations in the same
// order, each multiply-add a simd::madd: in the SIMD128 build a mul then an add
// (so exp_f32_nonpositive's bits in every lane), in the relaxed build one
// relaxed_madd (6 fewer operations an exp; attention 128x64 measured 1-4%
// faster). In two halves: the range reduction
// (x -> r and 2^n) and the polynomial. The softmax runs each half as its own
// pass over a chunk of the row: one exp is a chain of about 20 dependent
// operations, too long for the CPU to overlap more than two or three of them,
// and two passes of half the length each overlap twice as many.
struct Reduced {
  v128_t r, pow2n;
};

inline Reduced exp4_reduce(v128_t x) {
  // x >= kExpFloor ? x : -88, so NaN -> -88 and no subnormal result, as in the scalar exp
  x = wasm_v128_bitselect(x, wasm_f32x4_splat(-88.0f), wasm_f32x4_ge(x, wasm_f32x4_splat(kExpFloor)));
  // n = nearbyint(x·log2 e) by the 1.5·2^23 trick: adding it rounds to nearest
  // even (as nearbyint does) and leaves n in the low mantissa bits. V8 turns
  // f32x4.nearest + i32x4.trunc_sat_f32x4_s into a dozen x64 instructions; this
  // is one add and one subtract.
  const v128_t magic = wasm_f32x4_splat(12582912.0f);
  const v128_t t = madd(magic, x, wasm_f32x4_splat(1.44269504f));
  const v128_t n = wasm_f32x4_sub(t, magic);
  v128_t r = madd(x, n, wasm_f32x4_splat(-0.693359375f));
  r = madd(r, n, wasm_f32x4_splat(2.12194440e-4f));
  // t's bits are 0x4B400000 + n; shifted left by 23 the constant part drops
  // out, leaving (n + 127) << 23 = 2^n (n in [-127, 0]; -127 gives 0.0f).
  return {r, wasm_i32x4_shl(wasm_i32x4_add(t, wasm_i32x4_splat(127)), 23)};
}

inline v128_t exp4_finish(v128_t r, v128_t pow2n) {
  const v128_t r2 = wasm_f32x4_mul(r, r);
  const v128_t r4 = wasm_f32x4_mul(r2, r2);
  const v128_t pa = madd(wasm_f32x4_splat(1.3981999507e-3f), wasm_f32x4_splat(1.9875691500e-4f), r);
  const v128_t pb = madd(wasm_f32x4_splat(4.1665795894e-2f), wasm_f32x4_splat(8.3334519073e-3f), r);
  const v128_t pc = madd(wasm_f32x4_splat(5.0000001201e-1f), wasm_f32x4_splat(1.6666665459e-1f), r);
  const v128_t p = madd(madd(pc, pb, r2), pa, r4);
  const v128_t y = wasm_f32x4_add(madd(r, p, r2), wasm_f32x4_splat(1.0f));
  return wasm_f32x4_mul(y, pow2n);
}

}  // namespace

void exp_nonpositive_f32__wasmsimd(const float* x, float* y, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const Reduced red = exp4_reduce(wasm_v128_load(x + i));
    wasm_v128_store(y + i, exp4_finish(red.r, red.pow2n));
  }
  for (; i < n; ++i) y[i] = exp_f32_nonpositive(x[i]);
}

void softmax_row_f32__wasmsimd(float* x, std::size_t n) {
  // 1. max
  std::size_t i = 0;
  v128_t vmax = wasm_f32x4_splat(x[0]);
  for (; i + 4 <= n; i += 4) vmax = wasm_f32x4_pmax(vmax, wasm_v128_load(x + i));
  float mx = simd::hmax(vmax);
  for (; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  // 2. x = exp(x - max), summed, in chunks of up to 256: first r into x and
  // 2^n into a side buffer, then the polynomial (see exp4_reduce).
  const v128_t vm = wasm_f32x4_splat(mx);
  v128_t s0 = wasm_f32x4_splat(0.0f);
  const std::size_t n4 = n - n % 4;
  alignas(16) float pow2n[256];
  for (std::size_t c = 0; c < n4; c += 256) {
    const std::size_t len = n4 - c < 256 ? n4 - c : 256;
    float* xc = x + c;
    for (std::size_t j = 0; j < len; j += 4) {
      const Reduced red = exp4_reduce(wasm_f32x4_sub(wasm_v128_load(xc + j), vm));
      wasm_v128_store(xc + j, red.r);
      wasm_v128_store(pow2n + j, red.pow2n);
    }
    for (std::size_t j = 0; j < len; j += 4) {
      const v128_t e = exp4_finish(wasm_v128_load(xc + j), wasm_v128_load(pow2n + j));
      wasm_v128_store(xc + j, e);
      s0 = wasm_f32x4_add(s0, e);
    }
  }
  i = n4;
  float sum = simd::hsum(s0);
  for (; i < n; ++i) {
    x[i] = exp_f32_nonpositive(x[i] - mx);
    sum += x[i];
  }
  // 3. scale by 1 / sum, a subnormal weight to +0 (lanes whose exponent bits are 0)
  const float inv = 1.0f / sum;
  const v128_t vi = wasm_f32x4_splat(inv);
  const v128_t exponent = wasm_i32x4_splat(0x7f800000);
  i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t p = wasm_f32x4_mul(wasm_v128_load(x + i), vi);
    const v128_t normal = wasm_i32x4_ne(wasm_v128_and(p, exponent), wasm_i32x4_splat(0));
    wasm_v128_store(x + i, wasm_v128_and(p, normal));
  }
  for (; i < n; ++i) x[i] = flush_subnormal(x[i] * inv);
}

}  // namespace attn
#endif
