// The training lab's matmul against a double oracle, for m, n and k below,
// at, above and between multiples of 4 and 16 (the SIMD tiles and tails),
// k across the 256-row slab, both ways of reading A (X·W and Xᵀ·dY), padded
// rows, and accumulation; and, in SIMD128 builds, the SIMD kernel against its
// scalar twin bit for bit (both sum each element in the same order), through
// TwinTester.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/build_kernels.h"
#include "kernels/matmul.h"
#include "kernels/twin_tester.h"

namespace {

using Kernel = void (*)(attn::MatmulA, const float*, std::size_t, float*, std::size_t,
                        attn::MatmulDims, bool);

std::vector<std::pair<const char*, Kernel>> kernels() {
  std::vector<std::pair<const char*, Kernel>> k{{"matmul_f32__scalar", attn::matmul_f32__scalar},
                                                {"matmul_f32", attn::matmul_f32}};
#if defined(__wasm_simd128__)
  k.push_back({build_kernels::matmul_name, build_kernels::matmul});
#endif
  return k;
}

// Values of a few bits so products are exact and only the sums round.
std::vector<float> data(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<float>(static_cast<int>((seed >> 40) % 512) - 256) / 64.0f;
  }
  return v;
}

struct Case {
  std::size_t m, n, k;
  bool transposed, accumulate;
};

void run_case(const Case& c, const char* name, Kernel f) {
  const std::size_t ldb = c.n + 3, ldc = c.n + 5;  // padded rows
  // A [m x k] stored either as rows (rs = k) or as its transpose (rs = 1, cs = m).
  const std::vector<float> a = data(c.m * c.k + 1, 1 + c.m + 7 * c.k);
  const std::vector<float> b = data(c.k * ldb + 1, 2 + c.n);
  std::vector<float> cm = data(c.m * ldc + 1, 3 + c.n * c.m);
  const std::vector<float> c0 = cm;
  const attn::MatmulA av = c.transposed ? attn::MatmulA{a.data(), 1, c.m}
                                        : attn::MatmulA{a.data(), c.k, 1};
  f(av, b.data(), ldb, cm.data(), ldc, {c.m, c.n, c.k}, c.accumulate);
  for (std::size_t i = 0; i < c.m; ++i) {
    for (std::size_t j = 0; j < ldc; ++j) {
      const float got = cm[i * ldc + j];
      if (j >= c.n) {  // padding is never written
        REQUIRE(std::memcmp(&got, &c0[i * ldc + j], sizeof got) == 0);
        continue;
      }
      double want = c.accumulate ? c0[i * ldc + j] : 0.0, mag = std::fabs(want);
      for (std::size_t p = 0; p < c.k; ++p) {
        const double t = static_cast<double>(av.data[i * av.row_stride + p * av.col_stride]) *
                         b[p * ldb + j];
        want += t;
        mag += std::fabs(t);
      }
      INFO(name << " m=" << c.m << " n=" << c.n << " k=" << c.k << " transposed=" << c.transposed
                << " accumulate=" << c.accumulate << " at (" << i << ", " << j << ")");
      REQUIRE(std::fabs(got - want) <= 1e-6 * mag + 1e-30);
    }
  }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (std::size_t m : {1, 2, 3, 5})
    for (std::size_t n : {1, 3, 4, 5, 15, 16, 17, 20, 33, 36})
      for (std::size_t k : {0, 1, 3, 4, 17, 255, 256, 257, 600})
        for (bool t : {false, true})
          for (bool acc : {false, true}) out.push_back({m, n, k, t, acc});
  return out;
}

}  // namespace

TEST_CASE("matmul matches a double oracle across shapes, strides and tails", "[train][matmul]") {
  for (const auto& [name, f] : kernels())
    for (const Case& c : cases()) run_case(c, name, f);
}

TEST_CASE("matmul kernel name follows the build", "[train][matmul]") {
#if defined(__wasm_simd128__)
  REQUIRE(std::string(attn::matmul_f32_kernel_name()) == build_kernels::matmul_name);
#else
  REQUIRE(std::string(attn::matmul_f32_kernel_name()) == "matmul_f32__scalar");
#endif
}

#if defined(__wasm_simd128__)
TEST_CASE("SIMD matmul equals its scalar twin bit for bit (relaxed: the fused twin, and within its bound of a double oracle)",
          "[train][matmul][simd]") {
  // Non-dyadic values here, so any change in summation order would show.
  const auto scaled = [](std::vector<float> v, float f) {
    for (auto& x : v) x *= f;
    return v;
  };
  for (const Case& c : cases()) {
    for (std::size_t offset : {0, 1}) {  // aligned and unaligned starts
      const std::size_t ldb = c.n + 1, ldc = c.n + 2;
      INFO("m=" << c.m << " n=" << c.n << " k=" << c.k << " transposed=" << c.transposed
                << " accumulate=" << c.accumulate << " offset=" << offset);
      TwinTester t;
      t.offset(offset);
      const auto a = t.input("a", scaled(data(c.m * c.k, 5 + c.k), 0.3f));
      const auto b = t.input("b", scaled(data(c.k * ldb, 6 + c.n), 1.7f));
      // C starts from values: accumulate adds to them, and its padding columns
      // must come back as the scalar twin leaves them (unwritten, as the oracle test checks).
      const auto cc = t.output("c", scaled(data(c.m * ldc, 7), 1.1f));
      t.run(build_kernels::matmul, build_kernels::matmul_twin(), [&](auto matmul, auto& x) {
        const attn::MatmulA av =
            c.transposed ? attn::MatmulA{x[a], 1, c.m} : attn::MatmulA{x[a], c.k, 1};
        matmul(av, x[b], ldb, x[cc], ldc, {c.m, c.n, c.k}, c.accumulate);
      });
#if defined(ATTN_FUSED)
      // Each element is one chain c0 + Σ_p a·b in p order (the SIMD tiles and
      // the scalar tail alike): k fused adds, +1 where the engine does not
      // fuse, so at most k + 1 roundings per term; c0 and the padding columns
      // as the twin leaves them.
      const TwinTester::Values got = t.simd(cc), av = t.simd(a), bv = t.simd(b), c0 = t.scalar(cc);
      const std::vector<float> c_init = scaled(data(c.m * ldc, 7), 1.1f);
      for (std::size_t i = 0; i < c.m; ++i) {
        for (std::size_t j = 0; j < ldc; ++j) {
          const std::size_t at = i * ldc + j;
          if (j >= c.n) {
            REQUIRE(std::memcmp(got.data + at, c0.data + at, sizeof(float)) == 0);
            continue;
          }
          double want = c.accumulate ? c_init[at] : 0.0, mag = std::fabs(want);
          for (std::size_t p = 0; p < c.k; ++p) {
            const double ap = c.transposed ? av[p * c.m + i] : av[i * c.k + p];
            want += ap * bv[p * ldb + j];
            mag += std::fabs(ap * bv[p * ldb + j]);
          }
          CAPTURE(i, j, got[at], want);
          REQUIRE(std::fabs(got[at] - want) <= fused_bound(c.k + 1, mag));
        }
      }
#endif
      t.require_bit_identical(cc);  // relaxed: the fused twin's bits where the engine fuses
    }
  }
}
#endif
