#include "checker/io/json_reader.h"

#include <cstdarg>
#include <cstring>

#include "base/format.h"
#include "base/size_limits.h"
#include "checker/io/text_values.h"

namespace attn {

using namespace text_io;

namespace {

class JsonReader {
 public:
  JsonReader(const std::uint8_t* data, std::size_t size, const char* argument)
      : s_(reinterpret_cast<const char*>(data)), n_(size), argument_(argument) {}

  std::vector<Tensor> read(const std::vector<std::string>& names) {
    if (n_ == 0) fail_kind(argument_, "file_empty", "", "json: the file is empty");
    i_ = text_start(reinterpret_cast<const std::uint8_t*>(s_), n_, argument_, "json");
    ws();
    std::vector<Tensor> out;
    if (peek() == '{') {
      if (names.empty())
        fail_kind(argument_, "npz_alone", "", "json: an object holds q and k together, so give this file alone (or give "
                            "each tensor as a bare array)");
      Growing got[2];
      bool have[2] = {false, false};
      ++i_;
      ws();
      if (peek() == '}') {
        ++i_;
      } else {
        while (true) {
          ws();
          const std::string key = string();
          ws();
          expect(':');
          ws();
          std::size_t which = key == names[0] ? 0 : key == names[1] ? 1 : 2;
          if (which < 2) {
            if (have[which]) fail("\"%s\" is given twice", key.c_str());
            have[which] = true;
            tensor(got[which], key);
          } else {
            skip(1);
          }
          ws();
          if (peek() == ',') {
            ++i_;
            continue;
          }
          expect('}');
          break;
        }
      }
      end();
      for (std::size_t w = 0; w < 2; ++w)
        if (!have[w])
          fail_kind(argument_, "missing_array", "{\"name\":" + jstr(names[w]) + "}", "json: the object has no \"%s\"",
                    names[w].c_str());
      for (std::size_t w = 0; w < 2; ++w)
        out.push_back(finish(got[w], argument_, "json (" + names[w] + ")"));
    } else if (peek() == '[') {
      if (!names.empty())
        fail_kind(argument_, "npy_single", "", "json: a bare array holds one tensor: give an object {\"%s\": [...], \"%s\": [...]}, or "
                            "two files (q first, then k)", names[0].c_str(), names[1].c_str());
      Growing g;
      tensor(g, "");
      end();
      out.push_back(finish(g, argument_, "json (" + std::string(argument_) + ")"));
    } else {
      fail("expected an object {\"q\": [...], \"k\": [...]} or an array of rows");
    }
    return out;
  }

 private:
  // Adds the line and column of the cursor.
  // A syntax error (kind "syntax"); failk() gives another kind, params gets
  // the line and column after `extra` (JSON members with a leading comma, or "").
  [[noreturn]] void fail(const char* fmt, ...) const __attribute__((format(printf, 2, 3))) {
    std::va_list args;
    va_start(args, fmt);
    const std::string what = vstrf(fmt, args);
    va_end(args);
    raise("syntax", "", what);
  }
  [[noreturn]] void failk(const char* kind, const std::string& extra, const char* fmt, ...) const
      __attribute__((format(printf, 4, 5))) {
    std::va_list args;
    va_start(args, fmt);
    const std::string what = vstrf(fmt, args);
    va_end(args);
    raise(kind, extra, what);
  }
  [[noreturn]] void raise(const char* kind, const std::string& extra, const std::string& what) const {
    const TextPlace p = text_place(s_, n_, i_);
    fail_kind(argument_, kind, strf("{\"format\":\"json\",\"line\":%zu,\"column\":%zu", p.line, p.column) + extra + "}",
              "json: line %zu, column %zu: %s", p.line, p.column, what.c_str());
  }
  char peek() const { return i_ < n_ ? s_[i_] : '\0'; }
  void ws() {
    while (i_ < n_ && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c) {
      if (i_ >= n_) fail("the text ends early: expected '%c'", c);
      fail("expected '%c', found '%s'", c, printable(s_ + i_, s_ + i_ + 1).c_str());
    }
    ++i_;
  }
  void end() {
    ws();
    if (i_ != n_) fail("unexpected text after the end of the JSON value");
  }

  std::string string() {
    if (peek() != '"') fail(i_ >= n_ ? "the text ends early: expected a string" : "expected a string in double quotes");
    ++i_;
    std::string out;
    while (true) {
      if (i_ >= n_) fail("a string is not closed");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string");
      if (c != '\\') {
        if (out.size() < 256) out += c;
        continue;
      }
      if (i_ >= n_) fail("a string is not closed");
      const char x = s_[i_++];
      switch (x) {
        case '"': case '\\': case '/': out += x; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = 0;
          for (int k = 0; k < 4; ++k) {
            const char h = peek();
            const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
            if (d < 0) fail("a bad \\u escape in a string");
            cp = cp * 16 + static_cast<unsigned>(d);
            ++i_;
          }
          // Names only need comparing: keep ASCII, mark the rest.
          out += cp < 0x80 ? static_cast<char>(cp) : '?';
          break;
        }
        default: fail("a bad escape in a string");
      }
    }
  }

