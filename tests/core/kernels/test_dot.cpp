// Dot kernels against a double oracle at every length 0..67 and 4096 (which
// covers the SIMD kernel's 16-wide body, its 4-wide loop and its scalar tail),
// and, in SIMD128 builds, the SIMD kernel against its scalar twin (TwinTester).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/build_kernels.h"
#include "kernels/dot.h"
#include "kernels/twin_tester.h"
#include "oracles.h"

namespace {

using Kernel = float (*)(const float*, const float*, std::size_t);

struct NamedKernel {
  const char* name;
  Kernel fn;
};

std::vector<NamedKernel> kernels() {
  std::vector<NamedKernel> k{{"dot_f32__scalar", attn::dot_f32__scalar},
                             {"dot_f32", [](const float* a, const float* b, std::size_t n) {
                                return attn::dot_f32(a, b, n);
                              }}};
#if defined(__wasm_simd128__)
  k.push_back({build_kernels::dot_name, build_kernels::dot});
#endif
  return k;
}

std::vector<std::size_t> lengths() {
  std::vector<std::size_t> n;
  for (std::size_t i = 0; i <= 67; ++i) n.push_back(i);
  n.push_back(4096);
  return n;
}

// Float rounding: with n products summed in float, the error is about
// eps_f * (a sum of partial sums); for these inputs 1e-5 * sum|a_i b_i| is
// well above that (eps_f = 6e-8) and well below a dropped or doubled element.
constexpr double kRel = 1e-5;
constexpr double kTiny = 1e-30;

// Buffers with slack so the kernels can be run at unaligned offsets.
struct Pair {
  std::vector<float> a, b;
};
Pair make(oracle::TestData& rng, std::size_t n, double lo, double hi) {
  return {rng.floats(n + 8, lo, hi), rng.floats(n + 8, lo, hi)};
}

}  // namespace

TEST_CASE("dot kernels with n = 0 return exactly 0", "[dot]") {
  const float a[4] = {1, 2, 3, 4};
  for (const auto& k : kernels()) {
    CAPTURE(k.name);
    REQUIRE(k.fn(a, a, 0) == 0.0f);
    REQUIRE(k.fn(nullptr, nullptr, 0) == 0.0f);  // nothing may be read
  }
}

TEST_CASE("dot kernels match a double oracle at every length 0..67 and 4096", "[dot]") {
  oracle::TestData rng(0xd07);
  struct Dist {
    const char* name;
    double lo, hi;
  };
  // Mixed signs (cancellation) and all-positive (partial sums grow, the worst
  // case for float accumulation).
  for (const Dist dist : {Dist{"mixed", -1.0, 1.0}, Dist{"positive", 0.5, 1.5},
                          Dist{"wide", -1e3, 1e3}}) {
    for (std::size_t n : lengths()) {
      const Pair p = make(rng, n, dist.lo, dist.hi);
      // Aligned start, and unaligned starts (a+1, b+3) as the SIMD loads must allow.
      for (const auto& offs : {std::pair<std::size_t, std::size_t>{0, 0}, {1, 3}, {3, 1}}) {
        const float* a = p.a.data() + offs.first;
        const float* b = p.b.data() + offs.second;
        const double want = oracle::dot(a, b, n);
        const double tol = kRel * oracle::dot_abs(a, b, n) + kTiny;
        for (const auto& k : kernels()) {
          const double got = k.fn(a, b, n);
          CAPTURE(dist.name, n, offs.first, offs.second, k.name, got, want, tol);
          REQUIRE(std::fabs(got - want) <= tol);
        }
      }
    }
  }
}

TEST_CASE("dot kernels are exact on small integers (every element counted once)", "[dot]") {
  // Integers in [-8, 8]: every product and partial sum is an integer below
  // 2^24, so float arithmetic is exact in any order and the result must equal
  // the oracle bit for bit. A skipped, doubled or misplaced element cannot hide.
  oracle::TestData rng(0x1e7);
  for (std::size_t n : lengths()) {
    std::vector<float> a(n + 8), b(n + 8);
    for (auto& x : a) x = static_cast<float>(static_cast<int>(rng.next() % 17) - 8);
    for (auto& x : b) x = static_cast<float>(static_cast<int>(rng.next() % 17) - 8);
    for (const auto& offs : {std::pair<std::size_t, std::size_t>{0, 0}, {1, 3}}) {
      const float* pa = a.data() + offs.first;
      const float* pb = b.data() + offs.second;
      const double want = oracle::dot(pa, pb, n);
      for (const auto& k : kernels()) {
        CAPTURE(n, offs.first, k.name);
        REQUIRE(static_cast<double>(k.fn(pa, pb, n)) == want);
      }
    }
  }
}

