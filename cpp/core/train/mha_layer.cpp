#include "train/mha_layer.h"

#include "train/linear.h"
#include "train/qk_layer_norm.h"
#include "train/softcap.h"
#include "train/train_ops.h"

namespace attn {

template <typename T>
void MhaBuffers<T>::resize(const MhaDims& d, bool qk_norm, bool softcap) {
  const std::size_t hk = d.heads * d.dk, hv = d.heads * d.dv, rows = d.batch * d.seq;
  const std::size_t hs = d.batch * d.heads;  // one (sample, head) pair per query row
  q.resize(d.batch * hk);
  k.resize(rows * hk);
  v.resize(rows * hv);
  qn.resize(qk_norm ? d.batch * hk : 0);
  kn.resize(qk_norm ? rows * hk : 0);
  q_mean.resize(qk_norm ? hs : 0);
  q_rstd.resize(qk_norm ? hs : 0);
  k_mean.resize(qk_norm ? rows * d.heads : 0);
  k_rstd.resize(qk_norm ? rows * d.heads : 0);
  s.resize(hs * d.seq);
  s_raw.resize(softcap ? hs * d.seq : 0);
  s_dcap.resize(softcap ? hs * d.seq : 0);
  a.resize(hs * d.seq);
  u.resize(d.batch * hv);
  y.resize(d.batch * d.d_model);
  dq.resize(d.batch * hk);
  dk.resize(rows * hk);
  dv.resize(rows * hv);
  dqn.resize(qk_norm ? d.batch * hk : 0);
  dkn.resize(qk_norm ? rows * hk : 0);
  da.resize(hs * d.seq);
  ds.resize(hs * d.seq);
  du.resize(d.batch * hv);
}

namespace {

// Passes 1, 3, 4, 5 of the forward: q̂, K̂ and the (soft-capped) scores.
template <typename T>
void mha_scores(const MhaDims& d, const MhaOptions& o, const MhaWeights<T>& w, const T* x,
                MhaBuffers<T>& buf) {
  const std::size_t B = d.batch, T_ = d.seq, D = d.d_model, H = d.heads;
  const std::size_t hk = H * d.dk;
  // 1. K = X W_K + b_K                       (all B·T rows)
  linear_forward(x, D, {B * T_, D, hk}, w.wk, w.bk, buf.k.data());
  // 3. q = X[:, qpos] W_Q + b_Q              (one row per sample, T·D apart)
  linear_forward(x + d.qpos * D, T_ * D, {B, D, hk}, w.wq, w.bq, buf.q.data());
  // 4. q̂ = LN_gq(q), K̂ = LN_gk(K) per head  (QK-LayerNorm only)
  if (o.qk_norm) {
    qk_layer_norm_forward(buf.q.data(), B, H, d.dk, w.gq, buf.qn.data(), buf.q_mean.data(),
                          buf.q_rstd.data());
    qk_layer_norm_forward(buf.k.data(), B * T_, H, d.dk, w.gk, buf.kn.data(), buf.k_mean.data(),
                          buf.k_rstd.data());
  }
  const T* qh = buf.q_hat();
  const T* kh = buf.k_hat();
  const T inv = static_cast<T>(o.inv_divisor);
  const bool cap = o.softcap > 0;
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t h = 0; h < H; ++h) {
      const std::size_t row = (b * H + h) * T_;
      T* s = buf.s.data() + row;
      T* r = cap ? buf.s_raw.data() + row : s;
      // 5. R[b,h,j] = q̂[b,h] · k̂[b,j,h] / divisor   (k̂ rows H·dk apart)
      ops::dots(qh + b * hk + h * d.dk, kh + b * T_ * hk + h * d.dk, hk, T_, d.dk, r);
      for (std::size_t j = 0; j < T_; ++j) r[j] *= inv;
      // 5b. S = c·tanh(R / c), C = sech²(R / c)        (soft-cap only; else S = R)
      if (cap) softcap_forward(r, T_, static_cast<T>(o.softcap), s, buf.s_dcap.data() + row);
    }
  }
}

}  // namespace

