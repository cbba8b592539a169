// attention_forward against a naive Eigen implementation in double, with a
// tolerance derived from float rounding (not fitted to the results).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "base/size_limits.h"
#include "explain/attention.h"
#include "kernels/attention_kernel.h"
#include "oracles.h"

namespace {

constexpr double kU = 0x1p-24;                                       // float unit roundoff
constexpr double kFloatMin = std::numeric_limits<float>::min();      // below: subnormal

struct Problem {
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
};

Problem make_problem(oracle::TestData& rng, std::size_t n, std::size_t m, std::size_t dk,
                     std::size_t dv) {
  Problem p;
  p.shape = {n, m, dk, dv};
  auto fill = [&rng](std::size_t count) {
    std::vector<float> x(count);
    for (auto& e : x) e = static_cast<float>(rng.gaussish());
    return x;
  };
  p.q = fill(n * dk);
  p.k = fill(m * dk);
  p.v = fill(m * dv);
  return p;
}

// Runs the core and checks it against the Eigen oracle within first-order
// float error bounds:
//  score s_ij = fl(fl(q_i.k_j) * fl(1/d)):  |Δs| <= (dk u Σ|q k| + 2u |q.k|) / d  =: E_ij
//  weight (float softmax, max subtracted; exp within 3 ulp = 6u of exact):
//     R_i = 2 (2 max_j E_ij + u max_j |s_ij - s_max| + 6u) + (m + 1) u
//  output o = Σ_j w_ij v_j in float: |Δo| <= Σ_j w_ij |v_jc| (R_i + (m + 1) u)
void check_against_oracle(const Problem& p, double divisor) {
  const auto& s = p.shape;
  std::vector<float> w(s.n * s.m, -1.0f), o(s.n * s.dv, -1.0f);
  attn::attention_forward(p.q.data(), p.k.data(), p.v.data(), s, divisor, w.data(), o.data());
  const oracle::AttentionRef ref = oracle::attention(p.q, p.k, p.v, s.n, s.m, s.dk, s.dv, divisor);

  const double dk = static_cast<double>(s.dk), m = static_cast<double>(s.m);
  for (std::size_t i = 0; i < s.n; ++i) {
    const float* qi = p.q.data() + i * s.dk;
    double e_max = 0, s_max = -std::numeric_limits<double>::infinity(),
           s_min = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < s.m; ++j) {
      const float* kj = p.k.data() + j * s.dk;
      const double exact = oracle::dot(qi, kj, s.dk);
      const double e = (dk * kU * oracle::dot_abs(qi, kj, s.dk) + 2 * kU * std::fabs(exact)) / divisor;
      e_max = std::max(e_max, e);
      s_max = std::max(s_max, exact / divisor);
      s_min = std::min(s_min, exact / divisor);
    }
    const double r = 2 * (2 * e_max + kU * (s_max - s_min + 2 * e_max) + 6 * kU) + (m + 1) * kU;

    double row_sum = 0;
    for (std::size_t j = 0; j < s.m; ++j) {
      const double got = w[i * s.m + j];
      const double want = ref.w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
      CAPTURE(i, j, got, want, r);
      REQUIRE(std::isfinite(got));
      REQUIRE(got >= 0.0);
      REQUIRE(std::fabs(got - want) <= r * want + kFloatMin);
      row_sum += got;
    }
    CAPTURE(i, row_sum);
    REQUIRE(std::fabs(row_sum - 1.0) <= (m + 2) * kU);

    for (std::size_t c = 0; c < s.dv; ++c) {
      double mag = 0;
      for (std::size_t j = 0; j < s.m; ++j)
        mag += ref.w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) *
               std::fabs(static_cast<double>(p.v[j * s.dv + c]));
      const double got = o[i * s.dv + c];
      const double want = ref.o(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(c));
      const double tol = mag * (r + (m + 1) * kU) + kFloatMin;
      CAPTURE(i, c, got, want, tol);
      REQUIRE(std::fabs(got - want) <= tol);
    }
  }
}

}  // namespace

