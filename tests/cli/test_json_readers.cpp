// The core's one JSON reader (base/json_reader.h) at both of its call sites:
// the checker's q and k (parse_json) and the CLI's attention input. The same
// malformed text must get the same syntax error, at the same line and column,
// from each; where they differ on purpose (their own wording of a bad value,
// the checker's depth limit) the test says so.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "args.h"
#include "attention_input.h"
#include "base/argument_error.h"
#include "checker/io/json_reader.h"

namespace {

const std::string kChecker = "json: ", kAttention = "input: not valid JSON: ";

// The checker's syntax error without its "json: " (kind "syntax" checked), or
// the whole message marked, so a mismatch shows what each said.
std::string checker_syntax(const std::string& text) {
  try {
    attn::parse_json(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), {"q", "k"}, "file");
  } catch (const attn::ArgumentError& e) {
    const std::string m = e.what();
    if (e.kind() != "syntax" || m.rfind(kChecker, 0) != 0) return "(not a syntax error) " + m;
    return m.substr(kChecker.size());
  }
  return "(accepted)";
}

std::string attention_syntax(const std::string& text) {
  try {
    attncli::read_attention_input(text);
  } catch (const std::exception& e) {
    const std::string m = e.what();
    if (m.rfind(kAttention, 0) != 0) return "(not a syntax error) " + m;
    return m.substr(kAttention.size());
  }
  return "(accepted)";
}

// A file both accept: q, k and v of one value each (the checker skips v).
const std::string kTail = R"("q": [[1]], "k": [[1]], "v": [[1]]})";

void same_syntax_error(const std::string& text, const std::string& expected) {
  CAPTURE(text);
  CHECK(checker_syntax(text) == expected);
  CHECK(attention_syntax(text) == expected);
}

}  // namespace

TEST_CASE("json readers: truncated text, the same error at the same place", "[json][attention_input]") {
  same_syntax_error(R"({"q": [[1, 2], [3)", "line 1, column 18: the text ends early: expected ']'");
  same_syntax_error("{\"x\": [1,\n 2", "line 2, column 3: the text ends early: expected ']'");
  same_syntax_error(R"({"x")", "line 1, column 5: the text ends early: expected ':'");
  same_syntax_error(R"({"x": "abc)", "line 1, column 11: a string is not closed");
  same_syntax_error(R"({"x": "a\)", "line 1, column 10: a string is not closed");
  same_syntax_error(R"({"x": {"a": 1)", "line 1, column 14: the text ends early: expected '}'");
  same_syntax_error(R"({"x": )", "line 1, column 7: the text ends early: expected a value");
}

TEST_CASE("json readers: bad escapes and control characters in strings", "[json][attention_input]") {
  same_syntax_error(R"({"x": "\q", )" + kTail, "line 1, column 10: a bad escape in a string");
  same_syntax_error(R"({"x": "\u12G4", )" + kTail, "line 1, column 12: a bad \\u escape in a string");
  same_syntax_error(R"({"x": "\u12")", "line 1, column 12: a bad \\u escape in a string");
  same_syntax_error(R"({"x": "\ud800", )" + kTail, "line 1, column 14: a lone surrogate in a \\u escape");
  same_syntax_error(R"({"x": "\ud800\u0041", )" + kTail, "line 1, column 20: a lone surrogate in a \\u escape");
  same_syntax_error(R"({"x": "\udc00", )" + kTail, "line 1, column 14: a lone surrogate in a \\u escape");
  same_syntax_error("{\"x\": \"a\tb\", " + kTail, "line 1, column 10: a control character inside a string");
  // A key's escapes are decoded before it is compared: \u0071 is q, given twice.
  const std::string twice = R"({"q": [[1]], "\u0071": [[2]], "k": [[1]], "v": [[1]]})";
  CHECK(checker_syntax(twice) == "line 1, column 24: \"q\" is given twice");
  CHECK(attention_syntax(twice) == "(not a syntax error) input: \"q\" is given twice");
}

