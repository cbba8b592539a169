// The saturation statistics' sequence-length part (issue 15.4): the log-n
// divisor of Scalable-Softmax (√d_k / (s ln n)), the logit soft-cap
// c·tanh(x / c) after the divisor, and the trend with n the page draws.
// Checked against closed forms (n = 1; a uniform row), against a replay of the
// documented sampling in double with a textbook softmax (written out here),
// and for every bad argument.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "base/rng.h"
#include "base/size_limits.h"
#include "explain/saturation.h"
#include "explain/saturation_divisor.h"

namespace {

struct Means {
  double max_prob = 0, entropy = 0, jacobian = 0;
};

// Replays saturation_point's order (per row: q's d_k normals, then each key's,
// one Rng(seed)), with scores in double, an optional cap c·tanh(x / c) of the
// scaled scores, and softmax from its definition.
Means replay(std::size_t dk, std::size_t m, std::size_t rows, std::uint64_t seed, double divisor, double cap) {
  attn::Rng rng(seed);
  std::vector<float> q(dk), k(dk);
  std::vector<double> x(m), p(m);
  Means out;
  for (std::size_t r = 0; r < rows; ++r) {
    for (auto& v : q) v = static_cast<float>(rng.normal());
    for (std::size_t j = 0; j < m; ++j) {
      for (auto& v : k) v = static_cast<float>(rng.normal());
      double d = 0;
      for (std::size_t i = 0; i < dk; ++i) d += static_cast<double>(q[i]) * static_cast<double>(k[i]);
      x[j] = d / divisor;
      if (cap > 0) x[j] = cap * std::tanh(x[j] / cap);
    }
    double mx = x[0], sum = 0;
    for (double v : x) mx = std::fmax(mx, v);
    for (std::size_t j = 0; j < m; ++j) sum += (p[j] = std::exp(x[j] - mx));
    double pmax = 0, h = 0, f2 = 0;
    for (double& v : p) {
      v /= sum;
      pmax = std::fmax(pmax, v);
      if (v > 0) h -= v * std::log(v);
    }
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        const double e = (i == j ? p[i] : 0.0) - p[i] * p[j];
        f2 += e * e;
      }
    out.max_prob += pmax / static_cast<double>(rows);
    out.entropy += h / static_cast<double>(rows);
    out.jacobian += std::sqrt(f2) / static_cast<double>(rows);
  }
  return out;
}

template <typename F>
std::string argument_of(F&& f) {
  try {
    f();
  } catch (const attn::ArgumentError& e) {
    return e.argument();
  }
  return "(none)";
}

attn::SaturationStats one(std::size_t dk, std::size_t m, std::size_t rows, std::uint64_t seed, double d,
                          double cap = 0) {
  return attn::saturation_point(dk, m, rows, seed, &d, 1, cap).at(0);
}

}  // namespace

TEST_CASE("ssmax divisor: sqrt(d_k) / (s ln n), exactly", "[saturation_length][ssmax]") {
  for (std::size_t dk : {1, 64, 128, 65536})
    for (std::size_t n : {2, 3, 100, 4096})
      for (double s : {0.43, 1.0, 1e-6, 1e6}) {
        CAPTURE(dk, n, s);
        const double want = std::sqrt(static_cast<double>(dk)) / (s * std::log(static_cast<double>(n)));
        REQUIRE(attn::ssmax_divisor(dk, n, s) == want);
        REQUIRE(std::isfinite(want));
        REQUIRE(want >= attn::limits::kMinDivisor);
        REQUIRE(want <= attn::limits::kMaxDivisor);
      }
  // At n = e^{1/s} the length scale is 1: the divisor is √d_k itself.
  REQUIRE(attn::ssmax_divisor(64, 2, 1 / std::log(2.0)) == Approx(8.0).epsilon(1e-15));
}

TEST_CASE("ssmax divisor: n = 1 (ln 1 = 0), s out of range and d_k out of range are refused",
          "[saturation_length][ssmax][errors]") {
  REQUIRE(argument_of([] { attn::ssmax_divisor(64, 1, 0.43); }) == "m");
  REQUIRE(argument_of([] { attn::ssmax_divisor(64, 0, 0.43); }) == "m");
  REQUIRE(argument_of([] { attn::ssmax_divisor(64, 4097, 0.43); }) == "m");
  REQUIRE(argument_of([] { attn::ssmax_divisor(0, 16, 0.43); }) == "dk");
  for (double s : {0.0, -0.43, 1e-7, 2e6, std::nan(""), HUGE_VAL}) {
    CAPTURE(s);
    REQUIRE(argument_of([&] { attn::ssmax_divisor(64, 16, s); }) == "s");
  }
}

