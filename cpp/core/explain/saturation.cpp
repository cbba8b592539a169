#include "explain/saturation.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "explain/softmax.h"
#include "kernels/dot.h"

namespace attn {

namespace {

// Mean and standard error of the mean from Welford's running mean and m2.
MeanSe mean_se(double mean, double m2, std::size_t n) {
  const double dn = static_cast<double>(n);
  MeanSe r;
  r.mean = mean;
  if (n > 1) r.se = std::sqrt(m2 / (dn - 1) / dn);
  return r;
}

constexpr std::size_t kHistBins = 1 + static_cast<std::size_t>(kHistDecades) * kHistPerDecade;

// log and exp, not log10 and pow: softmax already links them, and the
// explainer's wasm has a byte budget (pow and log10 cost it 2.7 kB gzip).
constexpr double kLn10 = 2.302585092994045684;

// Bin 0: below kHistLowest (0 included); bin i >= 1: [10^(e(i-1)), 10^(e(i))),
// e(i) = -kHistDecades + i / kHistPerDecade; 1 itself goes in the top bin.
std::size_t hist_bin(double v) {
  if (!(v >= kHistLowest)) return 0;
  const double i = std::floor((std::log(v) / kLn10 + kHistDecades) * kHistPerDecade);
  return std::min(kHistBins - 1, 1 + static_cast<std::size_t>(std::max(0.0, i)));
}

double bin_edge(std::size_t i) {  // the upper edge of bin i
  return std::exp((-kHistDecades + static_cast<double>(i) / kHistPerDecade) * kLn10);
}

// 10^-k as the literal "1e-k" reads (the reported threshold): strtod, which
// the number grammar links already; a table of 40 doubles cost the
// explainer's wasm 0.3 kB gzip.
double power_of_ten(int k) {
  char text[8] = {'1', 'e', '-', static_cast<char>('0' + k / 10), static_cast<char>('0' + k % 10), 0};
  return std::strtod(text, nullptr);
}

Median hist_median(const std::uint32_t* h, std::size_t n) {
  const double half = 0.5 * static_cast<double>(n);
  double before = 0;
  for (std::size_t i = 0; i < kHistBins; ++i) {
    if (h[i] == 0) continue;
    if (before + h[i] >= half) {
      Median m;
      m.hi = bin_edge(i);
      if (i == 0) return m;  // below kHistLowest: [0, 1e-40), estimate 0
      m.lo = bin_edge(i - 1);
      const double f = (half - before) / h[i];
      m.estimate = m.lo * std::exp(f * std::log(m.hi / m.lo));
      return m;
    }
    before += h[i];
  }
  return {};
}

// Share of the n rows in the bins wholly below 10^-k (k an integer: an edge).
double hist_below(const std::uint32_t* h, std::size_t n, int k) {
  const std::size_t end = 1 + static_cast<std::size_t>(kHistDecades - k) * kHistPerDecade;
  double c = 0;
  for (std::size_t i = 0; i < end; ++i) c += h[i];
  return c / static_cast<double>(n);
}

void check_divisors(std::size_t n_divisors, const double* divisors) {
  check_size("divisors", n_divisors, 1, kMaxSaturationDivisors);
  check_not_null("divisors", divisors);
  for (std::size_t c = 0; c < n_divisors; ++c) Divisor::value(divisors[c]);
}

// 0 is no cap; else the trainer's range (size_limits.h), so a cap means the same on every page and command.
void check_softcap(double softcap) {
  if (softcap != 0) check_real("softcap", softcap, limits::kMinCap, limits::kMaxCap);
}

}  // namespace

SaturationSession::SaturationSession(std::size_t dk, std::size_t m, std::uint64_t seed,
                                     const double* divisors, std::size_t n_divisors)
    : dk_(dk), m_(m), rng_(seed) {
  check_size("dk", dk, 1, limits::kMaxDk);
  check_size("m", m, 1, limits::kMaxSeqLen);
  check_divisors(n_divisors, divisors);
  divisors_.assign(divisors, divisors + n_divisors);
  acc_.resize(4 * n_divisors);
  q_.resize(dk);
  k_.resize(dk);
  scores_.resize(m);
  probs_.resize(m);
}

SaturationSession::SaturationSession(std::size_t dk, std::size_t m, std::uint64_t seed,
                                     const double* divisors, std::size_t n_divisors, double softcap)
    : SaturationSession(dk, m, seed, divisors, n_divisors) {
  check_softcap(softcap);
  if (softcap == 0) return;
  softcap_ = softcap;
  capped_.resize(m);
  // Capped after the divisor, so the softmax then divides by 1. A score (a float
  // dot product) over a divisor >= 1e-30 is a finite double, and so is x / c (c >= 1e-3).
  cap_ = [](const double* s, std::size_t n, double divisor, double c, double* out) {
    for (std::size_t j = 0; j < n; ++j) out[j] = c * std::tanh(s[j] / divisor / c);
  };
}

void SaturationSession::draw(std::size_t rows) {
  check_size("rows", rows, 1, kMaxSaturationRows - rows_);
  check_product("rows*m", rows, m_, limits::kMaxSampleWork);
  check_product("rows*m*dk", rows * m_, dk_, limits::kMaxSampleWork);
  for (std::size_t r = 0; r < rows; ++r) {
    for (auto& x : q_) x = static_cast<float>(rng_.normal());
    for (std::size_t j = 0; j < m_; ++j) {
      for (auto& x : k_) x = static_cast<float>(rng_.normal());
      scores_[j] = dot_f32(q_.data(), k_.data(), dk_);
    }
    const double n = static_cast<double>(rows_ + r + 1);
    for (std::size_t c = 0; c < divisors_.size(); ++c) {
      SoftmaxStats st;
      if (!cap_) {
        st = softmax_stats(scores_.data(), m_, divisors_[c], probs_.data());
      } else {
        cap_(scores_.data(), m_, divisors_[c], softcap_, capped_.data());
        st = softmax_stats(capped_.data(), m_, 1.0, probs_.data());
      }
      // p_t(1 - p_t) for key 0, with 1 - p_t as the sum of the others: no
      // cancellation when p_t is within 1e-16 of 1.
      double rest = 0;
      for (std::size_t j = 1; j < m_; ++j) rest += probs_[j];
      const double target = probs_[0] * rest;
      if (record_) record_(&hist_[2 * kHistBins * c], st.jacobian_norm, target);
      const double x[4] = {st.max_prob, st.entropy, st.jacobian_norm, target};
      for (int i = 0; i < 4; ++i) {
        Running& a = acc_[4 * c + i];
        const double delta = x[i] - a.mean;
        a.mean += delta / n;
        a.m2 += delta * (x[i] - a.mean);
      }
    }
  }
  rows_ += rows;
}

std::vector<SaturationStats> SaturationSession::stats(int threshold_exponent) const {
  check_size("threshold", static_cast<std::size_t>(std::max(0, threshold_exponent)), 1, kMaxThresholdExponent);
  std::vector<SaturationStats> out(divisors_.size());
  if (rows_ == 0) return out;
  for (std::size_t c = 0; c < divisors_.size(); ++c) {
    const Running* a = &acc_[4 * c];
    SaturationStats& o = out[c];
    o.divisor = divisors_[c];
    o.max_prob = mean_se(a[0].mean, a[0].m2, rows_);
    o.entropy = mean_se(a[1].mean, a[1].m2, rows_);
    o.jacobian_norm = mean_se(a[2].mean, a[2].m2, rows_);
    o.target_grad = mean_se(a[3].mean, a[3].m2, rows_);
    if (read_) read_(&hist_[2 * kHistBins * c], rows_, threshold_exponent, o);
  }
  return out;
}

void SaturationSession::enable_distribution() {
  if (rows_ > 0) throw ArgumentError("session", "state", "", "enable_distribution() must come before the first draw");
  hist_.assign(2 * kHistBins * divisors_.size(), 0);
  record_ = [](std::uint32_t* h, double jacobian, double target) {
    ++h[hist_bin(jacobian)];
    ++h[kHistBins + hist_bin(target)];
  };
  read_ = [](const std::uint32_t* h, std::size_t rows, int k, SaturationStats& o) {
    o.jacobian_median = hist_median(h, rows);
    o.jacobian_below = hist_below(h, rows, k);
    o.target_below = hist_below(h + kHistBins, rows, k);
    o.threshold = power_of_ten(k);
    o.has_distribution = true;
  };
}

std::vector<SaturationStats> saturation_point(std::size_t dk, std::size_t m, std::size_t rows,
                                              std::uint64_t seed, const double* divisors,
                                              std::size_t n_divisors, double softcap,
                                              int threshold_exponent) {
  // The checks in the order the errors have always come: sizes, work, divisors.
  check_size("dk", dk, 1, limits::kMaxDk);
  check_size("m", m, 1, limits::kMaxSeqLen);
  check_size("rows", rows, 1, kMaxSaturationRows);
  check_product("rows*m", rows, m, limits::kMaxSampleWork);
  check_product("rows*m*dk", rows * m, dk, limits::kMaxSampleWork);
  check_divisors(n_divisors, divisors);
  check_softcap(softcap);
  check_size("threshold", static_cast<std::size_t>(std::max(0, threshold_exponent)), 1, kMaxThresholdExponent);
  SaturationSession session(dk, m, seed, divisors, n_divisors, softcap);
  session.enable_distribution();
  session.draw(rows);
  return session.stats(threshold_exponent);
}

}  // namespace attn
