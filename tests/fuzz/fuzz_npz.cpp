// libFuzzer target: the .npz (zip) reader on arbitrary bytes, looking up q and
// k as the checker does. Seeds: corpus/npz (stored, deflated, unknown method,
// truncated, damaged CRC, missing member).
#include "base/argument_error.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    fuzz::check_small(attn::load_qk(data, size, attn::TensorFormat::Npz));
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
