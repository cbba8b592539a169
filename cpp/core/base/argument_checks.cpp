#include "base/argument_checks.h"

#include <cmath>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/text.h"

namespace attn {

void check_size(const char* name, std::size_t value, std::size_t lo, std::size_t hi) {
  if (value < lo || value > hi) {
    throw ArgumentError(name, "range", strf("{\"lo\":%zu,\"hi\":%zu,\"value\":%zu,\"integer\":true}", lo, hi, value),
                        std::string(name) + " must be an integer in [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "], got " + std::to_string(value));
  }
}

void check_product(const char* name, std::size_t a, std::size_t b, std::size_t hi) {
  if (b != 0 && a > hi / b) {
    throw ArgumentError(name, "product", strf("{\"hi\":%zu,\"a\":%zu,\"b\":%zu}", hi, a, b),
                        std::string(name) + " must be at most " + std::to_string(hi) + ", got " +
                            std::to_string(a) + " * " + std::to_string(b));
  }
}

void check_real(const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // also rejects NaN
    throw ArgumentError(name, "range", "{\"lo\":" + jnum(lo) + ",\"hi\":" + jnum(hi) + ",\"value\":" + jnum(value) + "}",
                        std::string(name) + " must be a number in [" + num(lo) + ", " + num(hi) + "], got " +
                            num_exact(value));
  }
}

template <typename T>
static void check_finite_impl(const char* name, const T* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) {
      throw ArgumentError(name, "finite", strf("{\"index\":%zu}", i),
                          std::string(name) + " must hold finite numbers, but element " + std::to_string(i) +
                              " is " + num_exact(static_cast<double>(data[i])));
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
  if (p == nullptr) throw ArgumentError(name, "null", "", std::string(name) + " must not be null");
}

}  // namespace attn
