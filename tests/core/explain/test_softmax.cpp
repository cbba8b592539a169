// softmax_stats and softmax_f32_inplace against the article's numbers, a naive
// double oracle, an explicit Eigen Jacobian and closed forms near one-hot.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/size_limits.h"
#include "explain/softmax.h"
#include "oracles.h"

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kU = oracle::kFloatU;

// First-order relative error of a float softmax element, max subtracted:
// u|z_i| for z_i = x_i - max, 6u for exp (the core's polynomial is within 2 ulp
// of std::exp, itself within 1 ulp), the same again for the worst term of the
// sum, (n - 1) u for summing n floats, and 2u for 1/sum and the product.
double f32_softmax_bound(double zi, double zmax, std::size_t n) {
  return kU * (zi + zmax + 12.0 + static_cast<double>(n) + 1.0);
}

attn::SoftmaxStats run(const std::vector<double>& s, double divisor, std::vector<double>& p) {
  p.assign(s.size(), -1.0);
  return attn::softmax_stats(s.data(), s.size(), divisor, p.data());
}

void require_all_finite(const std::vector<double>& p, const attn::SoftmaxStats& st) {
  std::size_t non_finite = 0;
  for (double x : p) non_finite += std::isfinite(x) ? 0 : 1;
  REQUIRE(non_finite == 0);
  REQUIRE(std::isfinite(st.entropy));
  REQUIRE(std::isfinite(st.max_prob));
  REQUIRE(std::isfinite(st.jacobian_norm));
}

}  // namespace

TEST_CASE("softmax_stats reproduces the numbers of the article", "[softmax]") {
  std::vector<double> p;
  // Scores 14, 10, 12 of the article's example, unscaled and divided by √64 = 8.
  const std::vector<double> s{14, 10, 12};
  SECTION("divisor 1") {
    const auto st = run(s, 1.0, p);
    REQUIRE(std::fabs(p[0] - 0.866813) <= 1e-5);
    REQUIRE(std::fabs(p[1] - 0.015876) <= 1e-5);
    REQUIRE(std::fabs(p[2] - 0.117310) <= 1e-5);
    REQUIRE(st.argmax == 0);
    REQUIRE(st.max_prob == p[0]);
  }
  SECTION("divisor 8") {
    const auto st = run(s, 8.0, p);
    REQUIRE(std::fabs(p[0] - 0.419229) <= 1e-5);
    REQUIRE(std::fabs(p[1] - 0.254275) <= 1e-5);
    REQUIRE(std::fabs(p[2] - 0.326496) <= 1e-5);
    REQUIRE(st.argmax == 0);
    // Scaling flattens the row: more entropy, more gradient.
    std::vector<double> p1;
    const auto st1 = run(s, 1.0, p1);
    REQUIRE(st.entropy > st1.entropy);
    REQUIRE(st.jacobian_norm > st1.jacobian_norm);
  }
  SECTION("[1, 0.5, 0.8] divided by √4 = 2") {
    const auto st = run({1.0, 0.5, 0.8}, 2.0, p);
    REQUIRE(std::fabs(p[0] - 0.372628) <= 1e-5);
    REQUIRE(std::fabs(p[1] - 0.290203) <= 1e-5);
    REQUIRE(std::fabs(p[2] - 0.337168) <= 1e-5);
    REQUIRE(st.argmax == 0);
    REQUIRE(oracle::close_rel(st.entropy, oracle::entropy(p), 1e-12));
  }
}

