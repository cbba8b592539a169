#include "base/format.h"

#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>

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

namespace {

// The code point of the UTF-8 sequence at s[i] and its length, or length 0
// for a byte that does not start a valid sequence (overlong forms,
// surrogates and values above U+10FFFF are not valid).
std::size_t utf8_at(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t len = 0;
  char32_t min = 0;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool breaks_line(char32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::string escaped(std::string_view s, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size() && i < max_bytes) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char32_t cp = 0;
    if (c >= 0x20 && c < 0x7F) {
      if (c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
      ++i;
    } else if (const std::size_t len = c >= 0x80 ? utf8_at(s, i, cp) : 0) {
      if (breaks_line(cp)) out += strf("\\u%04x", static_cast<unsigned>(cp));
      else out.append(s.substr(i, len));
      i += len;
    } else {
      out += strf("\\x%02x", c);
      ++i;
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

void fail_arg(const char* argument, const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::string s = vstrf(fmt, args);
  va_end(args);
  throw ArgumentError(argument, s);
}

void fail_kind(const char* argument, const char* kind, const std::string& params, const char* fmt, ...) {
  std::va_list args;
  va_start(args, fmt);
  std::string s = vstrf(fmt, args);
  va_end(args);
  throw ArgumentError(argument, kind, params, s);
}

std::string jstr(std::string_view s, std::size_t max_bytes) {
  const std::string e = escaped(s, max_bytes);  // no control characters or line breaks left
  std::string out = "\"";
  for (const char c : e) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string range_params(double lo, double hi, double value, const char* extra, const char* text) {
  return strf("{\"lo\":%s,\"hi\":%s,\"value\":%s%s}", jnum(lo).c_str(), jnum(hi).c_str(),
              (text ? jstr(text) : jnum(value)).c_str(), extra);
}

std::string jnum(double v) {
  if (std::isnan(v)) return "\"nan\"";
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace attn
