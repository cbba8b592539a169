// ArgumentError's kind and params: what a page needs to write its own sentence
// (web/src/bridge/error-strings.js), while what() stays the CLI's English message.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/argument_checks.h"
#include "base/argument_error.h"
#include "base/divisor.h"
#include "base/format.h"
#include "checker/qk_input.h"
#include "train/train_config.h"

using attn::ArgumentError;

namespace {

// The error f throws (or a failed test when it throws none).
template <typename F>
ArgumentError caught(F&& f) {
  try {
    f();
  } catch (const ArgumentError& e) {
    return e;
  }
  FAIL("no ArgumentError");
  return ArgumentError("", "");
}

}  // namespace

TEST_CASE("the checks give their errors a kind and JSON params, the message is unchanged", "[errors]") {
  const auto size = caught([] { attn::check_size("dk", 0, 1, 65536); });
  REQUIRE(size.argument() == "dk");
  REQUIRE(size.kind() == "range");
  REQUIRE(size.params() == R"({"lo":1,"hi":65536,"value":0,"integer":true})");
  REQUIRE(std::string(size.what()) == "dk must be an integer in [1, 65536], got 0");

  const auto real = caught([] { attn::check_real("rho", 2.5, -1.0, 1.0); });
  REQUIRE(real.kind() == "range");
  REQUIRE(real.params() == R"({"lo":-1,"hi":1,"value":2.5})");

  const auto nan = caught([] { attn::check_real("rho", std::numeric_limits<double>::quiet_NaN(), -1.0, 1.0); });
  REQUIRE(nan.params() == R"({"lo":-1,"hi":1,"value":"nan"})");

  const auto product = caught([] { attn::check_product("rows*m", 100000, 4096, 100000000); });
  REQUIRE(product.kind() == "product");
  REQUIRE(product.params() == R"({"hi":100000000,"a":100000,"b":4096})");

  const float xs[] = {1.0f, std::numeric_limits<float>::infinity()};
  const auto finite = caught([&] { attn::check_finite("scores", xs, 2); });
  REQUIRE(finite.kind() == "finite");
  REQUIRE(finite.params() == R"({"index":1})");

  // The two-argument form (the CLI's own errors) has no kind and no params.
  const ArgumentError plain("x", "x is wrong");
  REQUIRE(plain.kind().empty());
  REQUIRE(plain.params().empty());
}

TEST_CASE("a divisor's error says whether the text was a number, and which", "[errors][divisor]") {
  const auto zero = caught([] { attn::Divisor::parse("0"); });
  REQUIRE(zero.argument() == "divisor");
  REQUIRE(zero.kind() == "divisor");
  REQUIRE(zero.params() == R"({"lo":1e-30,"hi":1000000000000,"value":0})");
  REQUIRE(std::string(zero.what()) == "divisor must be 'sqrt', 'dk' or a number in [1e-30, 1e+12], got '0'");

  const auto word = caught([] { attn::Divisor::parse("eight\n"); });
  REQUIRE(word.params() == R"({"lo":1e-30,"hi":1000000000000,"value":"eight\\n"})");

  const auto value = caught([] { attn::Divisor::value(-1); });
  REQUIRE(value.params() == R"({"lo":1e-30,"hi":1000000000000,"value":-1})");

  // The lab's divisor option: the same params, and qknorm among the choices.
  attn::TrainConfig c;
  const auto lab = caught([&] { attn::apply_divisor_option(c, "0"); });
  REQUIRE(lab.kind() == "divisor");
  REQUIRE(lab.params() == R"({"lo":1e-30,"hi":1000000000000,"value":0,"qknorm":true})");
}

TEST_CASE("the training options' errors: choices, the open range of lr", "[errors][train]") {
  const auto init = caught([] { attn::parse_init("he \"x\""); });
  REQUIRE(init.kind() == "choice");
  REQUIRE(init.params() == R"({"value":"he \"x\"","choices":"lecun, xavier, normal, t5"})");

  attn::TrainConfig c;
  c.lr = 0;
  const auto lr = caught([&] { attn::validate(c); });
  REQUIRE(lr.argument() == "lr");
  REQUIRE(lr.kind() == "range");
  REQUIRE(lr.params() == R"({"lo":0,"hi":10,"value":0,"open":"lo"})");
}

TEST_CASE("the checker's errors carry a kind for the page", "[errors][checker]") {
  const std::vector<std::uint8_t> junk = {'h', 'e', 'l', 'l', 'o'};
  const auto npz = caught([&] { attn::load_qk(junk.data(), junk.size(), attn::TensorFormat::Npz, {"q", "k", 0}); });
  REQUIRE(npz.argument() == "file");
  REQUIRE(npz.kind() == "not_format");
  REQUIRE(npz.params() == R"({"format":"npz"})");

  const auto empty = caught([&] { attn::load_qk(junk.data(), 0, attn::TensorFormat::Auto, {"q", "k", 0}); });
  REQUIRE(empty.kind() == "file_empty");

  const std::string csv = "q,1,2\nq,1\nk,1,2\nk,3,4\n";
  const auto ragged = caught([&] {
    attn::load_qk(reinterpret_cast<const std::uint8_t*>(csv.data()), csv.size(), attn::TensorFormat::Csv, {"q", "k", 0});
  });
  REQUIRE(ragged.kind() == "ragged");
  REQUIRE(ragged.params() == R"({"line":2,"count":1,"firstLine":1,"first":2})");

  const std::string json = "{\"q\": [[1, 2]], \"k\": [[1, 2], [3]]}";
  const auto shape = caught([&] {
    attn::load_qk(reinterpret_cast<const std::uint8_t*>(json.data()), json.size(), attn::TensorFormat::Json, {"q", "k", 0});
  });
  REQUIRE(shape.kind() == "structure");
  REQUIRE(shape.params().rfind(R"({"format":"json","line":1,"column":)", 0) == 0);

  const auto names = caught([&] { attn::load_qk(junk.data(), junk.size(), attn::TensorFormat::Npz, {"q", "q", 0}); });
  REQUIRE(names.argument() == "names");
  REQUIRE(names.kind() == "names_same");
}
