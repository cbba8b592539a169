#include "attention_input.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "args.h"
#include "base/format.h"
#include "base/size_limits.h"

namespace attncli {

namespace {

namespace L = attn::limits;
using Json = nlohmann::json;

std::string str(std::size_t v) { return std::to_string(v); }

// One matrix as it arrives: rows are checked when they open, numbers when they
// come, so the buffer stops at the first value past a limit.
struct Matrix {
  const char* name;      // "q", "k", "v"
  const char* rows_of;   // the limit names: "n" / "m" rows ...
  const char* cols_of;   // ... and "dk" / "dv" columns
  std::vector<float>* data;
  std::size_t rows = 0, cols = 0, in_row = 0;
  bool given = false, done = false;

  std::string at() const { return std::string(name) + "[" + str(rows - 1) + "]"; }

  void open_row() {
    if (rows == L::kMaxSeqLen)
      throw UsageError("input: \"" + std::string(name) + "\" has more than " + str(L::kMaxSeqLen) +
                       " rows, the limit of " + rows_of);
    if (rows > 0 && (rows + 1) * cols > L::kMaxAttentionElems)
      throw UsageError("input: \"" + std::string(name) + "\" holds more than " + str(L::kMaxAttentionElems) +
                       " numbers, the limit of " + rows_of + "*" + cols_of + " (" + str(rows + 1) + " rows of " +
                       str(cols) + ")");
    ++rows;
    in_row = 0;
  }
  void value(double v) {
    if (rows == 1 && in_row == L::kMaxDk)
      throw UsageError("input: " + at() + " has more than " + str(L::kMaxDk) + " numbers, the limit of " + cols_of);
    if (rows > 1 && in_row == cols)
      throw UsageError("input: " + at() + " has more than " + str(cols) + " numbers, but " + name + "[0] has " +
                       str(cols));
    if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<float>::max())
      throw UsageError("input: " + at() + "[" + str(in_row) + "] is outside the float range");
    data->push_back(static_cast<float>(v));
    ++in_row;
  }
  void close_row() {
    if (in_row == 0) throw UsageError("input: " + at() + " must be a non-empty array of numbers");
    if (rows == 1) cols = in_row;
    if (in_row != cols)
      throw UsageError("input: " + at() + " has " + str(in_row) + " numbers, but " + name + "[0] has " + str(cols));
  }
};

// The events of nlohmann's SAX parser, as a small state machine over depth:
// 1 the top object, 2 a matrix (its rows), 3 a row (its numbers). Members
// the command does not read are skipped whole, at any depth.
class Reader : public nlohmann::json_sax<Json> {
 public:
  explicit Reader(AttentionInput& in)
      : in_(in), m_{{"q", "n", "dk", &in.q}, {"k", "m", "dk", &in.k}, {"v", "m", "dv", &in.v}} {}

