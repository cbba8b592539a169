#include "train/qk_clip.h"

#include <cmath>

namespace attn {

std::vector<double> head_max_logits(const float* logits, std::size_t batch, std::size_t heads,
                                    std::size_t seq) {
  std::vector<double> m(heads, 0.0);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t h = 0; h < heads; ++h) {
      const float* s = logits + (b * heads + h) * seq;
      for (std::size_t j = 0; j < seq; ++j) {
        const double a = std::fabs(static_cast<double>(s[j]));
        if (std::isnan(a) || std::isnan(m[h])) m[h] = std::nan("");  // std::max would drop it
        else if (a > m[h]) m[h] = a;
      }
    }
  return m;
}

template <typename T>
void scale_head_qk(T* params, const ParamLayout& L, const ModelDims& d, std::size_t h, double gamma) {
  const std::size_t hk = d.heads * d.dk, c0 = h * d.dk;
  const T g = static_cast<T>(gamma);
  auto columns = [&](ParamLayout::Slice w, std::size_t rows) {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = 0; i < d.dk; ++i) params[w.offset + r * hk + c0 + i] *= g;
  };
  if (d.qk_norm) {
    columns(L.gq, 1);
    columns(L.gk, 1);
  } else {
    columns(L.wq, d.d_model);
    columns(L.bq, 1);
    columns(L.wk, d.d_model);
    columns(L.bk, 1);
  }
}

std::size_t qk_clip(float* params, const ParamLayout& L, const ModelDims& d, const std::vector<double>& max_logit,
                    double tau) {
  std::size_t clipped = 0;
  for (std::size_t h = 0; h < max_logit.size(); ++h) {
    const double m = max_logit[h];
    if (!(std::isfinite(m) && m > tau)) continue;
    scale_head_qk(params, L, d, h, std::sqrt(tau / m));
    ++clipped;
  }
  return clipped;
}

template void scale_head_qk<float>(float*, const ParamLayout&, const ModelDims&, std::size_t, double);
template void scale_head_qk<double>(double*, const ParamLayout&, const ModelDims&, std::size_t, double);

}  // namespace attn
