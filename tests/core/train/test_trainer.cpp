// The Trainer: same seed, same run; the init checkpoint; short learning runs;
// and the accessors a Web Worker reads (rows, maps, q and k).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "train/trainer.h"

namespace {

attn::TrainConfig small(const char* divisor = "sqrt") {
  attn::TrainConfig c;
  c.dk = 64;
  c.d_model = 32;
  c.dv = 16;
  c.batch = 32;
  c.lr = attn::reference_lr(c.optimizer, c.dk, c.d_model);
  c.log_every = 5;
  attn::apply_divisor_option(c, divisor);
  return c;
}

}  // namespace

TEST_CASE("the same seed gives the same run, bit for bit", "[train][trainer]") {
  for (const char* div : {"sqrt", "1", "qknorm"}) {
    attn::Trainer a(small(div)), b(small(div));
    a.step(7);
    b.step(3);
    b.step(4);  // how the steps are batched into calls does not matter
    INFO("divisor " << div);
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.latest() == b.latest());
    REQUIRE(a.evaluate(100).loss == b.evaluate(100).loss);
  }
  attn::TrainConfig c = small();
  c.seed = 1;
  attn::Trainer a(small()), other(c);
  a.step(2);
  other.step(2);
  REQUIRE(a.rows() != other.rows());
}

TEST_CASE("divisors and optimisers share data and initial weights", "[train][trainer]") {
  attn::TrainConfig sgd = small("1");
  sgd.optimizer = attn::OptimizerKind::Sgd;
  attn::Trainer a(small("sqrt")), b(small("1")), c(sgd);
  // q and k do not depend on the divisor: the init statistics of q, k agree.
  REQUIRE(a.init_stats().var_q == b.init_stats().var_q);
  REQUIRE(a.init_stats().var_qk == b.init_stats().var_qk);
  REQUIRE(b.init_stats().var_logit == c.init_stats().var_logit);
  // Logits: divided by √d_k = 8 their variance shrinks 64-fold.
  REQUIRE(a.init_stats().var_logit == Approx(b.init_stats().var_logit / 64).epsilon(1e-4));
}

TEST_CASE("the init checkpoint: q, k entries near unit variance, q·k near d_k", "[train][trainer]") {
  for (std::size_t dk : {16, 64, 256}) {
    attn::TrainConfig c = small();
    c.dk = dk;
    c.d_model = 64;
    const attn::Trainer t(c);
    const auto& s = t.init_stats();
    INFO("dk " << dk);
    REQUIRE(s.samples == 256);
    // Not exactly 1: the inputs are sums of only 32 + 32 fixed embeddings.
    REQUIRE(s.var_q == Approx(1.0).margin(0.4));
    REQUIRE(s.var_k == Approx(1.0).margin(0.4));
    REQUIRE(s.theory_var_qk == Approx(dk * s.var_q * s.var_k));
    REQUIRE(s.var_qk == Approx(static_cast<double>(dk)).epsilon(0.35));
    REQUIRE(s.var_logit == Approx(s.var_qk / static_cast<double>(dk)).epsilon(0.01));
    REQUIRE(s.loss == Approx(std::log(32.0)).margin(0.5));
  }
  // Xavier with d_model < heads·d_k shrinks q and k, by 2·D/(D + H·d_k): why
  // Lecun (variance 1/fan_in) is the default. Both scale the same uniform draws.
  attn::TrainConfig x = small();
  x.init = attn::InitKind::Xavier;
  const attn::Trainer tx(x), tl(small());
  REQUIRE(tx.init_stats().var_q / tl.init_stats().var_q == Approx(2.0 * 32 / (32 + 128)).epsilon(1e-4));
}

