// The explainer's module (index.html, every embedded widget but the training
// comparison): softmax statistics, the divisor, one sampled score row, the q·k
// Monte Carlo and the saturation explorer's Monte Carlo (both as sessions that
// draw in batches). Attention forward is not here: no widget calls it
// (attention_bindings.cpp, in the benchmarks' module). Each function sits beside its registration at the bottom.
#include <memory>
#include <vector>

#include "base/divisor.h"
#include "base/size_limits.h"
#include "explain/qk_sampler.h"
#include "explain/saturation.h"
#include "explain/softmax.h"
#include "glue.h"
#include "saturation_js.h"
#include "kernels/dot.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

struct SoftmaxResult {
  std::string error, argument, kind, params;
  SoftmaxStats stats;
};

// scaled may be 0: then scores / divisor is not written.
SoftmaxResult softmax_stats_js(std::uintptr_t scores, double n, double divisor, std::uintptr_t probs,
                               std::uintptr_t scaled) {
  return result<SoftmaxResult>([&](SoftmaxResult& r) {
    r.stats = softmax_stats(ptr<const double>(scores), size_arg("scores length", n, 1, limits::kMaxScores),
                            divisor, ptr<double>(probs), ptr<double>(scaled));
  });
}

struct DivisorResult {
  std::string error, argument, kind, params, label;
  double value = 0;
};

DivisorResult resolve_divisor(const std::string& text, double dk) {
  return result<DivisorResult>([&](DivisorResult& r) {
    const auto d = Divisor::parse(text);
    // A plain number ignores d_k, so only 'sqrt' and 'dk' check it.
    const bool uses_dk = d.kind() != Divisor::Kind::Value;
    r.value = d.resolve(uses_dk ? size_arg("dk", dk, 1, limits::kMaxDk) : 1);
    r.label = d.label();
  });
}

Status check_score_row_js(double dk, double m) {
  return guarded([&] { check_score_row(size_arg("dk", dk, 1, limits::kMaxDk), size_arg("m", m, 1, limits::kMaxSeqLen)); });
}

Status sample_score_row_js(double dk, double m, double seed, std::uintptr_t scores) {
  return guarded([&] {
    sample_score_row(size_arg("dk", dk, 1, limits::kMaxDk), size_arg("m", m, 1, limits::kMaxSeqLen),
                     seed_arg(seed), ptr<float>(scores));
  });
}

// The q·k Monte Carlo as JS sees its options (numbers arrive as doubles).
struct QkOptions {
  double dk = 64, divisor = 8, rho = 0, sigmaQ = 1, sigmaK = 1, seed = 0, bins = 64;
};

struct QkSummaryResult {
  std::string error, argument, kind, params;
  QkSummary summary;
};

// A Monte Carlo run that lives across calls, so a worker can stream batches.
class QkSession {
 public:
  Status configure(const QkOptions& o) {
    return guarded([&] {
      sampler_.reset();  // a failed configure leaves no session behind
      QkConfig c;
      c.dk = size_arg("dk", o.dk, 1, limits::kMaxDk);
      c.divisor = o.divisor;
      c.rho = o.rho;
      c.sigma_q = o.sigmaQ;
      c.sigma_k = o.sigmaK;
      c.seed = seed_arg(o.seed);
      c.bins = size_arg("bins", o.bins, 1, limits::kMaxBins);
      sampler_ = std::make_unique<QkSampler>(c);
    });
  }
  Status draw(double count) {
    return guarded([&] { require().draw(size_arg("samples", count, 1, limits::kMaxSamples)); });
  }
  QkSummaryResult summary() {
    return result<QkSummaryResult>([&](QkSummaryResult& r) { r.summary = require().summary(); });
  }
  // Views into wasm memory: valid until the next call; the wrapper copies them at once.
  val histogram() { return sampler_ ? view(sampler_->histogram().data(), sampler_->histogram().size()) : view<double>(nullptr, 0); }
  val proofMeans() {
    proof_ = sampler_ ? sampler_->proof_means() : std::vector<double>{};
    return view(proof_.data(), proof_.size());
  }

 private:
  QkSampler& require() {
    if (!sampler_) throw ArgumentError("session", "state", "", "configure() must succeed before use");
    return *sampler_;
  }
  std::unique_ptr<QkSampler> sampler_;
  std::vector<double> proof_;
};

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_explain) {
  using namespace attn;
  using namespace attn::wasm;

  value_object<SoftmaxStats>("SoftmaxStats")
      .field("entropy", &SoftmaxStats::entropy)
      .field("maxProb", &SoftmaxStats::max_prob)
      .field("jacobianNorm", &SoftmaxStats::jacobian_norm)
      .field("argmax", &SoftmaxStats::argmax);
  value_object<SoftmaxResult> softmax_result("SoftmaxResult");
  status_fields(softmax_result);
  softmax_result.field("stats", &SoftmaxResult::stats);
  function("softmaxStats", &softmax_stats_js);

  value_object<DivisorResult> divisor_result("DivisorResult");
  status_fields(divisor_result);
  divisor_result.field("label", &DivisorResult::label).field("value", &DivisorResult::value);
  function("resolveDivisor", &resolve_divisor);

  function("sampleScoreRow", &sample_score_row_js);
  function("checkScoreRow", &check_score_row_js);
  SaturationJs<false>::bind();

  value_object<QkOptions>("QkOptions")
      .field("dk", &QkOptions::dk)
      .field("divisor", &QkOptions::divisor)
      .field("rho", &QkOptions::rho)
      .field("sigmaQ", &QkOptions::sigmaQ)
      .field("sigmaK", &QkOptions::sigmaK)
      .field("seed", &QkOptions::seed)
      .field("bins", &QkOptions::bins);
  value_object<QkSummary>("QkSummary")
      .field("samples", &QkSummary::samples)
      .field("mean", &QkSummary::mean)
      .field("var", &QkSummary::var)
      .field("varStderr", &QkSummary::var_stderr)
      .field("scaledMean", &QkSummary::scaled_mean)
      .field("scaledVar", &QkSummary::scaled_var)
      .field("theoryMean", &QkSummary::theory_mean)
      .field("theoryVar", &QkSummary::theory_var)
      .field("theoryScaledVar", &QkSummary::theory_scaled_var)
      .field("histLo", &QkSummary::hist_lo)
      .field("histHi", &QkSummary::hist_hi)
      .field("below", &QkSummary::below)
      .field("above", &QkSummary::above);
  value_object<QkSummaryResult> qk_summary_result("QkSummaryResult");
  status_fields(qk_summary_result);
  qk_summary_result.field("summary", &QkSummaryResult::summary);
  class_<QkSession>("QkSession")
      .constructor<>()
      .function("configure", &QkSession::configure)
      .function("draw", &QkSession::draw)
      .function("summary", &QkSession::summary)
      .function("histogram", &QkSession::histogram)
      .function("proofMeans", &QkSession::proofMeans);

}
