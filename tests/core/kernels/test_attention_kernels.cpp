// The attention kernels' pieces: the exp both softmax twins share, against
// std::exp over its whole range; and, in SIMD128 builds, each SIMD kernel
// against its scalar twin (Q·Kᵀ scores, the softmax row, the attention
// forward) at sizes below, at, above and between multiples of the vector
// width (4), the score tile (4 rows x 8 keys) and the W·V tile (8 columns),
// through TwinTester (unaligned starts, guards around every buffer).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/attention_kernel.h"
#include "kernels/qk_scores.h"
#include "kernels/softmax_row.h"
#include "kernels/build_kernels.h"
#include "kernels/twin_tester.h"
#include "oracles.h"

namespace {

// |got - want| in units of float's spacing at want (at the subnormal spacing
// below the normal range).
double ulps(float got, double want) {
  const double tiny = std::numeric_limits<float>::min();
  if (std::fabs(want) < tiny) return std::fabs(got - want) / std::ldexp(1.0, -149);
  int e;
  std::frexp(want, &e);
  return std::fabs(got - want) / std::ldexp(1.0, e - 24);
}

[[maybe_unused]] bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }  // the SIMD128 cases only

float from_bits(std::uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

constexpr double kU = oracle::kFloatU;

// A guard value after the oracle test's output, to catch a write past its end
// (the twin tests' value).
constexpr float kGuard = TwinTester::kGuard;

// Below float's normal range the relative bounds shrink to nothing while a
// product still rounds to the nearest subnormal: allow one such step.
constexpr double kSubnormalStep = std::numeric_limits<float>::denorm_min();

}  // namespace

TEST_CASE("exp_f32_nonpositive is within 1.01 ulp of exp on [ln FLT_MIN, 0], exactly 0 below",
          "[softmax][exp]") {
  // The floor is the least float whose exp is normal.
  REQUIRE(std::exp(static_cast<double>(attn::kExpFloor)) >= std::numeric_limits<float>::min());
  REQUIRE(std::exp(static_cast<double>(std::nextafter(attn::kExpFloor, -100.0f))) <
          std::numeric_limits<float>::min());
  // Every 101st float from -0 down to the floor (about 11 million values).
  const std::uint32_t lowest = [] {
    std::uint32_t b;
    const float x = attn::kExpFloor;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }();
  double worst = 0;
  float worst_x = 0;
  for (std::uint32_t b = 0x80000000u; b <= lowest; b += 101) {
    const float x = from_bits(b);
    const double e = ulps(attn::exp_f32_nonpositive(x), std::exp(static_cast<double>(x)));
    if (e > worst) worst = e, worst_x = x;
  }
  CAPTURE(worst, worst_x);
  REQUIRE(worst <= 1.01);

  REQUIRE(attn::exp_f32_nonpositive(0.0f) == 1.0f);
  REQUIRE(attn::exp_f32_nonpositive(-0.0f) == 1.0f);
  REQUIRE(attn::exp_f32_nonpositive(attn::kExpFloor) >= std::numeric_limits<float>::min());
  // Below the floor exp would be subnormal (slow on x86): exactly 0, as under
  // flush-to-zero, and so down to -inf and for NaN.
  for (float x : {std::nextafter(attn::kExpFloor, -100.0f), -87.4f, -87.5f, -87.6f, -87.67f,
                  -87.7f, -88.0f, -100.0f, -1e30f, -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()}) {
    CAPTURE(x);
    REQUIRE(attn::exp_f32_nonpositive(x) == 0.0f);
  }
}

