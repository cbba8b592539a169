// `attnlab attention`'s input reader (cpp/cli/attention_input.h), issue 14
// class 2: every shape is checked against the limits as the text is read, so
// a limit error comes at the first value past it. Each refusal below has
// invalid JSON after the offending part: a reader that built the document (or
// the buffers) first would report the syntax error instead.
#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "args.h"
#include "attention_input.h"
#include "base/argument_error.h"
#include "base/size_limits.h"

using attncli::read_attention_input;

namespace {

std::string error_of(const std::string& text) {
  try {
    read_attention_input(text);
  } catch (const attncli::UsageError& e) {
    return e.what();
  } catch (const attn::ArgumentError& e) {
    return e.what();
  }
  return "";
}

std::string row(std::size_t n, const char* x = "0") {
  std::string r = "[";
  for (std::size_t i = 0; i < n; ++i) r += (i ? "," : "") + std::string(x);
  return r + "]";
}

std::string rows(std::size_t count, std::size_t width) {
  std::string r = "[";
  const std::string one = row(width);
  for (std::size_t i = 0; i < count; ++i) r += (i ? "," : "") + one;
  return r + "]";
}

const std::string kGarbage = ", this is not JSON";

}  // namespace

TEST_CASE("attention input: shapes, values, the divisor, other members skipped", "[cli][attention_input]") {
  const auto in = read_attention_input(
      R"({"note": {"nested": [[[1]], {"q": 5}], "x": null}, "q": [[1, 2.5], [-3, 4e-3]], "k": [[1, 0], [0, 1], [2, 2]],
          "v": [[1], [2], [3]], "divisor": 2, "extra": [true, "q"]})");
  REQUIRE(in.shape.n == 2);
  REQUIRE(in.shape.m == 3);
  REQUIRE(in.shape.dk == 2);
  REQUIRE(in.shape.dv == 1);
  REQUIRE(in.q == std::vector<float>{1, 2.5f, -3, 4e-3f});
  REQUIRE(in.v == std::vector<float>{1, 2, 3});
  REQUIRE(in.divisor == "2");
  REQUIRE(read_attention_input(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"dk"})").divisor == "dk");
  REQUIRE(read_attention_input(R"({"v":[[1]],"k":[[1]],"q":[[1]]})").divisor == "sqrt");
}

TEST_CASE("attention input: each limit refused at the first value past it", "[cli][attention_input]") {
  using namespace attn::limits;
  // Rows: the 4097th row of q.
  CHECK(error_of(R"({"q":)" + rows(kMaxSeqLen + 1, 1) + kGarbage) ==
        "input: \"q\" has more than 4096 rows, the limit of n");
  // Columns: the 65537th number of k's first row.
  CHECK(error_of(R"({"q":[[1]],"k":[)" + row(kMaxDk + 1) + kGarbage) ==
        "input: k[0] has more than 65536 numbers, the limit of dk");
  // A matrix's size: v's 257th row of 65536 (m*dv above 2^24).
  CHECK(error_of(R"({"v":)" + rows(257, kMaxDk) + kGarbage) ==
        "input: \"v\" holds more than 16777216 numbers, the limit of m*dv (257 rows of 65536)");
  // A longer row after the first: refused at its extra number.
  CHECK(error_of(R"({"q":[[1,2],[3,4,5)" + kGarbage) == "input: q[1] has more than 2 numbers, but q[0] has 2");
  // Nesting where numbers belong: refused at the bracket, whatever follows.
  CHECK(error_of(R"({"q":[[[[[[[[)" + kGarbage) == "input: q[0][0] is not a number (it is an array)");
  CHECK(error_of(R"([[[[[[)" + kGarbage) == "input: must be a JSON object with \"q\", \"k\", \"v\"");
}

TEST_CASE("attention input: the outputs' sizes are checked before anything is computed", "[cli][attention_input]") {
  // The issue's case: a 147 kB file whose output n x dv is 4096 x 65536 (1 GB of floats).
  const std::string big = R"({"q":)" + rows(4096, 1) + R"(,"k":[[0]],"v":[)" + row(65536) + "]}";
  CHECK(error_of(big) == "n*dv must be at most 16777216, got 4096 * 65536");
  // n*m at its limit is fine; each matrix alone is within its limits here.
  const auto ok = read_attention_input(R"({"q":)" + rows(4096, 1) + R"(,"k":)" + rows(4096, 1) + R"(,"v":)" +
                                       rows(4096, 1) + "}");
  REQUIRE(ok.shape.n * ok.shape.m == attn::limits::kMaxAttentionElems);
}

