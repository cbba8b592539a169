#include "kernels/madd.h"

#include <stdexcept>

#if defined(__wasm_relaxed_simd__)
#include <wasm_simd128.h>
#endif

namespace attn {

#if defined(__wasm_relaxed_simd__)
namespace {
// a·b + c with a = b = 1 + 2⁻¹² and c = -(1 + 2⁻¹¹): the exact product is
// 1 + 2⁻¹¹ + 2⁻²⁴, which rounds to 1 + 2⁻¹¹ (a tie, to even), so mul then add
// gives 0 and a fused multiply-add gives 2⁻²⁴. Volatile so it runs here, on
// this engine, and is not folded by the compiler.
Madd probe() {
  volatile float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
  const v128_t r = wasm_f32x4_relaxed_madd(wasm_f32x4_splat(a), wasm_f32x4_splat(a), wasm_f32x4_splat(c));
  return wasm_f32x4_extract_lane(r, 0) != 0.0f ? Madd::fused : Madd::separate;
}
}  // namespace

Madd madd_mode() {
  static const Madd mode = probe();
  return mode;
}

void set_madd_mode(Madd mode) {
  if (mode != madd_mode()) throw std::logic_error("the relaxed-SIMD build's multiply-adds are the engine's");
}
#elif defined(__wasm_simd128__)
Madd madd_mode() { return Madd::separate; }

void set_madd_mode(Madd mode) {
  if (mode != Madd::separate) throw std::logic_error("the SIMD128 build has no fused multiply-add");
}
#else
namespace {
Madd g_mode = Madd::separate;
}

Madd madd_mode() { return g_mode; }
void set_madd_mode(Madd mode) { g_mode = mode; }
#endif

}  // namespace attn
