#include "train/optimizer.h"

#include <cmath>
#include <string>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "base/flush_subnormals.h"

namespace attn {

OptimizerKind parse_optimizer(std::string_view text) {
  return static_cast<OptimizerKind>(choice_index("optimizer", text, kOptimizerNames));
}

const char* optimizer_name(OptimizerKind k) { return kOptimizerNames[static_cast<std::size_t>(k)].data(); }

Optimizer::Optimizer(OptimizerKind kind, double lr, std::size_t size)
    : kind_(kind), lr_(lr), size_(size), m_(kind == OptimizerKind::Adam ? size : 0),
      v_(kind == OptimizerKind::Adam ? size : 0) {}

void Optimizer::update(float* params, const float* grads) {
  ++t_;
  if (kind_ == OptimizerKind::Sgd) {
    const float lr = static_cast<float>(lr_);
    for (std::size_t i = 0; i < size_; ++i) params[i] -= lr * grads[i];
    return;
  }
  constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  // Bias corrections in double (β2ᵗ is close to 1 for thousands of steps),
  // folded into one step size and one divisor for √v.
  const double t = static_cast<double>(t_);
  const float step = static_cast<float>(lr_ / (1.0 - std::pow(0.9, t)));
  const float vscale = static_cast<float>(1.0 / std::sqrt(1.0 - std::pow(0.999, t)));
  for (std::size_t i = 0; i < size_; ++i) {
    const float g = grads[i];
    // The moments are kept free of subnormals (flush_subnormals.h): once a
    // weight's gradient is ~0, m decays by 0.9 a step and v by 0.999, and
    // would sit below 2^-126 for every step after. g² goes into v only where
    // (1−β2)·g·g is normal (|g| ≥ 2^-55); a smaller g² could not change the
    // update anyway, as √v̂ ≤ 2^-55 is lost beside ε = 1e-8 ≈ 2^-26.6.
    const float g2 = is_below(g, -55) ? 0.0f : (1.0f - b2) * g * g;
    m_[i] = flush_subnormal(b1 * m_[i] + (1.0f - b1) * g);
    v_[i] = flush_subnormal(b2 * v_[i] + g2);
    params[i] -= step * m_[i] / (std::sqrt(v_[i]) * vscale + eps);
  }
}

}  // namespace attn