TEST_CASE("softmax_stats matches a double oracle and an explicit Eigen Jacobian", "[softmax]") {
  oracle::TestData rng(0x50f7);
  for (std::size_t n : {1, 2, 3, 17, 1000}) {
    for (double divisor : {0.37, 1.0, 2.0, 8.0, 31.6, 1e3}) {
      for (int rep = 0; rep < 5; ++rep) {
        const std::vector<double> s = rng.doubles(n, -6.0, 6.0);
        std::vector<double> p;
        const auto st = run(s, divisor, p);
        const std::vector<double> want = oracle::softmax(s, divisor);
        CAPTURE(n, divisor, rep);
        require_all_finite(p, st);

        // Probabilities: both are exp(z)/sum in double; they differ by the sum's order.
        double sum = 0;
        std::size_t best = 0;
        for (std::size_t i = 0; i < n; ++i) {
          CAPTURE(i, p[i], want[i]);
          REQUIRE(oracle::close_rel(p[i], want[i], 1e-12));
          sum += p[i];
          if (want[i] > want[best]) best = i;
        }
        REQUIRE(std::fabs(sum - 1.0) <= 1e-12);
        REQUIRE(st.argmax == best);
        REQUIRE(st.max_prob == p[best]);

        // Entropy: -sum p ln p, a sum of non-negative terms (no cancellation).
        const double h = oracle::entropy(want);
        CAPTURE(st.entropy, h);
        REQUIRE(oracle::close_rel(st.entropy, h, 1e-11, 1e-15));
        REQUIRE(st.entropy <= std::log(static_cast<double>(n)) + 1e-12);

        // ||diag(p) - pp^T||_F from the explicit n x n matrix. Its diagonal
        // p - p^2 is computed with absolute error ~eps, so the oracle itself is
        // only good to a few eps absolute; relative 1e-11 otherwise.
        if (n <= 1000) {
          const double jn = oracle::jacobian_norm(want);
          CAPTURE(st.jacobian_norm, jn);
          REQUIRE(oracle::close_rel(st.jacobian_norm, jn, 1e-11, 8 * kEps));
        }
      }
    }
  }
}

namespace {

// Scores {g, 0}: p2 = 1/(1+e^g), p1 = 1/(1+e^-g), ||J||_F = 2 p1 p2 and the
// entropy is the binary entropy, -ln p1 = log1p(e^-g), -ln p2 = g + log1p(e^-g).
// The same row is tried at three scales: divisor 1, 8 (scores 8g) and 0.5
// (scores g/2), all exact in binary, so the closed forms are the same.
void check_two_scores(double g) {
  const double p2 = 1.0 / (1.0 + std::exp(g));
  const double p1 = 1.0 / (1.0 + std::exp(-g));
  const double jn = 2.0 * p1 * p2;
  const double l = std::log1p(std::exp(-g));
  const double h = p1 * l + p2 * (g + l);
  for (double divisor : {1.0, 8.0, 0.5}) {
    for (bool flip : {false, true}) {
      const std::vector<double> s =
          flip ? std::vector<double>{0.0, g * divisor} : std::vector<double>{g * divisor, 0.0};
      std::vector<double> p;
      const auto st = run(s, divisor, p);
      const std::size_t hi = flip ? 1 : 0, lo = 1 - hi;
      // Relative errors and logs: Catch prints doubles in fixed notation, which
      // would show every value here as 0.0.
      const double jn_rel_err = (st.jacobian_norm - jn) / jn, h_rel_err = (st.entropy - h) / h;
      const double p2_rel_err = (p[lo] - p2) / p2;
      const double ln_jn_core = std::log(st.jacobian_norm), ln_jn_exact = std::log(jn);
      CAPTURE(g, divisor, flip, jn_rel_err, h_rel_err, p2_rel_err, ln_jn_core, ln_jn_exact);
      require_all_finite(p, st);
      CHECK(st.argmax == (g > 0 ? hi : 0));
      CHECK(oracle::close_rel(p[lo], p2, 1e-12));
      CHECK(oracle::close_rel(p[hi], p1, 1e-15));
      CHECK(oracle::close_rel(st.max_prob, p1, 1e-15));
      CHECK(oracle::close_rel(st.entropy, h, 1e-9));
      CHECK(oracle::close_rel(st.jacobian_norm, jn, 1e-9));
    }
  }
}

}  // namespace

