#include "kernel_bench.h"

#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "base/aligned_vector.h"
#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "base/rng.h"
#include "kernels/attention_kernel.h"
#include "kernels/dot.h"
#include "kernels/qk_scores.h"
#include "mul_add_peak.h"
#include "train/trainer.h"

namespace attn::bench {

namespace {

float g_sink = 0;

// Inputs start on a 64-byte boundary, as Eigen's arrays in the native column
// do (measured: with malloc's 8-byte alignment, dot n = 4096 about 10% slower
// and the attention's samples spread by ±25% as their alignment varied).
using Floats = AlignedFloats;

Floats random_floats(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  Floats v(count);
  for (auto& x : v) x = static_cast<float>(rng.normal());
  return v;
}

// Not inlined into run_seconds, whose vectors' destructors would put each
// kernel call in a cleanup scope: under -fexceptions emscripten routes such a
// call through a JS invoke_ trampoline (SIMD128's Q·Kᵀ and attention loops
// went to JS and back on every call). Here no destructor is in scope.
template <typename F>
[[gnu::noinline]] double time_loop(std::size_t iters, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < iters; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

void check_case(const Case& c) {
  if (c.kernel == "dot") {
    check_size("n", c.n, 1, 1u << 24);
  } else if (c.kernel == "peak" || c.kernel == "peak_8x6") {
    check_size("n", c.n, 1, 1u << 24);  // rounds of 14 (peak) or 8 (peak_8x6) multiply-adds per call
#if defined(__wasm_relaxed_simd__)
  } else if (c.kernel == "fma_peak") {
    check_size("n", c.n, 1, 1u << 24);  // rounds of 12 fused multiply-adds per call
#endif
  } else if (c.kernel == "train") {
    // the default configuration; n and d are unused (n = 1 by convention)
  } else if (c.kernel == "train_converged") {
    check_size("n", c.n, 1, 100000);
  } else if (c.kernel == "qk" || c.kernel == "attention") {
    check_size("n", c.n, 1, 4096);
    check_size("d", c.d, 1, 4096);
  } else {
    // fma_peak is a choice only where it is built (the relaxed-SIMD build).
#if defined(__wasm_relaxed_simd__)
    const std::string choices = "dot, qk, attention, train, train_converged, peak, peak_8x6, fma_peak";
    const std::string listed = "'dot', 'qk', 'attention', 'train', 'train_converged', 'peak', 'peak_8x6' or 'fma_peak'";
#else
    const std::string choices = "dot, qk, attention, train, train_converged, peak, peak_8x6";
    const std::string listed = "'dot', 'qk', 'attention', 'train', 'train_converged', 'peak' or 'peak_8x6'";
#endif
    throw ArgumentError("kernel", "choice", "{\"value\":" + jstr(c.kernel) + ",\"choices\":\"" + choices + "\"}",
                        "kernel must be " + listed + ", got '" + escaped(c.kernel) + "'");
  }
}

}  // namespace

double flops(const Case& c) {
  const double n = static_cast<double>(c.n), d = static_cast<double>(c.d);
  if (c.kernel == "dot") return 2.0 * n;
  if (c.kernel == "peak") return n * mul_add_peak_flops_per_round();
  if (c.kernel == "peak_8x6") return n * mul_add_peak_8x6_flops_per_round();
#if defined(__wasm_relaxed_simd__)
  if (c.kernel == "fma_peak") return n * fma_peak_flops_per_round();
#endif
  if (c.kernel == "qk") return 2.0 * n * n * d;
  if (is_training_case(c)) return 0.0;
  return 4.0 * n * n * d;
}

double run_seconds(const Case& c, std::size_t iters) {
  check_case(c);
  check_size("iters", iters, 1, 1u << 30);
  if (c.kernel == "dot") {
    const auto a = random_floats(c.n, 1), b = random_floats(c.n, 2);
    float acc = 0;
    const double t = time_loop(iters, [&] { acc += dot_f32(a.data(), b.data(), c.n); });
    g_sink += acc;
    return t;
  }
  if (c.kernel == "peak") {
    float acc = 0;
    const double t = time_loop(iters, [&] { acc += mul_add_peak(c.n); });
    g_sink += acc;
    return t;
  }
  if (c.kernel == "peak_8x6") {
    float acc = 0;
    const double t = time_loop(iters, [&] { acc += mul_add_peak_8x6(c.n); });
    g_sink += acc;
    return t;
  }
#if defined(__wasm_relaxed_simd__)
  if (c.kernel == "fma_peak") {
    float acc = 0;
    const double t = time_loop(iters, [&] { acc += fma_peak(c.n); });
    g_sink += acc;
    return t;
  }
#endif
  if (c.kernel == "train") {
    // Set-up (init, the init checkpoint) stays outside the timed loop.
    Trainer trainer{TrainConfig{}};
    const double t = time_loop(1, [&] { trainer.step(iters); });
    g_sink += static_cast<float>(trainer.latest()[kColLoss]);
    return t;
  }
  if (c.kernel == "train_converged") {
    // Trained once (outside any timed loop), then every sample steps the same
    // run on: what a reader's long run meets after it has learned.
    static std::unique_ptr<Trainer> trained;
    static std::size_t trained_steps = 0;
    if (!trained || trained_steps != c.n) {
      trained = std::make_unique<Trainer>(TrainConfig{});
      trained->step(c.n);
      trained_steps = c.n;
    }
    const double t = time_loop(1, [&] { trained->step(iters); });
    g_sink += static_cast<float>(trained->latest()[kColLoss]);
    return t;
  }
  const auto q = random_floats(c.n * c.d, 3), k = random_floats(c.n * c.d, 4);
  Floats s(c.n * c.n);
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(c.d)));
  if (c.kernel == "qk") {
    const double t = time_loop(iters, [&] { qk_scores_f32(q.data(), k.data(), c.n, c.n, c.d, scale, s.data()); });
    g_sink += s[0];
    return t;
  }
  const auto v = random_floats(c.n * c.d, 5);
  Floats o(c.n * c.d);
  const AttentionDims dims{c.n, c.n, c.d, c.d};
  const double t = time_loop(iters, [&] { attention_f32(q.data(), k.data(), v.data(), dims, scale, s.data(), o.data()); });
  g_sink += o[0];
  return t;
}

float checksum() { return g_sink; }

}  // namespace attn::bench
