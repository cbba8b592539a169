// The saturation explorer's Monte Carlo at one d_k as JS sees it, drawn in
// batches: the running means and standard errors come from the core's
// session, never merged in JS. configure's divisors: n doubles in wasm
// memory; stats(out) writes perDivisor() doubles per divisor: max prob,
// entropy and Jacobian norm, each as mean and standard error; then, with the
// distribution (issue 30), the median norm (estimate, bin lo, bin hi), key
// 0's p(1 - p) as mean and standard error, and for k = 1 .. kSatShares the
// shares of rows whose norm and whose p(1 - p) are below 10^-k (the page's
// threshold can change without drawing again).
//
// Two builds of one class: the explainer's module (what an embedded widget's
// host pays first) without the distribution, the presets' module (loaded
// when the distribution view nears the screen) with it. Same rows for the
// same seed, so both give the same means.
#pragma once

#include <memory>

#include "base/size_limits.h"
#include "explain/saturation.h"
#include "glue.h"

namespace attn::wasm {

inline constexpr int kSatShares = 8;

template <bool kDistribution>
class SaturationJs {
 public:
  static constexpr int kPer = kDistribution ? 11 + 2 * kSatShares : 6;

  Status configure(double dk, double m, double seed, std::uintptr_t divisors, double n) {
    return guarded([&] {
      session_.reset();  // a failed configure leaves no session behind
      using namespace limits;
      session_ = std::make_unique<SaturationSession>(
          size_arg("dk", dk, 1, kMaxDk), size_arg("m", m, 1, kMaxSeqLen), seed_arg(seed),
          ptr<const double>(divisors), size_arg("divisors", n, 1, kMaxSaturationDivisors));
      if constexpr (kDistribution) session_->enable_distribution();
    });
  }
  Status draw(double rows) {
    return guarded([&] { require().draw(size_arg("rows", rows, 1, kMaxSaturationRows)); });
  }
  double rows() const { return session_ ? static_cast<double>(session_->rows()) : 0; }
  double per_divisor() const { return kPer; }
  Status stats(std::uintptr_t out) {
    return guarded([&] {
      double* o = ptr<double>(out);
      if constexpr (!kDistribution) {
        for (const auto& s : require().stats()) {
          for (const MeanSe x : {s.max_prob, s.entropy, s.jacobian_norm}) {
            *o++ = x.mean;
            *o++ = x.se;
          }
        }
      } else {
        for (int k = 1; k <= kSatShares; ++k) {
          const auto all = require().stats(k);
          for (std::size_t c = 0; c < all.size(); ++c) {
            const SaturationStats& s = all[c];
            double* x = o + kPer * c;
            if (k == 1) {
              const double head[11] = {s.max_prob.mean, s.max_prob.se, s.entropy.mean, s.entropy.se,
                                       s.jacobian_norm.mean, s.jacobian_norm.se, s.jacobian_median.estimate,
                                       s.jacobian_median.lo, s.jacobian_median.hi, s.target_grad.mean, s.target_grad.se};
              for (int i = 0; i < 11; ++i) x[i] = head[i];
            }
            x[11 + 2 * (k - 1)] = s.jacobian_below;
            x[12 + 2 * (k - 1)] = s.target_below;
          }
        }
      }
    });
  }

  static void bind() {
    emscripten::class_<SaturationJs>("SaturationSession")
        .template constructor<>()
        .function("configure", &SaturationJs::configure)
        .function("draw", &SaturationJs::draw)
        .function("rows", &SaturationJs::rows)
        .function("perDivisor", &SaturationJs::per_divisor)
        .function("stats", &SaturationJs::stats);
  }

 private:
  SaturationSession& require() {
    if (!session_) throw ArgumentError("session", "state", "", "configure() must succeed before use");
    return *session_;
  }
  std::unique_ptr<SaturationSession> session_;
};

}  // namespace attn::wasm
