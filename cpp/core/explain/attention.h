// Scaled dot-product attention, forward: W = softmax(Q K^T / divisor), O = W V.
// Shapes: Q [n x dk], K [m x dk], V [m x dv], W [n x m], O [n x dv], row-major.
#pragma once

#include <cstddef>

namespace attn {

struct AttentionShape {
  std::size_t n = 0;   // queries
  std::size_t m = 0;   // keys and values
  std::size_t dk = 0;  // query/key width
  std::size_t dv = 0;  // value width
};

// Checks n, m, dk, dv and their products (n·m, n·dk, m·dk, m·dv, n·dv: every
// buffer's size) and the work n·m·(dk + dv) against size_limits.h; throws ArgumentError naming the first
// that is out. A caller that builds the buffers calls it first.
void check_attention_shape(const AttentionShape& shape);

// Checks every size against limits.h, every input for NaN/inf, and the divisor;
// throws ArgumentError naming the first bad one. Then computes weights and out.
// Finite inputs always give finite results: a row where the float kernel
// overflowed (q·k past FLT_MAX, or a W·V sum near it) is computed again in
// double.
void attention_forward(const float* q, const float* k, const float* v, const AttentionShape& shape,
                       double divisor, float* weights, float* out);

}  // namespace attn
