// Monte Carlo of the dot product q·k for random q, k in R^dk.
// q_i = σ_q z_i, k_i = σ_k (ρ z_i + sqrt(1-ρ²) w_i), z, w i.i.d. N(0,1), so
// E[q·k] = ρ σ_q σ_k d_k and Var(q·k) = σ_q² σ_k² d_k (1 + ρ²).
// Samples arrive in batches (draw), so a worker can stream running results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/rng.h"

namespace attn {

struct QkConfig {
  std::size_t dk = 64;
  double divisor = 8;  // resolved number; scores are also reported divided by it
  double rho = 0;
  double sigma_q = 1;
  double sigma_k = 1;
  std::uint64_t seed = 0;
  std::size_t bins = 64;  // histogram of raw q·k over mean ± 5 theoretical sd
};

// The standard error of the sample variance, sqrt((m4 - m2²) / N), rests on
// an estimate of the fourth moment, which few samples cannot give: with 2 it
// is 0 whatever the data (two points have m4 = m2²), and it is off by a factor
// of several below a few dozen. Simulated, at 100 samples 80% of the estimates
// fall within 0.75-1.22 of the true standard error for d_k = 64 (q·k near
// normal) and 0.47-1.34 for d_k = 1 (q·k = z·w, kurtosis 9); so below 100
// samples var_stderr is NaN (the CLI prints null and says why).
inline constexpr std::size_t kMinStderrSamples = 100;

struct QkSummary {
  std::size_t samples = 0;
  double mean = 0, var = 0;           // sample mean and (unbiased) variance of q·k
  double var_stderr = 0;              // standard error of `var`, from the 4th moment;
                                      // NaN below kMinStderrSamples samples
  double scaled_mean = 0, scaled_var = 0;  // of q·k / divisor
  double theory_mean = 0, theory_var = 0;  // closed forms above
  double theory_scaled_var = 0;            // theory_var / divisor²
  double hist_lo = 0, hist_hi = 0;         // histogram range
  std::size_t below = 0, above = 0;        // samples outside the range
};

class QkSampler {
 public:
  explicit QkSampler(const QkConfig& config);  // throws ArgumentError

  // Draws `count` more samples (1 <= count, count*dk <= kMaxSampleWork).
  void draw(std::size_t count);

  QkSummary summary() const;
  const std::vector<double>& histogram() const { return hist_; }  // counts, as double
  // Running means of q_i k_i q_j k_j, row-major dk x dk; empty when dk > kMaxProofDk.
  std::vector<double> proof_means() const;
  // Expected value of a proof term: σ_q²σ_k²(1+2ρ²) on the diagonal, ρ²σ_q²σ_k² off it.
  double proof_theory(std::size_t i, std::size_t j) const;
  const QkConfig& config() const { return cfg_; }

 private:
  QkConfig cfg_;
  Rng rng_;
  std::vector<float> q_, k_;  // one sample's vectors
  std::vector<double> x_;     // q_i k_i, for the proof terms
  // Moments of q·k about the theoretical mean (keeps the sums small when ρ != 0).
  std::size_t n_ = 0;
  double s1_ = 0, s2_ = 0, s3_ = 0, s4_ = 0;
  double hist_lo_ = 0, hist_width_ = 0;
  std::vector<double> hist_;
  std::size_t below_ = 0, above_ = 0;
  std::vector<double> proof_sums_;
};

// The checks of sample_score_row's sizes alone (d_k, m, d_k·m), for a caller
// that allocates `scores` from them.
void check_score_row(std::size_t dk, std::size_t m);

// One row of raw scores q·k_j, j < m, for one random q and m random keys
// (σ = 1, ρ = 0): what the page's d_k slider draws.
void sample_score_row(std::size_t dk, std::size_t m, std::uint64_t seed, float* scores);

}  // namespace attn
