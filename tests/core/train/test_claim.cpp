// The seed article's claim, run for real: at d_k = 256 with Adam, dividing the
// scores by √d_k learns the recall task while dividing by 1 stays near chance.
// The default lab configuration (d_model 64, lr = reference_lr), seed 0.
// Tagged [slow] (about 20 s natively) but not hidden, so ctest runs it.
#include <catch2/catch.hpp>

#include "train/trainer.h"

namespace {

attn::TrainConfig claim_config(const char* divisor) {
  attn::TrainConfig c;  // recall, d_k 256, 2 heads, d_model 64, Adam, batch 64, seed 0
  attn::apply_divisor_option(c, divisor);
  c.log_every = 100;
  return c;
}

}  // namespace

TEST_CASE("d_k = 256, Adam: sqrt(d_k) passes 90% accuracy", "[train][claim][slow]") {
  attn::Trainer t(claim_config("sqrt"));
  t.step(300);
  REQUIRE(t.steps_to_90() > 0);
  REQUIRE(t.evaluate(2048).accuracy > 0.9);
}

TEST_CASE("d_k = 256, Adam: divisor 1 stays below 20% accuracy for 1500 steps",
          "[train][claim][slow]") {
  attn::Trainer t(claim_config("1"));
  // At step 1 the unscaled logits already spread by about √256 = 16 ...
  t.step(1);
  REQUIRE(t.latest()[attn::kColLogitSpread] > 8);
  REQUIRE(t.latest()[attn::kColAttnMax] > 0.8);
  t.step(1499);
  // ... and the run never learns: attention is one-hot on the wrong position.
  REQUIRE(t.steps_to_90() == 0);
  const auto e = t.evaluate(2048);
  REQUIRE(e.accuracy < 0.2);
  REQUIRE(e.attn_correct < 0.2);
  REQUIRE(t.latest()[attn::kColAttnMax] > 0.95);
}
