// The training lab's module (lab.html): one TrainSession per run, living in a
// Web Worker. Calls are coarse: step(count) runs a batch of steps, and the
// metrics rows come back as one Float64Array view [rows x columns], in the
// order of columnsJson() (meanings in core/train/trainer.h). Views point into
// wasm memory and are valid until the next call: copy them.
#include <memory>
#include <vector>

#include "base/presets.h"
#include "base/size_limits.h"
#include "glue.h"
#include "presets_js.h"
#include "samples/sample_qk.h"
#include "train/optimizer.h"
#include "train/train_config.h"
#include "train/trainer.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

// configure()'s options object, read field by field (a val, not a
// value_object: Embind refuses a value_object missing a field, and the
// stabilisers softcap and qkClip came later, so they may be left out: 0, off).
// A field that is missing or of the wrong type is an ArgumentError of kind
// "type", so it comes back as a Status like every other bad option.
[[noreturn]] void fail_type(const char* name, const char* expected, const val& v) {
  const std::string got = v.isNull() ? "null" : v.isArray() ? "array" : v.typeOf().as<std::string>();
  fail_kind(name, "type", "{\"expected\":" + jstr(expected) + ",\"got\":" + jstr(got) + "}",
            "%s must be %s %s, got %s", name, expected[0] == 'o' ? "an" : "a", expected, got.c_str());
}
double number_field(const val& o, const char* name, bool optional = false) {
  const val v = o[name];
  if (optional && v.isUndefined()) return 0;
  if (!v.isNumber()) fail_type(name, "number", v);
  return v.as<double>();
}
std::string string_field(const val& o, const char* name) {
  const val v = o[name];
  if (!v.isString()) fail_type(name, "string", v);
  return v.as<std::string>();
}

// A field of the core's option table (train_config.h train_options), by its
// CLI name: an integer in its range, or a text.
std::size_t table_size(const val& o, const char* cli) {
  const TrainOption& t = train_option(cli);
  return size_arg(t.js, number_field(o, t.js), static_cast<std::size_t>(t.lo), static_cast<std::size_t>(t.hi));
}
std::string table_string(const val& o, const char* cli) { return string_field(o, train_option(cli).js); }
double table_number(const val& o, const char* cli) {
  const TrainOption& t = train_option(cli);
  return number_field(o, t.js, t.optional);
}

// The core's option table as JS objects: [{name (the CLI's), field
// (configure()'s, or null: steps and eval), type, def, lo, hi, choices
// (an array, or null), optional}]; the site's forms take their defaults and
// ranges from it (web/scripts/core-facts.mjs writes it into the build).
val train_option_table() {
  val out = val::array();
  for (const TrainOption& t : train_options()) {
    val o = val::object();
    o.set("name", std::string(t.cli));
    o.set("field", *t.js ? val(std::string(t.js)) : val::null());
    o.set("type", std::string(t.type));
    o.set("def", t.def_text.empty() ? val(t.def) : val(t.def_text));
    o.set("lo", t.lo);
    o.set("hi", t.hi);
    val choices = val::null();
    if (!t.choices.empty()) {
      choices = val::array();
      std::string rest = t.choices;
      for (std::size_t at; (at = rest.find(", ")) != std::string::npos; rest.erase(0, at + 2))
        choices.call<void>("push", rest.substr(0, at));
      choices.call<void>("push", rest);
    }
    o.set("choices", choices);
    o.set("optional", t.optional);
    out.call<void>("push", o);
  }
  return out;
}

struct LrResult {
  std::string error, argument, kind, params;
  double lr = 0;
};

// lr that keeps lr·d_model at the reference runs' (see core/train/train_config.h).
LrResult train_reference_lr(const std::string& optimizer, double dk, double d_model) {
  return result<LrResult>([&](LrResult& r) {
    namespace L = train_limits;
    r.lr = reference_lr(parse_optimizer(optimizer), size_arg("dk", dk, 1, L::kMaxDk),
                        size_arg("dModel", d_model, 1, L::kMaxDModel));
  });
}

// What the lab page checks against the core's own numbers instead of copies.
struct TrainLimits {
  double maxDk = train_limits::kMaxDk, maxHeads = train_limits::kMaxHeads;
  double maxStepsPerCall = train_limits::kMaxStepsPerCall, maxSeed = static_cast<double>(train_limits::kMaxSeed);
  double initBandLow = init_checkpoint::kBandLow, initBandHigh = init_checkpoint::kBandHigh;
};
TrainLimits train_limits_js() { return {}; }

// The range of a soft-cap c and of QK-clip's τ (0 is off), for the lab's hints;
// apart from trainLimits(), whose fields callers compare whole.
struct CapRange {
  double lo = limits::kMinCap, hi = limits::kMaxCap;
};
CapRange train_cap_range() { return {}; }


struct InitResult {
  std::string error, argument, kind, params;
  InitStats stats;
};

