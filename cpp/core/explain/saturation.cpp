#include "explain/saturation.h"

#include <cmath>

#include "base/argument_checks.h"
#include "base/divisor.h"
#include "base/rng.h"
#include "base/size_limits.h"
#include "explain/softmax.h"
#include "kernels/dot.h"

namespace attn {

namespace {

// Running sum and sum of squares of one statistic over rows.
struct Acc {
  double s1 = 0, s2 = 0;
  void add(double x) {
    s1 += x;
    s2 += x * x;
  }
  MeanSe result(std::size_t n) const {
    const double dn = static_cast<double>(n);
    MeanSe r;
    r.mean = s1 / dn;
    if (n > 1) {
      const double var = std::fmax(s2 / dn - r.mean * r.mean, 0.0) * dn / (dn - 1);
      r.se = std::sqrt(var / dn);
    }
    return r;
  }
};

}  // namespace

std::vector<SaturationStats> saturation_point(std::size_t dk, std::size_t m, std::size_t rows,
                                              std::uint64_t seed, const double* divisors,
                                              std::size_t n_divisors) {
  check_size("dk", dk, 1, limits::kMaxDk);
  check_size("m", m, 1, limits::kMaxSeqLen);
  check_size("rows", rows, 1, kMaxSaturationRows);
  check_product("rows*m", rows, m, limits::kMaxSampleWork);
  check_product("rows*m*dk", rows * m, dk, limits::kMaxSampleWork);
  check_size("divisors", n_divisors, 1, kMaxSaturationDivisors);
  check_not_null("divisors", divisors);
  for (std::size_t c = 0; c < n_divisors; ++c) Divisor::value(divisors[c]);

  Rng rng(seed);
  std::vector<float> q(dk), k(dk);
  std::vector<double> scores(m), probs(m);
  std::vector<Acc> acc(3 * n_divisors);
  for (std::size_t r = 0; r < rows; ++r) {
    for (auto& x : q) x = static_cast<float>(rng.normal());
    for (std::size_t j = 0; j < m; ++j) {
      for (auto& x : k) x = static_cast<float>(rng.normal());
      scores[j] = dot_f32(q.data(), k.data(), dk);
    }
    for (std::size_t c = 0; c < n_divisors; ++c) {
      const SoftmaxStats st = softmax_stats(scores.data(), m, divisors[c], probs.data());
      acc[3 * c].add(st.max_prob);
      acc[3 * c + 1].add(st.entropy);
      acc[3 * c + 2].add(st.jacobian_norm);
    }
  }

  std::vector<SaturationStats> out(n_divisors);
  for (std::size_t c = 0; c < n_divisors; ++c) {
    out[c].divisor = divisors[c];
    out[c].max_prob = acc[3 * c].result(rows);
    out[c].entropy = acc[3 * c + 1].result(rows);
    out[c].jacobian_norm = acc[3 * c + 2].result(rows);
  }
  return out;
}

}  // namespace attn
