// The one number grammar (cpp/core/base/number.h): JSON's number syntax, the
// value correctly rounded to the target type. The expected values are written
// as hex floats or from <limits>, not computed by the code under test.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "base/number.h"

using attn::NumberRead;

namespace {

NumberRead d(const std::string& s, double* out = nullptr) {
  double v = -12345;
  const NumberRead r = attn::read_double(s, v);
  if (out) *out = v;
  return r;
}
NumberRead f(const std::string& s, float* out = nullptr) {
  float v = -12345;
  const NumberRead r = attn::read_float(s, v);
  if (out) *out = v;
  return r;
}

const float kFltMax = std::numeric_limits<float>::max();

}  // namespace

TEST_CASE("number: JSON's syntax is accepted, with its exact value", "[number]") {
  double v;
  CHECK(d("0", &v) == NumberRead::Ok);
  CHECK(v == 0);
  CHECK(d("-0", &v) == NumberRead::Ok);
  CHECK((v == 0 && std::signbit(v)));
  CHECK((d("14", &v) == NumberRead::Ok && v == 14));
  CHECK((d("-1.5", &v) == NumberRead::Ok && v == -1.5));
  CHECK((d("2.5e-3", &v) == NumberRead::Ok && v == 0.0025));
  CHECK((d("1E+5", &v) == NumberRead::Ok && v == 1e5));
  CHECK((d("1e05", &v) == NumberRead::Ok && v == 1e5));  // leading zeros in an exponent: JSON allows them
  CHECK((d("0.1", &v) == NumberRead::Ok && v == 0x1.999999999999ap-4));
  CHECK((d("1.7976931348623157e308", &v) == NumberRead::Ok && v == std::numeric_limits<double>::max()));
  // A long digit string is still one number (no length limit).
  CHECK((d("0." + std::string(300, '0') + "1", &v) == NumberRead::Ok && v == 1e-301));
}

TEST_CASE("number: every other spelling is refused as syntax", "[number]") {
  for (const char* s : {"", "-", ".", "1.", ".5", "-.5", "+1", "+0", " 1", "1 ", "\t1", "1\n", "\n1", "0x10", "0X1p3",
                        "0x1p1", "01", "-01", "00", "1e", "1e+", "1E-", "1.e5", "1.5e", "e5", "--1", "-+1", "1,2",
                        "1_000", "1'000", "١", "1d", "1f", "1.0f", "0b1", "1e5.5", "true", "null", "infinity!"}) {
    INFO("'" << s << "'");
    CHECK(d(s) == NumberRead::Syntax);
    CHECK(f(s) == NumberRead::Syntax);
    CHECK(!attn::is_number_text(s));
  }
  // An embedded NUL ends nothing: "1\0" 2 bytes is not the number 1.
  CHECK(d(std::string("1\0", 2)) == NumberRead::Syntax);
}

TEST_CASE("number: words for NaN and infinity have their own answer", "[number]") {
  double v;
  CHECK((d("nan", &v) == NumberRead::NotFinite && std::isnan(v)));
  CHECK((d("NaN", &v) == NumberRead::NotFinite && std::isnan(v)));
  CHECK((d("inf", &v) == NumberRead::NotFinite && v > 0 && std::isinf(v)));
  CHECK((d("-Infinity", &v) == NumberRead::NotFinite && v < 0 && std::isinf(v)));
  CHECK((d("+INF", &v) == NumberRead::NotFinite && v > 0));
  float x;
  CHECK((f("Infinity", &x) == NumberRead::NotFinite && std::isinf(x)));
}

TEST_CASE("number: subnormals and underflow are the rounded value, never an error", "[number]") {
  double v;
  CHECK((d("1e-320", &v) == NumberRead::Ok && v == 0x0.00000000007e8p-1022));
  CHECK((d("4.9e-324", &v) == NumberRead::Ok && v == 0x0.0000000000001p-1022));
  CHECK((d("1e-400", &v) == NumberRead::Ok && v == 0));
  CHECK((d("-1e-400", &v) == NumberRead::Ok && v == 0 && std::signbit(v)));
  float x;
  CHECK((f("1e-45", &x) == NumberRead::Ok && x == 0x1p-149f));  // the smallest float subnormal
  CHECK((f("1e-40", &x) == NumberRead::Ok && std::fpclassify(x) == FP_SUBNORMAL));
  CHECK((f("1e-46", &x) == NumberRead::Ok && x == 0));  // below half of 2^-149
  CHECK((f("1e-320", &x) == NumberRead::Ok && x == 0));
}

TEST_CASE("number: overflow of the target type is out of range, the float maximum as printed is not", "[number]") {
  double v;
  CHECK((d("1e309", &v) == NumberRead::Range && v > 0 && std::isinf(v)));
  CHECK((d("-1e999", &v) == NumberRead::Range && v < 0));
  CHECK(d("1" + std::string(400, '0')) == NumberRead::Range);
  float x;
  // FLT_MAX as NumPy and the CLI print it, as %.17g prints it, and in full.
  for (const char* s : {"3.4028235e+38", "3.4028235e38", "-3.4028235E+38", "3.4028234663852886e+38",
                        "340282346638528859811704183484516925440", "3.40282356e38"}) {
    INFO(s);
    CHECK(f(s, &x) == NumberRead::Ok);
    CHECK(std::fabs(x) == kFltMax);
  }
  // Just below FLT_MAX + half an ulp (2^128 - 2^103) rounds down; the halfway point itself
  // rounds to even, which is 2^128: out of range. The decimal below halfway that a
  // double would round up to halfway still reads as FLT_MAX (read in one rounding).
  CHECK((f("3.4028235677973366e38", &x) == NumberRead::Ok && x == kFltMax));
  CHECK(f("340282356779733661637539395458142568448") == NumberRead::Range);
  CHECK((f("3.5e38", &x) == NumberRead::Range && x > 0));
  CHECK((f("-1e39", &x) == NumberRead::Range && x < 0));
  CHECK(f("1e400") == NumberRead::Range);
  // The same boundary for values that arrive as doubles (.npy float64).
  CHECK(attn::fits_float(3.4028235e38));
  CHECK(attn::fits_float(-0x1.fffffefffffffp+127));
  CHECK(!attn::fits_float(0x1.ffffffp+127));
  CHECK(!attn::fits_float(3.5e38));
  CHECK(!attn::fits_float(std::numeric_limits<double>::infinity()));
  CHECK(!attn::fits_float(std::numeric_limits<double>::quiet_NaN()));
}

TEST_CASE("number: whole numbers are digits only, no leading zero, within 64 bits", "[number]") {
  std::uint64_t v = 7;
  CHECK((attn::read_whole("0", v) == NumberRead::Ok && v == 0));
  CHECK((attn::read_whole("4096", v) == NumberRead::Ok && v == 4096));
  CHECK((attn::read_whole("18446744073709551615", v) == NumberRead::Ok && v == 18446744073709551615ull));
  CHECK(attn::read_whole("18446744073709551616", v) == NumberRead::Range);
  CHECK(attn::read_whole("99999999999999999999999", v) == NumberRead::Range);
  for (const char* s : {"", "-1", "+1", "007", "1e3", "1.0", " 1", "1 ", "0x10", "12a", "99999999999999999999x"}) {
    INFO(s);
    CHECK(attn::read_whole(s, v) == NumberRead::Syntax);
  }
}
