// q and k as JSON, read by the checker.
//
// JSON: a tensor is a 2-D or 3-D array of numbers, [[...], ...] or
// [[[...], ...], ...]; a file holding both is an object {"q": ..., "k": ...}
// (other members are skipped). NaN and Infinity (which Python's json.dump
// writes) are named in the error, since q and k must be finite.
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

std::vector<Tensor> parse_json(const std::uint8_t* data, std::size_t size,
                               const std::vector<std::string>& names, const char* argument);

}  // namespace attn