TEST_CASE("softmax_stats near one-hot: two scores, gap up to 300, to 1e-9 relative", "[softmax][saturation]") {
  for (double g : {0.0, 1e-6, 0.1, 1.0, 5.0, 10.0, 20.0, 37.0, 50.0, 100.0, 200.0, 300.0}) check_two_scores(g);
}

TEST_CASE("softmax_stats deep saturation: two scores, gap 340..600, to 1e-9 relative", "[softmax][saturation]") {
  // Σp² - 2Σp³ + (Σp²)² would return 0 or noise long before this; and even an
  // exact formula in p fails once p2² (~e^-2g) leaves the normal doubles at
  // g ~ 354, yet 2 p1 p2 ~ 2e^-g (5e-261 at g = 600) is a perfectly normal double.
  for (double g : {340.0, 354.0, 360.0, 370.0, 400.0, 500.0, 600.0}) check_two_scores(g);
}

TEST_CASE("softmax_stats past ln(DBL_MIN): a loser's weight is 0, never subnormal", "[softmax][saturation][subnormal]") {
  // exp(-g) leaves the normal doubles at g = 708.396...: from there a loser's
  // weight is exactly 0 (a subnormal one would cost 50-100x per operation on
  // x86), so the row is one-hot to double precision. Just above, the closed
  // forms of the two-score row still hold.
  check_two_scores(700.0);
  check_two_scores(708.39);
  for (double g : {708.3965, 709.0, 720.0, 745.0, 746.0, 1e4, 1e300}) {
    for (std::size_t n : {2, 17}) {
      std::vector<double> s(n, -g), p;
      s[n / 2] = 0;
      const auto st = run(s, 1.0, p);
      CAPTURE(g, n);
      require_all_finite(p, st);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(p[i] == (i == n / 2 ? 1.0 : 0.0));
      REQUIRE(st.max_prob == 1.0);
      REQUIRE(st.entropy == 0.0);
      REQUIRE(st.jacobian_norm == 0.0);
    }
  }
  // Many losers near the edge, some above and some below it: nothing subnormal.
  std::vector<double> s(1000), p;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = -700.0 - 0.02 * static_cast<double>(i);
  s[0] = 0;
  const auto st = run(s, 1.0, p);
  require_all_finite(p, st);
  std::size_t zeros = 0;
  for (double x : p) {
    REQUIRE(std::fpclassify(x) != FP_SUBNORMAL);
    zeros += x == 0.0;
  }
  REQUIRE(zeros > 100);
  REQUIRE(zeros < 900);
}

TEST_CASE("softmax_stats near one-hot with many small entries: 1e-9 relative", "[softmax][saturation]") {
  // Scores {0, -g, -g, ..., -g} (n-1 losers): with t = e^-g, p_l = t/(1+(n-1)t),
  // p_w = 1/(1+(n-1)t), ||J||_F^2 = p_w^2 (1-p_w)^2 + (n-1) p_l^2 (1-p_l)^2
  //   + 2 (n-1) p_w^2 p_l^2 + (n-1)(n-2) p_l^4, and H = -p_w ln p_w - (n-1) p_l ln p_l.
  for (std::size_t n : {3, 17, 1000}) {
    for (double g : {5.0, 30.0, 100.0, 300.0}) {
      const double k = static_cast<double>(n - 1);
      const double t = std::exp(-g);
      const double pw = 1.0 / (1.0 + k * t), pl = t / (1.0 + k * t);
      // 1 - p_w = k p_l, so p_w (1 - p_w) = p_l (k p_w): factor p_l out of every
      // term, so nothing underflows in the oracle.
      const double u = k * pw;
      const double inner = u * u + k * (1 - pl) * (1 - pl) + 2 * k * pw * pw + k * (k - 1) * pl * pl;
      const double jn = pl * std::sqrt(inner);
      const double h = pw * std::log1p(k * t) + k * pl * (g + std::log1p(k * t));
      std::vector<double> s(n, -g);
      s[n / 2] = 0.0;
      std::vector<double> p;
      const auto st = run(s, 1.0, p);
      CAPTURE(n, g, st.jacobian_norm, jn, st.entropy, h);
      require_all_finite(p, st);
      REQUIRE(st.argmax == n / 2);
      // The core sums n - 1 terms for 1 - p_w: allow the n*eps summation bound.
      REQUIRE(oracle::close_rel(st.max_prob, pw, static_cast<double>(n) * kEps));
      REQUIRE(oracle::close_rel(p[0], pl, 1e-12));
      REQUIRE(oracle::close_rel(st.entropy, h, 1e-9));
      REQUIRE(oracle::close_rel(st.jacobian_norm, jn, 1e-9));
    }
  }
}

