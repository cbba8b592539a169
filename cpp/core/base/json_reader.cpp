#include "base/json_reader.h"

#include <cstring>
#include <vector>

#include "base/format.h"

namespace attn {

namespace {

std::string one_char(const char* p) { return escaped(std::string_view(p, 1), 40); }

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) return void(out += static_cast<char>(cp));
  const int extra = cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
  static const unsigned char lead[] = {0, 0xC0, 0xE0, 0xF0};
  out += static_cast<char>(lead[extra] | (cp >> (6 * extra)));
  for (int k = extra - 1; k >= 0; --k) out += static_cast<char>(0x80 | ((cp >> (6 * k)) & 0x3F));
}

}  // namespace

void JsonReader::skip_bom() {
  if (n_ >= 3 && std::memcmp(s_, "\xEF\xBB\xBF", 3) == 0) i_ = 3;
}

void JsonReader::expect(char c) {
  if (peek() == c) return void(++i_);
  if (at_end()) syntax(std::string("the text ends early: expected '") + c + "'");
  syntax(std::string("expected '") + c + "', found '" + one_char(s_ + i_) + "'");
}

void JsonReader::end() {
  ws();
  if (!at_end()) syntax("unexpected text after the end of the JSON value");
}

unsigned JsonReader::hex4() {
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

std::string JsonReader::string() {
  cut_ = false;
  if (peek() != '"') syntax(at_end() ? "the text ends early: expected a string" : "expected a string in double quotes");
  ++i_;
  std::string out;
  while (true) {
    if (at_end()) syntax("a string is not closed");
    const char c = s_[i_++];
    if (c == '"') return out;
    if (static_cast<unsigned char>(c) < 0x20) syntax("a control character inside a string");
    unsigned cp = static_cast<unsigned char>(c);
    if (c == '\\') {
      if (at_end()) syntax("a string is not closed");
      switch (const char x = s_[i_++]) {
        case '"': case '\\': case '/': cp = static_cast<unsigned char>(x); break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u':
          cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair: \uD83D\uDE00
            if (n_ - i_ < 2 || std::memcmp(s_ + i_, "\\u", 2) != 0) syntax("a lone surrogate in a \\u escape");
            i_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) syntax("a lone surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            syntax("a lone surrogate in a \\u escape");
          }
          if (out.size() < 256) append_utf8(out, cp);
          else cut_ = true;
          continue;
        default: syntax("a bad escape in a string");
      }
    }
    if (out.size() < 256) out += static_cast<char>(cp);
    else cut_ = true;
  }
}

std::string JsonReader::key() {
  std::string k = string();
  ws();
  expect(':');
  return k;
}

std::string_view JsonReader::token() {
  const std::size_t start = i_;
  while (i_ < n_) {
    const char c = s_[i_];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
          c == '.' || c == '_'))
      break;
    ++i_;
  }
  return std::string_view(s_ + start, i_ - start);
}

std::string_view JsonReader::value_token() {
  const std::string_view t = token();
  if (t.empty()) syntax(at_end() ? "the text ends early: expected a value" : "expected a value, found '" + one_char(s_ + i_) + "'");
  return t;
}

NumberRead JsonReader::float_token(std::string_view t, float& v) {
  const NumberRead r = read_float(t, v);
  if (r == NumberRead::Syntax)
    syntax_at(static_cast<std::size_t>(t.data() - s_),
              "'" + escaped(t, 40) + "' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
  return r;
}

void JsonReader::skip(std::size_t max_depth) {
  std::vector<char> open;  // the brackets still open, '{' or '['
  while (true) {
    if (open.size() >= max_depth) syntax(strf("nested more than %zu levels deep", max_depth));
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
      const std::string_view t = value_token();
      double unused;
      const NumberRead r = read_double(t, unused);
      if (!(t == "true" || t == "false" || t == "null" || r == NumberRead::Ok || r == NumberRead::Range ||
            t == "NaN" || t == "Infinity" || t == "-Infinity"))
        syntax_at(static_cast<std::size_t>(t.data() - s_), "'" + escaped(t, 40) + "' is not a JSON value");
    }
    while (true) {  // after a value: a comma, or the brackets it closes
      if (open.empty()) return;
      ws();
      if (peek() == ',') {
        ++i_;
        if (open.back() == '{') {
          ws();
          key();
        }
        break;
      }
      expect(open.back() == '{' ? '}' : ']');
      open.pop_back();
    }
  }
}

}  // namespace attn
