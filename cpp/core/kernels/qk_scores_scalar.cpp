#include "kernels/qk_scores.h"

namespace attn {

void qk_scores_f32__scalar(const float* q, const float* k, std::size_t n, std::size_t m,
                           std::size_t d, float scale, float* s) {
  // One accumulator, left to right: the order qk_scores_f32__wasmsimd_4x8
  // keeps per (i, j), so the twins agree bit for bit (not dot_f32's order).
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      float acc = 0.0f;
      for (std::size_t c = 0; c < d; ++c) acc += q[i * d + c] * k[j * d + c];
      s[i * m + j] = scale * acc;
    }
}

}  // namespace attn
