// The .npz (zip) reader and writer: CRC-32 against its check value, the
// project's writer read back, and each damaged or unsupported archive.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "checker/check_fixtures.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"
#include "checker/qk_input.h"

using namespace checkfix;

namespace {

Bytes two_arrays() {
  const std::vector<float> q{1, 2, 3, 4, 5, 6}, k{-1, -2, -3, -4, -5, -6};
  return attn::write_npz({{"q", attn::write_npy(q.data(), {2, 3})}, {"k", attn::write_npy(k.data(), {2, 3})}});
}

std::string err(const Bytes& b, const std::string& name = "q") {
  return error_of([&] { attn::npz_array(b.data(), b.size(), name, "q"); });
}

// Offsets of every local and central header's compression-method field.
void set_method(Bytes& b, std::uint16_t method) {
  for (std::size_t i = 0; i + 4 <= b.size(); ++i) {
    const bool local = b[i] == 'P' && b[i + 1] == 'K' && b[i + 2] == 3 && b[i + 3] == 4;
    const bool central = b[i] == 'P' && b[i + 1] == 'K' && b[i + 2] == 1 && b[i + 3] == 2;
    const std::size_t at = local ? i + 8 : central ? i + 10 : 0;
    if (at) {
      b[at] = static_cast<std::uint8_t>(method);
      b[at + 1] = static_cast<std::uint8_t>(method >> 8);
    }
  }
}

}  // namespace

TEST_CASE("npz: CRC-32 gives the standard check value", "[npz]") {
  const std::string s = "123456789";
  REQUIRE(attn::crc32(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()) == 0xCBF43926u);
  REQUIRE(attn::crc32(nullptr, 0) == 0u);
}

TEST_CASE("npz: the project's writer reads back, by name with or without .npy", "[npz]") {
  const Bytes z = two_arrays();
  const auto entries = attn::zip_entries(z.data(), z.size());
  REQUIRE(entries.size() == 2);
  REQUIRE(entries[0].name == "q.npy");
  REQUIRE(entries[1].name == "k.npy");
  REQUIRE(entries[0].method == 0);
  const attn::Tensor k = attn::npz_array(z.data(), z.size(), "k", "k");
  REQUIRE(k.shape == std::vector<std::size_t>{2, 3});
  REQUIRE(k.data == std::vector<float>{-1, -2, -3, -4, -5, -6});
  REQUIRE(attn::npz_array(z.data(), z.size(), "q.npy", "q").data[5] == 6.0f);
  // Same arrays, same bytes: fixed timestamps.
  REQUIRE(two_arrays() == z);
}

TEST_CASE("npz: each damaged or unsupported archive gives its message", "[npz][errors]") {
  const Bytes z = two_arrays();
  CHECK(err(z, "v") == "npz: no array named 'v' (the archive holds q, k)");
  Bytes deflated = z;
  set_method(deflated, 8);
  CHECK(err(deflated) == "npz: member 'q.npy' is deflate-compressed: a compressed .npz "
                         "(numpy.savez_compressed) is not supported, save with numpy.savez");
  Bytes lzma = z;
  set_method(lzma, 14);
  CHECK(err(lzma) == "npz: member 'q.npy' is compressed by method 14 (LZMA): only stored members "
                     "(numpy.savez) are supported");
  Bytes unknown = z;
  set_method(unknown, 99);
  CHECK(err(unknown) == "npz: member 'q.npy' is compressed by an unknown method (99): only stored "
                        "members (numpy.savez) are supported");
  Bytes damaged = z;
  damaged[30 + 5 + 64 + 2] ^= 1;  // a bit of q's first value (after local header, name, npy header)
  CHECK(err(damaged).find("npz: member 'q.npy' fails its CRC-32 check (the archive says 0x") == 0);
  Bytes magic = z;
  magic[0] = 'X';
  CHECK(err(magic) == "npz: wrong magic: an .npz (zip) file starts with 50 4b 03 04 (PK\\x03\\x04), "
                      "this one with 58 4b 03 04");
  CHECK(err(Bytes(z.begin(), z.begin() + 100)) ==
        "npz: truncated: no end-of-central-directory record (the zip is cut short or damaged)");
  CHECK(err(Bytes{}) == "npz: the file is empty");
  const Bytes empty_zip = attn::write_npz({});
  CHECK(err(empty_zip) == "npz: no array named 'q' (the archive holds no arrays)");
  Bytes encrypted = z;
  encrypted[z.size() - 22 - 2 * (46 + 5) + 8] |= 1;  // the first central entry's flags
  CHECK(err(encrypted) == "npz: member 'q.npy' is encrypted");
  // Member names are the file's: echoed escaped, on one line.
  const std::vector<float> v{1, 2};
  const Bytes odd = attn::write_npz({{"q\nline", attn::write_npy(v.data(), {1, 2})},
                                     {"k\x1b[0m", attn::write_npy(v.data(), {1, 2})}});
  CHECK(err(odd) == "npz: no array named 'q' (the archive holds q\\nline, k\\x1b[0m)");
  Bytes odd_deflated = odd;
  set_method(odd_deflated, 8);
  CHECK(err(odd_deflated, "q\nline").find("npz: member 'q\\nline.npy' is deflate-compressed") == 0);
}

