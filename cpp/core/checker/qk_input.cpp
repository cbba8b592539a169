#include "checker/qk_input.h"

#include <cstring>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/size_limits.h"
#include "checker/io/csv_reader.h"
#include "checker/io/json_reader.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"

namespace attn {

namespace {

std::string lower(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return o;
}

void check_file(const char* argument, std::size_t size) {
  if (size == 0) fail_kind(argument, "file_empty", "", "%s: the file is empty", argument);
  if (size > limits::kMaxCheckFileBytes)
    fail_kind(argument, "file_size", strf("{\"bytes\":%zu,\"limit\":%zu}", size, limits::kMaxCheckFileBytes),
              "%s: the file is %zu bytes, more than the limit of %zu MiB", argument, size,
              limits::kMaxCheckFileBytes >> 20);
}

void check_names(const QkOptions& n) {
  for (const std::string* s : {&n.q, &n.k}) {
    bool ok = !s->empty() && s->size() <= 64;
    for (char c : *s) ok = ok && c > 32 && c < 127 && c != ',' && c != '"';
    if (!ok)
      fail_kind("names", "name", "{\"value\":" + jstr(*s, 64) + "}", "array names must be 1 to 64 printable characters without spaces, commas or quotes, got '%s'",
               escaped(*s, 64).c_str());
  }
  if (n.q == n.k)
    fail_kind("names", "names_same", "{\"value\":" + jstr(n.q) + "}", "q and k need different names, got '%s' twice",
              n.q.c_str());
}

// One tensor from a file that holds only it.
Tensor load_one(const std::uint8_t* data, std::size_t size, TensorFormat format, const char* which) {
  check_file(which, size);
  if (format == TensorFormat::Auto) format = sniff_format(data, size);
  const std::string w(which);
  switch (format) {
    case TensorFormat::Npy: return parse_npy(data, size, which, "npy (" + w + ")");
    case TensorFormat::Csv: return parse_csv(data, size, {}, which).at(0);
    case TensorFormat::Json: return parse_json(data, size, {}, which).at(0);
    case TensorFormat::Npz:
    case TensorFormat::Auto: break;
  }
  fail_kind(which, "npz_alone", "", "%s: an .npz holds q and k together, so give it alone", which);
}

}  // namespace


TensorFormat parse_format(std::string_view text) {
  if (text == "auto") return TensorFormat::Auto;
  if (text == "npy") return TensorFormat::Npy;
  if (text == "npz") return TensorFormat::Npz;
  if (text == "csv") return TensorFormat::Csv;
  if (text == "json") return TensorFormat::Json;
  fail_kind("format", "choice", "{\"value\":" + jstr(text, 64) + ",\"choices\":\"auto, npy, npz, csv, json\"}",
            "format must be 'auto', 'npy', 'npz', 'csv' or 'json', got '%s'", escaped(text, 64).c_str());
}

const char* format_name(TensorFormat f) {
  switch (f) {
    case TensorFormat::Npy: return "npy";
    case TensorFormat::Npz: return "npz";
    case TensorFormat::Csv: return "csv";
    case TensorFormat::Json: return "json";
    case TensorFormat::Auto: break;
  }
  return "auto";
}

TensorFormat format_from_name(std::string_view file_name) {
  const std::size_t dot = file_name.rfind('.');
  if (dot == std::string_view::npos) return TensorFormat::Auto;
  const std::string ext = lower(file_name.substr(dot + 1));
  if (ext == "npy") return TensorFormat::Npy;
  if (ext == "npz") return TensorFormat::Npz;
  if (ext == "csv" || ext == "tsv" || ext == "txt") return TensorFormat::Csv;
  if (ext == "json") return TensorFormat::Json;
  return TensorFormat::Auto;
}

TensorFormat sniff_format(const std::uint8_t* data, std::size_t size) {
  if (size >= 6 && std::memcmp(data, "\x93NUMPY", 6) == 0) return TensorFormat::Npy;
  if (size >= 2 && data[0] == 'P' && data[1] == 'K') return TensorFormat::Npz;
  std::size_t i = size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) ++i;
  if (i < size && (data[i] == '{' || data[i] == '[')) return TensorFormat::Json;
  return TensorFormat::Csv;
}

