// Compiled only where the target has WASM SIMD128 (em++ -msimd128); with
// -mrelaxed-simd too, madd is one fused f32x4.relaxed_madd (simd_util_wasm.h).
#include "kernels/dot.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/simd_util_wasm.h"

namespace attn {

using simd::madd;

#if defined(__wasm_relaxed_simd__)
float dot_f32__wasmrelaxedsimd_acc4(const float* a, const float* b, std::size_t n) {
#else
float dot_f32__wasmsimd_acc4(const float* a, const float* b, std::size_t n) {
#endif
  // The compiler does not split one reduction into independent chains (that
  // would reorder float adds), so unroll by hand: 4 accumulators hide the
  // add latency (8 were slower: V8 spills past ~14 live v128), 32 elements an
  // iteration halve the loop's compare and V8's stack check per element.
  // Written out on purpose: V8 keeps the instruction order clang emits, and
  // the same loop through a lambda, or unrolled to 64 or 128, measured 35-50%
  // slower at n = 4096.
  v128_t acc0 = wasm_f32x4_splat(0.0f);
  v128_t acc1 = acc0, acc2 = acc0, acc3 = acc0;
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    acc0 = madd(acc0, wasm_v128_load(a + i), wasm_v128_load(b + i));
    acc1 = madd(acc1, wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4));
    acc2 = madd(acc2, wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8));
    acc3 = madd(acc3, wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12));
    acc0 = madd(acc0, wasm_v128_load(a + i + 16), wasm_v128_load(b + i + 16));
    acc1 = madd(acc1, wasm_v128_load(a + i + 20), wasm_v128_load(b + i + 20));
    acc2 = madd(acc2, wasm_v128_load(a + i + 24), wasm_v128_load(b + i + 24));
    acc3 = madd(acc3, wasm_v128_load(a + i + 28), wasm_v128_load(b + i + 28));
  }
  for (; i + 16 <= n; i += 16) {
    acc0 = madd(acc0, wasm_v128_load(a + i), wasm_v128_load(b + i));
    acc1 = madd(acc1, wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4));
    acc2 = madd(acc2, wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8));
    acc3 = madd(acc3, wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12));
  }
  for (; i + 4 <= n; i += 4) {
    acc0 = madd(acc0, wasm_v128_load(a + i), wasm_v128_load(b + i));
  }
  const v128_t acc = wasm_f32x4_add(wasm_f32x4_add(acc0, acc1), wasm_f32x4_add(acc2, acc3));
  float sum = (wasm_f32x4_extract_lane(acc, 0) + wasm_f32x4_extract_lane(acc, 1)) +
              (wasm_f32x4_extract_lane(acc, 2) + wasm_f32x4_extract_lane(acc, 3));
  // Tail: fewer than 4 elements left, done one at a time.
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace attn
#endif
