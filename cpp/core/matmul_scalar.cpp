#include "matmul.h"

namespace attn {

namespace {
// Rows of B in one slab: 256 rows of a 512-wide B are 512 kB, which stays in
// L2 while every row of A walks over it.
constexpr std::size_t kSlab = 256;
}  // namespace

void matmul_f32__scalar(MatmulA a, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                        MatmulDims d, bool accumulate) {
  if (!accumulate) {
    for (std::size_t i = 0; i < d.m; ++i)
      for (std::size_t j = 0; j < d.n; ++j) c[i * ldc + j] = 0.0f;
  }
  for (std::size_t p0 = 0; p0 < d.k; p0 += kSlab) {
    const std::size_t p1 = p0 + kSlab < d.k ? p0 + kSlab : d.k;
    for (std::size_t i = 0; i < d.m; ++i) {
      float* ci = c + i * ldc;
      for (std::size_t p = p0; p < p1; ++p) {
        const float aip = a.data[i * a.row_stride + p * a.col_stride];
        const float* bp = b + p * ldb;
        // No reduction here, so the compiler may vectorise over j without
        // changing any result.
        for (std::size_t j = 0; j < d.n; ++j) ci[j] += aip * bp[j];
      }
    }
  }
}

}  // namespace attn
