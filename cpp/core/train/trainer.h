// A training run that lives across calls: configure once, then step(count)
// as often as wanted (a Web Worker streams batches of steps), reading the
// metrics rows appended so far. Same seed, same run: every random draw comes
// from attn::Rng streams derived from the seed, one per purpose, so changing
// the divisor or the optimiser changes nothing else (same data, same init).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "train/attn_model.h"
#include "train/optimizer.h"
#include "train/tasks.h"
#include "train/train_config.h"

namespace attn {

// The seed article's "init checkpoint", measured on 256 samples before any
// step: entries of q and k, their per-head dot products q·k (before any
// divisor or QK-LayerNorm) and the logits the softmax sees.
struct InitStats {
  std::size_t samples = 0;
  double var_q = 0, var_k = 0;  // variance over all entries
  double var_qk = 0;            // variance of q_h·k_{j,h} over samples, heads, positions
  double theory_var_qk = 0;     // d_k · var_q · var_k, what independence predicts
  double var_logit = 0;         // variance of the softmax's inputs (after divisor / QK-LayerNorm)
  double attn_entropy = 0;      // mean entropy of the query's attention row (nats; uniform = ln 17)
  double attn_max = 0;          // mean largest attention weight
  double loss = 0, accuracy = 0;
};

// The lab marks each init-checkpoint variance as passing when it lies within
// a factor of 2 of the value unit-variance q and k would give (the checker's
// band for q and k entries, checker/report.h, is the same).
namespace init_checkpoint {
inline constexpr double kBandLow = 0.5;
inline constexpr double kBandHigh = 2.0;
}  // namespace init_checkpoint

struct EvalResult {
  std::size_t samples = 0;
  double loss = 0, accuracy = 0, attn_correct = 0;
};

// Attention of the query row on a few fixed examples (the same ones all run
// long, drawn from the seed), for a heatmap.
struct AttentionMaps {
  std::size_t examples = 0, heads = 0, seq = 0;
  std::vector<float> weights;       // [examples, heads, seq]
  std::vector<int> tok_a, tok_b;    // [examples, seq], as TaskBatch
  std::vector<int> target, answer, predicted;  // [examples]
};

// q and K of a fixed batch, before QK-LayerNorm, and the logits.
struct QkSnapshot {
  std::size_t samples = 0, seq = 0, heads = 0, dk = 0;
  std::vector<float> q;       // [samples, heads·dk]
  std::vector<float> k;       // [samples, seq, heads·dk]
  std::vector<float> logits;  // [samples, heads, seq]
  std::vector<int> answer;    // [samples]
  // What the logits are q·k divided by, for the checker (an .npz's "divisor");
  // 0 with QK-LayerNorm, whose q and k here are before the norm.
  double divisor = 0;
};

// Columns of a metrics row, in this order; then grad_wq_h0 .. grad_wq_h{H-1},
// grad_wk_h0 .. grad_wk_h{H-1}, max_logit_h0 .. max_logit_h{H-1} (the head's
// largest |q̂·k̂/divisor|, before any soft-cap: the logit QK-clip watches),
// entropy_h0 .. entropy_h{H-1} (the head's mean attention entropy, nats), and
// the mechanism of a run that cannot learn, per head: correct_h* (the mean
// weight on the key holding the answer), attn_max_h* (the mean largest
// weight), frozen_h* (the share of rows whose every weight but the largest has
// p(1 − p) below 2⁻²⁴: too small for a float32 step to move, the checker's
// rule) and qk_grad_rel_h* (‖∂loss/∂[W_Q, W_K]‖ of the head's columns over the
// same norm at step 1; NaN if that was 0). All
// are measured on the step's training batch, in its forward and backward
// pass, before its update (after QK-clip, which acts before the forward the
// gradient comes from: qk_clip.h).
enum MetricColumn : std::size_t {
  kColStep,          // 1-based step number
  kColLoss,          // mean cross-entropy (nats; chance = ln 32 = 3.466)
  kColAccuracy,      // fraction of the batch whose largest logit is the target (NaN if a logit is)
  kColAttnEntropy,   // mean entropy of the query's attention row, over samples and heads
  kColAttnMax,       // mean largest attention weight of that row
  kColAttnCorrect,   // mean attention weight on the position holding the answer
  kColLogitMaxAbs,   // largest |logit| (softmax input) anywhere in the batch
  kColLogitSpread,   // mean over rows of the standard deviation of the row's logits
  kColGradWq,        // Frobenius norms of ∂loss/∂W_Q, W_K, W_V, W_O
  kColGradWk,
  kColGradWv,
  kColGradWo,
  kFixedColumns
};

std::vector<std::string> metric_columns(std::size_t heads);

class Trainer {
 public:
  explicit Trainer(const TrainConfig& config);  // validates; throws ArgumentError

  const TrainConfig& config() const { return config_; }
  const InitStats& init_stats() const { return init_; }
  double divisor() const { return divisor_; }  // the number the scores are divided by

  void step(std::size_t count);
  std::size_t steps_done() const { return steps_; }

  std::size_t columns() const { return columns_; }
  // The rows logged and not yet taken: all of them, for the lab's session,
  // which keeps the whole curve; the CLI takes them after each call and
  // prints them, so a run of 10^6 logged steps holds one call's rows at most.
  std::size_t row_count() const { return rows_.size() / columns_; }
  const std::vector<double>& rows() const { return rows_; }     // [row_count, columns]
  std::vector<double> take_rows();                              // rows(), moved out; none are kept
  const std::vector<double>& latest() const { return latest_; }  // the last step's row, logged or not
  // First step whose batch accuracy reached 0.9; 0 if none yet.
  std::size_t steps_to_90() const { return steps_to_90_; }
  // QK-clip: how many times a head has been scaled back, over all steps so far.
  std::size_t qk_clips() const { return qk_clips_; }
  // First step whose metrics row holds a value that is not finite (the loss,
  // a logit or a gradient norm overflowed: the learning rate is too large for
  // this configuration); 0 if the run has not diverged. From that step on the
  // weights are NaN or infinite, and so are the metrics that depend on them:
  // NaN, never a number the run did not give (an undefined accuracy is NaN).
  std::size_t diverged_at() const { return diverged_at_; }

  // The model after the last step, its activations and gradients from that
  // step's forward and backward (before the update), and that step's batch.
  const AttnModel<float>& model() const { return model_; }
  const TaskBatch& last_batch() const { return batch_; }
  const Optimizer& optimizer() const { return opt_; }

  // Loss and accuracy on `samples` held-out sequences: the same ones at every
  // call (a stream of their own), never used for training.
  EvalResult evaluate(std::size_t samples);
  AttentionMaps attention_maps();
  // q and K of `samples` fixed sequences (at most one batch), as trained so far.
  QkSnapshot qk_snapshot(std::size_t samples);

  static constexpr std::size_t kMapExamples = 8;

 private:
  void measure_init();
  void record(std::size_t step, const CrossEntropyResult& r, const TaskBatch& batch);
  CrossEntropyResult clip(const CrossEntropyResult& ce);  // QK-clip; the forward's result after it

  TrainConfig config_;
  double divisor_;
  ModelDims dims_;
  Task task_;
  AttnModel<float> model_;
  Optimizer opt_;
  Rng data_rng_;
  TaskBatch batch_, scratch_;
  InitStats init_;
  std::size_t steps_ = 0, columns_, steps_to_90_ = 0, diverged_at_ = 0, qk_clips_ = 0;
  std::vector<double> rows_, latest_;
  std::vector<double> first_qk_grad_;  // per head, at step 1: qk_grad_rel_h*'s denominator
};

}  // namespace attn