#if defined(__wasm_simd128__)
TEST_CASE("SIMD: the softmax's vector exp is exp_f32_nonpositive in SIMD128, as close to exp where it fuses",
          "[softmax][exp][simd]") {
  // The same sweep as above, through the vector exp 4 lanes at a time. SIMD128
  // (and relaxed SIMD on an engine that does not fuse): the scalar's bits.
  // Fused: the same polynomial with 6 roundings fewer, held to the scalar's
  // 1.01 ulp, and unlike it somewhere (or the test would not be testing FMA).
  const bool fused = attn::madd_mode() == attn::Madd::fused;
  const std::uint32_t lowest = [] {
    std::uint32_t b;
    const float x = attn::kExpFloor;
    std::memcpy(&b, &x, sizeof b);
    return b;
  }();
  std::vector<float> x, y, want;
  double worst = 0;
  float worst_x = 0;
  std::size_t differs = 0;
  const auto flush = [&] {
    y.assign(x.size(), -1.0f);
    attn::exp_nonpositive_f32__wasmsimd(x.data(), y.data(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float s = attn::exp_f32_nonpositive(x[i]);
      differs += !same_bits(y[i], s);
      const double e = ulps(y[i], std::exp(static_cast<double>(x[i])));
      if (e > worst) worst = e, worst_x = x[i];
    }
    x.clear();
  };
  for (std::uint32_t b = 0x80000000u; b <= lowest; b += 101) {
    x.push_back(from_bits(b));
    if (x.size() == 4096) flush();
  }
  flush();
  WARN("vector exp (" << attn::madd_name(attn::madd_mode()) << "): worst " << worst << " ulp at " << worst_x
                      << "; " << differs << " results differ from exp_f32_nonpositive's bits");
  REQUIRE(worst <= 1.01);
  if (fused) REQUIRE(differs > 0);
  else REQUIRE(differs == 0);

  // In vector lanes: exp(±0) = 1 exactly, the floor normal, below it (and -inf, NaN) exactly 0.
  x = {0.0f, -0.0f, attn::kExpFloor, std::nextafter(attn::kExpFloor, -100.0f), -88.0f, -1e30f,
       -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  y.assign(x.size(), -1.0f);
  attn::exp_nonpositive_f32__wasmsimd(x.data(), y.data(), x.size());
  REQUIRE(y[0] == 1.0f);
  REQUIRE(y[1] == 1.0f);
  REQUIRE(y[2] >= std::numeric_limits<float>::min());
  for (std::size_t i = 3; i < x.size(); ++i) {
    CAPTURE(x[i]);
    REQUIRE(y[i] == 0.0f);
  }
}
#endif

TEST_CASE("softmax rows never return a subnormal weight", "[softmax][subnormal]") {
  // Rows whose scores sit at every distance from the best, fine-grained around
  // where exp(z) or exp(z)/sum falls below FLT_MIN, and with many ties at the
  // top so 1/sum is small: every weight is 0 or normal, in both twins.
  for (std::size_t top : {1, 3, 64, 300}) {
    for (std::size_t n : {top + 1, top + 7, top + 260}) {
      // The rest on an even grid over [-95, -75], the first one at -95 + 10/(n - top).
      std::vector<float> x(n);
      for (std::size_t i = 0; i < n; ++i)
        x[i] = i < top ? 0.0f
                       : static_cast<float>(-95.0 + 20.0 * (static_cast<double>(i - top) + 0.5) /
                                                        static_cast<double>(n - top));
      std::vector<float> scalar = x;
      attn::softmax_row_f32__scalar(scalar.data(), n);
      CAPTURE(top, n);
      std::size_t zeros = 0;
      for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i, x[i], scalar[i]);
        REQUIRE(std::fpclassify(scalar[i]) != FP_SUBNORMAL);
        zeros += scalar[i] == 0.0f;
        // A flushed weight was below FLT_MIN; any other is exp's value / sum.
        const double want = std::exp(static_cast<double>(x[i])) / static_cast<double>(top);
        if (scalar[i] == 0.0f) REQUIRE(want < 1.0001 * std::numeric_limits<float>::min());
        else REQUIRE(std::fabs(scalar[i] - want) <= 4 * kU * want);
      }
      if (n >= top + 7) REQUIRE(zeros > 0);
#if defined(__wasm_simd128__)
      TwinTester t;  // the same row, one float in, guarded
      const auto row = t.output("x", x);
      t.run(attn::softmax_row_f32__wasmsimd, attn::softmax_row_f32__scalar,
            [&](auto softmax, auto& b) { softmax(b[row], n); });
      // The twins differ only in the order of the sum.
      t.require_within(row, [&](float w) { return 2 * n * kU * w; });
      const TwinTester::Values simd = t.simd(row);
      for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i, x[i], simd[i]);
        REQUIRE(std::fpclassify(simd[i]) != FP_SUBNORMAL);
      }
#endif
    }
  }
}

