#include "checker/io/npy.h"

#include <cmath>
#include <cstdarg>
#include <cstring>

#include "base/format.h"

namespace attn {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::size_t kMaxHeaderDims = 32;  // parsed; more than 3 is then rejected by shape

std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

// What a descr's kind letter holds, for the "not supported" message.
const char* kind_name(char kind, std::size_t bytes) {
  switch (kind) {
    case 'f': return bytes == 2 ? "float16" : bytes >= 10 ? "long double" : "floating point";
    case 'i': return "signed integer";
    case 'u': return "unsigned integer";
    case 'b': return "boolean";
    case 'c': return "complex";
    case 'O': return "Python object";
    case 'S': case 'a': return "byte string";
    case 'U': return "unicode string";
    case 'V': return "void (raw bytes or structured)";
    case 'M': return "datetime";
    case 'm': return "timedelta";
    default: return "unknown";
  }
}

struct Header {
  std::string descr;
  bool have_descr = false, have_order = false, have_shape = false;
  bool fortran = false;
  std::vector<std::uint64_t> shape;
  std::size_t data_offset = 0;  // where the values start in the file
};

// A cursor over the header text: a Python dict literal, as numpy writes it
// (repr of a dict of str, bool and a tuple of ints), whitespace anywhere.
class HeaderParser {
 public:
  HeaderParser(const char* argument, const std::string& where, const std::string& text)
      : argument_(argument), where_(where), s_(text) {}

  Header parse() {
    Header h;
    ws();
    expect('{');
    while (true) {
      ws();
      if (peek() == '}') break;
      const std::string key = str();
      ws();
      expect(':');
      ws();
      if (key == "descr") {
        dup(h.have_descr, "descr");
        if (peek() == '[')
          fail("the dtype is structured (a list of fields), which is not supported: save a plain "
               "float32 or float64 array");
        h.descr = str();
      } else if (key == "fortran_order") {
        dup(h.have_order, "fortran_order");
        h.fortran = boolean();
      } else if (key == "shape") {
        dup(h.have_shape, "shape");
        h.shape = tuple();
      } else {
        fail("the header has an unexpected key '%s' (expected 'descr', 'fortran_order' and 'shape')",
             printable(key).c_str());
      }
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      ws();
      if (peek() != '}') fail("malformed header: expected ',' or '}' at byte %zu", i_);
    }
    ++i_;  // '}'
    ws();
    if (i_ != s_.size()) fail("malformed header: unexpected text after '}' at byte %zu", i_);
    if (!h.have_descr) fail("the header has no 'descr' (the dtype)");
    if (!h.have_order) fail("the header has no 'fortran_order'");
    if (!h.have_shape) fail("the header has no 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const char* fmt, ...) const __attribute__((format(printf, 2, 3))) {
    std::va_list args;
    va_start(args, fmt);
    const std::string what = vstrf(fmt, args);
    va_end(args);
    fail_kind(argument_, "damaged", "{\"format\":\"npy\"}", "%s: %s", where_.c_str(), what.c_str());
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  void expect(char c) {
    if (peek() != c)
      fail("malformed header: expected '%c' at byte %zu%s", c, i_,
           i_ >= s_.size() ? " (the header ends early)" : "");
    ++i_;
  }
  void dup(bool& seen, const char* key) {
    if (seen) fail("the header gives '%s' twice", key);
    seen = true;
  }
  static std::string printable(const std::string& t) { return escaped(t, 40); }
  std::string str() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("malformed header: expected a quoted string at byte %zu", i_);
    const std::size_t start = ++i_;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') fail("malformed header: escapes in strings are not supported");
      ++i_;
    }
    if (i_ >= s_.size()) fail("malformed header: a string is not closed");
    return s_.substr(start, i_++ - start);
  }
  bool boolean() {
    if (s_.compare(i_, 4, "True") == 0) {
      i_ += 4;
      return true;
    }
    if (s_.compare(i_, 5, "False") == 0) {
      i_ += 5;
      return false;
    }
    fail("malformed header: 'fortran_order' must be True or False");
  }
  std::vector<std::uint64_t> tuple() {
    expect('(');
    std::vector<std::uint64_t> dims;
    while (true) {
      ws();
      if (peek() == ')') break;
      if (!(peek() >= '0' && peek() <= '9'))
        fail("malformed header: 'shape' must be a tuple of non-negative integers");
      std::uint64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        const std::uint64_t d = static_cast<std::uint64_t>(peek() - '0');
        if (v > (UINT64_MAX - d) / 10) fail("'shape' has a dimension too large to read");
        v = v * 10 + d;
        ++i_;
      }
      if (peek() == 'L') ++i_;  // Python 2 longs: "(3L, 4L)"
      if (dims.size() == kMaxHeaderDims)
        fail("'shape' has more than %zu dimensions: expected %s", kMaxHeaderDims, expected_layout(argument_));
      dims.push_back(v);
      ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      ws();
      if (peek() != ')') fail("malformed header: expected ',' or ')' in 'shape' at byte %zu", i_);
    }
    ++i_;
    return dims;
  }

