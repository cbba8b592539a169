#include "checker/io/npz.h"

#include <array>
#include <cstdio>
#include <cstring>

#include "base/format.h"
#include "base/size_limits.h"
#include "checker/io/npy.h"

namespace attn {

namespace {

constexpr std::uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr std::size_t kLocalLen = 30, kCentralLen = 46, kEndLen = 22;

constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr auto kCrcTable = make_crc_table();

std::uint32_t u16(const std::uint8_t* p) { return p[0] | (std::uint32_t{p[1]} << 8); }
std::uint32_t u32(const std::uint8_t* p) { return u16(p) | (u16(p + 2) << 16); }

std::string printable(const std::string& s) { return escaped(s, 60); }

const char* method_name(std::uint16_t m) {
  switch (m) {
    case 1: return "shrink";
    case 6: return "implode";
    case 9: return "deflate64";
    case 12: return "bzip2";
    case 14: return "LZMA";
    case 93: return "Zstandard";
    case 95: return "xz";
    default: return nullptr;
  }
}

void put16(std::vector<std::uint8_t>& o, std::uint32_t v) {
  o.push_back(static_cast<std::uint8_t>(v));
  o.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(std::vector<std::uint8_t>& o, std::uint32_t v) {
  put16(o, v & 0xFFFF);
  put16(o, v >> 16);
}

}  // namespace

std::uint32_t crc32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < size; ++i) c = kCrcTable[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::vector<ZipEntry> zip_entries(const std::uint8_t* data, std::size_t size) {
  const char* arg = "file";
  if (size == 0) fail_kind(arg, "file_empty", "", "npz: the file is empty");
  const std::size_t seen = size < 4 ? size : 4;
  if (std::memcmp(data, "PK\x03\x04", seen) != 0 && std::memcmp(data, "PK\x05\x06", seen) != 0) {
    char hex[16] = "";
    for (std::size_t i = 0; i < seen; ++i) std::snprintf(hex + 3 * i, 4, "%02x ", data[i]);
    hex[3 * seen - 1] = '\0';  // the last space
    fail_kind(arg, "not_format", "{\"format\":\"npz\"}", "npz: wrong magic: an .npz (zip) file starts with 50 4b 03 04 (PK\\x03\\x04), this one with %s",
             hex);
  }

  // 1. The end-of-central-directory record: the last 22 bytes, before a comment of up to 64 KiB.
  std::size_t end = SIZE_MAX;
  if (size >= kEndLen) {
    const std::size_t lowest = size - kEndLen > 65535 ? size - kEndLen - 65535 : 0;
    for (std::size_t p = size - kEndLen + 1; p-- > lowest;) {
      if (u32(data + p) == kEndSig && p + kEndLen + u16(data + p + 20) <= size) {
        end = p;
        break;
      }
    }
  }
  if (end == SIZE_MAX)
    fail_kind(arg, "damaged", "{\"format\":\"npz\"}", "npz: truncated: no end-of-central-directory record (the zip is cut short or damaged)");
  const std::uint8_t* e = data + end;
  const std::uint32_t entries = u16(e + 10), cd_size = u32(e + 12), cd_offset = u32(e + 16);
  if (u16(e + 4) != 0 || u16(e + 6) != 0 || u16(e + 8) != entries)
    fail_kind(arg, "unsupported", "{\"format\":\"npz\"}", "npz: multi-volume zip archives are not supported");
  if (entries == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_offset == 0xFFFFFFFFu)
    fail_kind(arg, "unsupported", "{\"format\":\"npz\"}", "npz: zip64 archives are not supported (files here are at most 64 MiB)");
  if (entries > limits::kMaxZipMembers)
    fail_kind(arg, "members", strf("{\"limit\":%zu}", limits::kMaxZipMembers), "npz: the archive has %u members, more than the limit of %zu", entries, limits::kMaxZipMembers);
  if (std::uint64_t{cd_offset} + cd_size > end)
    fail_kind(arg, "damaged", "{\"format\":\"npz\"}", "npz: truncated: the central directory lies outside the file");

  // 2. The central directory: one 46-byte header, name, extra field and comment per member.
  std::vector<ZipEntry> out;
  out.reserve(entries);
  std::uint64_t p = cd_offset;
  const std::uint64_t cd_end = std::uint64_t{cd_offset} + cd_size;
  for (std::uint32_t i = 0; i < entries; ++i) {
    if (p + kCentralLen > cd_end || u32(data + p) != kCentralSig)
      fail_kind(arg, "damaged", "{\"format\":\"npz\"}", "npz: damaged central directory (entry %u)", i);
    const std::uint8_t* c = data + p;
    const std::uint64_t name_len = u16(c + 28), extra_len = u16(c + 30), comment_len = u16(c + 32);
    if (p + kCentralLen + name_len + extra_len + comment_len > cd_end)
      fail_kind(arg, "damaged", "{\"format\":\"npz\"}", "npz: damaged central directory (entry %u runs past its end)", i);
    ZipEntry z;
    z.flags = static_cast<std::uint16_t>(u16(c + 8));
    z.method = static_cast<std::uint16_t>(u16(c + 10));
    z.crc = u32(c + 16);
    z.compressed = u32(c + 20);
    z.size = u32(c + 24);
    z.local_offset = u32(c + 42);
    z.name.assign(reinterpret_cast<const char*>(c + kCentralLen), static_cast<std::size_t>(name_len));
    out.push_back(std::move(z));
    p += kCentralLen + name_len + extra_len + comment_len;
  }
  return out;
}

NpzMember npz_member(const std::uint8_t* data, std::size_t size, const std::string& name,
                     const char* argument) {
  const std::vector<ZipEntry> entries = zip_entries(data, size);
  const ZipEntry* z = nullptr;
  for (const ZipEntry& e : entries) {
    if (e.name != name + ".npy" && e.name != name) continue;
    // Two members for one array: NumPy reads the last copy (zipfile keeps the
    // last of a name; "q" wins over "q.npy"), a first-match reader the first,
    // so the same file would give two answers. Refuse it, naming both.
    if (z && z->name == e.name)
      fail_kind(argument, "duplicate", "{\"name\":" + jstr(name) + "}", "npz: the archive holds member '%s' twice: NumPy would read the last copy, "
               "so which one is meant is ambiguous", printable(e.name).c_str());
    if (z)
      fail_kind(argument, "duplicate", "{\"name\":" + jstr(name) + "}", "npz: the archive holds array '%s' twice, as members '%s' and '%s': which one "
               "is meant is ambiguous", printable(name).c_str(), printable(z->name).c_str(),
               printable(e.name).c_str());
    z = &e;
  }
  if (!z) {
    std::string held, raw;  // raw: the names as they are, for the page (jstr escapes them once)
    for (std::size_t i = 0; i < entries.size() && i < 10; ++i) {
      std::string n = entries[i].name;
      if (n.size() > 4 && n.compare(n.size() - 4, 4, ".npy") == 0) n.resize(n.size() - 4);
      if (i) held += ", ", raw += ", ";
      held += printable(n);
      raw += n;
    }
    if (entries.size() > 10) held += ", ...", raw += ", ...";
    fail_kind(argument, "missing_array", "{\"name\":" + jstr(name) + ",\"have\":" + jstr(raw, 400) + "}", "npz: no array named '%s' (the archive holds %s)", printable(name).c_str(),
             entries.empty() ? "no arrays" : held.c_str());
  }
  const std::string shown = printable(z->name);
  const char* m = shown.c_str();
  if (z->flags & 1) fail_kind(argument, "unsupported", "{\"format\":\"npz\"}", "npz: member '%s' is encrypted", m);
  if (z->method == 8)
    fail_kind(argument, "compressed", "",
             "npz: member '%s' is deflate-compressed: a compressed .npz (numpy.savez_compressed) is "
             "not supported, save with numpy.savez",
             m);
  if (z->method != 0) {
    if (const char* known = method_name(z->method))
      fail_kind(argument, "compressed", "", "npz: member '%s' is compressed by method %u (%s): only stored members (numpy.savez) are supported",
               m, unsigned{z->method}, known);
    fail_kind(argument, "compressed", "", "npz: member '%s' is compressed by an unknown method (%u): only stored members (numpy.savez) are supported",
             m, unsigned{z->method});
  }
  if (z->compressed != z->size)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}", "npz: member '%s' is stored, yet its stored and real sizes differ (%llu and %llu)", m,
             static_cast<unsigned long long>(z->compressed), static_cast<unsigned long long>(z->size));

