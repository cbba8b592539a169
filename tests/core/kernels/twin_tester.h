// The twin test every SIMD128 kernel gets, after XNNPACK's
// test/*-microkernel-tester.h: the SIMD kernel and its scalar twin run on
// identical copies of the same buffers, each buffer starting `offset` floats
// into its storage (so the SIMD loads meet unaligned addresses), those floats
// and kGuardsAfter more after it holding guards; then every float outside the
// outputs' values must be as it was, in both copies, and the outputs are
// compared, bit for bit or within a bound the test states. A test says only what differs: the sizes, the
// kernel pair, how its arguments map to the buffers, and the comparison.
//
//   TwinTester t;                                  // every buffer 1 float in
//   const auto q = t.input("q", rng.floats(n * d, -2, 2));
//   const auto k = t.input("k", rng.floats(m * d, -2, 2));
//   const auto s = t.output("s", n * m);           // starts as guards
//   t.run(attn::qk_scores_f32__wasmsimd_4x8, attn::qk_scores_f32__scalar,
//         [&](auto qk, auto& b) { qk(b[q], b[k], n, m, d, 0.125f, b[s]); });
//   t.require_bit_identical(s);
//
// Nothing here needs SIMD128, so the native build compiles it too.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

class TwinTester {
 public:
  // Written before (offset > 0) and after every buffer: a store past either end changes one.
  static constexpr float kGuard = -12345.5f;
  // Guards after each buffer: a whole f32x4 stored past the end lands on them.
  static constexpr std::size_t kGuardsAfter = 4;

  // A buffer of the tester; in run()'s call, b[buffer] is its first value.
  struct Buffer {
    std::size_t index;
  };

  // One twin's values of a buffer, after run().
  struct Values {
    const float* data;
    std::size_t size;
    const float* begin() const { return data; }
    const float* end() const { return data + size; }
    float operator[](std::size_t i) const { return data[i]; }
  };

  // Floats in front of each buffer added from now on (1 unless set).
  TwinTester& offset(std::size_t floats) {
    offset_ = floats;
    return *this;
  }

  // Read by the kernels: must come back unchanged, guards and all.
  Buffer input(const char* name, std::vector<float> values) {
    return add(name, std::move(values), false);
  }
  // Written by the kernels; starts as guards.
  Buffer output(const char* name, std::size_t n) {
    return add(name, std::vector<float>(n, kGuard), true);
  }
  // Updated in place (softmax) or added to (matmul): both twins start from `initial`.
  Buffer output(const char* name, std::vector<float> initial) {
    return add(name, std::move(initial), true);
  }

  // Runs call(simd, b) and call(scalar, b), each with b[buffer] pointing into
  // that twin's own copy of every buffer; then requires, per twin and buffer,
  // that nothing outside an output's values changed (an input: nothing at all).
  template <typename Kernel, typename Call>
  void run(Kernel simd, Kernel scalar, Call call) {
    twins_[0] = fresh_copies();
    twins_[1] = fresh_copies();
    Pointers on_simd{this, &twins_[0]}, on_scalar{this, &twins_[1]};
    call(simd, on_simd);
    call(scalar, on_scalar);
    ran_ = true;
    for (std::size_t t = 0; t < 2; ++t) {
      for (std::size_t i = 0; i < buffers_.size(); ++i) {
        const std::size_t at = first_changed_outside_values(i, twins_[t][i]);
        const bool untouched = at == kNone;
        INFO((t == 0 ? "SIMD" : "scalar") << " twin, buffer " << buffers_[i].name
                                          << changed_at(i, at));
        REQUIRE(untouched);
      }
    }
  }

  Values simd(Buffer b) const { return values(0, b); }
  Values scalar(Buffer b) const { return values(1, b); }

