// CSV and JSON tensors: the spellings people write (numpy.savetxt, json.dump),
// and each malformed file answered with its line and column.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "checker/check_fixtures.h"
#include "checker/io/csv_reader.h"
#include "checker/io/json_reader.h"

using namespace checkfix;

namespace {

const std::vector<std::string> kBoth{"q", "k"};

std::vector<attn::Tensor> csv(const std::string& s, const std::vector<std::string>& names = kBoth) {
  const Bytes b = bytes(s);
  return attn::parse_csv(b.data(), b.size(), names, "file");
}
std::vector<attn::Tensor> json(const std::string& s, const std::vector<std::string>& names = kBoth) {
  const Bytes b = bytes(s);
  return attn::parse_json(b.data(), b.size(), names, "file");
}
std::string csv_err(const std::string& s, const std::vector<std::string>& names = kBoth) {
  return error_of([&] { csv(s, names); });
}
std::string json_err(const std::string& s, const std::vector<std::string>& names = kBoth) {
  return error_of([&] { json(s, names); });
}

}  // namespace

TEST_CASE("csv: tagged rows, comments, spaces, CRLF, any order of q and k rows", "[csv]") {
  const auto t = csv("# dumped by a test\r\nq, 1, 2.5\r\nk,3,4\r\n\r\nq,-1e-3,2\nk, 5 ,6");
  REQUIRE(t.size() == 2);
  REQUIRE(t[0].shape == std::vector<std::size_t>{2, 2});
  REQUIRE(t[0].data == std::vector<float>{1, 2.5f, -1e-3f, 2});
  REQUIRE(t[1].data == std::vector<float>{3, 4, 5, 6});
}

TEST_CASE("csv: one plain matrix, commas or numpy.savetxt's spaces", "[csv]") {
  const auto a = csv("1,2,3\n4,5,6\n", {});
  const auto b = csv("1.000000000000000000e+00 2.0 3\n4\t5  6\n", {});
  REQUIRE(a.size() == 1);
  REQUIRE(a[0].shape == std::vector<std::size_t>{2, 3});
  REQUIRE(a[0].data == b[0].data);
}

TEST_CASE("csv: each malformed file gives its message", "[csv][errors]") {
  CHECK(csv_err("") == "csv: the file is empty");
  CHECK(csv_err("q,1,2\nq,3\nk,1,2\n") == "csv: line 2 has 1 values, but the first q row (line 1) has 2");
  CHECK(csv_err("q,1,2\nk,1,x\n") == "csv: line 2, field 3 ('x') is not a number");
  CHECK(csv_err("q,1,2\nk,1,\n") == "csv: line 2, field 3 is empty");
  CHECK(csv_err("q,1,nan\nk,1,2\n") == "csv: line 1, field 3 is nan: q and k must hold finite numbers");
  CHECK(csv_err("q,1,1e39\nk,1,2\n") == "csv: line 1, field 3 is 1e39, outside the float32 range (about ±3.4e38)");
  CHECK(csv_err("q,1,2\n") == "csv: no row starts with 'k'");
  CHECK(csv_err("v,1,2\n") == "csv: line 1 starts with 'v', not 'q' or 'k'");
  CHECK(csv_err("v\x1b[1m,1,2\n") == "csv: line 1 starts with 'v\\x1b[1m', not 'q' or 'k'");
  CHECK(csv_err("q,1,2\nk,1,2\x0b" "3\n") == "csv: line 2, field 3 ('2\\x0b3') is not a number");
  CHECK(csv_err("q\n") == "csv: line 1 has a name but no values");
  CHECK(csv_err("1,2\n3,4\n") == "csv: line 1 starts with a number: when one file holds both, every row "
                                 "starts with 'q' or 'k' (or give two files, q first, then k)");
  CHECK(csv_err("q,1,2\n", {}) == "csv: line 1 starts with 'q': a file of named rows holds both q and k, so give it alone");
  CHECK(csv_err("# only a comment\n", {}) == "csv: no rows of numbers");
  // 70 digits: a number past float32 (no length limit: the grammar decides).
  CHECK(csv_err(std::string(70, '1') + "\n", {}) ==
        "csv: line 1, field 1 is 1111111111111111111111111111111111111111..., outside the float32 range (about ±3.4e38)");
  // One row is a valid [1, 3] tensor (as q; qk_input refuses fewer than 2 keys).
  CHECK(csv("1,2,3\n", {})[0].shape == std::vector<std::size_t>{1, 3});
}

TEST_CASE("json: an object with q and k, 2-D and 3-D, other members skipped", "[json]") {
  const auto t = json("\xEF\xBB\xBF{\"note\": {\"a\": [1, \"x\\\"y\", true, null, -2.5e3]},\n"
                      " \"k\": [[[1, 2]], [[3, 4]]], \"q\": [[[0.5, -0]], [[1e-2, 2E+1]]]}");
  REQUIRE(t[0].shape == std::vector<std::size_t>{2, 1, 2});
  REQUIRE(t[0].data == std::vector<float>{0.5f, 0, 1e-2f, 20});
  REQUIRE(t[1].data == std::vector<float>{1, 2, 3, 4});
  const auto bare = json(" [[1, 2], [3, 4]] ", {});
  REQUIRE(bare[0].shape == std::vector<std::size_t>{2, 2});
}

