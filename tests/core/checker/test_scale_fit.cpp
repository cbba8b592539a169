// The scale fit (checker/scale_fit.h) on q and k from the checker's own
// sampler, with the model's logits or probabilities made here in double from
// their definitions (s = Σ q·k in double, then L = s / c or softmax(L)).
// Bound: c within 1e-5 relative and a residual below 1e-5 (float32 rounding
// of the scores and of the checker's float32 q·k leave about 2e-7).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "base/presets.h"
#include "checker/scale_fit.h"
#include "samples/sample_qk.h"

namespace {

using attn::HeadScaleFit;
using attn::QkTensors;
using attn::ScaleExpectation;
using attn::ScoreKind;
using attn::Scores;

QkTensors sample(std::size_t heads, std::size_t n, std::size_t dk, double q_scale = 1, std::uint64_t seed = 3) {
  attn::SampleQkConfig c;
  c.heads = heads;
  c.n = n;
  c.dk = dk;
  c.seed = seed;
  QkTensors t = attn::sample_qk(c);
  for (float& v : t.q) v = static_cast<float>(v * q_scale);
  return t;
}

// q·k in double, [H, n, n].
std::vector<double> dots(const QkTensors& t) {
  std::vector<double> s(t.heads * t.n_q * t.n_k);
  for (std::size_t h = 0; h < t.heads; ++h)
    for (std::size_t i = 0; i < t.n_q; ++i)
      for (std::size_t j = 0; j < t.n_k; ++j) {
        double d = 0;
        for (std::size_t p = 0; p < t.dk; ++p)
          d += static_cast<double>(t.q[(h * t.n_q + i) * t.dk + p]) * t.k[(h * t.n_k + j) * t.dk + p];
        s[(h * t.n_q + i) * t.n_k + j] = d;
      }
  return s;
}

Scores scores(const QkTensors& t, ScoreKind kind, const std::vector<double>& logits) {
  Scores sc;
  sc.kind = kind;
  sc.t.shape = {t.heads, t.n_q, t.n_k};
  sc.t.data.resize(logits.size());
  if (kind == ScoreKind::Logits) {
    for (std::size_t i = 0; i < logits.size(); ++i) sc.t.data[i] = static_cast<float>(logits[i]);
    return sc;
  }
  for (std::size_t row = 0; row < t.heads * t.n_q; ++row) {
    const double* l = logits.data() + row * t.n_k;
    double mx = -HUGE_VAL, z = 0;
    for (std::size_t j = 0; j < t.n_k; ++j) mx = std::max(mx, l[j]);
    for (std::size_t j = 0; j < t.n_k; ++j) z += std::exp(l[j] - mx);
    for (std::size_t j = 0; j < t.n_k; ++j) sc.t.data[row * t.n_k + j] = static_cast<float>(std::exp(l[j] - mx) / z);
  }
  return sc;
}

std::vector<double> divided(const std::vector<double>& s, double c) {
  std::vector<double> l(s);
  for (double& v : l) v /= c;
  return l;
}

ScaleExpectation sqrt_dk() {
  ScaleExpectation e;
  e.label = "sqrt";
  return e;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void require_kind(const QkTensors& t, const Scores& sc, const std::string& kind, const std::string& part) {
  try {
    attn::fit_scale(t, sc, sqrt_dk());
    FAIL("no error, expected " << kind);
  } catch (const attn::ArgumentError& e) {
    CHECK(e.kind() == kind);
    CHECK(has(e.what(), part));
  }
}

}  // namespace

TEST_CASE("scale fit recovers c = 8, 22.6, 1 and 64 from logits and from probabilities", "[scale_fit]") {
  const QkTensors t = sample(8, 32, 64);
  const std::vector<double> s = dots(t);
  struct Case {
    double c;
    const char* verdict;
    const char* words;
  };
  const Case cases[] = {{8, "expected", "divides by 8.0 = √64, as expected"},
                        {std::sqrt(512.0), "width", "divides by 22.6 ≈ √512 = √d_model (8 heads × d_k 64): the head width should be used"},
                        {1, "none", "does not divide"},
                        {64, "dk", "divides by 64 = d_k (μP-style; or √d_k applied twice"}};
  for (const Case& c : cases)
    for (ScoreKind kind : {ScoreKind::Logits, ScoreKind::Probs}) {
      INFO("c = " << c.c << ", " << attn::score_kind_name(kind));
      const auto fits = attn::fit_scale(t, scores(t, kind, divided(s, c.c)), sqrt_dk());
      REQUIRE(fits.size() == 8);
      for (const HeadScaleFit& f : fits) {
        CHECK(f.c == Approx(c.c).epsilon(1e-5));
        CHECK(f.residual < 1e-5);
        CHECK(f.verdict == c.verdict);
        CHECK(has(f.sentence, c.words));
        CHECK(has(f.sentence, "fit residual"));
        CHECK(f.masked == 0);
        CHECK(f.entries == 32 * 32);
      }
    }
}

TEST_CASE("scale fit: one head at c = √512 names the heads it would take, the preset Gemma 2 27B expects 12", "[scale_fit]") {
  {
    const QkTensors t = sample(1, 40, 64);
    const auto f = attn::fit_scale(t, scores(t, ScoreKind::Logits, divided(dots(t), std::sqrt(512.0))), sqrt_dk()).at(0);
    CHECK(f.verdict == "width");
    CHECK(has(f.sentence, "≈ √512 = √d_model if the model has 8 heads of d_k 64: the head width should be used"));
  }
  const attn::Preset& p = attn::find_preset("gemma2-27b");
  ScaleExpectation e;
  e.divisor = p.divisor;
  e.label = "12";
  e.preset = p.name;
  e.preset_label = p.label;
  e.softcap = p.softcap;
  // Large logits (q·k / 12 with standard deviation about 30) under the cap 50·tanh(x / 50).
  const QkTensors t = sample(2, 24, 128, 30);
  const std::vector<double> s = dots(t);
  std::vector<double> capped(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) capped[i] = 50 * std::tanh(s[i] / 12 / 50);
  for (const HeadScaleFit& f : attn::fit_scale(t, scores(t, ScoreKind::Logits, capped), e)) {
    CHECK(f.c == Approx(12).epsilon(1e-4));  // atanh near the cap magnifies float rounding up to 1000 times
    CHECK(f.residual < 1e-3);
    CHECK(f.verdict == "expected");
    CHECK(has(f.sentence, "divides by 12 = √144, as expected for Gemma 2 27B"));
    CHECK(has(f.sentence, "undoing the soft-cap 50"));
  }
  // The same preset, the model dividing by √128 = 11.3 instead: named as √d_k, not as expected.
  e.softcap = 0;
  const QkTensors u = sample(2, 24, 128);
  for (const HeadScaleFit& f : attn::fit_scale(u, scores(u, ScoreKind::Logits, divided(dots(u), std::sqrt(128.0))), e)) {
    CHECK(f.verdict == "sqrt_dk");
    CHECK(has(f.sentence, "= √128 = √d_k, but Gemma 2 27B divides by 12 = √144"));
  }
  for (const HeadScaleFit& f : attn::fit_scale(u, scores(u, ScoreKind::Probs, divided(dots(u), 12)), e)) {
    CHECK(f.c == Approx(12).epsilon(1e-5));
    CHECK(f.verdict == "expected");
  }
}

TEST_CASE("scale fit: a bias or an active soft-cap is not q·k / c, a causal mask is a mask", "[scale_fit]") {
  const QkTensors t = sample(4, 32, 64);
  const std::vector<double> s = dots(t);
  std::vector<double> bias = divided(s, 8), capped(s.size());
  for (std::size_t i = 0; i < bias.size(); ++i) bias[i] += 0.5 * std::sin(static_cast<double>(i));  // a position bias
  for (std::size_t i = 0; i < s.size(); ++i) capped[i] = 50 * std::tanh(s[i] * 6 / 50);  // logits of std ~50
  for (const std::vector<double>* l : {&bias, &capped})
    for (ScoreKind kind : {ScoreKind::Logits, ScoreKind::Probs})
      for (const HeadScaleFit& f : attn::fit_scale(t, scores(t, kind, *l), sqrt_dk())) {
        CHECK(f.verdict == "not_qk");
        CHECK(f.residual > attn::fit_rules::kMaxResidual);
        CHECK(has(f.sentence, "are not q·k / c for any c: a mask, bias or softcap is applied"));
      }
  // Causal: key j > i masked, as −inf, as PyTorch's finfo(float32).min, and as probability 0.
  std::vector<double> causal = divided(s, 8), finfo = causal;
  for (std::size_t row = 0; row < 4 * 32; ++row)
    for (std::size_t j = row % 32 + 1; j < 32; ++j) {
      causal[row * 32 + j] = -HUGE_VAL;
      finfo[row * 32 + j] = -3.4028234663852886e38;
    }
  const std::size_t masked = 32 * 31 / 2;
  for (const std::vector<double>* l : {&causal, &finfo}) {
    for (const HeadScaleFit& f : attn::fit_scale(t, scores(t, ScoreKind::Logits, *l), sqrt_dk())) {
      CHECK(f.verdict == "expected");
      CHECK(f.c == Approx(8).epsilon(1e-5));
      CHECK(f.masked == masked);
      CHECK(f.entries == 32 * 32 - masked);
      CHECK(has(f.sentence, "496 masked entries left out"));
    }
  }
  for (const HeadScaleFit& f : attn::fit_scale(t, scores(t, ScoreKind::Probs, causal), sqrt_dk())) {
    CHECK(f.verdict == "expected");
    CHECK(f.c == Approx(8).epsilon(1e-5));
    CHECK(f.masked == masked + 1);  // row 0 keeps one key: nothing to compare, counted as masked
  }
}

TEST_CASE("scale fit: a scale applied after the softmax shows in the row sums", "[scale_fit]") {
  const QkTensors t = sample(2, 16, 64);
  Scores sc = scores(t, ScoreKind::Probs, dots(t));  // softmax(q·k), then ÷ √d_k
  for (float& v : sc.t.data) v /= 8;
  for (const HeadScaleFit& f : attn::fit_scale(t, sc, sqrt_dk())) {
    CHECK(f.verdict == "after_softmax");
    CHECK(f.after_softmax == Approx(0.125).epsilon(1e-5));
    CHECK(f.c == Approx(1).epsilon(1e-5));
    CHECK(has(f.sentence, "the scale is applied after the softmax: every row sums to 0.125 = 1/8.0"));
    CHECK(has(f.sentence, "before the softmax it does not divide"));
  }
}

TEST_CASE("scale fit refuses bad scores: shape, NaN, inf, negative or unnormalised probabilities", "[scale_fit]") {
  const QkTensors t = sample(2, 8, 16);
  const std::vector<double> s = divided(dots(t), 4);
  Scores good = scores(t, ScoreKind::Probs, s);
  Scores wrong = good;
  wrong.t.shape = {2, 8, 7};
  wrong.t.data.resize(2 * 8 * 7);
  require_kind(t, wrong, "scores_shape", "probs has shape (2, 8, 7), but q and k need (2, 8, 8)");
  Scores flat = good;
  flat.t.shape = {16, 8};
  require_kind(t, flat, "scores_shape", "need (2, 8, 8)");
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    Scores p = good;
    p.t.data[9] = bad;
    require_kind(t, p, "scores_finite", "the value at (0, 1, 1)");
  }
  Scores l = scores(t, ScoreKind::Logits, s);
  l.t.data[3] = NAN;
  require_kind(t, l, "scores_finite", "a logit may be -inf");
  l.t.data[3] = INFINITY;
  require_kind(t, l, "scores_finite", "(0, 0, 3)");
  Scores neg = good;
  neg.t.data[0] = -neg.t.data[0];
  require_kind(t, neg, "probs_negative", "probabilities cannot be negative");
  Scores off = good;
  off.t.data[5] += 0.2f;  // one row sums to 1.2, the others to 1
  require_kind(t, off, "probs_rows", "sums to 1.2");
  Scores near = good;
  near.t.data[5] += 0.005f;  // within the tolerance 0.01: accepted
  CHECK(attn::fit_scale(t, near, sqrt_dk()).at(0).verdict != "");
}
