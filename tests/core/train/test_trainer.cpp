// The Trainer: same seed, same run; the init checkpoint; short learning runs;
// and the accessors a Web Worker reads (rows, maps, q and k).
#include <catch2/catch.hpp>

#include <algorithm>
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
  // Per head: grad_wq_h*, grad_wk_h*, max_logit_h*, entropy_h*, correct_h*, attn_max_h*, frozen_h*, qk_grad_rel_h*.
  REQUIRE(cols.size() == attn::kFixedColumns + 8 * 2);
  REQUIRE(cols[attn::kFixedColumns + 7] == "entropy_h1");
  REQUIRE(cols.back() == "qk_grad_rel_h1");
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

// A diverging run (issue 14, class 5): SGD at a rate inside the documented
// range overflows within a few steps. The step is detected and every metric
// that depends on the broken weights is NaN, never the 0 that std::max and
// `if (a > 0)` used to make of a NaN.
namespace {

attn::TrainConfig diverging(const char* divisor, attn::TaskKind task = attn::TaskKind::Recall) {
  attn::TrainConfig c;  // the issue's: --dk 16 --heads 1 --batch 8 --optimizer sgd --lr 10
  c.task = task;
  c.dk = 16;
  c.heads = 1;
  c.dv = 64;
  c.batch = 8;
  c.optimizer = attn::OptimizerKind::Sgd;
  c.lr = 10;
  c.log_every = 1;
  attn::apply_divisor_option(c, divisor);
  return c;
}

}  // namespace

TEST_CASE("a diverging run: the step is found, and its metrics are NaN, not invented", "[train][trainer][diverged]") {
  for (const char* div : {"sqrt", "1", "qknorm"}) {
    for (auto task : {attn::TaskKind::Recall, attn::TaskKind::Copy}) {
      INFO("divisor " << div << ", task " << attn::task_name(task));
      attn::Trainer t(diverging(div, task));
      t.step(40);
      const std::size_t d = t.diverged_at();
      REQUIRE(d >= 2);
      REQUIRE(d <= 20);
      const std::size_t C = t.columns();
      for (std::size_t i = 0; i < t.row_count(); ++i) {
        const double* r = t.rows().data() + i * C;
        const auto step = static_cast<std::size_t>(r[attn::kColStep]);
        bool finite = true;
        for (std::size_t j = 1; j < C; ++j) finite = finite && std::isfinite(r[j]);
        INFO("step " << step);
        // Every row before the divergence is finite; the divergence step is the first that is not.
        REQUIRE(finite == (step < d));
        // No metric is made up from a broken input: logits that are not all
        // finite give no attention statistics, a loss that is not finite no
        // accuracy. (A step may still measure finite attention after the
        // output layer has overflowed: those numbers are real.)
        if (!std::isfinite(r[attn::kColLogitMaxAbs]))
          for (auto col : {attn::kColAttnEntropy, attn::kColAttnMax, attn::kColAttnCorrect, attn::kColLogitSpread})
            REQUIRE(std::isnan(r[col]));
        if (!std::isfinite(r[attn::kColLoss])) REQUIRE(std::isnan(r[attn::kColAccuracy]));
      }
      // By the last step every weight is NaN, and so is every metric (none reads 0).
      const double* last = t.rows().data() + (t.row_count() - 1) * C;
      for (std::size_t j = 1; j < C; ++j) REQUIRE(std::isnan(last[j]));
      const attn::EvalResult e = t.evaluate(64);
      REQUIRE(std::isnan(e.loss));
      REQUIRE(std::isnan(e.accuracy));
      REQUIRE(std::isnan(e.attn_correct));
      REQUIRE(t.steps_to_90() == 0);
      // More steps do not move the divergence step.
      t.step(5);
      REQUIRE(t.diverged_at() == d);
    }
  }
}

TEST_CASE("a run that trains never reads as diverged", "[train][trainer][diverged]") {
  attn::Trainer sgd(small("sqrt"));
  sgd.step(60);
  REQUIRE(sgd.diverged_at() == 0);
  attn::TrainConfig c = diverging("sqrt");
  c.optimizer = attn::OptimizerKind::Adam;  // Adam's steps are bounded by lr: no overflow here
  attn::Trainer adam(c);
  adam.step(40);
  REQUIRE(adam.diverged_at() == 0);
  c.optimizer = attn::OptimizerKind::Sgd;
  c.lr = 0.05;
  attn::Trainer slow(c);
  slow.step(40);
  REQUIRE(slow.diverged_at() == 0);
  for (double v : slow.rows()) REQUIRE(std::isfinite(v));
}

TEST_CASE("mechanism columns: each head's weight on the answer, largest weight, frozen rows and Q/K gradient, "
          "recomputed from the step's attention weights", "[train][trainer]") {
  // Divisor 1 at d_k 64: one-hot rows from the start, some of them frozen within a few steps.
  for (const char* div : {"sqrt", "1"}) {
    attn::TrainConfig c = small(div);
    c.lr = 3e-2;
    attn::Trainer t(c);
    const auto cols = attn::metric_columns(c.heads);
    auto at = [&](const std::string& name) {
      return t.latest()[static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin())];
    };
    std::vector<double> first(c.heads);
    double frozen_seen = 0;
    for (int step = 1; step <= 30; ++step) {
      t.step(1);
      // The step's forward (before its update): a [batch, heads, seq], the answer's position per sample.
      const auto& a = t.model().mha().a;
      const auto& answer = t.last_batch().answer;
      const std::size_t B = c.batch, H = c.heads, T = a.size() / (B * H);
      for (std::size_t h = 0; h < H; ++h) {
        double correct = 0, top = 0, frozen = 0;
        for (std::size_t b = 0; b < B; ++b) {
          const float* row = a.data() + (b * H + h) * T;
          const std::size_t j = static_cast<std::size_t>(std::max_element(row, row + T) - row);
          double g = 0;
          for (std::size_t i = 0; i < T; ++i)
            if (i != j) g = std::max(g, static_cast<double>(row[i]) * (1.0 - row[i]));
          correct += row[answer[b]];
          top += row[j];
          frozen += g < 0x1p-24 ? 1 : 0;
        }
        const std::string hs = std::to_string(h);
        CAPTURE(div, step, h);
        CHECK(at("correct_h" + hs) == Approx(correct / B).epsilon(1e-12));
        CHECK(at("attn_max_h" + hs) == Approx(top / B).epsilon(1e-12));
        CHECK(at("frozen_h" + hs) == frozen / B);
        frozen_seen += frozen;
        const double qk = std::hypot(at("grad_wq_h" + hs), at("grad_wk_h" + hs));
        if (step == 1) first[h] = qk;
        CHECK(at("qk_grad_rel_h" + hs) == Approx(qk / first[h]).epsilon(1e-12));
      }
    }
    if (std::string(div) == "1") CHECK(frozen_seen > 0);  // the rule met on both sides
  }
}
