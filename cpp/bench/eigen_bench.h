// The same cases as kernel_bench.h, computed by Eigen (native only, built with
// -march=native so Eigen uses the machine's widest vectors): the bar to reach.
#pragma once

#include <cstddef>

#include "kernel_bench.h"

namespace attn::bench {

double eigen_run_seconds(const Case& c, std::size_t iters);

}  // namespace attn::bench