TEST_CASE("attention_forward matches an Eigen double implementation", "[attention]") {
  oracle::TestData rng(0xa77);
  struct Shape {
    std::size_t n, m, dk, dv;
  };
  // n = 1, m = 1, dk not a multiple of 4 (nor of 16), dv != dk, and one of each size class.
  const Shape shapes[] = {{1, 1, 1, 1},  {1, 5, 3, 2},   {4, 1, 7, 5},     {3, 4, 4, 4},
                          {5, 7, 13, 3}, {2, 33, 17, 1}, {8, 16, 64, 32},  {1, 64, 1, 9},
                          {6, 9, 130, 7}, {3, 2, 67, 70}, {16, 40, 33, 16}, {2, 3, 1000, 2},
                          {7, 13, 20, 17}, {3, 6, 5, 31}, {9, 4, 12, 48}, {5, 130, 8, 15}};
  for (const Shape& sh : shapes) {
    const Problem p = make_problem(rng, sh.n, sh.m, sh.dk, sh.dv);
    const double dk = static_cast<double>(sh.dk);
    for (double divisor : {std::sqrt(dk), 1.0, 2.0, dk, 0.37}) {
      CAPTURE(sh.n, sh.m, sh.dk, sh.dv, divisor);
      check_against_oracle(p, divisor);
    }
  }
}

TEST_CASE("attention_forward with m = 1: every weight is 1 and out copies v", "[attention]") {
  oracle::TestData rng(0x0e1);
  const Problem p = make_problem(rng, 5, 1, 6, 3);
  std::vector<float> w(5), o(15);
  attn::attention_forward(p.q.data(), p.k.data(), p.v.data(), p.shape, 0.37, w.data(), o.data());
  for (float x : w) REQUIRE(x == 1.0f);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t c = 0; c < 3; ++c) REQUIRE(o[i * 3 + c] == p.v[c]);
}

TEST_CASE("attention_forward with identical keys: uniform weights, out is the mean of v", "[attention]") {
  // All keys equal: every score in a row is the same float, so the weights are
  // exactly 1/m's float and out_c = Σ_j v_jc / m.
  oracle::TestData rng(0x1d3);
  const std::size_t n = 3, m = 8, dk = 5, dv = 4;
  Problem p = make_problem(rng, n, m, dk, dv);
  for (std::size_t j = 1; j < m; ++j)
    std::copy(p.k.begin(), p.k.begin() + dk, p.k.begin() + static_cast<std::ptrdiff_t>(j * dk));
  std::vector<float> w(n * m), o(n * dv);
  attn::attention_forward(p.q.data(), p.k.data(), p.v.data(), p.shape, 1.0, w.data(), o.data());
  for (float x : w) REQUIRE(x == 0.125f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < dv; ++c) {
      double mean = 0, mag = 0;
      for (std::size_t j = 0; j < m; ++j) {
        mean += p.v[j * dv + c] / 8.0;
        mag += std::fabs(p.v[j * dv + c]) / 8.0;
      }
      REQUIRE(std::fabs(o[i * dv + c] - mean) <= (m + 1) * kU * mag);
    }
}

TEST_CASE("attention_forward accepts the largest sizes and large finite inputs", "[attention]") {
  // Entries 1e18: q.k = dk 1e36 still fits a float; the weights stay finite.
  const attn::AttentionShape s{2, 2, 3, 1};
  const std::vector<float> q{1e18f, 1e18f, 1e18f, -1e18f, 0, 0}, k{1e18f, 1e18f, 1e18f, 0, 0, 0},
      v{1, 2};
  std::vector<float> w(4), o(2);
  attn::attention_forward(q.data(), k.data(), v.data(), s, 1.0, w.data(), o.data());
  REQUIRE(w == std::vector<float>{1.0f, 0.0f, 0.0f, 1.0f});  // 3e36 vs 0, -1e36 vs 0
  REQUIRE(o == std::vector<float>{1.0f, 2.0f});

  // n = m = kMaxSeqLen is allowed (n*m = kMaxAttentionElems exactly), with dk = dv = 1.
  const std::size_t big = attn::limits::kMaxSeqLen;
  const attn::AttentionShape sb{big, big, 1, 1};
  std::vector<float> qb(big, 0.0f), kb(big, 0.0f), vb(big, 1.0f), wb(big * big), ob(big);
  attn::attention_forward(qb.data(), kb.data(), vb.data(), sb, 1.0, wb.data(), ob.data());
  REQUIRE(wb.front() == 1.0f / 4096.0f);
  REQUIRE(wb.back() == 1.0f / 4096.0f);
  for (float x : ob) REQUIRE(std::fabs(x - 1.0) <= (big + 1) * kU);
}