TEST_CASE("json readers: words and numbers in skipped members, and huge numbers", "[json][attention_input]") {
  // Python's json.dump writes NaN and Infinity, and a number may be past every float: unused, they pass.
  const std::string skipped = "{\"x\": [NaN, -Infinity, 1e400, -1e999, 1" + std::string(400, '0') + "], " + kTail;
  CHECK(checker_syntax(skipped) == "(accepted)");
  CHECK(attention_syntax(skipped) == "(accepted)");
  same_syntax_error(R"({"x": nan, )" + kTail, "line 1, column 7: 'nan' is not a JSON value");
  same_syntax_error(R"({"x": truex, )" + kTail, "line 1, column 7: 'truex' is not a JSON value");
  same_syntax_error(R"({"x": 0x10, )" + kTail, "line 1, column 7: '0x10' is not a JSON value");
  same_syntax_error(R"({"x": [1 2], )" + kTail, "line 1, column 10: expected ']', found '2'");
  same_syntax_error(R"({"x": {"a" 1}, )" + kTail, "line 1, column 12: expected ':', found '1'");
  same_syntax_error(R"({"x": ], )" + kTail, "line 1, column 7: expected a value, found ']'");
  // In a used array a number outside the grammar is a syntax error at both...
  same_syntax_error(R"({"q": [[1, 01]], "k": [[1, 2]], "v": [[1]]})",
                    "line 1, column 12: '01' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
  // ... and one past float32 a value error, each in its own words, naming the same place.
  CHECK(checker_syntax(R"({"q": [[1, 1e39]], "k": [[1, 2]], "v": [[1]]})") ==
        "(not a syntax error) json: line 1, column 12: q[0][1] is 1e39, outside the float32 range (about ±3.4e38)");
  CHECK(attention_syntax(R"({"q": [[1, 1e39]], "k": [[1, 2]], "v": [[1]]})") ==
        "(not a syntax error) input: q[0][1] is outside the float range");
}

TEST_CASE("json readers: a byte order mark, trailing text, a NUL byte", "[json][attention_input]") {
  const std::string bom = "\xEF\xBB\xBF";
  CHECK(checker_syntax(bom + "{" + kTail) == "(accepted)");
  CHECK(attention_syntax(bom + "{" + kTail) == "(accepted)");
  // Columns count bytes, the mark's three included; anywhere else it is not JSON.
  same_syntax_error(bom + "{\"x\": ]", "line 1, column 10: expected a value, found ']'");
  same_syntax_error("{\"x\": " + bom + "1, " + kTail, "line 1, column 7: expected a value, found '\\xef'");
  same_syntax_error("{" + kTail + " x", "line 1, column 38: unexpected text after the end of the JSON value");
  same_syntax_error("{" + kTail + "\n}", "line 2, column 1: unexpected text after the end of the JSON value");
  // A NUL byte: the same place, in each reader's words.
  using namespace std::string_literals;
  const std::string nul = "{\"q\": [[1]],\n \"x\": \"a\0\"}"s;
  CHECK(checker_syntax(nul) == "(not a syntax error) json: line 2, column 9 holds a NUL byte: not a text file");
  CHECK(attention_syntax(nul) == "line 2, column 9: a NUL byte: not a text file");
}

TEST_CASE("json readers: deep nesting in a skipped member", "[json][attention_input]") {
  // The checker refuses a value inside more than 64 containers (its limit, base/size_limits.h) ...
  const std::string deep = "{\"x\": " + std::string(65, '[') + std::string(65, ']') + ", " + kTail;
  CHECK(checker_syntax(deep) == "line 1, column 71: nested more than 64 levels deep");
  const std::string at_limit = "{\"x\": " + std::string(64, '[') + std::string(64, ']') + ", " + kTail;
  CHECK(checker_syntax(at_limit) == "(accepted)");
  std::string nested = "{\"x\": ";
  for (int d = 0; d < 65; ++d) nested += "{\"a\": ";
  CHECK(checker_syntax(nested + "1") == "line 1, column 390: nested more than 64 levels deep");
  // ... the attention input skips any depth (a stack, no recursion), so both
  // refuse a deep file only for its syntax.
  const std::string deeper = "{\"x\": " + std::string(10000, '[') + std::string(10000, ']') + ", " + kTail;
  CHECK(attention_syntax(deeper) == "(accepted)");
  CHECK(attention_syntax("{\"x\": " + std::string(10000, '[') + "}") ==
        "line 1, column 10007: expected a value, found '}'");
}
