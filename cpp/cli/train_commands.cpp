#include "train_commands.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "args.h"
#include "base/format.h"
#include "base/text.h"
#include "base/presets.h"
#include "kernels/matmul.h"
#include "help.h"
#include "output.h"
#include "progress.h"
#include "train/train_config.h"
#include "train/trainer.h"

namespace attncli {

using Json = nlohmann::ordered_json;


namespace {

namespace L = attn::train_limits;

constexpr std::size_t kMaxJobs = 256;  // sweep --jobs

// A metric printed with 7 significant digits (they come from float math).
double sig7(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return std::strtod(buf, nullptr);
}

std::string csv_num(double v) {
  if (std::isnan(v)) return "nan";  // printf gives "-nan" for a NaN whose sign bit is set
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

std::vector<std::string> split(const std::string& name, const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (out.back().empty()) throw UsageError("--" + name + " has an empty item in '" + attn::escaped(s) + "'");
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::uint64_t list_integer(const std::string& name, const std::string& item, std::uint64_t lo,
                           std::uint64_t hi) {
  // Reuse Args' strict integer parsing on one item.
  const Args one({"--" + name, item}, {name});
  return one.integer(name, lo, lo, hi);
}

std::string format_of(const Args& a) {
  const std::string f = a.text("format", "json");
  if (f != "json" && f != "csv") throw UsageError("--format must be 'json' or 'csv', got '" + attn::escaped(f) + "'");
  return f;
}

// An integer option of the core's table (train_config.h train_options): its
// default (or `def`, a default of the command's own) and range.
std::uint64_t table_integer(const Args& a, const char* name, std::optional<std::uint64_t> def = std::nullopt) {
  const attn::TrainOption& o = attn::train_option(name);
  return a.integer(name, def ? *def : static_cast<std::uint64_t>(o.def), static_cast<std::uint64_t>(o.lo),
                   static_cast<std::uint64_t>(o.hi));
}
// A choice or divisor option's text, its default the table's (or `def`).
std::string table_text(const Args& a, const char* name, std::optional<std::string> def = std::nullopt) {
  return a.text(name, def ? *def : attn::train_option(name).def_text);
}

// The options train and sweep share; dk, divisor, optimizer, lr and seed are set by the caller.
attn::TrainConfig base_config(const Args& a) {
  attn::TrainConfig c;
  c.task = attn::parse_task(table_text(a, "task"));
  c.heads = table_integer(a, "heads");
  c.d_model = table_integer(a, "dmodel");
  c.dv = table_integer(a, "dv", attn::default_dv(c.d_model, c.heads));
  c.batch = table_integer(a, "batch");
  c.init = attn::parse_init(table_text(a, "init"));
  c.log_every = table_integer(a, "log-every");
  c.softcap = cap_option(a, "softcap");
  c.qk_clip = cap_option(a, "qk-clip");
  return c;
}

// --preset NAME: the preset, or null. Its d_k, divisor, soft-cap and init
// are defaults that an explicit --dk (--dks), --divisor (--divisors),
// --softcap or --init overrides, as x264's and ffmpeg's --preset do.
const attn::Preset* preset_option(const Args& a) {
  return a.has("preset") ? &attn::find_preset(a.text("preset", "")) : nullptr;
}

void apply_preset(const Args& a, const attn::Preset* p, attn::TrainConfig& c) {
  if (!p) return;
  if (!a.has("softcap")) c.softcap = p->softcap;
  if (!a.has("init") && std::string(p->init) == "t5") c.init = attn::InitKind::T5;
}

// The preset's divisor as a --divisor text (the exact number, sqrt(128) = 11.313708498984761).
std::string preset_divisor(const attn::Preset& p) { return attn::Divisor::value(p.divisor).label(); }

Json cap_json(double v) { return v > 0 ? Json(v) : Json(nullptr); }

double lr_option(const Args& a, const std::string& name, attn::OptimizerKind opt, std::size_t dk,
                 std::size_t d_model) {
  if (!a.has(name)) return attn::reference_lr(opt, dk, d_model);
  const double lr = a.real(name, 0.0);
  if (!(lr > 0.0 && lr <= L::kMaxLr))
    throw UsageError("--" + name + " must be a number in (0, " + csv_num(L::kMaxLr) + "], got " +
                     attn::escaped(a.text(name, "")));
  return lr;
}

// --lrs: the sweep's learning-rate axis, absolute rates used for every
// optimiser. A rate given twice is refused (1e-2 and 0.01 alike): it would
// only run the same cells twice. The count is checked before any item is read.
std::vector<double> lrs_option(const Args& a) {
  const std::string text = a.text("lrs", "");
  const std::size_t items = static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  if (items > L::kMaxSweepRuns)
    throw UsageError("--lrs has " + std::to_string(items) + " items, more than the sweep's " +
                     std::to_string(L::kMaxSweepRuns) + " runs");
  std::vector<double> lrs;
  for (const auto& item : split("lrs", text)) {
    const Args one({"--lrs", item}, {"lrs"});
    const double lr = one.real("lrs", 0.0);
    if (!(lr > 0.0 && lr <= L::kMaxLr))
      throw UsageError("--lrs items must be numbers in (0, " + csv_num(L::kMaxLr) + "], got " + attn::escaped(item));
    if (std::find(lrs.begin(), lrs.end(), lr) != lrs.end())
      throw UsageError("--lrs has " + attn::escaped(item) + " twice (the same rate would run the same cells again)");
    lrs.push_back(lr);
  }
  return lrs;
}

// A work limit as a CLI refusal, before the first step (kCliMaxWork, and the core's a call: check_calls_fit).
// A sweep's total work can pass 2^64 (a wrapped total passed the check).
__extension__ typedef unsigned __int128 Work;

std::string decimal(Work v) {
  std::string s;
  do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10))); while ((v /= 10) != 0);
  return s;
}

void check_run_work(const std::string& what, Work work, std::uint64_t limit, const std::string& advice) {
  if (work > limit)
    throw UsageError(what + " is " + decimal(work) + " multiply-adds, more than the limit of " +
                     std::to_string(limit) + "; " + advice);
}

// The command line's limit on one run or one sweep: what could not finish in
// a working day (2^48 multiply-adds: about 8 hours at 10 G a second, one
// core). The lab's limits (train_limits) keep a browser tab responsive and do
// not belong here (issue 31: the default 3000-step run and our PyTorch
// reference's configuration were refused). Memory is bounded apart, by the
// sizes' own limits.
constexpr std::uint64_t kCliMaxWork = std::uint64_t{1} << 48;

// The core takes at most kMaxTrainWork a call of step() and kMaxEvalWork a
// call of evaluate(): a run is made of calls within both, or refused before
// its first step, never stopped by the core after hours of training.
void check_calls_fit(const attn::TrainConfig& c, std::size_t eval) {
  if (attn::step_work(c) > L::kMaxTrainWork)
    throw UsageError("one training step is " + decimal(attn::step_work(c)) +
                     " multiply-adds, more than the core's limit of " + std::to_string(L::kMaxTrainWork) +
                     " a step; a smaller --batch or smaller sizes");
  if (attn::run_work(c, 0, eval) > L::kMaxEvalWork)
    throw UsageError("--eval " + std::to_string(eval) + " is " + decimal(attn::run_work(c, 0, eval)) +
                     " multiply-adds, more than the limit of " + std::to_string(L::kMaxEvalWork) +
                     "; a smaller --eval or smaller sizes");
}

struct RunResult {
  attn::EvalResult eval;
  std::size_t steps_to_90 = 0;
  std::size_t diverged = 0;  // the step the run diverged at (Trainer::diverged_at), or 0
  double seconds = 0;
  std::vector<double> first, last;  // metrics rows of step 1 and of the last step
};

// Trains for `steps`, drawing the bar, then evaluates on `eval` held-out
// samples. Each logged row goes to `on_row` as soon as its call of up to 10
// steps returns, and is not kept: memory stays that of one call's rows.
RunResult train(attn::Trainer& t, std::size_t steps, std::size_t eval, Progress* bar, const std::string& label,
                const std::function<void(const double*)>& on_row) {
  RunResult r;
  const auto t0 = std::chrono::steady_clock::now();
  // Up to 10 steps a call, fewer when 10 would pass the core's work a call.
  const std::size_t per_call = std::max<std::size_t>(
      1, std::min<std::uint64_t>(10, L::kMaxTrainWork / std::max<std::uint64_t>(1, attn::step_work(t.config()))));
  while (t.steps_done() < steps) {
    t.step(std::min<std::size_t>(per_call, steps - t.steps_done()));
    const std::vector<double> rows = t.take_rows();
    if (r.first.empty()) r.first.assign(rows.begin(), rows.begin() + t.columns());
    for (std::size_t i = 0; i < rows.size(); i += t.columns()) on_row(rows.data() + i);
    const auto& m = t.latest();
    if (bar && t.steps_done() < steps) {
      const double ran = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      bar->estimate(ran * static_cast<double>(steps) / static_cast<double>(t.steps_done()), "this run",
                    "its first " + std::to_string(t.steps_done()) + " steps");
    }
    if (bar) bar->show(t.steps_done(), steps, "steps",
                       label + "loss " + csv_num(m[attn::kColLoss]) + " acc " + csv_num(m[attn::kColAccuracy]));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.last = t.latest();
  r.eval = t.evaluate(eval);
  r.steps_to_90 = t.steps_to_90();
  r.diverged = t.diverged_at();
  if (bar) bar->finish();
  return r;
}

// A step number, or null for 0 (never reached).
Json step_json(std::size_t s) { return s ? Json(s) : Json(nullptr); }

// The one line a diverged run adds on stderr. The run still exits 0: its
// numbers are what the configuration gives (the lab's divisors are compared
// by exactly this), and the `diverged` field says so on stdout.
void warn_diverged(std::ostream& err, const std::string& run, std::size_t step) {
  err << "attnlab: " << run << "diverged at step " << step
      << ": the loss, a logit, a gradient norm or a number they come from is no longer finite, so the "
         "metrics from there on are null; a smaller learning rate may train\n";
}

// A JSON value as a CSV cell. A float is written exactly (the shortest text
// that reads back to it, as JSON writes it): the measurements arrive rounded
// to 7 digits already (sig7), and an echoed input (a rate, a cap) must read
// back as the value that ran (issue 32: 0.10000001 printed as 0.1).
std::string csv_cell(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  if (v.is_number_float()) return std::isnan(v.get<double>()) ? "nan" : attn::num_exact(v.get<double>());
  return v.dump();
}

// What ran, as train's JSON "config" and CSV "config_*" lines echo it:
// numbers exactly (nlohmann writes the shortest text that reads back).
Json config_json(const attn::TrainConfig& c, const attn::Trainer& t, const attn::Preset* preset) {
  return {{"task", attn::task_name(c.task)},
          {"dk", c.dk},
          {"heads", c.heads},
          {"d_model", c.d_model},
          {"dv", c.dv},
          {"divisor", attn::divisor_option_label(c)},
          {"divisor_value", t.divisor()},
          {"qk_norm", c.qk_norm},
          {"optimizer", attn::optimizer_name(c.optimizer)},
          {"lr", c.lr},
          {"init", attn::init_name(c.init)},
          {"softcap", cap_json(c.softcap)},
          {"qk_clip", cap_json(c.qk_clip)},
          {"preset", preset ? Json(preset->name) : Json(nullptr)},
          {"batch", c.batch},
          {"seed", c.seed},
          {"log_every", c.log_every},
          {"kernel", attn::matmul_f32_kernel_name()}};
}

// --shard K/N (sweep): the K-th of N parts of the grid, runs i with i mod N = K - 1.
struct Shard {
  std::size_t k = 1, n = 1;
};

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  auto whole = [](const std::string& s) {
    if (s.empty() || s.size() > 4 || s.find_first_not_of("0123456789") != std::string::npos) return std::size_t{0};
    return static_cast<std::size_t>(std::stoul(s));
  };
  const std::size_t k = slash == std::string::npos ? 0 : whole(text.substr(0, slash));
  const std::size_t n = slash == std::string::npos ? 0 : whole(text.substr(slash + 1));
  if (k < 1 || n < 1 || k > n || n > L::kMaxSweepRuns)
    throw UsageError("--shard must be K/N with 1 <= K <= N <= " + std::to_string(L::kMaxSweepRuns) + ", got '" +
                     attn::escaped(text) + "'");
  return {k, n};
}

// FNV-1a, 64 bits: names the grid a part belongs to (not a security measure).
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ULL;
  return h;
}

