#include "help.h"

#include <string>

#include "args.h"
#include "base/size_limits.h"
#include "base/text.h"
#include "kernels/dot.h"
#include "kernels/madd.h"
#include "kernels/matmul.h"
#include "samples/sample_qk.h"
#include "train/train_config.h"
#include "train_commands.h"

#ifndef ATTN_VERSION
#define ATTN_VERSION "0.0.0"
#endif
#ifndef ATTN_BUILD
#define ATTN_BUILD "unknown"
#endif

namespace attncli {

namespace {

namespace L = attn::train_limits;
using std::to_string;

std::string ints(std::size_t lo, std::size_t hi) { return to_string(lo) + " .. " + to_string(hi); }
const std::string kSeedRange = ints(0, L::kMaxSeed);
// A limit as the help writes it: 1e12, 1e-30 (printf's "1e+12" without the '+').
std::string sci(double v) {
  std::string s = attn::num(v);
  const std::size_t plus = s.find("e+");
  if (plus != std::string::npos) s.erase(plus + 1, 1);
  return s;
}
const std::string kDivisorNumber =
    "a number in [" + sci(attn::limits::kMinDivisor) + ", " + sci(attn::limits::kMaxDivisor) + "]";
const std::string kDivisor = "sqrt, dk or " + kDivisorNumber;
const std::string kLrRange = "(0, " + attn::num(L::kMaxLr) + "]";
// The default rates: the reference runs', scaled (train_config.h reference_lr).
const std::string kLrScaled = " times 2 dk / dmodel";
const std::string kLrAdam = sci(attn::kReferenceLrAdam) + kLrScaled;
const std::string kLrSgd = sci(attn::kReferenceLrSgd) + kLrScaled;
// --softcap and --qk-clip: one range, the check's own text (args.h cap_range).
const std::string& kCap = cap_range();
// --preset NAME, in every command that takes it: an option given beside it wins.
const std::string kPresetRule = "; an option given beside it wins over the preset's value";

// --progress and --quiet, flags of the commands whose work can take seconds
// (progress.h take_progress). train and sweep also print an estimate before
// work of more than a minute, which --quiet hides too.
std::vector<OptionSpec> progress_flags(bool estimate) {
  return {{"progress", "", "flag", "", "off",
           "progress on stderr even when it is not a terminal: a line a second, once the work has run a second"},
          {"quiet", "", "flag", "", "off",
           std::string("no progress (by default a bar on stderr when it is a terminal, once the work has run a second)") +
               (estimate ? " and no estimate (by default one line before a run or sweep of more than a minute)" : "")}};
}

// A training option of the core's table (train_config.h train_options): its
// type, range and default as the parser reads them; `def` replaces the
// default's text where the command computes it. A choice's meta is its names.
OptionSpec table_option(const char* name, const std::string& meta, const std::string& meaning,
                        const std::string& def = "") {
  const attn::TrainOption& o = attn::train_option(name);
  const bool integer = std::string(o.type) == "integer";
  if (std::string(o.type) == "choice") {  // its names: recall|copy
    std::string names = o.choices;
    for (std::size_t at; (at = names.find(", ")) != std::string::npos;) names.replace(at, 2, "|");
    return {name, names, o.type, o.choices, !def.empty() ? def : o.def_text, meaning};
  }
  return {name, meta, o.type,
          integer ? ints(static_cast<std::uint64_t>(o.lo), static_cast<std::uint64_t>(o.hi)) : o.choices,
          !def.empty() ? def : integer ? to_string(static_cast<std::uint64_t>(o.def)) : o.def_text, meaning};
}

// Options train and sweep share (base_config, preset_option, format_of, cap_option), then --progress and --quiet.
std::vector<OptionSpec> shared_train_options() {
  return {
      table_option("task", "", "the task: recall a key's value, or copy a token"),
      table_option("heads", "N", "attention heads"),
      table_option("dmodel", "N", "the model's width d_model"),
      table_option("dv", "N", "the value width d_v of a head", "dmodel / heads"),
      table_option("steps", "N", "training steps"),
      table_option("batch", "N", "samples a step"),
      table_option("init", "", "the weights' initialisation (t5: W_Q with variance 1/(d_model d_k))"),
      table_option("eval", "N", "held-out samples for the final loss and accuracy"),
      {"format", "json|csv", "choice", "json, csv", "json", "the output's format"},
      {"softcap", "C", "number", kCap, "none", "logits s become C tanh(s / C) after the divisor (Gemma 2: 50)"},
      {"qk-clip", "TAU", "number", kCap, "none",
       "after each step, heads whose largest |logit| passed TAU have W_Q and W_K scaled back to it (Kimi K2)"},
      {"preset", "NAME", "text", "a name `attnlab presets` prints", "none",
       "a real model's d_k, divisor, soft-cap and init" + kPresetRule},
      progress_flags(true)[0],
      progress_flags(true)[1],
  };
}

std::vector<CommandSpec> make_specs() {
  std::vector<CommandSpec> v;
  v.push_back({"softmax", "", "softmax of one row of scores, with its entropy, largest weight and Jacobian norm",
               {{"scores", "14,10,12", "list", "1 .. 1000000 finite numbers", "required", "the row of scores"},
                {"divisor", "X|sqrt|dk", "text", kDivisor, "1", "what the scores are divided by"},
                {"dk", "N", "integer", ints(1, attn::limits::kMaxDk), "none", "d_k, for --divisor sqrt or dk"}},
               ""});
  v.push_back({"variance", "", "Monte Carlo of q.k for random q and k: its mean, variance and histogram",
               {{"dk", "N", "integer", ints(1, attn::limits::kMaxDk), "required", "the vectors' dimension d_k"},
                {"samples", "N", "integer", ints(2, attn::limits::kMaxSamples), "10000", "samples of q.k"},
                {"seed", "S", "integer", kSeedRange, "0", "the random seed"},
                {"divisor", "sqrt|dk|X", "text", kDivisor, "sqrt", "what q.k is divided by"},
                {"rho", "R", "number", "[-1, 1]", "0", "the correlation of q's and k's entries"},
                {"sigma-q", "A", "number", "[1e-06, 1000]", "1", "the standard deviation of q's entries"},
                {"sigma-k", "B", "number", "[1e-06, 1000]", "1", "the standard deviation of k's entries"},
                {"bins", "N", "integer", ints(1, attn::limits::kMaxBins), "64", "histogram bins"},
                progress_flags(false)[0],
                progress_flags(false)[1]},
               ""});
  v.push_back({"attention", "", "scaled dot-product attention of q, k and v read from a JSON file",
               {{"input", "FILE|-", "file", "a JSON file, or - for standard input", "required",
                 "{\"q\":[[...]],\"k\":[[...]],\"v\":[[...]],\"divisor\":\"sqrt\"}"},
                {"divisor", "sqrt|dk|X", "text", kDivisor, "the file's, else sqrt", "what q.k is divided by"}},
               ""});
  v.push_back({"check", "FILE [FILE_K]", "checks a model's q and k (and its logits) for saturation, per head",
               {{"divisor", "sqrt|dk|X", "text", kDivisor, "the file's, else sqrt", "the divisor the model uses"},
                {"preset", "NAME", "text", "a name `attnlab presets` prints", "none",
                 "judge at a real model's divisor, with its d_k (q and k must have it) and soft-cap (the scale fit "
                 "undoes it)" + kPresetRule},
                {"q", "NAME", "text", "an array, member or row name", "q", "q's name inside one file"},
                {"k", "NAME", "text", "an array, member or row name", "k", "k's name inside one file"},
                {"sequences", "S", "integer", ints(1, attn::limits::kMaxSeqLen), "the file's, else 1",
                 "query block s attends to key block s only"},
                {"format", "auto|npy|npz|csv|json", "choice", "auto, npy, npz, csv, json", "auto",
                 "the files' format (auto: from the name and bytes)"},
                {"logits", "FILE", "file", ".npy, JSON or CSV, [heads, n_q, n_k]", "none",
                 "the model's own logits: the divisor it used is fitted, per head"},
                {"probs", "FILE", "file", ".npy, JSON or CSV, [heads, n_q, n_k]", "none",
                 "the model's own probabilities, instead of --logits"},
                progress_flags(false)[0],
                progress_flags(false)[1]},
               "FILE: an .npz with q and k, JSON {\"q\":...,\"k\":...}, CSV rows 'q,...'/'k,...'; or two files, q then "
               "k (.npy, JSON array, CSV)."});
  v.push_back({"sample-qk", "", "writes q and k for the checker: synthetic, or from a training-lab run",
               {{"out", "FILE.npz", "file", "a path", "required", "the .npz to write"},
                {"source", "synthetic|lab", "choice", "synthetic, lab", "synthetic", "made up, or a lab run's"},
                {"kind", "init|saturated|learned", "choice", "init, saturated, learned", "init", "which state"},
                {"seed", "S", "integer", kSeedRange, "1 (lab: 0)", "the random seed"},
                {"heads", "H", "integer", ints(1, 64), "4", "heads (synthetic only)"},
                {"n", "N", "integer", ints(2, 1024), "64", "rows of q and of k (synthetic only)"},
                {"dk", "D", "integer", ints(1, 1024), "64", "d_k (synthetic only)"},
                {"steps", "N", "integer", ints(1, attn::kMaxLabSampleSteps), "200", "training steps (lab only)"}},
               ""});
  v.push_back({"saturation", "", "how peaked softmax(q.k / divisor) is over n random keys: means and distribution",
               {{"dk", "N", "integer", ints(1, attn::limits::kMaxDk), "required (or --preset)", "d_k"},
                {"n", "N", "integer", ints(1, attn::limits::kMaxSeqLen), "required", "keys a row"},
                {"divisor", "sqrt|dk|X|ssmax|ssmax:S", "text", kDivisor + ", ssmax, ssmax:S (S in [1e-6, 1e6])", "sqrt",
                 "what q.k is divided by; ssmax: scores * S ln n / sqrt(d_k), S = 0.43"},
                {"softcap", "C", "number", kCap, "none", "logits s become C tanh(s / C)"},
                {"samples", "N", "integer", ints(2, 1'000'000), "1000", "rows sampled"},
                {"seed", "S", "integer", kSeedRange, "0", "the random seed"},
                {"preset", "NAME", "text", "a name `attnlab presets` prints", "none",
                 "a real model's d_k, divisor and soft-cap (--dk, --divisor, --softcap)" + kPresetRule},
                {"threshold", "T", "number", "a power of ten, 1e-40 .. 0.1", "1e-3",
                 "the shares of rows whose Jacobian norm, and key 0's p(1 - p), are below T"},
                progress_flags(false)[0],
                progress_flags(false)[1]},
               ""});
  v.push_back({"presets", "", "real models' d_k, divisor and soft-cap (GPT-2, Llama, Gemma 2, T5, muP), with sources",
               {}, ""});
  {
    CommandSpec t{"train", "", "trains the attention model on a task and prints its metrics, step by step", {}, ""};
    const std::vector<OptionSpec> shared = shared_train_options();
    t.options = {
        shared[0],  // --task first, as before
        table_option("dk", "N", "d_k of a head"),
        {"divisor", "sqrt|1|2|dk|X|qknorm", "text", "sqrt, 1, 2, dk, qknorm or " + kDivisorNumber,
         attn::train_option("divisor").def_text, "what q.k is divided by; qknorm: QK-LayerNorm, then sqrt(d_k)"},
        table_option("optimizer", "", "the optimiser"),
        {"lr", "X", "number", kLrRange, sci(attn::kReferenceLrAdam) + " (adam) or " + sci(attn::kReferenceLrSgd) + " (sgd)," + kLrScaled, "the learning rate"},
        table_option("seed", "S", "the random seed"),
        table_option("log-every", "N", "a metrics row every N steps (and step 1)"),
    };
    t.options.insert(t.options.end(), shared.begin() + 1, shared.end());
    v.push_back(t);
  }
  {
    CommandSpec s{"sweep", "", "trains a grid of runs (d_k x divisor x optimiser x rate x seed), one line each", {},
                  "Each run's row: its settings, final loss and accuracy, steps to 90%, divergence, first and last "
                  "gradients and logits."};
    s.options = {
        {"dks", kSweepDks, "list", "integers in " + ints(1, L::kMaxDk), kSweepDks, "the d_k axis"},
        {"divisors", kSweepDivisors, "list", "train's --divisor values", kSweepDivisors, "the divisor axis"},
        {"optimizers", kSweepOptimizers, "list", attn::choice_list(attn::kOptimizerNames), kSweepOptimizers, "the optimiser axis"},
        {"lr-adam", "X", "number", kLrRange, kLrAdam, "Adam's rate (not with --lrs)"},
        {"lr-sgd", "X", "number", kLrRange, kLrSgd, "SGD's rate (not with --lrs)"},
        {"lrs", "1e-3,1e-2,...", "list", "distinct numbers in " + kLrRange, "none",
         "a learning-rate axis: each rate for every optimiser"},
        {"seeds", "0,1,...", "list", "integers in " + kSeedRange, "0", "the seed axis"},
        {"jobs", "N", "integer", ints(1, 256), "the machine's cores",
         "runs at once; the rows are the same bytes as with --jobs 1 (but \"seconds\"), in the grid's order"},
        {"shard", "K/N", "text", "1 <= K <= N <= 4096", "none",
         "run only the K-th of N parts of the grid (runs i with i mod N = K - 1), for `attnlab merge`"},
    };
    for (auto& o : shared_train_options()) s.options.push_back(o);
    v.push_back(s);
  }
  v.push_back({"merge", "PART...", "joins the parts of a `sweep --shard K/N` into what the unsharded sweep prints", {},
               "The parts may come in any order; a missing, repeated, truncated or foreign part is refused, naming it."});
  return v;
}

// The command and its options; an option's words are joined by '\x01', so a
// wrapped line never splits "[--batch N]" (wrap() turns them back into spaces).
std::string synopsis(const CommandSpec& c) {
  std::string s = c.name;
  if (!c.args.empty()) s += " " + c.args;
  for (const auto& o : c.options) {
    const bool required = o.def.rfind("required", 0) == 0;
    const std::string word = "--" + o.name + (o.meta.empty() ? "" : "\x01" + o.meta);
    s += required ? " " + word : " [" + word + "]";
  }
  return s;
}

std::string spaced(std::string s) {
  for (char& ch : s)
    if (ch == '\x01') ch = ' ';
  return s;
}

// Wraps `text` at `width` columns, continuation lines indented by `indent`.
std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent + word;
    } else {
      line += (line.empty() || line == indent ? "" : " ") + word;
    }
    i = j + 1;
  }
  return spaced(out + line);
}

}  // namespace

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = make_specs();
  return specs;
}

