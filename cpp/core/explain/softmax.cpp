#include "explain/softmax.h"

#include <cmath>
#include <vector>

#include "base/argument_checks.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "kernels/softmax_row.h"

namespace attn {

SoftmaxStats softmax_stats(const double* scores, std::size_t n, double divisor, double* probs,
                           double* scaled) {
  check_size("scores length", n, 1, limits::kMaxScores);
  check_not_null("scores", scores);
  check_not_null("probs", probs);
  check_finite("scores", scores, n);
  Divisor::value(divisor);  // throws unless 0 < divisor <= kMaxDivisor
  if (scaled)
    for (std::size_t i = 0; i < n; ++i) scaled[i] = scores[i] / divisor;

  // 1. z_i = (s_i - max) / divisor <= 0, so exp(z_i) is in [0, 1]. Subtracting
  //    before dividing keeps s/divisor from overflowing for a small divisor.
  std::size_t a = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (scores[i] > scores[a]) a = i;
  const double smax = scores[a];

  // 2. e_i = exp(z_i) into probs; rest = sum over i != argmax (the argmax has e = 1).
  //    Keeping `rest` apart gives 1 - p_max = rest / (1 + rest) without cancellation.
  //    Below ln(DBL_MIN) exp would be subnormal or underflow, both through libm's
  //    slow path and then subnormal arithmetic below (flush_subnormals.h): the
  //    checker on a saturated file ran 2.5x slower. Such an e_i is 0 instead.
  constexpr double kLnDblMin = -708.3964185322641;  // the least z with a normal exp(z)
  double rest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == a) continue;
    const double z = (scores[i] - smax) / divisor;  // -inf for gaps past the doubles
    probs[i] = z >= kLnDblMin ? std::exp(z) : 0.0;
    rest += probs[i];
  }
  const double total = 1.0 + rest;
  probs[a] = 1.0 / total;
  for (std::size_t i = 0; i < n; ++i)
    if (i != a) probs[i] /= total;

  SoftmaxStats st;
  st.argmax = a;
  st.max_prob = probs[a];

  // 3. Entropy H = -sum p ln p = ln(total) - sum p_i z_i; ln(total) = log1p(rest).
  //    Terms with p_i == 0 contribute 0 (and would be 0 * -inf otherwise).
  double pz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == a || probs[i] == 0.0) continue;
    pz += probs[i] * ((scores[i] - smax) / divisor);
  }
  st.entropy = std::log1p(rest) - pz;
  if (st.entropy < 0) st.entropy = 0;  // rounding at exactly one-hot

  // 4. ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_{i != j} p_i^2 p_j^2.
  //    With R = sum_{j != a} p_j^2, the off-diagonal part is
  //    p_a^2 R (row a) + sum_{i != a} p_i^2 (p_a^2 + R - p_i^2), and
  //    1 - p_a = sum_{i != a} p_i: no term cancels when p is nearly one-hot.
  //    Every term holds two probabilities other than p_a, so with t the largest
  //    of those and u_i = p_i / t, ||J||_F = t sqrt(bracket) with an O(1)
  //    bracket: nothing underflows even when p_i^2 would (gaps above ~354).
  double t = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (i != a && probs[i] > t) t = probs[i];
  if (t == 0) {
    st.jacobian_norm = 0;  // one-hot to double precision (or n == 1)
    return st;
  }
  const double pa = probs[a];
  double su = 0, su2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == a) continue;
    const double u = probs[i] / t;
    su += u;
    su2 += u * u;
  }
  const double r = t * t * su2;  // may underflow to 0; it only adds to O(1) terms
  double bracket = pa * pa * su * su + pa * pa * su2;  // row a: diagonal, off-diagonal
  for (std::size_t i = 0; i < n; ++i) {
    if (i == a) continue;
    const double u = probs[i] / t, p = probs[i];
    bracket += u * u * ((1.0 - p) * (1.0 - p) + pa * pa + (r - p * p));
  }
  st.jacobian_norm = t * std::sqrt(bracket);
  return st;
}

void softmax_f32_inplace(float* x, std::size_t n) { softmax_row_f32(x, n); }

}  // namespace attn
