// Compiled only where the target has WASM SIMD128 (em++ -msimd128).
#include "kernels/matmul.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/simd_util_wasm.h"

namespace attn {

using simd::madd;

namespace {

constexpr std::size_t kSlab = 256;  // as in the scalar twin: a slab of B stays in L2

// C rows i0 (and i0+1 if R == 2), columns j0 .. j0 + 4V, over p in [p0, p1).
// Accumulators start from C (or 0 on the first slab when not accumulating),
// so each element's sum runs in the same order as the scalar twin's.
template <int R, int V>
inline void tile(MatmulA a, std::size_t i0, const float* b, std::size_t ldb, float* c,
                 std::size_t ldc, std::size_t j0, std::size_t p0, std::size_t p1, bool zero) {
  v128_t acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = zero ? wasm_f32x4_splat(0.0f) : wasm_v128_load(c + (i0 + r) * ldc + j0 + 4 * v);
  // Pointers stepped by their strides (no multiply per iteration: measured
  // about 15% faster under V8).
  const float* ap = a.data + i0 * a.row_stride + p0 * a.col_stride;
  const float* bp = b + p0 * ldb + j0;
  for (std::size_t p = p0; p < p1; ++p, ap += a.col_stride, bp += ldb) {
    v128_t y[V];
    for (int v = 0; v < V; ++v) y[v] = wasm_v128_load(bp + 4 * v);
    const v128_t x0 = wasm_v128_load32_splat(ap);
    for (int v = 0; v < V; ++v) acc[0][v] = madd(acc[0][v], x0, y[v]);
    if (R == 2) {
      const v128_t x1 = wasm_v128_load32_splat(ap + a.row_stride);
      for (int v = 0; v < V; ++v) acc[R - 1][v] = madd(acc[R - 1][v], x1, y[v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) wasm_v128_store(c + (i0 + r) * ldc + j0 + 4 * v, acc[r][v]);
}

template <int V>
inline void column_block(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                         std::size_t m, std::size_t j0, std::size_t p0, std::size_t p1, bool zero) {
  std::size_t i = 0;
  for (; i + 2 <= m; i += 2) tile<2, V>(a, i, b, ldb, c, ldc, j0, p0, p1, zero);
  if (i < m) tile<1, V>(a, i, b, ldb, c, ldc, j0, p0, p1, zero);
}

}  // namespace

#if defined(__wasm_relaxed_simd__)
void matmul_f32__wasmrelaxedsimd_2x16(MatmulA a, const float* b, std::size_t ldb, float* c,
                                      std::size_t ldc, MatmulDims d, bool accumulate) {
#else
void matmul_f32__wasmsimd_2x16(MatmulA a, const float* b, std::size_t ldb, float* c,
                               std::size_t ldc, MatmulDims d, bool accumulate) {
#endif
  const std::size_t n16 = d.n - d.n % 16, n4 = d.n - d.n % 4;
  if (d.k == 0 && !accumulate) {  // no slab below would clear C
    for (std::size_t i = 0; i < d.m; ++i)
      for (std::size_t j = 0; j < d.n; ++j) c[i * ldc + j] = 0.0f;
    return;
  }
  for (std::size_t p0 = 0; p0 < d.k; p0 += kSlab) {
    const std::size_t p1 = p0 + kSlab < d.k ? p0 + kSlab : d.k;
    const bool zero = !accumulate && p0 == 0;
    for (std::size_t j = 0; j < n16; j += 16) column_block<4>(a, b, ldb, c, ldc, d.m, j, p0, p1, zero);
    for (std::size_t j = n16; j < n4; j += 4) column_block<1>(a, b, ldb, c, ldc, d.m, j, p0, p1, zero);
    // Tail: fewer than 4 columns left, one element at a time, same order.
    for (std::size_t i = 0; i < d.m; ++i) {
      const float* ai = a.data + i * a.row_stride;
      for (std::size_t j = n4; j < d.n; ++j) {
        float s = zero ? 0.0f : c[i * ldc + j];
        for (std::size_t p = p0; p < p1; ++p) s += ai[p * a.col_stride] * b[p * ldb + j];
        c[i * ldc + j] = s;
      }
    }
  }
}

}  // namespace attn
#endif
