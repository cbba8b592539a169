// NumPy's .npz: a zip archive with one .npy member per array ("q.npy",
// "k.npy"), as numpy.savez writes it. Read here: stored (uncompressed) members
// only, found through the central directory, each checked against its local
// header and its CRC-32. A deflated member (numpy.savez_compressed) or any
// other method is an ArgumentError that says so; no decompressor is linked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checker/io/tensor_file.h"

namespace attn {

std::uint32_t crc32(const std::uint8_t* data, std::size_t size);

struct ZipEntry {
  std::string name;
  std::uint16_t flags = 0, method = 0;
  std::uint32_t crc = 0;
  std::uint64_t compressed = 0, size = 0, local_offset = 0;
};

// The central directory, after checking the end record and every entry's bounds.
std::vector<ZipEntry> zip_entries(const std::uint8_t* data, std::size_t size);

// The stored bytes of the array `name` ("q" finds "q.npy", or a member named
// exactly "q"), checked (stored, CRC-32), and the `where` its messages start with.
struct NpzMember {
  const std::uint8_t* data;
  std::size_t size;
  std::string where;
};
NpzMember npz_member(const std::uint8_t* data, std::size_t size, const std::string& name,
                     const char* argument);

// The array `name` read as q or k (npz_member, then parse_npy).
// `argument` names it in the error ("q", "k"). An archive with two members
// for the array (the same name twice, or both "q" and "q.npy") is refused:
// NumPy would read another copy than the first.
Tensor npz_array(const std::uint8_t* data, std::size_t size, const std::string& name,
                 const char* argument, bool keep_non_finite = false);

// A stored zip of .npy members, as numpy.savez writes: members {"q", bytes}
// become "q.npy". Fixed timestamps, so the same arrays give the same bytes.
std::vector<std::uint8_t> write_npz(
    const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& members);

}  // namespace attn
