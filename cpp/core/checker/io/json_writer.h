// A small JSON writer for the checker's report (the CLI prints it, the page
// parses it). Every method is defined out of line (json_writer.cpp): the
// report has about 60 fields, and inlined string appends once made its writer
// the largest function of the wasm module.
#pragma once

#include <cstddef>
#include <string>

namespace attn {

class JsonOut {
 public:
  void key(const char* k);            // "k": (then one value)
  void num(double v);                 // shortest exact text; null if not finite
  void num6(float v);                 // 6 significant digits
  void integer(std::size_t v);
  void str(const std::string& v);     // quoted, with " \ and control characters escaped
  void open(char c);                  // '{' or '['
  void close(char c);                 // '}' or ']'
  // "key": value, in one call.
  void num(const char* k, double v);
  void integer(const char* k, std::size_t v);
  void str(const char* k, const std::string& v);
  void open(const char* k, char c);

  std::string s;  // the text so far

 private:
  void comma();
  bool fresh_ = true;  // no comma before the next value
};

}  // namespace attn
