// QK-clip (Kimi K2's MuonClip, without Muon): after an optimiser step, a head
// whose largest |logit| on a batch exceeds τ has its query and its keys each
// scaled by √(τ / max), so that head's logits, which are q̂·k̂ / divisor,
// scale by τ / max and its largest is τ again. The Trainer measures it at the
// updated weights on the next step's batch, before that step's forward is
// differentiated (trainer.cpp).
//
// The logit watched is q̂·k̂ / divisor, before any soft-cap (MhaBuffers::logits()).
// What is scaled: the head's columns of W_Q and b_Q, and of W_K and b_K
// (Kimi K2 has no biases; scaling them too makes q and k scale exactly). With
// QK-LayerNorm, scaling W_Q and W_K would change nothing (the LayerNorm
// divides it out, up to its ε), so the head's LayerNorm gains g_q, g_k are
// scaled instead: they are what sets the logits' scale there.
#pragma once

#include <cstddef>
#include <vector>

#include "train/attn_model.h"

namespace attn {

// Largest |logit| of each head over a batch's query rows, logits [batch, heads, seq];
// NaN for a head with a NaN logit.
std::vector<double> head_max_logits(const float* logits, std::size_t batch, std::size_t heads,
                                    std::size_t seq);

// Scales head h's query and key by `gamma` each (so its logits by gamma²).
template <typename T>
void scale_head_qk(T* params, const ParamLayout& L, const ModelDims& d, std::size_t h, double gamma);

// The clip itself: heads whose finite largest |logit| passes tau are scaled
// by √(tau / max). Returns how many heads were. A head whose logit is NaN or
// infinite (a diverged run) is left as it is.
std::size_t qk_clip(float* params, const ParamLayout& L, const ModelDims& d, const std::vector<double>& max_logit,
                    double tau);

}  // namespace attn