// A part's first line: JSON {"shard":{...}} or CSV "# shard K/N of R runs, grid G".
std::string shard_header(const std::string& format, const Shard& s, std::size_t runs, const std::string& id) {
  char grid[20];
  std::snprintf(grid, sizeof grid, "%016llx", static_cast<unsigned long long>(fnv1a(id)));
  if (format == "csv")
    return "# shard " + std::to_string(s.k) + "/" + std::to_string(s.n) + " of " + std::to_string(runs) +
           " runs, grid " + grid;
  return "{\"shard\":{\"k\":" + std::to_string(s.k) + ",\"n\":" + std::to_string(s.n) +
         ",\"runs\":" + std::to_string(runs) + ",\"grid\":\"" + grid + "\"}}";
}

}  // namespace

int run_train(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> argv = args;
  const ProgressMode progress = take_progress(argv);
  const Args a(argv, options_of("train"));
  const std::string format = format_of(a);
  attn::TrainConfig c = base_config(a);
  const attn::Preset* preset = preset_option(a);
  apply_preset(a, preset, c);
  c.dk = table_integer(a, "dk", preset ? std::optional<std::uint64_t>(preset->dk) : std::nullopt);
  attn::apply_divisor_option(c, table_text(a, "divisor", preset ? std::optional(preset_divisor(*preset)) : std::nullopt));
  c.optimizer = attn::parse_optimizer(table_text(a, "optimizer"));
  c.lr = lr_option(a, "lr", c.optimizer, c.dk, c.d_model);
  c.seed = table_integer(a, "seed");
  const std::size_t steps = table_integer(a, "steps");
  const std::size_t eval = table_integer(a, "eval");
  attn::validate(c);
  check_calls_fit(c, eval);
  check_run_work("this run (--steps " + std::to_string(steps) + ", --eval " + std::to_string(eval) + ")",
                 attn::run_work(c, steps, eval), kCliMaxWork, "fewer steps, a smaller --eval or smaller sizes");

  attn::Trainer t(c);
  Progress bar(err, progress);
  const auto cols = attn::metric_columns(c.heads);
  const auto& in = t.init_stats();
  Json init;
  init["samples"] = in.samples;
  init["var_q"] = sig7(in.var_q);
  init["var_k"] = sig7(in.var_k);
  init["var_qk"] = sig7(in.var_qk);
  init["theory_var_qk"] = sig7(in.theory_var_qk);
  init["var_logit"] = sig7(in.var_logit);
  init["attn_entropy"] = sig7(in.attn_entropy);
  init["attn_max"] = sig7(in.attn_max);
  init["loss"] = sig7(in.loss);
  init["accuracy"] = sig7(in.accuracy);

  // The output is written as the run goes, in the layout of one JSON object
  // {"config", "init", "metrics": [rows], "summary"} (or the CSV table, then
  // the summary): the rows are printed as they are logged, never all held.
  std::size_t printed = 0;
  std::function<void(const double*)> on_row;
  if (format == "csv") {
    // The metrics table, a blank line, then the summary and init statistics as key,value.
    for (std::size_t j = 0; j < cols.size(); ++j) out << (j ? "," : "") << cols[j];
    out << "\n";
    on_row = [&](const double* r) {
      for (std::size_t j = 0; j < cols.size(); ++j) out << (j ? "," : "") << csv_num(r[j]);
      out << "\n";
      check_output(out);  // nobody reads the rows: stop now, not at the end of the run
    };
  } else {
    const Json config = config_json(c, t, preset);
    out << "{\"config\":" << config.dump() << ",\"init\":" << init.dump() << ",\"metrics\":[";
    on_row = [&](const double* r) {
      Json row;
      row["step"] = static_cast<std::size_t>(r[attn::kColStep]);
      for (std::size_t k = 1; k < cols.size(); ++k) row[cols[k]] = sig7(r[k]);
      out << (printed++ ? "," : "") << row.dump();
      check_output(out);
    };
  }
  const RunResult r = train(t, steps, eval, &bar, "", on_row);
  if (r.diverged) warn_diverged(err, "the run ", r.diverged);
  const double sps = r.seconds > 0 ? steps / r.seconds : 0.0;

  Json summary;
  summary["steps"] = steps;
  summary["final_loss"] = sig7(r.eval.loss);
  summary["final_accuracy"] = sig7(r.eval.accuracy);
  summary["final_attn_correct"] = sig7(r.eval.attn_correct);
  summary["eval_samples"] = r.eval.samples;
  summary["steps_to_90"] = step_json(r.steps_to_90);
  summary["diverged"] = step_json(r.diverged);
  summary["init"] = attn::init_name(c.init);
  summary["softcap"] = cap_json(c.softcap);
  summary["qk_clip"] = cap_json(c.qk_clip);
  summary["qk_clips"] = t.qk_clips();
  summary["preset"] = preset ? Json(preset->name) : Json(nullptr);
  summary["seconds"] = sig7(r.seconds);
  summary["steps_per_second"] = sig7(sps);
  if (format == "csv") {
    out << "\nkey,value\n";
    for (const auto& [k, v] : summary.items()) out << k << "," << csv_cell(v) << "\n";
    // What ran, as the JSON's "config" says it (the CSV had no echo of it).
    const Json config = config_json(c, t, preset);
    for (const auto& [k, v] : config.items())
      if (!summary.contains(k)) out << "config_" << k << "," << csv_cell(v) << "\n";
    for (const auto& [k, v] : init.items()) out << "init_" << k << "," << csv_cell(v) << "\n";
    return 0;
  }
  out << "],\"summary\":" << summary.dump() << "}\n";
  return 0;
}

