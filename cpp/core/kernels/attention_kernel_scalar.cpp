#include "kernels/attention_kernel.h"
#include "kernels/madd.h"
#include "kernels/qk_scores.h"
#include "kernels/softmax_row.h"

namespace attn {

namespace {
// Fused: the scores and the W·V columns below dv - dv % 4 fuse, as the SIMD
// kernel's vector tiles do under relaxed_madd; its last dv % 4 columns are
// scalar there too, so they stay separate.
template <bool Fused>
ATTN_TWIN_BODY void attention(const float* q, const float* k, const float* v, AttentionDims s, float scale, float* w,
               float* o) {
  const std::size_t dv4 = Fused ? s.dv - s.dv % 4 : s.dv;
  for (std::size_t i = 0; i < s.n; ++i) {
    float* wi = w + i * s.m;
    // 1. scores of query i
    if (Fused) qk_scores_f32__scalar_fma(q + i * s.dk, k, 1, s.m, s.dk, scale, wi);
    else qk_scores_f32__scalar(q + i * s.dk, k, 1, s.m, s.dk, scale, wi);
    // 2. softmax of the row
    softmax_row_f32__scalar(wi, s.m);
    // 3. o_i = sum_j w_ij v_j
    float* oi = o + i * s.dv;
    for (std::size_t c = 0; c < s.dv; ++c) oi[c] = 0.0f;
    for (std::size_t j = 0; j < s.m; ++j) {
      for (std::size_t c = 0; c < dv4; ++c) oi[c] = madd_f32<Fused>(oi[c], wi[j], v[j * s.dv + c]);
      for (std::size_t c = dv4; c < s.dv; ++c) oi[c] += wi[j] * v[j * s.dv + c];
    }
  }
}
}  // namespace

void attention_f32__scalar(const float* q, const float* k, const float* v, AttentionDims s,
                           float scale, float* w, float* o) {
  attention<false>(q, k, v, s, scale, w, o);
}
ATTN_FMA_CLONES void attention_f32__scalar_fma(const float* q, const float* k, const float* v, AttentionDims s,
                               float scale, float* w, float* o) {
  attention<true>(q, k, v, s, scale, w, o);
}

}  // namespace attn
