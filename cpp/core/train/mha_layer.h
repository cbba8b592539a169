// Multi-head self-attention read at one query position: the training lab's
// layer. Forward and backward over plain buffers, side by side (llm.c style).
//
// Shapes: B = batch, T = positions, D = d_model, H = heads, dk = query/key
// width of a head, dv = value width of a head, qpos = the query's position.
// Row-major:
//   X  [B, T, D]      inputs; the query row of sample b is X[b, qpos]
//   K  [B, T, H·dk]   every position is a key ...
//   V  [B, T, H·dv]   ... and a value
//   q  [B, H·dk]      only the query row reaches the loss, so only it is projected
//   q̂, K̂             q and K after QK-LayerNorm (the same buffers as q, K without it)
//   S, A [B, H, T]    the query's scores (the softmax's input) and softmax weights
//   R [B, H, T]       the scores before the soft-cap, q̂·k̂/divisor, and
//   C [B, H, T]       the cap's derivative sech²(R/c) (both with the soft-cap
//                     only; without it S is q̂·k̂/divisor itself)
//   U  [B, H·dv]      the heads' outputs, concatenated
//   Y  [B, D]         U W_O + b_O
// Weights: W_Q, W_K [D, H·dk]; W_V [D, H·dv]; W_O [H·dv, D]; biases b_* of
// the output width; QK-LayerNorm gains g_q, g_k [H·dk].
#pragma once

#include <cstddef>
#include <vector>

namespace attn {

struct MhaDims {
  std::size_t batch, seq, d_model, heads, dk, dv, qpos;
};

template <typename T>
struct MhaWeights {
  const T *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo;
  const T *gq, *gk;  // QK-LayerNorm gains; null when it is off
};

template <typename T>
struct MhaGrads {
  T *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo, *gq, *gk;
};

// Forward activations (kept for backward and for the metrics) and backward scratch.
template <typename T>
struct MhaBuffers {
  std::vector<T> q, k, v, qn, kn, q_mean, q_rstd, k_mean, k_rstd, s, s_raw, s_dcap, a, u, y;
  std::vector<T> dq, dk, dv, dqn, dkn, da, ds, du;
  void resize(const MhaDims& d, bool qk_norm, bool softcap);
  const T* q_hat() const { return qn.empty() ? q.data() : qn.data(); }
  const T* k_hat() const { return kn.empty() ? k.data() : kn.data(); }
  // q̂·k̂/divisor, before any soft-cap: the logit QK-clip and the per-head
  // largest-|logit| traces watch.
  const T* logits() const { return s_raw.empty() ? s.data() : s_raw.data(); }
};

struct MhaOptions {
  double inv_divisor;  // scores are multiplied by this
  bool qk_norm;
  double softcap;      // the scores then go through c·tanh(s / c); 0: no cap
};

template <typename T>
void mha_forward(const MhaDims& d, const MhaOptions& o, const MhaWeights<T>& w, const T* x,
                 MhaBuffers<T>& buf);

// dY [B, D] in; weight gradients accumulate into g (the caller zeroes them).
template <typename T>
void mha_backward(const MhaDims& d, const MhaOptions& o, const MhaWeights<T>& w, const T* x,
                  const T* dy, MhaBuffers<T>& buf, const MhaGrads<T>& g);

}  // namespace attn
