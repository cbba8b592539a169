// The q·k Monte Carlo, its random numbers and sample_score_row, against closed
// forms. Statistical checks use 5 standard errors with fixed seeds, so they are
// deterministic, and a wrong formula (e.g. Var = d_k instead of d_k (1 + ρ²))
// is many standard errors away at these sample counts.
//
// Moments used below, for x = q_i k_i = σ_q σ_k z u, with (z, u) standard
// normal with correlation ρ (u = ρ z + sqrt(1-ρ²) w):
//   E[zu] = ρ, E[(zu)²] = 1 + 2ρ², E[(zu)⁴] = 9 + 72ρ² + 24ρ⁴,
//   central 4th moment of zu: 9 + 42ρ² + 9ρ⁴.
// For X = q·k = Σ of d_k i.i.d. x: μ4(X) - σ⁴(X) =
//   (σ_qσ_k)⁴ [2 d_k² (1+ρ²)² + d_k (6 + 36ρ² + 6ρ⁴)],
// so SE(sample variance) = sqrt(that / N); at ρ = 0, sqrt((2d_k² + 6d_k)/N).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "base/rng.h"
#include "base/size_limits.h"
#include "explain/qk_sampler.h"
#include "oracles.h"

namespace {

struct Moments {
  double mean, var, var_se;  // theory, and the standard error of a sample variance
};

Moments theory(std::size_t dk_, double rho, double sq, double sk, double n) {
  const double dk = static_cast<double>(dk_), ss = sq * sk, r2 = rho * rho;
  const double var = ss * ss * dk * (1 + r2);
  const double excess = ss * ss * ss * ss * (2 * dk * dk * (1 + r2) * (1 + r2) + dk * (6 + 36 * r2 + 6 * r2 * r2));
  return {rho * ss * dk, var, std::sqrt(excess / n)};
}

std::size_t samples_for(std::size_t dk) {
  // d_k * samples ~ 2e5 .. 3e6 per configuration: a few seconds for the whole file.
  switch (dk) {
    case 1: return 200000;
    case 3: return 100000;
    case 64: return 20000;
    default: return 3000;
  }
}

void require_same(const attn::QkSummary& a, const attn::QkSummary& b) {
  REQUIRE(a.samples == b.samples);
  REQUIRE(a.mean == b.mean);
  REQUIRE(a.var == b.var);
  REQUIRE((a.var_stderr == b.var_stderr || (std::isnan(a.var_stderr) && std::isnan(b.var_stderr))));
  REQUIRE(a.scaled_mean == b.scaled_mean);
  REQUIRE(a.scaled_var == b.scaled_var);
  REQUIRE(a.theory_mean == b.theory_mean);
  REQUIRE(a.theory_var == b.theory_var);
  REQUIRE(a.theory_scaled_var == b.theory_scaled_var);
  REQUIRE(a.hist_lo == b.hist_lo);
  REQUIRE(a.hist_hi == b.hist_hi);
  REQUIRE(a.below == b.below);
  REQUIRE(a.above == b.above);
}

attn::QkConfig config(std::size_t dk, double rho, double sq, double sk, std::uint64_t seed,
                      double divisor) {
  attn::QkConfig c;
  c.dk = dk;
  c.rho = rho;
  c.sigma_q = sq;
  c.sigma_k = sk;
  c.seed = seed;
  c.divisor = divisor;
  return c;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The histogram of the same run: counts, range, its mean, symmetry at ρ = 0
// and, at d_k = 1024, the normal shape.
void check_histogram(const attn::QkSampler& s, const Moments& th, double rho) {
  const auto r = s.summary();
  const auto& h = s.histogram();
  const std::size_t bins = s.config().bins;
  const double dn = static_cast<double>(r.samples);
  CAPTURE(r.below, r.above, bins);

  REQUIRE(h.size() == bins);
  const double in_range = std::accumulate(h.begin(), h.end(), 0.0);
  for (double x : h) REQUIRE((x >= 0 && x == std::floor(x)));
  REQUIRE(in_range + static_cast<double>(r.below) + static_cast<double>(r.above) == dn);
  // Range: theoretical mean ± 5 theoretical sd.
  const double sd = std::sqrt(th.var);
  REQUIRE(std::fabs(r.hist_lo - (th.mean - 5 * sd)) <= 1e-12 * (std::fabs(th.mean) + sd));
  REQUIRE(std::fabs(r.hist_hi - (th.mean + 5 * sd)) <= 1e-12 * (std::fabs(th.mean) + sd));

  // Every counted sample lies in its bin, so when nothing fell outside, the
  // histogram's mean is within half a bin of the sample mean.
  const double width = (r.hist_hi - r.hist_lo) / static_cast<double>(bins);
  if (r.below + r.above == 0) {
    double m = 0;
    for (std::size_t b = 0; b < bins; ++b)
      m += h[b] * (r.hist_lo + (static_cast<double>(b) + 0.5) * width);
    REQUIRE(std::fabs(m / in_range - r.mean) <= 0.5 * width);
  }

  if (rho == 0.0) {
    // q.k is symmetric about 0 when ρ = 0 (k -> -k): halves, tails and mirrored
    // bins balance within 5 binomial sd (+1 for the discreteness).
    const auto half = static_cast<std::ptrdiff_t>(bins / 2);
    const double lower = std::accumulate(h.begin(), h.begin() + half, 0.0);
    const double upper = std::accumulate(h.begin() + half, h.end(), 0.0);
    REQUIRE(std::fabs(lower - upper) <= 5 * std::sqrt(lower + upper));
    const double tails = static_cast<double>(r.below + r.above);
    REQUIRE(std::fabs(static_cast<double>(r.below) - static_cast<double>(r.above)) <=
            5 * std::sqrt(tails) + 1);
    for (std::size_t b = 0; b < bins / 2; ++b) {
      const double x = h[b], y = h[bins - 1 - b];
      CAPTURE(b, x, y);
      REQUIRE(std::fabs(x - y) <= 5 * std::sqrt(x + y) + 1);
    }
  }
  if (s.config().dk == 1024) {
    // Nearly normal at d_k = 1024 (excess kurtosis 6/d_k): each bin holds
    // N (Φ(b+1) - Φ(b)) within 5 binomial sd (+1 for the discreteness).
    for (std::size_t b = 0; b < bins; ++b) {
      const double lo = (r.hist_lo + static_cast<double>(b) * width - th.mean) / sd;
      const double p = normal_cdf(lo + width / sd) - normal_cdf(lo);
      CAPTURE(b, h[b], dn * p);
      REQUIRE(std::fabs(h[b] - dn * p) <= 5 * std::sqrt(dn * p * (1 - p)) + 1);
    }
  }
}

}  // namespace

TEST_CASE("QkSampler: mean, variance and histogram of q.k match the closed forms", "[qk]") {
  struct Cfg {
    double rho, sq, sk;
  };
  for (const Cfg cfg : {Cfg{0.0, 1.0, 1.0}, Cfg{0.5, 2.0, 0.5}, Cfg{-0.3, 1.5, 0.7}}) {
    for (std::size_t dk : {1, 3, 64, 1024}) {
      const std::size_t n = samples_for(dk);
      const double dn = static_cast<double>(n);
      const double divisor = std::sqrt(static_cast<double>(dk));
      attn::QkSampler s(config(dk, cfg.rho, cfg.sq, cfg.sk, 1234 + dk, divisor));
      s.draw(n);
      const attn::QkSummary r = s.summary();
      const Moments th = theory(dk, cfg.rho, cfg.sq, cfg.sk, dn);
      CAPTURE(cfg.rho, cfg.sq, cfg.sk, dk, n, r.mean, r.var, r.var_stderr, th.mean, th.var, th.var_se);

      REQUIRE(r.samples == n);
      // The summary's closed forms, recomputed here.
      REQUIRE(oracle::close_rel(r.theory_mean, th.mean, 1e-14, 1e-300));
      REQUIRE(oracle::close_rel(r.theory_var, th.var, 1e-14));
      REQUIRE(oracle::close_rel(r.theory_scaled_var, th.var / (divisor * divisor), 1e-14));

      // The estimates against theory.
      REQUIRE(std::fabs(r.mean - th.mean) <= 5 * std::sqrt(th.var / dn));
      REQUIRE(std::fabs(r.var - th.var) <= 5 * r.var_stderr);
      // var_stderr estimates the closed-form standard error; 20% covers its own
      // sampling noise (<= 4% relative sd at these N) with room.
      REQUIRE(oracle::close_rel(r.var_stderr, th.var_se, 0.2));

      // Scaled statistics are the raw ones divided by the divisor (squared).
      REQUIRE(oracle::close_rel(r.scaled_mean, r.mean / divisor, 1e-14, 1e-300));
      REQUIRE(oracle::close_rel(r.scaled_var, r.var / (divisor * divisor), 1e-14));
      if (cfg.rho == 0.0 && cfg.sq * cfg.sk == 1.0) {
        // The point of √d_k: unit variance at every d_k.
        REQUIRE(oracle::close_rel(r.theory_scaled_var, 1.0, 1e-14));
        const double d = static_cast<double>(dk);
        REQUIRE(oracle::close_rel(r.var_stderr, std::sqrt((2 * d * d + 6 * d) / dn), 0.2));
        REQUIRE(std::fabs(r.scaled_var - 1.0) <= 5 * r.var_stderr / (divisor * divisor));
      }
      check_histogram(s, th, cfg.rho);
    }
  }
}

TEST_CASE("QkSampler: extreme correlation rho = 1 and rho = -1 follow the same formulas", "[qk]") {
  for (double rho : {1.0, -1.0}) {
    for (std::size_t dk : {1, 3, 64}) {
      const std::size_t n = samples_for(dk) / 2;
      const double dn = static_cast<double>(n);
      attn::QkSampler s(config(dk, rho, 1.5, 0.5, 99, 1.0));
      s.draw(n);
      const auto r = s.summary();
      const Moments th = theory(dk, rho, 1.5, 0.5, dn);
      CAPTURE(rho, dk, r.mean, r.var, th.mean, th.var);
      REQUIRE(std::fabs(r.mean - th.mean) <= 5 * std::sqrt(th.var / dn));
      REQUIRE(std::fabs(r.var - th.var) <= 5 * r.var_stderr);
      REQUIRE(oracle::close_rel(r.var_stderr, th.var_se, 0.2));
    }
  }
}

TEST_CASE("QkSampler: proof terms E(q_i k_i q_j k_j) for d_k <= 8", "[qk][proof]") {
  struct Cfg {
    double rho, sq, sk;
  };
  for (const Cfg cfg : {Cfg{0.0, 1.0, 1.0}, Cfg{0.5, 2.0, 0.5}, Cfg{-0.5, 1.5, 1.0}}) {
    for (std::size_t dk : {1, 3, 8}) {
      const std::size_t n = 50000;
      const double dn = static_cast<double>(n);
      attn::QkSampler s(config(dk, cfg.rho, cfg.sq, cfg.sk, 5 + dk, 1.0));
      s.draw(n);
      const std::vector<double> pm = s.proof_means();
      REQUIRE(pm.size() == dk * dk);
      const double ss2 = cfg.sq * cfg.sq * cfg.sk * cfg.sk, r2 = cfg.rho * cfg.rho;
      const double diag = ss2 * (1 + 2 * r2), off = ss2 * r2;
      // Standard errors from the moments in the file comment:
      // Var(x_i²) = ss⁴ (9 + 72ρ² + 24ρ⁴ - (1+2ρ²)²), Var(x_i x_j) = ss⁴ ((1+2ρ²)² - ρ⁴).
      const double se_diag = ss2 * std::sqrt((9 + 72 * r2 + 24 * r2 * r2 - (1 + 2 * r2) * (1 + 2 * r2)) / dn);
      const double se_off = ss2 * std::sqrt(((1 + 2 * r2) * (1 + 2 * r2) - r2 * r2) / dn);
      double total = 0;
      for (std::size_t i = 0; i < dk; ++i) {
        for (std::size_t j = 0; j < dk; ++j) {
          const double t = pm[i * dk + j];
          CAPTURE(cfg.rho, dk, i, j, t);
          REQUIRE(oracle::close_rel(s.proof_theory(i, j), i == j ? diag : off, 1e-14, 1e-300));
          REQUIRE(std::fabs(t - (i == j ? diag : off)) <= 5 * (i == j ? se_diag : se_off));
          REQUIRE(t == pm[j * dk + i]);  // symmetric
          total += t;
        }
      }
      // Σ_ij q_i k_i q_j k_j = (q.k)²: the terms add up to the mean of (q.k)²,
      // i.e. (N-1)/N var + mean² from the summary (q.k is summed in float there,
      // in double here: agreement to float rounding).
      const auto r = s.summary();
      const double mean_sq = r.var * (dn - 1) / dn + r.mean * r.mean;
      CAPTURE(total, mean_sq);
      REQUIRE(oracle::close_rel(total, mean_sq, 1e-5));
    }
  }
}

TEST_CASE("QkSampler: proof terms are off above d_k = 8 and zero before drawing", "[qk][proof]") {
  attn::QkSampler big(config(attn::limits::kMaxProofDk + 1, 0, 1, 1, 1, 3));
  REQUIRE(big.proof_means().empty());
  big.draw(10);
  REQUIRE(big.proof_means().empty());

  attn::QkSampler small(config(attn::limits::kMaxProofDk, 0, 1, 1, 1, 3));
  const auto pm = small.proof_means();
  REQUIRE(pm.size() == 64);
  for (double x : pm) REQUIRE(x == 0.0);
}

TEST_CASE("QkSampler: summary before drawing holds the theory only", "[qk]") {
  attn::QkSampler s(config(16, 0.5, 2.0, 1.0, 3, 4.0));
  const auto r = s.summary();
  REQUIRE(r.samples == 0);
  REQUIRE(r.below == 0);
  REQUIRE(r.above == 0);
  REQUIRE(r.theory_mean == 0.5 * 2.0 * 16);
  REQUIRE(r.theory_var == 4.0 * 16 * 1.25);
  REQUIRE(r.theory_scaled_var == 4.0 * 16 * 1.25 / 16.0);
  for (double x : s.histogram()) REQUIRE(x == 0.0);
  REQUIRE(s.config().dk == 16);
  REQUIRE(s.config().rho == 0.5);
  // One sample: the mean is that sample, the unbiased variance is undefined -> 0.
  s.draw(1);
  const auto one = s.summary();
  REQUIRE(one.samples == 1);
  REQUIRE(std::isfinite(one.mean));
  REQUIRE(one.var == 0.0);
}

TEST_CASE("QkSampler: no standard error of the variance from fewer than 100 samples", "[qk][stderr]") {
  REQUIRE(attn::kMinStderrSamples == 100);
  // The case: d_k 65536 and 2 samples gave 4.6e-4 for a variance of
  // 34 290 (two points always give m4 = m2², so about 0 by construction).
  attn::QkSampler big(config(65536, 0, 1, 1, 0, 256));
  big.draw(2);
  REQUIRE(big.summary().var > 1000);
  REQUIRE(std::isnan(big.summary().var_stderr));
  // Below the minimum in one batch or several, at any d_k and correlation: NaN.
  attn::QkSampler s(config(16, 0.5, 2.0, 1.0, 3, 4.0));
  REQUIRE(std::isnan(s.summary().var_stderr));  // nothing drawn yet
  for (std::size_t n : {1, 2, 3, 10, 50, 98}) {
    s.draw(n == 1 ? 1 : n - (s.summary().samples));
    REQUIRE(s.summary().samples == n);
    REQUIRE(std::isnan(s.summary().var_stderr));
    REQUIRE(std::isfinite(s.summary().var));  // the variance itself is reported
  }
  s.draw(1);
  REQUIRE(s.summary().samples == 99);
  REQUIRE(std::isnan(s.summary().var_stderr));
  s.draw(1);  // 100: the estimate appears, the same as from one batch of 100
  REQUIRE(std::isfinite(s.summary().var_stderr));
  REQUIRE(s.summary().var_stderr > 0);
  attn::QkSampler once(config(16, 0.5, 2.0, 1.0, 3, 4.0));
  once.draw(100);
  REQUIRE(once.summary().var_stderr == s.summary().var_stderr);
}

TEST_CASE("QkSampler: deterministic by seed, and batching does not change the stream", "[qk][determinism]") {
  const attn::QkConfig c = config(5, 0.3, 1.2, 0.8, 2024, 2.0);
  attn::QkSampler a(c), b(c), batched(c);
  a.draw(2000);
  b.draw(2000);
  batched.draw(1000);
  batched.draw(1000);
  require_same(a.summary(), b.summary());
  require_same(a.summary(), batched.summary());
  REQUIRE(a.histogram() == b.histogram());
  REQUIRE(a.histogram() == batched.histogram());
  REQUIRE(a.proof_means() == batched.proof_means());

  // Uneven batches too.
  attn::QkSampler uneven(c);
  for (std::size_t k : {1, 2, 997, 1000}) uneven.draw(k);
  require_same(a.summary(), uneven.summary());

  attn::QkConfig c2 = c;
  c2.seed = 2025;
  attn::QkSampler other(c2);
  other.draw(2000);
  const auto ra = a.summary(), ro = other.summary();
  REQUIRE(ra.mean != ro.mean);
  REQUIRE(ra.var != ro.var);
  REQUIRE(a.histogram() != other.histogram());
}

TEST_CASE("QkSampler rejects bad configurations and draws", "[qk][errors]") {
  using attn::QkConfig;
  using attn::QkSampler;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const QkConfig good = config(4, 0, 1, 1, 0, 2);
  REQUIRE_NOTHROW(QkSampler{good});

  auto with = [&good](auto edit) {
    QkConfig c = good;
    edit(c);
    return c;
  };
  REQUIRE_ARGUMENT_ERROR(QkSampler{with([](QkConfig& c) { c.dk = 0; })}, "dk");
  REQUIRE_ARGUMENT_ERROR(QkSampler{with([](QkConfig& c) { c.dk = attn::limits::kMaxDk + 1; })}, "dk");
  for (double bad : {0.0, -1.0, nan, inf, 2e12}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(QkSampler{with([bad](QkConfig& c) { c.divisor = bad; })}, "divisor");
  }
  for (double bad : {1.5, -1.5, nan, inf}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(QkSampler{with([bad](QkConfig& c) { c.rho = bad; })}, "rho");
  }
  REQUIRE_NOTHROW(QkSampler{with([](QkConfig& c) { c.rho = 1.0; })});
  REQUIRE_NOTHROW(QkSampler{with([](QkConfig& c) { c.rho = -1.0; })});
  for (double bad : {0.0, -1.0, nan, inf}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(QkSampler{with([bad](QkConfig& c) { c.sigma_q = bad; })}, "sigma_q");
    REQUIRE_ARGUMENT_ERROR(QkSampler{with([bad](QkConfig& c) { c.sigma_k = bad; })}, "sigma_k");
  }
  REQUIRE_ARGUMENT_ERROR(QkSampler{with([](QkConfig& c) { c.bins = 0; })}, "bins");
  REQUIRE_ARGUMENT_ERROR(QkSampler{with([](QkConfig& c) { c.bins = attn::limits::kMaxBins + 1; })}, "bins");

  QkSampler s(good);
  REQUIRE_ARGUMENT_ERROR(s.draw(0), "samples");
  REQUIRE_ARGUMENT_ERROR(s.draw(attn::limits::kMaxSamples + 1), "samples");
  REQUIRE(s.summary().samples == 0);  // failed draws add nothing

  // d_k * samples over kMaxSampleWork, including products that wrap a 32-bit size_t.
  QkSampler wide(config(attn::limits::kMaxDk, 0, 1, 1, 0, 256));
  REQUIRE_ARGUMENT_ERROR(wide.draw(2000), "dk*samples");      // 1.3e8
  REQUIRE_ARGUMENT_ERROR(wide.draw(65536), "dk*samples");     // 2^32: 0 in wasm's size_t
  REQUIRE_ARGUMENT_ERROR(wide.draw(attn::limits::kMaxSamples), "dk*samples");
  QkSampler mid(config(1024, 0, 1, 1, 0, 32));
  REQUIRE_ARGUMENT_ERROR(mid.draw(attn::limits::kMaxSamples), "dk*samples");  // 1.024e10
  REQUIRE(wide.summary().samples == 0);
  REQUIRE(mid.summary().samples == 0);
}

// ---------------------------------------------------------------------------
// Rng

namespace {

// xoshiro256** seeded by splitmix64, written from Vigna's reference code.
struct RefRng {
  std::uint64_t s[4];
  explicit RefRng(std::uint64_t seed) {
    oracle::TestData sm(seed);  // splitmix64
    for (auto& x : s) x = sm.next();
  }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

}  // namespace

TEST_CASE("Rng: xoshiro256 star-star stream, known answers and reference implementation", "[rng]") {
  // splitmix64(0)'s first outputs, the published test vector.
  oracle::TestData sm(0);
  REQUIRE(sm.next() == 0xe220a8397b1dcdafULL);
  REQUIRE(sm.next() == 0x6e789e6aa1b965f4ULL);

  // First and 1000th outputs, from a Python implementation of the same algorithm.
  struct Kat {
    std::uint64_t seed, first, second, third, thousandth;
  };
  for (const Kat k : {Kat{0, 0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL, 0x7aac8c483a2edd2fULL},
                      Kat{42, 0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL, 0x8de5848c61ab8968ULL},
                      Kat{~0ULL, 0x8f5520d52a7ead08ULL, 0xc476a018caa1802dULL, 0x81de31c0d260469eULL, 0xc3c93ea5cde434ccULL}}) {
    CAPTURE(k.seed);
    attn::Rng r(k.seed);
    RefRng ref(k.seed);
    REQUIRE(r.next_u64() == k.first);
    REQUIRE(r.next_u64() == k.second);
    REQUIRE(r.next_u64() == k.third);
    for (int i = 3; i < 999; ++i) r.next_u64();
    REQUIRE(r.next_u64() == k.thousandth);
    for (int i = 0; i < 1000; ++i) ref.next();
    for (int i = 0; i < 1000; ++i) REQUIRE(r.next_u64() == ref.next());
  }
}

TEST_CASE("Rng: same seed gives the same stream, different seeds differ", "[rng][determinism]") {
  attn::Rng a(7), b(7), c(8);
  int same_as_c = 0;
  for (int i = 0; i < 1000; ++i) {
    const double x = a.normal(), y = b.normal(), z = c.normal();
    REQUIRE(x == y);
    if (x == z) ++same_as_c;
  }
  REQUIRE(same_as_c == 0);
}

TEST_CASE("Rng: uniforms stay in their intervals", "[rng]") {
  attn::Rng r(11);
  double sum = 0;
  const int n = 200000;
  int u_outside = 0, v_outside = 0;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform(), v = r.uniform_open0();
    if (!(u >= 0.0 && u < 1.0)) ++u_outside;
    if (!(v > 0.0 && v <= 1.0)) ++v_outside;
    sum += u;
  }
  REQUIRE(u_outside == 0);  // [0, 1)
  REQUIRE(v_outside == 0);  // (0, 1]
  // Mean 1/2, sd 1/sqrt(12 n).
  REQUIRE(std::fabs(sum / n - 0.5) <= 5 / std::sqrt(12.0 * n));
}

TEST_CASE("Rng: normal() has mean 0, variance 1, kurtosis 3, independent pairs", "[rng]") {
  attn::Rng r(314159);
  const int n = 1000000;
  const double dn = n;
  double s1 = 0, s2 = 0, s4 = 0, cross = 0, prev = 0;
  for (int i = 0; i < n; ++i) {
    const double x = r.normal();
    if (!std::isfinite(x)) FAIL("normal() returned " << x << " at draw " << i);
    s1 += x;
    s2 += x * x;
    s4 += x * x * x * x;
    if (i > 0) cross += x * prev;  // includes both Box-Muller partners and neighbours
    prev = x;
  }
  const double mean = s1 / dn, var = s2 / dn - mean * mean;
  CAPTURE(mean, var, s4 / dn, cross / (dn - 1));
  REQUIRE(std::fabs(mean) <= 5 / std::sqrt(dn));                   // SE 1/sqrt(N)
  REQUIRE(std::fabs(var - 1.0) <= 5 * std::sqrt(2.0 / dn));         // SE sqrt(2/N)
  REQUIRE(std::fabs(s4 / dn - 3.0) <= 5 * std::sqrt(96.0 / dn));    // Var(x⁴) = 105 - 9
  REQUIRE(std::fabs(cross / (dn - 1)) <= 5 / std::sqrt(dn - 1));    // E[x y] = 0, Var = 1
}

// ---------------------------------------------------------------------------
// sample_score_row

TEST_CASE("sample_score_row is deterministic by seed", "[scores][determinism]") {
  std::vector<float> a(300), b(300), c(300);
  attn::sample_score_row(64, 300, 9, a.data());
  attn::sample_score_row(64, 300, 9, b.data());
  attn::sample_score_row(64, 300, 10, c.data());
  REQUIRE(a == b);
  int same = 0;
  for (std::size_t j = 0; j < 300; ++j) {
    REQUIRE(std::isfinite(a[j]));
    if (a[j] == c[j]) ++same;
  }
  REQUIRE(same == 0);
  // A shorter row from the same seed is not required to be a prefix, but it
  // must be deterministic too.
  std::vector<float> d(1), e(1);
  attn::sample_score_row(1, 1, 0, d.data());
  attn::sample_score_row(1, 1, 0, e.data());
  REQUIRE(d == e);
}

TEST_CASE("sample_score_row: scores have mean 0 and variance d_k", "[scores]") {
  // Given q, the scores q.k_j are N(0, |q|²) with |q|² ~ χ²(d_k), so one row's
  // sample variance v has E[v] = d_k and Var[v] ~ 2 d_k + 2 d_k²/m; averaging
  // R rows (seeds) divides that by R.
  struct Cfg {
    std::size_t dk, m, rows;
  };
  for (const Cfg cfg : {Cfg{16, 4096, 64}, Cfg{1024, 256, 16}}) {
    const double dk = static_cast<double>(cfg.dk), m = static_cast<double>(cfg.m);
    std::vector<float> row(cfg.m);
    double var_sum = 0, mean_sum = 0;
    for (std::size_t seed = 0; seed < cfg.rows; ++seed) {
      attn::sample_score_row(cfg.dk, cfg.m, 1000 + seed, row.data());
      double s1 = 0, s2 = 0;
      for (float x : row) {
        s1 += x;
        s2 += static_cast<double>(x) * x;
      }
      const double mean = s1 / m;
      mean_sum += mean;
      var_sum += (s2 - m * mean * mean) / (m - 1);
    }
    const double r = static_cast<double>(cfg.rows);
    const double var = var_sum / r, mean = mean_sum / r;
    const double se_var = std::sqrt((2 * dk + 2 * dk * dk / m) / r);
    const double se_mean = std::sqrt(dk / m / r);
    CAPTURE(cfg.dk, cfg.m, var, se_var, mean, se_mean);
    REQUIRE(std::fabs(var - dk) <= 5 * se_var);
    REQUIRE(std::fabs(mean) <= 5 * se_mean);
  }
}

TEST_CASE("sample_score_row rejects bad sizes and a null output", "[scores][errors]") {
  std::vector<float> out(8);
  REQUIRE_NOTHROW(attn::sample_score_row(3, 8, 0, out.data()));
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(0, 8, 0, out.data()), "dk");
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(attn::limits::kMaxDk + 1, 8, 0, out.data()), "dk");
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(3, 0, 0, out.data()), "m");
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(3, attn::limits::kMaxSeqLen + 1, 0, out.data()), "m");
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(3, 8, 0, nullptr), "scores");
  // Sizes checked before the output is written, so a small buffer is safe here.
  REQUIRE_ARGUMENT_ERROR(attn::sample_score_row(attn::limits::kMaxDk, attn::limits::kMaxSeqLen, 0, out.data()),
                         "dk*m");
}
