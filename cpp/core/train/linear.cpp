#include "train/linear.h"

#include "train/train_ops.h"

namespace attn {

template <typename T>
void linear_forward(const T* x, std::size_t x_stride, LinearDims d, const T* w, const T* b, T* y) {
  // Start every row at the bias, then accumulate X W onto it.
  for (std::size_t r = 0; r < d.rows; ++r)
    for (std::size_t o = 0; o < d.out; ++o) y[r * d.out + o] = b[o];
  ops::matmul(ops::Strided<T>{x, x_stride, 1}, w, d.out, y, d.out, d.rows, d.out, d.in, true);
}

template <typename T>
void linear_backward(const T* x, std::size_t x_stride, LinearDims d, const T* w, const T* dy,
                     T* dw, T* db, T* dx) {
  // Reverse of y = b + x W, with y [rows x out]:
  //   dW += Xᵀ dY: A = Xᵀ [in x rows], so a(i, p) = x[p * x_stride + i].
  ops::matmul(ops::Strided<T>{x, 1, x_stride}, dy, d.out, dw, d.out, d.in, d.out, d.rows, true);
  //   db += Σ_rows dY
  for (std::size_t r = 0; r < d.rows; ++r)
    for (std::size_t o = 0; o < d.out; ++o) db[o] += dy[r * d.out + o];
  //   dX = dY Wᵀ
  if (dx != nullptr) ops::matmul_nt(dy, w, dx, d.rows, d.in, d.out);
}

template void linear_forward<float>(const float*, std::size_t, LinearDims, const float*,
                                    const float*, float*);
template void linear_forward<double>(const double*, std::size_t, LinearDims, const double*,
                                     const double*, double*);
template void linear_backward<float>(const float*, std::size_t, LinearDims, const float*,
                                     const float*, float*, float*, float*);
template void linear_backward<double>(const double*, std::size_t, LinearDims, const double*,
                                      const double*, double*, double*, double*);

}  // namespace attn
