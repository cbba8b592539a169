#include "checker/io/json_writer.h"

#include <cmath>
#include <cstdio>

#include "base/text.h"

namespace attn {

void JsonOut::key(const char* k) {
  comma();
  s += '"';
  s += k;
  s += "\":";
  fresh_ = true;
}

void JsonOut::num(double v) {
  comma();
  s += std::isfinite(v) ? num_exact(v) : "null";
}

void JsonOut::num6(float v) {
  comma();
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
  s += buf;
}

void JsonOut::integer(std::size_t v) {
  comma();
  s += std::to_string(v);
}

void JsonOut::str(const std::string& v) {
  comma();
  s += '"';
  for (char c : v) {
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      s += buf;
    } else {
      s += c;
    }
  }
  s += '"';
}

void JsonOut::open(char c) {
  comma();
  s += c;
  fresh_ = true;
}

void JsonOut::close(char c) {
  s += c;
  fresh_ = false;
}

void JsonOut::num(const char* k, double v) {
  key(k);
  num(v);
}

void JsonOut::integer(const char* k, std::size_t v) {
  key(k);
  integer(v);
}

void JsonOut::str(const char* k, const std::string& v) {
  key(k);
  str(v);
}

void JsonOut::open(const char* k, char c) {
  key(k);
  open(c);
}

void JsonOut::comma() {
  if (!fresh_) s += ',';
  fresh_ = false;
}

}  // namespace attn
