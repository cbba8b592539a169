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

}  // namespace attn::simd
