#include "train/attn_model.h"

#include <algorithm>
#include <cmath>

#include "train/linear.h"

namespace attn {

ParamLayout::ParamLayout(const ModelDims& d) {
  const std::size_t hk = d.heads * d.dk, hv = d.heads * d.dv;
  std::size_t at = 0;
  auto take = [&at](std::size_t n) { Slice s{at, n}; at += n; return s; };
  wq = take(d.d_model * hk);
  bq = take(hk);
  wk = take(d.d_model * hk);
  bk = take(hk);
  wv = take(d.d_model * hv);
  bv = take(hv);
  wo = take(hv * d.d_model);
  bo = take(d.d_model);
  wr = take(d.d_model * d.classes);
  br = take(d.classes);
  gq = take(d.qk_norm ? hk : 0);
  gk = take(d.qk_norm ? hk : 0);
  total = at;
}

std::vector<double> init_params(const ModelDims& d, InitKind kind, Rng& rng) {
  const ParamLayout L(d);
  std::vector<double> p(L.total, 0.0);
  // extra: T5's further factor in W_Q's variance (1/d_k); 1 elsewhere.
  auto fill = [&](ParamLayout::Slice s, std::size_t fan_in, std::size_t fan_out, double extra = 1.0) {
    const double fi = static_cast<double>(fan_in), fo = static_cast<double>(fan_out);
    for (std::size_t i = 0; i < s.size; ++i) {
      double& w = p[s.offset + i];
      switch (kind) {
        case InitKind::Xavier: w = (2.0 * rng.uniform() - 1.0) * std::sqrt(6.0 / (fi + fo)); break;
        case InitKind::Lecun: w = (2.0 * rng.uniform() - 1.0) * std::sqrt(3.0 / fi); break;
        case InitKind::Normal: w = rng.normal() / std::sqrt(fi); break;
        case InitKind::T5: w = rng.normal() * std::sqrt(extra / fi); break;
      }
    }
  };
  const std::size_t hk = d.heads * d.dk, hv = d.heads * d.dv;
  fill(L.wq, d.d_model, hk, 1.0 / static_cast<double>(d.dk));
  fill(L.wk, d.d_model, hk);
  fill(L.wv, d.d_model, hv);
  fill(L.wo, hv, d.d_model);
  fill(L.wr, d.d_model, d.classes);
  std::fill_n(p.begin() + static_cast<std::ptrdiff_t>(L.gq.offset), L.gq.size, 1.0);
  std::fill_n(p.begin() + static_cast<std::ptrdiff_t>(L.gk.offset), L.gk.size, 1.0);
  return p;
}

template <typename T>
AttnModel<T>::AttnModel(const ModelDims& d, double divisor, double softcap)
    : dims_(d), layout_(d), opts_{1.0 / divisor, d.qk_norm, softcap}, params_(layout_.total),
      grads_(layout_.total) {}

template <typename T>
MhaDims AttnModel<T>::mha_dims() const {
  return {batch_, dims_.seq, dims_.d_model, dims_.heads, dims_.dk, dims_.dv, dims_.qpos};
}

template <typename T>
MhaWeights<T> AttnModel<T>::weights() const {
  const T* p = params_.data();
  const auto& L = layout_;
  return {p + L.wq.offset, p + L.bq.offset, p + L.wk.offset, p + L.bk.offset,
          p + L.wv.offset, p + L.bv.offset, p + L.wo.offset, p + L.bo.offset,
          dims_.qk_norm ? p + L.gq.offset : nullptr, dims_.qk_norm ? p + L.gk.offset : nullptr};
}

template <typename T>
MhaGrads<T> AttnModel<T>::grad_ptrs() {
  T* g = grads_.data();
  const auto& L = layout_;
  return {g + L.wq.offset, g + L.bq.offset, g + L.wk.offset, g + L.bk.offset,
          g + L.wv.offset, g + L.bv.offset, g + L.wo.offset, g + L.bo.offset,
          g + L.gq.offset, g + L.gk.offset};
}

template <typename T>
CrossEntropyResult AttnModel<T>::forward(const T* x, const int* targets, std::size_t batch) {
  x_ = x;
  targets_ = targets;
  batch_ = batch;
  const std::size_t D = dims_.d_model, C = dims_.classes;
  mha_.resize(mha_dims(), dims_.qk_norm, opts_.softcap > 0);
  z_.resize(batch * C);
  p_.resize(batch * C);
  // 1. Y = attention(X), read at the query position
  mha_forward(mha_dims(), opts_, weights(), x, mha_);
  // 2. Z = Y W_R + b_R
  const T* p = params_.data();
  linear_forward(mha_.y.data(), D, {batch, D, C}, p + layout_.wr.offset, p + layout_.br.offset,
                 z_.data());
  // 3. loss = Σ_b −log softmax(Z_b)[target_b]
  return cross_entropy_forward(z_.data(), targets, batch, C, p_.data());
}

template <typename T>
void AttnModel<T>::backward() {
  const std::size_t D = dims_.d_model, C = dims_.classes;
  std::fill(grads_.begin(), grads_.end(), T(0));
  dz_.resize(batch_ * C);
  dy_.resize(batch_ * D);
  T* g = grads_.data();
  // 3. dZ = (P − onehot) / B        (the loss is the batch mean)
  cross_entropy_backward(p_.data(), targets_, batch_, C, static_cast<T>(1.0 / batch_), dz_.data());
  // 2. dW_R += Yᵀ dZ, db_R += Σ dZ, dY = dZ W_Rᵀ
  linear_backward(mha_.y.data(), D, {batch_, D, C}, params_.data() + layout_.wr.offset, dz_.data(),
                  g + layout_.wr.offset, g + layout_.br.offset, dy_.data());
  // 1. the attention layer
  mha_backward(mha_dims(), opts_, weights(), x_, dy_.data(), mha_, grad_ptrs());
}

template class AttnModel<float>;
template class AttnModel<double>;

}  // namespace attn