TEST_CASE("SaturationDivisor parses sqrt, dk, numbers, ssmax and ssmax:S", "[saturation_length][ssmax]") {
  using attn::SaturationDivisor;
  REQUIRE(SaturationDivisor::parse("sqrt").resolve(64, 16) == 8.0);
  REQUIRE(SaturationDivisor::parse("dk").resolve(64, 16) == 64.0);
  REQUIRE(SaturationDivisor::parse("2.5").resolve(64, 16) == 2.5);
  REQUIRE_FALSE(SaturationDivisor::parse("8").ssmax());
  const auto d = SaturationDivisor::parse("ssmax");
  REQUIRE(d.ssmax());
  REQUIRE(d.s() == 0.43);
  REQUIRE(d.label() == "ssmax:0.43");
  REQUIRE(d.resolve(64, 1024) == 8.0 / (0.43 * std::log(1024.0)));
  const auto e = SaturationDivisor::parse("ssmax:1.5e-1");
  REQUIRE(e.s() == 0.15);
  REQUIRE(e.label() == "ssmax:0.15");
  REQUIRE(e.resolve(16, 2) == 4.0 / (0.15 * std::log(2.0)));
  REQUIRE(argument_of([&] { d.resolve(64, 1); }) == "m");  // never an infinite divisor
  for (const char* bad : {"ssmax:", "ssmax:0", "ssmax:-1", "ssmax:nan", "ssmax:inf", "ssmax:abc", "ssmax:1e7",
                          "ssmax:0.43x", "ssmax 0.43", "SSMAX", "ssmax:+1", "0", "-8", "nan", "x", ""}) {
    CAPTURE(bad);
    try {
      SaturationDivisor::parse(bad);
      FAIL("parsed");
    } catch (const attn::ArgumentError& e) {
      REQUIRE(e.argument() == "divisor");
      REQUIRE(e.kind() == "divisor");
      REQUIRE(e.params().find("\"ssmax\":true") != std::string::npos);
    }
  }
}

TEST_CASE("softcap: a double replay of the sampling with c·tanh(x / c) after the divisor",
          "[saturation_length][softcap]") {
  for (std::size_t dk : {1, 16, 256})
    for (std::size_t m : {2, 9, 64})
      for (double cap : {0.5, 5.0, 50.0})
        for (double d : {1.0, std::sqrt(static_cast<double>(dk))}) {
          CAPTURE(dk, m, cap, d);
          const auto got = one(dk, m, 30, 11 + dk + m, d, cap);
          const Means want = replay(dk, m, 30, 11 + dk + m, d, cap);
          // float dot products in the core, double in the replay: ~1e-6 relative.
          REQUIRE(std::fabs(got.max_prob.mean - want.max_prob) <= 1e-4);
          REQUIRE(std::fabs(got.entropy.mean - want.entropy) <= 1e-4);
          REQUIRE(std::fabs(got.jacobian_norm.mean - want.jacobian) <= 1e-4);
        }
}

TEST_CASE("softcap: closed forms and limits", "[saturation_length][softcap]") {
  // n = 1: probability 1, entropy 0, Jacobian 0 whatever the cap.
  const auto single = one(64, 1, 20, 3, 1.0, 50);
  REQUIRE(single.max_prob.mean == 1.0);
  REQUIRE(single.entropy.mean == 0.0);
  REQUIRE(single.jacobian_norm.mean == 0.0);
  // The smallest cap, 1e-3, squeezes every logit into [-1e-3, 1e-3]: a row
  // uniform to 3 digits, max prob 1/m, entropy ln m, Jacobian norm √(m - 1) / m
  // (each within a factor e^(±2e-3) of it).
  for (std::size_t m : {2, 10, 300}) {
    const double dm = static_cast<double>(m);
    const auto u = one(1024, m, 10, 5, 1.0, attn::limits::kMinCap);
    CAPTURE(m);
    REQUIRE(u.max_prob.mean == Approx(1 / dm).epsilon(2.1e-3));
    REQUIRE(u.max_prob.mean > 1 / dm);
    REQUIRE(u.entropy.mean == Approx(std::log(dm)).epsilon(1e-5));
    REQUIRE(u.jacobian_norm.mean == Approx(std::sqrt(dm - 1) / dm).epsilon(4.2e-3));
  }
  // The largest cap, 1e4, far above every logit here (sd 1), changes them by
  // x³/(3c²) < 1e-6: the same rows to 6 digits.
  const auto plain = one(64, 16, 50, 9, 8.0), far = one(64, 16, 50, 9, 8.0, attn::limits::kMaxCap);
  REQUIRE(far.entropy.mean == Approx(plain.entropy.mean).epsilon(1e-6));
  REQUIRE(far.max_prob.mean == Approx(plain.max_prob.mean).epsilon(1e-6));
  REQUIRE(far.max_prob.mean != plain.max_prob.mean);  // capped all the same
  // Unscaled scores at d_k = 1024 (sd 32) saturate; a cap of 5 bounds the
  // logit gap by 10, so rows keep entropy and gradient.
  const auto raw = one(1024, 64, 200, 7, 1.0), capped = one(1024, 64, 200, 7, 1.0, 5.0);
  REQUIRE(raw.max_prob.mean > 0.8);
  REQUIRE(capped.max_prob.mean < raw.max_prob.mean - 0.3);
  REQUIRE(capped.entropy.mean > raw.entropy.mean + 1.0);
}

