// The checker's module (check.html): the bytes of one file (q and k together)
// or of two (q, then k), already copied into wasm memory by the worker; one
// call parses, checks and returns the report as the JSON the CLI prints (with
// the scale fit when an .npz holds the model's logits or probs).
#include "base/divisor.h"
#include "base/size_limits.h"
#include "checker/qk_input.h"
#include "checker/report.h"
#include "glue.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

struct CheckOptions {
  std::string fileName, fileName2;  // their extensions pick the format unless `format` does
  std::string format, divisor, q, k;
  double sequences = 0;  // 0: an .npz's "sequences" array, else 1
};

struct CheckResult {
  std::string error, argument, kind, params, json;
};

CheckResult check_tensors(std::uintptr_t data, double size, std::uintptr_t data2, double size2,
                          const CheckOptions& o) {
  return result<CheckResult>([&](CheckResult& r) {
    const auto divisor = Divisor::parse(o.divisor);
    const auto forced = parse_format(o.format);
    auto format_of = [&](const std::string& name) {
      return forced != TensorFormat::Auto ? forced : format_from_name(name);
    };
    // The core refuses files above kMaxCheckFileBytes with its own message.
    const std::size_t n = size_arg("size", size, 0, 0xFFFFFFFFu);
    const std::size_t n2 = size_arg("size2", size2, 0, 0xFFFFFFFFu);
    const std::size_t seqs = size_arg("sequences", o.sequences, 0, limits::kMaxSeqLen);
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
    CheckReport report = check_qk(t, divisor);
    if (has_scores) {
      ScaleExpectation e;
      e.divisor = divisor.resolve(t.dk);
      e.label = divisor.label();
      add_scale_fit(report, t, scores, e);
    }
    r.json = check_report_json(report);
  });
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
      .field("divisor", &CheckOptions::divisor)
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
}
