// Timed runs of the core's kernels, for the benchmark tables (native CLI
// `attnlab_bench`, the wasm modules under Node, and the site's benchmark page).
// Plain C++: the caller (C++ or JS) takes repeated samples and the median.
#pragma once

#include <cstddef>
#include <string>

namespace attn::bench {

struct Case {
  // "dot", "qk" (scores Q·Kᵀ), "attention" (softmax(QKᵀ/√d)V), or "train": one
  // training step of the lab's default configuration (TrainConfig{}), timed in steps;
  // "train_converged": the same step after n steps of training (one run, trained
  // once and stepped on by every later call, so it stays converged);
  // or "peak", "peak_8x6", "fma_peak" (relaxed-SIMD build only): n rounds of
  // register-only multiply-adds in one loop shape each (mul_add_peak.h).
  std::string kernel;
  std::size_t n = 0;   // dot: length; qk/attention: queries = keys; peak: rounds;
                       // train_converged: steps before timing
  std::size_t d = 0;   // qk/attention: d_k = d_v
};

// Flops of one call: a multiply-add is 2; attention counts 4·n·m·d. 0 for
// the training steps, which are reported in steps per second instead.
double flops(const Case& c);

// Seconds for `iters` back-to-back calls of the kernel the build dispatches to
// (SIMD128 in the SIMD wasm build, the scalar twin elsewhere), on fixed
// pseudo-random inputs. Throws ArgumentError for an unknown kernel or size.
double run_seconds(const Case& c, std::size_t iters);

// A sink the timed loops write to, so the compiler cannot drop the work.
float checksum();

// "train" and "train_converged" are rated in steps per second, not GFLOP/s.
inline bool is_training_case(const Case& c) { return c.kernel == "train" || c.kernel == "train_converged"; }

}  // namespace attn::bench
