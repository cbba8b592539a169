// What every binding file shares: pointers from JS numbers, the one error
// convention, argument checks for JS numbers, typed-array views.
//
// Calls are coarse: arrays travel as pointers into wasm memory (the JS wrapper
// copies a whole typed array in with one set() and reads results back with one
// slice()). Every fallible call returns a Status, or a result whose `status`
// is one: {error, argument, kind, params}, all '' on success; `argument` is the name of the
// argument an ArgumentError named, so a page can put its translated lead-in
// next to the right control. No C++ exception crosses into JS.
#pragma once

#include <emscripten/bind.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "base/argument_error.h"
#include "base/format.h"
#include "base/size_limits.h"
#include "base/text.h"

namespace attn::wasm {

// error: the core's English message (what the CLI prints); argument: the
// argument it names; kind and params (a JSON object's text, or ""): what a
// page needs to write its own sentence (base/argument_error.h).
struct Status {
  std::string error, argument, kind, params;
};

template <typename T>
T* ptr(std::uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

// Runs f; the Status of what happened.
template <typename F>
Status guarded(F&& f) {
  try {
    f();
    return {};
  } catch (const ArgumentError& e) {
    return {e.what(), e.argument(), e.kind(), e.params()};
  } catch (const std::exception& e) {
    return {e.what(), "", "", ""};
  }
}

// A result R (a struct with `error` and `argument` first, then its payload):
// f fills it; what f threw fills error and argument.
template <typename R, typename F>
R result(F&& f) {
  R r;
  const Status s = guarded([&] { f(r); });
  r.error = s.error;
  r.argument = s.argument;
  r.kind = s.kind;
  r.params = s.params;
  return r;
}

// Registers a result's error and argument fields (then add its payload's).
template <typename R>
void status_fields(emscripten::value_object<R>& o) {
  o.field("error", &R::error).field("argument", &R::argument).field("kind", &R::kind).field("params", &R::params);
}

// One copy of the throw, not one per call site (size_arg is inline).
[[noreturn]] [[gnu::noinline]] inline void fail_size_arg(const char* name, double v, std::size_t lo, std::size_t hi) {
  fail_kind(name, "range", range_params(static_cast<double>(lo), static_cast<double>(hi), v, ",\"integer\":true"),
            "%s must be an integer in [%zu, %zu], got %s", name, lo, hi, num_exact(v).c_str());
}

// JS numbers arrive as doubles; reject -1, 2.5 or NaN here with the same
// wording as the core, rather than letting them wrap around as size_t.
inline std::size_t size_arg(const char* name, double v, std::size_t lo, std::size_t hi) {
  if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi)) || std::floor(v) != v)
    fail_size_arg(name, v, lo, hi);
  return static_cast<std::size_t>(v);
}

inline std::uint64_t seed_arg(double s) {
  constexpr double kMax = static_cast<double>(limits::kMaxSeed);  // 2^53 - 1, exact as a double
  if (!(s >= 0 && s <= kMax) || std::floor(s) != s)
    fail_kind("seed", "range", range_params(0, kMax, s, ",\"integer\":true"),
              "seed must be an integer in [0, %llu]", static_cast<unsigned long long>(limits::kMaxSeed));
  return static_cast<std::uint64_t>(s);
}

// A typed-array view into wasm memory: valid until the next call that may
// allocate; the JS side copies it at once.
template <typename T>
emscripten::val view(const T* p, std::size_t n) {
  return emscripten::val(emscripten::typed_memory_view(n, p));
}

}  // namespace attn::wasm
