// printf-style messages for the checker's errors and reasons. One out-of-line
// call per message keeps the wasm build small: with Emscripten's exceptions,
// every std::string temporary of an `a + b + c` chain needs its own cleanup
// path, and such chains were about half of the checker's code.
#pragma once

#include <cstdarg>
#include <string>

namespace attn {

// The formatted text (any length).
std::string strf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

std::string vstrf(const char* fmt, std::va_list args);

// Throws ArgumentError(argument, formatted message).
[[noreturn]] void fail_arg(const char* argument, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

}  // namespace attn