TEST_CASE("json: each malformed file gives its message", "[json][errors]") {
  CHECK(json_err("") == "json: the file is empty");
  CHECK(json_err("{\"q\": [[1, 2], [3}") == "json: line 1, column 18: expected ']', found '}'");
  CHECK(json_err("{\"q\": [[1, 2],\n [3,") == "json: line 2, column 5: the text ends early: expected a number");
  CHECK(json_err("{\"q\": [[1, 2], [3]], \"k\": [[1]]}") == "json: line 1, column 19: q[1] has 1 elements, but q[0] has 2");
  // Read to 8 levels, so a 4-D array is refused with its whole shape; deeper, by its depth.
  CHECK(json_err("{\"q\": [[[[1]]]], \"k\": [[1]]}") ==
        "json (q): shape (1, 1, 1, 1) has 4 dimensions: expected 2-D [n, d_k] or 3-D [heads, n, d_k]");
  CHECK(json_err("{\"q\": [[[[[[[[[1]]]]]]]]], \"k\": [[1]]}") ==
        "json: line 1, column 15: q[0][0][0][0][0][0][0][0] is an array nested more than 8 deep: expected 2-D [n, d_k] or "
        "3-D [heads, n, d_k]");
  CHECK(json_err("{\"q\": [1, 2], \"k\": [[1]]}") == "json (q): shape (2,) has 1 dimension: expected 2-D [n, d_k] or 3-D [heads, n, d_k]");
  CHECK(json_err("{\"q\": [[1, [2]]], \"k\": [[1]]}") ==
        "json: line 1, column 12: q[0][1] is an array, but q's first elements at this depth are numbers");
  CHECK(json_err("{\"q\": [[1], 2], \"k\": [[1]]}") == "json: line 1, column 13: q[1] is a number, but an array was expected here");
  CHECK(json_err("{\"q\": [[NaN]], \"k\": [[1]]}") == "json: line 1, column 9: q[0][0] is NaN, not a finite number: q and k must hold finite numbers");
  CHECK(json_err("{\"q\": [[1]], \"k\": [[1, -Infinity]]}") ==
        "json: line 1, column 24: k[0][1] is -Infinity, not a finite number: q and k must hold finite numbers");
  CHECK(json_err("{\"q\": [[1e39]], \"k\": [[1]]}") == "json: line 1, column 9: q[0][0] is 1e39, outside the float32 range (about ±3.4e38)");
  CHECK(json_err("{\"q\": [[01]], \"k\": [[1]]}") ==
        "json: line 1, column 9: '01' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
  CHECK(json_err("{\"q\": [], \"k\": [[1]]}") == "json: line 1, column 8: q is empty: need at least one row and one column");
  CHECK(json_err("{\"q\": [[1]], \"q\": [[1]]}") == "json: line 1, column 19: \"q\" is given twice");
  CHECK(json_err("{\"q\": [[1]]}") == "json: the object has no \"k\"");
  CHECK(json_err("{\"q\": [[1]], \"k\": [[1]]} x") == "json: line 1, column 26: unexpected text after the end of the JSON value");
  CHECK(json_err("[[1]]") == "json: a bare array holds one tensor: give an object {\"q\": [...], \"k\": [...]}, "
                             "or two files (q first, then k)");
  CHECK(json_err("{\"q\": [[1]]}", {}) == "json: an object holds q and k together, so give this file alone "
                                            "(or give each tensor as a bare array)");
  CHECK(json_err("\"q\"") == "json: line 1, column 1: expected an object {\"q\": [...], \"k\": [...]} or an array of rows");
  CHECK(json_err("{\"x\": " + std::string(100, '[') + std::string(100, ']') + "}").find("nested more than 64 levels deep") !=
        std::string::npos);
  CHECK(json_err("{\"q\": [[\"1\"]]}") == "json: line 1, column 9: expected a number");
}

// Issue 14, class 6: one number grammar (base/number.h) in both readers, a byte
// order mark skipped, NUL bytes refused, members the checker does not use skipped.
TEST_CASE("csv and json: the float maximum as printed, subnormals, underflow, past it out of range", "[csv][json]") {
  const float m = std::numeric_limits<float>::max();
  const auto c = csv("q,3.4028235e+38,-3.4028234663852886e38,1e-45,1e-50\nk,1,2,3,4\n");
  REQUIRE(c[0].data == std::vector<float>{m, -m, 0x1p-149f, 0});
  const auto j = json("{\"q\": [[3.4028235e+38, -3.4028234663852886E38, 1e-45, 1e-50]], \"k\": [[1, 2, 3, 4]]}");
  REQUIRE(j[0].data == c[0].data);
  CHECK(csv_err("q,1,3.5e38\nk,1,2\n") == "csv: line 1, field 3 is 3.5e38, outside the float32 range (about ±3.4e38)");
  CHECK(json_err("{\"q\": [[1, -3.5e38]], \"k\": [[1, 2]]}") ==
        "json: line 1, column 12: q[0][1] is -3.5e38, outside the float32 range (about ±3.4e38)");
}

TEST_CASE("csv and json: a number is JSON's syntax, in CSV fields too", "[csv][json][errors]") {
  for (const char* bad : {"0x10", "+1", ".5", "1.", "01", "1e", "1e+", "-", "1_0", "0x1p1"}) {
    CAPTURE(bad);
    CHECK(csv_err(std::string("q,1,") + bad + "\nk,1,2\n") ==
          std::string("csv: line 1, field 3 ('") + bad + "') is not a number");
    CHECK(json_err(std::string("{\"q\": [[1, ") + bad + "]], \"k\": [[1, 2]]}") ==
          std::string("json: line 1, column 12: '") + bad + "' is not a number (JSON's syntax: -?digits[.digits][e[+-]digits])");
  }
  // CSV's own separators: blanks around a field are not part of it.
  REQUIRE(csv("q, 1 ,\t2\nk,3,4\n")[0].data == std::vector<float>{1, 2});
  CHECK(csv_err("q,1,inf\nk,1,2\n") == "csv: line 1, field 3 is inf: q and k must hold finite numbers");
  CHECK(csv_err("q,1,-Infinity\nk,1,2\n") == "csv: line 1, field 3 is -inf: q and k must hold finite numbers");
}

TEST_CASE("csv: a UTF-8 byte order mark is skipped, tagged or plain", "[csv]") {
  const auto t = csv("\xEF\xBB\xBFq,1,2\nk,3,4\nk,5,6\n");
  REQUIRE(t[0].data == std::vector<float>{1, 2});
  REQUIRE(t[1].shape == std::vector<std::size_t>{2, 2});
  REQUIRE(csv("\xEF\xBB\xBF" "1,2\n3,4\n", {})[0].data == std::vector<float>{1, 2, 3, 4});
  // Only at the start: elsewhere it is text like any other.
  CHECK(csv_err("q,1,2\n\xEF\xBB\xBFk,3,4\n") == "csv: line 2 starts with '\xEF\xBB\xBFk', not 'q' or 'k'");
}

TEST_CASE("csv and json: a NUL byte is refused where it is, never read as the end", "[csv][json][errors]") {
  using namespace std::string_literals;
  CHECK(csv_err("q,1,2\nk,3,4\n\0k,5,6\n"s) == "csv: line 3, column 1 holds a NUL byte: not a text file");
  CHECK(csv_err("q,1,2\0\nk,3,4\n"s) == "csv: line 1, column 6 holds a NUL byte: not a text file");
  CHECK(csv_err("1,2\n3,\0"s, {}) == "csv: line 2, column 3 holds a NUL byte: not a text file");
  CHECK(json_err("{\"q\": [[1]], \"k\": [[1]]}\0{\"q\": 5}"s) == "json: line 1, column 25 holds a NUL byte: not a text file");
  CHECK(json_err("{\"note\": \"a\0b\", \"q\": [[1]], \"k\": [[1]]}"s) ==
        "json: line 1, column 12 holds a NUL byte: not a text file");
}

TEST_CASE("json: members the checker does not use are skipped unchecked", "[json]") {
  // As Python's json.dumps writes them (NaN, Infinity, -Infinity), and numbers past every float.
  const auto t = json("{\"q\": [[1, 2], [3, 4]], \"k\": [[1, 2], [3, 4]], \"loss\": NaN, \"count\": 1e40,"
                      " \"best\": -Infinity, \"worst\": Infinity, \"log\": [1e400, -1e999, {\"x\": NaN}], \"n\": 1" +
                      std::string(400, '0') + "}");
  REQUIRE(t[0].data == std::vector<float>{1, 2, 3, 4});
  // Still JSON: a bad number or word in a skipped member is a syntax error.
  CHECK(json_err("{\"q\": [[1]], \"k\": [[1]], \"x\": 0x10}") ==
        "json: line 1, column 31: '0x10' is not a JSON value");
  CHECK(json_err("{\"q\": [[1]], \"k\": [[1]], \"x\": nan}") == "json: line 1, column 31: 'nan' is not a JSON value");
  // In a used array they name the array and the place.
  CHECK(json_err("{\"q\": [[1, 2], [3, NaN]], \"k\": [[1, 2]]}") ==
        "json: line 1, column 20: q[1][1] is NaN, not a finite number: q and k must hold finite numbers");
  CHECK(json_err("{\"q\": [[1, 2]], \"k\": [[[1, 2]], [[3, 1e40]]]}") ==
        "json: line 1, column 38: k[1][0][1] is 1e40, outside the float32 range (about ±3.4e38)");
}
