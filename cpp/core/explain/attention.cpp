#include "explain/attention.h"

#include <cmath>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "base/text.h"
#include "kernels/attention_kernel.h"

namespace attn {

void check_attention_shape(const AttentionShape& s) {
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
  check_attention_shape(s);
  for (const auto& [name, p] : {std::pair{"q", static_cast<const void*>(q)}, {"k", k}, {"v", v},
                                {"weights", weights}, {"out", out}})
    check_not_null(name, p);
  Divisor::value(divisor);
  check_finite("q", q, s.n * s.dk);
  check_finite("k", k, s.m * s.dk);
  check_finite("v", v, s.m * s.dv);

  // The kernel multiplies by the reciprocal in float.
  attention_f32(q, k, v, {s.n, s.m, s.dk, s.dv}, static_cast<float>(1.0 / divisor), weights, out);
  // Finite inputs can still overflow q·k; the softmax of an infinite score is
  // NaN, so one scan of the weights (n·m, against n·m·(dk+dv) work) finds it.
  for (std::size_t i = 0; i < s.n; ++i)
    for (std::size_t j = 0; j < s.m; ++j)
      if (!std::isfinite(weights[i * s.m + j]))
        throw ArgumentError("q", "a score in row " + std::to_string(i) +
                                     " overflowed float: q and k entries are too large");
}

}  // namespace attn
