// One check as the CLI and check.html run it (checker/check_run.h): a preset
// sets the divisor, the d_k q and k must have and the soft-cap the fit undoes;
// a divisor's text otherwise; the refusals name their argument and kind.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "base/argument_error.h"
#include "checker/check_run.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"
#include "checker/qk_input.h"
#include "samples/sample_qk.h"

namespace {

attn::QkTensors sample(std::size_t dk) {
  attn::SampleQkConfig c;
  c.heads = 2;
  c.n = 12;
  c.dk = dk;
  c.seed = 5;
  return attn::sample_qk(c);
}

// The model's logits q·k / c (in double, then float), soft-capped when cap > 0.
attn::Scores logits(const attn::QkTensors& t, double c, double cap) {
  attn::Scores sc;
  sc.kind = attn::ScoreKind::Logits;
  sc.t.shape = {t.heads, t.n_q, t.n_k};
  for (std::size_t h = 0; h < t.heads; ++h)
    for (std::size_t i = 0; i < t.n_q; ++i)
      for (std::size_t j = 0; j < t.n_k; ++j) {
        double d = 0;
        for (std::size_t p = 0; p < t.dk; ++p)
          d += static_cast<double>(t.q[(h * t.n_q + i) * t.dk + p]) * t.k[(h * t.n_k + j) * t.dk + p];
        const double l = d / c;
        sc.t.data.push_back(static_cast<float>(cap > 0 ? cap * std::tanh(l / cap) : l));
      }
  return sc;
}

void require_error(const std::function<void()>& f, const std::string& argument, const std::string& kind) {
  try {
    f();
    FAIL("expected an ArgumentError");
  } catch (const attn::ArgumentError& e) {
    CHECK(e.argument() == argument);
    CHECK(e.kind() == kind);
  }
}

}  // namespace

TEST_CASE("a preset's divisor is named as the divisor's text would name it", "[check_run]") {
  CHECK(attn::preset_divisor(attn::find_preset("gpt2")).label() == "sqrt");
  CHECK(attn::preset_divisor(attn::find_preset("llama")).label() == "sqrt");
  CHECK(attn::preset_divisor(attn::find_preset("mup")).label() == "dk");
  CHECK(attn::preset_divisor(attn::find_preset("gemma2-27b")).resolve(128) == 12.0);
  CHECK(attn::preset_divisor(attn::find_preset("t5")).resolve(64) == 1.0);
}

TEST_CASE("check_with: a preset's divisor, d_k and soft-cap, or a divisor otherwise", "[check_run]") {
  const attn::QkTensors t = sample(128);
  const attn::Scores capped = logits(t, 12, 50);
  const attn::CheckReport r = attn::check_with(t, {"", "gemma2-27b"}, &capped);
  CHECK(r.preset == "gemma2-27b");
  REQUIRE(r.has_fit);
  CHECK(r.expected.divisor == 12.0);
  CHECK(r.expected.softcap == 50.0);
  CHECK(r.head[0].divisors[r.model_divisor].value == 12.0);
  for (const attn::HeadCheck& h : r.head) {
    CHECK(h.fit.verdict == "expected");
    CHECK(h.fit.c == Approx(12).epsilon(1e-5));
  }
  // The same logits without the preset: √128 expected, the cap not undone.
  const attn::CheckReport plain = attn::check_with(t, {"sqrt", ""}, &capped);
  CHECK(plain.preset.empty());
  CHECK(plain.expected.softcap == 0);
  CHECK(plain.head[0].fit.verdict != "expected");
  CHECK_FALSE(attn::check_with(t, {"sqrt", ""}, nullptr).has_fit);
}

TEST_CASE("check_with and fail_scores_twice refuse with their argument and kind", "[check_run]") {
  const attn::QkTensors t = sample(64);
  require_error([&] { attn::check_with(t, {"", "gemma2-27b"}, nullptr); }, "preset", "preset_dk");
  require_error([&] { attn::check_with(t, {"", "gpt3"}, nullptr); }, "preset", "choice");
  require_error([&] { attn::check_with(t, {"sqrt", "gpt2"}, nullptr); }, "divisor", "preset_divisor");
  require_error([&] { attn::check_with(t, {"0", ""}, nullptr); }, "divisor", "divisor");
  require_error([&] { attn::fail_scores_twice(attn::ScoreKind::Logits, attn::ScoreKind::Probs); }, "probs", "scores_twice");
}

namespace {

// An .npz of q and k with a "divisor" array holding `values` (none when empty).
std::vector<std::uint8_t> npz_with_divisor(const attn::QkTensors& t, const std::vector<float>& values) {
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> members{
      {"q", attn::write_npy(t.q.data(), {t.heads, t.n_q, t.dk})},
      {"k", attn::write_npy(t.k.data(), {t.heads, t.n_k, t.dk})}};
  if (!values.empty()) members.push_back({"divisor", attn::write_npy(values.data(), {1, values.size()})});
  return attn::write_npz(members);
}

attn::QkTensors read(const std::vector<std::uint8_t>& bytes) {
  return attn::load_qk(bytes.data(), bytes.size(), attn::TensorFormat::Npz);
}

}  // namespace

