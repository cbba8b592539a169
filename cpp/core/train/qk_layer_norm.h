// QK-LayerNorm: each head's slice of q (or of a key row) is normalised to
// zero mean and unit variance, then multiplied by a learned gain, before the
// dot product. It caps |q̂·k̂| by the gains, whatever the projections grow to.
// Shapes: R = rows, H = heads, n = d_k; row-major.
//   X, Y, dX, dY [R x H·n]; g, dg [H·n] (one gain vector per head);
//   mean, rstd [R x H] (saved by forward for backward).
#pragma once

#include <cstddef>

namespace attn {

inline constexpr double kQkNormEps = 1e-5;  // as PyTorch's LayerNorm

template <typename T>
void qk_layer_norm_forward(const T* x, std::size_t rows, std::size_t heads, std::size_t n,
                           const T* g, T* y, T* mean, T* rstd);

// dX = written; dg += (gradients accumulate).
template <typename T>
void qk_layer_norm_backward(const T* x, std::size_t rows, std::size_t heads, std::size_t n,
                            const T* g, const T* mean, const T* rstd, const T* dy, T* dx, T* dg);

}  // namespace attn
