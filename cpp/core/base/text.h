// Number-to-text for error messages and labels, without <sstream>: iostreams
// would add about 100 kB to every wasm module.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <string>

namespace attn {

// Like ostream's default: 6 significant digits ("2.5", "1e+12", "nan", "inf").
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The shortest of %.15g / %.17g that reads back to the same double.
inline std::string num_exact(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The 1-based line and column of byte `at` of a text (the readers' error
// messages: the JSON and CSV readers and the CLI's attention input).
struct TextPlace {
  std::size_t line = 1, column = 1;
};
inline TextPlace text_place(const char* text, std::size_t size, std::size_t at) {
  TextPlace p;
  for (std::size_t j = 0; j < at && j < size; ++j) {
    if (text[j] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace attn
