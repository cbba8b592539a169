// saturation_point: the Monte Carlo behind the page's saturation explorer.
// Checked against a replay of its sampling in double with a textbook softmax,
// against exact values (m = 1), for the property the page shows (unscaled
// rows turn one-hot as d_k grows, rows divided by √d_k do not), and for every
// bad argument. Self-contained: its oracles are written out here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "base/argument_error.h"
#include "base/rng.h"
#include "base/size_limits.h"
#include "explain/saturation.h"

namespace {

struct RowStats {
  double max_prob, entropy, jacobian;
};

// Textbook softmax in double; entropy; ||diag(p) - p pᵀ||_F from its entries.
RowStats reference_stats(const std::vector<double>& s, double c) {
  double mx = s[0];
  for (double x : s) mx = std::fmax(mx, x);
  std::vector<double> p(s.size());
  double sum = 0;
  for (std::size_t i = 0; i < s.size(); ++i) sum += (p[i] = std::exp((s[i] - mx) / c));
  RowStats r{0, 0, 0};
  for (double& x : p) {
    x /= sum;
    r.max_prob = std::fmax(r.max_prob, x);
    if (x > 0) r.entropy -= x * std::log(x);
  }
  double f2 = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < p.size(); ++j) {
      const double jij = (i == j ? p[i] : 0.0) - p[i] * p[j];
      f2 += jij * jij;
    }
  r.jacobian = std::sqrt(f2);
  return r;
}

// Replays the documented sampling order: per row, q then each key, one
// Rng(seed); calls row(s) with each row's m scores, dot products in double.
void replay(std::size_t dk, std::size_t m, std::size_t rows, std::uint64_t seed,
            const std::function<void(const std::vector<double>&)>& row) {
  attn::Rng rng(seed);
  std::vector<float> q(dk), k(dk);
  std::vector<double> s(m);
  for (std::size_t r = 0; r < rows; ++r) {
    for (auto& x : q) x = static_cast<float>(rng.normal());
    for (std::size_t j = 0; j < m; ++j) {
      for (auto& x : k) x = static_cast<float>(rng.normal());
      double d = 0;
      for (std::size_t i = 0; i < dk; ++i) d += static_cast<double>(q[i]) * static_cast<double>(k[i]);
      s[j] = d;
    }
    row(s);
  }
}

std::vector<RowStats> replay_means(std::size_t dk, std::size_t m, std::size_t rows,
                                   std::uint64_t seed, const std::vector<double>& divisors) {
  std::vector<RowStats> mean(divisors.size(), RowStats{0, 0, 0});
  replay(dk, m, rows, seed, [&](const std::vector<double>& s) {
    for (std::size_t c = 0; c < divisors.size(); ++c) {
      const RowStats st = reference_stats(s, divisors[c]);
      mean[c].max_prob += st.max_prob / static_cast<double>(rows);
      mean[c].entropy += st.entropy / static_cast<double>(rows);
      mean[c].jacobian += st.jacobian / static_cast<double>(rows);
    }
  });
  return mean;
}

// Every row's Jacobian norm and key 0's p(1 - p), per divisor, replayed in double.
struct RowValues {
  std::vector<double> jacobian, target;
};
std::vector<RowValues> replay_rows(std::size_t dk, std::size_t m, std::size_t rows, std::uint64_t seed,
                                   const std::vector<double>& divisors) {
  std::vector<RowValues> out(divisors.size());
  replay(dk, m, rows, seed, [&](const std::vector<double>& s) {
    for (std::size_t c = 0; c < divisors.size(); ++c) {
      out[c].jacobian.push_back(reference_stats(s, divisors[c]).jacobian);
      // p_0 (1 - p_0) with 1 - p_0 as the sum of the other weights.
      double mx = s[0];
      for (double x : s) mx = std::fmax(mx, x);
      double sum = 0, others = 0;
      for (std::size_t j = 0; j < m; ++j) {
        const double e = std::exp((s[j] - mx) / divisors[c]);
        sum += e;
        if (j > 0) others += e;
      }
      out[c].target.push_back(std::exp((s[0] - mx) / divisors[c]) / sum * (others / sum));
    }
  });
  return out;
}

std::size_t count_below(const std::vector<double>& v, double t) {
  std::size_t n = 0;
  for (double x : v) n += x < t;
  return n;
}

std::string thrown_argument(const std::function<void()>& f) {
  try {
    f();
  } catch (const attn::ArgumentError& e) {
    return e.argument();
  } catch (...) {
    return "<other exception>";
  }
  return "<nothing thrown>";
}

}  // namespace

