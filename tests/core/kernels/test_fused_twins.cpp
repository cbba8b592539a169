// The fused scalar twins (kernels/madd.h): within the bound of their sums of a
// double oracle; fusing exactly where the SIMD kernels' vector parts are and
// nowhere in their scalar tails; and the mode switch. In every build, since
// the twins are plain C++ (fmaf). The relaxed build's kernels are held to
// these twins bit for bit in test_dot, test_matmul and test_attention_kernels.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/attention_kernel.h"
#include "kernels/build_kernels.h"
#include "kernels/dot.h"
#include "kernels/madd.h"
#include "kernels/matmul.h"
#include "kernels/qk_scores.h"
#include "kernels/softmax_row.h"
#include "oracles.h"

namespace {

// x·x + y with x = 1 + 2⁻¹², y = -(1 + 2⁻¹¹) is 2⁻²⁴ fused and 0 separate
// (the product's 2⁻²⁴ is half an ulp of 1 + 2⁻¹¹, and the tie rounds it away).
constexpr float kX = 1.0f + 0x1p-12f;
constexpr float kY = -(1.0f + 0x1p-11f);
constexpr float kFusedResult = 0x1p-24f;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("fused twins round each multiply-add once where the SIMD kernels vectorise, and only there", "[madd]") {
  REQUIRE(std::fma(kX, kX, kY) == kFusedResult);
  REQUIRE(kY + kX * kX == 0.0f);

  // dot: lane 0 gets y (·1) from the first 4-wide step, then x·x from the
  // second; in the tail (n % 4 elements) the same pair is added separately.
  std::vector<float> a{1, 0, 0, 0, kX, 0, 0, 0}, b{kY, 0, 0, 0, kX, 0, 0, 0};
  REQUIRE(attn::dot_f32__scalar_fma(a.data(), b.data(), 8) == kFusedResult);
  REQUIRE(attn::dot_f32__scalar(a.data(), b.data(), 8) == 0.0f);
  std::vector<float> ta{0, 0, 0, 0, 1, kX, 0}, tb{0, 0, 0, 0, kY, kX, 0};  // tail starts at 4
  REQUIRE(attn::dot_f32__scalar_fma(ta.data(), tb.data(), 7) == 0.0f);
  // The same pair as the 16-wide block's lane 3, after 16 other terms.
  std::vector<float> c(32, 0.0f), d(32, 0.0f);
  c[3] = 1, d[3] = kY, c[19] = kX, d[19] = kX;
  REQUIRE(attn::dot_f32__scalar_fma(c.data(), d.data(), 32) == kFusedResult);

  // Q·Kᵀ: every step fuses (the SIMD kernel's last panel is zero-padded, not a tail).
  const float q[2] = {1, kX}, k[2] = {kY, kX};
  float s = -1;
  attn::qk_scores_f32__scalar_fma(q, k, 1, 1, 2, 1.0f, &s);
  REQUIRE(s == kFusedResult);
  attn::qk_scores_f32__scalar(q, k, 1, 1, 2, 1.0f, &s);
  REQUIRE(s == 0.0f);

  // matmul, n = 6: columns 0-3 are the SIMD kernel's 4-wide tile (fused), 4-5 its tail.
  // C starts at y and gets x·x (k = 1), through both the 4-row and the 1-row loops (k = 1, 5).
  for (std::size_t kk : {1, 5}) {
    CAPTURE(kk);
    std::vector<float> A(kk, 0.0f), B(kk * 6, 0.0f), C(6, kY);
    A[kk - 1] = kX;
    for (std::size_t j = 0; j < 6; ++j) B[(kk - 1) * 6 + j] = kX;
    attn::matmul_f32__scalar_fma({A.data(), kk, 1}, B.data(), 6, C.data(), 6, {1, 6, kk}, true);
    for (std::size_t j = 0; j < 6; ++j) {
      CAPTURE(j);
      REQUIRE(C[j] == (j < 4 ? kFusedResult : 0.0f));
    }
  }

  // attention: its W is the fused scores' softmax, and W·V fuses in columns
  // below dv - dv % 4 (dv = 7: 0-3 fused, 4-6 separate), summed over keys in order.
  oracle::TestData rng(0xf5ed);
  const std::size_t n = 3, m = 37, dk = 9, dv = 7;
  const std::vector<float> Q = rng.floats(n * dk, -2, 2), K = rng.floats(m * dk, -2, 2), V = rng.floats(m * dv, -2, 2);
  std::vector<float> W(n * m), O(n * dv), Wp(n * m), Op(n * dv), S(n * m);
  attn::attention_f32__scalar_fma(Q.data(), K.data(), V.data(), {n, m, dk, dv}, 0.25f, W.data(), O.data());
  attn::attention_f32__scalar(Q.data(), K.data(), V.data(), {n, m, dk, dv}, 0.25f, Wp.data(), Op.data());
  attn::qk_scores_f32__scalar_fma(Q.data(), K.data(), n, m, dk, 0.25f, S.data());
  std::size_t fused_differs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    attn::softmax_row_f32__scalar(S.data() + i * m, m);
    for (std::size_t j = 0; j < m; ++j) REQUIRE(same_bits(W[i * m + j], S[i * m + j]));
    for (std::size_t c = 0; c < dv; ++c) {
      float acc = 0.0f;
      for (std::size_t j = 0; j < m; ++j)
        acc = c < 4 ? std::fma(W[i * m + j], V[j * dv + c], acc) : acc + W[i * m + j] * V[j * dv + c];
      CAPTURE(i, c);
      REQUIRE(same_bits(O[i * dv + c], acc));
      fused_differs += !same_bits(O[i * dv + c], Op[i * dv + c]);
    }
  }
  REQUIRE(fused_differs > 0);  // 37 fused adds a column: some round differently
}

