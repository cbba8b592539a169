#include "base/number.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace attn {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

bool word_is(std::string_view s, const char* w) {
  const std::size_t n = std::strlen(w);
  if (s.size() != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != w[i]) return false;
  }
  return true;
}

// NaN / infinity words (as C's printf, NumPy and Python's json write them), for
// their own message; +1: positive, -1: negative, 0: NaN, 2: not such a word.
int non_finite_word(std::string_view s) {
  int sign = 1;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    sign = s[0] == '-' ? -1 : 1;
    s.remove_prefix(1);
  }
  if (word_is(s, "nan")) return 0;
  if (word_is(s, "inf") || word_is(s, "infinity")) return sign;
  return 2;
}

// strto* needs a NUL-terminated copy: the text may be a span of a file. The
// text is the grammar already; Ok, or Range for a rounding that overflows.
template <class T, class F>
NumberRead convert_number(std::string_view s, T& out, F strto) {
  char small[96];
  std::string big;
  const char* text = small;
  if (s.size() < sizeof small) {
    std::memcpy(small, s.data(), s.size());
    small[s.size()] = '\0';
  } else {
    big.assign(s);
    text = big.c_str();
  }
  // errno's ERANGE is ignored: an underflow is the rounded value (a subnormal
  // or zero) and an overflow shows as an infinity, which the grammar cannot spell.
  out = strto(text);
  return std::isinf(out) ? NumberRead::Range : NumberRead::Ok;
}

template <class T, class F>
NumberRead convert(std::string_view s, T& out, F strto) {
  if (!is_number_text(s)) {
    const int w = non_finite_word(s);
    if (w == 2) return NumberRead::Syntax;
    out = w == 0 ? std::numeric_limits<T>::quiet_NaN() : w * std::numeric_limits<T>::infinity();
    return NumberRead::NotFinite;
  }
  return convert_number(s, out, strto);
}

double strtod_whole(const char* t) { return std::strtod(t, nullptr); }

}  // namespace

std::size_t number_prefix(std::string_view s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i >= n || !digit(s[i])) return 0;
  if (s[i] == '0') ++i;
  else while (i < n && digit(s[i])) ++i;
  if (i + 1 < n && s[i] == '.' && digit(s[i + 1])) {
    i += 2;
    while (i < n && digit(s[i])) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < n && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < n && digit(s[j])) {
      while (j < n && digit(s[j])) ++j;
      i = j;
    }
  }
  return i;
}

bool is_number_text(std::string_view s) { return !s.empty() && number_prefix(s) == s.size(); }

NumberRead read_double(std::string_view s, double& out) { return convert(s, out, strtod_whole); }

bool read_finite_double(std::string_view s, double& out) {
  return is_number_text(s) && convert_number(s, out, strtod_whole) == NumberRead::Ok;
}

NumberRead read_float(std::string_view s, float& out) {
  return convert(s, out, [](const char* t) { return std::strtof(t, nullptr); });
}

NumberRead read_whole(std::string_view s, std::uint64_t& out) {
  if (s.empty() || (s[0] == '0' && s.size() > 1)) return NumberRead::Syntax;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!digit(s[i])) return NumberRead::Syntax;
    const std::uint64_t d = static_cast<std::uint64_t>(s[i] - '0');
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
      // Past 64 bits: out of range if the rest is digits too, else not the grammar.
      for (std::size_t j = i; j < s.size(); ++j)
        if (!digit(s[j])) return NumberRead::Syntax;
      return NumberRead::Range;
    }
    v = v * 10 + d;
  }
  out = v;
  return NumberRead::Ok;
}

bool fits_float(double v) {
  // FLT_MAX is (2 - 2^-23)·2^127; halfway to the next (2^128) rounds to even, i.e. up.
  return std::fabs(v) < 0x1.ffffffp+127;
}

}  // namespace attn