namespace {

// The number S stored as the .npz array "sequences" (shape (1,) or (1, 1)
// accepted as any one-value array), or 0 when there is no such array.
std::size_t npz_sequences(const std::uint8_t* data, std::size_t size) {
  bool present = false;
  for (const ZipEntry& e : zip_entries(data, size)) present = present || e.name == "sequences.npy" || e.name == "sequences";
  if (!present) return 0;
  // Any one-value array of whole numbers or floats (np.savez(f, q=q, k=k, sequences=4)
  // stores an int64 of shape ()); anything else gets this message, naming sequences.
  const NpzMember m = npz_member(data, size, "sequences", "sequences");
  double v = -1.0;
  if (!npy_one_number(m.data, m.size, "sequences", m.where, v)) v = -1.0;
  if (!(v >= 1 && v <= static_cast<double>(limits::kMaxSeqLen)) || v != static_cast<double>(static_cast<std::size_t>(v)))
    fail_kind("sequences", "stored_sequences", strf("{\"lo\":1,\"hi\":%zu}", limits::kMaxSeqLen),
              "npz: the array 'sequences' must hold one integer in [1, %zu]", limits::kMaxSeqLen);
  return static_cast<std::size_t>(v);
}

// The number stored as the .npz array "divisor" (any one-value array), or 0
// when there is no such array; it must be a divisor Divisor::value accepts.
double npz_divisor(const std::uint8_t* data, std::size_t size) {
  bool present = false;
  for (const ZipEntry& e : zip_entries(data, size)) present = present || e.name == "divisor.npy" || e.name == "divisor";
  if (!present) return 0;
  const NpzMember m = npz_member(data, size, "divisor", "divisor");
  double v = -1.0;
  if (!npy_one_number(m.data, m.size, "divisor", m.where, v)) v = -1.0;
  if (!(v >= limits::kMinDivisor && v <= limits::kMaxDivisor))
    fail_kind("divisor", "stored_divisor", strf("{\"lo\":%g,\"hi\":%g}", limits::kMinDivisor, limits::kMaxDivisor),
              "npz: the array 'divisor' must hold one number in [%g, %g]: what the model divided q·k by",
              limits::kMinDivisor, limits::kMaxDivisor);
  return v;
}

}  // namespace

QkTensors load_qk(const std::uint8_t* data, std::size_t size, TensorFormat format,
                  const QkOptions& options) {
  check_names(options);
  check_file("file", size);
  if (format == TensorFormat::Auto) format = sniff_format(data, size);
  const std::vector<std::string> both{options.q, options.k};
  const std::size_t s = options.sequences ? options.sequences : 1;
  switch (format) {
    case TensorFormat::Npz: {
      Tensor q = npz_array(data, size, options.q, "q");  // q first: errors name q before k
      Tensor k = npz_array(data, size, options.k, "k");
      const std::size_t stored = options.sequences ? 0 : npz_sequences(data, size);
      QkTensors t = make_qk(std::move(q), std::move(k), format, stored ? stored : s);
      t.stored_divisor = npz_divisor(data, size);
      return t;
    }
    case TensorFormat::Csv: {
      auto t = parse_csv(data, size, both, "file");
      return make_qk(std::move(t[0]), std::move(t[1]), format, s);
    }
    case TensorFormat::Json: {
      auto t = parse_json(data, size, both, "file");
      return make_qk(std::move(t[0]), std::move(t[1]), format, s);
    }
    case TensorFormat::Npy:
    case TensorFormat::Auto: break;
  }
  fail_kind("file", "npy_single", "", "npy: a .npy file holds one array: give two files (q first, then k), or one .npz "
                   "written by numpy.savez(f, q=q, k=k)");
}

QkTensors load_qk_pair(const std::uint8_t* q_data, std::size_t q_size, TensorFormat q_format,
                       const std::uint8_t* k_data, std::size_t k_size, TensorFormat k_format,
                       std::size_t sequences) {
  Tensor q = load_one(q_data, q_size, q_format, "q");
  Tensor k = load_one(k_data, k_size, k_format, "k");
  const TensorFormat f = q_format == k_format && q_format != TensorFormat::Auto
                             ? q_format
                             : sniff_format(q_data, q_size);
  return make_qk(std::move(q), std::move(k), f, sequences ? sequences : 1);
}

namespace {

// The "shape" member of a reader's error parameters ({"shape":"(15,)",...}):
// a shape's text holds no quote or backslash, so no unescaping is needed.
std::string shape_param(const std::string& params) {
  const std::string key = "\"shape\":\"";
  const std::size_t a = params.find(key);
  if (a == std::string::npos) return "?";
  const std::size_t b = params.find('"', a + key.size());
  return params.substr(a + key.size(), b - a - key.size());
}

}  // namespace

std::string scores_shape_text(const QkTensors& t, bool alternatives) {
  const std::size_t nk = t.n_k / t.sequences;
  if (t.heads != 1) return strf("(%zu, %zu, %zu)", t.heads, t.n_q, nk);
  return alternatives ? strf("(%zu, %zu) or (1, %zu, %zu)", t.n_q, nk, t.n_q, nk) : strf("(%zu, %zu)", t.n_q, nk);
}

