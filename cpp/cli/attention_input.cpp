#include "attention_input.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>

#include "args.h"
#include "base/format.h"
#include "base/json_reader.h"
#include "base/number.h"
#include "base/size_limits.h"
#include "base/text.h"

namespace attncli {

namespace {

namespace L = attn::limits;

std::string str(std::size_t v) { return std::to_string(v); }

// One matrix as it arrives: rows are checked when they open, numbers when they
// come, so the buffer stops at the first value past a limit.
struct Matrix {
  const char* name;      // "q", "k", "v"
  const char* rows_of;   // the limit names: "n" / "m" rows ...
  const char* cols_of;   // ... and "dk" / "dv" columns
  std::vector<float>* data;
  std::size_t rows = 0, cols = 0, in_row = 0;
  bool given = false;

  std::string at() const { return std::string(name) + "[" + str(rows - 1) + "]"; }

  void open_row() {
    if (rows == L::kMaxSeqLen)
      throw UsageError("input: \"" + std::string(name) + "\" has more than " + str(L::kMaxSeqLen) +
                       " rows, the limit of " + rows_of);
    if (rows > 0 && (rows + 1) * cols > L::kMaxAttentionElems)
      throw UsageError("input: \"" + std::string(name) + "\" holds more than " + str(L::kMaxAttentionElems) +
                       " numbers, the limit of " + rows_of + "*" + cols_of + " (" + str(rows + 1) + " rows of " +
                       str(cols) + ")");
    ++rows;
    in_row = 0;
  }
  void value(float v) {
    if (rows == 1 && in_row == L::kMaxDk)
      throw UsageError("input: " + at() + " has more than " + str(L::kMaxDk) + " numbers, the limit of " + cols_of);
    if (rows > 1 && in_row == cols)
      throw UsageError("input: " + at() + " has more than " + str(cols) + " numbers, but " + name + "[0] has " +
                       str(cols));
    data->push_back(v);
    ++in_row;
  }
  void close_row() {
    if (in_row == 0) throw UsageError("input: " + at() + " must be a non-empty array of numbers");
    if (rows == 1) cols = in_row;
    if (in_row != cols)
      throw UsageError("input: " + at() + " has " + str(in_row) + " numbers, but " + name + "[0] has " + str(cols));
  }
};

// The top object's members q, k, v (rows of numbers, each read as a float)
// and divisor, on the core's JSON reader; any other member is checked for
// JSON syntax and skipped whole at any depth, its numbers unchecked (Python's
// NaN and Infinity and 1e400 included: the command does not use them).
class Reader : attn::JsonReader {
 public:
  Reader(const std::string& text, AttentionInput& in)
      : JsonReader(text.data(), text.size()),
        in_(in),
        m_{{"q", "n", "dk", &in.q}, {"k", "m", "dk", &in.k}, {"v", "m", "dv", &in.v}} {}

  void read() {
    if (const void* nul = std::memchr(s_, 0, n_))
      syntax_at(static_cast<std::size_t>(static_cast<const char*>(nul) - s_), "a NUL byte: not a text file");
    skip_bom();
    ws();
    if (at_end()) syntax("the text is empty: expected an object");
    if (peek() != '{') throw UsageError(kNotObject);
    ++i_;
    members([&](const std::string& k) {
      const int member = k == "q" ? 0 : k == "k" ? 1 : k == "v" ? 2 : k == "divisor" ? kDivisor : kOther;
      if (member == kOther) return skip(kAnyDepth);
      bool& seen = member == kDivisor ? divisor_seen_ : m_[member].given;
      if (seen) throw UsageError("input: \"" + attn::escaped(k) + "\" is given twice");
      seen = true;
      if (member == kDivisor) return divisor();
      matrix(m_[member]);
    });
    end();
    for (const Matrix& x : m_)
      if (!x.given) throw UsageError("input: missing \"" + std::string(x.name) + "\"");
  }
  const Matrix& matrix(int i) const { return m_[i]; }

 private:
  static constexpr int kDivisor = 3, kOther = 4;
  static constexpr std::size_t kAnyDepth = SIZE_MAX;  // skipped members: a stack, no recursion, no limit
  static constexpr const char* kNotObject = "input: must be a JSON object with \"q\", \"k\", \"v\"";

  [[noreturn]] void raise_syntax(std::size_t at, const std::string& what) const override {
    const attn::TextPlace p = place(at);
    throw UsageError("input: not valid JSON: line " + str(p.line) + ", column " + str(p.column) + ": " + what);
  }