TEST_CASE("attention input: malformed files say what is wrong, and where", "[cli][attention_input]") {
  CHECK(error_of(R"({"q":[[1]],"q":[[2]],"k":[[1]],"v":[[1]]})") == "input: \"q\" is given twice");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"sqrt","divisor":2})") ==
        "input: \"divisor\" is given twice");
  CHECK(error_of(R"({"k":[[1]],"v":[[1]]})") == "input: missing \"q\"");
  CHECK(error_of(R"({"q":[],"k":[[1]],"v":[[1]]})") == "input: \"q\" must be a non-empty array of rows");
  CHECK(error_of(R"({"q":{},"k":[[1]],"v":[[1]]})") == "input: \"q\" must be a non-empty array of rows");
  CHECK(error_of(R"({"q":[[1],2],"k":[[1]],"v":[[1]]})") == "input: q[1] must be a non-empty array of numbers");
  CHECK(error_of(R"({"q":[[1],[]],"k":[[1]],"v":[[1]]})") == "input: q[1] must be a non-empty array of numbers");
  CHECK(error_of(R"({"q":[[1,"2"]],"k":[[1]],"v":[[1]]})") == "input: q[0][1] is not a number (it is a string)");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[null]]})") == "input: v[0][0] is not a number (it is null)");
  CHECK(error_of(R"({"q":[[1]],"k":[[1,1e39]],"v":[[1]]})") == "input: k[0][1] is outside the float range");
  CHECK(error_of(R"({"q":[[1]],"k":[[1,1e400]],"v":[[1]]})") == "input: k[0][1] is outside the float range");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":[8]})") ==
        "input: \"divisor\" must be \"sqrt\", \"dk\" or a number");
  CHECK(error_of(R"({"q":[[1,2]],"k":[[1]],"v":[[1]]})") == "input: q rows have 2 numbers but k rows have 1");
  CHECK(error_of(R"({"q":[[1]],"k":[[1],[2]],"v":[[1]]})") == "input: k has 2 rows but v has 1");
  CHECK(error_of(R"({"q":[[1]]} trailing)").rfind("input: not valid JSON: ", 0) == 0);
  CHECK(error_of("").rfind("input: not valid JSON: ", 0) == 0);
  CHECK(error_of("5") == "input: must be a JSON object with \"q\", \"k\", \"v\"");
}

// Issue 14, class 6: the core's number grammar for every value, unused members
// skipped unchecked, a byte order mark skipped, a NUL byte refused.
TEST_CASE("attention input: numbers by the one grammar, as floats", "[cli][attention_input]") {
  const float m = std::numeric_limits<float>::max();
  const auto in = read_attention_input(
      R"({"q":[[3.4028235e+38,-3.4028234663852886e38,1e-45,1e-320,-0]],"k":[[1,2,3,4,5]],"v":[[1]],"divisor":1e0})");
  REQUIRE(in.q == std::vector<float>{m, -m, 0x1p-149f, 0, 0});
  REQUIRE(in.divisor == "1e0");  // the text, read again by Divisor::parse with the same grammar
  CHECK(error_of(R"({"q":[[1,3.5e38]],"k":[[1,1]],"v":[[1]]})") == "input: q[0][1] is outside the float range");
  CHECK(error_of(R"({"q":[[1]],"k":[[NaN]],"v":[[1]]})") == "input: k[0][0] is NaN, not a finite number");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[-Infinity]]})") == "input: v[0][0] is -Infinity, not a finite number");
  for (const char* bad : {"0x10", "+1", ".5", "1.", "01", "1e", "-", "1_0"}) {
    CAPTURE(bad);
    CHECK(error_of(std::string(R"({"q":[[1,)") + bad + R"(]],"k":[[1,1]],"v":[[1]]})") ==
          std::string("input: not valid JSON: line 1, column 10: '") + bad +
              "' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
  }
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":0x8})") ==
        "input: not valid JSON: line 1, column 42: '0x8' is not a JSON value");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":NaN})") == "input: \"divisor\" must be \"sqrt\", \"dk\" or a number");
}

TEST_CASE("attention input: members it does not read are skipped unchecked, at any depth", "[cli][attention_input]") {
  const auto in = read_attention_input(
      "{\"loss\": NaN, \"best\": -Infinity, \"worst\": Infinity, \"count\": 1e40, \"huge\": [1e400, {\"x\": [-1e999]}],"
      " \"deep\": " + std::string(200, '[') + std::string(200, ']') + ", \"q\": [[1]], \"k\": [[2]], \"v\": [[3]]}");
  REQUIRE(in.v == std::vector<float>{3});
  // Still JSON.
  CHECK(error_of(R"({"x": nan, "q":[[1]],"k":[[1]],"v":[[1]]})") == "input: not valid JSON: line 1, column 7: 'nan' is not a JSON value");
  CHECK(error_of(R"({"x": [1 2], "q":[[1]],"k":[[1]],"v":[[1]]})") == "input: not valid JSON: line 1, column 10: expected ']', found '2'");
  CHECK(error_of(R"({"x": {"a" 1}, "q":[[1]],"k":[[1]],"v":[[1]]})") == "input: not valid JSON: line 1, column 12: expected ':', found '1'");
  // Keys compare after their escapes: \u0071 is q, so this q is given twice.
  CHECK(error_of(R"({"q":[[1]],"\u0071":[[2]],"k":[[1]],"v":[[1]]})") == "input: \"q\" is given twice");
  CHECK(read_attention_input(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"\u00e9\ud83d\ude00"})").divisor == "\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(error_of(R"({"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"\ud83d"})") ==
        "input: not valid JSON: line 1, column 49: a lone surrogate in a \\u escape");
}

TEST_CASE("attention input: a byte order mark is skipped, a NUL byte refused where it is", "[cli][attention_input]") {
  using namespace std::string_literals;
  REQUIRE(read_attention_input("\xEF\xBB\xBF{\"q\":[[1]],\"k\":[[1]],\"v\":[[5]]}").v == std::vector<float>{5});
  CHECK(error_of("{\"q\":[[1]],\"k\":[[1]],\"v\":[[1]]}\0{\"v\":[[2]]}"s) ==
        "input: not valid JSON: line 1, column 32: a NUL byte: not a text file");
  CHECK(error_of("{\"q\":[[1]],\n\"k\":[[1]],\"v\":[[1]],\"x\":\"a\0\"}"s) ==
        "input: not valid JSON: line 2, column 27: a NUL byte: not a text file");
}