  // For kernels that promise the scalar twin's bits (the same operations in
  // the same order): every value equal bit for bit, so -0 against +0 or two
  // different NaNs fail too.
  void require_bit_identical(Buffer b) const {
    const Values x = simd(b), y = scalar(b);
    std::size_t at = kNone;
    for (std::size_t i = 0; i < x.size && at == kNone; ++i)
      if (std::memcmp(&x.data[i], &y.data[i], sizeof(float)) != 0) at = i;
    const bool identical = at == kNone;
    INFO(buffers_[b.index].name << (identical ? "" : differs_at(x, y, at)));
    REQUIRE(identical);
  }

  // For kernels that sum in another order: |SIMD - scalar| <= bound for every
  // value, where bound is a number or bound(scalar value). The difference is
  // taken in double (exact for two floats); NaN or inf in either twin fails.
  template <typename Bound>
  void require_within(Buffer b, Bound bound) const {
    const Values x = simd(b), y = scalar(b);
    for (std::size_t i = 0; i < x.size; ++i) {
      double tol;
      if constexpr (std::is_arithmetic_v<Bound>) tol = static_cast<double>(bound);
      else tol = bound(y[i]);
      const double diff = std::fabs(static_cast<double>(x[i]) - static_cast<double>(y[i]));
      const bool within = diff <= tol;
      INFO(buffers_[b.index].name
           << (within ? std::string() : differs_at(x, y, i) + ", |difference| " + show(diff) +
                                            " > bound " + show(tol)));
      REQUIRE(within);
    }
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  struct Layout {
    const char* name;
    std::size_t offset, size;
    bool is_output;
    std::vector<float> storage;  // offset guards, the values, kGuardsAfter guards
  };
  using Copies = std::vector<std::vector<float>>;

  // What run()'s call indexes: one twin's copies.
  class Pointers {
   public:
    Pointers(const TwinTester* t, Copies* c) : t_(t), c_(c) {}
    float* operator[](Buffer b) const {
      return (*c_)[b.index].data() + t_->buffers_[b.index].offset;
    }

   private:
    const TwinTester* t_;
    Copies* c_;
  };

  Buffer add(const char* name, std::vector<float> values, bool is_output) {
    Layout l{name, offset_, values.size(), is_output, std::vector<float>(offset_, kGuard)};
    l.storage.insert(l.storage.end(), values.begin(), values.end());
    l.storage.insert(l.storage.end(), kGuardsAfter, kGuard);
    buffers_.push_back(std::move(l));
    ran_ = false;
    return {buffers_.size() - 1};
  }

  Copies fresh_copies() const {
    Copies c;
    for (const Layout& l : buffers_) c.push_back(l.storage);
    return c;
  }

  // The first float of `now` that differs in bits from the buffer's storage,
  // skipping an output's values (what the kernel may write); kNone if none.
  std::size_t first_changed_outside_values(std::size_t i, const std::vector<float>& now) const {
    const Layout& l = buffers_[i];
    for (std::size_t j = 0; j < now.size(); ++j) {
      if (l.is_output && j >= l.offset && j < l.offset + l.size) continue;
      if (std::memcmp(&now[j], &l.storage[j], sizeof(float)) != 0) return j;
    }
    return kNone;
  }

  // Where a check failed, for its message; empty when it passed.
  std::string changed_at(std::size_t i, std::size_t at) const {
    if (at == kNone) return "";
    const Layout& l = buffers_[i];
    return ": storage float " + std::to_string(at) + " changed (its values are floats [" +
           std::to_string(l.offset) + ", " + std::to_string(l.offset + l.size) + "))";
  }
  static std::string differs_at(Values x, Values y, std::size_t at) {
    return "[" + std::to_string(at) + "]: SIMD " + show(x[at]) + ", scalar " + show(y[at]);
  }
  // %.9g: every float distinct, and small ones readable (Catch prints fixed-point).
  static std::string show(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
  }

  Values values(std::size_t twin, Buffer b) const {
    if (!ran_) FAIL("TwinTester: compare only after run(), and run again after adding a buffer");
    const Layout& l = buffers_[b.index];
    return {twins_[twin][b.index].data() + l.offset, l.size};
  }

  std::size_t offset_ = 1;
  std::vector<Layout> buffers_;
  Copies twins_[2];
  bool ran_ = false;
};