TEST_CASE("saturation_point matches a double-precision replay of its own sampling", "[saturation_point]") {
  for (std::size_t dk : {1, 3, 16, 64}) {
    for (std::size_t m : {2, 5, 16}) {
      const double sq = std::sqrt(static_cast<double>(dk));
      const std::vector<double> divisors{1.0, 2.0, sq, static_cast<double>(dk), 0.25};
      const auto got = attn::saturation_point(dk, m, 40, 7 + dk * m, divisors.data(), divisors.size());
      const auto want = replay_means(dk, m, 40, 7 + dk * m, divisors);
      REQUIRE(got.size() == divisors.size());
      for (std::size_t c = 0; c < divisors.size(); ++c) {
        CAPTURE(dk, m, divisors[c]);
        REQUIRE(got[c].divisor == divisors[c]);
        // The core's dot is in float, the replay's in double: scores differ by
        // ~1e-6 relative, softmax outputs by less than 1e-4 at these sizes.
        REQUIRE(std::fabs(got[c].max_prob.mean - want[c].max_prob) <= 1e-4);
        REQUIRE(std::fabs(got[c].entropy.mean - want[c].entropy) <= 1e-4);
        REQUIRE(std::fabs(got[c].jacobian_norm.mean - want[c].jacobian) <= 1e-4);
        REQUIRE(got[c].max_prob.se >= 0);
        REQUIRE(got[c].max_prob.mean >= 1.0 / static_cast<double>(m) - 1e-12);
        REQUIRE(got[c].max_prob.mean <= 1.0 + 1e-12);
        REQUIRE(got[c].entropy.mean <= std::log(static_cast<double>(m)) + 1e-12);
      }
    }
  }
}

TEST_CASE("saturation_point: one sampling pass serves every divisor", "[saturation_point]") {
  const std::vector<double> all{1.0, 8.0, 64.0};
  const auto together = attn::saturation_point(64, 16, 30, 99, all.data(), all.size());
  for (std::size_t c = 0; c < all.size(); ++c) {
    const auto alone = attn::saturation_point(64, 16, 30, 99, &all[c], 1);
    REQUIRE(alone[0].max_prob.mean == together[c].max_prob.mean);
    REQUIRE(alone[0].entropy.mean == together[c].entropy.mean);
    REQUIRE(alone[0].jacobian_norm.mean == together[c].jacobian_norm.mean);
    REQUIRE(alone[0].jacobian_norm.se == together[c].jacobian_norm.se);
  }
  // Same seed, same numbers; another seed, other numbers.
  const auto again = attn::saturation_point(64, 16, 30, 99, all.data(), all.size());
  REQUIRE(again[0].entropy.mean == together[0].entropy.mean);
  const auto other = attn::saturation_point(64, 16, 30, 100, all.data(), all.size());
  REQUIRE(other[0].entropy.mean != together[0].entropy.mean);
}

TEST_CASE("saturation_point: exact values for one key and for one row", "[saturation_point]") {
  const double c = 1.0;
  const auto one_key = attn::saturation_point(128, 1, 10, 3, &c, 1);
  REQUIRE(one_key[0].max_prob.mean == 1.0);
  REQUIRE(one_key[0].entropy.mean == 0.0);
  REQUIRE(one_key[0].jacobian_norm.mean == 0.0);
  REQUIRE(one_key[0].max_prob.se == 0.0);
  const auto one_row = attn::saturation_point(16, 8, 1, 3, &c, 1);
  REQUIRE(one_row[0].entropy.se == 0.0);  // no spread from a single row
}

TEST_CASE("saturation_point: unscaled rows saturate as d_k grows, rows divided by sqrt(d_k) do not",
          "[saturation_point]") {
  const std::size_t m = 16, rows = 400;
  auto at = [&](std::size_t dk) {
    const std::vector<double> d{1.0, std::sqrt(static_cast<double>(dk))};
    return attn::saturation_point(dk, m, rows, 2024 + dk, d.data(), d.size());
  };
  const auto small = at(4), mid = at(64), large = at(1024);
  // Unscaled: scores with sd 32 make the row nearly one-hot and stop the gradient.
  REQUIRE(large[0].max_prob.mean > 0.9);
  REQUIRE(large[0].max_prob.mean > small[0].max_prob.mean + 0.3);
  REQUIRE(large[0].jacobian_norm.mean < 0.5 * small[0].jacobian_norm.mean);
  REQUIRE(large[0].entropy.mean < 0.25 * small[0].entropy.mean);
  // Divided by √d_k: given q, the scaled scores are |q|/√d_k · N(0, 1) and
  // |q|/√d_k -> 1, so the statistics at d_k = 1024 agree with those at d_k = 64
  // within their noise (5 combined standard errors, plus 0.02 for the |q|
  // spread at d_k = 64, whose sd is about 9%).
  for (auto f : {&attn::SaturationStats::max_prob, &attn::SaturationStats::entropy,
                 &attn::SaturationStats::jacobian_norm}) {
    const attn::MeanSe a = mid[1].*f, b = large[1].*f;
    CAPTURE(a.mean, a.se, b.mean, b.se);
    REQUIRE(std::fabs(a.mean - b.mean) <= 5 * std::sqrt(a.se * a.se + b.se * b.se) + 0.02);
  }
}

