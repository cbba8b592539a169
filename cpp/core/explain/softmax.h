// Softmax of one row of scores and the statistics that show saturation.
#pragma once

#include <cstddef>

namespace attn {

struct SoftmaxStats {
  double entropy = 0;        // nats; ln(n) for a uniform row, 0 for one-hot
  double max_prob = 0;       // the largest probability
  double jacobian_norm = 0;  // ||diag(p) - p p^T||_F: how much gradient flows back
  std::size_t argmax = 0;
};

// probs = softmax(scores / divisor) in double. Finite for any finite scores
// (including ±1e308): subtracting the max first means no exp overflows, and the
// statistics are computed without cancellation near one-hot, so a Jacobian norm
// of 1e-12 is still accurate. Throws ArgumentError for n == 0, n > kMaxScores,
// a non-finite score, or a divisor outside (0, kMaxDivisor]. If `scaled` is
// not null it receives scores / divisor (what the page shows as scaled scores;
// these alone can overflow to ±inf, e.g. 1e308 / 0.5).
SoftmaxStats softmax_stats(const double* scores, std::size_t n, double divisor, double* probs,
                           double* scaled = nullptr);

// x = softmax(x), in place, in float, with max subtraction. The hot path of
// attention: no checks (callers validate), n >= 1.
void softmax_f32_inplace(float* x, std::size_t n);

}  // namespace attn