TEST_CASE("dot kernels pick each position: e_i . b == b_i for every i < n", "[dot]") {
  for (std::size_t n : lengths()) {
    if (n == 0) continue;
    std::vector<float> b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<float>(i + 1);
    std::vector<float> e(n, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
      e[i] = 1.0f;
      for (const auto& k : kernels()) {
        CAPTURE(n, i, k.name);
        REQUIRE(k.fn(e.data(), b.data(), n) == static_cast<float>(i + 1));
      }
      e[i] = 0.0f;
    }
    // And the sum of all positions, 1 + 2 + ... + n, exact in float here.
    std::vector<float> ones(n, 1.0f);
    for (const auto& k : kernels()) {
      CAPTURE(n, k.name);
      REQUIRE(static_cast<double>(k.fn(ones.data(), b.data(), n)) ==
              static_cast<double>(n) * static_cast<double>(n + 1) / 2.0);
    }
  }
}

TEST_CASE("dot_f32 dispatches to the kernel it names", "[dot]") {
  oracle::TestData rng(0xd15);
  const Pair p = make(rng, 100, -1, 1);
#if defined(__wasm_simd128__)
  REQUIRE(std::string(attn::dot_f32_kernel_name()) == build_kernels::dot_name);
  const Kernel expected = build_kernels::dot;
#else
  REQUIRE(std::string(attn::dot_f32_kernel_name()) == "dot_f32__scalar");
  const Kernel expected = attn::dot_f32__scalar;
#endif
  for (std::size_t n : lengths()) {
    if (n > 100) continue;
    CAPTURE(n);
    const float got = attn::dot_f32(p.a.data(), p.b.data(), n);
    const float want = expected(p.a.data(), p.b.data(), n);
    REQUIRE(std::memcmp(&got, &want, sizeof got) == 0);  // bit for bit
  }
}

#if defined(ATTN_FUSED)
TEST_CASE("relaxed SIMD: the fused dot kernel is within its derived bound of a double oracle", "[dot][simd][relaxed]") {
  // Each product enters one of 16 lane chains (4 accumulators x 4 lanes) of at
  // most n/16 + 3 fused adds (a 32-wide loop, a 16-wide one, up to three 4-wide
  // steps into the first accumulator), plus its own rounding where the engine
  // does not fuse; then 2 adds join the accumulators, 2 the lanes, and up to 3
  // tail products are added after: at most n/16 + 11 roundings per term.
  oracle::TestData rng(0x5141);
  for (std::size_t n : lengths()) {
    const std::vector<float> a = rng.floats(n, -1.0, 1.0), b = rng.floats(n, -1.0, 1.0);
    const double exact = oracle::dot(a.data(), b.data(), n);
    const double bound = fused_bound(n / 16 + 11, oracle::dot_abs(a.data(), b.data(), n));
    for (const auto& [offset_a, offset_b] :
         {std::pair<std::size_t, std::size_t>{0, 0}, {1, 3}, {2, 2}, {3, 0}, {0, 1}}) {
      CAPTURE(n, offset_a, offset_b, exact, bound);
      TwinTester t;
      const auto pa = t.offset(offset_a).input("a", a), pb = t.offset(offset_b).input("b", b);
      const auto result = t.output("result", 1);
      t.run(build_kernels::dot, build_kernels::dot_twin(),
            [&](auto dot, auto& x) { x[result][0] = dot(x[pa], x[pb], n); });
      const float got = t.simd(result)[0];
      CAPTURE(got);
      REQUIRE(std::fabs(static_cast<double>(got) - exact) <= bound);
      t.require_bit_identical(result);  // the fused twin's bits where the engine fuses
    }
  }
}
#endif