const CommandSpec* find_command(const std::string& name) {
  for (const auto& c : command_specs())
    if (c.name == name) return &c;
  return nullptr;
}

std::set<std::string> options_of(const std::string& command) {
  std::set<std::string> names;
  if (const CommandSpec* c = find_command(command))
    for (const auto& o : c->options)
      if (o.type != "flag") names.insert(o.name);  // flags are taken before Args (progress.h)
  return names;
}

std::string general_help() {
  std::string s =
      "usage: attnlab COMMAND [OPTIONS]\n"
      "       attnlab help [COMMAND]    attnlab COMMAND --help    attnlab --version\n\n";
  for (const auto& c : command_specs()) {
    s += "  " + wrap(synopsis(c), 100, "      ") + "\n";
    s += "      " + c.summary + "\n";
  }
  s += "\n  any command: [--madd separate|fused]  how the kernels' multiply-adds round: separate (the default: the\n"
       "      SIMD128 and scalar pages' numbers) or fused, one rounding (the relaxed-SIMD pages' numbers)\n"
       "  Output: JSON on stdout (train and sweep: or CSV); bad input: one line on stderr, exit 2.\n";
  return s;
}

std::string command_help(const CommandSpec& c) {
  std::string s = "usage: attnlab " + wrap(synopsis(c), 100, "         ") + "\n\n" + c.summary + "\n";
  if (!c.notes.empty()) s += wrap(c.notes, 100, "") + "\n";
  if (!c.options.empty()) s += "\noptions:\n";
  for (const auto& o : c.options) {
    s += "  --" + o.name + (o.meta.empty() ? "" : " " + o.meta) + "\n";
    s += "      " + wrap(o.meaning, 94, "      ") + "\n";
    s += "      " + o.type + (o.range.empty() ? "" : ", " + o.range) + "; default: " + o.def + "\n";
  }
  s += "\n  --madd separate|fused   how the kernels' multiply-adds round (every command); default: separate\n";
  if (c.name != "sample-qk")
    s += "  --out FILE              write the output to FILE instead of stdout: whole, once the command has\n"
         "                          succeeded, or not at all (a temporary file beside it, renamed into place)\n";
  s += "  --help, -h              this text\n";
  return s;
}