  // The work n·m·(dk + dv) from what has arrived (a size not seen yet counts
  // as 1): a lower bound, so a file past attn::limits::kMaxAttentionWork is
  // refused while it is read, not after (check_attention_shape checks again).
  void check_work() const {
    const Matrix &q = m_[0], &k = m_[1], &v = m_[2];
    const std::uint64_t n = std::max<std::size_t>(q.rows, 1), m = std::max({k.rows, v.rows, std::size_t{1}});
    const std::uint64_t dk = std::max({q.cols, k.cols, std::size_t{1}}), dv = std::max<std::size_t>(v.cols, 1);
    if (n * m * (dk + dv) > L::kMaxAttentionWork)
      throw UsageError("input: n*m*(dk+dv) is at least " + str(n) + "*" + str(m) + "*(" + str(dk) + "+" + str(dv) +
                       ") = " + std::to_string(n * m * (dk + dv)) + " multiply-adds, more than the limit of " +
                       std::to_string(L::kMaxAttentionWork));
  }

  // What a value that is not a number is, for "is not a number (it is ...)".
  const char* kind_here() const {
    switch (peek()) {
      case '[': return "an array";
      case '{': return "an object";
      case '"': return "a string";
      case 'n': return "null";
      case 't': case 'f': return "a boolean";
      default: return nullptr;
    }
  }

  void matrix(Matrix& x) {
    if (peek() != '[') {
      skip(kAnyDepth);  // its syntax first, so "q": tru is a syntax error
      throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
    }
    ++i_;
    ws();
    if (peek() == ']') throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
    elements([&](std::size_t) {
      if (peek() != '[') {
        skip(kAnyDepth);
        throw UsageError("input: " + std::string(x.name) + "[" + str(x.rows) + "] must be a non-empty array of numbers");
      }
      ++i_;
      x.open_row();
      check_work();
      elements([&](std::size_t) { number(x); });
      x.close_row();
      check_work();
    });
  }

  void number(Matrix& x) {
    const std::string where = x.at() + "[" + str(x.in_row) + "]";
    if (const char* what = kind_here()) {
      // A string, null or a boolean: its syntax first (an array or object is refused at its bracket).
      const char c = peek();
      const std::size_t start = i_;
      if (c == '"') {
        string();
      } else if (c != '[' && c != '{' && value_token() != (c == 'n' ? "null" : c == 't' ? "true" : "false")) {
        i_ = start;
        syntax("'" + attn::escaped(std::string(value_token()), 40) + "' is not a JSON value");
      }
      throw UsageError("input: " + where + " is not a number (it is " + what + ")");
    }
    const std::string_view t = value_token();
    float v = 0;
    switch (float_token(t, v)) {  // a token outside the grammar is its syntax error
      case attn::NumberRead::Ok: return x.value(v);
      case attn::NumberRead::NotFinite:
        throw UsageError("input: " + where + " is " + attn::escaped(std::string(t), 40) + ", not a finite number");
      default: throw UsageError("input: " + where + " is outside the float range");
    }
  }

  void divisor() {
    if (peek() == '"') {
      in_.divisor = string();
      // Cut short, "1.000…0e-5" would read as 1: refuse it rather than guess.
      if (cut_) throw UsageError("input: \"divisor\" is longer than 256 bytes");
      return;
    }
    const std::size_t start = i_;
    if (!kind_here()) {
      const std::string_view t = value_token();
      if (attn::is_number_text(t)) {
        in_.divisor = std::string(t);  // Divisor::parse reads it with the same grammar
        return;
      }
    }
    i_ = start;
    skip(kAnyDepth);
    throw UsageError("input: \"divisor\" must be \"sqrt\", \"dk\" or a number");
  }

  AttentionInput& in_;
  Matrix m_[3];
  bool divisor_seen_ = false;
};

}  // namespace

AttentionInput read_attention_input(const std::string& text) {
  AttentionInput in;
  Reader r(text, in);
  r.read();
  const auto& q = r.matrix(0);
  const auto& k = r.matrix(1);
  const auto& v = r.matrix(2);
  if (k.cols != q.cols)
    throw UsageError("input: q rows have " + str(q.cols) + " numbers but k rows have " + str(k.cols));
  if (v.rows != k.rows) throw UsageError("input: k has " + str(k.rows) + " rows but v has " + str(v.rows));
  in.shape = {q.rows, k.rows, q.cols, v.cols};
  attn::check_attention_shape(in.shape);  // n*m and n*dv: the outputs' sizes, before they exist
  return in;
}

// The reader needs the whole text (a NUL byte anywhere is refused before any
// value is read), so a stream is read into one string first: the text plus its
// floats, about 1 + 2 bytes a byte of input at worst (a float is at least
// "0," in the text and 4 bytes read). The caller's stream bounds its size.
AttentionInput read_attention_input(std::istream& text) {
  const std::string all{std::istreambuf_iterator<char>(text), std::istreambuf_iterator<char>()};
  return read_attention_input(all);
}

}  // namespace attncli