#if defined(__wasm_simd128__) && !defined(ATTN_FUSED)
TEST_CASE("SIMD128: dot_f32__wasmsimd_acc4 agrees with dot_f32__scalar", "[dot][simd]") {
  oracle::TestData rng(0x5140);
  for (std::size_t n : lengths()) {
    const std::vector<float> a = rng.floats(n, -1.0, 1.0), b = rng.floats(n, -1.0, 1.0);
    // Both are within kRel * sum|ab| of the exact value, hence within twice that of each other.
    const double tol = 2 * kRel * oracle::dot_abs(a.data(), b.data(), n) + kTiny;
    // The same values at each pair of starts (floats into their buffers).
    for (const auto& [offset_a, offset_b] :
         {std::pair<std::size_t, std::size_t>{0, 0}, {1, 3}, {2, 2}, {3, 0}, {0, 1}}) {
      CAPTURE(n, offset_a, offset_b);
      TwinTester t;
      const auto pa = t.offset(offset_a).input("a", a), pb = t.offset(offset_b).input("b", b);
      const auto result = t.output("result", 1);  // the returned float
      t.run(attn::dot_f32__wasmsimd_acc4, attn::dot_f32__scalar,
            [&](auto dot, auto& x) { x[result][0] = dot(x[pa], x[pb], n); });
      // Below one SIMD step there is nothing to reassociate: the tail is the
      // scalar loop, so the two must agree exactly.
      if (n < 4) t.require_bit_identical(result);
      else t.require_within(result, tol);
    }
  }
}

#endif

#if defined(__wasm_simd128__)
TEST_CASE("SIMD: dot kernel propagates NaN and inf from any lane or the tail", "[dot][simd]") {
  for (std::size_t n : {std::size_t{5}, std::size_t{19}, std::size_t{35}}) {
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<float> a(n, 1.0f), b(n, 1.0f);
      a[i] = std::numeric_limits<float>::quiet_NaN();
      CAPTURE(n, i);
      REQUIRE(std::isnan(build_kernels::dot(a.data(), b.data(), n)));
      a[i] = std::numeric_limits<float>::infinity();
      REQUIRE(std::isinf(build_kernels::dot(a.data(), b.data(), n)));
    }
  }
}
#endif

namespace {
// The SIMD kernel's adds written out as it does them (4 accumulators of 4
// lanes, a 32-wide loop, a 16-wide one, a 4-wide one, lanes summed pairwise,
// then the tail), in plain float: what every build's dot_f32 must give.
float simd_order_dot(const float* a, const float* b, std::size_t n) {
  float acc[4][4] = {};
  std::size_t i = 0;
  auto add = [&](int v, std::size_t at) {
    for (int l = 0; l < 4; ++l) acc[v][l] += a[at + l] * b[at + l];
  };
  for (; i + 32 <= n; i += 32)
    for (int v = 0; v < 8; ++v) add(v % 4, i + 4 * v);
  for (; i + 16 <= n; i += 16)
    for (int v = 0; v < 4; ++v) add(v, i + 4 * v);
  for (; i + 4 <= n; i += 4) add(0, i);
  float lane[4];
  for (int l = 0; l < 4; ++l) lane[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l]);
  float sum = (lane[0] + lane[1]) + (lane[2] + lane[3]);
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}
}  // namespace

TEST_CASE("every dot kernel gives the SIMD kernel's sum bit for bit (native, wasm scalar, wasm SIMD)", "[dot]") {
  oracle::TestData rng(77);
  for (std::size_t n : lengths()) {
    for (std::size_t off = 0; off < 4; ++off) {
      const Pair p = make(rng, n, -3, 3);
      const float want = simd_order_dot(p.a.data() + off, p.b.data() + off, n);
      for (const auto& k : kernels()) {
#if defined(ATTN_FUSED)
        if (k.fn != attn::dot_f32__scalar) continue;  // fused: held to its bound above instead
#endif
        INFO(k.name << " n " << n << " offset " << off);
        const float got = k.fn(p.a.data() + off, p.b.data() + off, n);
        REQUIRE(std::memcmp(&got, &want, sizeof got) == 0);
      }
    }
  }
}
