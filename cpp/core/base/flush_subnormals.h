// Subnormal floats (0 < |x| < FLT_MIN = 2^-126) run in microcode on x86, often
// 50-100x slower per instruction, both when an operation reads one and when it
// produces one. A native process could switch them off (FTZ/DAZ), but
// WebAssembly has no such mode, and native and wasm runs must stay bit for bit
// the same. So the code flushes them to zero itself, where they arise, with
// these integer tests of the exponent bits (comparing a subnormal as a float
// may itself take the slow path): the same operations in every build.
//
// Where they arise: a softmax weight of a key far below the row's best
// (softmax_row.h flushes those), and, once the training lab's run has learned,
// the gradients through such keys (mha_layer.cpp) and Adam's moments of
// weights whose gradient has vanished (optimizer.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attn {

// The training lab's gradient buffers (dS, dq, dK, dV) are cut higher, at
// 2^-100: the next pass multiplies each entry by d_model inputs, most of them
// below 1, so an entry just above 2^-126 still gives subnormal products there.
// Measured on the default run (d_k 256, √d_k, Adam, 1500 steps): cut at 2^-126
// the converged steps ran at 0.61x the speed of the first 100; at 2^-100,
// 0.95x, with every logged loss, accuracy and attention column unchanged bit
// for bit. What is cut cannot move a weight: Adam's step for a gradient under
// 2^-100 is under 2^-73·lr (ε = 1e-8 ≈ 2^-26.6 dominates √v), SGD's 2^-100·lr.
inline constexpr int kGradientFloor = -100;

// x if x is zero, normal, infinite or NaN; +0 if x is subnormal.
inline float flush_subnormal(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits = (bits & 0x7f800000u) == 0 ? 0u : bits;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// |x| < 2^e, for e in [-126, 0). NaN and infinities are not below.
inline bool is_below(float x, int e) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7fffffffu) < static_cast<std::uint32_t>(127 + e) << 23;
}

// Entries with |x| < 2^e to +0, for e in [-126, 0).
inline void flush_below(float* x, std::size_t n, int e) {
  for (std::size_t i = 0; i < n; ++i) x[i] = is_below(x[i], e) ? 0.0f : x[i];
}

inline bool is_subnormal(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7f800000u) == 0 && (bits & 0x007fffffu) != 0;
}

}  // namespace attn