std::string markdown_help() {
  std::string s =
      "# The command-line tool, option by option\n\n"
      "Written by `attnlab help --markdown` from the table the parser reads its options from\n"
      "(`cpp/cli/help.cpp`); `tests/node/help_cli.test.mjs` fails when this page differs.\n"
      "`attnlab help COMMAND` prints the same in a terminal.\n";
  for (const auto& c : command_specs()) {
    s += "\n## " + c.name + "\n\n`attnlab " + spaced(synopsis(c)) + "`\n\n" + c.summary + ".";
    if (!c.notes.empty()) s += " " + c.notes;
    s += "\n";
    if (c.options.empty()) continue;
    s += "\n| option | meaning | type, range | default |\n|---|---|---|---|\n";
    for (const auto& o : c.options) {
      std::string meaning = o.meaning;
      for (std::size_t p = 0; (p = meaning.find('|', p)) != std::string::npos; p += 2) meaning.replace(p, 1, "\\|");
      std::string meta = o.meta;
      for (std::size_t p = 0; (p = meta.find('|', p)) != std::string::npos; p += 2) meta.replace(p, 1, "\\|");
      s += "| `--" + o.name + (meta.empty() ? "" : " " + meta) + "` | " + meaning + " | " + o.type + (o.range.empty() ? "" : ", " + o.range) +
           " | " + o.def + " |\n";
    }
  }
  s += "\nEvery command also takes `--madd separate|fused` (how the kernels' multiply-adds round; default "
       "`separate`), `--out FILE` (the output written to FILE whole, once the command has succeeded, or not at all; "
       "`sample-qk`'s `--out` is its archive) and `--help`. `train`, `sweep`, `saturation`, `variance` and `check` show "
       "progress on stderr, never on stdout, when stderr is a terminal and the work has run a second; `--progress` shows "
       "it elsewhere too (a line a second), `--quiet` never. Before a run or sweep of more than a minute `train` and "
       "`sweep` print its estimated time on stderr (from its first steps or first run). Wherever `--preset NAME` is "
       "taken, an option given beside it wins over the preset's value.\n";
  return s;
}

std::string version_text() {
  return std::string("attnlab ") + ATTN_VERSION + "\nbuild: " + ATTN_BUILD + "\nkernels: " +
         attn::dot_f32_kernel_name() + ", " + attn::matmul_f32_kernel_name() +
         "\nmultiply-add: " + attn::madd_name(attn::madd_mode()) + " (--madd fused: one rounding)\n";
}

}  // namespace attncli
