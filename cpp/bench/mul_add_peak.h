// The machine's multiply-add ceiling as this build sees it: multiplies and
// adds (f32x4 in SIMD128 builds, single floats otherwise), or fused
// multiply-adds in the relaxed-SIMD build, from registers, no loads. The
// benchmark table divides each kernel's rate by it, measured in the same run,
// so "how close to the limit" needs no figure typed in from elsewhere. No one
// loop shape fills every CPU's pipes from V8's 15 xmm registers, so there are
// two of multiplies and adds, and the table takes the faster
// (web/src/pages/bench/measure.js, CEILINGS).
#pragma once

#include <cstddef>

namespace attn::bench {

// `iters` rounds of 14 multiplies and 14 adds in independent chains (f32x4 in
// SIMD128 builds, single floats otherwise). Returns a sum so the work stays.
float mul_add_peak(std::size_t iters);

// Flops of one round: 14 multiply-adds (a multiply and an add) x lanes x 2.
double mul_add_peak_flops_per_round();

// `iters` rounds of 8 multiplies and 8 adds, in 8 chains of multiplies and 6
// of adds (two add chains take two adds a round).
float mul_add_peak_8x6(std::size_t iters);

// Flops of one round: 8 multiplies + 8 adds, x lanes.
double mul_add_peak_8x6_flops_per_round();

#if defined(__wasm_relaxed_simd__)
// The fused ceiling of the relaxed-SIMD build, beside the one above in the
// same run: `iters` rounds of 12 f32x4.relaxed_madd in independent chains.
float fma_peak(std::size_t iters);

// Flops of one round: 12 fused multiply-adds x 4 lanes x 2.
double fma_peak_flops_per_round();
#endif

}  // namespace attn::bench
