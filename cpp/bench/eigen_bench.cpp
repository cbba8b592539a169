#include "eigen_bench.h"

#include <Eigen/Dense>
#include <chrono>
#include <cmath>

namespace attn::bench {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
float g_eigen_sink = 0;

template <typename F>
double time_loop(std::size_t iters, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < iters; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

double eigen_run_seconds(const Case& c, std::size_t iters) {
  const auto n = static_cast<Eigen::Index>(c.n), d = static_cast<Eigen::Index>(c.d);
  if (c.kernel == "dot") {
    const Eigen::VectorXf a = Eigen::VectorXf::Random(n), b = Eigen::VectorXf::Random(n);
    float acc = 0;
    const double t = time_loop(iters, [&] { acc += a.dot(b); });
    g_eigen_sink += acc;
    return t;
  }
  const RowMat q = RowMat::Random(n, d), k = RowMat::Random(n, d), v = RowMat::Random(n, d);
  RowMat s(n, n), o(n, d);
  const float scale = 1.0f / std::sqrt(static_cast<float>(c.d));
  if (c.kernel == "qk") {
    const double t = time_loop(iters, [&] { s.noalias() = scale * (q * k.transpose()); });
    g_eigen_sink += s(0, 0);
    return t;
  }
  const double t = time_loop(iters, [&] {
    s.noalias() = scale * (q * k.transpose());
    s = (s.colwise() - s.rowwise().maxCoeff()).array().exp().matrix();
    s.array().colwise() /= s.rowwise().sum().array();
    o.noalias() = s * v;
  });
  g_eigen_sink += o(0, 0);
  return t;
}

}  // namespace attn::bench
