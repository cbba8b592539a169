#include "check.h"

#include <cmath>
#include <sstream>

#include "argument_error.h"

namespace attn {

void check_size(const char* name, std::size_t value, std::size_t lo, std::size_t hi) {
  if (value < lo || value > hi) {
    std::ostringstream m;
    m << name << " must be an integer in [" << lo << ", " << hi << "], got " << value;
    throw ArgumentError(name, m.str());
  }
}

void check_product(const char* name, std::size_t a, std::size_t b, std::size_t hi) {
  if (b != 0 && a > hi / b) {
    std::ostringstream m;
    m << name << " must be at most " << hi << ", got " << a << " * " << b;
    throw ArgumentError(name, m.str());
  }
}

void check_real(const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // also rejects NaN
    std::ostringstream m;
    m << name << " must be a number in [" << lo << ", " << hi << "], got " << value;
    throw ArgumentError(name, m.str());
  }
}

template <typename T>
static void check_finite_impl(const char* name, const T* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) {
      std::ostringstream m;
      m << name << " must hold finite numbers, but element " << i << " is " << data[i];
      throw ArgumentError(name, m.str());
    }
  }
}

void check_finite(const char* name, const float* data, std::size_t count) {
  check_finite_impl(name, data, count);
}
void check_finite(const char* name, const double* data, std::size_t count) {
  check_finite_impl(name, data, count);
}

void check_not_null(const char* name, const void* p) {
  if (p == nullptr) throw ArgumentError(name, std::string(name) + " must not be null");
}

}  // namespace attn