  // The local header: its own name and extra field lengths decide where the data starts.
  const std::uint64_t lo = z->local_offset;
  if (lo + kLocalLen > size || u32(data + lo) != kLocalSig)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}", "npz: member '%s': truncated or damaged (no local header at offset %llu)", m,
             static_cast<unsigned long long>(lo));
  const std::uint8_t* l = data + lo;
  const std::uint64_t start = lo + kLocalLen + u16(l + 26) + u16(l + 28);
  if (u16(l + 26) != z->name.size() || start > size ||
      std::memcmp(l + kLocalLen, z->name.data(), z->name.size()) != 0)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}", "npz: member '%s': its local header does not match the central directory", m);
  if (u16(l + 8) != z->method)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}", "npz: member '%s': its local header names another compression method", m);
  if (start + z->size > size)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}", "npz: member '%s': truncated (its data runs %llu bytes past the end of the file)", m,
             static_cast<unsigned long long>(start + z->size - size));
  const std::uint8_t* bytes = data + start;
  const std::size_t n = static_cast<std::size_t>(z->size);
  const std::uint32_t crc = crc32(bytes, n);
  if (crc != z->crc)
    fail_kind(argument, "damaged", "{\"format\":\"npz\"}",
             "npz: member '%s' fails its CRC-32 check (the archive says 0x%08x, the data gives 0x%08x): the "
             "file is damaged",
             m, z->crc, crc);
  return {bytes, n, "npz member '" + shown + "'"};
}