TEST_CASE("check_with: the divisor given, else the file's own, else √d_k, and the report says which", "[check_run]") {
  const attn::QkTensors t = sample(64);
  // No divisor array, none given: √d_k, from the default.
  attn::CheckReport r = attn::check_with(read(npz_with_divisor(t, {})), {"", ""}, nullptr);
  CHECK(r.divisor_source == "default");
  CHECK(r.head[0].divisors[r.model_divisor].label == "sqrt");
  // The file's 1: judged at 1; √64 stored as a float is named sqrt; 64 is dk.
  r = attn::check_with(read(npz_with_divisor(t, {1.0f})), {"", ""}, nullptr);
  CHECK(r.divisor_source == "file");
  CHECK(r.head[0].divisors[r.model_divisor].label == "1");
  CHECK(attn::check_with(read(npz_with_divisor(t, {8.0f})), {"", ""}, nullptr).head[0].divisors[0].label == "sqrt");
  r = attn::check_with(read(npz_with_divisor(t, {8.0f})), {"", ""}, nullptr);
  CHECK(r.model_divisor == 0);
  r = attn::check_with(read(npz_with_divisor(t, {64.0f})), {"", ""}, nullptr);
  CHECK(r.head[0].divisors[r.model_divisor].label == "dk");
  r = attn::check_with(read(npz_with_divisor(t, {2.5f})), {"", ""}, nullptr);
  CHECK(r.head[0].divisors[r.model_divisor].value == 2.5);
  CHECK(r.head[0].divisors.size() == 5);
  // Given beats stored, and a preset beats both.
  r = attn::check_with(read(npz_with_divisor(t, {1.0f})), {"dk", ""}, nullptr);
  CHECK(r.divisor_source == "given");
  CHECK(r.head[0].divisors[r.model_divisor].label == "dk");
  r = attn::check_with(read(npz_with_divisor(t, {1.0f})), {"", "gpt2"}, nullptr);
  CHECK(r.divisor_source == "preset");
  CHECK(r.head[0].divisors[r.model_divisor].label == "sqrt");
  CHECK(attn::named_divisor(std::sqrt(48.0), 48).label() == "sqrt");
  CHECK(attn::named_divisor(static_cast<float>(std::sqrt(48.0)), 48).label() == "sqrt");
  CHECK(attn::named_divisor(7, 48).label() == "7");
}

TEST_CASE("a stored divisor that is not one usable number is refused, naming the array", "[check_run]") {
  const attn::QkTensors t = sample(16);
  for (const std::vector<float>& bad : std::vector<std::vector<float>>{
           {0.0f}, {-4.0f}, {1e13f}, {1.0f, 2.0f}, {std::nanf("")}, {INFINITY}}) {
    const auto bytes = npz_with_divisor(t, bad);
    CAPTURE(bad.size(), bad[0]);
    require_error([&] { read(bytes); }, "divisor", "stored_divisor");
  }
}

// The lab's "export q and k" file, written by the core (samples/sample_qk.h
// snapshot_npz): read back through the checker's own npz reader, every array
// in the checker's layout, element for element against the snapshot.
TEST_CASE("snapshot_npz: the lab's q/k export in the checker's layout", "[samples][npz]") {
  attn::TrainConfig cfg;
  cfg.dk = 8;
  cfg.heads = 2;
  cfg.d_model = 16;
  cfg.dv = 8;
  cfg.batch = 4;
  attn::Trainer trainer(cfg);
  trainer.step(3);
  const attn::QkSnapshot snap = trainer.qk_snapshot(3);
  const std::size_t H = snap.heads, S = snap.samples, T = snap.seq, D = snap.dk;
  const auto bytes = attn::snapshot_npz(snap);
  const attn::Tensor q = attn::npz_array(bytes.data(), bytes.size(), "q", "q");
  const attn::Tensor k = attn::npz_array(bytes.data(), bytes.size(), "k", "k");
  const attn::Tensor logits = attn::npz_array(bytes.data(), bytes.size(), "logits", "logits");
  REQUIRE(q.shape == std::vector<std::size_t>{H, S, D});
  REQUIRE(k.shape == std::vector<std::size_t>{H, S * T, D});
  REQUIRE(logits.shape == std::vector<std::size_t>{H, S, T});
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t s = 0; s < S; ++s) {
      for (std::size_t j = 0; j < D; ++j) REQUIRE(q.data[(h * S + s) * D + j] == snap.q[s * H * D + h * D + j]);
      for (std::size_t p = 0; p < T; ++p) {
        REQUIRE(logits.data[(h * S + s) * T + p] == snap.logits[(s * H + h) * T + p]);
        for (std::size_t j = 0; j < D; ++j)
          REQUIRE(k.data[((h * S + s) * T + p) * D + j] == snap.k[(s * T + p) * H * D + h * D + j]);
      }
    }
  const attn::Tensor seqs = attn::npz_array(bytes.data(), bytes.size(), "sequences", "sequences");
  REQUIRE(seqs.data == std::vector<float>{static_cast<float>(S)});
  const attn::Tensor div = attn::npz_array(bytes.data(), bytes.size(), "divisor", "divisor");
  REQUIRE(div.data == std::vector<float>{static_cast<float>(std::sqrt(8.0))});
  // QK-LayerNorm's q and k are before the norm: no divisor member.
  cfg.qk_norm = true;
  attn::Trainer normed(cfg);
  const auto nb = attn::snapshot_npz(normed.qk_snapshot(2));
  REQUIRE_THROWS(attn::npz_array(nb.data(), nb.size(), "divisor", "divisor"));
}
