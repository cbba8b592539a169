// Softmax cross-entropy over C classes, forward and backward.
// Shapes: B = batch, C = classes; Z, P, dZ [B x C]; targets [B], in [0, C).
#pragma once

#include <cstddef>

namespace attn {

struct CrossEntropyResult {
  double loss_sum = 0;      // Σ_b −log P[b, target_b]; NaN if `undefined`
  std::size_t correct = 0;  // samples whose largest logit is the target (first on ties)
  // A logit was NaN or +inf (a diverged model): no row has a largest logit to
  // trust, so `correct` means nothing and the accuracy is NaN.
  bool undefined = false;
};

// P = softmax(Z) per row.
template <typename T>
CrossEntropyResult cross_entropy_forward(const T* z, const int* targets, std::size_t batch,
                                         std::size_t classes, T* p);

// dZ = (P − onehot(target)) · scale; scale = 1/B for a mean loss.
template <typename T>
void cross_entropy_backward(const T* p, const int* targets, std::size_t batch, std::size_t classes,
                            T scale, T* dz);

}  // namespace attn
