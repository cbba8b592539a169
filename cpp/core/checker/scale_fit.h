// The divisor a model actually used, fitted per head from its own attention
// logits or probabilities beside its q and k: real code gets the scale wrong
// (left out, d_model's root instead of the head width's, applied twice, after
// the softmax), and the fit says which in one sentence.
//
// Shapes: q [H, n_q, d_k], k [H, n_k, d_k] (qk_input.h), S sequences; the
// scores (logits or probabilities) [H, n_q, n_k/S], or [n_q, n_k/S] for one
// head: row i holds query i against the keys of its own sequence.
//
// What is fitted, per head, in double, over the entries that are not masked,
// with s = q·k (the checker's own float32 q·k) and a = 1/c:
//   logits L:        least squares L ≈ a·s: a = Σ L s / Σ s²; the residual is
//                    √(Σ (L − a s)² / Σ L²).
//   probabilities p: log p_ij = s_ij / c − log Z_i, so within a row
//                    y = log p − mean_row(log p) ≈ a·(s − mean_row(s)): the
//                    same least squares on the row-centred values (the row's
//                    normaliser drops out exactly); residual √(Σ (y − a x)² / Σ y²).
// Masked entries: a logit that is −inf or at most kMaskBelow (PyTorch's
// masked_fill(finfo.min)), a probability that is exactly 0; they are left out
// and counted. A preset with a soft-cap (Gemma 2: 50) has its cap undone on
// logits first, L → cap·atanh(L / cap); entries with |L| above kCapEdge·cap
// (where atanh magnifies float rounding) are left out and counted.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "checker/io/tensor_file.h"

namespace attn {

struct QkTensors;  // qk_input.h, which reads Scores too

namespace fit_rules {
// The fit explains the scores when its residual is at most this: five times
// what q·k from q and k rounded to bfloat16 (2^-8 relative per product) leaves;
// float32 leaves about 1e-7.
inline constexpr double kMaxResidual = 0.02;
// c matches a candidate (√d_k, 1, d_k, ...) within this relative distance
// (c² against a width: twice it). The candidates closest together are
// Gemma 2 27B's 12 and √128 = 11.31, 6% apart; bfloat16 logits move c by about 0.4%.
inline constexpr double kMatch = 0.01;
// A probabilities row sums to 1 within this (bfloat16's rounding of each entry,
// 2^-8 relative, moves a sum by at most 0.4%); all rows summing to one same
// other number r (within this, relative) is a scale 1/r applied after the softmax.
inline constexpr double kRowSum = 0.01;
inline constexpr double kMaskBelow = -1e30;  // a logit at or below this is a mask
// The noise floor (issue 32): scores are float32, so each carries rounding of
// 2^-24 relative (a logit) or, for a probability, 2^-24 absolute in its log.
// Scores whose spread within rows is at most kNoiseFloor times that carry no
// scale: a uniform row, or one that differs only in its last bits, fits any c
// (a fit of such rows gave c = 5.9e33).
inline constexpr double kNoiseFloor = 16;
inline constexpr double kCapEdge = 0.999;    // |L| / cap above this: left out of a soft-capped fit
}  // namespace fit_rules

enum class ScoreKind { Logits, Probs };
const char* score_kind_name(ScoreKind k);  // "logits", "probs"

struct Scores {
  ScoreKind kind = ScoreKind::Logits;
  Tensor t;
};

// What the model is expected to divide by: the checker's --divisor (√d_k
// unless told) or a preset's, and the preset's soft-cap.
struct ScaleExpectation {
  double divisor = 0;       // the number; 0 is √d_k
  std::string label;        // "sqrt", "dk" or the number (Divisor::label())
  std::string preset;       // the preset's name, "" if none
  std::string preset_label; // "Gemma 2 27B"
  double softcap = 0;       // 0: none
};

struct HeadScaleFit {
  std::string verdict;   // see verdict codes in fit_scale
  std::string sentence;  // one English sentence, with the residual
  double c = 0;          // the fitted divisor; NaN when no c > 0 fits
  double residual = 0;   // relative, as above; NaN when nothing could be fitted
  double spread = 0;     // root-mean-square spread of the fitted values within their rows (log p, or the logits)
  std::size_t entries = 0, masked = 0, capped = 0;  // used, left out as a mask, left out near the cap
  double row_sum_min = 0, row_sum_max = 0;  // probabilities' row sums (rows not wholly masked); NaN for logits
  double after_softmax = 0;  // probabilities: rows all sum to this r ≠ 1 (the output was divided by 1/r); NaN otherwise
};

// Checks the scores against q and k (shape [H, n_q, n_k/S] or one head's
// [n_q, n_k/S]; probabilities ≥ 0, each row summing to 1 or all to one same
// number, within kRowSum; no NaN or +inf; −inf only in logits) and fits each head.
// Verdict codes, first match wins: "no_signal" (q·k is 0, or constant within
// every row, over the entries used), "uniform" (the scores' spread within rows
// is at the level of float32 rounding: kNoiseFloor; c and the residual NaN), "not_qk" (no c > 0, or residual above
// kMaxResidual), "after_softmax" (probabilities whose rows all sum to r ≠ 1),
// "expected" (c matches the expected divisor), "none" (c ≈ 1), "sqrt_dk",
// "dk" (μP-style, or √d_k twice), "twice" (the expected divisor squared),
// "width" (c² ≈ r·d_k for a whole r ≥ 2: √d_model if the model has r heads),
// "other".
std::vector<HeadScaleFit> fit_scale(const QkTensors& t, const Scores& scores, const ScaleExpectation& e);

}  // namespace attn
