#include "checker/io/json_reader.h"

#include <cstdarg>

#include "base/format.h"
#include "base/json_reader.h"
#include "base/size_limits.h"
#include "checker/io/text_values.h"

namespace attn {

using namespace text_io;

namespace {

// q and k (or one tensor) on the core's JSON reader; errors are ArgumentErrors
// with a kind and the line and column in their params.
class TensorReader : JsonReader {
 public:
  TensorReader(const std::uint8_t* data, std::size_t size, const char* argument)
      : JsonReader(reinterpret_cast<const char*>(data), size), argument_(argument) {}

  std::vector<Tensor> read(const std::vector<std::string>& names) {
    if (n_ == 0) fail_kind(argument_, "file_empty", "", "json: the file is empty");
    i_ = text_start(reinterpret_cast<const std::uint8_t*>(s_), n_, argument_, "json");
    ws();
    std::vector<Tensor> out;
    if (peek() == '{') {
      if (names.empty())
        fail_kind(argument_, "npz_alone", "", "json: an object holds q and k together, so give this file alone (or give "
                            "each tensor as a bare array)");
      Growing got[2];
      bool have[2] = {false, false};
      ++i_;
      members([&](const std::string& key) {
        const std::size_t which = key == names[0] ? 0 : key == names[1] ? 1 : 2;
        if (which == 2) return skip(limits::kMaxTextNesting);
        if (have[which]) syntax(strf("\"%s\" is given twice", key.c_str()));
        have[which] = true;
        tensor(got[which], key);
      });
      end();
      for (std::size_t w = 0; w < 2; ++w)
        if (!have[w])
          fail_kind(argument_, "missing_array", "{\"name\":" + jstr(names[w]) + "}", "json: the object has no \"%s\"",
                    names[w].c_str());
      for (std::size_t w = 0; w < 2; ++w)
        out.push_back(finish(got[w], argument_, "json (" + names[w] + ")"));
    } else if (peek() == '[') {
      if (!names.empty())
        fail_kind(argument_, "npy_single", "", "json: a bare array holds one tensor: give an object {\"%s\": [...], \"%s\": [...]}, or "
                            "two files (q first, then k)", names[0].c_str(), names[1].c_str());
      Growing g;
      tensor(g, "");
      end();
      out.push_back(finish(g, argument_, "json (" + std::string(argument_) + ")"));
    } else {
      syntax("expected an object {\"q\": [...], \"k\": [...]} or an array of rows");
    }
    return out;
  }

 private:
  // Kind "syntax"; failk() at the cursor gives another kind. The params hold
  // the line and column, then `extra` (members with a leading comma, or "").
  [[noreturn]] void raise_syntax(std::size_t at, const std::string& what) const override { raise("syntax", "", what, at); }
  [[noreturn]] void failk(const char* kind, const std::string& extra, const char* fmt, ...) const
      __attribute__((format(printf, 4, 5))) {
    std::va_list args;
    va_start(args, fmt);
    const std::string what = vstrf(fmt, args);
    va_end(args);
    raise(kind, extra, what, i_);
  }
  [[noreturn]] void raise(const char* kind, const std::string& extra, const std::string& what, std::size_t at) const {
    const TextPlace p = place(at);
    fail_kind(argument_, kind, strf("{\"format\":\"json\",\"line\":%zu,\"column\":%zu", p.line, p.column) + extra + "}",
              "json: line %zu, column %zu: %s", p.line, p.column, what.c_str());
  }

  // A value of q or k: non-finite words and values past float32 named where they are.
  float number() {
    const std::string_view t = token();
    if (t.empty()) syntax(at_end() ? "the text ends early: expected a number" : "expected a number");
    float v = 0;
    const NumberRead r = float_token(t, v);
    if (r == NumberRead::Ok) return v;
    i_ = static_cast<std::size_t>(t.data() - s_);
    if (r == NumberRead::NotFinite)
      failk("value_finite", "", "%s is %s, not a finite number: q and k must hold finite numbers", path().c_str(),
            printable(t.data(), t.data() + t.size()).c_str());
    failk("value_float", "", "%s is %s, outside the float32 range (about ±3.4e38)", path().c_str(),
          printable(t.data(), t.data() + t.size()).c_str());
  }

  // A regular 2-D or 3-D array of numbers. The first element at each level
  // fixes that level's length and whether it holds arrays or numbers.
  void tensor(Growing& g, const std::string& name) {
    g.shape.clear();
    rank_ = 0;
    path_.clear();
    name_ = name.empty() ? std::string(argument_) : name;  // a bare array: the input it is (q, logits, ...)
    level(g, 0);
    g.shape.resize(rank_);
  }

  std::string path() const {
    std::string p = name_;
    for (std::size_t x : path_) p += "[" + std::to_string(x) + "]";
    return p;
  }

  void level(Growing& g, std::size_t depth) {
    if (peek() != '[') failk("structure", "", "%s must be an array", path().c_str());
    // Up to kMaxRank levels are read, so a 4-D array is refused with its whole
    // shape by check_tensor_shape (and logits with the shape q and k need).
    if (depth >= kMaxRank)
      failk("structure", "", "%s is an array nested more than %zu deep: expected %s", path().c_str(), kMaxRank,
            expected_layout(argument_));
    ++i_;
    ws();
    if (peek() == ']') failk("structure", "", "%s is empty: need at least one row and one column", path().c_str());
    if (g.shape.size() <= depth) g.shape.push_back(0);
    path_.push_back(0);
    const std::size_t count = elements([&](std::size_t index) {
      path_.back() = index;
      const bool is_array = peek() == '[';
      if (rank_ == 0 && !is_array) rank_ = depth + 1;  // the first number decides the rank
      if (is_array) {
        if (rank_ != 0 && depth + 1 >= rank_)
          failk("structure", "", "%s is an array, but %s's first elements at this depth are numbers", path().c_str(), name_.c_str());
        return level(g, depth + 1);
      }
      if (depth + 1 != rank_) failk("structure", "", "%s is a number, but an array was expected here", path().c_str());
      const float v = number();
      if (g.data.size() >= limits::kMaxCheckValues)
        failk("values", strf(",\"limit\":%zu", limits::kMaxCheckValues), "%s holds more than the limit of %zu values (heads·n·d_k)", name_.c_str(), limits::kMaxCheckValues);
      g.data.push_back(v);
    });
    path_.pop_back();
    if (g.shape[depth] == 0) {
      g.shape[depth] = count;  // the first array at this depth
    } else if (count != g.shape[depth]) {
      std::string first = name_;
      for (std::size_t d = 0; d < depth; ++d) first += "[0]";
      failk("structure", "", "%s has %zu elements, but %s has %llu", path().c_str(), count, first.c_str(),
           static_cast<unsigned long long>(g.shape[depth]));
    }
  }

  static constexpr std::size_t kMaxRank = 8;
  const char* argument_;
  std::size_t rank_ = 0;
  std::vector<std::size_t> path_;
  std::string name_;
};

}  // namespace

std::vector<Tensor> parse_json(const std::uint8_t* data, std::size_t size,
                               const std::vector<std::string>& names, const char* argument) {
  return TensorReader(data, size, argument).read(names);
}

}  // namespace attn
