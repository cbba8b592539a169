#include "train/cross_entropy.h"

#include <cmath>
#include <limits>

#include "kernels/softmax_row.h"

namespace attn {

namespace {
// Float uses the project's own exp, so native and wasm builds agree exactly.
inline float exp_nonpositive(float x) { return exp_f32_nonpositive(x); }
inline double exp_nonpositive(double x) { return std::exp(x); }
}  // namespace

template <typename T>
CrossEntropyResult cross_entropy_forward(const T* z, const int* targets, std::size_t batch,
                                         std::size_t classes, T* p) {
  CrossEntropyResult r;
  for (std::size_t b = 0; b < batch; ++b) {
    const T* zb = z + b * classes;
    T* pb = p + b * classes;
    std::size_t arg = 0;
    for (std::size_t c = 1; c < classes; ++c) arg = zb[c] > zb[arg] ? c : arg;
    // A NaN or +inf logit: no largest logit, no loss (the float exp maps NaN
    // to 0, which would hide it). The row's loss is NaN, and so is the sum.
    bool undefined = false;
    for (std::size_t c = 0; c < classes; ++c) undefined |= !(zb[c] < std::numeric_limits<T>::infinity());
    r.undefined |= undefined;
    const T mx = zb[arg];
    T sum = 0;
    for (std::size_t c = 0; c < classes; ++c) sum += (pb[c] = exp_nonpositive(zb[c] - mx));
    for (std::size_t c = 0; c < classes; ++c) pb[c] /= sum;
    const auto t = static_cast<std::size_t>(targets[b]);
    // −log p_t = log Σ exp(z − max) − (z_t − max): finite even when p_t underflows.
    r.loss_sum += undefined ? std::numeric_limits<double>::quiet_NaN()
                            : std::log(static_cast<double>(sum)) - static_cast<double>(zb[t] - mx);
    r.correct += arg == t;
  }
  return r;
}

template <typename T>
void cross_entropy_backward(const T* p, const int* targets, std::size_t batch, std::size_t classes,
                            T scale, T* dz) {
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t c = 0; c < classes; ++c) dz[b * classes + c] = p[b * classes + c] * scale;
    dz[b * classes + static_cast<std::size_t>(targets[b])] -= scale;
  }
}

template CrossEntropyResult cross_entropy_forward<float>(const float*, const int*, std::size_t,
                                                         std::size_t, float*);
template CrossEntropyResult cross_entropy_forward<double>(const double*, const int*, std::size_t,
                                                          std::size_t, double*);
template void cross_entropy_backward<float>(const float*, const int*, std::size_t, std::size_t,
                                            float, float*);
template void cross_entropy_backward<double>(const double*, const int*, std::size_t, std::size_t,
                                             double, double*);

}  // namespace attn
