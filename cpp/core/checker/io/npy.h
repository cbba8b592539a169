// NumPy's .npy format, read and written. The format (numpy.lib.format):
//   "\x93NUMPY", major and minor version bytes, the header length (2 bytes
//   little-endian in version 1.0, 4 bytes in 2.0 and 3.0), then the header: a
//   Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
//   padded with spaces and a final '\n' so the data starts on a multiple of 64;
//   then the values, C or Fortran order, in the byte order the descr names.
// Read: float32 or float64, either byte order, either order, 2-D or 3-D.
// Anything else is an ArgumentError whose message says what is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/io/tensor_file.h"

namespace attn {

// `where` starts every message ("npy (q)", "npz member 'k.npy'"); `argument`
// is what ArgumentError::argument() names ("q", "k" or "file").
// keep_non_finite: NaN and ±inf are kept for the caller to judge (a model's
// logits, where −inf is a mask), not refused here.
Tensor parse_npy(const std::uint8_t* data, std::size_t size, const char* argument,
                 const std::string& where, bool keep_non_finite = false);

// A one-value array (shape (), (1,), (1, 1), ...) of an integer, boolean,
// float32 or float64 dtype, as a double: false when the array is anything
// else (a caller then says what the array should have held); a damaged file
// still throws, naming `where`.
bool npy_one_number(const std::uint8_t* data, std::size_t size, const char* argument, const std::string& where,
                    double& out);

// Version 1.0, '<f4', C order, as numpy.save writes a float32 array.
std::vector<std::uint8_t> write_npy(const float* values, const std::vector<std::size_t>& shape);

}  // namespace attn