TEST_CASE("npz: an array held twice is refused, naming the member (NumPy reads the last copy)", "[npz][errors]") {
  const std::vector<float> a{1, 2, 3, 4}, b{5, 6, 7, 8}, c{9, 9, 9, 9};
  const Bytes A = attn::write_npy(a.data(), {2, 2}), B = attn::write_npy(b.data(), {2, 2}),
              C = attn::write_npy(c.data(), {2, 2});
  const std::string twice = "npz: the archive holds member 'q.npy' twice: NumPy would read the last copy, "
                            "so which one is meant is ambiguous";
  // q twice, the copies apart or together, equal or not.
  CHECK(err(attn::write_npz({{"q", A}, {"k", B}, {"q", C}})) == twice);
  CHECK(err(attn::write_npz({{"q", A}, {"q", C}, {"k", B}})) == twice);
  CHECK(err(attn::write_npz({{"q", A}, {"q", A}, {"k", B}})) == twice);
  // k twice: q still reads, k is refused with its own argument.
  const Bytes k_twice = attn::write_npz({{"q", A}, {"k", B}, {"k", C}});
  CHECK(attn::npz_array(k_twice.data(), k_twice.size(), "q", "q").data == a);
  CHECK(error_of([&] { attn::npz_array(k_twice.data(), k_twice.size(), "k", "k"); }) ==
        "npz: the archive holds member 'k.npy' twice: NumPy would read the last copy, so which one is "
        "meant is ambiguous");
  // Through the loader, with the lab's `sequences` array twice.
  const std::vector<float> one{1};
  const Bytes seq_twice = attn::write_npz({{"q", A}, {"k", B}, {"sequences", attn::write_npy(one.data(), {1, 1})},
                                           {"sequences", attn::write_npy(one.data(), {1, 1})}});
  CHECK(error_of([&] { attn::load_qk(seq_twice.data(), seq_twice.size(), attn::TensorFormat::Npz); }) ==
        "npz: the archive holds member 'sequences.npy' twice: NumPy would read the last copy, so which one "
        "is meant is ambiguous");
  // A member the checker does not read may repeat: q and k are unambiguous.
  const Bytes v_twice = attn::write_npz({{"q", A}, {"v", C}, {"k", B}, {"v", A}});
  CHECK(attn::load_qk(v_twice.data(), v_twice.size(), attn::TensorFormat::Npz).k == b);
}

TEST_CASE("npz: every prefix of a valid archive is an error, never a crash", "[npz][errors]") {
  const Bytes z = two_arrays();
  for (std::size_t n = 0; n < z.size(); ++n) {
    const Bytes cut(z.begin(), z.begin() + static_cast<std::ptrdiff_t>(n));
    INFO("prefix of " << n << " bytes");
    REQUIRE_FALSE(err(cut).empty());
    REQUIRE_FALSE(err(cut, "k").empty());
  }
}

