#include "kernels/madd.h"
#include "kernels/qk_scores.h"

namespace attn {

namespace {
template <bool Fused>
ATTN_TWIN_BODY void scores(const float* q, const float* k, std::size_t n, std::size_t m, std::size_t d, float scale,
            float* s) {
  // One accumulator, left to right: the order qk_scores_f32__wasmsimd_4x8
  // keeps per (i, j), so the twins agree bit for bit (not dot_f32's order).
  // Every multiply-add is in the SIMD kernel's vector tiles (its last panel is
  // zero-padded, not a scalar tail), so fused fuses them all.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (std::size_t c = 0; c < d; ++c) acc = madd_f32<Fused>(acc, q[i * d + c], k[j * d + c]);
      s[i * m + j] = scale * acc;
    }
}
}  // namespace

void qk_scores_f32__scalar(const float* q, const float* k, std::size_t n, std::size_t m,
                           std::size_t d, float scale, float* s) {
  scores<false>(q, k, n, m, d, scale, s);
}
ATTN_FMA_CLONES void qk_scores_f32__scalar_fma(const float* q, const float* k, std::size_t n, std::size_t m,
                               std::size_t d, float scale, float* s) {
  scores<true>(q, k, n, m, d, scale, s);
}

}  // namespace attn