  const char* argument_;
  const std::string& where_;
  const std::string& s_;
  std::size_t i_ = 0;
};

std::uint64_t load_uint(const std::uint8_t* p, std::size_t bytes, bool big) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v |= std::uint64_t{p[big ? bytes - 1 - i : i]} << (8 * i);
  return v;
}

// Steps 1 and 2, shared by both readers: the magic string, the version and the header dict.
Header read_header(const std::uint8_t* data, std::size_t size, const char* argument, const std::string& where) {
  const char* w = where.c_str();

  // 1. Magic string, version, header length.
  if (size == 0) fail_kind(argument, "file_empty", "", "%s: the file is empty", w);
  const std::size_t seen = size < kMagicLen ? size : kMagicLen;
  if (std::memcmp(data, kMagic, seen) != 0)
    fail_kind(argument, "not_format", "{\"format\":\"npy\"}", "%s: wrong magic: a .npy file starts with 93 4e 55 4d 50 59 (\\x93NUMPY), this one with %s",
             w, hex_bytes(data, seen).c_str());
  if (size < kMagicLen + 2)
    fail_kind(argument, "damaged", "{\"format\":\"npy\"}", "%s: truncated header: %zu bytes, too few for the magic string and the version", w, size);
  const unsigned major = data[6], minor = data[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    fail_kind(argument, "unsupported", "{\"format\":\"npy\"}", "%s: format version %u.%u is not supported (1.0, 2.0 or 3.0)", w, major, minor);
  const std::size_t len_bytes = major == 1 ? 2 : 4;
  const std::size_t prefix = kMagicLen + 2 + len_bytes;
  if (size < prefix) fail_kind(argument, "damaged", "{\"format\":\"npy\"}", "%s: truncated header: %zu bytes, too few for the header length", w, size);
  const std::uint64_t header_len = load_uint(data + 8, len_bytes, false);
  if (header_len > size - prefix)
    fail_kind(argument, "damaged", "{\"format\":\"npy\"}", "%s: truncated header: it declares %llu bytes but only %zu follow", w,
             static_cast<unsigned long long>(header_len), size - prefix);

  // 2. The header dict.
  const std::string text(reinterpret_cast<const char*>(data + prefix),
                         static_cast<std::size_t>(header_len));
  Header h = HeaderParser(argument, where, text).parse();
  h.data_offset = prefix + static_cast<std::size_t>(header_len);
  return h;
}

}  // namespace