TEST_CASE("saturation_point rejects bad input with an ArgumentError naming it", "[saturation_point][errors]") {
  const double ok[] = {1.0, 8.0};
  using attn::saturation_point;
  const auto call = [&](std::size_t dk, std::size_t m, std::size_t rows, const double* d,
                        std::size_t nd) { return [=] { saturation_point(dk, m, rows, 1, d, nd); }; };
  REQUIRE(thrown_argument(call(0, 4, 1, ok, 2)) == "dk");
  REQUIRE(thrown_argument(call(attn::limits::kMaxDk + 1, 4, 1, ok, 2)) == "dk");
  REQUIRE(thrown_argument(call(4, 0, 1, ok, 2)) == "m");
  REQUIRE(thrown_argument(call(4, attn::limits::kMaxSeqLen + 1, 1, ok, 2)) == "m");
  REQUIRE(thrown_argument(call(4, 4, 0, ok, 2)) == "rows");
  REQUIRE(thrown_argument(call(4, 4, attn::kMaxSaturationRows + 1, ok, 2)) == "rows");
  REQUIRE(thrown_argument(call(65536, 4096, 1, ok, 2)) == "rows*m*dk");
  REQUIRE(thrown_argument(call(4, 4, 1, ok, 0)) == "divisors");
  REQUIRE(thrown_argument(call(4, 4, 1, ok, attn::kMaxSaturationDivisors + 1)) == "divisors");
  REQUIRE(thrown_argument(call(4, 4, 1, nullptr, 2)) == "divisors");
  for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL, 2e12}) {
    const double d[] = {1.0, bad};
    CAPTURE(bad);
    REQUIRE(thrown_argument(call(4, 4, 1, d, 2)) == "divisor");
  }
  REQUIRE_THROWS_WITH(saturation_point(0, 4, 1, 1, ok, 2), Catch::Contains("dk must be an integer in [1, 65536]"));
}

TEST_CASE("SaturationSession: batches of any sizes give saturation_point's numbers for their total",
          "[saturation_point][session]") {
  // The page draws rows in batches and shows running means and standard
  // errors after each: they must be exactly those of one call over all rows
  // (one random stream, sums in double), not an approximate merge.
  const double divisors[] = {1.0, 8.0, 64.0};
  const auto whole = attn::saturation_point(64, 16, 37, 5, divisors, 3);
  attn::SaturationSession s(64, 16, 5, divisors, 3);
  REQUIRE(s.rows() == 0);
  for (std::size_t batch : {1, 5, 20, 11}) s.draw(batch);
  REQUIRE(s.rows() == 37);
  const auto parts = s.stats();
  REQUIRE(parts.size() == 3);
  for (std::size_t c = 0; c < 3; ++c) {
    CAPTURE(c);
    REQUIRE(parts[c].divisor == divisors[c]);
    for (auto field : {&attn::SaturationStats::max_prob, &attn::SaturationStats::entropy,
                       &attn::SaturationStats::jacobian_norm}) {
      REQUIRE((parts[c].*field).mean == (whole[c].*field).mean);
      REQUIRE((parts[c].*field).se == (whole[c].*field).se);
    }
  }
}

TEST_CASE("SaturationSession: the closed forms of a row that cannot saturate", "[saturation_point][session]") {
  // Divided by the largest divisor allowed, every row of m scores is uniform
  // to double precision: largest probability 1/m, entropy ln m, and
  // ||diag(p) - p pᵀ||_F = √(m (1/m - 1/m²)² + m (m - 1) / m⁴) = √(m - 1) / m,
  // with no spread between rows (standard error 0 up to rounding).
  const double huge = 1e12;
  for (std::size_t m : {2, 7, 64}) {
    attn::SaturationSession s(4, m, 3, &huge, 1);
    s.draw(50);
    const auto st = s.stats()[0];
    const double dm = static_cast<double>(m);
    CAPTURE(m);
    REQUIRE(st.max_prob.mean == Approx(1 / dm).epsilon(1e-9));
    REQUIRE(st.entropy.mean == Approx(std::log(dm)).epsilon(1e-9));
    REQUIRE(st.jacobian_norm.mean == Approx(std::sqrt(dm - 1) / dm).epsilon(1e-9));
    REQUIRE(st.max_prob.se < 1e-9);
  }
}