// Issue 14, class 6: a "sequences" array is read as what it is (np.savez(f, q=q, k=k,
// sequences=3) stores an int64 of shape ()), and one that is something else gets a
// message naming sequences, not q and k's dtype or rank advice.
TEST_CASE("npz: the sequences array, of any whole-number dtype, anything else named as sequences", "[npz]") {
  const std::vector<float> q(3 * 4, 0.5f), k(15 * 4, 0.25f);
  const auto with = [&](const Bytes& seq) {
    return attn::write_npz({{"q", attn::write_npy(q.data(), {3, 4})}, {"k", attn::write_npy(k.data(), {15, 4})},
                            {"sequences", seq}});
  };
  const auto one = [](const std::string& descr, const std::string& shape, auto v) {
    Bytes b = npy_header(dict(descr, shape));
    append(b, v, descr[0] == '>');
    return b;
  };
  const auto sequences = [](const Bytes& z) { return attn::load_qk(z.data(), z.size(), attn::TensorFormat::Npz).sequences; };
  CHECK(sequences(with(one("<i8", "()", std::int64_t{3}))) == 3);
  CHECK(sequences(with(one(">i8", "(1,)", std::int64_t{3}))) == 3);
  CHECK(sequences(with(one("<u2", "(1, 1)", std::uint16_t{3}))) == 3);
  CHECK(sequences(with(one("|u1", "()", std::uint8_t{3}))) == 3);
  CHECK(sequences(with(one("<i4", "()", std::int32_t{3}))) == 3);
  CHECK(sequences(with(one("<f8", "()", 3.0))) == 3);

  const std::string named = "npz: the array 'sequences' must hold one integer in [1, 4096]";
  const auto bad = [&](const Bytes& seq) {
    const Bytes z = with(seq);
    return error_of([&] { attn::load_qk(z.data(), z.size(), attn::TensorFormat::Npz); });
  };
  Bytes rows = npy_header(dict("<i8", "(2, 3)"));  // token ids, say: nothing to do with S
  for (int i = 0; i < 6; ++i) append(rows, std::int64_t{7});
  CHECK(bad(rows) == named);
  CHECK(bad(one("<i8", "()", std::int64_t{-3})) == named);
  CHECK(bad(one("<i8", "()", std::int64_t{0})) == named);
  CHECK(bad(one("<i8", "()", std::int64_t{5000})) == named);
  CHECK(bad(one("<f8", "()", 2.5)) == named);
  CHECK(bad(one("<U1", "()", std::uint32_t{'3'})) == named);
  CHECK(bad(one("<c8", "()", std::uint64_t{0})) == named);
  // A damaged member still says what is wrong with it, naming it.
  Bytes cut = one("<i8", "()", std::int64_t{3});
  cut.resize(cut.size() - 3);
  CHECK(bad(cut) == named);
  // Given by the caller, the array is not read at all.
  const Bytes z = with(rows);
  CHECK(attn::load_qk(z.data(), z.size(), attn::TensorFormat::Npz, {"q", "k", 3}).sequences == 3);
}

TEST_CASE("npy: float64 values round to float32 as NumPy's astype does at the top of the range", "[npy]") {
  const float m = std::numeric_limits<float>::max();
  Bytes b = npy_header(dict("<f8", "(1, 3)"));
  for (double v : {3.4028235e38, -0x1.fffffefffffffp+127, 1e-320}) append(b, v);
  const attn::Tensor t = attn::parse_npy(b.data(), b.size(), "q", "npy (q)");
  REQUIRE(t.data == std::vector<float>{m, -m, 0});
  Bytes over = npy_header(dict("<f8", "(1, 1)"));
  append(over, 0x1.ffffffp+127);  // halfway to 2^128: rounds to even, which overflows
  CHECK(error_of([&] { attn::parse_npy(over.data(), over.size(), "q", "npy (q)"); }) ==
        "npy (q): the value at (0, 0) is 3.40282e+38, outside the float32 range (about ±3.4e38)");
}
