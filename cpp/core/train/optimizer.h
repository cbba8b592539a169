// The two optimisers the lab compares, over one flat parameter buffer.
//   SGD:  p -= lr · g
//   Adam: m = β1 m + (1−β1) g;  v = β2 v + (1−β2) g²;
//         p -= lr · m̂ / (√v̂ + ε),  m̂ = m/(1−β1ᵗ), v̂ = v/(1−β2ᵗ)
// with PyTorch's defaults β1 = 0.9, β2 = 0.999, ε = 1e-8, no weight decay.
// Adam's step is about lr per weight whatever the gradient's size, so it keeps
// moving when gradients have nearly vanished; SGD's step is lr · g.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace attn {

enum class OptimizerKind { Adam, Sgd };
inline constexpr std::array<std::string_view, 2> kOptimizerNames = {"adam", "sgd"};  // in OptimizerKind's order

OptimizerKind parse_optimizer(std::string_view text);  // "adam" or "sgd"
const char* optimizer_name(OptimizerKind k);

class Optimizer {
 public:
  Optimizer(OptimizerKind kind, double lr, std::size_t size);
  // One update of params [size] from grads [size].
  void update(float* params, const float* grads);
  std::uint64_t steps() const { return t_; }
  // Adam's moments m and v, one per parameter (empty for SGD).
  const std::vector<float>& first_moment() const { return m_; }
  const std::vector<float>& second_moment() const { return v_; }

 private:
  OptimizerKind kind_;
  double lr_;
  std::size_t size_;
  std::vector<float> m_, v_;
  std::uint64_t t_ = 0;
};

}  // namespace attn
