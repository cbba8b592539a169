// The explainer's presets table (index.html's "What real models divide by"):
// the core's presets as `attnlab presets` lists them, and for each the numbers
// the table shows, computed as for any other setting: the saturation
// statistics `attnlab saturation --preset NAME --n N --samples R --seed S`
// prints (saturation_point, soft-cap included), and the q·k Monte Carlo of
// the logits with the preset's divisor (unit q, or q's std at initialisation). A module
// of its own, loaded when the section nears the screen: the explainer's
// module, which an embedded widget's host pays for first, links no soft-cap
// and no preset table.
#include <memory>
#include <vector>

#include "base/presets.h"
#include "base/size_limits.h"
#include "explain/qk_sampler.h"
#include "explain/saturation.h"
#include "glue.h"
#include "presets_js.h"
#include "saturation_js.h"

using namespace emscripten;

namespace attn::wasm {
namespace {


struct PresetSaturation {
  std::string error, argument, kind, params;
  SaturationStats stats;
};

// The preset's d_k, divisor and soft-cap at n keys, over `samples` rows from
// Rng(seed): the CLI's saturation --preset, number for number.
PresetSaturation preset_saturation(const std::string& name, double n, double samples, double seed) {
  return result<PresetSaturation>([&](PresetSaturation& r) {
    const Preset& p = find_preset(name);
    r.stats = saturation_point(p.dk, size_arg("n", n, 1, limits::kMaxSeqLen), size_arg("samples", samples, 1, kMaxSaturationRows),
                               seed_arg(seed), &p.divisor, 1, p.softcap)
                  .at(0);
  });
}

// The same rows drawn in batches, so the page's main thread never runs one long
// task (Gemma 2's 300 rows of 64 × 256 normals: 0.1-0.4 s in one call): the
// core's session gives, for batches adding up to R rows, exactly
// saturation_point's numbers for R.
class PresetSaturationJs {
 public:
  Status configure(const std::string& name, double n, double seed) {
    return guarded([&] {
      session_.reset();  // a failed configure leaves no session behind
      const Preset& p = find_preset(name);
      session_ = std::make_unique<SaturationSession>(p.dk, size_arg("n", n, 1, limits::kMaxSeqLen), seed_arg(seed),
                                                     &p.divisor, 1, p.softcap);
    });
  }
  Status draw(double rows) {
    return guarded([&] { require().draw(size_arg("rows", rows, 1, kMaxSaturationRows)); });
  }
  PresetSaturation stats() {
    return result<PresetSaturation>([&](PresetSaturation& r) { r.stats = require().stats().at(0); });
  }

 private:
  SaturationSession& require() {
    if (!session_) throw ArgumentError("session", "state", "", "configure() must succeed before use");
    return *session_;
  }
  std::unique_ptr<SaturationSession> session_;
};

struct PresetLogits {
  std::string error, argument, kind, params;
  double sigmaQ = 1;  // q's entries' std (1, or preset_query_std at init; k's is 1)
  QkSummary summary;  // of q·k and of q·k / divisor, with the closed forms
};

// The logits q·k / divisor before any cap, for unit-variance k and q (or, with
// at_init, q as the preset's initialisation leaves it: T5's std 1/√d_kv),
// drawn in batches for the same reason as the saturation rows.
class PresetLogitsJs {
 public:
  Status configure(const std::string& name, double seed, bool at_init) {
    return guarded([&] {
      sampler_.reset();  // a failed configure leaves no session behind
      const Preset& p = find_preset(name);
      QkConfig c;
      c.dk = p.dk;
      c.divisor = p.divisor;
      c.sigma_q = sigma_q_ = at_init ? preset_query_std(p) : 1;
      c.seed = seed_arg(seed);
      sampler_ = std::make_unique<QkSampler>(c);
    });
  }
  Status draw(double samples) {
    return guarded([&] { require().draw(size_arg("samples", samples, 1, limits::kMaxSamples)); });
  }
  PresetLogits summary() {
    return result<PresetLogits>([&](PresetLogits& r) {
      r.summary = require().summary();
      r.sigmaQ = sigma_q_;
    });
  }

 private:
  QkSampler& require() {
    if (!sampler_) throw ArgumentError("session", "state", "", "configure() must succeed before use");
    return *sampler_;
  }
  std::unique_ptr<QkSampler> sampler_;
  double sigma_q_ = 1;
};

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_presets) {
  using namespace attn;
  using namespace attn::wasm;

  function("presets", &presets_val);
  // The saturation explorer's distribution view runs its sweep here (saturation_js.h).
  SaturationJs<true>::bind();

  value_object<MeanSe>("MeanSe").field("mean", &MeanSe::mean).field("se", &MeanSe::se);
  value_object<SaturationStats>("SaturationStats")
      .field("divisor", &SaturationStats::divisor)
      .field("maxProb", &SaturationStats::max_prob)
      .field("entropy", &SaturationStats::entropy)
      .field("jacobianNorm", &SaturationStats::jacobian_norm);
  value_object<PresetSaturation> saturation("PresetSaturation");
  status_fields(saturation);
  saturation.field("stats", &PresetSaturation::stats);
  function("presetSaturation", &preset_saturation);
  class_<PresetSaturationJs>("PresetSaturationSession")
      .constructor<>()
      .function("configure", &PresetSaturationJs::configure)
      .function("draw", &PresetSaturationJs::draw)
      .function("stats", &PresetSaturationJs::stats);

  value_object<QkSummary>("QkSummary")
      .field("samples", &QkSummary::samples)
      .field("var", &QkSummary::var)
      .field("scaledVar", &QkSummary::scaled_var)
      .field("varStderr", &QkSummary::var_stderr)
      .field("theoryVar", &QkSummary::theory_var)
      .field("theoryScaledVar", &QkSummary::theory_scaled_var);
  value_object<PresetLogits> logits("PresetLogits");
  status_fields(logits);
  logits.field("sigmaQ", &PresetLogits::sigmaQ).field("summary", &PresetLogits::summary);
  class_<PresetLogitsJs>("PresetLogitsSession")
      .constructor<>()
      .function("configure", &PresetLogitsJs::configure)
      .function("draw", &PresetLogitsJs::draw)
      .function("summary", &PresetLogitsJs::summary);
}
