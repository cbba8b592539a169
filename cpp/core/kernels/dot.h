// Dot-product kernels. Each SIMD kernel has a scalar twin with the same
// signature; dot_f32() picks the SIMD one where the build has SIMD128.
// Names follow XNNPACK: op, then ISA, then unroll/accumulators.
#pragma once

#include <cstddef>

#include "kernels/madd.h"

namespace attn {

// The SIMD kernel's twin: the same adds in the same order, so the same sum bit
// for bit (tests/core/kernels/test_dot.cpp holds them to it in the wasm build).
float dot_f32__scalar(const float* a, const float* b, std::size_t n);
// The same with the vector part's multiply-adds fused: the relaxed build's
// bits where its engine fuses relaxed_madd (kernels/madd.h).
float dot_f32__scalar_fma(const float* a, const float* b, std::size_t n);

// 4 independent f32x4 accumulators (16 floats a step), then an explicit tail.
// The same source twice: the relaxed-SIMD build (-mrelaxed-simd) names it
// __wasmrelaxedsimd_, where each multiply-add is one f32x4.relaxed_madd (so
// the fused twin's bits where the engine fuses, the plain twin's where not;
// tests hold it to both, and to a double oracle with the bound of its sum), and the SIMD128 build names it __wasmsimd_.
#if defined(__wasm_relaxed_simd__)
float dot_f32__wasmrelaxedsimd_acc4(const float* a, const float* b, std::size_t n);
#elif defined(__wasm_simd128__)
float dot_f32__wasmsimd_acc4(const float* a, const float* b, std::size_t n);
#endif

inline float dot_f32(const float* a, const float* b, std::size_t n) {
#if defined(__wasm_relaxed_simd__)
  return dot_f32__wasmrelaxedsimd_acc4(a, b, n);
#elif defined(__wasm_simd128__)
  return dot_f32__wasmsimd_acc4(a, b, n);
#else
  return madd_mode() == Madd::fused ? dot_f32__scalar_fma(a, b, n) : dot_f32__scalar(a, b, n);
#endif
}

// Which dot kernel dot_f32() runs, for the page and the CLI to report.
inline const char* dot_f32_kernel_name() {
#if defined(__wasm_relaxed_simd__)
  return "dot_f32__wasmrelaxedsimd_acc4";
#elif defined(__wasm_simd128__)
  return "dot_f32__wasmsimd_acc4";
#else
  return madd_mode() == Madd::fused ? "dot_f32__scalar_fma" : "dot_f32__scalar";
#endif
}

}  // namespace attn
