// The whole trainable model of the training lab: one multi-head attention
// layer read at the query position (mha_layer.h), a linear read-out to C
// classes and a softmax cross-entropy loss. No residual, no LayerNorm besides
// the optional QK-LayerNorm. Parameters and gradients live in one flat buffer
// each (layout below), so the optimiser is one loop.
//
// Shapes: B = batch, T = positions, D = d_model, H = heads, C = classes.
//   X [B, T, D] inputs, targets [B]; Y [B, D] the layer's output;
//   Z, P [B, C] read-out logits and their softmax.  W_R [D, C], b_R [C].
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "base/rng.h"
#include "train/cross_entropy.h"
#include "train/mha_layer.h"

namespace attn {

enum class InitKind {
  Lecun,   // uniform with variance 1/fan_in, bound √(3/fan_in): q, k stay at unit variance
  Xavier,  // Glorot uniform, bound √(6/(fan_in + fan_out))
  Normal,  // normal with variance 1/fan_in
  // T5 (mesh-tensorflow): normal, W_Q with variance 1/(d_model·d_k), the rest
  // (W_K, W_V, W_O, the read-out) 1/fan_in, as Normal. With divisor 1 a logit
  // q·k then has variance ≈ 1 at initialisation: the 1/√d_k sits in W_Q.
  T5,
};
// In InitKind's order, the default (lecun) first, as help lists them.
inline constexpr std::array<std::string_view, 4> kInitNames = {"lecun", "xavier", "normal", "t5"};

struct ModelDims {
  std::size_t seq, d_model, heads, dk, dv, classes, qpos;
  bool qk_norm;
};

// Offsets of each parameter group in the flat buffer, and their sizes.
struct ParamLayout {
  struct Slice {
    std::size_t offset, size;
  };
  Slice wq, bq, wk, bk, wv, bv, wo, bo, wr, br, gq, gk;  // gq, gk empty without QK-LayerNorm
  std::size_t total;
  explicit ParamLayout(const ModelDims& d);
};

// Values drawn in double from rng (the same numbers for a float and a double
// model): weights as `kind` says, biases 0, QK-LayerNorm gains 1.
std::vector<double> init_params(const ModelDims& d, InitKind kind, Rng& rng);

template <typename T>
class AttnModel {
 public:
  // Scores divided by `divisor`, then soft-capped at `softcap` (0: no cap).
  AttnModel(const ModelDims& d, double divisor, double softcap = 0);

  const ModelDims& dims() const { return dims_; }
  const ParamLayout& layout() const { return layout_; }
  std::vector<T>& params() { return params_; }
  const std::vector<T>& params() const { return params_; }
  const std::vector<T>& grads() const { return grads_; }

  // Loss summed over the batch, and the count of correct argmax predictions.
  CrossEntropyResult forward(const T* x, const int* targets, std::size_t batch);
  // Zeroes the gradients, then fills them with ∂(mean loss)/∂params for the
  // batch of the last forward().
  void backward();

  // The last forward's activations, for metrics and pictures.
  const MhaBuffers<T>& mha() const { return mha_; }
  const std::vector<T>& probs() const { return p_; }  // [batch, classes]
  std::size_t batch() const { return batch_; }

 private:
  MhaWeights<T> weights() const;
  MhaGrads<T> grad_ptrs();
  MhaDims mha_dims() const;

  ModelDims dims_;
  ParamLayout layout_;
  MhaOptions opts_;
  std::vector<T> params_, grads_;
  MhaBuffers<T> mha_;
  std::vector<T> z_, p_, dz_, dy_;
  const T* x_ = nullptr;
  const int* targets_ = nullptr;
  std::size_t batch_ = 0;
};

}  // namespace attn
