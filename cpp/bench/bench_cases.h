// The benchmark grid (issue: "Speed"): one list, used natively and in wasm.
#pragma once

#include <vector>

#include "kernel_bench.h"

namespace attn::bench {

inline std::vector<Case> bench_cases(bool smoke) {
  if (smoke)
    return {{"dot", 64, 0}, {"qk", 16, 8}, {"attention", 16, 8}, {"train", 1, 0}, {"train_converged", 20, 0}};
  std::vector<Case> cases;
  for (std::size_t n : {64, 128, 512, 4096}) cases.push_back({"dot", n, 0});
  for (const char* k : {"qk", "attention"})
    for (auto [n, d] : {std::pair<std::size_t, std::size_t>{16, 64}, {128, 64}, {512, 64}, {256, 128}})
      cases.push_back({k, n, d});
  cases.push_back({"train", 1, 0});
  // The same step once the run has learned (600 steps: 90% batch accuracy by
  // step ~40, 100% long before 600), where a converged run met subnormals.
  cases.push_back({"train_converged", 600, 0});
  return cases;
}

}  // namespace attn::bench
