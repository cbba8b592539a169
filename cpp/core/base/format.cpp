#include "base/format.h"

#include <cstdarg>
#include <cstdio>

#include "base/argument_error.h"

namespace attn {

std::string vstrf(const char* fmt, std::va_list args) {
  char buf[256];
  std::va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, args);
  std::string out;
  if (n < 0) {
    out = fmt;
  } else if (static_cast<std::size_t>(n) < sizeof buf) {
    out.assign(buf, static_cast<std::size_t>(n));
  } else {
    out.resize(static_cast<std::size_t>(n) + 1);
    std::vsnprintf(&out[0], out.size(), fmt, again);
    out.resize(static_cast<std::size_t>(n));
  }
  va_end(again);
  return out;
}

std::string strf(const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::string s = vstrf(fmt, args);
  va_end(args);
  return s;
}

void fail_arg(const char* argument, const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::string s = vstrf(fmt, args);
  va_end(args);
  throw ArgumentError(argument, s);
}

}  // namespace attn
