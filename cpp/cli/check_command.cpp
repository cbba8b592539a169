#include "check_command.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <ostream>

#include "args.h"
#include "help.h"
#include "base/divisor.h"
#include "base/format.h"
#include "base/presets.h"
#include "base/size_limits.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"
#include "checker/check_run.h"
#include "checker/report.h"
#include "output.h"
#include "progress.h"
#include "samples/sample_qk.h"

namespace attncli {

CheckRequest parse_check_args(const std::vector<std::string>& argv) {
  // Positional arguments are the files; "--name value" pairs go to Args.
  std::vector<std::string> options;
  CheckRequest r;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i].rfind("--", 0) == 0) {
      options.push_back(argv[i]);
      if (i + 1 < argv.size()) options.push_back(argv[++i]);
    } else {
      r.files.push_back(argv[i]);
    }
  }
  const Args a(options, options_of("check"));
  if (r.files.empty() || r.files.size() > 2)
    throw UsageError("check needs one file (q and k together) or two (q, then k), got " +
                     std::to_string(r.files.size()));
  for (const std::string& f : r.files)
    if (f.empty()) throw UsageError("a file name is empty");
  if (r.files.size() == 2 && (a.has("q") || a.has("k")))
    throw UsageError("--q and --k name the arrays inside one file; with two files the first is q "
                     "and the second k");
  r.preset = a.text("preset", "");
  if (a.has("preset")) attn::find_preset(r.preset);  // fail now, before any file is read
  // No --divisor: the file's own "divisor" array if it has one, else √d_k.
  r.divisor = a.text("divisor", "");
  if (a.has("divisor")) attn::Divisor::parse(r.divisor);
  if (a.has("logits") && a.has("probs"))
    throw UsageError("--logits and --probs are two ways to give the model's scores: give one");
  r.logits = a.text("logits", "");
  r.probs = a.text("probs", "");
  if ((a.has("logits") && r.logits.empty()) || (a.has("probs") && r.probs.empty()))
    throw UsageError("a file name is empty");
  r.format = a.text("format", "");
  if (a.has("format")) attn::parse_format(r.format);
  r.options.q = a.text("q", "q");
  r.options.k = a.text("k", "k");
  r.options.sequences = a.integer("sequences", 0, 1, attn::limits::kMaxSeqLen);  // 0: from the file, else 1
  return r;
}

std::vector<std::uint8_t> read_input_file(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string shown = attn::escaped(path, 1024);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw UsageError("cannot open '" + shown + "'");
  if (!fs::is_regular_file(status)) throw UsageError("'" + shown + "' is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) throw UsageError("cannot read '" + shown + "'");
  if (size > attn::limits::kMaxCheckFileBytes)
    throw UsageError("'" + shown + "' is " + std::to_string(size) + " bytes, more than the limit of " +
                     std::to_string(attn::limits::kMaxCheckFileBytes >> 20) + " MiB");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError("cannot open '" + shown + "'");
  std::vector<std::uint8_t> data(static_cast<std::size_t>(size));
  f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(f.gcount()) != size) throw UsageError("cannot read '" + shown + "'");
  return data;
}

namespace {

// The report of q and k at the request's settings. --preset NAME with
// --divisor X: X wins over the preset's divisor, the rule of every command
// (an option given beside a preset wins over the preset's value). The
// preset's other settings still hold: q and k must have its d_k, and the
// scale fit undoes its soft-cap. The core's check_with takes a preset or a
// divisor, not both, so that case is put together here from its parts: the
// report at X (check_with), then the fit expecting X, with the preset's cap.
attn::CheckReport judge(const attn::QkTensors& t, const CheckRequest& request, const attn::Scores* scores) {
  attn::CheckSettings settings;
  settings.divisor = request.divisor;
  if (request.preset.empty() || request.divisor.empty()) {
    settings.preset = request.preset;
    return attn::check_with(t, settings, scores);
  }
  const attn::Preset& preset = attn::find_preset(request.preset);
  if (t.dk != preset.dk)
    throw UsageError(attn::strf("q and k have d_k = %zu, but preset %s has d_k = %zu", t.dk, preset.name, preset.dk));
  attn::CheckReport report = attn::check_with(t, settings, nullptr);
  report.preset = preset.name;
  if (scores) {
    const attn::Divisor divisor = attn::Divisor::parse(request.divisor);
    attn::ScaleExpectation e;
    e.divisor = divisor.resolve(t.dk);
    e.label = divisor.label();
    e.softcap = preset.softcap;  // not e.preset: the sentences would call X the preset's divisor
    attn::add_scale_fit(report, t, *scores, e);
  }
  return report;
}

}  // namespace

