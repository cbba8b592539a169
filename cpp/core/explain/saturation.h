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

struct SaturationStats {
  double divisor = 1;
  MeanSe max_prob;       // E[max_j p_j]: 1/m uniform, 1 one-hot
  MeanSe entropy;        // E[H(p)] in nats: ln m uniform, 0 one-hot
  MeanSe jacobian_norm;  // E[||diag(p) - p pᵀ||_F]: near 0 means no gradient
};

// Throws ArgumentError for dk outside [1, kMaxDk], m outside [1, kMaxSeqLen],
// rows outside [1, kMaxSaturationRows], rows·m·d_k above kMaxSampleWork, no
// divisors or more than kMaxSaturationDivisors, a divisor outside (0, kMaxDivisor],
// or a softcap other than 0 (none) outside [kMinDivisor, kMaxDivisor].
// Sampling order (fixed, so a test can replay it): per row, q's d_k normals,
// then each key's d_k normals in turn, from one Rng(seed).
std::vector<SaturationStats> saturation_point(std::size_t dk, std::size_t m, std::size_t rows,
                                              std::uint64_t seed, const double* divisors,
                                              std::size_t n_divisors, double softcap = 0);

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

  // Samples `rows` more rows (rows >= 1, rows·m·d_k <= kMaxSampleWork, and
  // at most kMaxSaturationRows in all).
  void draw(std::size_t rows);

  std::size_t rows() const { return rows_; }
  // Running means and standard errors over every row drawn so far, per divisor.
  std::vector<SaturationStats> stats() const;

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
  std::vector<Running> acc_;  // 3 per divisor: max prob, entropy, Jacobian norm
  std::vector<float> q_, k_;
  std::vector<double> scores_, capped_, probs_;
};

}  // namespace attn
