#include "checker/io/tensor_file.h"

#include <cmath>
#include <cstring>

#include "base/format.h"
#include "base/number.h"
#include "base/size_limits.h"

namespace attn {

namespace {

bool is_scores(const char* argument) {
  return std::strcmp(argument, "logits") == 0 || std::strcmp(argument, "probs") == 0;
}

}  // namespace

const char* expected_layout(const char* argument) {
  return is_scores(argument) ? "2-D [n_q, n_k] or 3-D [heads, n_q, n_k]" : "2-D [n, d_k] or 3-D [heads, n, d_k]";
}

std::size_t check_tensor_shape(const char* argument, const std::string& where,
                               const std::vector<std::uint64_t>& shape) {
  const std::string s = shape_text(shape);
  const char* w = where.c_str();
  const std::string js = jstr(s);
  // Each input's own layout: q and k hold vectors, logits and probs one row per query over its keys.
  const bool scores = is_scores(argument);
  if (shape.size() < 2 || shape.size() > 3) {
    const std::string params = "{\"shape\":" + js + strf(",\"dims\":%zu}", shape.size());
    const char* plural = shape.size() == 1 ? "" : "s";
    if (scores)  // load_scores names the shape q and k need, when it has them
      fail_kind(argument, "scores_rank", params, "%s: shape %s has %zu dimension%s: expected %s", w, s.c_str(),
                shape.size(), plural, expected_layout(argument));
    fail_kind(argument, "rank", params, "%s: shape %s has %zu dimension%s: expected %s", w, s.c_str(), shape.size(),
              plural, expected_layout(argument));
  }
  for (std::uint64_t d : shape)
    if (d == 0) fail_kind(argument, "shape_empty", "{\"shape\":" + js + "}", "%s: shape %s is empty: need at least one row and one column", w, s.c_str());
  // The product in 64 bits, stopping as soon as it passes the limit.
  std::uint64_t count = 1;
  for (std::uint64_t d : shape) {
    if (d > limits::kMaxCheckValues || count * d > limits::kMaxCheckValues) {
      // In double: exact below 2^53 and never wraps (three 64-bit dimensions < 2^192).
      double p = 1;
      for (std::uint64_t x : shape) p *= static_cast<double>(x);
      fail_kind(argument, "values", "{\"shape\":" + js + strf(",\"limit\":%zu}", limits::kMaxCheckValues),
                "%s: shape %s holds %.17g values, more than the limit of %zu (heads·n·d_k)", w,
               s.c_str(), p, limits::kMaxCheckValues);
    }
    count *= d;
  }
  const unsigned long long heads = shape.size() == 3 ? shape[0] : 1;
  const unsigned long long rows = shape[shape.size() - 2], cols = shape.back();
  if (heads > limits::kMaxCheckHeads)
    fail_kind(argument, "dim", "{\"shape\":" + js + strf(",\"dim\":\"heads\",\"value\":%llu,\"limit\":%zu}", heads, limits::kMaxCheckHeads),
              "%s: shape %s has %llu heads, more than the limit of %zu", w, s.c_str(), heads,
             limits::kMaxCheckHeads);
  if (rows > limits::kMaxSeqLen)
    fail_kind(argument, "dim", "{\"shape\":" + js + strf(",\"dim\":\"rows\",\"value\":%llu,\"limit\":%zu}", rows, limits::kMaxSeqLen),
              "%s: shape %s has %llu rows, more than the limit of %zu", w, s.c_str(), rows,
             limits::kMaxSeqLen);
  if (cols > limits::kMaxDk)
    fail_kind(argument, "dim", "{\"shape\":" + js + strf(",\"dim\":\"dk\",\"value\":%llu,\"limit\":%zu}", cols, limits::kMaxDk),
              "%s: shape %s has %s = %llu, more than the limit of %zu", w, s.c_str(), scores ? "n_k" : "d_k", cols,
             limits::kMaxDk);
  return static_cast<std::size_t>(count);
}

std::string index_text(const std::vector<std::size_t>& shape, std::size_t flat) {
  std::vector<std::size_t> idx(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    idx[i] = shape[i] ? flat % shape[i] : 0;
    flat = shape[i] ? flat / shape[i] : 0;
  }
  std::string s = "(";
  for (std::size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s + ")";
}

float checked_float(const char* argument, const std::string& where, double v,
                    const std::vector<std::size_t>& shape, std::size_t flat) {
  if (!std::isfinite(v))
    fail_kind(argument, "value_finite", "{\"at\":" + jstr(index_text(shape, flat)) + ",\"value\":" + jnum(v) + "}",
              "%s: the value at %s is %g: q and k must hold finite numbers", where.c_str(),
             index_text(shape, flat).c_str(), v);
  if (!fits_float(v))  // rounds past FLT_MAX: the same test as the text readers' strtof
    fail_kind(argument, "value_float", "{\"at\":" + jstr(index_text(shape, flat)) + ",\"value\":" + jnum(v) + "}",
              "%s: the value at %s is %g, outside the float32 range (about ±3.4e38)",
             where.c_str(), index_text(shape, flat).c_str(), v);
  return static_cast<float>(v);
}

}  // namespace attn
