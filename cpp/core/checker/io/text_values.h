// What the CSV and JSON readers share: one number from a span of text, a
// printable excerpt for messages, and a tensor filled as it is read.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "base/format.h"
#include "base/number.h"
#include "base/text.h"
#include "checker/io/tensor_file.h"

namespace attn::text_io {

// A value of q or k: [b, e) as a whole read as a float by the one number
// grammar (base/number.h); the CSV reader trims the field first, the JSON
// reader passes its token.
inline NumberRead read_value(const char* b, const char* e, float& v) {
  return read_float(std::string_view(b, static_cast<std::size_t>(e - b)), v);
}

// Where a text file's text begins: after a UTF-8 byte order mark, if any.
// A NUL byte anywhere is refused (kind "nul_byte", naming its line and column):
// a reader that stopped there would check half the file in silence.
inline std::size_t text_start(const std::uint8_t* data, std::size_t size, const char* argument,
                              const char* format) {
  const void* nul = std::memchr(data, 0, size);
  if (nul) {
    const std::size_t at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(nul) - data);
    const TextPlace p = text_place(reinterpret_cast<const char*>(data), size, at);
    fail_kind(argument, "nul_byte", strf("{\"format\":\"%s\",\"line\":%zu,\"column\":%zu}", format, p.line, p.column),
              "%s: line %zu, column %zu holds a NUL byte: not a text file", format, p.line, p.column);
  }
  return size >= 3 && std::memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
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
