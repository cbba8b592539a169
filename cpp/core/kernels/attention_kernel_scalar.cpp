#include "kernels/attention_kernel.h"
#include "kernels/qk_scores.h"
#include "kernels/softmax_row.h"

namespace attn {

void attention_f32__scalar(const float* q, const float* k, const float* v, AttentionDims s,
                           float scale, float* w, float* o) {
  for (std::size_t i = 0; i < s.n; ++i) {
    float* wi = w + i * s.m;
    // 1. scores of query i
    qk_scores_f32__scalar(q + i * s.dk, k, 1, s.m, s.dk, scale, wi);
    // 2. softmax of the row
    softmax_row_f32__scalar(wi, s.m);
    // 3. o_i = sum_j w_ij v_j
    float* oi = o + i * s.dv;
    for (std::size_t c = 0; c < s.dv; ++c) oi[c] = 0.0f;
    for (std::size_t j = 0; j < s.m; ++j)
      for (std::size_t c = 0; c < s.dv; ++c) oi[c] += wi[j] * v[j * s.dv + c];
  }
}

}  // namespace attn
