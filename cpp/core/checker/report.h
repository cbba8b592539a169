// The initialisation checkpoint, on a user's own q and k: per head, are the
// entries near mean 0 and variance 1 (what dividing by √d_k assumes), how
// spread are the logits q·k / c for the usual divisors c, and how peaked is
// each softmax row? A verdict per head says whether attention will saturate.
//
// Shapes: H = heads, n_q queries and n_k keys per head, d_k their width, S
// sequences; q [H, n_q, d_k], k [H, n_k, d_k] (qk_input.h). Every query row is
// scored against every key row of its head and sequence: n_k/S keys (a full,
// unmasked attention block per sequence; S = 1 for one sequence).
//
// Verdict rules, at the divisor c the model uses (the one given, a preset's,
// the .npz's own "divisor" array, else √d_k), first match wins:
//   frozen     more than half the rows are frozen: every weight but the largest
//              has p(1 − p) below 2⁻²⁴ (the gradient softmax passes back to
//              that score), too small for a float32 step to move; the head can
//              no longer change which key it reads;
//   sharp      otherwise, more than half the rows put more than 0.9 on one key,
//              and the gradient still flows: from a trained model, a head that
//              has chosen its keys; at initialisation, keys chosen by chance
//              that the steps go on sharpening;
//   at_risk    the logits q·k / c have standard deviation above 3, or more than
//              10% of rows put more than 0.99 on one key (saturated rows);
//   too_flat   the logits' spread within a row, std(q·k / c), is below 0.5:
//              attention starts close to uniform (entropy near ln n_k);
//   at_risk    q or k entries have variance outside [0.5, 2];
//   fine       otherwise.
// The reason is one sentence with the numbers that decided it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "base/divisor.h"
#include "checker/qk_input.h"
#include "checker/scale_fit.h"

namespace attn {

namespace check_rules {
inline constexpr double kSaturatedMaxProb = 0.99;  // a row is saturated above this
inline constexpr double kSaturatedShare = 0.5;     // head saturated: share of saturated rows above this
inline constexpr double kRiskShare = 0.1;          // head at risk: share above this
inline constexpr double kRiskLogitStd = 3.0;       // head at risk: std of q·k / c above this
inline constexpr double kEntryVarLow = 0.5;        // head at risk: entry variance outside [low, high]
inline constexpr double kEntryVarHigh = 2.0;
inline constexpr double kFrozenGrad = 0x1p-24;     // a row is frozen when every non-maximal p(1 − p) is below this
inline constexpr double kFrozenShare = 0.5;        // head frozen: share of frozen rows above this
inline constexpr double kSharpMaxProb = 0.9;       // a row is sharp above this
inline constexpr double kSharpShare = 0.5;         // head sharp: share of sharp rows above this
inline constexpr double kFlatRowStd = 0.5;         // head too flat: within-row std of q·k / c below this
}  // namespace check_rules

enum class Verdict { Fine, AtRisk, TooFlat, Sharp, Frozen };
const char* verdict_name(Verdict v);  // "fine", "at_risk", "too_flat", "sharp", "frozen"

struct DivisorCheck {
  std::string label;  // "sqrt", "1", "2", "dk" or the model's number
  double value = 0;   // what q·k is divided by
  double logit_std = 0;                      // std of q·k / value over all pairs
  double entropy_mean = 0, entropy_min = 0;  // of the softmax rows, nats (uniform: ln(n_k/S))
  double max_prob_mean = 0, max_prob_max = 0;
  double saturated_share = 0;  // rows whose largest probability is above kSaturatedMaxProb
  double sharp_share = 0;      // rows whose largest probability is above kSharpMaxProb
  double frozen_share = 0;     // rows whose every non-maximal p(1 − p) is below kFrozenGrad
  double grad_median = 0;      // median over rows of the largest non-maximal p(1 − p)
  double row_logit_std = 0;    // √(mean within-row variance of q·k) / value: the spread softmax sees
};

struct HeadCheck {
  double q_mean = 0, q_var = 0, k_mean = 0, k_var = 0;  // over all entries (population variance)
  double logit_mean = 0, logit_var = 0;  // raw q·k over all n_q·n_k/S scored pairs, before any divisor
  double logit_row_var = 0;              // mean variance within a row (what softmax sees)
  bool has_correlation = false;          // needs n_q == n_k and non-constant q, k
  double correlation = 0;                // Pearson, over entries q[i][c] and k[i][c]
  std::vector<DivisorCheck> divisors;    // √d_k, 1, 2, d_k, then the model's if not among them
  Verdict verdict = Verdict::Fine;
  std::string reason_code;  // "frozen_rows", "sharp_rows", "logit_std", "risk_rows", "flat_logits",
                            // "entry_var_q", "entry_var_k", "ok"
  std::string reason;       // one English sentence
  double suggested_divisor = 0;  // √Var(q·k): brings Var(q·k / c) to 1; 0 if all logits are equal
  std::vector<float> row_entropy, row_max_prob;  // at the model's divisor, one per query row
  std::vector<float> row_grad;  // at the model's divisor: the row's largest non-maximal p(1 − p)
  HeadScaleFit fit;  // when the report has a fit (CheckReport::has_fit)
};

struct CheckReport {
  std::size_t heads = 0, n_q = 0, n_k = 0, dk = 0, sequences = 1;
  TensorFormat format = TensorFormat::Auto;
  std::size_t model_divisor = 0;  // index into each head's divisors
  std::string divisor_source = "default";  // "given", "preset", "file" (the .npz's "divisor") or "default" (√d_k)
  std::vector<HeadCheck> head;
  std::string preset;    // the preset the divisor came from, "" if none
  bool has_fit = false;  // the model's logits or probabilities were given: each head's fit is filled
  ScoreKind fit_kind = ScoreKind::Logits;
  ScaleExpectation expected;
};

// Fits the scale (scale_fit.h) and keeps it in the report, with what it expected.
void add_scale_fit(CheckReport& r, const QkTensors& t, const Scores& scores, const ScaleExpectation& e);

// Throws ArgumentError if the tensors break the limits or q·k overflows float.
CheckReport check_qk(const QkTensors& t, const Divisor& model);

// The report as one JSON object (the CLI prints it, the page parses it).
std::string check_report_json(const CheckReport& r);
// The same text, handed to `write` in pieces (a head at a time), so a caller
// that prints it holds one head's text, not the whole report's.
void write_check_report_json(const CheckReport& r, const std::function<void(const std::string&)>& write);

}  // namespace attn
