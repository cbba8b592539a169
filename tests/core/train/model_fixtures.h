// What the training lab's gradient tests share: model sizes that exercise the
// SIMD kernels' tiles and tails, and per-group norms of a gradient.
#pragma once

#include <cmath>
#include <vector>

#include "train/attn_model.h"

namespace fixtures {

// Sizes that exercise the SIMD kernels' 16-wide tiles and their tails, two heads.
inline attn::ModelDims simd_edge_dims(bool qk_norm) {
  attn::ModelDims d{};
  d.seq = 17;
  d.d_model = 20;
  d.heads = 2;
  d.dk = 37;
  d.dv = 18;
  d.classes = 32;
  d.qpos = 16;
  d.qk_norm = qk_norm;
  return d;
}

// Every parameter group of the layout, in order (g_q, g_k empty without QK-LayerNorm).
inline std::vector<attn::ParamLayout::Slice> groups(const attn::ParamLayout& L) {
  return {L.wq, L.bq, L.wk, L.bk, L.wv, L.bv, L.wo, L.bo, L.wr, L.br, L.gq, L.gk};
}

// The Frobenius norm of one group of a gradient.
inline double group_norm(const std::vector<double>& g, attn::ParamLayout::Slice s) {
  double n = 0;
  for (std::size_t i = 0; i < s.size; ++i) n += g[s.offset + i] * g[s.offset + i];
  return std::sqrt(n);
}

// The norm of the float gradient's difference from the double one, on one group.
inline double group_error(const std::vector<float>& gf, const std::vector<double>& gd,
                          attn::ParamLayout::Slice s) {
  double err = 0;
  for (std::size_t i = 0; i < s.size; ++i) {
    const double e = static_cast<double>(gf[s.offset + i]) - gd[s.offset + i];
    err += e * e;
  }
  return std::sqrt(err);
}

}  // namespace fixtures