TEST_CASE("fused twins are within the bound of their sums of a double oracle", "[madd]") {
  oracle::TestData rng(0xf5ee);
  for (std::size_t n : {0, 1, 3, 4, 5, 15, 16, 17, 31, 33, 64, 67, 1000}) {
    const std::vector<float> a = rng.floats(n, -1, 1), b = rng.floats(n, -1, 1);
    CAPTURE(n);
    const double got = attn::dot_f32__scalar_fma(a.data(), b.data(), n);
    REQUIRE(std::fabs(got - oracle::dot(a.data(), b.data(), n)) <=
            fused_bound(n / 16 + 11, oracle::dot_abs(a.data(), b.data(), n)));
  }
  for (std::size_t d : {1, 7, 64, 65, 256}) {
    const std::size_t n = 3, m = 5;
    const std::vector<float> q = rng.floats(n * d, -2, 2), k = rng.floats(m * d, -2, 2);
    std::vector<float> s(n * m);
    attn::qk_scores_f32__scalar_fma(q.data(), k.data(), n, m, d, 0.125f, s.data());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) {
        CAPTURE(d, i, j);
        const double exact = 0.125 * oracle::dot(q.data() + i * d, k.data() + j * d, d);
        REQUIRE(std::fabs(s[i * m + j] - exact) <=
                fused_bound(d + 1, 0.125 * oracle::dot_abs(q.data() + i * d, k.data() + j * d, d)));
      }
  }
  for (std::size_t kk : {1, 4, 7, 255, 256, 300}) {
    const std::size_t m = 3, n = 11;
    const std::vector<float> A = rng.floats(m * kk, -1, 1), B = rng.floats(kk * n, -1, 1), C0 = rng.floats(m * n, -1, 1);
    std::vector<float> C = C0;
    attn::matmul_f32__scalar_fma({A.data(), kk, 1}, B.data(), n, C.data(), n, {m, n, kk}, true);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double exact = C0[i * n + j], mag = std::fabs(exact);
        for (std::size_t p = 0; p < kk; ++p) {
          exact += static_cast<double>(A[i * kk + p]) * B[p * n + j];
          mag += std::fabs(static_cast<double>(A[i * kk + p]) * B[p * n + j]);
        }
        CAPTURE(kk, i, j);
        REQUIRE(std::fabs(C[i * n + j] - exact) <= fused_bound(kk + 1, mag));
      }
  }
}

