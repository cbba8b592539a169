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

#include "../bench/bench_cases.h"
#include "../bench/kernel_bench.h"
#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "base/text.h"
#include "checker/qk_input.h"
#include "checker/report.h"
#include "explain/attention.h"
#include "explain/qk_sampler.h"
#include "explain/saturation.h"
#include "explain/softmax.h"
#include "kernels/dot.h"
#include "kernels/matmul.h"
#include "train/trainer.h"

using namespace emscripten;

namespace {

template <typename T>
T* ptr(std::uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

// Runs f; returns '' or the error's message. If `argument` is given it is
// cleared, then receives the argument an ArgumentError named, so the page can
// put a translated lead-in next to the right control.
template <typename F>
std::string guarded(F&& f, std::string* argument = nullptr) {
  if (argument) argument->clear();
  try {
    f();
    return {};
  } catch (const attn::ArgumentError& e) {
    if (argument) *argument = e.argument();
    return e.what();
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

// Saturation Monte Carlo for the page's explorer: one call per d_k point.
// divisors: n doubles in; out: 6 doubles per divisor (max prob, entropy and
// Jacobian norm, each as mean and standard error). `argument` names the bad
// argument on error, so the page can translate its lead-in.
struct SaturationResultJs {
  std::string error, argument;
};

SaturationResultJs saturation_point(double dk, double m, double rows, double seed,
                                    std::uintptr_t divisors, double n, std::uintptr_t out) {
  using namespace attn::limits;
  SaturationResultJs r;
  r.error = guarded([&] {
    const std::size_t nd = size_arg("divisors", n, 1, attn::kMaxSaturationDivisors);
    const auto stats = attn::saturation_point(
        size_arg("dk", dk, 1, kMaxDk), size_arg("m", m, 1, kMaxSeqLen),
        size_arg("rows", rows, 1, attn::kMaxSaturationRows), seed_from(seed),
        ptr<const double>(divisors), nd);
    double* o = ptr<double>(out);
    for (const auto& s : stats) {
      for (const attn::MeanSe x : {s.max_prob, s.entropy, s.jacobian_norm}) {
        *o++ = x.mean;
        *o++ = x.se;
      }
    }
  }, &r.argument);
  return r;
}

// The checker of a user's q and k: the bytes of one file (q and k together)
// or of two (q, then k), already copied into wasm memory by the worker; one
// call parses, checks and returns the report as the JSON the CLI prints.
struct CheckOptionsJs {
  std::string fileName, fileName2;  // their extensions pick the format unless `format` does
  std::string format, divisor, q, k;
  double sequences = 0;  // 0: an .npz's "sequences" array, else 1
};

struct CheckResultJs {
  std::string error, argument, json;
};

CheckResultJs check_tensors(std::uintptr_t data, double size, std::uintptr_t data2, double size2,
                            const CheckOptionsJs& o) {
  CheckResultJs r;
  r.error = guarded([&] {
    const auto divisor = attn::Divisor::parse(o.divisor);
    const auto forced = attn::parse_format(o.format);
    auto format_of = [&](const std::string& name) {
      return forced != attn::TensorFormat::Auto ? forced : attn::format_from_name(name);
    };
    // The core refuses files above kMaxCheckFileBytes with its own message.
    const std::size_t n = size_arg("size", size, 0, 0xFFFFFFFFu);
    const std::size_t n2 = size_arg("size2", size2, 0, 0xFFFFFFFFu);
    const std::size_t seqs = size_arg("sequences", o.sequences, 0, attn::limits::kMaxSeqLen);
    attn::QkTensors t;
    if (data2 == 0) {
      t = attn::load_qk(ptr<const std::uint8_t>(data), n, format_of(o.fileName), {o.q, o.k, seqs});
    } else {
      t = attn::load_qk_pair(ptr<const std::uint8_t>(data), n, format_of(o.fileName),
                             ptr<const std::uint8_t>(data2), n2, format_of(o.fileName2), seqs);
    }
    r.json = attn::check_report_json(attn::check_qk(t, divisor));
  }, &r.argument);
  return r;
}

// The training lab: one TrainSession per run, living in a Web Worker. Calls
// are coarse: step(count) runs a batch of steps, and the metrics rows come
// back as one Float64Array view [rows x columns], in the order of
// columnsJson(): step, loss, accuracy, attn_entropy, attn_max, attn_correct,
// logit_max_abs, logit_spread, grad_wq, grad_wk, grad_wv, grad_wo, then
// grad_wq_h0.., grad_wk_h0.. per head (meanings in core/trainer.h).
// Views point into wasm memory and are valid until the next call: copy them.
struct TrainOptionsJs {
  std::string task = "recall", divisor = "sqrt", optimizer = "adam", init = "lecun";
  double dk = 256, heads = 2, dModel = 64, dv = 32, lr = 8e-3, batch = 64, seed = 0, logEvery = 10;
};

struct TrainInitJs {
  std::string error;
  double samples = 0, varQ = 0, varK = 0, varQk = 0, theoryVarQk = 0, varLogit = 0;
  double attnEntropy = 0, attnMax = 0, loss = 0, accuracy = 0;
};

struct TrainEvalJs {
  std::string error;
  double samples = 0, loss = 0, accuracy = 0, attnCorrect = 0;
};

struct TrainShapeJs {  // shapes of the arrays behind the map and snapshot views
  std::string error;
  double samples = 0, heads = 0, seq = 0, dk = 0;
};

struct TrainLrJs {
  std::string error;
  double lr = 0;
};

// lr that keeps lr·d_model at the reference runs' (see core/train_config.h).
TrainLrJs train_reference_lr(const std::string& optimizer, double dk, double d_model) {
  TrainLrJs r;
  r.error = guarded([&] {
    namespace L = attn::train_limits;
    r.lr = attn::reference_lr(attn::parse_optimizer(optimizer), size_arg("dk", dk, 1, L::kMaxDk),
                              size_arg("dModel", d_model, 1, L::kMaxDModel));
  });
  return r;
}

class TrainSession {
 public:
  std::string configure(const TrainOptionsJs& o) {
    return run([&] {
      trainer_.reset();  // a failed configure leaves no session behind
      namespace L = attn::train_limits;
      attn::TrainConfig c;
      c.task = attn::parse_task(o.task);
      c.dk = size_arg("dk", o.dk, 1, L::kMaxDk);
      c.heads = size_arg("heads", o.heads, 1, L::kMaxHeads);
      c.d_model = size_arg("dModel", o.dModel, 1, L::kMaxDModel);
      c.dv = size_arg("dv", o.dv, 1, L::kMaxDk);
      attn::apply_divisor_option(c, o.divisor);
      c.optimizer = attn::parse_optimizer(o.optimizer);
      c.lr = o.lr;
      c.init = attn::parse_init(o.init);
      c.batch = size_arg("batch", o.batch, 1, L::kMaxBatch);
      c.seed = seed_from(o.seed);
      c.log_every = size_arg("logEvery", o.logEvery, 1, L::kMaxLogEvery);
      trainer_ = std::make_unique<attn::Trainer>(c);
    });
  }
  std::string step(double count) {
    return run([&] { require().step(size_arg("count", count, 1, attn::train_limits::kMaxStepsPerCall)); });
  }
  // The argument the last error named ("" when the last call succeeded).
  std::string errorArgument() const { return argument_; }

  double stepsDone() const { return trainer_ ? static_cast<double>(trainer_->steps_done()) : 0; }
  double rowCount() const { return trainer_ ? static_cast<double>(trainer_->row_count()) : 0; }
  double columns() const { return trainer_ ? static_cast<double>(trainer_->columns()) : 0; }
  double stepsTo90() const { return trainer_ ? static_cast<double>(trainer_->steps_to_90()) : 0; }
  double divisorValue() const { return trainer_ ? trainer_->divisor() : 0; }
  std::string columnsJson() const {
    std::string out = "[";
    for (const auto& c : attn::metric_columns(trainer_ ? trainer_->config().heads : 0))
      out += (out.size() > 1 ? ",\"" : "\"") + c + "\"";
    return out + "]";
  }
  // Rows fromRow .. rowCount()-1, flat.
  val metrics(double from_row) {
    if (!trainer_ || !(from_row >= 0) || from_row >= rowCount()) return view<double>(nullptr, 0);
    const std::size_t cols = trainer_->columns(), from = static_cast<std::size_t>(from_row);
    return view(trainer_->rows().data() + from * cols, trainer_->rows().size() - from * cols);
  }
  // The last step's row, logged or not (for a live readout).
  val latest() {
    return trainer_ ? view(trainer_->latest().data(), trainer_->latest().size()) : view<double>(nullptr, 0);
  }
  TrainInitJs initStats() {
    TrainInitJs r;
    r.error = run([&] {
      const auto& s = require().init_stats();
      r.samples = static_cast<double>(s.samples);
      r.varQ = s.var_q;
      r.varK = s.var_k;
      r.varQk = s.var_qk;
      r.theoryVarQk = s.theory_var_qk;
      r.varLogit = s.var_logit;
      r.attnEntropy = s.attn_entropy;
      r.attnMax = s.attn_max;
      r.loss = s.loss;
      r.accuracy = s.accuracy;
    });
    return r;
  }
  TrainEvalJs evaluate(double samples) {
    TrainEvalJs r;
    r.error = run([&] {
      const auto e = require().evaluate(size_arg("samples", samples, 1, attn::train_limits::kMaxEvalSamples));
      r.samples = static_cast<double>(e.samples);
      r.loss = e.loss;
      r.accuracy = e.accuracy;
      r.attnCorrect = e.attn_correct;
    });
    return r;
  }
  // Attention of the query row on the fixed examples; then mapWeights()
  // [samples x heads x seq] and mapLabels(): tok_a [samples x seq], tok_b
  // [samples x seq], target, answer, predicted [samples each], as Int32.
  TrainShapeJs attentionMaps() {
    TrainShapeJs r;
    r.error = run([&] {
      maps_ = require().attention_maps();
      labels_.clear();
      for (const auto* v : {&maps_.tok_a, &maps_.tok_b, &maps_.target, &maps_.answer, &maps_.predicted})
        labels_.insert(labels_.end(), v->begin(), v->end());
      r.samples = static_cast<double>(maps_.examples);
      r.heads = static_cast<double>(maps_.heads);
      r.seq = static_cast<double>(maps_.seq);
      r.dk = static_cast<double>(require().config().dk);
    });
    return r;
  }
  val mapWeights() { return view(maps_.weights.data(), maps_.weights.size()); }
  val mapLabels() { return view(labels_.data(), labels_.size()); }
  // q [samples x heads·dk] and K [samples x seq x heads·dk] before
  // QK-LayerNorm, and the logits [samples x heads x seq], of a fixed batch.
  TrainShapeJs qkSnapshot(double samples) {
    TrainShapeJs r;
    r.error = run([&] {
      snap_ = require().qk_snapshot(size_arg("samples", samples, 1, require().config().batch));
      r.samples = static_cast<double>(snap_.samples);
      r.heads = static_cast<double>(snap_.heads);
      r.seq = static_cast<double>(snap_.seq);
      r.dk = static_cast<double>(snap_.dk);
    });
    return r;
  }
  val snapshotQ() { return view(snap_.q.data(), snap_.q.size()); }
  val snapshotK() { return view(snap_.k.data(), snap_.k.size()); }
  val snapshotLogits() { return view(snap_.logits.data(), snap_.logits.size()); }

 private:
  template <typename F>
  std::string run(F&& f) {
    return guarded(std::forward<F>(f), &argument_);
  }
  attn::Trainer& require() {
    if (!trainer_) throw attn::ArgumentError("session", "configure() must succeed before use");
    return *trainer_;
  }
  template <typename T>
  static val view(const T* p, std::size_t n) {
    return val(typed_memory_view(n, p));
  }
  std::unique_ptr<attn::Trainer> trainer_;
  std::string argument_;
  attn::AttentionMaps maps_;
  std::vector<int> labels_;
  attn::QkSnapshot snap_;
};

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
  value_object<SaturationResultJs>("SaturationResult")
      .field("error", &SaturationResultJs::error)
      .field("argument", &SaturationResultJs::argument);
  function("saturationPoint", &saturation_point);
  value_object<CheckOptionsJs>("CheckOptions")
      .field("fileName", &CheckOptionsJs::fileName)
      .field("fileName2", &CheckOptionsJs::fileName2)
      .field("format", &CheckOptionsJs::format)
      .field("divisor", &CheckOptionsJs::divisor)
      .field("q", &CheckOptionsJs::q)
      .field("k", &CheckOptionsJs::k)
      .field("sequences", &CheckOptionsJs::sequences);
  value_object<CheckResultJs>("CheckResult")
      .field("error", &CheckResultJs::error)
      .field("argument", &CheckResultJs::argument)
      .field("json", &CheckResultJs::json);
  function("checkTensors", &check_tensors);
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

  // The training lab.
  value_object<TrainOptionsJs>("TrainOptions")
      .field("task", &TrainOptionsJs::task)
      .field("dk", &TrainOptionsJs::dk)
      .field("heads", &TrainOptionsJs::heads)
      .field("dModel", &TrainOptionsJs::dModel)
      .field("dv", &TrainOptionsJs::dv)
      .field("divisor", &TrainOptionsJs::divisor)
      .field("optimizer", &TrainOptionsJs::optimizer)
      .field("lr", &TrainOptionsJs::lr)
      .field("init", &TrainOptionsJs::init)
      .field("batch", &TrainOptionsJs::batch)
      .field("seed", &TrainOptionsJs::seed)
      .field("logEvery", &TrainOptionsJs::logEvery);
  value_object<TrainInitJs>("TrainInit")
      .field("error", &TrainInitJs::error)
      .field("samples", &TrainInitJs::samples)
      .field("varQ", &TrainInitJs::varQ)
      .field("varK", &TrainInitJs::varK)
      .field("varQk", &TrainInitJs::varQk)
      .field("theoryVarQk", &TrainInitJs::theoryVarQk)
      .field("varLogit", &TrainInitJs::varLogit)
      .field("attnEntropy", &TrainInitJs::attnEntropy)
      .field("attnMax", &TrainInitJs::attnMax)
      .field("loss", &TrainInitJs::loss)
      .field("accuracy", &TrainInitJs::accuracy);
  value_object<TrainEvalJs>("TrainEval")
      .field("error", &TrainEvalJs::error)
      .field("samples", &TrainEvalJs::samples)
      .field("loss", &TrainEvalJs::loss)
      .field("accuracy", &TrainEvalJs::accuracy)
      .field("attnCorrect", &TrainEvalJs::attnCorrect);
  value_object<TrainShapeJs>("TrainShape")
      .field("error", &TrainShapeJs::error)
      .field("samples", &TrainShapeJs::samples)
      .field("heads", &TrainShapeJs::heads)
      .field("seq", &TrainShapeJs::seq)
      .field("dk", &TrainShapeJs::dk);
  value_object<TrainLrJs>("TrainLr").field("error", &TrainLrJs::error).field("lr", &TrainLrJs::lr);
  function("trainReferenceLr", &train_reference_lr);
  class_<TrainSession>("TrainSession")
      .constructor<>()
      .function("configure", &TrainSession::configure)
      .function("step", &TrainSession::step)
      .function("errorArgument", &TrainSession::errorArgument)
      .function("stepsDone", &TrainSession::stepsDone)
      .function("rowCount", &TrainSession::rowCount)
      .function("columns", &TrainSession::columns)
      .function("columnsJson", &TrainSession::columnsJson)
      .function("metrics", &TrainSession::metrics)
      .function("latest", &TrainSession::latest)
      .function("stepsTo90", &TrainSession::stepsTo90)
      .function("divisorValue", &TrainSession::divisorValue)
      .function("initStats", &TrainSession::initStats)
      .function("evaluate", &TrainSession::evaluate)
      .function("attentionMaps", &TrainSession::attentionMaps)
      .function("mapWeights", &TrainSession::mapWeights)
      .function("mapLabels", &TrainSession::mapLabels)
      .function("qkSnapshot", &TrainSession::qkSnapshot)
      .function("snapshotQ", &TrainSession::snapshotQ)
      .function("snapshotK", &TrainSession::snapshotK)
      .function("snapshotLogits", &TrainSession::snapshotLogits);
}