int run_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> argv = args;
  const ProgressMode progress = take_progress(argv);
  const Args a(argv, options_of("sweep"));
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = a.integer("jobs", cores, 1, kMaxJobs);
  const std::string format = format_of(a);
  attn::TrainConfig base = base_config(a);
  const attn::Preset* preset = preset_option(a);
  apply_preset(a, preset, base);
  std::vector<std::size_t> dks;
  for (const auto& s : split("dks", a.text("dks", preset ? std::to_string(preset->dk) : kSweepDks)))
    dks.push_back(list_integer("dks", s, 1, L::kMaxDk));  // train's --dk range
  const std::vector<std::string> divisors =
      split("divisors", a.text("divisors", preset ? preset_divisor(*preset) : kSweepDivisors));
  std::vector<attn::OptimizerKind> opts;
  for (const auto& s : split("optimizers", a.text("optimizers", kSweepOptimizers)))
    opts.push_back(attn::parse_optimizer(s));
  // The learning-rate axis: the given rates, or one cell per optimiser's own
  // rate (--lr-adam, --lr-sgd or the reference rate) when --lrs is absent.
  const bool lr_axis = a.has("lrs");
  std::vector<std::optional<double>> lrs{std::nullopt};
  if (lr_axis) {
    for (const char* name : {"lr-adam", "lr-sgd"})
      if (a.has(name)) throw UsageError(std::string("--") + name + " is given with --lrs, which sets every run's rate");
    lrs.clear();
    for (double lr : lrs_option(a)) lrs.emplace_back(lr);
  }
  std::vector<std::uint64_t> seeds;
  for (const auto& s : split("seeds", a.text("seeds", "0")))
    seeds.push_back(list_integer("seeds", s, 0, L::kMaxSeed));
  const std::size_t steps = table_integer(a, "steps");
  const std::size_t eval = table_integer(a, "eval");
  // --shard K/N: this process runs the grid's runs i with i mod N = K - 1.
  const Shard shard = a.has("shard") ? parse_shard(a.text("shard", "")) : Shard{};

  // Check the whole grid before the first (long) run: its size from the lists
  // alone (before the grid exists), each run's options, then the total work.
  // Each list is at most 4096 long, so the product of five fits 64 bits.
  const std::uint64_t runs =
      std::uint64_t{dks.size()} * divisors.size() * opts.size() * lrs.size() * seeds.size();
  if (runs > L::kMaxSweepRuns)
    throw UsageError("the sweep has " + std::to_string(runs) + " runs (dks x divisors x optimizers x " +
                     (lr_axis ? "lrs x " : "") + "seeds), more than " + std::to_string(L::kMaxSweepRuns));
  for (const auto& [name, kind] : {std::pair{"lr-adam", attn::OptimizerKind::Adam}, {"lr-sgd", attn::OptimizerKind::Sgd}})
    if (a.has(name) && std::find(opts.begin(), opts.end(), kind) == opts.end())
      throw UsageError(std::string("--") + name + " is given but --optimizers has no " + attn::optimizer_name(kind) +
                       " run to use it");
  Work work = 0;
  std::vector<attn::TrainConfig> grid;
  for (std::size_t dk : dks)
    for (const auto& div : divisors)
      for (auto opt : opts)
        for (const auto& lr : lrs)
          for (auto seed : seeds) {
            attn::TrainConfig c = base;
            c.dk = dk;
            attn::apply_divisor_option(c, div);
            c.optimizer = opt;
            c.lr = lr ? *lr
                      : lr_option(a, opt == attn::OptimizerKind::Adam ? "lr-adam" : "lr-sgd", opt, dk, c.d_model);
            c.seed = seed;
            c.log_every = steps;  // only step 1 and the last are needed
            attn::validate(c);
            check_calls_fit(c, eval);
            // The work this process does: its shard's runs (one run is below 2^56, so 4096 cannot wrap 128 bits).
            if (grid.size() % shard.n == shard.k - 1) work += attn::run_work(c, steps, eval);
            grid.push_back(c);
          }
  std::vector<std::size_t> mine;  // the grid's runs this process makes
  for (std::size_t i = shard.k - 1; i < grid.size(); i += shard.n) mine.push_back(i);

  check_run_work(shard.n > 1 ? "this shard (" + std::to_string(mine.size()) + " of the sweep's " +
                                   std::to_string(grid.size()) + " runs of " + std::to_string(steps) + " steps)"
                             : "the sweep (" + std::to_string(grid.size()) + " runs of " + std::to_string(steps) +
                                   " steps)",
                 work, kCliMaxWork, "fewer runs, fewer steps or smaller sizes");

  std::vector<std::string> cols{
      "task", "dk", "divisor", "optimizer", "lr", "seed", "steps", "final_loss", "final_accuracy",
      "final_attn_correct", "steps_to_90", "diverged", "grad_wq_step1", "grad_wk_step1", "logit_spread_step1",
      "logit_spread_last", "logit_max_abs_last", "seconds", "init", "softcap", "qk_clip", "qk_clips", "preset"};
  // A learning-rate sweep also reports the last step's attention entropy (the
  // collapse large models show at high rates), before "seconds"; without --lrs
  // the rows are as before.
  if (lr_axis) cols.insert(std::find(cols.begin(), cols.end(), "seconds"), "attn_entropy_last");
  if (a.has("shard")) {
    // A part says which it is and of what grid, for `attnlab merge`.
    std::string id = format + (preset ? preset->name : "") + std::to_string(steps) + "|" + std::to_string(eval);
    for (const std::string& col : cols) id += "|" + col;
    for (const attn::TrainConfig& c : grid)
      id += "|" + std::string(attn::task_name(c.task)) + "," + std::to_string(c.dk) + "," + std::to_string(c.heads) +
            "," + std::to_string(c.d_model) + "," + std::to_string(c.dv) + "," + attn::divisor_option_label(c) + "," +
            attn::optimizer_name(c.optimizer) + "," + attn::num_exact(c.lr) + "," + attn::init_name(c.init) + "," +
            attn::num_exact(c.softcap) + "," + attn::num_exact(c.qk_clip) + "," + std::to_string(c.batch) + "," +
            std::to_string(c.seed);
    out << shard_header(format, shard, grid.size(), id) << "\n";
  }
  if (format == "csv") {
    for (std::size_t j = 0; j < cols.size(); ++j) out << (j ? "," : "") << cols[j];
    out << "\n" << std::flush;
    check_output(out);
  }
  // --jobs N: N runs at once, each a Trainer of its own on a thread of its
  // own (the core keeps no mutable state outside a Trainer). The rows come out
  // in the grid's order, each as soon as it and every row before it are done,
  // the same bytes as --jobs 1 but for "seconds".
  struct Done {
    RunResult r;
    std::size_t qk_clips = 0;
    std::exception_ptr error;
    bool ready = false;
  };
  std::vector<Done> done(mine.size());
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  auto worker = [&] {
    for (std::size_t i; !stop && (i = next++) < mine.size();) {
      Done d;
      try {
        attn::Trainer t(grid[mine[i]]);
        d.r = train(t, steps, eval, nullptr, "", [](const double*) {});
        d.qk_clips = t.qk_clips();
      } catch (...) {
        d.error = std::current_exception();
      }
      d.ready = true;
      {
        std::lock_guard<std::mutex> lock(mu);
        done[i] = std::move(d);
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> pool;
  const std::size_t threads = std::min<std::size_t>(jobs, mine.size());
  Progress bar(err, progress);
  // Stops and joins the workers however this function is left (an unread stdout ends it early).
  struct Joiner {
    std::vector<std::thread>& pool;
    std::atomic<bool>& stop;
    ~Joiner() {
      stop = true;
      for (auto& th : pool) th.join();
    }
  } joiner{pool, stop};
  for (std::size_t k = 0; k < threads; ++k) pool.emplace_back(worker);
  for (std::size_t m = 0; m < mine.size(); ++m) {
    const std::size_t i = mine[m];
    const attn::TrainConfig& c = grid[i];
    Done d;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return done[m].ready; });
      d = std::move(done[m]);
    }
    if (d.error) std::rethrow_exception(d.error);
    const RunResult& r = d.r;
    if (m == 0)
      bar.estimate(r.seconds * static_cast<double>(mine.size()) / static_cast<double>(threads),
                   mine.size() == grid.size() ? "the sweep" : "this shard", "its first run");
    bar.show(m + 1, mine.size(), "runs",
             "(dk " + std::to_string(c.dk) + " " + attn::divisor_option_label(c) + " " + attn::optimizer_name(c.optimizer) +
                 (lr_axis ? " lr " + csv_num(c.lr) : std::string()) + " done)");
    if (r.diverged) {
      bar.finish();
      warn_diverged(err, "run " + std::to_string(i + 1) + "/" + std::to_string(grid.size()) + " (dk " +
                             std::to_string(c.dk) + ", divisor " + attn::divisor_option_label(c) + ", " +
                             attn::optimizer_name(c.optimizer) + ", lr " + csv_num(c.lr) + ", seed " +
                             std::to_string(c.seed) + ") ",
                    r.diverged);
    }
    Json row;
    row["task"] = attn::task_name(c.task);
    row["dk"] = c.dk;
    row["divisor"] = attn::divisor_option_label(c);
    row["optimizer"] = attn::optimizer_name(c.optimizer);
    row["lr"] = c.lr;  // what ran, exactly (an input, not a measurement)
    row["seed"] = c.seed;
    row["steps"] = steps;
    row["final_loss"] = sig7(r.eval.loss);
    row["final_accuracy"] = sig7(r.eval.accuracy);
    row["final_attn_correct"] = sig7(r.eval.attn_correct);
    row["steps_to_90"] = step_json(r.steps_to_90);
    row["diverged"] = step_json(r.diverged);
    row["grad_wq_step1"] = sig7(r.first[attn::kColGradWq]);
    row["grad_wk_step1"] = sig7(r.first[attn::kColGradWk]);
    row["logit_spread_step1"] = sig7(r.first[attn::kColLogitSpread]);
    row["logit_spread_last"] = sig7(r.last[attn::kColLogitSpread]);
    row["logit_max_abs_last"] = sig7(r.last[attn::kColLogitMaxAbs]);
    if (lr_axis) row["attn_entropy_last"] = sig7(r.last[attn::kColAttnEntropy]);
    row["seconds"] = sig7(r.seconds);
    row["init"] = attn::init_name(c.init);
    row["softcap"] = cap_json(c.softcap);
    row["qk_clip"] = cap_json(c.qk_clip);
    row["qk_clips"] = d.qk_clips;
    row["preset"] = preset ? Json(preset->name) : Json(nullptr);
    if (format == "csv") {
      for (std::size_t j = 0; j < cols.size(); ++j) {
        out << (j ? "," : "") << csv_cell(row[cols[j]]);
      }
      out << "\n" << std::flush;
    } else {
      out << row.dump() << "\n" << std::flush;
    }
    check_output(out);  // nobody reads the rows: stop before the next (long) run
  }
  bar.finish();
  return 0;
}

}  // namespace attncli