TEST_CASE("attention_forward with the smallest legal divisor does not invent an overflow", "[attention][edge]") {
  // divisor = kMinDivisor = 1e-30. With q = 0 every score is exactly 0 and the
  // weights must be uniform; with q.k = 1e-20 the scores are 1e10 and 0, well
  // inside float. 1e-39 (whose reciprocal does not fit a float) is refused.
  const attn::AttentionShape s{1, 2, 1, 1};
  const std::vector<float> v{1.0f, 3.0f};
  std::vector<float> w(2), o(1);
  SECTION("zero query") {
    const std::vector<float> q{0.0f}, k{1.0f, -1.0f};
    REQUIRE_NOTHROW(attn::attention_forward(q.data(), k.data(), v.data(), s, 1e-30, w.data(), o.data()));
    REQUIRE(w == std::vector<float>{0.5f, 0.5f});
    REQUIRE(o[0] == 2.0f);
  }
  SECTION("small query and key") {
    const std::vector<float> q{1e-10f}, k{1e-10f, 0.0f};
    REQUIRE_NOTHROW(attn::attention_forward(q.data(), k.data(), v.data(), s, 1e-30, w.data(), o.data()));
    REQUIRE(w == std::vector<float>{1.0f, 0.0f});
    REQUIRE(o[0] == 1.0f);
  }
  SECTION("below the smallest divisor") {
    const std::vector<float> q{0.0f}, k{1.0f, -1.0f};
    REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q.data(), k.data(), v.data(), s, 1e-39, w.data(), o.data()),
                           "divisor");
  }
}

TEST_CASE("attention_forward rejects bad sizes, naming the size", "[attention][errors]") {
  using attn::limits::kMaxDk;
  using attn::limits::kMaxSeqLen;
  // The sizes are checked before any data is read, so small buffers suffice.
  std::vector<float> buf(64, 0.0f), w(64), o(64);
  auto call = [&](std::size_t n, std::size_t m, std::size_t dk, std::size_t dv) {
    attn::attention_forward(buf.data(), buf.data(), buf.data(), attn::AttentionShape{n, m, dk, dv},
                            1.0, w.data(), o.data());
  };
  REQUIRE_NOTHROW(call(2, 3, 4, 5));
  REQUIRE_ARGUMENT_ERROR(call(0, 3, 4, 5), "n");
  REQUIRE_ARGUMENT_ERROR(call(kMaxSeqLen + 1, 3, 4, 5), "n");
  REQUIRE_ARGUMENT_ERROR(call(2, 0, 4, 5), "m");
  REQUIRE_ARGUMENT_ERROR(call(2, kMaxSeqLen + 1, 4, 5), "m");
  REQUIRE_ARGUMENT_ERROR(call(2, 3, 0, 5), "dk");
  REQUIRE_ARGUMENT_ERROR(call(2, 3, kMaxDk + 1, 5), "dk");
  REQUIRE_ARGUMENT_ERROR(call(2, 3, 4, 0), "dv");
  REQUIRE_ARGUMENT_ERROR(call(2, 3, 4, kMaxDk + 1), "dv");
  // Each size is legal alone, the product is not (2^24 elements at most).
  REQUIRE_ARGUMENT_ERROR(call(kMaxSeqLen, 1, 4097, 1), "n*dk");
  REQUIRE_ARGUMENT_ERROR(call(1, kMaxSeqLen, 4097, 1), "m*dk");
  REQUIRE_ARGUMENT_ERROR(call(1, kMaxSeqLen, 1, 4097), "m*dv");
  REQUIRE_ARGUMENT_ERROR(call(kMaxSeqLen, 1, 1, 4097), "n*dv");
  REQUIRE_ARGUMENT_ERROR(call(kMaxSeqLen, kMaxSeqLen, kMaxDk, kMaxDk), "n*dk");
  // The same check on its own, for a caller that sizes its buffers from the shape.
  REQUIRE_NOTHROW(attn::check_attention_shape({kMaxSeqLen, kMaxSeqLen, 1, 1}));
  REQUIRE_ARGUMENT_ERROR(attn::check_attention_shape({4096, 1, 1, 65536}), "n*dv");  // 1 GB of output
  REQUIRE_ARGUMENT_ERROR(attn::check_attention_shape({1, 4096, 4097, 1}), "m*dk");
  REQUIRE_ARGUMENT_ERROR(attn::check_attention_shape({4097, 1, 1, 1}), "n");
}