template <typename T>
void mha_forward(const MhaDims& d, const MhaOptions& o, const MhaWeights<T>& w, const T* x,
                 MhaBuffers<T>& buf) {
  const std::size_t B = d.batch, T_ = d.seq, D = d.d_model, H = d.heads;
  const std::size_t hv = H * d.dv;
  // 1, 3, 4, 5. q̂, K̂ and the scores S (mha_scores)
  mha_scores(d, o, w, x, buf);
  // 2. V = X W_V + b_V
  linear_forward(x, D, {B * T_, D, hv}, w.wv, w.bv, buf.v.data());
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t h = 0; h < H; ++h) {
      const T* s = buf.s.data() + (b * H + h) * T_;
      T* a = buf.a.data() + (b * H + h) * T_;
      // 6. A[b,h,:] = softmax(S[b,h,:])   (in float, never a subnormal weight:
      //    softmax_row.h; keys a trained head ignores get exactly 0)
      for (std::size_t j = 0; j < T_; ++j) a[j] = s[j];
      ops::softmax_row(a, T_);
      // 7. U[b,h] = Σ_j A[b,h,j] V[b,j,h]    ([1 x T] · [T x dv], V's rows H·dv apart)
      ops::matmul(ops::Strided<T>{a, T_, 1}, buf.v.data() + b * T_ * hv + h * d.dv, hv,
                  buf.u.data() + b * hv + h * d.dv, hv, 1, d.dv, T_, false);
    }
  }
  // 8. Y = U W_O + b_O
  linear_forward(buf.u.data(), hv, {B, hv, D}, w.wo, w.bo, buf.y.data());
}

