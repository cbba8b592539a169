// A fully connected layer, forward and backward, over plain buffers.
// Shapes: N = rows, I = inputs, O = outputs; row-major.
//   X [N x I], rows x_stride apart (the attention layer reads only every T-th
//   row for its query); W [I x O]; b [O]; Y, dY [N x O]; dX [N x I].
// Instantiated for float (training, through the SIMD kernels) and double
// (the gradient checks).
#pragma once

#include <cstddef>

namespace attn {

struct LinearDims {
  std::size_t rows, in, out;
};

// Y = X W + b.
template <typename T>
void linear_forward(const T* x, std::size_t x_stride, LinearDims d, const T* w, const T* b, T* y);

// dW += Xᵀ dY, db += Σ_rows dY (llm.c style: gradients accumulate, the caller
// zeroes them once a step); dX = dY Wᵀ, written, skipped when dx is null.
template <typename T>
void linear_backward(const T* x, std::size_t x_stride, LinearDims d, const T* w, const T* dy,
                     T* dw, T* db, T* dx);

}  // namespace attn
