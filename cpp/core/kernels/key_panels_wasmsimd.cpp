// Keys transposed into panels of 8 (key_panels_wasm.h). Compiled only where
// the target has WASM SIMD128 (em++ -msimd128).
#include "kernels/key_panels_wasm.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <algorithm>

#include "base/aligned_vector.h"

namespace attn::simd {

namespace {

// Rows r0..r3 (4 floats each) -> columns c0..c3.
inline void transpose4(v128_t r0, v128_t r1, v128_t r2, v128_t r3, v128_t& c0, v128_t& c1, v128_t& c2,
                       v128_t& c3) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const v128_t t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  c0 = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
  c1 = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
  c2 = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
  c3 = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
}

// Rows row[0..7], `steps` floats each, interleaved 8 wide: element s of row c
// at out[8s + c] (a key panel, or a packed row block).
void interleave8(const float* const (&row)[8], std::size_t steps, float* out) {
  std::size_t p = 0;
  for (; p + 4 <= steps; p += 4, out += 32) {  // two 4x4 transposes per 4 elements
    v128_t a0, a1, a2, a3, b0, b1, b2, b3;
    transpose4(wasm_v128_load(row[0] + p), wasm_v128_load(row[1] + p), wasm_v128_load(row[2] + p),
               wasm_v128_load(row[3] + p), a0, a1, a2, a3);
    transpose4(wasm_v128_load(row[4] + p), wasm_v128_load(row[5] + p), wasm_v128_load(row[6] + p),
               wasm_v128_load(row[7] + p), b0, b1, b2, b3);
    wasm_v128_store(out, a0);
    wasm_v128_store(out + 4, b0);
    wasm_v128_store(out + 8, a1);
    wasm_v128_store(out + 12, b1);
    wasm_v128_store(out + 16, a2);
    wasm_v128_store(out + 20, b2);
    wasm_v128_store(out + 24, a3);
    wasm_v128_store(out + 28, b3);
  }
  for (; p < steps; ++p, out += 8)
    for (std::size_t c = 0; c < 8; ++c) out[c] = row[c][p];
}

}  // namespace

const float* pack_row_block(const float* x, std::size_t rows, std::size_t ldx, std::size_t steps) {
  static_assert(kRowStride == 8, "a row block is interleaved 8 wide, as a key panel");
  thread_local AlignedFloats buffer;
  if (buffer.size() < kRowStride * steps) buffer.resize(kRowStride * steps);
  const float* row[8];
  for (std::size_t r = 0; r < 8; ++r) row[r] = x + std::min(r, rows - 1) * ldx;
  interleave8(row, steps, buffer.data());
  return buffer.data();
}

const float* pack_key_panels(const float* k, std::size_t m, std::size_t d) {
  thread_local AlignedFloats buffer;  // panel loads never straddle a cache line
  const std::size_t panels = (m + 7) / 8;
  if (buffer.size() < panels * 8 * d) buffer.resize(panels * 8 * d);
  for (std::size_t j = 0; j < m; j += 8) {
    float* out = buffer.data() + j * d;
    if (j + 8 <= m) {
      const float* row[8];
      for (std::size_t c = 0; c < 8; ++c) row[c] = k + (j + c) * d;
      interleave8(row, d, out);
    } else {
      for (std::size_t p = 0; p < d; ++p)
        for (std::size_t c = 0; c < 8; ++c) out[8 * p + c] = j + c < m ? k[(j + c) * d + p] : 0.0f;
    }
  }
  return buffer.data();
}

}  // namespace attn::simd
#endif