  // A number token: the run of characters a number (or a word such as NaN) can
  // hold, read by the one number grammar (base/number.h) as a float. In a used
  // array a non-finite word or a value past float32 is refused, naming where it
  // is; in a member that is skipped (`keep` false) any number the grammar takes
  // passes unchecked, and so do Python's NaN, Infinity and -Infinity.
  float number(bool keep) {
    const std::size_t start = i_;
    auto part = [](char c) {
      return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
             c == '.' || c == '_';
    };
    while (i_ < n_ && part(s_[i_])) ++i_;
    if (i_ == start) {
      if (start >= n_) fail("the text ends early: expected a number");
      fail("expected a number");
    }
    float v = 0;
    const NumberRead r = read_value(s_ + start, s_ + i_, v);
    const std::string text = printable(s_ + start, s_ + i_);
    const std::string_view token(s_ + start, i_ - start);
    if (!keep) {
      if (r == NumberRead::Ok || r == NumberRead::Range || token == "NaN" || token == "Infinity" || token == "-Infinity")
        return 0;
      i_ = start;
      fail("'%s' is not a JSON value", text.c_str());
    }
    i_ = start;
    if (r == NumberRead::Syntax)
      fail("'%s' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])", text.c_str());
    if (r == NumberRead::NotFinite)
      failk("value_finite", "", "%s is %s, not a finite number: q and k must hold finite numbers", path().c_str(), text.c_str());
    if (r == NumberRead::Range)
      failk("value_float", "", "%s is %s, outside the float32 range (about ±3.4e38)", path().c_str(), text.c_str());
    i_ = start + token.size();
    return v;
  }

  // Skips any JSON value (members of the object other than q and k).
  void skip(std::size_t depth) {
    if (depth > limits::kMaxTextNesting)
      fail("nested more than %zu levels deep", limits::kMaxTextNesting);
    ws();
    const char c = peek();
    if (c == '"') {
      string();
    } else if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i_;
      ws();
      if (peek() == close) {
        ++i_;
        return;
      }
      while (true) {
        ws();
        if (c == '{') {
          string();
          ws();
          expect(':');
        }
        skip(depth + 1);
        ws();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect(close);
        return;
      }
    } else if (n_ - i_ >= 4 && std::memcmp(s_ + i_, "true", 4) == 0) {
      i_ += 4;
    } else if (n_ - i_ >= 5 && std::memcmp(s_ + i_, "false", 5) == 0) {
      i_ += 5;
    } else if (n_ - i_ >= 4 && std::memcmp(s_ + i_, "null", 4) == 0) {
      i_ += 4;
    } else {
      number(false);
    }
  }

  // A regular 2-D or 3-D array of numbers. The first element at each level
  // fixes that level's length and whether it holds arrays or numbers.
  void tensor(Growing& g, const std::string& name) {
    g.shape.clear();
    rank_ = 0;
    path_.clear();
    name_ = name.empty() ? std::string(argument_) : name;  // a bare array: the input it is (q, logits, ...)
    level(g, 0);
    g.shape.resize(rank_);
  }

  std::string path() const {
    std::string p = name_;
    for (std::size_t x : path_) p += "[" + std::to_string(x) + "]";
    return p;
  }

  void level(Growing& g, std::size_t depth) {
    if (peek() != '[') failk("structure", "", "%s must be an array", path().c_str());
    // Up to kMaxRank levels are read, so a 4-D array is refused with its whole
    // shape by check_tensor_shape (and logits with the shape q and k need).
    if (depth >= kMaxRank)
      failk("structure", "", "%s is an array nested more than %zu deep: expected %s", path().c_str(), kMaxRank,
            expected_layout(argument_));
    ++i_;
    ws();
    if (peek() == ']') failk("structure", "", "%s is empty: need at least one row and one column", path().c_str());
    if (g.shape.size() <= depth) g.shape.push_back(0);
    std::size_t count = 0;
    path_.push_back(0);
    while (true) {
      ws();
      path_.back() = count;
      const bool is_array = peek() == '[';
      if (rank_ == 0 && !is_array) rank_ = depth + 1;  // the first number decides the rank
      if (is_array) {
        if (rank_ != 0 && depth + 1 >= rank_)
          failk("structure", "", "%s is an array, but %s's first elements at this depth are numbers", path().c_str(), name_.c_str());
        level(g, depth + 1);
      } else {
        if (depth + 1 != rank_) failk("structure", "", "%s is a number, but an array was expected here", path().c_str());
        const float v = number(true);
        if (g.data.size() >= limits::kMaxCheckValues)
          failk("values", strf(",\"limit\":%zu", limits::kMaxCheckValues), "%s holds more than the limit of %zu values (heads·n·d_k)", name_.c_str(), limits::kMaxCheckValues);
        g.data.push_back(v);
      }
      ++count;
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect(']');
      break;
    }
    path_.pop_back();
    if (g.shape[depth] == 0) {
      g.shape[depth] = count;  // the first array at this depth
    } else if (count != g.shape[depth]) {
      std::string first = name_;
      for (std::size_t d = 0; d < depth; ++d) first += "[0]";
      failk("structure", "", "%s has %zu elements, but %s has %llu", path().c_str(), count, first.c_str(),
           static_cast<unsigned long long>(g.shape[depth]));
    }
  }

  static constexpr std::size_t kMaxRank = 8;
  const char* s_;
  std::size_t n_, i_ = 0;
  const char* argument_;
  std::size_t rank_ = 0;
  std::vector<std::size_t> path_;
  std::string name_;
};

}  // namespace

std::vector<Tensor> parse_json(const std::uint8_t* data, std::size_t size,
                               const std::vector<std::string>& names, const char* argument) {
  return JsonReader(data, size, argument).read(names);
}

}  // namespace attn