  bool null() override { return scalar("null"); }
  bool boolean(bool) override { return scalar("a boolean"); }
  bool number_integer(number_integer_t v) override { return number(static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return number(v); }
  bool string(string_t& s) override {
    if (skip_ == 0 && depth_ == 1 && member_ == kDivisor) {
      in_.divisor = s;
      return true;
    }
    return scalar("a string");
  }
  bool binary(binary_t&) override { return scalar("binary"); }

  bool start_object(std::size_t) override {
    if (skip_) return ++skip_, true;
    if (depth_ == 0) return ++depth_, true;
    if (depth_ == 1 && member_ == kOther) return skip_ = 1, true;
    return scalar("an object");
  }
  bool key(string_t& k) override {
    if (skip_) return true;
    member_ = k == "q" ? 0 : k == "k" ? 1 : k == "v" ? 2 : k == "divisor" ? kDivisor : kOther;
    if (member_ == kOther) return true;
    bool& seen = member_ == kDivisor ? divisor_seen_ : m_[member_].given;
    if (seen) throw UsageError("input: \"" + attn::escaped(k) + "\" is given twice");
    seen = true;
    return true;
  }
  bool end_object() override {
    if (skip_) return --skip_, true;
    --depth_;  // the top object: the document ends here
    return true;
  }
  bool start_array(std::size_t) override {
    if (skip_) return ++skip_, true;
    if (depth_ == 0) throw UsageError(kNotObject);
    if (depth_ == 1 && member_ == kOther) return skip_ = 1, true;
    if (depth_ == 1 && member_ < 3) return ++depth_, true;
    if (depth_ == 2) {
      m_[member_].open_row();
      return ++depth_, true;
    }
    return scalar("an array");
  }
  bool end_array() override {
    if (skip_) return --skip_, true;
    Matrix& x = m_[member_];
    if (depth_ == 3) {
      x.close_row();
    } else {
      if (x.rows == 0) throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
      x.done = true;
    }
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    // 1e400: a number past double's range, at the place we are reading.
    if (e.id == 406 && skip_ == 0 && depth_ == 3)
      throw UsageError("input: " + m_[member_].at() + "[" + str(m_[member_].in_row) + "] is outside the float range");
    throw UsageError(std::string("input: not valid JSON: ") + e.what());
  }

  void finish() {
    for (const Matrix& x : m_)
      if (!x.given) throw UsageError("input: missing \"" + std::string(x.name) + "\"");
  }
  const Matrix& matrix(int i) const { return m_[i]; }

 private:
  static constexpr int kDivisor = 3, kOther = 4;
  static constexpr const char* kNotObject = "input: must be a JSON object with \"q\", \"k\", \"v\"";

  bool number(double v) {
    if (skip_) return true;
    if (depth_ == 3) {
      m_[member_].value(v);
      return true;
    }
    if (depth_ == 1 && member_ == kDivisor) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      in_.divisor = buf;
      return true;
    }
    return scalar("a number");
  }
  // A value where it does not belong, or an unread member's scalar.
  bool scalar(const char* what) {
    if (skip_ || (depth_ == 1 && member_ == kOther)) return true;
    if (depth_ == 0) throw UsageError(kNotObject);
    if (depth_ == 1 && member_ == kDivisor)
      throw UsageError("input: \"divisor\" must be \"sqrt\", \"dk\" or a number");
    const Matrix& x = m_[member_];
    if (depth_ == 1) throw UsageError("input: \"" + std::string(x.name) + "\" must be a non-empty array of rows");
    if (depth_ == 2)
      throw UsageError("input: " + std::string(x.name) + "[" + str(x.rows) + "] must be a non-empty array of numbers");
    throw UsageError("input: " + x.at() + "[" + str(x.in_row) + "] is not a number (it is " + what + ")");
  }

  AttentionInput& in_;
  Matrix m_[3];
  int depth_ = 0, member_ = kOther;
  std::size_t skip_ = 0;  // depth inside a member that is skipped
  bool divisor_seen_ = false;
};

}  // namespace

AttentionInput read_attention_input(const std::string& text) {
  std::istringstream s(text);
  return read_attention_input(s);
}

AttentionInput read_attention_input(std::istream& text) {
  AttentionInput in;
  Reader r(in);
  Json::sax_parse(text, &r);
  r.finish();
  const auto& q = r.matrix(0);
  const auto& k = r.matrix(1);
  const auto& v = r.matrix(2);
  if (k.cols != q.cols)
    throw UsageError("input: q rows have " + str(q.cols) + " numbers but k rows have " + str(k.cols));
  if (v.rows != k.rows) throw UsageError("input: k has " + str(k.rows) + " rows but v has " + str(v.rows));
  in.shape = {q.rows, k.rows, q.cols, v.cols};
  attn::check_attention_shape(in.shape);  // n*m and n*dv: the outputs' sizes, before they exist
  return in;
}

}  // namespace attncli
