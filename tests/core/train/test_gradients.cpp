// Every gradient of the training lab's model against central finite
// differences, in double (the same layer code instantiated for double, so the
// check is honest: truncation ~h², rounding ~1e-16/h, both far below the
// tolerance), for every parameter group, every kind of divisor, for
// QK-LayerNorm and for the logit soft-cap, alone and with both. Then the float model, which runs the SIMD kernels, against the
// double gradients at the same parameters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/divisor.h"
#include "train/attn_model.h"
#include "train/model_fixtures.h"

namespace {

// Small sizes that are not multiples of 4 (the SIMD tails) and two heads.
attn::ModelDims dims(bool qk_norm) {
  attn::ModelDims d{};
  d.seq = 5;
  d.d_model = 6;
  d.heads = 2;
  d.dk = 5;
  d.dv = 3;
  d.classes = 7;
  d.qpos = 4;
  d.qk_norm = qk_norm;
  return d;
}

constexpr std::size_t kBatch = 3;

struct Problem {
  std::vector<double> params, x;
  std::vector<int> targets;
};

// Initial parameters plus noise, so biases are not 0 and gains not 1, and
// inputs scaled so that some attention rows are peaked and some are flat.
Problem problem(const attn::ModelDims& d, std::uint64_t seed, double x_scale) {
  attn::Rng rng(seed);
  Problem p;
  p.params = attn::init_params(d, attn::InitKind::Lecun, rng);
  for (double& v : p.params) v += 0.3 * rng.normal();
  p.x.resize(kBatch * d.seq * d.d_model);
  for (double& v : p.x) v = x_scale * rng.normal();
  for (std::size_t b = 0; b < kBatch; ++b)
    p.targets.push_back(static_cast<int>(rng.next_u64() % d.classes));
  return p;
}

double mean_loss(attn::AttnModel<double>& m, const Problem& p) {
  return m.forward(p.x.data(), p.targets.data(), kBatch).loss_sum / kBatch;
}

const char* group_name(const attn::ParamLayout& L, std::size_t i) {
  const std::pair<const char*, attn::ParamLayout::Slice> groups[] = {
      {"W_Q", L.wq}, {"b_Q", L.bq}, {"W_K", L.wk}, {"b_K", L.bk}, {"W_V", L.wv}, {"b_V", L.bv},
      {"W_O", L.wo}, {"b_O", L.bo}, {"W_R", L.wr}, {"b_R", L.br}, {"g_q", L.gq}, {"g_k", L.gk}};
  for (const auto& [name, s] : groups)
    if (i >= s.offset && i < s.offset + s.size) return name;
  return "?";
}

// Checks every parameter; returns the largest gradient seen (so a caller can
// tell the check was not vacuous).
double check_all(const attn::ModelDims& d, double divisor, const Problem& p, double softcap = 0) {
  attn::AttnModel<double> m(d, divisor, softcap);
  m.params() = p.params;
  mean_loss(m, p);
  m.backward();
  const std::vector<double> g = m.grads();
  const double h = 1e-6;
  double largest = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double keep = m.params()[i];
    m.params()[i] = keep + h;
    const double up = mean_loss(m, p);
    m.params()[i] = keep - h;
    const double down = mean_loss(m, p);
    m.params()[i] = keep;
    const double fd = (up - down) / (2 * h);
    INFO("parameter " << i << " in " << group_name(m.layout(), i) << ": analytic " << g[i]
                      << ", finite difference " << fd);
    REQUIRE(std::fabs(g[i] - fd) <= 1e-6 * (std::fabs(fd) + std::fabs(g[i])) + 1e-8);
    largest = std::max(largest, std::fabs(g[i]));
  }
  return largest;
}

}  // namespace

TEST_CASE("gradients match finite differences for every divisor", "[train][gradients]") {
  const auto d = dims(false);
  for (const char* text : {"sqrt", "1", "2", "dk", "0.37"}) {
    const double divisor = attn::Divisor::parse(text).resolve(d.dk);
    for (double x_scale : {0.5, 2.0}) {  // flat and peaked attention
      INFO("divisor " << text << ", input scale " << x_scale);
      const Problem p = problem(d, 11, x_scale);
      REQUIRE(check_all(d, divisor, p) > 1e-3);
    }
  }
}

TEST_CASE("gradients match finite differences with QK-LayerNorm", "[train][gradients]") {
  const auto d = dims(true);
  for (const char* text : {"sqrt", "1"}) {
    INFO("divisor " << text);
    const Problem p = problem(d, 12, 1.0);
    REQUIRE(check_all(d, attn::Divisor::parse(text).resolve(d.dk), p) > 1e-3);
  }
}

// The largest |R / c| of the problem's scores before the cap: how far into
// the tanh's flat tails the check reaches.
double largest_cap_argument(const attn::ModelDims& d, double divisor, const Problem& p, double softcap) {
  attn::AttnModel<double> m(d, divisor, softcap);
  m.params() = p.params;
  mean_loss(m, p);
  double largest = 0;
  for (double r : m.mha().s_raw) largest = std::max(largest, std::fabs(r) / softcap);
  return largest;
}

