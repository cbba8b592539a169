#include "train/train_config.h"

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/format.h"
#include "base/size_limits.h"
#include "base/text.h"

#include <stdexcept>

namespace attn {

InitKind parse_init(std::string_view text) { return static_cast<InitKind>(choice_index("init", text, kInitNames)); }

const char* init_name(InitKind k) { return kInitNames[static_cast<std::size_t>(k)].data(); }

namespace {

// 0 (off) or a number in [kMinCap, kMaxCap].
void check_cap(const char* name, double v) {
  namespace L = train_limits;
  if (v == 0 || (v >= L::kMinCap && v <= L::kMaxCap)) return;
  throw ArgumentError(name, "range", range_params(L::kMinCap, L::kMaxCap, v, ",\"off\":0"),
                      std::string(name) + " must be 0 (off) or a number in [" + num(L::kMinCap) + ", " +
                          num(L::kMaxCap) + "], got " + num(v));
}

}  // namespace

void validate(const TrainConfig& c) {
  namespace L = train_limits;
  check_size("dk", c.dk, 1, L::kMaxDk);
  check_size("heads", c.heads, 1, L::kMaxHeads);
  check_size("d_model", c.d_model, 1, L::kMaxDModel);
  check_size("dv", c.dv, 1, L::kMaxDk);
  check_size("batch", c.batch, 1, L::kMaxBatch);
  check_product("heads*dk", c.heads, c.dk, L::kMaxWidth);
  check_product("heads*dv", c.heads, c.dv, L::kMaxWidth);
  const std::size_t rows = c.batch * kTaskSeq;
  check_product("batch*positions*heads*dk", rows, c.heads * c.dk, L::kMaxActivations);
  check_product("batch*positions*heads*dv", rows, c.heads * c.dv, L::kMaxActivations);
  check_product("d_model*heads*dk", c.d_model, c.heads * c.dk, L::kMaxParams);
  if (!(c.lr > 0.0 && c.lr <= L::kMaxLr))
    throw ArgumentError("lr", "range",
                        "{\"lo\":0,\"hi\":" + jnum(L::kMaxLr) + ",\"value\":" + jnum(c.lr) + ",\"open\":\"lo\"}",
                        "lr must be a number in (0, " + num(L::kMaxLr) + "], got " + num(c.lr));
  check_cap("softcap", c.softcap);
  check_cap("qk_clip", c.qk_clip);
  check_size("log_every", c.log_every, 1, L::kMaxLogEvery);
  if (c.seed > L::kMaxSeed)
    throw ArgumentError("seed", "range",
                        "{\"lo\":0,\"hi\":" + jnum(static_cast<double>(L::kMaxSeed)) +
                            ",\"value\":" + jnum(static_cast<double>(c.seed)) + ",\"integer\":true}",
                        "seed must be an integer in [0, " + std::to_string(L::kMaxSeed) + "], got " +
                            std::to_string(c.seed));
}

const std::vector<TrainOption>& train_options() {
  namespace L = train_limits;
  static const std::vector<TrainOption> table = [] {
    const TrainConfig d;  // the defaults
    const auto size = [](std::size_t v) { return static_cast<double>(v); };
    std::vector<TrainOption> t;
    t.push_back({"task", "task", "choice", 0, task_name(d.task), 0, 0, choice_list(kTaskNames)});
    t.push_back({"dk", "dk", "integer", size(d.dk), "", 1, size(L::kMaxDk)});
    t.push_back({"heads", "heads", "integer", size(d.heads), "", 1, size(L::kMaxHeads)});
    t.push_back({"dmodel", "dModel", "integer", size(d.d_model), "", 1, size(L::kMaxDModel)});
    t.push_back({"dv", "dv", "integer", size(d.dv), "", 1, size(L::kMaxDk)});
    t.push_back({"divisor", "divisor", "divisor", 0, divisor_option_label(d), limits::kMinDivisor,
                 limits::kMaxDivisor});
    t.push_back({"optimizer", "optimizer", "choice", 0, optimizer_name(d.optimizer), 0, 0, choice_list(kOptimizerNames)});
    t.push_back({"lr", "lr", "number", d.lr, "", 0, L::kMaxLr});
    t.push_back({"init", "init", "choice", 0, init_name(d.init), 0, 0, choice_list(kInitNames)});
    t.push_back({"batch", "batch", "integer", size(d.batch), "", 1, size(L::kMaxBatch)});
    t.push_back({"seed", "seed", "integer", static_cast<double>(d.seed), "", 0, static_cast<double>(L::kMaxSeed)});
    t.push_back({"log-every", "logEvery", "integer", size(d.log_every), "", 1, size(L::kMaxLogEvery)});
    t.push_back({"softcap", "softcap", "number", d.softcap, "", L::kMinCap, L::kMaxCap, "", true});
    t.push_back({"qk-clip", "qkClip", "number", d.qk_clip, "", L::kMinCap, L::kMaxCap, "", true});
    t.push_back({"steps", "", "integer", 1500, "", 1, size(L::kMaxSteps)});
    t.push_back({"eval", "", "integer", 4096, "", 1, size(L::kMaxEvalSamples)});
    return t;
  }();
  return table;
}

const TrainOption& train_option(std::string_view cli) {
  for (const TrainOption& o : train_options())
    if (cli == o.cli) return o;
  throw std::logic_error("no training option --" + std::string(cli));
}

std::uint64_t forward_work(const TrainConfig& c) {
  const std::uint64_t T = kTaskSeq, H = c.heads, D = c.d_model, dk = c.dk, dv = c.dv;
  return T * H * D * (dk + dv) + H * D * dk + H * T * (dk + dv) + H * dv * D + D * kTaskVocab;
}

std::uint64_t step_work(const TrainConfig& c) {
  return (c.qk_clip > 0 ? 4 : 3) * std::uint64_t{c.batch} * forward_work(c);
}

std::uint64_t run_work(const TrainConfig& c, std::size_t steps, std::size_t eval) {
  // Every factor is bounded by validate() and kMaxStepsPerCall / kMaxEvalSamples: no overflow.
  return std::uint64_t{steps} * step_work(c) + std::uint64_t{eval} * forward_work(c);
}

double reference_lr(OptimizerKind optimizer, std::size_t dk, std::size_t d_model) {
  const double base = optimizer == OptimizerKind::Adam ? kReferenceLrAdam : kReferenceLrSgd;
  return base * 2.0 * static_cast<double>(dk) / static_cast<double>(d_model);
}

void apply_divisor_option(TrainConfig& c, std::string_view text) {
  if (text == "qknorm") {
    c.qk_norm = true;
    c.divisor = Divisor::sqrt_dk();
    return;
  }
  try {
    c.divisor = Divisor::parse(text);
  } catch (const ArgumentError& e) {
    // The same params as Divisor::parse's, and qknorm among the choices.
    std::string params = e.params();
    if (!params.empty()) params.insert(params.size() - 1, ",\"qknorm\":true");
    throw ArgumentError("divisor", "divisor", params,
                        "divisor must be 'sqrt', 'dk', 'qknorm' or a number in [" + num(limits::kMinDivisor) +
                            ", " + num(limits::kMaxDivisor) + "], got '" + escaped(text) + "'");
  }
  c.qk_norm = false;
}

std::string divisor_option_label(const TrainConfig& c) {
  if (c.qk_norm) return c.divisor.kind() == Divisor::Kind::Sqrt ? "qknorm" : "qknorm/" + c.divisor.label();
  return c.divisor.label();
}

}  // namespace attn
