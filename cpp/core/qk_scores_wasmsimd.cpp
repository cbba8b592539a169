// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "qk_scores.h"

#if defined(__wasm_simd128__)
#include "dot.h"
#include "simd_util_wasm.h"

namespace attn {

using simd::madd;

namespace {

// Scores for query rows q0 (and q1 if two) against key rows k + j*d, j < 4.
template <int R>
inline void tile(const float* q0, const float* q1, const float* k, std::size_t d, float scale,
                 float* s0, float* s1) {
  const float* k0 = k;
  const float* k1 = k + d;
  const float* k2 = k + 2 * d;
  const float* k3 = k + 3 * d;
  v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a02 = a00, a03 = a00;
  v128_t a10 = a00, a11 = a00, a12 = a00, a13 = a00;
  std::size_t p = 0;
  for (; p + 4 <= d; p += 4) {
    const v128_t x0 = wasm_v128_load(q0 + p);
    const v128_t y0 = wasm_v128_load(k0 + p), y1 = wasm_v128_load(k1 + p);
    const v128_t y2 = wasm_v128_load(k2 + p), y3 = wasm_v128_load(k3 + p);
    a00 = madd(a00, x0, y0);
    a01 = madd(a01, x0, y1);
    a02 = madd(a02, x0, y2);
    a03 = madd(a03, x0, y3);
    if (R == 2) {
      const v128_t x1 = wasm_v128_load(q1 + p);
      a10 = madd(a10, x1, y0);
      a11 = madd(a11, x1, y1);
      a12 = madd(a12, x1, y2);
      a13 = madd(a13, x1, y3);
    }
  }
  // Tail of d (fewer than 4 left), one element at a time into lane 0.
  for (; p < d; ++p) {
    const v128_t x0 = wasm_f32x4_make(q0[p], 0, 0, 0);
    a00 = madd(a00, x0, wasm_f32x4_splat(k0[p]));
    a01 = madd(a01, x0, wasm_f32x4_splat(k1[p]));
    a02 = madd(a02, x0, wasm_f32x4_splat(k2[p]));
    a03 = madd(a03, x0, wasm_f32x4_splat(k3[p]));
    if (R == 2) {
      const v128_t x1 = wasm_f32x4_make(q1[p], 0, 0, 0);
      a10 = madd(a10, x1, wasm_f32x4_splat(k0[p]));
      a11 = madd(a11, x1, wasm_f32x4_splat(k1[p]));
      a12 = madd(a12, x1, wasm_f32x4_splat(k2[p]));
      a13 = madd(a13, x1, wasm_f32x4_splat(k3[p]));
    }
  }
  const v128_t vs = wasm_f32x4_splat(scale);
  wasm_v128_store(s0, wasm_f32x4_mul(vs, simd::hsum4(a00, a01, a02, a03)));
  if (R == 2) wasm_v128_store(s1, wasm_f32x4_mul(vs, simd::hsum4(a10, a11, a12, a13)));
}

}  // namespace

void qk_scores_f32__wasmsimd_2x4(const float* q, const float* k, std::size_t n, std::size_t m,
                                 std::size_t d, float scale, float* s) {
  const std::size_t m4 = m - m % 4;
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const float* q0 = q + i * d;
    for (std::size_t j = 0; j < m4; j += 4)
      tile<2>(q0, q0 + d, k + j * d, d, scale, s + i * m + j, s + (i + 1) * m + j);
    for (std::size_t j = m4; j < m; ++j) {
      s[i * m + j] = scale * dot_f32__wasmsimd_acc4(q0, k + j * d, d);
      s[(i + 1) * m + j] = scale * dot_f32__wasmsimd_acc4(q0 + d, k + j * d, d);
    }
  }
  if (i < n) {  // odd n: the last row alone
    const float* q0 = q + i * d;
    for (std::size_t j = 0; j < m4; j += 4) tile<1>(q0, q0, k + j * d, d, scale, s + i * m + j, nullptr);
    for (std::size_t j = m4; j < m; ++j) s[i * m + j] = scale * dot_f32__wasmsimd_acc4(q0, k + j * d, d);
  }
}

}  // namespace attn
#endif