TEST_CASE("SaturationSession rejects bad input with an ArgumentError naming it", "[saturation_point][session][errors]") {
  const double one = 1.0, zero = 0.0;
  auto argument_of = [](auto&& f) {
    try {
      f();
    } catch (const attn::ArgumentError& e) {
      return e.argument();
    }
    return std::string("(none)");
  };
  REQUIRE(argument_of([&] { attn::SaturationSession(0, 16, 1, &one, 1); }) == "dk");
  REQUIRE(argument_of([&] { attn::SaturationSession(64, 0, 1, &one, 1); }) == "m");
  REQUIRE(argument_of([&] { attn::SaturationSession(64, 16, 1, &one, 0); }) == "divisors");
  REQUIRE(argument_of([&] { attn::SaturationSession(64, 16, 1, &zero, 1); }) == "divisor");
  attn::SaturationSession s(65536, 4096, 1, &one, 1);
  REQUIRE(argument_of([&] { s.draw(0); }) == "rows");
  REQUIRE(argument_of([&] { s.draw(10); }) == "rows*m*dk");
  REQUIRE(s.rows() == 0);  // a refused draw draws nothing
  attn::SaturationSession small(1, 1, 1, &one, 1);
  small.draw(attn::kMaxSaturationRows);
  REQUIRE(argument_of([&] { small.draw(1); }) == "rows");
}

TEST_CASE("SaturationSession: medians, shares below a threshold and the target key's gradient, against every row replayed",
          "[saturation_point][session][distribution]") {
  // The core's scores are float dot products, the replay's double: a row's
  // value may differ by ~1e-6 relative, so a row within 1e-3 of an edge may
  // fall either side. Outside that band the counts must agree exactly.
  const double slack = 1e-3;
  for (std::size_t dk : {4, 64, 1024}) {
    const std::size_t m = 16, rows = 301;
    const double sq = std::sqrt(static_cast<double>(dk));
    const std::vector<double> divisors{1.0, 2.0, sq, static_cast<double>(dk)};
    attn::SaturationSession s(dk, m, 11 + dk, divisors.data(), divisors.size());
    s.enable_distribution();
    s.draw(rows);
    const auto want = replay_rows(dk, m, rows, 11 + dk, divisors);
    for (int k : {1, 2, 3, 6}) {
      const auto got = s.stats(k);
      const double t = std::pow(10.0, -k);
      for (std::size_t c = 0; c < divisors.size(); ++c) {
        CAPTURE(dk, divisors[c], k);
        const RowValues& w = want[c];
        REQUIRE(got[c].threshold == t);
        for (auto [share, v] : {std::pair{got[c].jacobian_below, &w.jacobian}, std::pair{got[c].target_below, &w.target}}) {
          REQUIRE(share * rows == Approx(std::round(share * rows)).margin(1e-9));  // a count of rows
          const double n = std::round(share * rows);
          REQUIRE(n >= static_cast<double>(count_below(*v, t * (1 - slack))));
          REQUIRE(n <= static_cast<double>(count_below(*v, t * (1 + slack))));
        }
        double mean = 0;
        for (double x : w.target) mean += x / rows;
        REQUIRE(std::fabs(got[c].target_grad.mean - mean) <= 1e-4 * std::fmax(1.0, mean));
        REQUIRE(got[c].target_grad.mean <= 0.25);
        // The median: the 151st smallest of 301 rows lies in the reported bin.
        std::vector<double> sorted = w.jacobian;
        std::sort(sorted.begin(), sorted.end());
        const double med = sorted[rows / 2];
        const attn::Median& gm = got[c].jacobian_median;
        CAPTURE(med, gm.lo, gm.estimate, gm.hi);
        REQUIRE(gm.lo <= gm.estimate);
        REQUIRE(gm.estimate <= gm.hi);
        REQUIRE(gm.hi / std::fmax(gm.lo, 1e-300) <= std::pow(10.0, 1.0 / attn::kHistPerDecade) * (1 + 1e-12));
        REQUIRE(med >= gm.lo * (1 - slack));
        REQUIRE(med <= gm.hi * (1 + slack));
      }
    }
  }
}

