// Divisor: parsing, resolving and labels, plus the shared argument checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "base/argument_checks.h"
#include "base/divisor.h"
#include "base/size_limits.h"
#include "oracles.h"

using attn::Divisor;

TEST_CASE("Divisor::parse resolves sqrt and dk against d_k", "[divisor]") {
  const Divisor s = Divisor::parse("sqrt");
  REQUIRE(s.kind() == Divisor::Kind::Sqrt);
  REQUIRE(s.label() == "sqrt");
  // √d_k: exact for perfect squares, correctly rounded otherwise.
  REQUIRE(s.resolve(64) == 8.0);
  REQUIRE(s.resolve(1) == 1.0);
  REQUIRE(s.resolve(4) == 2.0);
  REQUIRE(s.resolve(2) == std::sqrt(2.0));
  REQUIRE(s.resolve(1000) == std::sqrt(1000.0));
  REQUIRE(s.resolve(attn::limits::kMaxDk) == 256.0);

  const Divisor d = Divisor::parse("dk");
  REQUIRE(d.kind() == Divisor::Kind::Dk);
  REQUIRE(d.label() == "dk");
  REQUIRE(d.resolve(1) == 1.0);
  REQUIRE(d.resolve(3) == 3.0);
  REQUIRE(d.resolve(64) == 64.0);
  REQUIRE(d.resolve(attn::limits::kMaxDk) == 65536.0);

  // The named constructors agree with the parser.
  REQUIRE(Divisor::sqrt_dk().resolve(9) == 3.0);
  REQUIRE(Divisor::sqrt_dk().label() == "sqrt");
  REQUIRE(Divisor::dk().resolve(9) == 9.0);
  REQUIRE(Divisor::dk().label() == "dk");
}

TEST_CASE("Divisor::parse of numbers: value ignores d_k, label is the number", "[divisor]") {
  struct Case {
    const char* text;
    double value;
    const char* label;
  };
  const Case cases[] = {{"1", 1.0, "1"},   {"2", 2.0, "2"},     {"0.5", 0.5, "0.5"},
                        {"8", 8.0, "8"},   {"1e12", 1e12, "1000000000000"},
                        {"0.37", 0.37, nullptr}, {"1e-30", 1e-30, nullptr}};
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Divisor d = Divisor::parse(c.text);
    REQUIRE(d.kind() == Divisor::Kind::Value);
    for (std::size_t dk : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{4096}})
      REQUIRE(d.resolve(dk) == c.value);
    if (c.label != nullptr) REQUIRE(d.label() == c.label);
    // Whatever the label says, it must parse back to the same number.
    REQUIRE(Divisor::parse(d.label()).resolve(7) == c.value);
  }
}

TEST_CASE("Divisor::value accepts kMinDivisor <= v <= kMaxDivisor and labels the number", "[divisor]") {
  REQUIRE(Divisor::value(0.5).resolve(64) == 0.5);
  REQUIRE(Divisor::value(0.5).label() == "0.5");
  REQUIRE(Divisor::value(attn::limits::kMaxDivisor).resolve(1) == attn::limits::kMaxDivisor);
  REQUIRE(Divisor::value(attn::limits::kMinDivisor).resolve(1) == attn::limits::kMinDivisor);
  REQUIRE(Divisor::value(3.0).kind() == Divisor::Kind::Value);
}

TEST_CASE("Divisor::parse rejects everything else with an ArgumentError on divisor", "[divisor][errors]") {
  for (const char* bad : {"", "abc", "0", "-1", "nan", "NaN", "inf", "-inf", "1e400", "2x", "sqrt ",
                          "SQRT", "d_k", "1e13", "2e12", "-0", "1e-400", "0x", ".", " 1", "1 ",
                          "0x10", "+inf", "1e-31", "+8", "08", "8.", ".5", "0x1p3", "\t8", "8\n"}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(Divisor::parse(bad), "divisor");
  }
}

TEST_CASE("Divisor::value rejects 0, negatives, NaN, inf and values outside [kMinDivisor, kMaxDivisor]", "[divisor][errors]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -0.0, -1.0, nan, inf, -inf, 2e12, std::nextafter(1e12, 2e12), 1e-39,
                     std::nextafter(1e-30, 0.0), std::numeric_limits<double>::denorm_min()}) {
    CAPTURE(bad);
    REQUIRE_ARGUMENT_ERROR(Divisor::value(bad), "divisor");
  }
}

// The shared argument checks (base/argument_checks.h), which every entry point relies on.
TEST_CASE("check helpers: bounds, overflow-free products, reals, finiteness, null", "[check][errors]") {
  using namespace attn;
  const std::size_t big = std::numeric_limits<std::size_t>::max();

  REQUIRE_NOTHROW(check_size("n", 1, 1, 4));
  REQUIRE_NOTHROW(check_size("n", 4, 1, 4));
  REQUIRE_ARGUMENT_ERROR(check_size("n", 0, 1, 4), "n");
  REQUIRE_ARGUMENT_ERROR(check_size("n", 5, 1, 4), "n");
  REQUIRE_ARGUMENT_ERROR(check_size("n", big, 1, 4), "n");

  REQUIRE_NOTHROW(check_product("a*b", 10, 10, 100));
  REQUIRE_NOTHROW(check_product("a*b", 0, big, 100));
  REQUIRE_NOTHROW(check_product("a*b", big, 0, 100));
  REQUIRE_ARGUMENT_ERROR(check_product("a*b", 101, 1, 100), "a*b");
  REQUIRE_ARGUMENT_ERROR(check_product("a*b", 11, 10, 109), "a*b");
  // Products that wrap around size_t (2^32 in wasm, 2^64 natively) must not slip through.
  const std::size_t half = (big >> (sizeof(std::size_t) * 4)) + 1;  // 2^(bits/2)
  REQUIRE(half * half == 0);  // wraps to 0 ...
  REQUIRE_ARGUMENT_ERROR(check_product("a*b", half, half, 100), "a*b");  // ... yet is rejected
  REQUIRE_ARGUMENT_ERROR(check_product("a*b", big, 2, big), "a*b");

  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_NOTHROW(check_real("rho", -1.0, -1.0, 1.0));
  REQUIRE_NOTHROW(check_real("rho", 1.0, -1.0, 1.0));
  REQUIRE_ARGUMENT_ERROR(check_real("rho", 1.5, -1.0, 1.0), "rho");
  REQUIRE_ARGUMENT_ERROR(check_real("rho", nan, -1.0, 1.0), "rho");

  const float fgood[3] = {1.0f, -2.0f, 3.0e38f};
  const float fbad[3] = {1.0f, std::numeric_limits<float>::infinity(), 0.0f};
  const double dbad[2] = {0.0, nan};
  REQUIRE_NOTHROW(check_finite("x", fgood, 3));
  REQUIRE_NOTHROW(check_finite("x", fbad, 1));  // only `count` elements are read
  REQUIRE_ARGUMENT_ERROR(check_finite("x", fbad, 3), "x");
  REQUIRE_ARGUMENT_ERROR(check_finite("y", dbad, 2), "y");

  REQUIRE_NOTHROW(check_not_null("p", fgood));
  REQUIRE_ARGUMENT_ERROR(check_not_null("p", nullptr), "p");
}