TEST_CASE("qk_scores_f32 matches a double oracle at tile and vector-width edges", "[qk]") {
  oracle::TestData rng(0x9c);
  for (std::size_t n : {1, 3, 4, 5, 9}) {
    for (std::size_t m : {1, 7, 8, 9, 17}) {
      for (std::size_t d : {1, 3, 4, 5, 64, 67}) {
        const std::vector<float> q = rng.floats(n * d, -1, 1), k = rng.floats(m * d, -1, 1);
        std::vector<float> s(n * m + 1, kGuard);
        const float scale = 0.37f;
        attn::qk_scores_f32(q.data(), k.data(), n, m, d, scale, s.data());
        CAPTURE(n, m, d);
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t j = 0; j < m; ++j) {
            double want = 0, mag = 0;
            for (std::size_t p = 0; p < d; ++p) {
              want += static_cast<double>(q[i * d + p]) * k[j * d + p];
              mag += std::fabs(static_cast<double>(q[i * d + p]) * k[j * d + p]);
            }
            CAPTURE(i, j, s[i * m + j], want);
            // d float additions of terms up to mag: (d + 1) u relative to mag.
            REQUIRE(std::fabs(s[i * m + j] - scale * want) <= (d + 2) * kU * scale * mag + 1e-30);
          }
        }
        REQUIRE(s[n * m] == kGuard);
      }
    }
  }
}

#if defined(__wasm_simd128__)

// Fused (relaxed SIMD): each score is one chain over p of d fused adds (+1
// rounding per product where the engine does not fuse) and one scaling: at most
// d + 1 roundings per term, so |s - scale·Σ q k| <= γ_{d+1}·|scale|·Σ|q k|.
template <typename Values>
void require_scores_within_bound(Values q, Values k, Values s, std::size_t n, std::size_t m, std::size_t d,
                                 float scale) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double exact = 0, mag = 0;
      for (std::size_t p = 0; p < d; ++p) {
        exact += static_cast<double>(q[i * d + p]) * k[j * d + p];
        mag += std::fabs(static_cast<double>(q[i * d + p]) * k[j * d + p]);
      }
      CAPTURE(i, j, s[i * m + j], scale * exact);
      REQUIRE(std::fabs(s[i * m + j] - scale * exact) <= fused_bound(d + 1, std::fabs(scale) * mag));
    }
}

TEST_CASE("SIMD: the Q·Kᵀ kernel equals its scalar twin bit for bit (fused: within its bound of a double oracle)",
          "[qk][simd]") {
  // Both sum each score over p in order and scale once, so every float matches.
  oracle::TestData rng(0x48);
  // n and m span both tiles' edges: 4 rows, and (relaxed, m >= 64) 5 packed rows.
  for (std::size_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13}) {
    for (std::size_t m : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 33, 63, 64, 65, 71}) {
      for (std::size_t d : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 63, 64, 65, 128}) {
        CAPTURE(n, m, d);
        TwinTester t;  // q, k and s one float in: unaligned
        const auto q = t.input("q", rng.floats(n * d, -2, 2));
        const auto k = t.input("k", rng.floats(m * d, -2, 2));
        const auto s = t.output("s", n * m);
        t.run(build_kernels::qk, build_kernels::qk_twin(),
              [&](auto qk, auto& b) { qk(b[q], b[k], n, m, d, 0.125f, b[s]); });
#if defined(ATTN_FUSED)
        require_scores_within_bound(t.simd(q), t.simd(k), t.simd(s), n, m, d, 0.125f);
#endif
        t.require_bit_identical(s);
      }
    }
  }
}