TEST_CASE("softcap: bad caps are refused before any sampling", "[saturation_length][softcap][errors]") {
  const double d = 1.0;
  // The range is the trainer's, [1e-3, 1e4]: the old [1e-30, 1e12] is refused inside too.
  for (double cap : {-1.0, -0.0 - 1e-300, 1e-31, 1e-30, 9.99e-4, 10000.5, 1e12, 2e12, std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    CAPTURE(cap);
    REQUIRE(argument_of([&] { attn::saturation_point(4, 4, 1, 1, &d, 1, cap); }) == "softcap");
    REQUIRE(argument_of([&] { attn::SaturationSession(4, 4, 1, &d, 1, cap); }) == "softcap");
  }
  // The work limit still comes first: nothing is sampled for a refused call.
  REQUIRE(argument_of([&] { attn::saturation_point(65536, 4096, 1, 1, &d, 1, 50); }) == "rows*m*dk");
}

TEST_CASE("sequence length: at sqrt(d_k) the largest probability falls and the entropy grows like ln n, "
          "ssmax keeps rows sharp",
          "[saturation_length][trend]") {
  // Given q, the scores over √d_k are |q|/√d_k · N(0, 1) ≈ N(0, 1) per key:
  // the top one sits near √(2 ln n) above the rest, which does not keep up
  // with the ln n keys it competes with, so max p falls and H - ln n stays
  // bounded (for N(0,1) logits, H → ln n - 1/2). With ssmax the logits are
  // s ln n · N(0, 1): their spread grows with ln n and rows stay peaked.
  const std::size_t dk = 64, rows = 2000;
  const std::vector<std::size_t> ns{2, 8, 64, 512, 4096};
  std::vector<attn::SaturationStats> fixed, length;
  for (std::size_t n : ns) {
    const std::size_t r = n >= 512 ? rows / 8 : rows;  // inside the work limit
    const double d[2] = {8.0, attn::ssmax_divisor(dk, n, 0.43)};
    const auto st = attn::saturation_point(dk, n, r, 42, d, 2);
    fixed.push_back(st[0]);
    length.push_back(st[1]);
  }
  for (std::size_t i = 0; i + 1 < ns.size(); ++i) {
    const auto &a = fixed[i], &b = fixed[i + 1];
    CAPTURE(ns[i], a.max_prob.mean, b.max_prob.mean, a.entropy.mean, b.entropy.mean);
    // Falls / grows by many standard errors at every step.
    REQUIRE(a.max_prob.mean - b.max_prob.mean > 6 * std::hypot(a.max_prob.se, b.max_prob.se));
    REQUIRE(b.entropy.mean - a.entropy.mean > 6 * std::hypot(a.entropy.se, b.entropy.se));
    // ssmax is sharper than √d_k at every n past e^{1/0.43} ≈ 10.
    if (ns[i + 1] >= 64) {
      REQUIRE(length[i + 1].max_prob.mean > b.max_prob.mean + 0.1);
      REQUIRE(length[i + 1].entropy.mean < b.entropy.mean - 0.5);
    }
  }
  // Like ln n: H - ln n stays within [-1, 0] from n = 8 to 4096 (ln n goes from 2.1 to 8.3).
  for (std::size_t i = 1; i < ns.size(); ++i) {
    const double gap = fixed[i].entropy.mean - std::log(static_cast<double>(ns[i]));
    CAPTURE(ns[i], gap);
    REQUIRE(gap <= 0);
    REQUIRE(gap >= -1);
  }
  // ssmax at n = 4096 keeps the largest probability far above the fixed divisor's.
  REQUIRE(length.back().max_prob.mean > 3 * fixed.back().max_prob.mean);
}