Tensor npz_array(const std::uint8_t* data, std::size_t size, const std::string& name,
                 const char* argument, bool keep_non_finite) {
  const NpzMember m = npz_member(data, size, name, argument);
  return parse_npy(m.data, m.size, argument, m.where, keep_non_finite);
}

std::vector<std::uint8_t> write_npz(
    const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& members) {
  constexpr std::uint32_t kDate = (0u << 9) | (1u << 5) | 1u;  // 1980-01-01, the zip epoch
  std::vector<std::uint8_t> out, central;
  for (const auto& [array, bytes] : members) {
    const std::string name = array + ".npy";
    const std::uint32_t crc = crc32(bytes.data(), bytes.size());
    const std::uint32_t offset = static_cast<std::uint32_t>(out.size());
    const std::uint32_t n = static_cast<std::uint32_t>(bytes.size());
    // Local header: version 2.0, no flags, stored, time 0, date, crc, sizes, name, no extra.
    put32(out, kLocalSig);
    put16(out, 20);
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put16(out, kDate);
    put32(out, crc);
    put32(out, n);
    put32(out, n);
    put16(out, static_cast<std::uint32_t>(name.size()));
    put16(out, 0);
    out.insert(out.end(), name.begin(), name.end());
    out.insert(out.end(), bytes.begin(), bytes.end());
    // Central entry: made by 2.0 (MS-DOS), needs 2.0, same fields, no comment, offset.
    put32(central, kCentralSig);
    put16(central, 20);
    put16(central, 20);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, kDate);
    put32(central, crc);
    put32(central, n);
    put32(central, n);
    put16(central, static_cast<std::uint32_t>(name.size()));
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, 0);
    put32(central, offset);
    central.insert(central.end(), name.begin(), name.end());
  }
  const std::uint32_t cd_offset = static_cast<std::uint32_t>(out.size());
  out.insert(out.end(), central.begin(), central.end());
  put32(out, kEndSig);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<std::uint32_t>(members.size()));
  put16(out, static_cast<std::uint32_t>(members.size()));
  put32(out, static_cast<std::uint32_t>(central.size()));
  put32(out, cd_offset);
  put16(out, 0);
  return out;
}

}  // namespace attn