TEST_CASE("SIMD: the Q·Kᵀ kernel is right after a larger call (reused key panels)",
          "[qk][simd]") {
  oracle::TestData rng(0x49);
  const std::vector<float> qb = rng.floats(64 * 32, -1, 1), kb = rng.floats(64 * 32, -1, 1);
  std::vector<float> big(64 * 64);
  build_kernels::qk(qb.data(), kb.data(), 64, 64, 32, 1.0f, big.data());
  TwinTester t;
  t.offset(0);  // aligned, as before: what is under test is the reused panel buffer
  const auto q = t.input("q", rng.floats(5 * 3, -1, 1));
  const auto k = t.input("k", rng.floats(9 * 3, -1, 1));
  const auto s = t.output("s", 5 * 9);
  t.run(build_kernels::qk, build_kernels::qk_twin(),
        [&](auto qk, auto& b) { qk(b[q], b[k], 5, 9, 3, 1.0f, b[s]); });
#if defined(ATTN_FUSED)
  require_scores_within_bound(t.simd(q), t.simd(k), t.simd(s), 5, 9, 3, 1.0f);
#endif
  t.require_bit_identical(s);
}

TEST_CASE("SIMD: the Q·Kᵀ kernel is right after a larger call (reused packed query rows)", "[qk][simd]") {
  // A call with more and longer rows grows the packed-rows buffer; the next,
  // smaller one (still on the packed tile in the relaxed build: 64 keys) must
  // read only its own rows, including a last block of fewer rows than a tile.
  oracle::TestData rng(0x4a);
  const std::vector<float> qb = rng.floats(13 * 96, -1, 1), kb = rng.floats(64 * 96, -1, 1);
  std::vector<float> big(13 * 64);
  build_kernels::qk(qb.data(), kb.data(), 13, 64, 96, 1.0f, big.data());
  TwinTester t;
  const auto q = t.input("q", rng.floats(7 * 5, -1, 1));
  const auto k = t.input("k", rng.floats(64 * 5, -1, 1));
  const auto s = t.output("s", 7 * 64);
  t.run(build_kernels::qk, build_kernels::qk_twin(),
        [&](auto qk, auto& b) { qk(b[q], b[k], 7, 64, 5, 1.0f, b[s]); });
#if defined(ATTN_FUSED)
  require_scores_within_bound(t.simd(q), t.simd(k), t.simd(s), 7, 64, 5, 1.0f);
#endif
  t.require_bit_identical(s);
}

TEST_CASE("SIMD128: softmax_row_f32__wasmsimd agrees with its scalar twin", "[softmax][simd]") {
  // The same exp in every lane; only the order of the sum differs, so each
  // probability differs by at most the rounding of a length-n float sum.
  oracle::TestData rng(0x50f7);
  // 256: the chunk the SIMD exp runs its two passes over.
  for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257, 260, 1000}) {
    for (double spread : {0.1, 5.0, 60.0, 200.0}) {
      CAPTURE(n, spread);
      TwinTester t;  // the row one float in: unaligned
      const auto row = t.output("x", rng.floats(n, -spread, spread));
      t.run(attn::softmax_row_f32__wasmsimd, attn::softmax_row_f32__scalar,
            [&](auto softmax, auto& b) { softmax(b[row], n); });
      // A NaN or inf fails either check, so finiteness needs none of its own.
      if (n < 4) t.require_bit_identical(row);  // no vector step: the same order
      else t.require_within(row, [&](float w) { return (n + 2) * kU * w + kSubnormalStep; });
      double sum = 0;
      for (float w : t.simd(row)) sum += w;
      REQUIRE(std::fabs(sum - 1.0) <= (n + 2) * kU);
    }
  }
}

TEST_CASE("SIMD128: softmax_row_f32__wasmsimd keeps exact zeros and ones at extreme gaps", "[softmax][simd]") {
  const float big = std::numeric_limits<float>::max();
  std::vector<float> x{big, -big, 0.0f, -1e30f, 5.0f};
  attn::softmax_row_f32__wasmsimd(x.data(), x.size());
  REQUIRE(x == std::vector<float>{1.0f, 0.0f, 0.0f, 0.0f, 0.0f});
  std::vector<float> y(9, 0.0f);
  y[6] = 300.0f;  // in the vector part; the others are 300 below it
  attn::softmax_row_f32__wasmsimd(y.data(), y.size());
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == (i == 6 ? 1.0f : 0.0f));
}

