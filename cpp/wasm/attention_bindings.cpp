// Attention forward as the JS wrapper calls it (web/src/bridge/attn.js
// attentionForward): the core's checked entry point, softmax(QKᵀ/c)·V with its
// shape limits, non-finite inputs refused and the finite double recompute
// where float overflows. Linked into the benchmarks' module, beside the
// kernels it times: no widget of the explainer calls it, and in the
// explainer's module it was 6.5 kB gzip of every embedded widget's first load.
#include "base/size_limits.h"
#include "explain/attention.h"
#include "glue.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

Status attention_forward_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, double n, double m,
                            double dk, double dv, double divisor, std::uintptr_t weights,
                            std::uintptr_t out) {
  return guarded([&] {
    using namespace limits;
    const AttentionShape s{size_arg("n", n, 1, kMaxSeqLen), size_arg("m", m, 1, kMaxSeqLen),
                           size_arg("dk", dk, 1, kMaxDk), size_arg("dv", dv, 1, kMaxDk)};
    attention_forward(ptr<const float>(q), ptr<const float>(k), ptr<const float>(v), s, divisor,
                      ptr<float>(weights), ptr<float>(out));
  });
}

// The shape checks alone, so the JS wrapper can refuse a shape before it
// allocates the buffers (n 4096 x d_v 16384 would be 256 MiB of wasm memory,
// which never shrinks). The same messages as the calls themselves.
Status check_attention_shape_js(double n, double m, double dk, double dv) {
  return guarded([&] {
    using namespace limits;
    check_attention_shape({size_arg("n", n, 1, kMaxSeqLen), size_arg("m", m, 1, kMaxSeqLen),
                           size_arg("dk", dk, 1, kMaxDk), size_arg("dv", dv, 1, kMaxDk)});
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_attention) {
  using namespace attn::wasm;
  function("attentionForward", &attention_forward_js);
  function("checkAttentionShape", &check_attention_shape_js);
}