struct EvalResultJs {
  std::string error, argument, kind, params;
  EvalResult eval;
};

// Shapes of the arrays behind the map and snapshot views.
struct ShapeResult {
  std::string error, argument, kind, params;
  double samples = 0, heads = 0, seq = 0, dk = 0;
  double divisor = 0;  // qkSnapshot: QkSnapshot::divisor
};

class TrainSession {
 public:
  // o: {task, dk, heads, dModel, dv, divisor, optimizer, lr, init, batch,
  // seed, logEvery} and, optional, softcap and qkClip (0 or absent: off;
  // else in [1e-3, 1e4], checked by the core as TrainConfig's softcap, qk_clip).
  Status configure(const val& o) {
    return guarded([&] {
      trainer_.reset();  // a failed configure leaves no session behind
      if (o.isNull() || o.isArray() || o.typeOf().as<std::string>() != "object") fail_type("options", "object", o);
      // Each field as the core's option table names it (train_options); the
      // core's validate() checks what the table gives no range for.
      TrainConfig c;
      c.task = parse_task(table_string(o, "task"));
      c.dk = table_size(o, "dk");
      c.heads = table_size(o, "heads");
      c.d_model = table_size(o, "dmodel");
      c.dv = table_size(o, "dv");
      apply_divisor_option(c, table_string(o, "divisor"));
      c.optimizer = parse_optimizer(table_string(o, "optimizer"));
      c.lr = table_number(o, "lr");
      c.init = parse_init(table_string(o, "init"));
      c.batch = table_size(o, "batch");
      c.seed = seed_arg(number_field(o, train_option("seed").js));
      c.log_every = table_size(o, "log-every");
      c.softcap = table_number(o, "softcap");
      c.qk_clip = table_number(o, "qk-clip");
      trainer_ = std::make_unique<Trainer>(c);
    });
  }
  Status step(double count) {
    return guarded([&] { require().step(size_arg("count", count, 1, train_limits::kMaxStepsPerCall)); });
  }

