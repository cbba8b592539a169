// The machine's multiply-add ceiling as this build sees it: independent
// multiply-adds from registers, no loads. The benchmark table divides each
// kernel's rate by it, measured in the same run, so "how close to the limit"
// needs no figure typed in from elsewhere.
#pragma once

#include <cstddef>

namespace attn::bench {

// `iters` rounds of 16 independent multiply-adds (f32x4 in SIMD128 builds,
// single floats otherwise). Returns a sum so the work cannot be dropped.
float mul_add_peak(std::size_t iters);

// Flops of one round: 16 multiply-adds x lanes x 2.
double mul_add_peak_flops_per_round();

}  // namespace attn::bench
