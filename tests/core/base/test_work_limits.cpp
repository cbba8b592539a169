// Work limits (issue 14, class 11): each entry point bounds its work from its
// sizes before any buffer exists, with a kind of its own ("work_limit").
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "base/size_limits.h"
#include "explain/attention.h"
#include "samples/sample_qk.h"
#include "train/train_config.h"
#include "train/trainer.h"

namespace {

std::string kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const attn::ArgumentError& e) {
    return e.argument() + "/" + e.kind();
  }
  return "none";
}

}  // namespace

TEST_CASE("attention: n·m·(dk+dv) at most 2^30, at the limit and one past it", "[limits]") {
  using attn::AttentionShape;
  REQUIRE(kind_of([] { attn::check_attention_shape({1024, 1024, 512, 512}); }) == "none");  // exactly 2^30
  REQUIRE(kind_of([] { attn::check_attention_shape({1024, 1024, 1, 1023}); }) == "none");
  REQUIRE(kind_of([] { attn::check_attention_shape({1024, 1025, 512, 512}); }) == "n*m*(dk+dv)/work_limit");
  REQUIRE(kind_of([] { attn::check_attention_shape({4096, 4096, 32, 33}); }) == "n*m*(dk+dv)/work_limit");
  REQUIRE(kind_of([] { attn::check_attention_shape({2048, 2048, 1024, 1024}); }) == "n*m*(dk+dv)/work_limit");
  // The 34 MB input (within every size limit) is refused before a buffer exists.
  std::vector<float> none;
  REQUIRE(kind_of([&] {
            attn::attention_forward(none.data(), none.data(), none.data(), {2048, 2048, 1024, 1024}, 1.0, none.data(),
                                    none.data());
          }) == "n*m*(dk+dv)/work_limit");
}

TEST_CASE("training work: a step's count matches the model, the defaults fit, a long run does not", "[limits]") {
  namespace L = attn::train_limits;
  attn::TrainConfig c;  // the lab's default: recall, dk 256, 2 heads, d_model 64, dv 32, batch 64
  // T·H·D·(dk+dv) + H·D·dk + H·T·(dk+dv) + H·dv·D + D·C, by hand.
  REQUIRE(attn::forward_work(c) == 17u * 2 * 64 * 288 + 2 * 64 * 256 + 2 * 17 * 288 + 2 * 32 * 64 + 64 * 32);
  REQUIRE(attn::step_work(c) == 3u * 64 * attn::forward_work(c));
  REQUIRE(attn::run_work(c, 1500, 4096) <= L::kMaxTrainWork);  // the CLI's default train
  REQUIRE(attn::run_work(c, attn::kMaxLabSampleSteps, 0) <= L::kMaxTrainWork);
  REQUIRE(attn::run_work(c, 2200, 0) > L::kMaxTrainWork);
  // The default sweep: dks 64, 128, 256 x 5 divisors x 2 optimizers, 1500 steps, eval 4096.
  std::uint64_t sweep = 0;
  for (std::size_t dk : {64, 128, 256}) {
    attn::TrainConfig s = c;
    s.dk = dk;
    sweep += 10 * attn::run_work(s, 1500, 4096);
  }
  REQUIRE(sweep <= L::kMaxSweepWork);
  REQUIRE(3 * sweep > L::kMaxSweepWork);  // three seeds of it are refused
  // The largest configuration: its eval of the lab's 4096 sequences fits one evaluate() call.
  attn::TrainConfig big = c;
  big.heads = 4;
  big.dk = 1024;
  big.dv = 1024;
  big.d_model = 1024;
  big.batch = 60;
  attn::validate(big);
  REQUIRE(attn::run_work(big, 0, 4096) <= L::kMaxEvalWork);
}

TEST_CASE("Trainer::step and evaluate refuse a call past the work limit before any step", "[limits]") {
  attn::TrainConfig c;
  c.dk = 16;
  c.heads = 1;
  c.d_model = 16;
  c.dv = 16;
  c.batch = 1024;
  attn::Trainer t(c);
  const std::uint64_t per = attn::step_work(c);
  const std::size_t over = static_cast<std::size_t>(attn::train_limits::kMaxTrainWork / per + 1);
  REQUIRE(kind_of([&] { t.step(over); }) == "steps/work_limit");
  REQUIRE(t.steps_done() == 0);
  REQUIRE(kind_of([&] { t.step(1); }) == "none");
  attn::TrainConfig wide = c;
  wide.heads = 4;
  wide.dk = 1024;
  wide.dv = 1024;
  wide.d_model = 1024;
  wide.batch = 1;
  attn::Trainer w(wide);
  REQUIRE(kind_of([&] { w.evaluate(attn::train_limits::kMaxEvalSamples); }) == "samples/work_limit");
}

TEST_CASE("sample-qk --source lab: at most 2000 steps", "[limits]") {
  attn::LabSampleConfig c;
  c.kind = attn::SampleKind::Learned;
  c.steps = attn::kMaxLabSampleSteps + 1;
  REQUIRE(kind_of([&] { attn::lab_sample_qk(c); }) == "steps/range");
}