TEST_CASE("softmax_stats is finite and exact for extreme scores", "[softmax][stability]") {
  std::vector<double> p;
  SECTION("±1e30, divisor 1") {
    const auto st = run({1e30, -1e30, 0.0}, 1.0, p);
    require_all_finite(p, st);
    REQUIRE(p == std::vector<double>{1.0, 0.0, 0.0});
    REQUIRE(st.argmax == 0);
    REQUIRE(st.max_prob == 1.0);
    REQUIRE(st.entropy == 0.0);
    REQUIRE(st.jacobian_norm == 0.0);
  }
  SECTION("±1e308, divisor 0.5 (s/divisor alone would overflow)") {
    const auto st = run({-1e308, 1e308}, 0.5, p);
    require_all_finite(p, st);
    REQUIRE(p == std::vector<double>{0.0, 1.0});
    REQUIRE(st.argmax == 1);
    REQUIRE(st.max_prob == 1.0);
    REQUIRE(st.entropy == 0.0);
    REQUIRE(st.jacobian_norm == 0.0);
  }
  SECTION("max double, tied, divisor 0.5: uniform") {
    const double big = std::numeric_limits<double>::max();
    const auto st = run({big, big, -big}, 0.5, p);
    require_all_finite(p, st);
    REQUIRE(p[0] == 0.5);
    REQUIRE(p[1] == 0.5);
    REQUIRE(p[2] == 0.0);
    REQUIRE(oracle::close_rel(st.entropy, std::log(2.0), 1e-15));
    REQUIRE(oracle::close_rel(st.jacobian_norm, 2 * 0.5 * 0.5, 1e-15));
  }
  SECTION("1e308 rows offset by a small gap: the gap, not the level, decides") {
    // 1e308 and 1e308 - 2^971 differ by one ulp ~ 2e292; divided by 1e12 still huge.
    const double a = 1e308, b = std::nextafter(1e308, 0.0);
    const auto st = run({b, a}, 1e12, p);
    require_all_finite(p, st);
    REQUIRE(p[0] == 0.0);
    REQUIRE(p[1] == 1.0);
    REQUIRE(st.argmax == 1);
  }
  SECTION("huge divisor flattens any finite row") {
    const auto st = run({1.0, -1.0, 0.5}, 1e12, p);
    require_all_finite(p, st);
    for (double x : p) REQUIRE(oracle::close_rel(x, 1.0 / 3.0, 1e-11));
    REQUIRE(oracle::close_rel(st.entropy, std::log(3.0), 1e-11));
  }
}

