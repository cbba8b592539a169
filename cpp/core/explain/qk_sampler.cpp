#include "explain/qk_sampler.h"

#include <cmath>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "kernels/dot.h"

namespace attn {

namespace {

// Fills q and k for one sample: q_i = σ_q z_i, k_i = σ_k (ρ z_i + sqrt(1-ρ²) w_i).
void fill_pair(Rng& rng, const QkConfig& c, float* q, float* k) {
  const double rho_c = std::sqrt(1.0 - c.rho * c.rho);
  for (std::size_t i = 0; i < c.dk; ++i) {
    const double z = rng.normal();
    const double w = rng.normal();
    q[i] = static_cast<float>(c.sigma_q * z);
    k[i] = static_cast<float>(c.sigma_k * (c.rho * z + rho_c * w));
  }
}

}  // namespace

QkSampler::QkSampler(const QkConfig& c) : cfg_(c), rng_(c.seed) {
  check_size("dk", c.dk, 1, limits::kMaxDk);
  Divisor::value(c.divisor);
  check_real("rho", c.rho, -1.0, 1.0);
  check_real("sigma_q", c.sigma_q, 1e-6, 1e3);
  check_real("sigma_k", c.sigma_k, 1e-6, 1e3);
  check_size("bins", c.bins, 1, limits::kMaxBins);
  q_.resize(c.dk);
  k_.resize(c.dk);
  const QkSummary th = summary();
  const double half = 5.0 * std::sqrt(th.theory_var);
  hist_lo_ = th.theory_mean - half;
  hist_width_ = 2.0 * half / static_cast<double>(c.bins);
  hist_.assign(c.bins, 0.0);
  if (c.dk <= limits::kMaxProofDk) {
    x_.resize(c.dk);
    proof_sums_.assign(c.dk * c.dk, 0.0);
  }
}

void QkSampler::draw(std::size_t count) {
  check_size("samples", count, 1, limits::kMaxSamples);
  check_product("dk*samples", cfg_.dk, count, limits::kMaxSampleWork);
  const double shift = cfg_.rho * cfg_.sigma_q * cfg_.sigma_k * static_cast<double>(cfg_.dk);
  const std::size_t dk = cfg_.dk;
  for (std::size_t s = 0; s < count; ++s) {
    fill_pair(rng_, cfg_, q_.data(), k_.data());
    const double x = dot_f32(q_.data(), k_.data(), dk);
    const double y = x - shift;
    s1_ += y;
    s2_ += y * y;
    s3_ += y * y * y;
    s4_ += (y * y) * (y * y);
    const double b = std::floor((x - hist_lo_) / hist_width_);
    if (b < 0) {
      ++below_;
    } else if (b >= static_cast<double>(hist_.size())) {
      ++above_;
    } else {
      hist_[static_cast<std::size_t>(b)] += 1.0;
    }
    if (!proof_sums_.empty()) {
      for (std::size_t i = 0; i < dk; ++i)
        x_[i] = static_cast<double>(q_[i]) * static_cast<double>(k_[i]);
      for (std::size_t i = 0; i < dk; ++i)
        for (std::size_t j = 0; j < dk; ++j) proof_sums_[i * dk + j] += x_[i] * x_[j];
    }
  }
  n_ += count;
}

QkSummary QkSampler::summary() const {
  QkSummary r;
  const double dk = static_cast<double>(cfg_.dk);
  const double ss = cfg_.sigma_q * cfg_.sigma_k;
  r.theory_mean = cfg_.rho * ss * dk;
  r.theory_var = ss * ss * dk * (1.0 + cfg_.rho * cfg_.rho);
  r.theory_scaled_var = r.theory_var / (cfg_.divisor * cfg_.divisor);
  r.samples = n_;
  r.hist_lo = hist_lo_;
  r.hist_hi = hist_lo_ + hist_width_ * static_cast<double>(hist_.size());
  r.below = below_;
  r.above = above_;
  if (n_ < kMinStderrSamples) r.var_stderr = std::nan("");
  if (n_ == 0) return r;
  const double n = static_cast<double>(n_);
  const double d = s1_ / n;  // mean minus the shift
  r.mean = r.theory_mean + d;
  const double m2 = s2_ / n - d * d;
  r.var = n > 1 ? m2 * n / (n - 1) : 0.0;
  if (r.var < 0) r.var = 0;
  const double m4 = s4_ / n - 4 * d * s3_ / n + 6 * d * d * s2_ / n - 3 * d * d * d * d;
  if (n_ >= kMinStderrSamples) r.var_stderr = std::sqrt(std::fmax(m4 - m2 * m2, 0.0) / n);
  // Dividing every sample by c divides the mean by c and the variance by c².
  r.scaled_mean = r.mean / cfg_.divisor;
  r.scaled_var = r.var / (cfg_.divisor * cfg_.divisor);
  return r;
}

std::vector<double> QkSampler::proof_means() const {
  std::vector<double> out(proof_sums_.size(), 0.0);
  if (n_ == 0) return out;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = proof_sums_[i] / static_cast<double>(n_);
  return out;
}

double QkSampler::proof_theory(std::size_t i, std::size_t j) const {
  const double ss2 = cfg_.sigma_q * cfg_.sigma_q * cfg_.sigma_k * cfg_.sigma_k;
  const double r2 = cfg_.rho * cfg_.rho;
  return i == j ? ss2 * (1.0 + 2.0 * r2) : ss2 * r2;
}

void check_score_row(std::size_t dk, std::size_t m) {
  check_size("dk", dk, 1, limits::kMaxDk);
  check_size("m", m, 1, limits::kMaxSeqLen);
  check_product("dk*m", dk, m, limits::kMaxSampleWork);
}

void sample_score_row(std::size_t dk, std::size_t m, std::uint64_t seed, float* scores) {
  check_score_row(dk, m);
  check_not_null("scores", scores);
  Rng rng(seed);
  std::vector<float> q(dk), k(dk);
  for (auto& x : q) x = static_cast<float>(rng.normal());
  for (std::size_t j = 0; j < m; ++j) {
    for (auto& x : k) x = static_cast<float>(rng.normal());
    scores[j] = dot_f32(q.data(), k.data(), dk);
  }
}

}  // namespace attn