TEST_CASE("gradients match finite differences with the logit soft-cap", "[train][gradients][softcap]") {
  // Caps from nearly the identity (50: |R/c| < 0.1) to deep in the tails
  // (0.05: tanh within 1e-9 of ±1 for most scores, sech² down to ~1e-30).
  for (bool qk_norm : {false, true}) {
    const auto d = dims(qk_norm);
    for (const char* text : {"sqrt", "1", "2", "dk", "0.37"}) {
      const double divisor = attn::Divisor::parse(text).resolve(d.dk);
      for (double cap : {50.0, 3.0, 0.7, 0.05}) {
        INFO("qk_norm " << qk_norm << ", divisor " << text << ", soft-cap " << cap);
        const Problem p = problem(d, 14, 2.0);
        REQUIRE(check_all(d, divisor, p, cap) > 1e-3);
        if (cap == 0.05) REQUIRE(largest_cap_argument(d, divisor, p, cap) > 20);  // saturated: tanh(20) = 1 - 8e-18
      }
    }
  }
}

TEST_CASE("a soft-cap far above the scores changes the loss and gradients only by c·tanh(s/c) - s",
          "[train][gradients][softcap]") {
  // c = 1e4 with scores of a few units: c·tanh(s/c) = s - s³/(3c²), 1e-8 relative.
  const auto d = dims(false);
  const Problem p = problem(d, 15, 1.0);
  attn::AttnModel<double> plain(d, std::sqrt(5.0)), capped(d, std::sqrt(5.0), 1e4);
  plain.params() = capped.params() = p.params;
  const double l0 = mean_loss(plain, p), l1 = mean_loss(capped, p);
  REQUIRE(l1 == Approx(l0).epsilon(1e-7));
  REQUIRE(l1 != l0);  // the cap did run
  plain.backward();
  capped.backward();
  for (const auto& s : fixtures::groups(plain.layout())) {
    if (s.size == 0) continue;
    const double norm = fixtures::group_norm(plain.grads(), s);
    double err = 0;
    for (std::size_t i = 0; i < s.size; ++i)
      err += std::pow(plain.grads()[s.offset + i] - capped.grads()[s.offset + i], 2);
    // b_K: without a cap its gradient is 0 (softmax ignores a shift q·b_K of a
    // whole row); the cap is not shift-invariant, so it gets ~1e-8.
    REQUIRE(std::sqrt(err) <= 1e-6 * norm + 1e-7);
  }
}

TEST_CASE("every parameter group receives a gradient", "[train][gradients]") {
  const auto d = dims(true);
  const Problem p = problem(d, 13, 1.0);
  attn::AttnModel<double> m(d, std::sqrt(5.0));
  m.params() = p.params;
  mean_loss(m, p);
  m.backward();
  for (const auto& s : fixtures::groups(m.layout())) {
    INFO("group at offset " << s.offset);
    REQUIRE(s.size > 0);
    REQUIRE(fixtures::group_norm(m.grads(), s) > 1e-4);
  }
}

TEST_CASE("the float model (SIMD kernels where built) matches the double gradients",
          "[train][gradients]") {
  for (const auto& [qk_norm, softcap] : {std::pair{false, 0.0}, {true, 0.0}, {false, 1.5}, {true, 0.8}}) {
    const attn::ModelDims d = fixtures::simd_edge_dims(qk_norm);
    attn::Rng rng(21);
    std::vector<double> params = attn::init_params(d, attn::InitKind::Lecun, rng);
    for (double& v : params) v = static_cast<double>(static_cast<float>(v + 0.1 * rng.normal()));
    const std::size_t B = 9;
    std::vector<double> x(B * d.seq * d.d_model);
    for (double& v : x) v = static_cast<double>(static_cast<float>(rng.normal()));
    std::vector<int> t;
    for (std::size_t b = 0; b < B; ++b) t.push_back(static_cast<int>(rng.next_u64() % d.classes));

    attn::AttnModel<double> md(d, std::sqrt(37.0), softcap);
    md.params() = params;
    const double loss_d = md.forward(x.data(), t.data(), B).loss_sum;
    md.backward();
    attn::AttnModel<float> mf(d, std::sqrt(37.0), softcap);
    for (std::size_t i = 0; i < params.size(); ++i) mf.params()[i] = static_cast<float>(params[i]);
    const std::vector<float> xf(x.begin(), x.end());
    const double loss_f = mf.forward(xf.data(), t.data(), B).loss_sum;
    mf.backward();

    INFO("qk_norm " << qk_norm << ", soft-cap " << softcap);
    REQUIRE(loss_f == Approx(loss_d).epsilon(1e-5));
    // Float rounding relative to each group's norm: ~1e-6 expected, 1e-4 allowed.
    for (const auto& s : fixtures::groups(md.layout())) {
      if (s.size == 0) continue;
      const double norm = fixtures::group_norm(md.grads(), s);
      INFO("group at offset " << s.offset << " norm " << norm);
      REQUIRE(fixtures::group_error(mf.grads(), md.grads(), s) <= 1e-4 * norm + 1e-7);
    }
  }
}