TEST_CASE("softmax_stats on all-equal rows: uniform, entropy ln n, max 1/n", "[softmax][stability]") {
  // ||diag(p) - pp^T||_F for p = 1/n: sqrt(n (1/n - 1/n^2)^2 + n(n-1)/n^4) = sqrt(n-1)/n.
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{17},
                        std::size_t{1000}, attn::limits::kMaxScores}) {
    for (double level : {0.0, -7.5, 1e30, -1e308}) {
      for (double divisor : {0.5, 1.0, 8.0}) {
        const std::vector<double> s(n, level);
        std::vector<double> p;
        const auto st = run(s, divisor, p);
        const double dn = static_cast<double>(n);
        CAPTURE(n, level, divisor, st.entropy, st.max_prob, st.jacobian_norm);
        require_all_finite(p, st);
        for (double x : p)
          if (x != p[0]) FAIL("probabilities of an all-equal row differ");
        REQUIRE(oracle::close_rel(p[0], 1.0 / dn, 1e-15));
        REQUIRE(oracle::close_rel(st.max_prob, 1.0 / dn, 1e-15));
        REQUIRE(oracle::close_rel(st.entropy, std::log(dn), 1e-12, 1e-300));
        // The core sums n squares: allow the textbook n*eps bound for that sum.
        REQUIRE(oracle::close_rel(st.jacobian_norm, std::sqrt(dn - 1.0) / dn, 1e-12 + 2 * dn * kEps));
        REQUIRE(st.argmax < n);
      }
    }
  }
}

TEST_CASE("softmax_stats with n = 1 is the point mass", "[softmax][stability]") {
  for (double v : {0.0, 123.0, -1e308, 1e308}) {
    std::vector<double> p;
    const auto st = run({v}, 0.5, p);
    CAPTURE(v);
    REQUIRE(p[0] == 1.0);
    REQUIRE(st.argmax == 0);
    REQUIRE(st.max_prob == 1.0);
    REQUIRE(st.entropy == 0.0);
    REQUIRE(st.jacobian_norm == 0.0);
  }
}

TEST_CASE("softmax_stats on ties: argmax points at a maximum", "[softmax]") {
  std::vector<double> p;
  const auto st = run({3.0, 5.0, 5.0, 1.0}, 1.0, p);
  REQUIRE((st.argmax == 1 || st.argmax == 2));
  REQUIRE(p[1] == p[2]);
  REQUIRE(st.max_prob == p[1]);
  const std::vector<double> want = oracle::softmax({3.0, 5.0, 5.0, 1.0}, 1.0);
  for (std::size_t i = 0; i < 4; ++i) REQUIRE(oracle::close_rel(p[i], want[i], 1e-14));
  REQUIRE(oracle::close_rel(st.jacobian_norm, oracle::jacobian_norm(want), 1e-12));
}

TEST_CASE("softmax_f32_inplace matches a double oracle to 1e-6 relative (or the float bound for long rows) and sums to 1", "[softmax][f32]") {
  oracle::TestData rng(0xf32);
  for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 64, 100, 1000, 4096}) {
    for (double scale : {0.1, 1.0, 5.0}) {
      for (int rep = 0; rep < 4; ++rep) {
        const std::vector<float> x0 = rng.floats(n, -scale, scale);
        std::vector<double> s(x0.begin(), x0.end());  // the same float inputs, in double
        const std::vector<double> want = oracle::softmax(s, 1.0);
        std::vector<float> x = x0;
        attn::softmax_f32_inplace(x.data(), n);
        const double mx = *std::max_element(s.begin(), s.end());
        const double zmax = mx - *std::min_element(s.begin(), s.end());
        double sum = 0;
        CAPTURE(n, scale, rep);
        for (std::size_t i = 0; i < n; ++i) {
          // 1e-6, or the first-order float bound where that is larger (long rows).
          const double tol = std::max(1e-6, f32_softmax_bound(mx - s[i], zmax, n));
          CAPTURE(i, x[i], want[i], tol);
          REQUIRE(std::isfinite(x[i]));
          REQUIRE(oracle::close_rel(x[i], want[i], tol, std::numeric_limits<float>::min()));
          sum += x[i];
        }
        // The exp errors cancel in the sum: (n - 1) u for the float sum, 2u for 1/sum and the product.
        REQUIRE(std::fabs(sum - 1.0) <= std::max(1e-6, (static_cast<double>(n) + 2) * kU));
      }
    }
  }
}

