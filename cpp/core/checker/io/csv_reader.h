// q and k as CSV (one vector a row), read by the checker.
//
// CSV: values separated by commas (or, on a line with no comma, by spaces or
// tabs, as numpy.savetxt writes by default); blank lines and lines starting
// with '#' are skipped. A file holding one tensor has only numbers, one row a
// line. A file holding both q and k starts every row with its tensor's name:
//   q, 0.12, -0.3, ...
//   k, 0.51,  1.2, ...
// CSV tensors are 2-D: one head.
//
// With `names` empty the file must hold one tensor; with names {q, k} it must
// hold both, and the result is in that order. Errors are ArgumentErrors that
// give the line (and column or field) of the first problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/io/tensor_file.h"

namespace attn {

std::vector<Tensor> parse_csv(const std::uint8_t* data, std::size_t size,
                              const std::vector<std::string>& names, const char* argument);

}  // namespace attn
