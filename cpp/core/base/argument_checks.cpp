#include "base/argument_checks.h"

#include <cmath>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/text.h"

namespace attn {

// One out-of-line fail_kind() a check: a `+` chain of std::string temporaries
// costs a cleanup path each in the wasm build (format.h).
void check_size(const char* name, std::size_t value, std::size_t lo, std::size_t hi) {
  if (value < lo || value > hi)
    fail_kind(name, "range", strf("{\"lo\":%zu,\"hi\":%zu,\"value\":%zu,\"integer\":true}", lo, hi, value),
              "%s must be an integer in [%zu, %zu], got %zu", name, lo, hi, value);
}

void check_product(const char* name, std::size_t a, std::size_t b, std::size_t hi) {
  if (b != 0 && a > hi / b)
    fail_kind(name, "product", strf("{\"hi\":%zu,\"a\":%zu,\"b\":%zu}", hi, a, b), "%s must be at most %zu, got %zu * %zu",
              name, hi, a, b);
}

void check_work(const char* name, std::uint64_t work, std::uint64_t limit) {
  if (work > limit)
    fail_kind(name, "work_limit", strf("{\"limit\":%llu,\"value\":%llu}", static_cast<unsigned long long>(limit),
                                       static_cast<unsigned long long>(work)),
              "%s = %llu multiply-adds, more than the limit of %llu", name, static_cast<unsigned long long>(work),
              static_cast<unsigned long long>(limit));
}

void check_real(const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi))  // also rejects NaN
    fail_kind(name, "range", range_params(lo, hi, value), "%s must be a number in [%g, %g], got %s", name, lo, hi,
              num_exact(value).c_str());
}

template <typename T>
static void check_finite_impl(const char* name, const T* data, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) {
      fail_kind(name, "finite", strf("{\"index\":%zu}", i), "%s must hold finite numbers, but element %zu is %s", name,
                i, num_exact(static_cast<double>(data[i])).c_str());
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
  if (p == nullptr) fail_kind(name, "null", "", "%s must not be null", name);
}

std::string choice_list(const std::string_view* names, std::size_t n, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) (s += i ? sep : "") += names[i];
  return s;
}

std::size_t choice_index(const char* name, std::string_view text, const std::string_view* names, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (text == names[i]) return i;
  std::string quoted;  // 'a', 'b' or 'c'
  for (std::size_t i = 0; i < n; ++i) (((quoted += i == 0 ? "" : i + 1 == n ? " or " : ", ") += "'") += names[i]) += "'";
  throw ArgumentError(name, "choice", "{\"value\":" + jstr(text) + ",\"choices\":" + jstr(choice_list(names, n)) + "}",
                      std::string(name) + " must be " + quoted + ", got '" + escaped(text) + "'");
}

}  // namespace attn
