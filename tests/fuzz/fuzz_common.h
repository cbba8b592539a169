// Shared by the fuzz targets: run the checker on what a parser accepted, with
// a size cap so one input stays fast, and let any exception other than the
// documented ArgumentError escape (libFuzzer then reports it as a crash).
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/divisor.h"
#include "checker/qk_input.h"
#include "checker/report.h"

namespace fuzz {

inline void check_small(const attn::QkTensors& t) {
  if (t.heads * (t.n_q + t.n_k) * t.dk > 4096) return;
  (void)attn::check_report_json(attn::check_qk(t, attn::Divisor::sqrt_dk()));
}

}  // namespace fuzz