Tensor parse_npy(const std::uint8_t* data, std::size_t size, const char* argument,
                 const std::string& where, bool keep_non_finite) {
  const char* w = where.c_str();
  const Header h = read_header(data, size, argument, where);

  // 3. The dtype: '<f4', '>f8', '=f4' (native: little-endian on every target here).
  const std::string& d = h.descr;
  std::size_t k = 0;
  char order = '|';
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '=' || d[0] == '|')) order = d[k++];
  const char kind = k < d.size() ? d[k++] : '\0';
  std::size_t item = 0;
  bool digits = k < d.size() && k + 3 >= d.size();
  for (std::size_t j = k; digits && j < d.size(); ++j) {
    if (d[j] < '0' || d[j] > '9') digits = false;
    else item = item * 10 + static_cast<std::size_t>(d[j] - '0');
  }
  const std::string shown = d.substr(0, 40);
  const char* advice = "save q and k as float32 or float64 (x.astype(np.float32))";
  if (kind == 'f' && digits && (item == 4 || item == 8)) {
    if (order == '|')
      fail_kind(argument, "dtype", "{\"dtype\":" + jstr(shown) + "}", "%s: dtype '%s' has no byte order", w, shown.c_str());
  } else if (kind == 'f' && digits) {
    fail_kind(argument, "dtype", "{\"dtype\":" + jstr(shown) + "}", "%s: dtype '%s' (%zu-bit %s) is not supported: %s", w, shown.c_str(), 8 * item,
             kind_name(kind, item), advice);
  } else {
    const bool known = kind != '\0' && std::strchr("iubcOSaUVMm", kind) != nullptr;
    fail_kind(argument, "dtype", "{\"dtype\":" + jstr(shown) + "}", "%s: dtype '%s' (%s) is not supported: %s", w, shown.c_str(),
             known ? kind_name(kind, item) : "not a dtype numpy writes", advice);
  }
  const bool big = order == '>';

  // 4. The shape, checked before anything is allocated, then the data length.
  const std::size_t count = check_tensor_shape(argument, where, h.shape);
  const std::size_t data_offset = h.data_offset;
  const std::size_t have = size - data_offset;
  // count <= 2^22 and item <= 8: no overflow, even in 32-bit size_t.
  if (have != count * item)
    fail_kind(argument, "damaged", "{\"format\":\"npy\"}",
             "%s: header says shape %s = %zu values (%zu bytes of %s) but the file holds %zu bytes of data", w,
             shape_text(h.shape).c_str(), count, count * item, d.c_str(), have);

  // 5. The values, in C order.
  Tensor t;
  t.shape.assign(h.shape.begin(), h.shape.end());
  t.data.resize(count);
  const std::uint8_t* p = data + data_offset;
  const std::size_t nd = t.shape.size();
  std::vector<std::size_t> stride(nd);  // Fortran strides, in elements
  std::size_t st = 1;
  for (std::size_t i = 0; i < nd; ++i) {
    stride[i] = st;
    st *= t.shape[i];
  }
  std::vector<std::size_t> idx(nd, 0);
  for (std::size_t flat = 0; flat < count; ++flat) {
    std::size_t src = flat;
    if (h.fortran) {
      src = 0;
      for (std::size_t i = 0; i < nd; ++i) src += idx[i] * stride[i];
      for (std::size_t i = nd; i-- > 0;) {  // next C-order index
        if (++idx[i] < t.shape[i]) break;
        idx[i] = 0;
      }
    }
    const std::uint64_t bits = load_uint(p + src * item, item, big);
    double v;
    if (item == 4) {
      float f;
      const std::uint32_t b32 = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      v = f;
    } else {
      std::memcpy(&v, &bits, 8);
    }
    t.data[flat] = keep_non_finite && !std::isfinite(v) ? static_cast<float>(v)
                                                        : checked_float(argument, where, v, t.shape, flat);
  }
  return t;
}

bool npy_one_number(const std::uint8_t* data, std::size_t size, const char* argument, const std::string& where,
                    double& out) {
  const Header h = read_header(data, size, argument, where);
  std::uint64_t count = 1;
  for (std::uint64_t d : h.shape) count = d > 1 ? 2 : count * d;  // 0, 1, or "more than one"
  const std::string& d = h.descr;
  // "<i8", "|u1", "|b1", "<f8": a byte order (or '|'), a kind letter, a size in bytes.
  if (count != 1 || d.size() != 3 || std::strchr("<>=|", d[0]) == nullptr || d[2] < '1' || d[2] > '8') return false;
  const char kind = d[1];
  const std::size_t item = static_cast<std::size_t>(d[2] - '0');
  const bool whole = (kind == 'i' || kind == 'u' || kind == 'b') && (item & (item - 1)) == 0;
  if (!whole && !(kind == 'f' && (item == 4 || item == 8))) return false;
  if (size - h.data_offset != item) return false;
  const std::uint64_t bits = load_uint(data + h.data_offset, item, d[0] == '>');
  if (kind == 'f' && item == 4) {
    float f;
    const std::uint32_t b32 = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b32, 4);
    out = f;
  } else if (kind == 'f') {
    std::memcpy(&out, &bits, 8);
  } else if (kind == 'i' && item < 8 && (bits >> (8 * item - 1)) != 0) {
    out = -static_cast<double>((std::uint64_t{1} << (8 * item)) - bits);  // sign-extended
  } else if (kind == 'i' && (bits >> 63) != 0) {
    out = -static_cast<double>(~bits + 1);
  } else {
    out = static_cast<double>(bits);
  }
  return true;
}

std::vector<std::uint8_t> write_npy(const float* values, const std::vector<std::size_t>& shape) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  const std::size_t unpadded = kMagicLen + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::size_t count = 1;
  for (std::size_t d : shape) count *= d;
  std::string prefix(kMagic, kMagicLen);
  prefix += '\x01';
  prefix += '\x00';
  prefix += static_cast<char>(header.size() & 0xFF);
  prefix += static_cast<char>(header.size() >> 8);
  prefix += header;
  std::vector<std::uint8_t> out(prefix.begin(), prefix.end());
  out.resize(prefix.size() + 4 * count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t b;
    std::memcpy(&b, &values[i], 4);
    for (std::size_t j = 0; j < 4; ++j)
      out[prefix.size() + 4 * i + j] = static_cast<std::uint8_t>(b >> (8 * j));
  }
  return out;
}

}  // namespace attn
