// Argument checks shared by the core's entry points; each throws ArgumentError
// with a message that names the argument and its allowed range.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attn {

void check_size(const char* name, std::size_t value, std::size_t lo, std::size_t hi);
// a * b <= hi, without overflowing size_t (32 bits in wasm).
void check_product(const char* name, std::size_t a, std::size_t b, std::size_t hi);
// work <= limit multiply-adds (kind "work_limit"): one call's time, bounded
// before any buffer exists. `work` is computed by the caller in 64 bits.
void check_work(const char* name, std::uint64_t work, std::uint64_t limit);
void check_real(const char* name, double value, double lo, double hi);
void check_finite(const char* name, const float* data, std::size_t count);
void check_finite(const char* name, const double* data, std::size_t count);
void check_not_null(const char* name, const void* p);

// A choice option's names as its table and its error list them: "adam, sgd"
// (or joined by `sep`: "adam,sgd", a list option's default).
std::string choice_list(const std::string_view* names, std::size_t n, std::string_view sep = ", ");
// The index of `text` among `names`, else ArgumentError of kind "choice"
// ({"value", "choices"}: "task must be 'recall' or 'copy', got 'x'").
std::size_t choice_index(const char* name, std::string_view text, const std::string_view* names, std::size_t n);
template <std::size_t N>
std::size_t choice_index(const char* name, std::string_view text, const std::array<std::string_view, N>& names) {
  return choice_index(name, text, names.data(), N);
}
template <std::size_t N>
std::string choice_list(const std::array<std::string_view, N>& names, std::string_view sep = ", ") {
  return choice_list(names.data(), N, sep);
}

}  // namespace attn
