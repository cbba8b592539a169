#include "attention.h"

#include <cmath>

#include "check.h"
#include "divisor.h"
#include "dot.h"
#include "argument_error.h"
#include "size_limits.h"
#include "softmax.h"
#include "text.h"

namespace attn {

static void check_shape(const AttentionShape& s) {
  check_size("n", s.n, 1, limits::kMaxSeqLen);
  check_size("m", s.m, 1, limits::kMaxSeqLen);
  check_size("dk", s.dk, 1, limits::kMaxDk);
  check_size("dv", s.dv, 1, limits::kMaxDk);
  check_product("n*dk", s.n, s.dk, limits::kMaxAttentionElems);
  check_product("m*dk", s.m, s.dk, limits::kMaxAttentionElems);
  check_product("m*dv", s.m, s.dv, limits::kMaxAttentionElems);
  check_product("n*m", s.n, s.m, limits::kMaxAttentionElems);
  check_product("n*dv", s.n, s.dv, limits::kMaxAttentionElems);
}

void attention_forward(const float* q, const float* k, const float* v, const AttentionShape& s,
                       double divisor, float* weights, float* out) {
  check_shape(s);
  for (const auto& [name, p] : {std::pair{"q", static_cast<const void*>(q)}, {"k", k}, {"v", v},
                                {"weights", weights}, {"out", out}})
    check_not_null(name, p);
  Divisor::value(divisor);
  check_finite("q", q, s.n * s.dk);
  check_finite("k", k, s.m * s.dk);
  check_finite("v", v, s.m * s.dv);

  // Multiply by the reciprocal in float, as a fused kernel would.
  const float inv = static_cast<float>(1.0 / divisor);
  for (std::size_t i = 0; i < s.n; ++i) {
    float* w = weights + i * s.m;
    // 1. Scores of query i against every key, through the dot kernel.
    for (std::size_t j = 0; j < s.m; ++j) {
      w[j] = dot_f32(q + i * s.dk, k + j * s.dk, s.dk) * inv;
      if (!std::isfinite(w[j])) {
        throw ArgumentError("q", "score (" + std::to_string(i) + ", " + std::to_string(j) +
                                     ") overflowed float: q and k entries are too large");
      }
    }
    // 2. Softmax of the row.
    softmax_f32_inplace(w, s.m);
    // 3. out_i = sum_j w_ij v_j.
    float* o = out + i * s.dv;
    for (std::size_t c = 0; c < s.dv; ++c) o[c] = 0.0f;
    for (std::size_t j = 0; j < s.m; ++j) {
      const float wij = w[j];
      const float* vj = v + j * s.dv;
      for (std::size_t c = 0; c < s.dv; ++c) o[c] += wij * vj[c];
    }
  }
}

}  // namespace attn