TEST_CASE("metrics rows: step 1 and every log_every steps, columns as documented",
          "[train][trainer]") {
  attn::Trainer t(small());
  const auto cols = attn::metric_columns(2);
  REQUIRE(t.columns() == cols.size());
  REQUIRE(cols[attn::kColLogitSpread] == "logit_spread");
  REQUIRE(cols.back() == "grad_wk_h1");
  t.step(12);
  REQUIRE(t.steps_done() == 12);
  REQUIRE(t.row_count() == 3);  // steps 1, 5, 10
  const auto& r = t.rows();
  REQUIRE(r[0] == 1);
  REQUIRE(r[t.columns()] == 5);
  REQUIRE(r[2 * t.columns()] == 10);
  REQUIRE(t.latest()[attn::kColStep] == 12);
  for (std::size_t i = 0; i < t.row_count(); ++i) {
    const double* m = r.data() + i * t.columns();
    REQUIRE(m[attn::kColLoss] > 0);
    REQUIRE(m[attn::kColAccuracy] >= 0);
    REQUIRE(m[attn::kColAccuracy] <= 1);
    REQUIRE(m[attn::kColAttnEntropy] <= std::log(17.0) + 1e-6);
    REQUIRE(m[attn::kColAttnMax] <= 1.0);
    REQUIRE(m[attn::kColAttnMax] >= 1.0 / 17 - 1e-6);
    REQUIRE(m[attn::kColLogitMaxAbs] > 0);
    // Per-head norms add up to the total in squares.
    const double q2 = std::pow(m[attn::kFixedColumns], 2) + std::pow(m[attn::kFixedColumns + 1], 2);
    REQUIRE(std::sqrt(q2) == Approx(m[attn::kColGradWq]).epsilon(1e-9));
  }
  REQUIRE_THROWS_AS(t.step(0), attn::ArgumentError);
}

TEST_CASE("a short run at d_k = 64 learns the recall task with √d_k", "[train][trainer]") {
  attn::TrainConfig c = small();
  c.batch = 64;
  attn::Trainer t(c);
  REQUIRE(t.evaluate(512).accuracy < 0.1);
  t.step(250);
  const auto e = t.evaluate(1024);
  REQUIRE(e.accuracy > 0.9);
  REQUIRE(e.loss < 0.5);
  REQUIRE(e.attn_correct > 0.5);
  REQUIRE(t.steps_to_90() > 0);
  REQUIRE(t.steps_to_90() <= 250);
}

TEST_CASE("the copy task is learned too", "[train][trainer]") {
  attn::TrainConfig c = small();
  c.task = attn::TaskKind::Copy;
  c.batch = 64;
  attn::Trainer t(c);
  t.step(250);
  REQUIRE(t.evaluate(1024).accuracy > 0.9);
}

TEST_CASE("evaluate uses the same held-out samples at every call", "[train][trainer]") {
  attn::Trainer t(small());
  const auto a = t.evaluate(300), b = t.evaluate(300);
  REQUIRE(a.loss == b.loss);
  REQUIRE(a.samples == 300);
  REQUIRE_THROWS_AS(t.evaluate(0), attn::ArgumentError);
}

TEST_CASE("attention maps and q/k snapshots have the documented shapes", "[train][trainer]") {
  attn::Trainer t(small());
  t.step(3);
  const auto m = t.attention_maps();
  REQUIRE(m.examples == attn::Trainer::kMapExamples);
  REQUIRE(m.weights.size() == m.examples * 2 * 17);
  for (std::size_t r = 0; r < m.examples * 2; ++r) {
    double s = 0;
    for (std::size_t j = 0; j < 17; ++j) s += m.weights[r * 17 + j];
    REQUIRE(s == Approx(1.0).epsilon(1e-5));
  }
  REQUIRE(m.tok_a.size() == m.examples * 17);
  REQUIRE(m.predicted.size() == m.examples);
  // Reading them does not disturb training.
  attn::Trainer u(small());
  u.step(3);
  t.step(2);
  u.step(2);
  REQUIRE(t.rows() == u.rows());
  const auto s = t.qk_snapshot(10);
  REQUIRE(s.q.size() == 10 * 2 * 64);
  REQUIRE(s.k.size() == 10 * 17 * 2 * 64);
  REQUIRE(s.logits.size() == 10 * 2 * 17);
  // The logits are q·k / √d_k.
  double qk = 0;
  for (std::size_t i = 0; i < 64; ++i) qk += static_cast<double>(s.q[i]) * s.k[i];
  REQUIRE(s.logits[0] == Approx(qk / 8).margin(1e-4));
  REQUIRE_THROWS_AS(t.qk_snapshot(1000), attn::ArgumentError);
}

TEST_CASE("a bad configuration throws ArgumentError naming the field", "[train][trainer]") {
  attn::TrainConfig c = small();
  c.heads = 0;
  try {
    attn::Trainer t(c);
    FAIL("no error");
  } catch (const attn::ArgumentError& e) {
    REQUIRE(e.argument() == "heads");
    REQUIRE(std::string(e.what()).find("[1, 16]") != std::string::npos);
  }
}
