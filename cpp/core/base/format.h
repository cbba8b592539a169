// printf-style messages for the checker's errors and reasons. One out-of-line
// call per message keeps the wasm build small: with Emscripten's exceptions,
// every std::string temporary of an `a + b + c` chain needs its own cleanup
// path, and such chains were about half of the checker's code.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <string>
#include <string_view>

namespace attn {

// The formatted text (any length).
std::string strf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

std::string vstrf(const char* fmt, std::va_list args);

// A value from the input as it may appear in a one-line message: control
// characters, backslashes, bytes that are not UTF-8 and the code points that
// break or reorder a line (U+0080-U+009F, U+2028, U+2029, bidirectional
// controls) become escapes (\n, \t, \\, \x1b, \u2028); other UTF-8 text
// is kept. Past `max_bytes` of input the rest is cut and "..." added.
std::string escaped(std::string_view value, std::size_t max_bytes = 100);

// Throws ArgumentError(argument, formatted message).
[[noreturn]] void fail_arg(const char* argument, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Throws ArgumentError(argument, kind, params, formatted message): params is
// a JSON object's text (built with jstr and jnum), kind one of argument_error.h.
[[noreturn]] void fail_kind(const char* argument, const char* kind, const std::string& params, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

// JSON values for an error's params: a string (quoted, escaped; cut as
// escaped() cuts) and a number (finite: the shortest exact form; else the
// string "nan", "inf" or "-inf").
std::string jstr(std::string_view s, std::size_t max_bytes = 100);
std::string jnum(double v);

// A range error's params, {"lo":lo,"hi":hi,"value":value<extra>}: extra adds
// members (",\"integer\":true"); with text, the value is that string.
std::string range_params(double lo, double hi, double value, const char* extra = "",
                         const char* text = nullptr);

}  // namespace attn
