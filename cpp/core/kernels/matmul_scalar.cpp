#include "kernels/madd.h"
#include "kernels/matmul.h"

namespace attn {

namespace {
// Rows of B in one slab: 256 rows of a 512-wide B are 512 kB, which stays in
// L2 while every row of A walks over it.
constexpr std::size_t kSlab = 256;

// Fused: columns below n - n % 4 are the SIMD kernel's vector tiles, whose
// multiply-adds relaxed_madd fuses; the last n % 4 are its scalar tail, separate.
template <bool Fused>
ATTN_TWIN_BODY void matmul(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc, MatmulDims d,
            bool accumulate) {
  const std::size_t n4 = Fused ? d.n - d.n % 4 : d.n;
  if (!accumulate) {
    for (std::size_t i = 0; i < d.m; ++i)
      for (std::size_t j = 0; j < d.n; ++j) c[i * ldc + j] = 0.0f;
  }
  for (std::size_t p0 = 0; p0 < d.k; p0 += kSlab) {
    const std::size_t p1 = p0 + kSlab < d.k ? p0 + kSlab : d.k;
    for (std::size_t i = 0; i < d.m; ++i) {
      const float* ai = a.data + i * a.row_stride;
      float* ci = c + i * ldc;
      std::size_t p = p0;
      // Four rows of B per pass over the C row: a quarter of the C loads and
      // stores. The sum is still left to right, ((c + a0 b0) + a1 b1) + ...,
      // and with no reduction the compiler may vectorise over j freely.
      for (; p + 4 <= p1; p += 4) {
        const float a0 = ai[p * a.col_stride], a1 = ai[(p + 1) * a.col_stride];
        const float a2 = ai[(p + 2) * a.col_stride], a3 = ai[(p + 3) * a.col_stride];
        const float* b0 = b + p * ldb;
        const float* b1 = b0 + ldb;
        const float* b2 = b1 + ldb;
        const float* b3 = b2 + ldb;
        for (std::size_t j = 0; j < n4; ++j)
          ci[j] = madd_f32<Fused>(madd_f32<Fused>(madd_f32<Fused>(madd_f32<Fused>(ci[j], a0, b0[j]), a1, b1[j]),
                                                  a2, b2[j]), a3, b3[j]);
        for (std::size_t j = n4; j < d.n; ++j)
          ci[j] = ci[j] + a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
      }
      for (; p < p1; ++p) {
        const float ap = ai[p * a.col_stride];
        const float* bp = b + p * ldb;
        for (std::size_t j = 0; j < n4; ++j) ci[j] = madd_f32<Fused>(ci[j], ap, bp[j]);
        for (std::size_t j = n4; j < d.n; ++j) ci[j] += ap * bp[j];
      }
    }
  }
}

}  // namespace

void matmul_f32__scalar(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                        MatmulDims d, bool accumulate) {
  matmul<false>(a, b, ldb, c, ldc, d, accumulate);
}
ATTN_FMA_CLONES void matmul_f32__scalar_fma(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                            MatmulDims d, bool accumulate) {
  matmul<true>(a, b, ldb, c, ldc, d, accumulate);
}

}  // namespace attn
