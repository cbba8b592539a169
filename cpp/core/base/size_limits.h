// Documented limits on every size the core accepts. They keep one call's work
// and memory bounded (the page must never freeze or run out of wasm memory).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::limits {

inline constexpr std::size_t kMaxDk = 65536;           // d_k, d_v
inline constexpr std::size_t kMaxSeqLen = 4096;        // n, m in attention
inline constexpr std::size_t kMaxAttentionElems = std::size_t{1} << 24;  // n*m, n*d, m*d
inline constexpr std::size_t kMaxSamples = 10'000'000; // Monte Carlo samples in one call
inline constexpr std::size_t kMaxSampleWork = 100'000'000;  // d_k * samples in one call
// attention: n·m·(d_k + d_v) multiply-adds (Q·Kᵀ and W·V), about 5 s natively.
inline constexpr std::uint64_t kMaxAttentionWork = std::uint64_t{1} << 30;
inline constexpr std::size_t kMaxProofDk = 8;          // proof terms: d_k^2 running means
inline constexpr std::size_t kMaxBins = 4096;          // histogram bins
inline constexpr std::size_t kMaxScores = 1'000'000;   // one softmax row
// Divisors: 1/kMinDivisor must fit a float (attention multiplies by it in float).
inline constexpr double kMinDivisor = 1e-30;
inline constexpr double kMaxDivisor = 1e12;
// A logit soft-cap c (and QK-clip's τ) is 0 (off) or in [1e-3, 1e4], in the
// trainer (float logits), the saturation Monte Carlo and every caller: below
// 1e-3 every capped logit is within 1e-3 of 0 (attention uniform to 3
// digits); past 1e4 it changes only logits in the thousands, where softmax is
// one-hot with or without it; s/c stays finite for any float logit.
inline constexpr double kMinCap = 1e-3;
inline constexpr double kMaxCap = 1e4;
// A seed: any integer a JS number holds exactly (the pages pass seeds as numbers).
inline constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 53) - 1;

// `attnlab check` and the page's checker: q and k read from a user's file.
// Every limit is enforced from the header (or while reading text) before the
// values are allocated; the page's worst case then takes a few seconds.
inline constexpr std::size_t kMaxCheckFileBytes = std::size_t{64} << 20;  // one input file
inline constexpr std::size_t kMaxCheckValues = std::size_t{1} << 22;      // heads·n·d_k, q or k
inline constexpr std::size_t kMaxCheckHeads = 1024;
inline constexpr std::size_t kMaxCheckLogits = std::size_t{1} << 24;      // heads·n_q·n_k
inline constexpr std::uint64_t kMaxCheckWork = std::uint64_t{1} << 30;    // heads·n_q·n_k·d_k
inline constexpr std::size_t kMaxZipMembers = 4096;                       // entries in an .npz
inline constexpr std::size_t kMaxTextNesting = 64;                        // JSON depth

}  // namespace attn::limits
