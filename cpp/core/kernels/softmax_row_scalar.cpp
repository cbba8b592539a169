#include "kernels/softmax_row.h"

namespace attn {

void softmax_row_f32__scalar(float* x, std::size_t n) {
  float mx = x[0];
  for (std::size_t i = 1; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  float sum = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = exp_f32_nonpositive(x[i] - mx);
    sum += x[i];
  }
  const float inv = 1.0f / sum;  // sum >= 1: the max element contributes exp(0) = 1
  for (std::size_t i = 0; i < n; ++i) x[i] = flush_subnormal(x[i] * inv);
}

}  // namespace attn
