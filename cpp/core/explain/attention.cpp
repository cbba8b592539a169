#include "explain/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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
  // n·m <= 2^24 and dk + dv <= 2^17 here, so the product fits 64 bits.
  check_work("n*m*(dk+dv)", std::uint64_t{s.n} * s.m * (std::uint64_t{s.dk} + s.dv), limits::kMaxAttentionWork);
}

namespace {

// Row i of the attention once more, in double: for finite float inputs every
// intermediate fits (|q·k| <= 65536·FLT_MAX² ≈ 7.6e81, and divided by the
// smallest divisor 1e-30, 7.6e111), so the row is right where the float
// kernel overflowed. Weights below FLT_MIN are 0, as the kernel flushes them.
// Each output is a convex combination of a column of V, so its exact value
// lies within ±max|v| <= FLT_MAX: a double above FLT_MAX by rounding alone is
// clamped to it.
void attention_row_f64(const float* q, const float* k, const float* v, const AttentionShape& s, double divisor,
                       std::size_t i, float* w, float* o, std::vector<double>& scores, std::vector<double>& acc) {
  const float* qi = q + i * s.dk;
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < s.m; ++j) {
    const float* kj = k + j * s.dk;
    double d = 0;
    for (std::size_t c = 0; c < s.dk; ++c) d += static_cast<double>(qi[c]) * kj[c];
    scores[j] = d / divisor;
    top = std::max(top, scores[j]);
  }
  double sum = 0;
  for (std::size_t j = 0; j < s.m; ++j) sum += (scores[j] = std::exp(scores[j] - top));
  std::fill(acc.begin(), acc.end(), 0.0);
  constexpr double kFloatMin = std::numeric_limits<float>::min();
  for (std::size_t j = 0; j < s.m; ++j) {
    double wj = scores[j] / sum;
    if (wj < kFloatMin) wj = 0;
    w[i * s.m + j] = static_cast<float>(wj);
    if (wj == 0) continue;
    const float* vj = v + j * s.dv;
    for (std::size_t c = 0; c < s.dv; ++c) acc[c] += wj * vj[c];
  }
  constexpr double kMax = std::numeric_limits<float>::max();
  for (std::size_t c = 0; c < s.dv; ++c) o[i * s.dv + c] = static_cast<float>(std::clamp(acc[c], -kMax, kMax));
}

bool row_finite(const float* x, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j)
    if (!std::isfinite(x[j])) return false;
  return true;
}

}  // namespace

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
  // For finite inputs the exact result is always finite (weights in [0, 1],
  // outputs within the range of V), but float can overflow on the way: q·k
  // or q·k/divisor past FLT_MAX (the softmax of an infinite score is NaN), or
  // a W·V sum near FLT_MAX (ten weights of 0.1f sum to just above 1). Either
  // leaves a weight or an output that is not finite; one scan (n·(m + dv),
  // against the kernel's n·m·(dk + dv)) finds those rows, and only they are
  // computed again, in double. The kernels stay as they are.
  std::vector<double> scores, acc;
  for (std::size_t i = 0; i < s.n; ++i) {
    if (row_finite(weights + i * s.m, s.m) && row_finite(out + i * s.dv, s.dv)) continue;
    if (scores.empty()) {
      scores.resize(s.m);
      acc.resize(s.dv);
    }
    attention_row_f64(q, k, v, s, divisor, i, weights, out, scores, acc);
  }
}

}  // namespace attn