// The attention kernel against its scalar twin at one shape, on inputs in
// [-2, 2], every buffer one float in (unaligned). Scores are bit-identical (the
// relaxed build's against its fused twin where the engine fuses); the softmax
// sums differ in order (a few ulp per weight), and each output sums m weighted
// values of |v| <= 2.
namespace {
void require_attention_matches_twin(oracle::TestData& rng, std::size_t n, std::size_t m, std::size_t dk,
                                    std::size_t dv, float scale) {
  CAPTURE(n, m, dk, dv, scale);
  TwinTester t;
  const auto q = t.input("q", rng.floats(n * dk, -2, 2));
  const auto k = t.input("k", rng.floats(m * dk, -2, 2));
  const auto v = t.input("v", rng.floats(m * dv, -2, 2));
  const auto w = t.output("w", n * m), o = t.output("o", n * dv);
  const attn::AttentionDims dims{n, m, dk, dv};
  t.run(build_kernels::attention, build_kernels::attention_twin(),
        [&](auto attention, auto& b) { attention(b[q], b[k], b[v], dims, scale, b[w], b[o]); });
  t.require_within(w, [&](float scalar) { return (m + 2) * kU * scalar + kSubnormalStep; });
  t.require_within(o, 2.0 * (2 * m + 2) * kU);
}

float inverse_sqrt(std::size_t dk) { return 1.0f / std::sqrt(static_cast<float>(dk)); }
}  // namespace

TEST_CASE("SIMD: the attention kernel agrees with its scalar twin", "[attention][simd]") {
  oracle::TestData rng(0xa77);
  for (std::size_t n : {1, 2, 3, 4, 5, 8, 9})
    for (std::size_t m : {1, 3, 7, 8, 9, 16, 17})
      for (std::size_t dk : {1, 3, 4, 5, 8, 64, 65})
        for (std::size_t dv : {1, 3, 4, 7, 8, 9, 16, 17})
          require_attention_matches_twin(rng, n, m, dk, dv, inverse_sqrt(dk));
}

// The attention kernel's work on one block of rows (scores, softmax, W·V) is
// checked against its twin as above; these sizes reach the relaxed build's
// packed 5-row blocks (64 keys or more): n at their edges, dk and dv around
// the 8-column tile and its 4-column and scalar remainders.
TEST_CASE("SIMD: the attention kernel agrees with its scalar twin in blocks of packed rows (64 keys or more)",
          "[attention][simd]") {
  oracle::TestData rng(0xa78);
  for (std::size_t n : {1, 4, 5, 6, 9, 10, 11, 16})
    for (std::size_t m : {63, 64, 65, 71})
      for (std::size_t dk : {1, 5, 8, 64})
        for (std::size_t dv : {1, 4, 7, 8, 9, 13, 17})
          require_attention_matches_twin(rng, n, m, dk, dv, inverse_sqrt(dk));
}

TEST_CASE("SIMD: the attention kernel is right after a larger call (reused packed rows)", "[attention][simd]") {
  // A larger call grows the packed-rows buffer (query rows d long, weight
  // rows m long); the next, smaller one must read only its own rows.
  oracle::TestData rng(0xa79);
  {
    const std::size_t n = 12, m = 96, d = 80;
    const auto q = rng.floats(n * d, -1, 1), k = rng.floats(m * d, -1, 1), v = rng.floats(m * d, -1, 1);
    std::vector<float> w(n * m), o(n * d);
    build_kernels::attention(q.data(), k.data(), v.data(), attn::AttentionDims{n, m, d, d}, 0.125f, w.data(),
                             o.data());
  }
  require_attention_matches_twin(rng, 7, 64, 3, 9, 0.5f);
}

#endif
