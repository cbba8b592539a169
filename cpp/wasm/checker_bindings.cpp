// The checker's module (check.html): the bytes of one file (q and k together)
// or of two (q, then k), and optionally of the model's logits or probs,
// already copied into wasm memory by the worker; one call parses, checks and
// returns the report as the JSON the CLI prints, through the CLI's own path
// (checker/check_run.h: the divisor or a preset, the scale fit).
#include <cmath>

#include "base/presets.h"
#include "base/size_limits.h"
#include "checker/check_run.h"
#include "checker/io/json_writer.h"
#include "checker/qk_input.h"
#include "checker/report.h"
#include "glue.h"
#include "presets_js.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

struct CheckOptions {
  std::string fileName, fileName2, fileName3;  // their extensions pick the format unless `format` does
  std::string format, divisor, preset, q, k;   // with a preset, divisor ""
  std::string scores;    // the third file's kind: "logits" or "probs" ("" without one)
  double sequences = 0;  // 0: an .npz's "sequences" array, else 1
};

struct CheckResult {
  std::string error, argument, kind, params, json;
};

// data3/size3: the model's logits or probs (o.scores says which), as the
// CLI's --logits/--probs FILE; 0 without.
CheckResult check_tensors(std::uintptr_t data, double size, std::uintptr_t data2, double size2, std::uintptr_t data3,
                          double size3, const CheckOptions& o) {
  return result<CheckResult>([&](CheckResult& r) {
    const CheckSettings settings{o.divisor, o.preset};
    if (!settings.preset.empty()) find_preset(settings.preset);  // before any file is read, as the CLI
    else if (!settings.divisor.empty()) Divisor::parse(settings.divisor);  // "": the file's own, else √d_k
    const auto forced = parse_format(o.format);
    auto format_of = [&](const std::string& name) {
      return forced != TensorFormat::Auto ? forced : format_from_name(name);
    };
    // The core refuses files above kMaxCheckFileBytes with its own message.
    const std::size_t n = size_arg("size", size, 0, 0xFFFFFFFFu);
    const std::size_t n2 = size_arg("size2", size2, 0, 0xFFFFFFFFu);
    const std::size_t n3 = size_arg("size3", size3, 0, 0xFFFFFFFFu);
    const std::size_t seqs = size_arg("sequences", o.sequences, 0, limits::kMaxSeqLen);
    if (data3 != 0 && o.scores != "logits" && o.scores != "probs")
      fail_kind("scores", "choice", "{\"value\":" + jstr(o.scores, 64) + ",\"choices\":\"logits, probs\"}",
                "scores must be 'logits' or 'probs', got '%s'", escaped(o.scores, 64).c_str());
    QkTensors t;
    Scores scores;
    bool has_scores = false;
    if (data2 == 0) {
      t = load_qk(ptr<const std::uint8_t>(data), n, format_of(o.fileName), {o.q, o.k, seqs});
      // An .npz's own logits or probs array: the divisor the model used is fitted too.
      if (t.format == TensorFormat::Npz) has_scores = load_npz_scores(ptr<const std::uint8_t>(data), n, scores);
    } else {
      t = load_qk_pair(ptr<const std::uint8_t>(data), n, format_of(o.fileName),
                       ptr<const std::uint8_t>(data2), n2, format_of(o.fileName2), seqs);
    }
    if (data3 != 0) {
      const ScoreKind kind = o.scores == "probs" ? ScoreKind::Probs : ScoreKind::Logits;
      if (has_scores) fail_scores_twice(scores.kind, kind);
      scores = load_scores(ptr<const std::uint8_t>(data3), n3, format_of(o.fileName3), kind, &t);
      has_scores = true;
    }
    r.json = check_report_json(check_with(t, settings, has_scores ? &scores : nullptr));
  });
}

// Every preset (base/presets.h) as `attnlab presets` prints it: the page's
// preset list and each one's numbers and source come from here.
val check_presets() {
  val r = val::object();
  r.set("presets", presets_val());
  return r;
}

// The limits the page states and checks before it reads a file.
struct CheckLimits {
  double maxFileBytes = static_cast<double>(limits::kMaxCheckFileBytes);
  double maxValues = static_cast<double>(limits::kMaxCheckValues);
  double maxHeads = static_cast<double>(limits::kMaxCheckHeads);
  double maxSeqLen = static_cast<double>(limits::kMaxSeqLen);
  double maxDk = static_cast<double>(limits::kMaxDk);
};
CheckLimits check_limits() { return {}; }

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_checker) {
  using namespace attn::wasm;
  value_object<CheckOptions>("CheckOptions")
      .field("fileName", &CheckOptions::fileName)
      .field("fileName2", &CheckOptions::fileName2)
      .field("format", &CheckOptions::format)
      .field("fileName3", &CheckOptions::fileName3)
      .field("divisor", &CheckOptions::divisor)
      .field("preset", &CheckOptions::preset)
      .field("scores", &CheckOptions::scores)
      .field("q", &CheckOptions::q)
      .field("k", &CheckOptions::k)
      .field("sequences", &CheckOptions::sequences);
  value_object<CheckResult> check_result("CheckResult");
  status_fields(check_result);
  check_result.field("json", &CheckResult::json);
  function("checkTensors", &check_tensors);
  value_object<CheckLimits>("CheckLimits")
      .field("maxFileBytes", &CheckLimits::maxFileBytes)
      .field("maxValues", &CheckLimits::maxValues)
      .field("maxHeads", &CheckLimits::maxHeads)
      .field("maxSeqLen", &CheckLimits::maxSeqLen)
      .field("maxDk", &CheckLimits::maxDk);
  function("checkLimits", &check_limits);
  function("checkPresets", &check_presets);
}
