#include "attention_input.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>

#include "args.h"
#include "base/format.h"
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
  bool given = false, done = false;

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

// A reader of the JSON text itself, one pass, no document tree: the top
// object's members q, k, v (rows of numbers, each number read by the core's
// one number grammar, base/number.h, as a float) and divisor; any other
// member is checked for JSON syntax and skipped whole, at any depth (a stack
// of open brackets, no recursion), its numbers unchecked (Python's NaN and
// Infinity and 1e400 included: the command does not use them).
class Reader {
 public:
  Reader(const std::string& text, AttentionInput& in)
      : s_(text), in_(in), m_{{"q", "n", "dk", &in.q}, {"k", "m", "dk", &in.k}, {"v", "m", "dv", &in.v}} {}

  void read() {
    if (const void* nul = std::memchr(s_.data(), 0, s_.size()))
      syntax_at(static_cast<std::size_t>(static_cast<const char*>(nul) - s_.data()), "a NUL byte: not a text file");
    if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) i_ = 3;  // a UTF-8 byte order mark
    ws();
    if (i_ == s_.size()) syntax("the text is empty: expected an object");
    if (peek() != '{') throw UsageError(kNotObject);
    ++i_;
    ws();
    if (peek() == '}') {
      ++i_;
    } else {
      while (true) {
        ws();
        const std::string k = key();
        const int member = k == "q" ? 0 : k == "k" ? 1 : k == "v" ? 2 : k == "divisor" ? kDivisor : kOther;
        if (member != kOther) {
          bool& seen = member == kDivisor ? divisor_seen_ : m_[member].given;
          if (seen) throw UsageError("input: \"" + attn::escaped(k) + "\" is given twice");
          seen = true;
        }
        ws();
        if (member < 3) matrix(m_[member]);
        else if (member == kDivisor) divisor();
        else skip();
        ws();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect('}');
        break;
      }
    }
    ws();
    if (i_ != s_.size()) syntax("unexpected text after the end of the object");
    for (const Matrix& x : m_)
      if (!x.given) throw UsageError("input: missing \"" + std::string(x.name) + "\"");
  }
  const Matrix& matrix(int i) const { return m_[i]; }

 private:
  static constexpr int kDivisor = 3, kOther = 4;
  bool cut_ = false;  // the last string() was longer than it keeps
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
  static constexpr const char* kNotObject = "input: must be a JSON object with \"q\", \"k\", \"v\"";

  [[noreturn]] void syntax(const std::string& what) const { syntax_at(i_, what); }
  [[noreturn]] void syntax_at(std::size_t at, const std::string& what) const {
    const attn::TextPlace p = attn::text_place(s_.data(), s_.size(), at);
    throw UsageError("input: not valid JSON: line " + str(p.line) + ", column " + str(p.column) + ": " + what);
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() == c) return void(++i_);
    if (i_ >= s_.size()) syntax(std::string("the text ends early: expected '") + c + "'");
    syntax(std::string("expected '") + c + "', found '" + attn::escaped(s_.substr(i_, 1)) + "'");
  }

  // A string's value, escapes decoded to UTF-8 (past 256 bytes the rest is
  // checked but not kept: only names and the divisor's text are used).
  std::string string() {
    cut_ = false;
    if (peek() != '"') syntax(i_ >= s_.size() ? "the text ends early: expected a string" : "expected a string in double quotes");
    ++i_;
    std::string out;
    while (true) {
      if (i_ >= s_.size()) syntax("a string is not closed");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) syntax("a control character inside a string");
      if (c != '\\') {
        if (out.size() < 256) out += c;
        else cut_ = true;
        continue;
      }
      const char x = peek();
      ++i_;
      switch (x) {
        case '"': case '\\': case '/': out += x; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair: \uD83D\uDE00
            if (s_.compare(i_, 2, "\\u") != 0) syntax("a lone surrogate in a \\u escape");
            i_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) syntax("a lone surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            syntax("a lone surrogate in a \\u escape");
          }
          if (out.size() < 256) append_utf8(out, cp);  // the divisor's text as written, for its message
          else cut_ = true;
          break;
        }
        default: syntax("a bad escape in a string");
      }
    }
  }
  unsigned hex4() {
    unsigned cp = 0;
    for (int d = 0; d < 4; ++d, ++i_) {
      const char h = peek();
      const int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                  : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (v < 0) syntax("a bad \\u escape in a string");
      cp = cp * 16 + static_cast<unsigned>(v);
    }
    return cp;
  }
  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  std::string key() {
    std::string k = string();
    ws();
    expect(':');
    return k;
  }
  // The run of characters a number or a bare word (true, NaN, 0x10) is made of.
  std::string_view token() {
    const std::size_t start = i_;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.' || c == '_')) break;
      ++i_;
    }
    if (i_ == start) syntax(i_ >= s_.size() ? "the text ends early: expected a value" : "expected a value, found '" + attn::escaped(s_.substr(i_, 1)) + "'");
    return std::string_view(s_).substr(start, i_ - start);
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
      skip();  // its syntax first, so "q": tru is a syntax error
      throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
    }
    ++i_;
    ws();
    if (peek() == ']') throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
    while (true) {
      ws();
      if (peek() != '[') {
        skip();
        throw UsageError("input: " + std::string(x.name) + "[" + str(x.rows) + "] must be a non-empty array of numbers");
      }
      ++i_;
      x.open_row();
      check_work();
      ws();
      if (peek() != ']') {
        while (true) {
          ws();
          number(x);
          ws();
          if (peek() == ',') {
            ++i_;
            continue;
          }
          expect(']');
          break;
        }
      } else {
        ++i_;
      }
      x.close_row();
      check_work();
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect(']');
      break;
    }
    x.done = true;
  }

  void number(Matrix& x) {
    const std::string where = x.at() + "[" + str(x.in_row) + "]";
    if (const char* what = kind_here()) {
      // A string, null or a boolean: its syntax first (an array or object is refused at its bracket).
      const char c = peek();
      const std::size_t start = i_;
      if (c == '"') {
        string();
      } else if (c != '[' && c != '{' && token() != (c == 'n' ? "null" : c == 't' ? "true" : "false")) {
        i_ = start;
        syntax("'" + attn::escaped(std::string(token()), 40) + "' is not a JSON value");
      }
      throw UsageError("input: " + where + " is not a number (it is " + what + ")");
    }
    const std::size_t start = i_;
    const std::string_view t = token();
    float v = 0;
    switch (attn::read_float(t, v)) {
      case attn::NumberRead::Ok: x.value(v); return;
      case attn::NumberRead::NotFinite:
        throw UsageError("input: " + where + " is " + attn::escaped(std::string(t), 40) + ", not a finite number");
      case attn::NumberRead::Range: throw UsageError("input: " + where + " is outside the float range");
      case attn::NumberRead::Syntax: break;
    }
    i_ = start;
    syntax("'" + attn::escaped(std::string(t), 40) + "' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
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
      const std::string_view t = token();
      if (attn::is_number_text(t)) {
        in_.divisor = std::string(t);  // Divisor::parse reads it with the same grammar
        return;
      }
    }
    i_ = start;
    skip();
    throw UsageError("input: \"divisor\" must be \"sqrt\", \"dk\" or a number");
  }

  // One value of any kind, syntax checked, numbers not read.
  void skip() {
    std::vector<char> open;  // the brackets still open, '{' or '['
    while (true) {
      ws();
      const char c = peek();
      if (c == '{' || c == '[') {
        ++i_;
        ws();
        if (peek() == (c == '{' ? '}' : ']')) {
          ++i_;
        } else {
          open.push_back(c);
          if (c == '{') key();
          continue;
        }
      } else if (c == '"') {
        string();
      } else {
        const std::size_t start = i_;
        const std::string_view t = token();
        double unused;
        const attn::NumberRead r = attn::read_double(t, unused);
        if (!(t == "true" || t == "false" || t == "null" || r == attn::NumberRead::Ok || r == attn::NumberRead::Range ||
              t == "NaN" || t == "Infinity" || t == "-Infinity")) {
          i_ = start;
          syntax("'" + attn::escaped(std::string(t), 40) + "' is not a JSON value");
        }
      }
      while (true) {  // after a value: a comma, or the brackets it closes
        if (open.empty()) return;
        ws();
        const char close = open.back() == '{' ? '}' : ']';
        if (peek() == ',') {
          ++i_;
          if (open.back() == '{') {
            ws();
            key();
          }
          break;
        }
        expect(close);
        open.pop_back();
      }
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
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
