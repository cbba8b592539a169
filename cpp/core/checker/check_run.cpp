#include "checker/check_run.h"

#include <cmath>

#include "base/format.h"

namespace attn {

Divisor preset_divisor(const Preset& p) {
  const double dk = static_cast<double>(p.dk);
  if (p.divisor == std::sqrt(dk)) return Divisor::sqrt_dk();
  if (p.divisor == dk) return Divisor::dk();
  return Divisor::value(p.divisor);
}

Divisor named_divisor(double value, std::size_t dk) {
  const double s = std::sqrt(static_cast<double>(dk)), d = static_cast<double>(dk);
  if (std::fabs(value - s) <= 1e-6 * s) return Divisor::sqrt_dk();
  if (std::fabs(value - d) <= 1e-6 * d) return Divisor::dk();
  return Divisor::value(value);
}

CheckReport check_with(const QkTensors& t, const CheckSettings& s, const Scores* scores) {
  const Preset* preset = s.preset.empty() ? nullptr : &find_preset(s.preset);
  if (preset && !s.divisor.empty())
    fail_kind("divisor", "preset_divisor", "{\"preset\":" + jstr(s.preset) + "}",
              "a preset sets the divisor: give a preset or a divisor, not both");
  // The model's divisor: a preset's, the one given, the file's own, else √d_k.
  const Divisor divisor = preset                 ? preset_divisor(*preset)
                          : !s.divisor.empty()   ? Divisor::parse(s.divisor)
                          : t.stored_divisor > 0 ? named_divisor(t.stored_divisor, t.dk)
                                                 : Divisor::sqrt_dk();
  if (preset && t.dk != preset->dk)
    fail_kind("preset", "preset_dk",
              strf("{\"dk\":%zu,\"preset_dk\":%zu,\"preset\":", t.dk, preset->dk) + jstr(preset->label) + "}",
              "q and k have d_k = %zu, but preset %s has d_k = %zu", t.dk, preset->name, preset->dk);
  CheckReport report = check_qk(t, divisor);
  report.preset = s.preset;
  report.divisor_source = preset ? "preset" : !s.divisor.empty() ? "given" : t.stored_divisor > 0 ? "file" : "default";
  if (scores) {
    ScaleExpectation e;
    e.divisor = divisor.resolve(t.dk);
    e.label = divisor.label();
    if (preset) {
      e.preset = preset->name;
      e.preset_label = preset->label;
      e.softcap = preset->softcap;
    }
    add_scale_fit(report, t, *scores, e);
  }
  return report;
}

void fail_scores_twice(ScoreKind in_file, ScoreKind given) {
  const char* arg = score_kind_name(given);
  fail_kind(arg, "scores_twice", "{\"in_file\":" + jstr(score_kind_name(in_file)) + "}",
            "the .npz already holds its '%s' array: give the model's logits or probs as a file of their own only "
            "beside files without one",
            score_kind_name(in_file));
}

}  // namespace attn
