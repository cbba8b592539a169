// Synthetic q and k for the checker's sample files, until the training lab
// exports real ones. Each is one layer's projection of the same inputs:
//   X [n, d_model], entries N(0, 1); per head q = X W_Q, k = X W_K, [n, d_k].
//   init       W_Q, W_K with entries N(0, 1/d_model): q and k entries have
//              variance 1, as a fresh layer with LeCun-style init gives.
//   saturated  W_Q with entries N(0, 9/d_model) (q entries of variance 9) and
//              W_K = W_Q + N(0, 1/d_model) noise: large, strongly correlated
//              q and k, so each query's own key dominates its softmax row.
//   learned    W_Q with entries N(0, 1.2/d_model), W_K = 0.6·W_Q + N(0, 0.9/d_model):
//              moderately aligned q and k, peaked attention that has not saturated.
// Output q [heads, n, d_k], k [heads, n, d_k]. Deterministic in the seed (attn::Rng).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/divisor.h"
#include "checker/qk_input.h"
#include "train/trainer.h"

namespace attn {

enum class SampleKind { Init, Saturated, Learned };

SampleKind parse_sample_kind(std::string_view text);  // "init", "saturated" or "learned"
const char* sample_kind_name(SampleKind k);

struct SampleQkConfig {
  SampleKind kind = SampleKind::Init;
  std::size_t heads = 4, n = 64, dk = 64, d_model = 64;
  std::uint64_t seed = 1;
};

// Throws ArgumentError if a size is outside [1, 64] heads, [2, 1024] rows,
// [1, 1024] d_k or d_model, or heads·n·d_k is above limits::kMaxCheckValues
// (2^22, what the checker reads), before allocating anything.
QkTensors sample_qk(const SampleQkConfig& c);

// q and k from real training-lab runs (the lab's default configuration:
// recall, d_k 256, 2 heads), laid out as the lab's "export q and k" writes
// them: q [heads, S, d_k] (each sequence's query), k [heads, S·17, d_k], with
// `sequences` = S so each query meets only its own sequence's keys.
//   init       the freshly initialised layer, before any step
//   saturated  trained `steps` steps with divisor 1 (no scaling)
//   learned    trained `steps` steps with divisor √d_k
struct LabSampleConfig {
  SampleKind kind = SampleKind::Init;
  std::size_t steps = 200;     // training steps for saturated / learned
  std::size_t sequences = 16;  // S
  std::uint64_t seed = 0;
};

inline constexpr std::size_t kMaxLabSampleSteps = 2000;

// Throws ArgumentError for steps outside [1, kMaxLabSampleSteps] or sequences outside [1, 64].
QkTensors lab_sample_qk(const LabSampleConfig& c);

// The divisor a lab sample's run trained with: 1 for saturated, else √d_k.
Divisor lab_sample_divisor(SampleKind kind);

// A trainer's q/k snapshot as the lab's "export q and k" writes it (the .npz
// the checker reads): q [heads, S, d_k], k [heads, S·T, d_k], "sequences" =
// [[S]], the logits [heads, S, T] (the checker's scale fit reads them), and,
// unless it is 0 (QK-LayerNorm: q and k are before the norm), "divisor".
std::vector<std::uint8_t> snapshot_npz(const QkSnapshot& snap);

}  // namespace attn
