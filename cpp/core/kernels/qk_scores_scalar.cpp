#include "kernels/dot.h"
#include "kernels/qk_scores.h"

namespace attn {

void qk_scores_f32__scalar(const float* q, const float* k, std::size_t n, std::size_t m,
                           std::size_t d, float scale, float* s) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) s[i * m + j] = scale * dot_f32__scalar(q + i * d, k + j * d, d);
}

}  // namespace attn
