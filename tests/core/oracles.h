// Independent references for the core's tests: naive double-precision
// formulas, explicit Eigen matrices and closed forms. Nothing here calls the
// code under test, so a test compares the core against something else.
#pragma once

#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/argument_error.h"

namespace oracle {

// Failure messages show doubles and floats in full (Catch's default is 10 and 5 digits).
inline const bool kFullPrecision = [] {
  Catch::StringMaker<double>::precision = 17;
  Catch::StringMaker<float>::precision = 9;
  return true;
}();

// ---------------------------------------------------------------------------
// Test data: a small generator of our own (splitmix64), so the test inputs do
// not depend on attn::Rng, the standard library's distributions or the build.
class TestData {
 public:
  explicit TestData(std::uint64_t seed) : x_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (x_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(next() >> 11) * 0x1p-53);
  }
  // Roughly N(0,1) (Irwin-Hall sum of 12 uniforms): only shape-ish data is needed.
  double gaussish() {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += uniform(0.0, 1.0);
    return s - 6.0;
  }
  std::vector<float> floats(std::size_t n, double lo, double hi) {
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(uniform(lo, hi));
    return v;
  }
  std::vector<double> doubles(std::size_t n, double lo, double hi) {
    std::vector<double> v(n);
    for (auto& x : v) x = uniform(lo, hi);
    return v;
  }

 private:
  std::uint64_t x_;
};

// ---------------------------------------------------------------------------
// Dot product of float inputs, in double; and the condition sum of |a_i b_i|.
inline double dot(const float* a, const float* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return s;
}
inline double dot_abs(const float* a, const float* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += std::fabs(static_cast<double>(a[i]) * static_cast<double>(b[i]));
  return s;
}

// ---------------------------------------------------------------------------
// Softmax, the textbook way: exp(s_i/d - max/d) / sum, in double.
inline std::vector<double> softmax(const std::vector<double>& s, double divisor) {
  double mx = s[0];
  for (double x : s) mx = std::fmax(mx, x);
  std::vector<double> p(s.size());
  double sum = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    p[i] = std::exp((s[i] - mx) / divisor);
    sum += p[i];
  }
  for (double& x : p) x /= sum;
  return p;
}

inline double entropy(const std::vector<double>& p) {
  double h = 0;
  for (double x : p)
    if (x > 0) h -= x * std::log(x);
  return h;
}

// ||diag(p) - p p^T||_F from the explicit matrix.
inline double jacobian_norm(const std::vector<double>& p) {
  const Eigen::Index n = static_cast<Eigen::Index>(p.size());
  const Eigen::Map<const Eigen::VectorXd> v(p.data(), n);
  const Eigen::MatrixXd j = Eigen::MatrixXd(v.asDiagonal()) - v * v.transpose();
  return j.norm();  // Frobenius
}

// ---------------------------------------------------------------------------
// Attention in double with Eigen: W = softmax_rows(Q K^T / divisor), O = W V.
struct AttentionRef {
  Eigen::MatrixXd w, o;
};
inline AttentionRef attention(const std::vector<float>& q, const std::vector<float>& k,
                              const std::vector<float>& v, std::size_t n, std::size_t m,
                              std::size_t dk, std::size_t dv, double divisor) {
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto N = static_cast<Eigen::Index>(n), M = static_cast<Eigen::Index>(m);
  const auto DK = static_cast<Eigen::Index>(dk), DV = static_cast<Eigen::Index>(dv);
  const Eigen::MatrixXd Q = Eigen::Map<const RowMajor>(q.data(), N, DK).cast<double>();
  const Eigen::MatrixXd K = Eigen::Map<const RowMajor>(k.data(), M, DK).cast<double>();
  const Eigen::MatrixXd V = Eigen::Map<const RowMajor>(v.data(), M, DV).cast<double>();
  const Eigen::MatrixXd S = Q * K.transpose() / divisor;
  Eigen::MatrixXd W(N, M);
  for (Eigen::Index i = 0; i < N; ++i) {
    const Eigen::RowVectorXd e = (S.row(i).array() - S.row(i).maxCoeff()).exp().matrix();
    W.row(i) = e / e.sum();
  }
  return {W, W * V};
}

// ---------------------------------------------------------------------------
// float's unit roundoff: one rounding of a float result is within u relative.
constexpr double kFloatU = 0x1p-24;

// Relative closeness with an explicit tolerance (Catch's Approx hides its
// default epsilon; here every tolerance is visible at the call site).
inline bool close_rel(double actual, double expected, double rel, double abs = 0.0) {
  return std::fabs(actual - expected) <= rel * std::fabs(expected) + abs;
}

// Runs `f`, which must throw attn::ArgumentError; returns argument().
template <typename F>
std::string thrown_argument(F&& f) {
  try {
    f();
  } catch (const attn::ArgumentError& e) {
    return e.argument();
  } catch (...) {
    return "<some other exception>";
  }
  return "<nothing thrown>";
}

}  // namespace oracle

// Every error case: the type, the message naming the argument, and argument().
#define REQUIRE_ARGUMENT_ERROR(expr, name)                                  \
  do {                                                                      \
    REQUIRE_THROWS_AS(expr, attn::ArgumentError);                           \
    REQUIRE_THROWS_WITH(expr, Catch::Contains(name));                       \
    REQUIRE(oracle::thrown_argument([&] { (void)(expr); }) == std::string(name)); \
  } while (false)
