// libFuzzer target: the .npy reader on arbitrary bytes; what it accepts is
// checked as both q and k. Seeds: corpus/npy (every bad .npy of issue #6).
#include <vector>

#include "base/argument_error.h"
#include "checker/io/npy.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    attn::Tensor q = attn::parse_npy(data, size, "q", "npy (q)");
    attn::Tensor k = q;
    fuzz::check_small(attn::make_qk(std::move(q), std::move(k), attn::TensorFormat::Npy));
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
