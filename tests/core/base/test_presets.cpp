// The presets state the divisors their sources give: √d_k where the model
// divides by the head width's root, √query_pre_attn_scalar for Gemma 2,
// nothing for T5, d_k for μP; each name is unique and found again.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>

#include "base/argument_error.h"
#include "base/presets.h"

TEST_CASE("presets: each model's divisor, head width and soft-cap") {
  auto div = [](const char* name) { return attn::find_preset(name).divisor; };
  CHECK(div("gpt2") == 8.0);
  CHECK(div("bert-base") == 8.0);
  CHECK(div("llama") == std::sqrt(128.0));
  CHECK(attn::find_preset("llama").dk == 128);
  CHECK(div("gemma2-2b") == 16.0);
  CHECK(div("gemma2-9b") == 16.0);
  CHECK(div("gemma2-27b") == 12.0);  // not √128 = 11.31: query_pre_attn_scalar 144
  CHECK(attn::find_preset("gemma2-27b").dk == 128);
  CHECK(attn::find_preset("gemma2-27b").softcap == 50.0);
  CHECK(div("t5") == 1.0);
  CHECK(std::string(attn::find_preset("t5").init) == "t5");
  CHECK(div("mup") == static_cast<double>(attn::find_preset("mup").dk));
  CHECK(attn::find_preset("gpt2").softcap == 0.0);
}

TEST_CASE("presets: names are unique, every field is filled, an unknown name is refused") {
  std::set<std::string> names;
  for (const attn::Preset& p : attn::presets()) {
    CHECK(names.insert(p.name).second);
    CHECK(p.dk >= 1);
    CHECK(p.divisor > 0);
    CHECK(std::string(p.source).size() > 20);
    CHECK(&attn::find_preset(p.name) == &p);
  }
  CHECK(names.size() >= 8);
  try {
    attn::find_preset("GPT2");  // names are exact
    FAIL("no error");
  } catch (const attn::ArgumentError& e) {
    CHECK(e.argument() == "preset");
    CHECK(e.kind() == "choice");
    CHECK(std::string(e.what()).find("gemma2-27b") != std::string::npos);
  }
}

TEST_CASE("presets: q's std at initialisation is 1 but for T5, whose W_Q carries the 1/sqrt(d_k)") {
  for (const attn::Preset& p : attn::presets()) {
    const double s = attn::preset_query_std(p);
    if (std::string(p.init) == "t5") {
      // Var(q_i) = d_model · 1/(d_model·d_kv) = 1/d_kv; with divisor 1, Var(q·k) = d_kv · 1/d_kv = 1.
      CHECK(std::abs(s * s * static_cast<double>(p.dk) - 1) < 1e-15);
      CHECK(s == 0.125);  // t5-base: d_kv 64
    } else {
      CHECK(s == 1.0);
    }
  }
}
