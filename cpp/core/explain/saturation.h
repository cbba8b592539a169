// Softmax saturation, measured: how peaked softmax(q·k / c) is on average for
// random q and keys k_j in R^d_k (entries i.i.d. N(0, 1)), for several divisors c.
// One call samples `rows` rows of m scores s_j = q·k_j (a fresh q per row),
// through the same dot kernel attention uses, and pushes every row through
// softmax_stats once per divisor: one sampling pass serves all divisors, so
// their curves differ only by the divisor, never by sampling noise. An
// optional logit soft-cap c (Gemma 2: 50) turns each scaled score x = s_j / divisor
// into c·tanh(x / c) before the softmax, in the same pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/rng.h"

namespace attn {

struct MeanSe {
  double mean = 0;
  double se = 0;  // standard error of the mean over rows (0 when rows == 1)
};

// A median read from a histogram: the bin [lo, hi) that holds it, and an
// estimate inside it (log-linear interpolation). lo = 0 when the bin is the
// one below kHistLowest.
struct Median {
  double estimate = 0, lo = 0, hi = 0;
};

struct SaturationStats {
  double divisor = 1;
  MeanSe max_prob;       // E[max_j p_j]: 1/m uniform, 1 one-hot
  MeanSe entropy;        // E[H(p)] in nats: ln m uniform, 0 one-hot
  MeanSe jacobian_norm;  // E[||diag(p) - p pᵀ||_F]: how much gradient softmax passes back
  // Not only the mean: a mean of 0.1 can be every row at 0.1 or most rows
  // near 0 and a few at 0.4 (issue 30).
  Median jacobian_median;
  double jacobian_below = 0;  // share of rows whose norm is below `threshold`
  // The gradient that reaches one key if it were the answer: p_t(1 - p_t),
  // the diagonal entry of the Jacobian, for key 0 (the keys are i.i.d., so a
  // key chosen at random). Near 0 both when p_t ≈ 0 and when p_t ≈ 1.
  MeanSe target_grad;
  double target_below = 0;  // share of rows whose p_t(1 - p_t) is below `threshold`
  double threshold = 0;
  // False from a session made without the distribution: then the median and
  // the shares are 0 and mean nothing.
  bool has_distribution = false;
};

// The histograms behind the medians and shares: log10 bins of width
// 1/kHistPerDecade from kHistLowest to 1, plus one bin for everything below
// (0 included). A share below a power of ten 10^-k is exact (an edge); a
// median is known to its bin, 1/100 of a decade (2.3%).
inline constexpr int kHistPerDecade = 100;
inline constexpr int kHistDecades = 40;
inline constexpr double kHistLowest = 1e-40;
// Thresholds the shares can be asked for: 10^-1 .. 10^-kHistDecades.
inline constexpr int kMaxThresholdExponent = kHistDecades;

// Throws ArgumentError for dk outside [1, kMaxDk], m outside [1, kMaxSeqLen],
// rows outside [1, kMaxSaturationRows], rows·m·d_k above kMaxSampleWork, no
// divisors or more than kMaxSaturationDivisors, a divisor outside (0, kMaxDivisor],
// or a softcap other than 0 (none) outside [kMinCap, kMaxCap] (size_limits.h).
// Sampling order (fixed, so a test can replay it): per row, q's d_k normals,
// then each key's d_k normals in turn, from one Rng(seed).
std::vector<SaturationStats> saturation_point(std::size_t dk, std::size_t m, std::size_t rows,
                                              std::uint64_t seed, const double* divisors,
                                              std::size_t n_divisors, double softcap = 0,
                                              int threshold_exponent = 3);

inline constexpr std::size_t kMaxSaturationRows = 1'000'000;
inline constexpr std::size_t kMaxSaturationDivisors = 16;

// The same Monte Carlo, as a run that lives across calls: the page draws rows
// in batches and shows the running means and standard errors after each, all
// computed here (Welford's running mean and sum of squared deviations, in
// double: no cancellation when rows hardly differ), not merged from per-batch
// results in JavaScript. Rows come from one Rng(seed)
// in the order saturation_point documents, so batches of any sizes that add
// up to R rows give exactly saturation_point(..., R, seed, ...).
class SaturationSession {
 public:
  // Throws ArgumentError as saturation_point does (rows aside).
  SaturationSession(std::size_t dk, std::size_t m, std::uint64_t seed, const double* divisors,
                    std::size_t n_divisors);
  // With a logit soft-cap (0: none). A constructor of its own, so a module that
  // never caps (the page's explainer, whose first load has a byte budget) links
  // no tanh: draw() reaches the cap only through cap_.
  SaturationSession(std::size_t dk, std::size_t m, std::uint64_t seed, const double* divisors,
                    std::size_t n_divisors, double softcap);
  // Keep the distribution over rows as well (the histograms behind the median
  // and the shares), as saturation_point does; before the first draw, else
  // ArgumentError "session". Opt-in, like the cap: a module that never calls
  // it links none of it.
  void enable_distribution();

  // Samples `rows` more rows (rows >= 1, rows·m·d_k <= kMaxSampleWork, and
  // at most kMaxSaturationRows in all).
  void draw(std::size_t rows);

  std::size_t rows() const { return rows_; }
  // Running means and standard errors over every row drawn so far, per
  // divisor; the shares below 10^-threshold_exponent (an integer in
  // [1, kMaxThresholdExponent], else ArgumentError "threshold").
  std::vector<SaturationStats> stats(int threshold_exponent = 3) const;

 private:
  struct Running {  // Welford: mean and sum of squared deviations so far
    double mean = 0, m2 = 0;
  };
  std::size_t dk_, m_, rows_ = 0;
  std::vector<double> divisors_;
  double softcap_ = 0;
  // x_j = softcap·tanh(s_j / divisor / softcap) into out; null: no cap.
  void (*cap_)(const double* s, std::size_t m, double divisor, double softcap, double* out) = nullptr;
  Rng rng_;
  std::vector<Running> acc_;  // 4 per divisor: max prob, entropy, Jacobian norm, target gradient
  // 2 per divisor (Jacobian norm, target gradient), kHistBins counts each;
  // empty, and record_ / read_ null, without the distribution.
  std::vector<std::uint32_t> hist_;
  void (*record_)(std::uint32_t* h, double jacobian, double target) = nullptr;
  void (*read_)(const std::uint32_t* h, std::size_t rows, int k, SaturationStats& out) = nullptr;
  std::vector<float> q_, k_;
  std::vector<double> scores_, capped_, probs_;
};

}  // namespace attn
