// The one JSON reader of every JSON input (the checker's q and k, the CLI's
// attention input): one pass over the text, no document tree, so each caller
// walks its own structure with these steps and checks every size as it grows,
// before anything is allocated for it. Syntax errors name the line and column;
// how they are raised (exception type, wording, kind) is the caller's.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/number.h"
#include "base/text.h"

namespace attn {

class JsonReader {
 public:
  JsonReader(const char* text, std::size_t size) : s_(text), n_(size) {}
  virtual ~JsonReader() = default;

 protected:
  // The caller's syntax error, which it throws: `what` happened at byte `at`
  // (place(at) gives its line and column).
  virtual void raise_syntax(std::size_t at, const std::string& what) const = 0;
  [[noreturn]] void syntax_at(std::size_t at, const std::string& what) const {
    raise_syntax(at, what);
    std::abort();  // an override that returned: never read past an error
  }
  [[noreturn]] void syntax(const std::string& what) const { syntax_at(i_, what); }
  TextPlace place(std::size_t at) const { return text_place(s_, n_, at); }

  void skip_bom();  // a UTF-8 byte order mark at the start, if any
  char peek() const { return i_ < n_ ? s_[i_] : '\0'; }
  bool at_end() const { return i_ >= n_; }
  void ws() {
    while (i_ < n_ && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c);
  // "unexpected text after the end of the JSON value" unless only blanks are left.
  void end();

  // A string's value, escapes decoded to UTF-8 (lone surrogates refused).
  // Past 256 bytes the rest is checked but not kept (cut_ says so): callers
  // use names and short texts only.
  std::string string();
  std::string key();  // a member's name and its ':'
  bool cut_ = false;

  // The run of characters a number or a bare word (true, NaN, 0x10) is made
  // of, possibly empty (the caller says what was expected); value_token()
  // refuses an empty one ("expected a value, found ...").
  std::string_view token();
  std::string_view value_token();
  // A token read as a float by the one number grammar (base/number.h); one
  // outside it is a syntax error at its start. NotFinite and Range are the
  // caller's to name (the token's start is t.data() - s_).
  NumberRead float_token(std::string_view t, float& v);

  // One value of any kind, its syntax checked and its numbers not read
  // (Python's NaN and Infinity, and numbers past every float, pass: a member
  // a caller skips is not used). Containers are walked with a stack, not
  // recursion; a value more than max_depth containers deep is refused.
  void skip(std::size_t max_depth);

  // An object's members after its '{': each(name) reads the value, at its
  // first character. An array's elements after its '[': each(index) reads
  // one. Both return past the closing bracket.
  template <class F>
  void members(F&& each) {
    ws();
    if (peek() == '}') return void(++i_);
    while (true) {
      ws();
      const std::string k = key();
      ws();
      each(k);
      if (!next('}')) return;
    }
  }
  template <class F>
  std::size_t elements(F&& each) {
    ws();
    if (peek() == ']') return ++i_, 0;
    std::size_t count = 0;
    do {
      ws();
      each(count++);
    } while (next(']'));
    return count;
  }

  const char* s_;
  std::size_t n_, i_ = 0;

 private:
  // After a value: true past a ',', false past `close`, else a syntax error.
  bool next(char close) {
    ws();
    if (peek() == ',') return ++i_, true;
    expect(close);
    return false;
  }
  unsigned hex4();
};

}  // namespace attn
