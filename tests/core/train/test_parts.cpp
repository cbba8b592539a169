// The training lab's smaller parts: task batches are what tasks.h says,
// the optimisers take the documented steps, and configurations are checked.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "train/cross_entropy.h"
#include "train/optimizer.h"
#include "train/tasks.h"
#include "train/train_config.h"

namespace {

constexpr std::size_t D = 12, T = attn::kTaskSeq, Q = attn::kTaskQueryPos;

const float* row(const attn::TaskBatch& b, std::size_t s, std::size_t pos) {
  return b.x.data() + (s * T + pos) * D;
}

bool same_row(const float* a, const float* b) {
  for (std::size_t i = 0; i < D; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

TEST_CASE("recall batches: distinct keys, the query repeats one, the target is its value",
          "[train][tasks]") {
  attn::Rng er(1), dr(2);
  const attn::Task task(attn::TaskKind::Recall, D, er);
  attn::TaskBatch b;
  task.sample(dr, 200, b);
  REQUIRE(b.x.size() == 200 * T * D);
  std::vector<int> target_counts(attn::kTaskVocab);
  for (std::size_t s = 0; s < 200; ++s) {
    const int* a = b.tok_a.data() + s * T;
    const int* v = b.tok_b.data() + s * T;
    std::set<int> keys(a, a + attn::kTaskContext);
    REQUIRE(keys.size() == attn::kTaskContext);
    for (std::size_t i = 0; i < attn::kTaskContext; ++i) {
      REQUIRE(a[i] >= 0);
      REQUIRE(a[i] < 32);
      REQUIRE(v[i] >= 0);
      REQUIRE(v[i] < 32);
    }
    const int ans = b.answer[s];
    REQUIRE(a[Q] == a[ans]);
    REQUIRE(v[Q] == -1);
    REQUIRE(b.target[s] == v[ans]);
    ++target_counts[static_cast<std::size_t>(b.target[s])];
    // Equal (key, value) pairs give equal inputs; the query differs from the
    // context position with its key (the flag replaces the value).
    REQUIRE_FALSE(same_row(row(b, s, Q), row(b, s, static_cast<std::size_t>(ans))));
  }
  // Unit variance per entry on average: (e1 + e2)/√2 of N(0, 1) entries.
  double sum2 = 0;
  for (float x : b.x) sum2 += static_cast<double>(x) * x;
  REQUIRE(sum2 / static_cast<double>(b.x.size()) == Approx(1.0).margin(0.5));
  // Targets spread over the vocabulary (not stuck on a few tokens).
  std::size_t used = 0;
  for (int c : target_counts) used += c > 0;
  REQUIRE(used > 25);
}

TEST_CASE("copy batches: one marked position, the target is its token", "[train][tasks]") {
  attn::Rng er(3), dr(4);
  const attn::Task task(attn::TaskKind::Copy, D, er);
  attn::TaskBatch b;
  task.sample(dr, 100, b);
  for (std::size_t s = 0; s < 100; ++s) {
    const int* a = b.tok_a.data() + s * T;
    const int* m = b.tok_b.data() + s * T;
    int marked = 0;
    for (std::size_t i = 0; i < attn::kTaskContext; ++i) marked += m[i] == 1;
    REQUIRE(marked == 1);
    REQUIRE(m[b.answer[s]] == 1);
    REQUIRE(b.target[s] == a[b.answer[s]]);
    // Every sample's query input is the same vector: it carries no content.
    REQUIRE(same_row(row(b, s, Q), row(b, 0, Q)));
  }
}

TEST_CASE("task batches are a function of the seeds", "[train][tasks]") {
  attn::Rng e1(5), e2(5), d1(6), d2(6);
  const attn::Task t1(attn::TaskKind::Recall, D, e1), t2(attn::TaskKind::Recall, D, e2);
  attn::TaskBatch a, b;
  t1.sample(d1, 10, a);
  t2.sample(d2, 10, b);
  REQUIRE(a.x == b.x);
  REQUIRE(a.target == b.target);
  t1.sample(d1, 10, a);
  REQUIRE(a.x != b.x);
}

TEST_CASE("SGD steps by lr times the gradient", "[train][optimizer]") {
  attn::Optimizer opt(attn::OptimizerKind::Sgd, 0.5, 3);
  std::vector<float> p{1, 2, 3}, g{0.5f, -1, 0};
  opt.update(p.data(), g.data());
  REQUIRE(p == std::vector<float>{0.75f, 2.5f, 3});
}

TEST_CASE("Adam's first step is lr against the gradient's sign, whatever its size",
          "[train][optimizer]") {
  attn::Optimizer opt(attn::OptimizerKind::Adam, 1e-3, 3);
  std::vector<float> p{0, 0, 0}, g{1e-4f, -50, 3};
  opt.update(p.data(), g.data());
  REQUIRE(p[0] == Approx(-1e-3).epsilon(1e-3));
  REQUIRE(p[1] == Approx(1e-3).epsilon(1e-3));
  REQUIRE(p[2] == Approx(-1e-3).epsilon(1e-3));
  // A second step with the same gradient moves by lr again (m̂ = g, v̂ = g²).
  opt.update(p.data(), g.data());
  REQUIRE(p[1] == Approx(2e-3).epsilon(1e-3));
  REQUIRE(opt.steps() == 2);
}

TEST_CASE("cross-entropy: a NaN or +inf logit makes the accuracy undefined, a -inf one does not",
          "[train][cross_entropy][diverged]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const int targets[2] = {0, 2};
  std::vector<float> p(6);
  auto run = [&](std::vector<float> z) { return attn::cross_entropy_forward(z.data(), targets, 2, 3, p.data()); };
  const auto ok = run({3, 1, 2, 0, 1, 5});
  REQUIRE_FALSE(ok.undefined);
  REQUIRE(ok.correct == 2);
  REQUIRE(std::isfinite(ok.loss_sum));
  // NaN anywhere (even in a row whose arg max would be the NaN-free target) and +inf: undefined.
  for (const auto& z : {std::vector<float>{3, nan, 2, 0, 1, 5}, std::vector<float>{nan, nan, nan, nan, nan, nan},
                        std::vector<float>{3, 1, 2, 0, 1, inf}, std::vector<float>{inf, inf, 2, 0, 1, 5}}) {
    const auto r = run(z);
    REQUIRE(r.undefined);
    REQUIRE_FALSE(std::isfinite(r.loss_sum));
  }
  // -inf is a logit softmax gives 0: the largest logit is still well defined.
  const auto low = run({3, -inf, 2, -inf, 1, 5});
  REQUIRE_FALSE(low.undefined);
  REQUIRE(low.correct == 2);
  REQUIRE(std::isfinite(low.loss_sum));
}

TEST_CASE("names parse, and anything else is an ArgumentError naming the field",
          "[train][config]") {
  REQUIRE(attn::parse_task("copy") == attn::TaskKind::Copy);
  REQUIRE(attn::parse_optimizer("sgd") == attn::OptimizerKind::Sgd);
  REQUIRE(attn::parse_init("xavier") == attn::InitKind::Xavier);
  auto field = [](auto f) {
    try {
      f();
    } catch (const attn::ArgumentError& e) {
      return e.argument();
    }
    return std::string("no error");
  };
  REQUIRE(field([] { attn::parse_task("nope"); }) == "task");
  REQUIRE(field([] { attn::parse_optimizer("rmsprop"); }) == "optimizer");
  REQUIRE(field([] { attn::parse_init("he"); }) == "init");
  // A value with a newline or a terminal escape is echoed on one line.
  auto message = [](auto f) {
    try {
      f();
    } catch (const attn::ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([] { attn::parse_task("recall\ncopy"); }) == "task must be 'recall' or 'copy', got 'recall\\ncopy'");
  CHECK(message([] { attn::parse_optimizer("adam\x1b[2J"); }) ==
        "optimizer must be 'adam' or 'sgd', got 'adam\\x1b[2J'");
  CHECK(message([] { attn::parse_init("he\r"); }) == "init must be 'lecun', 'xavier', 'normal' or 't5', got 'he\\r'");
  CHECK(message([] {
          attn::TrainConfig t;
          attn::apply_divisor_option(t, "qk\u2028norm");
        }) == "divisor must be 'sqrt', 'dk', 'qknorm' or a number in [1e-30, 1e+12], got 'qk\\u2028norm'");
  attn::TrainConfig c;
  REQUIRE(field([&] { attn::apply_divisor_option(c, "qk"); }) == "divisor");
  REQUIRE(field([&] { attn::apply_divisor_option(c, "0"); }) == "divisor");
  REQUIRE(field([&] { attn::apply_divisor_option(c, "-2"); }) == "divisor");
  attn::apply_divisor_option(c, "qknorm");
  REQUIRE(c.qk_norm);
  REQUIRE(attn::divisor_option_label(c) == "qknorm");
  attn::apply_divisor_option(c, "2");
  REQUIRE_FALSE(c.qk_norm);
  REQUIRE(c.divisor.resolve(256) == 2.0);
}

TEST_CASE("configurations out of range are rejected field by field", "[train][config]") {
  auto field = [](attn::TrainConfig c) {
    try {
      attn::validate(c);
    } catch (const attn::ArgumentError& e) {
      return e.argument();
    }
    return std::string("valid");
  };
  const attn::TrainConfig ok;
  REQUIRE(field(ok) == "valid");
  auto with = [&](auto change) {
    attn::TrainConfig c = ok;
    change(c);
    return field(c);
  };
  REQUIRE(with([](auto& c) { c.dk = 0; }) == "dk");
  REQUIRE(with([](auto& c) { c.dk = 5000; }) == "dk");
  REQUIRE(with([](auto& c) { c.heads = 0; }) == "heads");
  REQUIRE(with([](auto& c) { c.d_model = 0; }) == "d_model");
  REQUIRE(with([](auto& c) { c.dv = 0; }) == "dv");
  REQUIRE(with([](auto& c) { c.batch = 0; }) == "batch");
  REQUIRE(with([](auto& c) { c.lr = 0; }) == "lr");
  REQUIRE(with([](auto& c) { c.lr = -1; }) == "lr");
  REQUIRE(with([](auto& c) { c.lr = NAN; }) == "lr");
  REQUIRE(with([](auto& c) { c.log_every = 0; }) == "log_every");
  REQUIRE(with([](auto& c) { c.seed = attn::train_limits::kMaxSeed + 1; }) == "seed");
  REQUIRE(with([](auto& c) { c.heads = 16, c.dk = 1024; }) == "heads*dk");
  REQUIRE(with([](auto& c) { c.batch = 1024, c.heads = 4, c.dk = 1024; }) ==
          "batch*positions*heads*dk");
}

TEST_CASE("the reference learning rate keeps lr times d_model at the reference's",
          "[train][config]") {
  REQUIRE(attn::reference_lr(attn::OptimizerKind::Adam, 256, 512) == Approx(1e-3));
  REQUIRE(attn::reference_lr(attn::OptimizerKind::Adam, 256, 64) == Approx(8e-3));
  REQUIRE(attn::reference_lr(attn::OptimizerKind::Sgd, 64, 128) == Approx(0.1));
  REQUIRE(attn::TrainConfig{}.lr == attn::reference_lr(attn::OptimizerKind::Adam, 256, 64));
}