TEST_CASE("attention_forward rejects null pointers, bad divisors and non-finite inputs", "[attention][errors]") {
  const attn::AttentionShape s{2, 3, 4, 5};
  oracle::TestData rng(0xe77);
  const Problem p = make_problem(rng, 2, 3, 4, 5);
  std::vector<float> w(6), o(10);
  const float* q = p.q.data();
  const float* k = p.k.data();
  const float* v = p.v.data();
  REQUIRE_NOTHROW(attn::attention_forward(q, k, v, s, 2.0, w.data(), o.data()));

  REQUIRE_ARGUMENT_ERROR(attn::attention_forward(nullptr, k, v, s, 2.0, w.data(), o.data()), "q");
  REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, nullptr, v, s, 2.0, w.data(), o.data()), "k");
  REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k, nullptr, s, 2.0, w.data(), o.data()), "v");
  REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k, v, s, 2.0, nullptr, o.data()), "weights");
  REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k, v, s, 2.0, w.data(), nullptr), "out");

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf, -inf, 2e12}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k, v, s, bad, w.data(), o.data()), "divisor");
  }

  const float fnan = std::numeric_limits<float>::quiet_NaN();
  const float finf = std::numeric_limits<float>::infinity();
  for (float bad : {fnan, finf, -finf}) {
    // First and last element of each input: every element is checked.
    for (bool last : {false, true}) {
      CAPTURE(bad, last);
      std::vector<float> q2 = p.q, k2 = p.k, v2 = p.v;
      (last ? q2.back() : q2.front()) = bad;
      (last ? k2.back() : k2.front()) = bad;
      (last ? v2.back() : v2.front()) = bad;
      REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q2.data(), k, v, s, 2.0, w.data(), o.data()), "q");
      REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k2.data(), v, s, 2.0, w.data(), o.data()), "k");
      REQUIRE_ARGUMENT_ERROR(attn::attention_forward(q, k, v2.data(), s, 2.0, w.data(), o.data()), "v");
    }
  }
}