#if !defined(__wasm_simd128__)
TEST_CASE("scalar builds: the madd mode switches every kernel and its name to the fused twin and back", "[madd]") {
  REQUIRE(attn::madd_mode() == attn::Madd::separate);  // the default
  oracle::TestData rng(0xf5ef);
  const std::size_t n = 2, m = 9, d = 33;
  const std::vector<float> q = rng.floats(n * d, -2, 2), k = rng.floats(m * d, -2, 2), v = rng.floats(m * 6, -2, 2);
  const auto all = [&] {
    std::vector<float> out(n * m * 2 + n * 6 + n * m + 1);
    float* p = out.data();
    out.back() = attn::dot_f32(q.data(), k.data(), d);
    attn::qk_scores_f32(q.data(), k.data(), n, m, d, 0.5f, p);
    attn::attention_f32(q.data(), k.data(), v.data(), {n, m, d, 6}, 0.5f, p + n * m, p + 2 * n * m);
    attn::matmul_f32({q.data(), d, 1}, k.data(), m, p + 2 * n * m + n * 6, m, {n, m, 3}, false);
    return out;
  };
  const std::vector<float> plain = all();
  attn::set_madd_mode(attn::Madd::fused);
  const std::vector<float> fused = all();
  const std::string dot_name = attn::dot_f32_kernel_name(), matmul_name = attn::matmul_f32_kernel_name();
  attn::set_madd_mode(attn::Madd::separate);
  REQUIRE(dot_name == "dot_f32__scalar_fma");
  REQUIRE(matmul_name == "matmul_f32__scalar_fma");
  REQUIRE(std::string(attn::dot_f32_kernel_name()) == "dot_f32__scalar");
  REQUIRE(all() == plain);

  std::vector<float> want(fused.size());
  float* p = want.data();
  want.back() = attn::dot_f32__scalar_fma(q.data(), k.data(), d);
  attn::qk_scores_f32__scalar_fma(q.data(), k.data(), n, m, d, 0.5f, p);
  attn::attention_f32__scalar_fma(q.data(), k.data(), v.data(), {n, m, d, 6}, 0.5f, p + n * m, p + 2 * n * m);
  attn::matmul_f32__scalar_fma({q.data(), d, 1}, k.data(), m, p + 2 * n * m + n * 6, m, {n, m, 3}, false);
  REQUIRE(std::memcmp(fused.data(), want.data(), want.size() * sizeof(float)) == 0);
  REQUIRE(fused != plain);
}
#else
TEST_CASE("SIMD builds: the madd mode is the build's, and asking for the other throws", "[madd]") {
#if defined(ATTN_FUSED)
  // The probe agrees with what the kernels do on this engine.
  std::vector<float> a{1, 0, 0, 0, kX, 0, 0, 0}, b{kY, 0, 0, 0, kX, 0, 0, 0};
  const float got = build_kernels::dot(a.data(), b.data(), 8);
  REQUIRE(got == (attn::madd_mode() == attn::Madd::fused ? kFusedResult : 0.0f));
  WARN("relaxed_madd on this engine: " << attn::madd_name(attn::madd_mode()));
#else
  REQUIRE(attn::madd_mode() == attn::Madd::separate);
#endif
  const attn::Madd other = attn::madd_mode() == attn::Madd::fused ? attn::Madd::separate : attn::Madd::fused;
  REQUIRE_THROWS_AS(attn::set_madd_mode(other), std::logic_error);
  REQUIRE_NOTHROW(attn::set_madd_mode(attn::madd_mode()));
}
#endif
