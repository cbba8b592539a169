// escaped(): values echoed in messages stay on one line (issue 14, class 7).
// Each case is a value and the text a message shows for it.
#include <catch2/catch.hpp>

#include <string>

#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/format.h"

using attn::escaped;
using namespace std::string_literals;

TEST_CASE("escaped: line breaks, controls and backslashes become escapes", "[escaped]") {
  CHECK(escaped("1\n2") == "1\\n2");
  CHECK(escaped("a\r\nb\tc") == "a\\r\\nb\\tc");
  CHECK(escaped("\x1b[31mred") == "\\x1b[31mred");  // a terminal escape sequence
  CHECK(escaped("nul\0byte"s) == "nul\\x00byte");    // and the rest after it is kept
  CHECK(escaped("\x7f") == "\\x7f");
  CHECK(escaped("C:\\dir\\n") == "C:\\\\dir\\\\n");  // a literal backslash-n is not a newline
  CHECK(escaped("plain text, 'quoted' and \"double\"") == "plain text, 'quoted' and \"double\"");
  CHECK(escaped("") == "");
}

TEST_CASE("escaped: UTF-8 text is kept, line-breaking and reordering code points are not", "[escaped]") {
  CHECK(escaped("维度 d_k √") == "维度 d_k √");
  CHECK(escaped("😀") == "😀");
  CHECK(escaped("a\u2028b\u2029c") == "a\\u2028b\\u2029c");  // line and paragraph separators
  CHECK(escaped("next\xc2\x85line") == "next\\u0085line");    // NEL, a C1 control
  CHECK(escaped("abc\u202edcba") == "abc\\u202edcba");        // right-to-left override
}

TEST_CASE("escaped: bytes that are not UTF-8 are shown as bytes", "[escaped]") {
  CHECK(escaped("\xff\xfe") == "\\xff\\xfe");
  CHECK(escaped("\xc0\xaf") == "\\xc0\\xaf");          // overlong '/'
  CHECK(escaped("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a UTF-16 surrogate
  CHECK(escaped("\xe4\xb8") == "\\xe4\\xb8");          // a sequence cut short
  CHECK(escaped("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST_CASE("escaped: long values are cut, never inside a UTF-8 sequence", "[escaped]") {
  CHECK(escaped(std::string(150, 'x')) == std::string(100, 'x') + "...");
  CHECK(escaped(std::string(100, 'x')) == std::string(100, 'x'));
  CHECK(escaped("abcdef", 3) == "abc...");
  CHECK(escaped("ab维度", 3) == "ab维...");  // the 3-byte character that starts at byte 2 is kept whole
  CHECK(escaped("\n\n\n\n", 2) == "\\n\\n...");
}

TEST_CASE("the divisor's message echoes a bad value on one line", "[escaped][divisor]") {
  auto message = [](const std::string& text) {
    try {
      attn::Divisor::parse(text);
    } catch (const attn::ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("8\n") == "divisor must be 'sqrt', 'dk' or a number in [1e-30, 1e+12], got '8\\n'");
  CHECK(message("sq\x1brt") == "divisor must be 'sqrt', 'dk' or a number in [1e-30, 1e+12], got 'sq\\x1brt'");
  CHECK(message(std::string(300, '9')).size() < 200);
}
