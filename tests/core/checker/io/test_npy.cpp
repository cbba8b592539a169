// The .npy reader and writer: bytes built by hand from numpy.lib.format, the
// project's writer read back, and every malformed file answered with its message.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "checker/check_fixtures.h"
#include "checker/io/npy.h"

using namespace checkfix;

namespace {

attn::Tensor parse(const Bytes& b) { return attn::parse_npy(b.data(), b.size(), "q", "npy (q)"); }
std::string err(const Bytes& b) { return error_of([&] { parse(b); }); }

Bytes f4(const std::string& shape, const std::vector<float>& v, const std::string& descr = "<f4") {
  Bytes b = npy_header(dict(descr, shape));
  for (float x : v) append(b, x, descr[0] == '>');
  return b;
}

}  // namespace

TEST_CASE("npy: little-endian float32 in C order, as numpy.save writes it", "[npy]") {
  const Bytes b = f4("(2, 3)", {1, 2, 3, 4, 5, 6.5f});
  REQUIRE(b.size() == 128 + 24);  // 10 + 59 + 1 header bytes, padded to 128
  const attn::Tensor t = parse(b);
  REQUIRE(t.shape == std::vector<std::size_t>{2, 3});
  REQUIRE(t.data == std::vector<float>{1, 2, 3, 4, 5, 6.5f});
}

TEST_CASE("npy: big-endian float64, Fortran order, 3-D, version 2.0", "[npy]") {
  // shape (2, 2, 3); C-order values 0..11; Fortran order lists index (i, j, k)
  // at i + 2 j + 4 k, so position p holds the C-order value of that index.
  Bytes b = npy_header(dict(">f8", "(2, 2, 3)", true), 2);
  for (int p = 0; p < 12; ++p) {
    const int i = p % 2, j = (p / 2) % 2, k = p / 4;
    append(b, static_cast<double>(i * 6 + j * 3 + k) + 0.25, true);
  }
  const attn::Tensor t = parse(b);
  REQUIRE(t.shape == std::vector<std::size_t>{2, 2, 3});
  for (std::size_t c = 0; c < 12; ++c) REQUIRE(t.data[c] == static_cast<float>(c) + 0.25f);
}

TEST_CASE("npy: header spellings numpy has used are read", "[npy]") {
  // Keys in any order, double quotes, Python 2 longs, extra spaces (numpy 2 pads
  // the shape), no trailing comma.
  for (const std::string h : {"{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}",
                              "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (1L, 2L)}",
                              "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2),                    }",
                              "{'descr': '=f4','fortran_order':False,'shape':(1,2,)}"}) {
    Bytes b = npy_header(h);
    append(b, 1.5f);
    append(b, -2.0f);
    const attn::Tensor t = parse(b);
    REQUIRE(t.shape == std::vector<std::size_t>{1, 2});
    REQUIRE(t.data == std::vector<float>{1.5f, -2.0f});
  }
}

