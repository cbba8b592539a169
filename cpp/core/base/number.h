// The one number grammar of every numeric input: CLI options, the divisor's
// text, the checker's CSV and JSON values, the attention input, and the
// strings the bindings pass on. JSON's number syntax, nothing around it:
//
//   -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
//
// so no blanks, no leading '+', no hex, no "inf"/"nan", no ".5" or "1.".
// The value is the decimal correctly rounded to the target type (double or
// float); a result that rounds to a subnormal or to zero is that value, one
// whose rounding overflows the target is out of range (3.4028235e+38 rounds to
// the largest float and is fine as a float, 3.5e38 is not). Whole numbers
// (counts, seeds) are the integer part of that grammar alone: 0 or digits
// without a leading zero, no sign.
#pragma once

#include <cstdint>
#include <string_view>

namespace attn {

enum class NumberRead {
  Ok,
  Syntax,     // not the grammar
  NotFinite,  // a word for a non-finite value: nan, inf, infinity (any case, signed), NaN, Infinity
  Range,      // the grammar, but its rounding overflows the target type
};

// The length of the longest prefix of s that is the grammar (0: none); the
// JSON reader uses it to find where a number token ends.
std::size_t number_prefix(std::string_view s);

bool is_number_text(std::string_view s);

// `out` is set for Ok; for NotFinite it is the NaN or infinity named; for
// Range, the signed infinity (so a message can say which way it overflowed).
NumberRead read_double(std::string_view s, double& out);
NumberRead read_float(std::string_view s, float& out);
// read_double's Ok alone, without naming what else the text is (no NaN or
// infinity words): for the divisor, whose message is the same for all, and
// lean, as the explainer's module that every embedded widget loads holds it.
bool read_finite_double(std::string_view s, double& out);
NumberRead read_whole(std::string_view s, std::uint64_t& out);  // Range: past 2^64 - 1

// Whether a double rounds to a finite float (|v| below FLT_MAX + half an ulp):
// the same test for values that arrive as doubles (an .npy of f8, a JSON
// integer), so they agree with read_float.
bool fits_float(double v);

}  // namespace attn