template <typename T>
void mha_backward(const MhaDims& d, const MhaOptions& o, const MhaWeights<T>& w, const T* x,
                  const T* dy, MhaBuffers<T>& buf, const MhaGrads<T>& g) {
  const std::size_t B = d.batch, T_ = d.seq, D = d.d_model, H = d.heads;
  const std::size_t hk = H * d.dk, hv = H * d.dv;
  // 8. Y = U W_O + b_O:  dW_O += Uᵀ dY, db_O += Σ dY, dU = dY W_Oᵀ
  linear_backward(buf.u.data(), hv, {B, hv, D}, w.wo, dy, g.wo, g.bo, buf.du.data());
  T* dqh = o.qk_norm ? buf.dqn.data() : buf.dq.data();
  T* dkh = o.qk_norm ? buf.dkn.data() : buf.dk.data();
  const T* qh = buf.q_hat();
  const T* kh = buf.k_hat();
  const T inv = static_cast<T>(o.inv_divisor);
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t h = 0; h < H; ++h) {
      const T* a = buf.a.data() + (b * H + h) * T_;
      T* da = buf.da.data() + (b * H + h) * T_;
      T* ds = buf.ds.data() + (b * H + h) * T_;
      const T* du = buf.du.data() + b * hv + h * d.dv;
      const T* vb = buf.v.data() + b * T_ * hv + h * d.dv;
      // 7. U[b,h] = Σ_j A[b,h,j] V[b,j,h]:
      //    dA[b,h,j] = dU[b,h] · V[b,j,h];  dV[b,:,h] = A[b,h,:]ᵀ dU[b,h]  ([T x 1] · [1 x dv])
      ops::dots(du, vb, hv, T_, d.dv, da);
      T* dvb = buf.dv.data() + b * T_ * hv + h * d.dv;
      ops::matmul(ops::Strided<T>{a, 1, 1}, du, d.dv, dvb, hv, T_, d.dv, 1, false);
      // 6. A = softmax(S):  dS = A ⊙ (dA − Σ_j A dA); the 1/divisor of pass 5 folded in
      T dot_ad = 0;
      for (std::size_t j = 0; j < T_; ++j) dot_ad += a[j] * da[j];
      for (std::size_t j = 0; j < T_; ++j) ds[j] = a[j] * (da[j] - dot_ad) * inv;
      // 5b. S = c·tanh(R / c):  dR = dS ⊙ sech²(R / c) = dS ⊙ C   (soft-cap only)
      if (o.softcap > 0) {
        const T* dcap = buf.s_dcap.data() + (b * H + h) * T_;
        for (std::size_t j = 0; j < T_; ++j) ds[j] *= dcap[j];
      }
      ops::flush_gradient(ds, 1, T_, T_);
      // 5. R = q̂·k̂/divisor:  dq̂[b,h] = Σ_j dR_j k̂[b,j,h];  dk̂[b,j,h] = dR_j q̂[b,h]  (dR in ds)
      T* dqb = dqh + b * hk + h * d.dk;
      T* dkb = dkh + b * T_ * hk + h * d.dk;
      ops::matmul(ops::Strided<T>{ds, T_, 1}, kh + b * T_ * hk + h * d.dk, hk, dqb, hk, 1, d.dk,
                  T_, false);
      ops::matmul(ops::Strided<T>{ds, 1, 1}, qh + b * hk + h * d.dk, d.dk, dkb, hk, T_, d.dk, 1,
                  false);
      // Once a head has learned, dS of the keys it ignores is tiny, and so are
      // their rows of dV and dK̂: entries below 2^-100 go to 0 while still in
      // cache, before passes 1-4 multiply each by d_model inputs
      // (kGradientFloor in flush_subnormals.h says why 2^-100).
      ops::flush_gradient(dvb, T_, d.dv, hv);
      ops::flush_gradient(dqb, 1, d.dk, hk);
      ops::flush_gradient(dkb, T_, d.dk, hk);
    }
  }
  // 4. q̂ = LN_gq(q), K̂ = LN_gk(K):  dq, dK from dq̂, dK̂; dg_q, dg_k accumulate
  if (o.qk_norm) {
    qk_layer_norm_backward(buf.q.data(), B, H, d.dk, w.gq, buf.q_mean.data(), buf.q_rstd.data(),
                           buf.dqn.data(), buf.dq.data(), g.gq);
    qk_layer_norm_backward(buf.k.data(), B * T_, H, d.dk, w.gk, buf.k_mean.data(),
                           buf.k_rstd.data(), buf.dkn.data(), buf.dk.data(), g.gk);
    // dK of an ignored key is tiny here too, before pass 1 multiplies it.
    ops::flush_gradient(buf.dq.data(), B, hk, hk);
    ops::flush_gradient(buf.dk.data(), B * T_, hk, hk);
  }
  // 3. q = X[:, qpos] W_Q + b_Q:  dW_Q += X_qᵀ dq, db_Q += Σ dq  (X is data: no dX)
  linear_backward(x + d.qpos * D, T_ * D, {B, D, hk}, w.wq, buf.dq.data(), g.wq, g.bq,
                  static_cast<T*>(nullptr));
  // 2. V = X W_V + b_V
  linear_backward(x, D, {B * T_, D, hv}, w.wv, buf.dv.data(), g.wv, g.bv, static_cast<T*>(nullptr));
  // 1. K = X W_K + b_K
  linear_backward(x, D, {B * T_, D, hk}, w.wk, buf.dk.data(), g.wk, g.bk, static_cast<T*>(nullptr));
}

template struct MhaBuffers<float>;
template struct MhaBuffers<double>;
template void mha_forward<float>(const MhaDims&, const MhaOptions&, const MhaWeights<float>&,
                                 const float*, MhaBuffers<float>&);
template void mha_forward<double>(const MhaDims&, const MhaOptions&, const MhaWeights<double>&,
                                  const double*, MhaBuffers<double>&);
template void mha_backward<float>(const MhaDims&, const MhaOptions&, const MhaWeights<float>&,
                                  const float*, const float*, MhaBuffers<float>&,
                                  const MhaGrads<float>&);
template void mha_backward<double>(const MhaDims&, const MhaOptions&, const MhaWeights<double>&,
                                   const double*, const double*, MhaBuffers<double>&,
                                   const MhaGrads<double>&);

}  // namespace attn