TEST_CASE("npy: the project's writer reads back bit for bit", "[npy]") {
  Data d(5);
  for (const std::vector<std::size_t>& shape : {std::vector<std::size_t>{3, 7}, {2, 4, 5}, {1, 1}}) {
    std::size_t n = 1;
    for (std::size_t x : shape) n *= x;
    std::vector<float> v = d.floats(n);
    if (n > 2) {
      v[1] = -0.0f;
      v[2] = std::numeric_limits<float>::denorm_min();
    }
    const Bytes b = attn::write_npy(v.data(), shape);
    REQUIRE((b.size() - 4 * n) % 64 == 0);
    const std::string header(b.begin() + 10, b.end() - static_cast<std::ptrdiff_t>(4 * n));
    REQUIRE(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (", 0) == 0);
    REQUIRE(header.back() == '\n');
    const attn::Tensor t = parse(b);
    REQUIRE(t.shape == shape);
    REQUIRE(std::memcmp(t.data.data(), v.data(), 4 * n) == 0);
  }
}

TEST_CASE("npy: each malformed file gives its message", "[npy][errors]") {
  const Bytes good = f4("(2, 3)", {1, 2, 3, 4, 5, 6});
  CHECK(err(Bytes{}) == "npy (q): the file is empty");
  CHECK(err(Bytes(good.begin(), good.begin() + 7)) ==
        "npy (q): truncated header: 7 bytes, too few for the magic string and the version");
  CHECK(err(Bytes(good.begin(), good.begin() + 9)) ==
        "npy (q): truncated header: 9 bytes, too few for the header length");
  CHECK(err(Bytes(good.begin(), good.begin() + 40)) ==
        "npy (q): truncated header: it declares 118 bytes but only 30 follow");
  CHECK(err(Bytes(good.begin(), good.end() - 1)) ==
        "npy (q): header says shape (2, 3) = 6 values (24 bytes of <f4) but the file holds 23 bytes of data");
  Bytes magic = good;
  magic[0] = 'P';
  CHECK(err(magic) == "npy (q): wrong magic: a .npy file starts with 93 4e 55 4d 50 59 (\\x93NUMPY), "
                      "this one with 50 4e 55 4d 50 59");
  CHECK(err(f4("(2, 4)", {1, 2, 3, 4, 5, 6})) ==
        "npy (q): header says shape (2, 4) = 8 values (32 bytes of <f4) but the file holds 24 bytes of data");
  CHECK(err(npy_header(dict("<i4", "(2, 3)"))) ==
        "npy (q): dtype '<i4' (signed integer) is not supported: save q and k as float32 or float64 "
        "(x.astype(np.float32))");
  CHECK(err(npy_header(dict("<f2", "(2, 3)"))).find("dtype '<f2' (16-bit float16) is not supported") != std::string::npos);
  CHECK(err(npy_header(dict("<c16", "(2, 3)"))).find("(complex) is not supported") != std::string::npos);
  CHECK(err(npy_header(dict("|O", "(2, 3)"))).find("(Python object) is not supported") != std::string::npos);
  CHECK(err(npy_header(dict("|b1", "(2, 3)"))).find("(boolean) is not supported") != std::string::npos);
  CHECK(err(npy_header(dict("<U8", "(2, 3)"))).find("(unicode string) is not supported") != std::string::npos);
  CHECK(err(npy_header(dict("|f4", "(2, 3)"))) == "npy (q): dtype '|f4' has no byte order");
  CHECK(err(npy_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }"))
            .find("structured") != std::string::npos);
  CHECK(err(f4("(1, 2, 3, 1)", {1, 2, 3, 4, 5, 6})) ==
        "npy (q): shape (1, 2, 3, 1) has 4 dimensions: expected 2-D [n, d_k] or 3-D [heads, n, d_k]");
  CHECK(err(f4("(6,)", {1, 2, 3, 4, 5, 6})) ==
        "npy (q): shape (6,) has 1 dimension: expected 2-D [n, d_k] or 3-D [heads, n, d_k]");
  CHECK(err(f4("()", {1})) == "npy (q): shape () has 0 dimensions: expected 2-D [n, d_k] or 3-D [heads, n, d_k]");
  CHECK(err(f4("(0, 3)", {})) == "npy (q): shape (0, 3) is empty: need at least one row and one column");
  CHECK(err(f4("(32768, 16384)", {1, 2})) ==
        "npy (q): shape (32768, 16384) holds 536870912 values, more than the limit of 4194304 (heads·n·d_k)");
  CHECK(err(f4("(4294967296, 4294967296)", {1})).find("more than the limit of 4194304") != std::string::npos);
  CHECK(err(f4("(99999999999999999999, 2)", {1})) == "npy (q): 'shape' has a dimension too large to read");
  CHECK(err(f4("(2, 3)", {1, 2, NAN, 4, 5, 6})) ==
        "npy (q): the value at (0, 2) is nan: q and k must hold finite numbers");
  CHECK(err(f4("(2, 3)", {1, 2, 3, 4, 5, -INFINITY})) ==
        "npy (q): the value at (1, 2) is -inf: q and k must hold finite numbers");
  Bytes huge = npy_header(dict("<f8", "(1, 2)"));
  append(huge, 1e39);
  append(huge, 0.0);
  CHECK(err(huge) == "npy (q): the value at (0, 0) is 1e+39, outside the float32 range (about ±3.4e38)");
  Bytes v9 = good;
  v9[6] = 9;
  CHECK(err(v9) == "npy (q): format version 9.0 is not supported (1.0, 2.0 or 3.0)");
  CHECK(err(npy_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}")) ==
        "npy (q): the header has an unexpected key 'x' (expected 'descr', 'fortran_order' and 'shape')");
  CHECK(err(npy_header("{'descr': '<f4', 'shape': (2, 3)}")) == "npy (q): the header has no 'fortran_order'");
  CHECK(err(npy_header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 3)}")) ==
        "npy (q): malformed header: 'fortran_order' must be True or False");
}

TEST_CASE("npy: every prefix of a valid file is an error, never a crash", "[npy][errors]") {
  const Bytes good = f4("(2, 3)", {1, 2, 3, 4, 5, 6});
  for (std::size_t n = 0; n < good.size(); ++n) {
    const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    INFO("prefix of " << n << " bytes");
    REQUIRE_FALSE(err(cut).empty());
  }
}
