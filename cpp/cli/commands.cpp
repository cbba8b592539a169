#include "commands.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "args.h"
#include "attention_input.h"
#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "help.h"
#include "base/divisor.h"
#include "base/format.h"
#include "base/presets.h"
#include "base/size_limits.h"
#include "explain/attention.h"
#include "explain/qk_sampler.h"
#include "explain/softmax.h"
#include "kernels/dot.h"
#include "output.h"
#include "progress.h"

namespace attncli {

using Json = nlohmann::ordered_json;

namespace {

constexpr std::size_t kMaxInputBytes = 64u << 20;

// A float printed as the shortest decimal that reads back to the same float,
// so 0.419229f shows as 0.419229, not 0.41922900080680847.
double shortest(float f) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, f);
  *r.ptr = '\0';
  return std::strtod(buf, nullptr);
}

// One number as Json::dump() prints shortest(f): nlohmann's own to_chars,
// the routine dump() calls, so the bytes are those of the tree this command
// built before (a tree of n = m = 4096 weights took 800 MB for 220 MB of text).
void put_number(std::string& line, double v) {
  if (!std::isfinite(v)) {
    line += "null";  // what dump() prints for a value that is not finite
    return;
  }
  char buf[64];
  line.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, v));
}

// A float matrix as JSON rows, written to `out` row by row as formatted: the
// memory is one row of text, whatever the matrix's size.
void write_float_matrix(std::ostream& out, const std::vector<float>& data, std::size_t rows, std::size_t cols) {
  std::string line;
  out << '[';
  for (std::size_t i = 0; i < rows; ++i) {
    line.assign(i ? ",[" : "[");
    for (std::size_t j = 0; j < cols; ++j) {
      if (j) line += ',';
      put_number(line, shortest(data[i * cols + j]));
    }
    line += ']';
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    check_output(out);  // nobody reads: stop now, not after 16M numbers
  }
  out << ']';
}

// The input as a stream that refuses its 64 MiB + 1st byte (stdin has no size
// to check first), and a read error: the input is read through it, so the
// limit holds before the text grows past it.
class LimitedInput : public std::streambuf {
 public:
  LimitedInput(std::istream& source, std::string name) : source_(source), name_(std::move(name)) {}

 protected:
  int_type underflow() override {
    source_.read(buf_, sizeof buf_);
    if (source_.bad()) throw UsageError("input: cannot read " + name_);
    const auto got = static_cast<std::size_t>(source_.gcount());
    if (got == 0) return traits_type::eof();
    total_ += got;
    if (total_ > kMaxInputBytes) throw UsageError("input: larger than " + std::to_string(kMaxInputBytes >> 20) + " MiB");
    setg(buf_, buf_, buf_ + got);
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::istream& source_;
  std::string name_;
  std::size_t total_ = 0;
  char buf_[65536];
};

AttentionInput read_input(const std::string& path, std::istream& in) {
  const std::string shown = "'" + attn::escaped(path, 1024) + "'";
  auto parse = [](std::istream& source, const std::string& name) {
    LimitedInput buf(source, name);
    std::istream limited(&buf);
    return read_attention_input(limited);
  };
  if (path == "-") return parse(in, "standard input");
  // A regular file past the limit is refused from its size, before it is read.
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxInputBytes)
    throw UsageError("input: " + shown + " is " + std::to_string(size) + " bytes, larger than " +
                     std::to_string(kMaxInputBytes >> 20) + " MiB");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError("input: cannot open " + shown);
  return parse(f, shown);
}

}  // namespace

int run_softmax(const std::vector<std::string>& argv, std::ostream& out) {
  const Args a(argv, options_of("softmax"));
  const std::vector<double> scores = a.reals("scores");
  attn::Divisor div = attn::Divisor::value(1.0);
  if (a.has("divisor")) div = attn::Divisor::parse(a.text("divisor", ""));
  if (div.kind() != attn::Divisor::Kind::Value && !a.has("dk"))
    throw UsageError("--divisor " + div.label() + " needs --dk");
  if (div.kind() == attn::Divisor::Kind::Value && a.has("dk"))
    throw UsageError("--dk is used only by --divisor sqrt or dk, not by a number divisor");
  const auto dk = a.integer("dk", 1, 1, attn::limits::kMaxDk);
  const double d = div.resolve(dk);
  std::vector<double> probs(scores.size());
  const auto st = attn::softmax_stats(scores.data(), scores.size(), d, probs.data());
  Json j;
  j["scores"] = scores;
  j["divisor"] = d;
  j["probs"] = probs;
  j["entropy"] = st.entropy;
  j["max_prob"] = st.max_prob;
  j["jacobian_norm"] = st.jacobian_norm;
  out << j.dump() << "\n";
  return 0;
}

