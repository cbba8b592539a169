// attnlab_bench: the native columns of the benchmark table (the scalar twins as
// built for the CLI, and Eigen with -march=native), as one JSON array on stdout.
// scripts/bench.mjs runs it and the wasm columns in the same run.
//   attnlab_bench [--smoke] [--samples N] [--min-ms T]
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "bench_cases.h"
#include "eigen_bench.h"
#include "kernel_bench.h"

using namespace attn::bench;

namespace {

// Calls per sample so one sample takes at least min_s seconds.
std::size_t calibrate(double (*run)(const Case&, std::size_t), const Case& c, double min_s) {
  std::size_t iters = 1;
  while (true) {
    const double t = run(c, iters);
    if (t >= min_s || iters >= (1u << 28)) return iters;
    iters *= t > 0 ? std::max<std::size_t>(2, static_cast<std::size_t>(1.2 * min_s / t)) : 16;
  }
}

void column(std::ostream& out, const char* name, double (*run)(const Case&, std::size_t),
            const Case& c, int samples, double min_s, bool& first) {
  const std::size_t iters = calibrate(run, c, min_s);
  out << (first ? "" : ",\n") << "{\"column\":\"" << name << "\",\"kernel\":\"" << c.kernel
      << "\",\"n\":" << c.n << ",\"d\":" << c.d << ",\"iters\":" << iters << ",\"gflops\":[";
  for (int i = 0; i < samples; ++i) {
    const double t = run(c, iters);
    // The training steps have no flop count: their rate is steps per second.
    const double work = is_training_case(c) ? 1e9 : flops(c);
    out << (i ? "," : "") << work * static_cast<double>(iters) / t * 1e-9;
  }
  out << "]}";
  first = false;
}

}  // namespace

int main(int argc, char** argv) {
  bool smoke = false;
  int samples = 15;
  double min_ms = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--smoke") {
      smoke = true;
    } else if (a == "--samples" && i + 1 < argc) {
      samples = std::atoi(argv[++i]);
    } else if (a == "--min-ms" && i + 1 < argc) {
      min_ms = std::atof(argv[++i]);
    } else {
      std::cerr << "attnlab_bench: unknown argument '" << a << "'\n";
      return 2;
    }
  }
  if (smoke) {
    samples = 1;
    min_ms = 0;
  }
  if (samples < 1 || samples > 1000 || !(min_ms >= 0 && min_ms <= 10000)) {
    std::cerr << "attnlab_bench: --samples must be in [1, 1000] and --min-ms in [0, 10000]\n";
    return 2;
  }
  bool first = true;
  std::cout << "[\n";
  for (const Case& c : bench_cases(smoke)) {
    column(std::cout, "native_scalar", run_seconds, c, samples, min_ms * 1e-3, first);
    if (!is_training_case(c))  // Eigen has no training loop to compare with
      column(std::cout, "native_eigen", eigen_run_seconds, c, samples, min_ms * 1e-3, first);
  }
  std::cout << "\n]\n";
  return checksum() == 12345.678f ? 1 : 0;  // keeps the sink alive
}
