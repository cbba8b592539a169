// The one file that knows about Emscripten: it turns JS calls into core calls.
// Calls are coarse: arrays travel as pointers into wasm memory (the JS loader
// copies a whole typed array in with one set() and reads results back with one
// slice()). Errors come back as a message string, never as a thrown C++
// exception, so no stack is left half-unwound and nothing leaks; the loader
// turns a non-empty message into a JS Error.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "../core/attention.h"
#include "../core/divisor.h"
#include "../core/dot.h"
#include "../core/argument_error.h"
#include "../core/size_limits.h"
#include "../core/qk_sampler.h"
#include "../core/softmax.h"
#include "../core/text.h"
#include "../bench/bench_cases.h"
#include "../bench/kernel_bench.h"

using namespace emscripten;

namespace {

template <typename T>
T* ptr(std::uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

template <typename F>
std::string guarded(F&& f) {
  try {
    f();
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

// JS numbers arrive as doubles; reject -1, 2.5 or NaN here with the same
// wording as the core, rather than letting them wrap around as size_t.
std::size_t size_arg(const char* name, double v, std::size_t lo, std::size_t hi) {
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || std::floor(v) != v) {
    throw attn::ArgumentError(name, std::string(name) + " must be an integer in [" +
                                        std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                                        attn::num_exact(v));
  }
  return static_cast<std::size_t>(v);
}

std::uint64_t seed_from(double s) {
  if (!(s >= 0 && s <= 9007199254740991.0) || std::floor(s) != s)
    throw attn::ArgumentError("seed", "seed must be an integer in [0, 9007199254740991]");
  return static_cast<std::uint64_t>(s);
}

struct SoftmaxResult {
  std::string error;
  double entropy = 0, maxProb = 0, jacobianNorm = 0;
  int argmax = 0;
};

// scaled may be 0: then scores / divisor is not written.
SoftmaxResult softmax_stats(std::uintptr_t scores, double n, double divisor, std::uintptr_t probs,
                            std::uintptr_t scaled) {
  SoftmaxResult r;
  r.error = guarded([&] {
    const auto st = attn::softmax_stats(ptr<const double>(scores),
                                        size_arg("scores length", n, 1, attn::limits::kMaxScores),
                                        divisor, ptr<double>(probs), ptr<double>(scaled));
    r.entropy = st.entropy;
    r.maxProb = st.max_prob;
    r.jacobianNorm = st.jacobian_norm;
    r.argmax = static_cast<int>(st.argmax);
  });
  return r;
}

struct DivisorResult {
  std::string error, label;
  double value = 0;
};

DivisorResult resolve_divisor(const std::string& text, double dk) {
  DivisorResult r;
  r.error = guarded([&] {
    const auto d = attn::Divisor::parse(text);
    // A plain number ignores d_k, so only 'sqrt' and 'dk' check it.
    const bool uses_dk = d.kind() != attn::Divisor::Kind::Value;
    r.value = d.resolve(uses_dk ? size_arg("dk", dk, 1, attn::limits::kMaxDk) : 1);
    r.label = d.label();
  });
  return r;
}

std::string attention_forward(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, double n,
                              double m, double dk, double dv, double divisor,
                              std::uintptr_t weights, std::uintptr_t out) {
  using namespace attn::limits;
  return guarded([&] {
    const attn::AttentionShape s{size_arg("n", n, 1, kMaxSeqLen), size_arg("m", m, 1, kMaxSeqLen),
                                 size_arg("dk", dk, 1, kMaxDk), size_arg("dv", dv, 1, kMaxDk)};
    attn::attention_forward(ptr<const float>(q), ptr<const float>(k), ptr<const float>(v), s,
                            divisor, ptr<float>(weights), ptr<float>(out));
  });
}

std::string sample_score_row(double dk, double m, double seed, std::uintptr_t scores) {
  using namespace attn::limits;
  return guarded([&] {
    attn::sample_score_row(size_arg("dk", dk, 1, kMaxDk), size_arg("m", m, 1, kMaxSeqLen),
                           seed_from(seed), ptr<float>(scores));
  });
}

struct QkOptions {
  double dk = 64, divisor = 8, rho = 0, sigmaQ = 1, sigmaK = 1, seed = 0, bins = 64;
};

struct QkSummaryJs {
  std::string error;
  double samples = 0, mean = 0, var = 0, varStderr = 0, scaledMean = 0, scaledVar = 0;
  double theoryMean = 0, theoryVar = 0, theoryScaledVar = 0, histLo = 0, histHi = 0;
  double below = 0, above = 0;
};

// A Monte Carlo run that lives across calls, so a worker can stream batches.
class QkSession {
 public:
  std::string configure(const QkOptions& o) {
    return guarded([&] {
      attn::QkConfig c;
      c.dk = size_arg("dk", o.dk, 1, attn::limits::kMaxDk);
      c.divisor = o.divisor;
      c.rho = o.rho;
      c.sigma_q = o.sigmaQ;
      c.sigma_k = o.sigmaK;
      c.seed = seed_from(o.seed);
      c.bins = size_arg("bins", o.bins, 1, attn::limits::kMaxBins);
      sampler_ = std::make_unique<attn::QkSampler>(c);
    });
  }
  std::string draw(double count) {
    return guarded(
        [&] { require().draw(size_arg("samples", count, 1, attn::limits::kMaxSamples)); });
  }
  QkSummaryJs summary() {
    QkSummaryJs r;
    r.error = guarded([&] {
      const auto s = require().summary();
      r.samples = static_cast<double>(s.samples);
      r.mean = s.mean;
      r.var = s.var;
      r.varStderr = s.var_stderr;
      r.scaledMean = s.scaled_mean;
      r.scaledVar = s.scaled_var;
      r.theoryMean = s.theory_mean;
      r.theoryVar = s.theory_var;
      r.theoryScaledVar = s.theory_scaled_var;
      r.histLo = s.hist_lo;
      r.histHi = s.hist_hi;
      r.below = static_cast<double>(s.below);
      r.above = static_cast<double>(s.above);
    });
    return r;
  }
  // Views into wasm memory: valid until the next call; the loader copies them at once.
  val histogram() { return view(sampler_ ? sampler_->histogram() : empty_); }
  val proofMeans() {
    proof_ = sampler_ ? sampler_->proof_means() : std::vector<double>{};
    return view(proof_);
  }

 private:
  attn::QkSampler& require() {
    if (!sampler_) throw attn::ArgumentError("sampler", "configure() must succeed before use");
    return *sampler_;
  }
  static val view(const std::vector<double>& v) { return val(typed_memory_view(v.size(), v.data())); }
  std::unique_ptr<attn::QkSampler> sampler_;
  std::vector<double> proof_, empty_;
};

struct BuildInfo {
  bool simd = false;
  std::string dotKernel;
};

BuildInfo build_info() {
#if defined(__wasm_simd128__)
  return {true, attn::dot_f32_kernel_name()};
#else
  return {false, attn::dot_f32_kernel_name()};
#endif
}

// Test hooks for the JS side: run both dot kernels over the same arrays.
float dot_kernel(std::uintptr_t a, std::uintptr_t b, double n) {
  return attn::dot_f32(ptr<const float>(a), ptr<const float>(b), static_cast<std::size_t>(n));
}
float dot_scalar(std::uintptr_t a, std::uintptr_t b, double n) {
  return attn::dot_f32__scalar(ptr<const float>(a), ptr<const float>(b), static_cast<std::size_t>(n));
}

struct BenchResult {
  std::string error;
  double seconds = 0, flops = 0;
};

// One timed sample of a benchmark case; the JS side repeats it and takes medians.
BenchResult bench_run(const std::string& kernel, double n, double d, double iters) {
  BenchResult r;
  r.error = guarded([&] {
    const attn::bench::Case c{kernel, size_arg("n", n, 1, 1u << 24), size_arg("d", d, 0, 4096)};
    r.seconds = attn::bench::run_seconds(c, size_arg("iters", iters, 1, 1u << 30));
    r.flops = attn::bench::flops(c) * iters;
  });
  return r;
}

// The benchmark grid as JSON: [{"kernel":"dot","n":64,"d":0}, ...].
std::string bench_cases_json(bool smoke) {
  std::string out = "[";
  for (const auto& c : attn::bench::bench_cases(smoke)) {
    out += (out.size() > 1 ? "," : "");
    out += "{\"kernel\":\"" + c.kernel + "\",\"n\":" + std::to_string(c.n) + ",\"d\":" +
           std::to_string(c.d) + "}";
  }
  return out + "]";
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab) {
  value_object<SoftmaxResult>("SoftmaxResult")
      .field("error", &SoftmaxResult::error)
      .field("entropy", &SoftmaxResult::entropy)
      .field("maxProb", &SoftmaxResult::maxProb)
      .field("jacobianNorm", &SoftmaxResult::jacobianNorm)
      .field("argmax", &SoftmaxResult::argmax);
  value_object<DivisorResult>("DivisorResult")
      .field("error", &DivisorResult::error)
      .field("label", &DivisorResult::label)
      .field("value", &DivisorResult::value);
  value_object<QkOptions>("QkOptions")
      .field("dk", &QkOptions::dk)
      .field("divisor", &QkOptions::divisor)
      .field("rho", &QkOptions::rho)
      .field("sigmaQ", &QkOptions::sigmaQ)
      .field("sigmaK", &QkOptions::sigmaK)
      .field("seed", &QkOptions::seed)
      .field("bins", &QkOptions::bins);
  value_object<QkSummaryJs>("QkSummary")
      .field("error", &QkSummaryJs::error)
      .field("samples", &QkSummaryJs::samples)
      .field("mean", &QkSummaryJs::mean)
      .field("var", &QkSummaryJs::var)
      .field("varStderr", &QkSummaryJs::varStderr)
      .field("scaledMean", &QkSummaryJs::scaledMean)
      .field("scaledVar", &QkSummaryJs::scaledVar)
      .field("theoryMean", &QkSummaryJs::theoryMean)
      .field("theoryVar", &QkSummaryJs::theoryVar)
      .field("theoryScaledVar", &QkSummaryJs::theoryScaledVar)
      .field("histLo", &QkSummaryJs::histLo)
      .field("histHi", &QkSummaryJs::histHi)
      .field("below", &QkSummaryJs::below)
      .field("above", &QkSummaryJs::above);
  value_object<BuildInfo>("BuildInfo")
      .field("simd", &BuildInfo::simd)
      .field("dotKernel", &BuildInfo::dotKernel);

  value_object<BenchResult>("BenchResult")
      .field("error", &BenchResult::error)
      .field("seconds", &BenchResult::seconds)
      .field("flops", &BenchResult::flops);

  function("softmaxStats", &softmax_stats);
  function("benchRun", &bench_run);
  function("benchCasesJson", &bench_cases_json);
  function("resolveDivisor", &resolve_divisor);
  function("attentionForward", &attention_forward);
  function("sampleScoreRow", &sample_score_row);
  function("buildInfo", &build_info);
  function("dotKernel", &dot_kernel);
  function("dotScalar", &dot_scalar);
  class_<QkSession>("QkSession")
      .constructor<>()
      .function("configure", &QkSession::configure)
      .function("draw", &QkSession::draw)
      .function("summary", &QkSession::summary)
      .function("histogram", &QkSession::histogram)
      .function("proofMeans", &QkSession::proofMeans);
}