Scores load_scores(const std::uint8_t* data, std::size_t size, TensorFormat format, ScoreKind kind,
                   const QkTensors* against) {
  const char* which = score_kind_name(kind);
  check_file(which, size);
  if (format == TensorFormat::Auto) format = sniff_format(data, size);
  Scores s;
  s.kind = kind;
  const std::string w(which);
  try {
    switch (format) {
      case TensorFormat::Npy: s.t = parse_npy(data, size, which, "npy (" + w + ")", true); return s;
      case TensorFormat::Csv: s.t = parse_csv(data, size, {}, which).at(0); return s;
      case TensorFormat::Json: s.t = parse_json(data, size, {}, which).at(0); return s;
      case TensorFormat::Npz:
      case TensorFormat::Auto: break;
    }
  } catch (const ArgumentError& e) {
    // The reader knows the layout, not the numbers: with q and k at hand, say the shape they need.
    if (!against || e.kind() != "scores_rank") throw;
    const std::string shape = shape_param(e.params());
    const std::string want = scores_shape_text(*against);
    fail_kind(which, "scores_shape",
              "{\"shape\":" + jstr(shape) + ",\"expected\":" + jstr(scores_shape_text(*against, false)) + "}",
              "%s has shape %s, but q and k need %s: [heads, n_q, n_k / sequences], one row per query over its "
              "sequence's keys",
              which, shape.c_str(), want.c_str());
  }
  fail_kind(which, "npz_scores", "", "%s: give an .npy, JSON or CSV file here; an .npz holds its own array '%s' beside q and k",
            which, which);
}

bool load_npz_scores(const std::uint8_t* data, std::size_t size, Scores& out) {
  bool logits = false, probs = false;
  for (const ZipEntry& e : zip_entries(data, size)) {
    logits = logits || e.name == "logits.npy" || e.name == "logits";
    probs = probs || e.name == "probs.npy" || e.name == "probs";
  }
  if (logits && probs)
    fail_kind("file", "scores_both", "", "npz: the file holds both 'logits' and 'probs': keep one, the fit reads either");
  if (!logits && !probs) return false;
  out.kind = logits ? ScoreKind::Logits : ScoreKind::Probs;
  out.t = npz_array(data, size, score_kind_name(out.kind), score_kind_name(out.kind), true);
  return true;
}

QkTensors make_qk(Tensor q, Tensor k, TensorFormat format, std::size_t sequences) {
  auto heads = [](const Tensor& t) { return t.shape.size() == 3 ? t.shape[0] : std::size_t{1}; };
  QkTensors r;
  r.format = format;
  r.heads = heads(q);
  r.dk = q.shape.back();
  r.n_q = q.shape[q.shape.size() - 2];
  r.n_k = k.shape[k.shape.size() - 2];
  if (heads(k) != r.heads || k.shape.back() != r.dk)
    fail_kind("k", "shape_mismatch", "{\"q\":" + jstr(shape_text(q.shape)) + ",\"k\":" + jstr(shape_text(k.shape)) + "}",
              "q has shape %s but k has shape %s: heads and d_k must match", shape_text(q.shape).c_str(),
              shape_text(k.shape).c_str());
  if (r.n_k < 2) fail_kind("k", "few_keys", "", "k has 1 row: a softmax needs at least 2 keys to compare");
  if (sequences < 1 || sequences > limits::kMaxSeqLen)
    fail_kind("sequences", "range", strf("{\"lo\":1,\"hi\":%zu,\"value\":%zu,\"integer\":true}", limits::kMaxSeqLen, sequences),
              "sequences must be an integer in [1, %zu], got %zu", limits::kMaxSeqLen, sequences);
  if (r.n_q % sequences != 0 || r.n_k % sequences != 0)
    fail_kind("sequences", "sequences_divide", strf("{\"value\":%zu,\"nq\":%zu,\"nk\":%zu}", sequences, r.n_q, r.n_k),
              "%zu sequences do not divide q's %zu rows and k's %zu rows into equal blocks",
             sequences, r.n_q, r.n_k);
  if (r.n_k / sequences < 2)
    fail_kind("sequences", "sequences_keys", strf("{\"value\":%zu,\"keys\":%zu}", sequences, r.n_k / sequences),
              "%zu sequences leave %zu key a sequence: a softmax needs at least 2 keys to compare",
             sequences, r.n_k / sequences);
  r.sequences = sequences;
  // heads·n_q·(n_k/S) and heads·n_q·(n_k/S)·d_k, each factor already bounded by the shape checks.
  const std::uint64_t logits = std::uint64_t{r.heads} * r.n_q * (r.n_k / sequences);
  if (logits > limits::kMaxCheckLogits)
    fail_kind("file", "work", strf("{\"limit\":%zu}", limits::kMaxCheckLogits), "heads·n_q·n_k/S = %llu logits, more than the limit of %zu",
             static_cast<unsigned long long>(logits), limits::kMaxCheckLogits);
  if (logits * r.dk > limits::kMaxCheckWork)
    fail_kind("file", "work", strf("{\"limit\":%llu}", static_cast<unsigned long long>(limits::kMaxCheckWork)),
              "heads·n_q·n_k·d_k/S = %llu multiply-adds, more than the limit of %llu",
             static_cast<unsigned long long>(logits * r.dk),
             static_cast<unsigned long long>(limits::kMaxCheckWork));
  r.q = std::move(q.data);
  r.k = std::move(k.data);
  return r;
}

}  // namespace attn