TEST_CASE("SaturationSession: the distribution's closed forms, and what saturation does to a target key",
          "[saturation_point][session][distribution]") {
  // Uniform rows (the largest divisor): every row's norm is √(m - 1) / m, so
  // the median's bin holds it and no row is below 10⁻³; key 0 gets
  // (1/m)(1 - 1/m) in every row.
  const double huge = 1e12;
  for (std::size_t m : {2, 16, 512}) {
    attn::SaturationSession s(4, m, 3, &huge, 1);
    s.enable_distribution();
    s.draw(20);
    const auto st = s.stats(3)[0];
    const double dm = static_cast<double>(m), norm = std::sqrt(dm - 1) / dm;
    CAPTURE(m);
    REQUIRE(st.jacobian_median.lo <= norm * (1 + 1e-12));
    REQUIRE(st.jacobian_median.hi > norm * (1 - 1e-12));
    REQUIRE(st.jacobian_below == 0);
    REQUIRE(st.target_grad.mean == Approx((1 / dm) * (1 - 1 / dm)).epsilon(1e-9));
    REQUIRE(st.target_below == 0);
  }
  // One key: softmax is [1], its Jacobian 0 and p(1 - p) = 0 in every row:
  // the median is in the bin below 1e-40 and every row is below any threshold.
  const double one = 1.0;
  attn::SaturationSession single(64, 1, 3, &one, 1);
  single.enable_distribution();
  single.draw(10);
  const auto st = single.stats(40)[0];
  REQUIRE(st.jacobian_median.lo == 0);
  REQUIRE(st.jacobian_median.estimate == 0);
  REQUIRE(st.jacobian_median.hi == Approx(attn::kHistLowest));
  REQUIRE(st.jacobian_below == 1);
  REQUIRE(st.target_below == 1);
  // Unscaled at d_k = 1024 (scores of sd 32): a key picked at random gets
  // almost no gradient in most rows (its weight is ≈ 0, or ≈ 1 when it is
  // the winner), far more often than divided by √d_k; the mean Jacobian norm
  // says much less (it is carried by the rows that are not one-hot).
  const double d[] = {1.0, 32.0};
  attn::SaturationSession big(1024, 16, 5, d, 2);
  big.enable_distribution();
  big.draw(400);
  const auto b = big.stats(3);
  REQUIRE(b[0].target_below > 0.5);
  REQUIRE(b[1].target_below < 0.2);
  REQUIRE(b[0].target_below > b[0].jacobian_below);
  REQUIRE(b[0].jacobian_median.estimate < b[0].jacobian_norm.mean);
}

TEST_CASE("SaturationSession: a threshold other than 10^-1 .. 10^-40 is refused, naming it", "[saturation_point][session][errors]") {
  const double one = 1.0;
  attn::SaturationSession s(4, 4, 1, &one, 1);
  s.draw(3);
  for (int k : {0, -1, 41, 1000})
    REQUIRE(thrown_argument([&] { s.stats(k); }) == "threshold");
  REQUIRE(thrown_argument([&] { attn::saturation_point(4, 4, 3, 1, &one, 1, 0, 0); }) == "threshold");
  REQUIRE_NOTHROW(s.stats(1));
  REQUIRE_NOTHROW(s.stats(40));
}

TEST_CASE("SaturationSession: without the distribution the means are the same and the distribution is marked absent",
          "[saturation_point][session][distribution]") {
  const double d[] = {1.0, 8.0};
  attn::SaturationSession plain(64, 16, 9, d, 2);
  attn::SaturationSession full(64, 16, 9, d, 2);
    full.enable_distribution();
  plain.draw(25);
  full.draw(25);
  const auto a = plain.stats(), b = full.stats();
  for (std::size_t c = 0; c < 2; ++c) {
    REQUIRE(a[c].jacobian_norm.mean == b[c].jacobian_norm.mean);
    REQUIRE(a[c].target_grad.mean == b[c].target_grad.mean);
    REQUIRE_FALSE(a[c].has_distribution);
    REQUIRE(b[c].has_distribution);
    REQUIRE(b[c].jacobian_median.hi > 0);
  }
  REQUIRE(attn::saturation_point(64, 16, 25, 9, d, 2)[0].has_distribution);
  // Only before the first draw: the histograms must count every row.
  REQUIRE(thrown_argument([&] { plain.enable_distribution(); }) == "session");
}
