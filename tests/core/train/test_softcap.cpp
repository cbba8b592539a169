// The soft-cap's float tanh and sech² (train/softcap.h) against the double
// library's, over the whole float range the scores can take.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "base/rng.h"
#include "train/softcap.h"

namespace {

// Error relative to the exact value, with an absolute floor.
double rel_err(float got, double want, double floor) {
  return std::fabs(static_cast<double>(got) - want) / std::max(std::fabs(want), floor);
}

}  // namespace

TEST_CASE("float tanh and sech² are within a few ulp of the double library's", "[train][softcap]") {
  attn::Rng rng(31);
  std::vector<float> xs = {0.0f, -0.0f, 1e-30f, 1e-7f, 0.3f, 0.6249999f, 0.625f, 0.7f, 1.0f, 3.0f, 9.0f,
                           20.0f, 43.0f, 44.0f, 80.0f, 1e30f};
  for (int i = 0; i < 20000; ++i) xs.push_back(static_cast<float>(std::ldexp(rng.uniform(), -12 + i % 20)));
  double worst_t = 0, worst_d = 0;
  for (float x0 : xs) {
    for (float x : {x0, -x0}) {
      float t, d;
      attn::tanh_sech2(x, t, d);
      const double xd = x, td = std::tanh(xd), dd = 1.0 / (std::cosh(xd) * std::cosh(xd));
      INFO("x = " << x << ": tanh " << t << " vs " << td << ", sech² " << d << " vs " << dd);
      REQUIRE(std::signbit(t) == std::signbit(x));
      REQUIRE(std::fabs(t) <= 1.0f);
      REQUIRE(d >= 0.0f);
      REQUIRE(d <= 1.0f);
      const double eps = std::numeric_limits<float>::epsilon();
      const double et = rel_err(t, td, std::numeric_limits<float>::min()) / eps;
      // sech² past |x| = 43.7 (below 5e-38) is 0, never subnormal: an
      // absolute error under 2^-100, where the gradient rows it multiplies are
      // cut anyway (flush_subnormals.h).
      const double ed = rel_err(d, dd, std::ldexp(1.0, -100) / eps) / eps;
      REQUIRE(et <= 4);
      REQUIRE(ed <= 16);
      worst_t = std::max(worst_t, et);
      worst_d = std::max(worst_d, ed);
    }
  }
  WARN("worst tanh error " << worst_t << " eps, sech² " << worst_d << " eps");
}

TEST_CASE("tanh saturates to exactly ±1 with sech² exactly 0, and NaN stays NaN", "[train][softcap]") {
  for (float x : {50.0f, 1e4f, std::numeric_limits<float>::infinity()}) {
    float t, d;
    attn::tanh_sech2(x, t, d);
    REQUIRE(t == 1.0f);
    REQUIRE(d == 0.0f);
    attn::tanh_sech2(-x, t, d);
    REQUIRE(t == -1.0f);
    REQUIRE(d == 0.0f);
  }
  float t, d;
  attn::tanh_sech2(std::nanf(""), t, d);
  REQUIRE(std::isnan(t));
  REQUIRE(std::isnan(d));
}

TEST_CASE("softcap_forward keeps every score within ±c and is near the identity below c",
          "[train][softcap]") {
  const std::vector<float> raw = {-1e6f, -100.0f, -5.0f, -0.01f, 0.0f, 0.01f, 5.0f, 100.0f, 1e6f};
  for (float c : {0.001f, 1.0f, 50.0f}) {
    std::vector<float> s(raw.size()), dcap(raw.size());
    attn::softcap_forward(raw.data(), raw.size(), c, s.data(), dcap.data());
    for (std::size_t j = 0; j < raw.size(); ++j) {
      INFO("c " << c << ", raw " << raw[j] << " -> " << s[j]);
      REQUIRE(std::fabs(s[j]) <= c);
      REQUIRE(s[j] == Approx(c * std::tanh(static_cast<double>(raw[j]) / c)).epsilon(1e-6).margin(1e-30));
      if (std::fabs(raw[j]) < 1e-3 * c) REQUIRE(s[j] == Approx(raw[j]).epsilon(1e-6));
    }
  }
}