TEST_CASE("softmax_f32_inplace is stable for large, tied and single scores", "[softmax][f32]") {
  const float big = std::numeric_limits<float>::max();
  std::vector<float> x{big, -big, 0.0f};
  attn::softmax_f32_inplace(x.data(), x.size());
  REQUIRE(x == std::vector<float>{1.0f, 0.0f, 0.0f});

  x = {1e30f, 1e30f};
  attn::softmax_f32_inplace(x.data(), x.size());
  REQUIRE(x == std::vector<float>{0.5f, 0.5f});

  x.assign(17, -3.0e38f);
  attn::softmax_f32_inplace(x.data(), x.size());
  for (float v : x) REQUIRE(oracle::close_rel(v, 1.0 / 17.0, 1e-6));

  x = {42.0f};
  attn::softmax_f32_inplace(x.data(), 1);
  REQUIRE(x[0] == 1.0f);

  // Gaps past float's exp range: the losers are 0 (or subnormal), never NaN.
  x = {0.0f, -200.0f, 100.0f};
  attn::softmax_f32_inplace(x.data(), x.size());
  REQUIRE(x[2] == 1.0f);
  REQUIRE(x[1] == 0.0f);
  REQUIRE(x[0] >= 0.0f);
  REQUIRE(std::fabs(x[0] - std::exp(-100.0)) <= std::numeric_limits<float>::min());  // may flush
}

TEST_CASE("softmax_stats optionally returns the scaled scores s / divisor", "[softmax]") {
  oracle::TestData rng(0x5ca1);
  for (double divisor : {0.37, 1.0, 8.0, 1e12}) {
    const std::vector<double> s = rng.doubles(17, -50.0, 50.0);
    std::vector<double> p(17), p_alone(17), scaled(17, std::nan(""));
    const auto st = attn::softmax_stats(s.data(), 17, divisor, p.data(), scaled.data());
    const auto st_alone = attn::softmax_stats(s.data(), 17, divisor, p_alone.data());
    CAPTURE(divisor);
    for (std::size_t i = 0; i < 17; ++i) REQUIRE(scaled[i] == s[i] / divisor);  // one IEEE division
    // Asking for the scaled scores changes nothing else.
    REQUIRE(p == p_alone);
    REQUIRE(st.entropy == st_alone.entropy);
    REQUIRE(st.jacobian_norm == st_alone.jacobian_norm);
    REQUIRE(st.argmax == st_alone.argmax);
  }
}

TEST_CASE("softmax_stats rejects bad input with an ArgumentError naming it", "[softmax][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> s{1.0, 2.0, 3.0}, p(3);

  REQUIRE_ARGUMENT_ERROR(attn::softmax_stats(s.data(), 0, 1.0, p.data()), "scores length");
  REQUIRE_ARGUMENT_ERROR(
      attn::softmax_stats(s.data(), attn::limits::kMaxScores + 1, 1.0, p.data()), "scores length");
  REQUIRE_ARGUMENT_ERROR(attn::softmax_stats(nullptr, 3, 1.0, p.data()), "scores");
  REQUIRE_ARGUMENT_ERROR(attn::softmax_stats(s.data(), 3, 1.0, nullptr), "probs");

  for (double bad : {nan, inf, -inf}) {
    for (std::size_t at = 0; at < 3; ++at) {
      std::vector<double> t = s;
      t[at] = bad;
      CAPTURE(bad, at);
      REQUIRE_ARGUMENT_ERROR(attn::softmax_stats(t.data(), 3, 1.0, p.data()), "scores");
    }
  }
  for (double bad : {0.0, -1.0, nan, inf, -inf, 2e12}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(attn::softmax_stats(s.data(), 3, bad, p.data()), "divisor");
  }
}
