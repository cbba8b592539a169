// The benchmarks' module (bench.html, scripts/bench.mjs): one timed sample of
// a case per call; the JS side repeats it and takes medians.
#include "../bench/bench_cases.h"
#include "../bench/kernel_bench.h"
#include "glue.h"
#include "kernels/dot.h"

using namespace emscripten;

namespace attn::wasm {
namespace {

struct BenchResult {
  std::string error, argument, kind, params;
  double seconds = 0, flops = 0;
};

BenchResult bench_run(const std::string& kernel, double n, double d, double iters) {
  return result<BenchResult>([&](BenchResult& r) {
    const bench::Case c{kernel, size_arg("n", n, 1, 1u << 24), size_arg("d", d, 0, 4096)};
    r.seconds = bench::run_seconds(c, size_arg("iters", iters, 1, 1u << 30));
    r.flops = bench::flops(c) * iters;
  });
}

// The benchmark grid as JSON: [{"kernel":"dot","n":64,"d":0}, ...].
std::string bench_cases_json(bool smoke) {
  std::string out = "[";
  for (const auto& c : bench::bench_cases(smoke)) {
    out += (out.size() > 1 ? "," : "");
    out += "{\"kernel\":\"" + c.kernel + "\",\"n\":" + std::to_string(c.n) + ",\"d\":" + std::to_string(c.d) + "}";
  }
  return out + "]";
}

// Test hooks: both dot kernels over the same arrays (tests/node/wasm.test.mjs).
// Here, not in the explainer's module, which every embedded widget's host
// downloads: the scalar twin in a SIMD build is 0.9 kB of code no widget runs.
float dot_kernel(std::uintptr_t a, std::uintptr_t b, double n) {
  return dot_f32(ptr<const float>(a), ptr<const float>(b), static_cast<std::size_t>(n));
}
float dot_scalar(std::uintptr_t a, std::uintptr_t b, double n) {
  return dot_f32__scalar(ptr<const float>(a), ptr<const float>(b), static_cast<std::size_t>(n));
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_bench) {
  using namespace attn::wasm;
  value_object<BenchResult> bench_result("BenchResult");
  status_fields(bench_result);
  bench_result.field("seconds", &BenchResult::seconds).field("flops", &BenchResult::flops);
  function("benchRun", &bench_run);
  function("dotKernel", &dot_kernel);
  function("dotScalar", &dot_scalar);
  function("benchCasesJson", &bench_cases_json);
}
