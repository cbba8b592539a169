// Softmax saturation, measured: how peaked softmax(q·k / c) is on average for
// random q and keys k_j in R^d_k (entries i.i.d. N(0, 1)), for several divisors c.
// One call samples `rows` rows of m scores s_j = q·k_j (a fresh q per row),
// through the same dot kernel attention uses, and pushes every row through
// softmax_stats once per divisor: one sampling pass serves all divisors, so
// their curves differ only by the divisor, never by sampling noise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

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
// divisors or more than kMaxSaturationDivisors, or a divisor outside (0, kMaxDivisor].
// Sampling order (fixed, so a test can replay it): per row, q's d_k normals,
// then each key's d_k normals in turn, from one Rng(seed).
std::vector<SaturationStats> saturation_point(std::size_t dk, std::size_t m, std::size_t rows,
                                              std::uint64_t seed, const double* divisors,
                                              std::size_t n_divisors);

inline constexpr std::size_t kMaxSaturationRows = 1'000'000;
inline constexpr std::size_t kMaxSaturationDivisors = 16;

}  // namespace attn
