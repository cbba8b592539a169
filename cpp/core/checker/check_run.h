// One check as `attnlab check` and check.html run it, so the two share one
// path: q and k judged at the divisor the model uses (a divisor's text, or a
// preset's), and, given the model's logits or probabilities, the divisor it
// actually used fitted against what the preset (d_k, divisor, soft-cap) or
// the divisor expects.
#pragma once

#include <string>

#include "base/divisor.h"
#include "base/presets.h"
#include "checker/report.h"

namespace attn {

struct CheckSettings {
  // Divisor::parse's text; "" for the file's own (QkTensors::stored_divisor),
  // else √d_k. With a preset it must be "".
  std::string divisor;
  std::string preset;  // a name of presets(), "" for none: it sets the divisor
};

// A preset's divisor, named as a divisor's text would name it when it is √d_k
// or d_k (the report's label "sqrt", "dk"), else its number.
Divisor preset_divisor(const Preset& p);
// The same naming for any number at a d_k (a file's stored divisor): within
// 1e-6 relative of √d_k or d_k it is that divisor (a float32 store of √d_k).
Divisor named_divisor(double value, std::size_t dk);

// The report of q and k at the settings, with the scale fit of `scores` when
// it is not null. Throws ArgumentError: "preset" "choice" (an unknown name),
// "divisor" "preset_divisor" (a preset and a divisor), the divisor's errors,
// "preset" "preset_dk" (q and k's d_k is not the preset's), then check_qk's
// and fit_scale's.
CheckReport check_with(const QkTensors& t, const CheckSettings& s, const Scores* scores);

// The model's scores given twice, in the .npz (in_file) and as a file of
// their own (given): refused, naming the separate file (argument "logits" or
// "probs", kind "scores_twice").
[[noreturn]] void fail_scores_twice(ScoreKind in_file, ScoreKind given);

}  // namespace attn
