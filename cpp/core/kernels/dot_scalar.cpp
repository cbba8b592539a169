#include "kernels/dot.h"
#include "kernels/madd.h"

namespace attn {

namespace {
template <bool Fused>
ATTN_TWIN_BODY float dot(const float* a, const float* b, std::size_t n) {
  // The SIMD kernel's order, lane by lane (dot_wasmsimd.cpp): 16 partial sums
  // (4 accumulators of 4 lanes) over the 16-wide blocks, then the first 4 over
  // 4-wide ones, summed as the SIMD kernel sums its lanes, then the tail. Float
  // adds do not reassociate, so this order is what makes every build (native,
  // wasm scalar, wasm SIMD) give the same sum bit for bit for the same inputs.
  // Fused: the blocks' multiply-adds fuse, as relaxed_madd does; the tail is
  // scalar in the SIMD kernel too, so it stays separate.
  float acc[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (std::size_t c = 0; c < 16; ++c) acc[c] = madd_f32<Fused>(acc[c], a[i + c], b[i + c]);
  for (; i + 4 <= n; i += 4)
    for (std::size_t c = 0; c < 4; ++c) acc[c] = madd_f32<Fused>(acc[c], a[i + c], b[i + c]);
  float lane[4];
  for (std::size_t l = 0; l < 4; ++l) lane[l] = (acc[l] + acc[4 + l]) + (acc[8 + l] + acc[12 + l]);
  float sum = (lane[0] + lane[1]) + (lane[2] + lane[3]);
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}
}  // namespace

float dot_f32__scalar(const float* a, const float* b, std::size_t n) { return dot<false>(a, b, n); }
ATTN_FMA_CLONES float dot_f32__scalar_fma(const float* a, const float* b, std::size_t n) { return dot<true>(a, b, n); }

}  // namespace attn
