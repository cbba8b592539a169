// The benchmarks' module (bench.html, scripts/bench.mjs): one timed sample of
// a case per call; the JS side repeats it and takes medians.
#include "../bench/bench_cases.h"
#include "../bench/kernel_bench.h"
#include "glue.h"

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

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_bench) {
  using namespace attn::wasm;
  value_object<BenchResult> bench_result("BenchResult");
  status_fields(bench_result);
  bench_result.field("seconds", &BenchResult::seconds).field("flops", &BenchResult::flops);
  function("benchRun", &bench_run);
  function("benchCasesJson", &bench_cases_json);
}
