// What the CSV and JSON readers share: one number from a span of text, a
// printable excerpt for messages, and a tensor filled as it is read.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/format.h"
#include "checker/io/tensor_file.h"

namespace attn::text_io {

inline constexpr std::size_t kMaxNumberChars = 64;

enum class NumberResult { Ok, NotANumber, TooLong };

// strtod on [b, e) as a whole (no trailing text), through a bounded copy:
// the input is not NUL-terminated. C locale: '.' is the decimal point.
inline NumberResult read_number(const char* b, const char* e, double& v) {
  const std::size_t n = static_cast<std::size_t>(e - b);
  if (n == 0) return NumberResult::NotANumber;
  if (n > kMaxNumberChars) return NumberResult::TooLong;
  char buf[kMaxNumberChars + 1];
  std::memcpy(buf, b, n);
  buf[n] = '\0';
  if (buf[0] == ' ' || buf[0] == '\t') return NumberResult::NotANumber;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(buf, &end);
  if (end != buf + n) return NumberResult::NotANumber;
  return NumberResult::Ok;
}

inline std::string printable(const char* b, const char* e) {
  return escaped(std::string_view(b, static_cast<std::size_t>(e - b)), 40);
}

inline bool is_space(char c) { return c == ' ' || c == '\t'; }

// A tensor being filled row by row (CSV) or value by value (JSON).
struct Growing {
  std::vector<float> data;
  std::vector<std::uint64_t> shape;
  bool seen = false;
};

inline Tensor finish(Growing& g, const char* argument, const std::string& where) {
  check_tensor_shape(argument, where, g.shape);
  Tensor t;
  t.shape.assign(g.shape.begin(), g.shape.end());
  t.data = std::move(g.data);
  return t;
}

}  // namespace attn::text_io