  double stepsDone() const { return trainer_ ? static_cast<double>(trainer_->steps_done()) : 0; }
  double rowCount() const { return trainer_ ? static_cast<double>(trainer_->row_count()) : 0; }
  double columns() const { return trainer_ ? static_cast<double>(trainer_->columns()) : 0; }
  double stepsTo90() const { return trainer_ ? static_cast<double>(trainer_->steps_to_90()) : 0; }
  // The step the run diverged at (a metric stopped being finite), 0 if it has not.
  double divergedAt() const { return trainer_ ? static_cast<double>(trainer_->diverged_at()) : 0; }
  double divisorValue() const { return trainer_ ? trainer_->divisor() : 0; }
  // Steps at which QK-clip rescaled at least one head (the CLI's qk_clips).
  double qkClips() const { return trainer_ ? static_cast<double>(trainer_->qk_clips()) : 0; }
  std::string columnsJson() const {
    std::string out = "[";
    for (const auto& c : metric_columns(trainer_ ? trainer_->config().heads : 0))
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
  InitResult initStats() {
    return result<InitResult>([&](InitResult& r) { r.stats = require().init_stats(); });
  }
  EvalResultJs evaluate(double samples) {
    return result<EvalResultJs>([&](EvalResultJs& r) {
      r.eval = require().evaluate(size_arg("samples", samples, 1, train_limits::kMaxEvalSamples));
    });
  }
  // Attention of the query row on the fixed examples; then mapWeights()
  // [samples x heads x seq] and mapLabels(): tok_a [samples x seq], tok_b
  // [samples x seq], target, answer, predicted [samples each], as Int32.
  ShapeResult attentionMaps() {
    return result<ShapeResult>([&](ShapeResult& r) {
      maps_ = require().attention_maps();
      labels_.clear();
      for (const auto* v : {&maps_.tok_a, &maps_.tok_b, &maps_.target, &maps_.answer, &maps_.predicted})
        labels_.insert(labels_.end(), v->begin(), v->end());
      r.samples = static_cast<double>(maps_.examples);
      r.heads = static_cast<double>(maps_.heads);
      r.seq = static_cast<double>(maps_.seq);
      r.dk = static_cast<double>(require().config().dk);
    });
  }
  val mapWeights() { return view(maps_.weights.data(), maps_.weights.size()); }
  val mapLabels() { return view(labels_.data(), labels_.size()); }
  // q [samples x heads·dk] and K [samples x seq x heads·dk] before
  // QK-LayerNorm, and the logits [samples x heads x seq], of a fixed batch.
  ShapeResult qkSnapshot(double samples) {
    return result<ShapeResult>([&](ShapeResult& r) {
      snap_ = require().qk_snapshot(size_arg("samples", samples, 1, require().config().batch));
      r.samples = static_cast<double>(snap_.samples);
      r.heads = static_cast<double>(snap_.heads);
      r.seq = static_cast<double>(snap_.seq);
      r.dk = static_cast<double>(snap_.dk);
      r.divisor = snap_.divisor;
    });
  }
  val snapshotQ() { return view(snap_.q.data(), snap_.q.size()); }
  val snapshotK() { return view(snap_.k.data(), snap_.k.size()); }
  val snapshotLogits() { return view(snap_.logits.data(), snap_.logits.size()); }
  // The snapshot as the lab's "export q and k" file, written by the core's
  // .npz writer (samples/sample_qk.h snapshot_npz), in the checker's layout.
  val snapshotNpz() {
    npz_ = snapshot_npz(snap_);
    return view(npz_.data(), npz_.size());
  }

 private:
  Trainer& require() {
    if (!trainer_) throw ArgumentError("session", "state", "", "configure() must succeed before use");
    return *trainer_;
  }
  std::unique_ptr<Trainer> trainer_;
  AttentionMaps maps_;
  std::vector<int> labels_;
  QkSnapshot snap_;
  std::vector<std::uint8_t> npz_;
};

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_train) {
  using namespace attn;
  using namespace attn::wasm;

  value_object<LrResult> lr_result("LrResult");
  status_fields(lr_result);
  lr_result.field("lr", &LrResult::lr);
  function("trainReferenceLr", &train_reference_lr);

  value_object<TrainLimits>("TrainLimits")
      .field("maxDk", &TrainLimits::maxDk)
      .field("maxHeads", &TrainLimits::maxHeads)
      .field("maxStepsPerCall", &TrainLimits::maxStepsPerCall)
      .field("maxSeed", &TrainLimits::maxSeed)
      .field("initBandLow", &TrainLimits::initBandLow)
      .field("initBandHigh", &TrainLimits::initBandHigh);
  function("trainLimits", &train_limits_js);
  function("trainPresets", &presets_val);
  value_object<CapRange>("CapRange").field("lo", &CapRange::lo).field("hi", &CapRange::hi);
  function("trainCapRange", &train_cap_range);
  function("trainOptionTable", &train_option_table);
  // A divisor's number range, every module's (base/size_limits.h).
  function("divisorRange", +[] {
    return CapRange{limits::kMinDivisor, limits::kMaxDivisor};
  });

  value_object<InitStats>("InitStats")
      .field("samples", &InitStats::samples)
      .field("varQ", &InitStats::var_q)
      .field("varK", &InitStats::var_k)
      .field("varQk", &InitStats::var_qk)
      .field("theoryVarQk", &InitStats::theory_var_qk)
      .field("varLogit", &InitStats::var_logit)
      .field("attnEntropy", &InitStats::attn_entropy)
      .field("attnMax", &InitStats::attn_max)
      .field("loss", &InitStats::loss)
      .field("accuracy", &InitStats::accuracy);
  value_object<InitResult> init_result("InitResult");
  status_fields(init_result);
  init_result.field("stats", &InitResult::stats);

  value_object<EvalResult>("EvalResult")
      .field("samples", &EvalResult::samples)
      .field("loss", &EvalResult::loss)
      .field("accuracy", &EvalResult::accuracy)
      .field("attnCorrect", &EvalResult::attn_correct);
  value_object<EvalResultJs> eval_result("EvalResultJs");
  status_fields(eval_result);
  eval_result.field("eval", &EvalResultJs::eval);

  value_object<ShapeResult> shape_result("ShapeResult");
  status_fields(shape_result);
  shape_result.field("samples", &ShapeResult::samples)
      .field("heads", &ShapeResult::heads)
      .field("seq", &ShapeResult::seq)
      .field("dk", &ShapeResult::dk)
      .field("divisor", &ShapeResult::divisor);

  class_<TrainSession>("TrainSession")
      .constructor<>()
      .function("configure", &TrainSession::configure)
      .function("step", &TrainSession::step)
      .function("stepsDone", &TrainSession::stepsDone)
      .function("rowCount", &TrainSession::rowCount)
      .function("columns", &TrainSession::columns)
      .function("columnsJson", &TrainSession::columnsJson)
      .function("metrics", &TrainSession::metrics)
      .function("latest", &TrainSession::latest)
      .function("stepsTo90", &TrainSession::stepsTo90)
      .function("divergedAt", &TrainSession::divergedAt)
      .function("divisorValue", &TrainSession::divisorValue)
      .function("qkClips", &TrainSession::qkClips)
      .function("initStats", &TrainSession::initStats)
      .function("evaluate", &TrainSession::evaluate)
      .function("attentionMaps", &TrainSession::attentionMaps)
      .function("mapWeights", &TrainSession::mapWeights)
      .function("mapLabels", &TrainSession::mapLabels)
      .function("qkSnapshot", &TrainSession::qkSnapshot)
      .function("snapshotQ", &TrainSession::snapshotQ)
      .function("snapshotK", &TrainSession::snapshotK)
      .function("snapshotLogits", &TrainSession::snapshotLogits)
      .function("snapshotNpz", &TrainSession::snapshotNpz);
}