attn::CheckReport check_files(const CheckRequest& request, const FileReader& read, const StageReport& stage) {
  if (!request.preset.empty()) attn::find_preset(request.preset);  // before any file is read
  if (!request.divisor.empty()) attn::Divisor::parse(request.divisor);
  auto format_of = [&](const std::string& path) {
    return request.format.empty() ? attn::format_from_name(path) : attn::parse_format(request.format);
  };
  // An .npz or .npy read as CSV or JSON text would be refused at its first NUL
  // byte: say what the file is, and how to read it as that (a file without a
  // NUL byte is left to the text reader, so nothing more is refused).
  auto text = [](attn::TensorFormat f) { return f == attn::TensorFormat::Csv || f == attn::TensorFormat::Json; };
  auto read_as = [&](const std::string& path) {
    auto bytes = read(path);
    const attn::TensorFormat as = format_of(path), is = attn::sniff_format(bytes.data(), bytes.size());
    if (text(as) && !text(is) && is != attn::TensorFormat::Auto && std::memchr(bytes.data(), 0, bytes.size())) {
      const std::string name = attn::format_name(is);
      // Without --format the name decides, so dropping it helps only where the name does not say text.
      const bool drop = !request.format.empty() && !text(attn::format_from_name(path));
      throw UsageError("'" + attn::escaped(path) + "' looks like an ." + name + " (it begins as " +
                       (is == attn::TensorFormat::Npz ? "a zip archive" : "a NumPy array file") + " does), not " +
                       (as == attn::TensorFormat::Csv ? "CSV" : "JSON") + " text: " +
                       (drop ? "drop --format (or give --format " + name + ")" : "give --format " + name + " (or --format auto)"));
    }
    return bytes;
  };
  const std::string& extra = request.logits.empty() ? request.probs : request.logits;
  // The stages: q and k read, the model's scores read (given apart), the heads judged.
  const std::size_t stages = 2 + (extra.empty() ? 0 : 1);
  auto at = [&](std::size_t done, const std::string& what) {
    if (stage) stage(done, stages, what);
  };
  at(0, "reading '" + attn::escaped(request.files[0]) + "'" +
            (request.files.size() > 1 ? " and '" + attn::escaped(request.files[1]) + "'" : ""));
  // Each file's bytes are freed once read, and q and k once judged: the
  // report is written with neither held.
  attn::Scores scores;
  bool has_scores = false;
  auto load = [&] {
    if (request.files.size() == 1) {
      const auto bytes = read_as(request.files[0]);
      attn::QkTensors t = attn::load_qk(bytes.data(), bytes.size(), format_of(request.files[0]), request.options);
      if (t.format == attn::TensorFormat::Npz) has_scores = attn::load_npz_scores(bytes.data(), bytes.size(), scores);
      return t;
    }
    const auto q = read_as(request.files.at(0));
    const auto k = read_as(request.files.at(1));
    return attn::load_qk_pair(q.data(), q.size(), format_of(request.files[0]), k.data(), k.size(),
                              format_of(request.files[1]), request.options.sequences);
  };
  attn::QkTensors t = load();
  if (!extra.empty()) {
    at(1, "reading '" + attn::escaped(extra) + "'");
    const attn::ScoreKind kind = request.logits.empty() ? attn::ScoreKind::Probs : attn::ScoreKind::Logits;
    if (has_scores) attn::fail_scores_twice(scores.kind, kind);
    const auto bytes = read_as(extra);
    scores = attn::load_scores(bytes.data(), bytes.size(), format_of(extra), kind, &t);
    has_scores = true;
  }
  at(stages - 1, "judging " + std::to_string(t.heads) + (t.heads == 1 ? " head" : " heads") +
                     (has_scores ? " and fitting the scale" : ""));
  return judge(t, request, has_scores ? &scores : nullptr);
}

std::string check_report(const CheckRequest& request, const FileReader& read) {
  return attn::check_report_json(check_files(request, read));
}

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> argv = args;
  const ProgressMode progress = take_progress(argv);
  const CheckRequest request = parse_check_args(argv);
  Progress bar(err, progress);
  attn::CheckReport report;
  {
    // The core reads and judges in calls the bar cannot interrupt: a thread redraws it.
    ProgressTicker ticker(bar, "stages");
    report = check_files(request, read_input_file,
                         [&](std::size_t done, std::size_t total, const std::string& what) { ticker.set(done, total, what); });
  }
  bar.finish();
  attn::write_check_report_json(report, [&](const std::string& chunk) {
    out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    check_output(out);
  });
  out << "\n";
  return 0;
}