// Issue 14, class 1: finite inputs have a finite exact result (weights in
// [0, 1], each output within its column of V), so the float kernel's
// overflows must not reach the caller as inf, NaN or an error. Each case
// overflowed before: a W·V sum of values near FLT_MAX, or q·k past it.
TEST_CASE("attention_forward: finite inputs give the finite exact answer where float overflows", "[attention][overflow]") {
  constexpr float M = std::numeric_limits<float>::max();
  auto run = [](std::size_t n, std::size_t m, std::size_t dk, std::size_t dv, const std::vector<float>& q,
                const std::vector<float>& k, const std::vector<float>& v, double divisor) {
    std::pair<std::vector<float>, std::vector<float>> r{std::vector<float>(n * m), std::vector<float>(n * dv)};
    // The premise: the float kernel alone overflows on these inputs.
    attn::attention_f32(q.data(), k.data(), v.data(), {n, m, dk, dv}, static_cast<float>(1.0 / divisor),
                        r.first.data(), r.second.data());
    bool overflowed = false;
    for (float x : r.first) overflowed |= !std::isfinite(x);
    for (float x : r.second) overflowed |= !std::isfinite(x);
    REQUIRE(overflowed);
    attn::attention_forward(q.data(), k.data(), v.data(), {n, m, dk, dv}, divisor, r.first.data(), r.second.data());
    for (float x : r.first) REQUIRE(std::isfinite(x));
    for (float x : r.second) REQUIRE(std::isfinite(x));
    return r;
  };
  SECTION("the issue's case: ten weights of 0.1 on values of FLT_MAX (and -FLT_MAX)") {
    for (float sign : {1.0f, -1.0f}) {
      const auto [w, o] = run(1, 10, 1, 1, {0}, std::vector<float>(10, 0), std::vector<float>(10, sign * M), 1.0);
      for (float x : w) REQUIRE(x == 0.1f);
      REQUIRE(o[0] == sign * M);
    }
  }
  SECTION("103 keys: a column of FLT_MAX beside a column of small values, kept exact") {
    // Uniform weights 1/103 sum to just above 1 in float: the first column's sum overflowed.
    std::vector<float> v(2 * 103);
    for (std::size_t j = 0; j < 103; ++j) v[2 * j] = M, v[2 * j + 1] = static_cast<float>(j);
    const auto [w, o] = run(1, 103, 1, 2, {0}, std::vector<float>(103, 0), v, 1.0);
    REQUIRE(o[0] == M);
    REQUIRE(o[1] == Approx(51.0).epsilon(1e-6));
  }
  SECTION("18 keys, three columns: FLT_MAX, -FLT_MAX, and 1 to 18") {
    std::vector<float> v(3 * 18);
    for (std::size_t j = 0; j < 18; ++j) v[3 * j] = M, v[3 * j + 1] = -M, v[3 * j + 2] = static_cast<float>(j + 1);
    const auto [w, o] = run(2, 18, 1, 3, {0, 0}, std::vector<float>(18, 0), v, 1.0);
    REQUIRE(o == std::vector<float>{M, -M, 9.5f, M, -M, 9.5f});
  }
  SECTION("q·k past FLT_MAX: q, k entries 1e20 (q·k = 4e40), equal scores") {
    const auto [w, o] = run(2, 2, 4, 1, std::vector<float>(8, 1e20f), std::vector<float>(8, 1e20f), {1, 2}, 1.0);
    REQUIRE(w == std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f});
    REQUIRE(o == std::vector<float>{1.5f, 1.5f});
  }
  SECTION("q·k past FLT_MAX of both signs: one key takes all the weight") {
    const auto [w, o] = run(1, 3, 1, 2, {1e20f}, {1e20f, -1e20f, 0}, {1, 2, 3, 4, 5, 6}, 1.0);
    REQUIRE(w == std::vector<float>{1, 0, 0});
    REQUIRE(o == std::vector<float>{1, 2});
  }
  SECTION("a finite q·k that overflows only when divided by 0.5, or by the smallest divisor") {
    // q·k = 4 · 1e19 · 8e18 = 3.2e38 < FLT_MAX; / 0.5 = 6.4e38.
    const auto [w, o] = run(1, 2, 4, 1, std::vector<float>(4, 1e19f), {8e18f, 8e18f, 8e18f, 8e18f, 0, 0, 0, 0},
                            {1, 2}, 0.5);
    REQUIRE(w == std::vector<float>{1, 0});
    REQUIRE(o[0] == 1.0f);
    const auto [w2, o2] = run(1, 2, 1, 1, {1e4f}, {1e5f, 2e5f}, {3, 5}, 1e-30);  // scores 1e39 and 2e39
    REQUIRE(w2 == std::vector<float>{0, 1});
    REQUIRE(o2[0] == 5.0f);
  }
  SECTION("only the rows that overflowed are computed again: the others keep the kernel's bits") {
    oracle::TestData rng(0x0f10);
    Problem p = make_problem(rng, 6, 9, 5, 3);
    std::vector<float> w(6 * 9), o(6 * 3);
    attn::attention_forward(p.q.data(), p.k.data(), p.v.data(), p.shape, 2.0, w.data(), o.data());
    for (std::size_t c = 0; c < 5; ++c) p.q[3 * 5 + c] = 3e38f;  // row 3's q·k run past FLT_MAX
    std::vector<float> w2(6 * 9), o2(6 * 3);
    attn::attention_f32(p.q.data(), p.k.data(), p.v.data(), {6, 9, 5, 3}, 0.5f, w2.data(), o2.data());
    REQUIRE_FALSE(std::isfinite(w2[27]));  // the premise: the kernel's row 3 is NaN
    attn::attention_forward(p.q.data(), p.k.data(), p.v.data(), p.shape, 2.0, w2.data(), o2.data());
    for (std::size_t i : {0, 1, 2, 4, 5}) {
      for (std::size_t j = 0; j < 9; ++j) REQUIRE(w2[i * 9 + j] == w[i * 9 + j]);
      for (std::size_t c = 0; c < 3; ++c) REQUIRE(o2[i * 3 + c] == o[i * 3 + c]);
    }
    // Row 3 against the double oracle: the largest q·k takes all the weight.
    const oracle::AttentionRef ref = oracle::attention(p.q, p.k, p.v, 6, 9, 5, 3, 2.0);
    const auto r3 = static_cast<Eigen::Index>(3);
    for (Eigen::Index j = 0; j < 9; ++j) REQUIRE(w2[27 + j] == static_cast<float>(ref.w(r3, j)));
    for (Eigen::Index c = 0; c < 3; ++c) REQUIRE(o2[9 + c] == Approx(ref.o(r3, c)).epsilon(1e-7));
  }

}
