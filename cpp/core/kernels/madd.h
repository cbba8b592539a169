// How the kernels' multiply-adds round, and the one switch between the two.
//
// separate: the product rounded, then the sum rounded. SIMD128 has no fused
//   multiply-add, so its kernels do this, and the scalar twins do it by
//   default: native, wasm scalar and SIMD128 give the same bits.
// fused: one rounding, as fmaf. The relaxed-SIMD build's f32x4.relaxed_madd
//   fuses where the CPU has an FMA (the engine decides, per machine), and the
//   scalar twins in this mode fuse at exactly the same multiply-adds (the
//   SIMD kernels' vector parts; their scalar tails stay separate), so they
//   give the relaxed build's bits: `attnlab --madd fused ...` reproduces a
//   page that ran it.
#pragma once

#include <cmath>

namespace attn {

enum class Madd { separate, fused };

// The mode the kernels run in. Scalar builds (native, wasm scalar): the last
// set_madd_mode(), separate at start. SIMD128: separate. Relaxed SIMD: what
// this engine's relaxed_madd does, probed once.
Madd madd_mode();

// Scalar builds only: the SIMD builds' multiply-adds are fixed by the build,
// so there a mode other than madd_mode() throws std::logic_error.
void set_madd_mode(Madd mode);

inline const char* madd_name(Madd mode) { return mode == Madd::fused ? "fused" : "separate"; }

// The fused twins' entry points carry this: on x86-64 (where FMA is not
// baseline) each is compiled twice, with and without FMA, and the loader picks
// one for the CPU (an ifunc), so std::fma is one instruction where the CPU has
// it instead of a call into libm (measured 20x slower: `attnlab train --madd
// fused` 136 s against 6.7 s). The bodies are always_inline so each copy gets
// its own. The project builds with -ffp-contract=off, so the FMA copy fuses
// only the std::fma calls and never a separate a·b + c.
#if defined(__x86_64__) && defined(__ELF__) && !defined(__wasm__)
#define ATTN_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define ATTN_FMA_CLONES
#endif
#define ATTN_TWIN_BODY [[gnu::always_inline]] inline

// acc + a·b, rounded as the mode says (the scalar twins' one multiply-add).
template <bool Fused>
ATTN_TWIN_BODY float madd_f32(float acc, float a, float b) {
  if constexpr (Fused) return std::fma(a, b, acc);
  else return acc + a * b;
}

}  // namespace attn
