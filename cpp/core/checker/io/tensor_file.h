// A tensor read from a user's file (npy.h, npz.h, csv_reader.h, json_reader.h): its shape and
// its values as float in C (row-major) order. The checker reads q and k only as
// 2-D [n, d_k] or 3-D [heads, n, d_k]; every reader calls check_tensor_shape()
// on the declared shape before it allocates anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct Tensor {
  std::vector<std::size_t> shape;
  std::vector<float> data;  // C order, product of shape values
};

// Python's spelling, as NumPy prints it: "(3, 4)", "(5,)", "()". For size_t
// and uint64_t shapes (one type natively, two in wasm).
template <typename T>
std::string shape_text(const std::vector<T>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// The layout the input named `argument` takes, as messages say it: q and k
// "2-D [n, d_k] or 3-D [heads, n, d_k]", logits and probs "2-D [n_q, n_k] or
// 3-D [heads, n_q, n_k]" (issue 32: every shape refusal names the input and
// the shape expected for it).
const char* expected_layout(const char* argument);

// Throws ArgumentError(argument, "<where>: ...") unless the shape is 2-D or 3-D,
// has no zero dimension, at most kMaxCheckValues values, at most kMaxCheckHeads
// heads, kMaxSeqLen rows and kMaxDk columns. Returns the number of values.
// Works on 64-bit dimensions so a header's "(2**40, 2**40)" cannot wrap size_t.
std::size_t check_tensor_shape(const char* argument, const std::string& where,
                               const std::vector<std::uint64_t>& shape);

// Throws ArgumentError naming the value's index if v is not finite or lies
// outside the float range; returns v as float. `flat` is the C-order index.
float checked_float(const char* argument, const std::string& where, double v,
                    const std::vector<std::size_t>& shape, std::size_t flat);

// "(0, 1, 3)": the C-order index `flat` of a tensor of this shape.
std::string index_text(const std::vector<std::size_t>& shape, std::size_t flat);

}  // namespace attn
