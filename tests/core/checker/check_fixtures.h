// Shared by the checker's tests: byte builders for .npy files written by hand
// from numpy.lib.format (not by the code under test), a small deterministic
// data source, and a helper that asserts the exact ArgumentError message.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/argument_error.h"

namespace checkfix {

using Bytes = std::vector<std::uint8_t>;

inline Bytes bytes(const std::string& s) { return Bytes(s.begin(), s.end()); }

// A .npy prefix and header for `header_dict`, padded to 64 as numpy pads it.
inline Bytes npy_header(const std::string& header_dict, int major = 1) {
  std::string h = header_dict;
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t unpadded = 8 + len_bytes + h.size() + 1;
  h.append((64 - unpadded % 64) % 64, ' ');
  h += '\n';
  Bytes out = bytes("\x93NUMPY");
  out.push_back(static_cast<std::uint8_t>(major));
  out.push_back(0);
  for (std::size_t i = 0; i < len_bytes; ++i) out.push_back(static_cast<std::uint8_t>(h.size() >> (8 * i)));
  out.insert(out.end(), h.begin(), h.end());
  return out;
}

inline std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

template <typename T>
void append(Bytes& out, T v, bool big_endian = false) {
  std::uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(b[big_endian ? sizeof(T) - 1 - i : i]);
}

// Deterministic values of mean near 0 and variance near 1 (splitmix64 + Irwin-Hall).
class Data {
 public:
  explicit Data(std::uint64_t seed) : x_(seed) {}
  double normalish() {
    double s = 0;
    for (int i = 0; i < 12; ++i) s += static_cast<double>(next() >> 11) * 0x1p-53;
    return s - 6.0;
  }
  std::vector<float> floats(std::size_t n, double scale = 1.0) {
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(scale * normalish());
    return v;
  }

 private:
  std::uint64_t next() {
    std::uint64_t z = (x_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t x_;
};

// The message of the ArgumentError that f throws ("" if it throws nothing).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const attn::ArgumentError& e) {
    return e.what();
  }
  return "";
}

}  // namespace checkfix
