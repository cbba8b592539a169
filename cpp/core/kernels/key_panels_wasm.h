// Keys transposed into panels of 8, for the broadcast score tile.
// Include only under __wasm_simd128__.
#pragma once

#include <cstddef>

namespace attn::simd {

// Panel P holds keys 8P..8P+7 transposed: element p of key 8P + c sits at
// [P·8·d + 8p + c], so one 2-vector load gives element p of all 8 keys. The
// last panel is padded with zero keys. Returns a buffer owned by the calling
// thread, grown to the largest call and reused (no allocation once warm);
// valid until the thread's next call.
const float* pack_key_panels(const float* k, std::size_t m, std::size_t d);

// Floats a step of a packed row block: rows 0-3 one aligned f32x4, row 4 the
// next float, the rest padding.
inline constexpr std::size_t kRowStride = 8;

// Up to 5 rows of x (ldx apart, `steps` long) interleaved for the packed
// broadcast tile (broadcast_tile_wasm.h): element s of row r at
// [kRowStride·s + r], so a step's rows 0-3 are one load and one pointer
// serves every row. Slots past `rows` repeat the last row (never read).
// A buffer owned by the calling thread, apart from the key panels', grown to
// the largest call and reused; valid until the thread's next call.
const float* pack_row_block(const float* x, std::size_t rows, std::size_t ldx, std::size_t steps);

}  // namespace attn::simd