int run_variance(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> argv = args;
  const ProgressMode progress = take_progress(argv);
  const Args a(argv, options_of("variance"));
  if (!a.has("dk")) throw UsageError("--dk is required");
  attn::QkConfig c;
  c.dk = a.integer("dk", 64, 1, attn::limits::kMaxDk);
  const auto samples = a.integer("samples", 10000, 2, attn::limits::kMaxSamples);
  c.seed = a.integer("seed", 0, 0, std::numeric_limits<std::uint64_t>::max() >> 11);
  const auto div = attn::Divisor::parse(a.text("divisor", "sqrt"));
  c.divisor = div.resolve(c.dk);
  c.rho = a.real("rho", 0.0);
  c.sigma_q = a.real("sigma-q", 1.0);
  c.sigma_k = a.real("sigma-k", 1.0);
  c.bins = a.integer("bins", 64, 1, attn::limits::kMaxBins);
  attn::QkSampler sampler(c);
  // Drawn a batch at a time, for the bar: the sums go sample by sample, so
  // the numbers are those of one call. The limit on the whole is checked
  // first, by the core's check of one call.
  attn::check_product("dk*samples", c.dk, samples, attn::limits::kMaxSampleWork);
  Progress bar(err, progress);
  const std::size_t batch = std::max<std::size_t>(1, samples / 200);
  for (std::size_t done = 0; done < samples;) {
    const std::size_t count = std::min<std::size_t>(batch, samples - done);
    sampler.draw(count);
    done += count;
    if (bar.on()) bar.show(done, samples, "samples", "var(q.k) " + attn::strf("%.4g", sampler.summary().var));
  }
  bar.finish();
  const auto s = sampler.summary();
  Json j;
  j["dk"] = c.dk;
  j["samples"] = s.samples;
  j["mean"] = s.mean;
  j["var"] = s.var;
  j["scaled_mean"] = s.scaled_mean;
  j["scaled_var"] = s.scaled_var;
  j["theory_mean"] = s.theory_mean;
  j["theory_var"] = s.theory_var;
  j["theory_scaled_var"] = s.theory_scaled_var;
  j["var_stderr"] = s.var_stderr;  // NaN prints as null
  if (std::isnan(s.var_stderr))
    j["var_stderr_note"] = "fewer than " + std::to_string(attn::kMinStderrSamples) +
                           " samples: too few to estimate the fourth moment the standard error needs";
  j["divisor"] = c.divisor;
  j["divisor_label"] = div.label();
  j["rho"] = c.rho;
  j["sigma_q"] = c.sigma_q;
  j["sigma_k"] = c.sigma_k;
  j["seed"] = c.seed;
  j["kernel"] = attn::dot_f32_kernel_name();
  std::vector<std::uint64_t> counts(sampler.histogram().begin(), sampler.histogram().end());
  j["histogram"] = {{"lo", s.hist_lo}, {"hi", s.hist_hi}, {"below", s.below},
                    {"above", s.above}, {"counts", counts}};
  out << j.dump() << "\n";
  return 0;
}

int run_attention(const std::vector<std::string>& argv, std::istream& in, std::ostream& out) {
  const Args a(argv, options_of("attention"));
  if (!a.has("input")) throw UsageError("--input FILE is required ('-' reads standard input)");
  // Every shape is checked as it is read, and together before w and o exist.
  const AttentionInput input = read_input(a.text("input", "-"), in);
  const attn::AttentionShape& s = input.shape;
  const auto div = attn::Divisor::parse(a.has("divisor") ? a.text("divisor", "") : input.divisor);
  std::vector<float> w(s.n * s.m), o(s.n * s.dv);
  attn::attention_forward(input.q.data(), input.k.data(), input.v.data(), s, div.resolve(s.dk), w.data(),
                          o.data());
  // {"divisor":…,"weights":[[…]],"output":[[…]]}, streamed in that order.
  std::string head = "{\"divisor\":";
  put_number(head, div.resolve(s.dk));
  out << head << ",\"weights\":";
  write_float_matrix(out, w, s.n, s.m);
  out << ",\"output\":";
  write_float_matrix(out, o, s.n, s.dv);
  out << "}\n";
  return 0;
}

int run_presets(const std::vector<std::string>& argv, std::ostream& out) {
  const Args a(argv, options_of("presets"));
  (void)a;  // no options: an unknown one is refused
  Json list = Json::array();
  for (const attn::Preset& p : attn::presets()) {
    Json j;
    j["name"] = p.name;
    j["label"] = p.label;
    j["dk"] = p.dk;
    j["divisor"] = p.divisor;
    j["softcap"] = p.softcap > 0 ? Json(p.softcap) : Json(nullptr);
    j["rule"] = p.rule;
    j["init"] = *p.init ? Json(p.init) : Json(nullptr);
    j["source"] = p.source;
    list.push_back(std::move(j));
  }
  Json j;
  j["presets"] = std::move(list);
  out << j.dump() << "\n";
  return 0;
}

}  // namespace attncli