namespace {

// --source lab: q and k of a real training-lab run, with its `sequences` and
// `divisor` arrays (shape (1, 1), as the lab's export writes them): the
// checker judges the run at the divisor it trained with.
int run_lab_sample(const Args& a, std::ostream& out) {
  attn::LabSampleConfig c;
  c.kind = attn::parse_sample_kind(a.text("kind", "init"));
  c.seed = a.integer("seed", 0, 0, std::numeric_limits<std::uint64_t>::max() >> 11);
  c.steps = a.integer("steps", 200, 1, attn::kMaxLabSampleSteps);
  AtomicFile file(a.text("out", ""));  // a bad path fails now, not after the training
  const attn::QkTensors t = attn::lab_sample_qk(c);
  const float sequences = static_cast<float>(t.sequences);
  const float divisor = static_cast<float>(attn::lab_sample_divisor(c.kind).resolve(t.dk));
  const auto bytes = attn::write_npz({{"q", attn::write_npy(t.q.data(), {t.heads, t.n_q, t.dk})},
                                      {"k", attn::write_npy(t.k.data(), {t.heads, t.n_k, t.dk})},
                                      {"sequences", attn::write_npy(&sequences, {1, 1})},
                                      {"divisor", attn::write_npy(&divisor, {1, 1})}});
  file.commit(bytes);
  out << "{\"kind\":\"" << attn::sample_kind_name(c.kind) << "\",\"source\":\"lab\",\"seed\":" << c.seed
      << ",\"steps\":" << (c.kind == attn::SampleKind::Init ? 0 : c.steps) << ",\"q_shape\":[" << t.heads
      << "," << t.n_q << "," << t.dk << "],\"k_shape\":[" << t.heads << "," << t.n_k << "," << t.dk
      << "],\"sequences\":" << t.sequences << ",\"bytes\":" << bytes.size() << "}\n";
  return 0;
}

}  // namespace

int run_sample_qk(const std::vector<std::string>& argv, std::ostream& out) {
  const Args a(argv, options_of("sample-qk"));
  if (a.text("out", "").empty()) throw UsageError("--out FILE.npz is required");
  const std::string source = a.text("source", "synthetic");
  if (source != "synthetic" && source != "lab")
    throw UsageError("--source must be 'synthetic' or 'lab', got '" + attn::escaped(source) + "'");
  // An option the chosen source does not use is refused, not ignored.
  if (source == "lab") {
    for (const char* name : {"heads", "n", "dk"})
      if (a.has(name))
        throw UsageError(std::string("--") + name + " is for --source synthetic: a lab sample has the lab's shape "
                         "(2 heads, d_k 256, 16 sequences)");
    if (a.has("steps") && a.text("kind", "init") == "init")
      throw UsageError("--steps is for --kind saturated or learned: --kind init is the layer before any step");
    return run_lab_sample(a, out);
  }
  if (a.has("steps")) throw UsageError("--steps is for --source lab: a synthetic sample is not trained");
  attn::SampleQkConfig c;
  c.kind = attn::parse_sample_kind(a.text("kind", "init"));
  c.seed = a.integer("seed", 1, 0, std::numeric_limits<std::uint64_t>::max() >> 11);
  c.heads = a.integer("heads", 4, 1, 64);
  c.n = a.integer("n", 64, 2, 1024);
  c.dk = a.integer("dk", 64, 1, 1024);
  AtomicFile file(a.text("out", ""));
  const attn::QkTensors t = attn::sample_qk(c);
  const std::vector<std::size_t> shape{t.heads, t.n_q, t.dk};
  // The divisor such a layer divides by, √d_k, as the lab's export stores it.
  const float divisor = static_cast<float>(std::sqrt(static_cast<double>(t.dk)));
  const auto bytes = attn::write_npz({{"q", attn::write_npy(t.q.data(), shape)},
                                      {"k", attn::write_npy(t.k.data(), shape)},
                                      {"divisor", attn::write_npy(&divisor, {1, 1})}});
  file.commit(bytes);
  out << "{\"kind\":\"" << attn::sample_kind_name(c.kind)
      << "\",\"seed\":" << c.seed << ",\"shape\":[" << t.heads << "," << t.n_q << "," << t.dk
      << "],\"bytes\":" << bytes.size() << "}\n";
  return 0;
}

}  // namespace attncli
