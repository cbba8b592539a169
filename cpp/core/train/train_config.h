// What a training run is: task, layer sizes, scale, optimiser, seed.
// validate() throws ArgumentError naming the first bad field and its range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/divisor.h"
#include "base/size_limits.h"
#include "train/attn_model.h"
#include "train/optimizer.h"
#include "train/tasks.h"

namespace attn {

InitKind parse_init(std::string_view text);  // "xavier", "lecun", "normal" or "t5"
const char* init_name(InitKind k);

// d_v when it is not given: d_model / heads (at least 1), the Transformer's
// split of the model's width among its heads.
constexpr std::size_t default_dv(std::size_t d_model, std::size_t heads) {
  return heads > 0 && d_model / heads > 0 ? d_model / heads : 1;
}

struct TrainConfig {
  TaskKind task = TaskKind::Recall;
  std::size_t dk = 256;     // query/key width of a head
  std::size_t heads = 2;
  // d_model is decoupled from heads·d_k: a small input width projected up to
  // heads·d_k keeps a step cheap (K and V cost B·T·D·H·(dk+dv)), while
  // q·k still sums d_k products of unit-variance entries (with Lecun init).
  std::size_t d_model = 64;
  std::size_t dv = default_dv(d_model, heads);  // value width of a head
  Divisor divisor = Divisor::sqrt_dk();
  bool qk_norm = false;     // QK-LayerNorm before the dot product (then divided by `divisor`)
  // Soft-capping (Gemma 2): the scores, after the divisor, go through
  // softcap·tanh(s / softcap) before the softmax. 0: no cap.
  double softcap = 0;
  // QK-clip (qk_clip.h): after each optimiser step, a head whose largest
  // |q̂·k̂/divisor| on the next step's batch passes qk_clip has its query and
  // keys scaled back so that it is qk_clip, before that step's forward is
  // (run again and) differentiated. 0: off.
  double qk_clip = 0;
  OptimizerKind optimizer = OptimizerKind::Adam;
  double lr = 8e-3;         // reference_lr(Adam, 256, 64): see below
  InitKind init = InitKind::Lecun;
  std::size_t batch = 64;
  std::uint64_t seed = 0;
  std::size_t log_every = 10;  // a metrics row at step 1 and every log_every steps
};

namespace train_limits {
inline constexpr std::size_t kMaxDk = 1024;
inline constexpr std::size_t kMaxHeads = 16;
inline constexpr std::size_t kMaxDModel = 1024;
inline constexpr std::size_t kMaxBatch = 1024;
inline constexpr std::size_t kMaxWidth = 4096;           // heads·dk, heads·dv
inline constexpr std::size_t kMaxActivations = 1u << 22; // batch·T·heads·dk floats (16 MB)
inline constexpr std::size_t kMaxParams = 1u << 22;
inline constexpr double kMaxLr = 10.0;
// A soft-cap c (and QK-clip's τ) is 0 (off) or in base's [kMinCap, kMaxCap]
// (size_limits.h), the range the saturation session checks too.
using limits::kMaxCap;
using limits::kMinCap;
inline constexpr std::size_t kMaxLogEvery = 1'000'000;
inline constexpr std::size_t kMaxSteps = 1'000'000;  // a run's steps (the CLI's --steps)
inline constexpr std::size_t kMaxStepsPerCall = 1'000'000;
inline constexpr std::size_t kMaxEvalSamples = 1'000'000;
// Work, in multiply-adds (run_work below), bounded before it starts: a run
// (the CLI's train, sample-qk --source lab) or one Trainer::step call at most
// 2^38 (2119 steps of the default configuration, about 12 s natively); a
// sweep's whole grid at most 2^42 (its default grid of 30 runs is 3.7e12) and
// at most 4096 runs.
inline constexpr std::uint64_t kMaxTrainWork = std::uint64_t{1} << 38;
// evaluate(): the lab's 4096 held-out sequences at the largest configuration
// are 5.8e11, so one call may do 2^40.
inline constexpr std::uint64_t kMaxEvalWork = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kMaxSweepWork = std::uint64_t{1} << 42;
inline constexpr std::size_t kMaxSweepRuns = 4096;
inline constexpr std::uint64_t kMaxSeed = limits::kMaxSeed;  // exact in a JS number
}  // namespace train_limits

void validate(const TrainConfig& c);

// The options of a training run, one table: each one's name on the command
// line (--dmodel) and in the lab module's configure() options object (dModel),
// its type, default and range. The defaults are TrainConfig's own (above) and
// the ranges train_limits', read here, not copied; steps and eval are a run's,
// not TrainConfig's (js is ""), and their defaults are written here alone.
// The CLI's parser and help (cpp/cli) and the lab module (configure() and
// trainOptionTable(), cpp/wasm/train_bindings.cpp) read this table, and the
// site reads the module's copy (web/src/wasm/core-facts.js, written at build
// time by web/scripts/core-facts.mjs).
struct TrainOption {
  const char* cli;       // without "--"
  const char* js;        // configure()'s field, or "" (steps, eval)
  const char* type;      // "integer", "number", "choice" or "divisor"
  double def = 0;        // integer and number: the default (softcap, qk-clip: 0, off)
  std::string def_text;  // choice and divisor: the default; else ""
  // integer: [lo, hi]; lr: (lo, hi]; softcap, qk-clip: 0 (off) or [lo, hi];
  // divisor: the range of its number (besides sqrt, dk and qknorm)
  double lo = 0, hi = 0;
  std::string choices = {};  // choice: "adam, sgd"
  bool optional = false;     // configure() takes it absent (softcap, qkClip: 0, off)
};
const std::vector<TrainOption>& train_options();
// The option named `cli` ("dmodel"); std::logic_error when there is none (a typo in our code).
const TrainOption& train_option(std::string_view cli);

// Multiply-adds of one sequence's forward pass: the K and V projections of
// every position (T·H·D·(dk+dv), the bulk), q at the query, the scores and
// W·V, the output projection and the read-out. A training step is a batch's
// forward and backward, counted as 3 forward passes, and with QK-clip a 4th:
// the forward again after a clip (counted whether or not it clips).
std::uint64_t forward_work(const TrainConfig& c);
std::uint64_t step_work(const TrainConfig& c);
// `steps` training steps, then `eval` held-out sequences' forward passes.
std::uint64_t run_work(const TrainConfig& c, std::size_t steps, std::size_t eval);

// The learning rate that moves q and k per step as far as the reference runs
// did (lr 1e-3 for Adam, 0.1 for SGD, with d_model = 2·d_k). One step changes
// q_i = Σ_a x_a W_ai by about lr·d_model: Adam moves each of the d_model
// weights by about lr, SGD by lr·x_a·dq_i, summed with Σ x_a² ≈ d_model. So
// with d_model decoupled, lr scales by 2·d_k / d_model to keep that product.
double reference_lr(OptimizerKind optimizer, std::size_t dk, std::size_t d_model);
// The reference runs' rates at d_model = 2·d_k (the CLI's help quotes them).
inline constexpr double kReferenceLrAdam = 1e-3;
inline constexpr double kReferenceLrSgd = 0.1;

// "sqrt", "dk", a number, or "qknorm" (QK-LayerNorm, then √d_k).
void apply_divisor_option(TrainConfig& c, std::string_view text);
std::string divisor_option_label(const TrainConfig& c);

}  // namespace attn
