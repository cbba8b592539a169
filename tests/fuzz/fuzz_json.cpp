// libFuzzer target: the JSON reader on arbitrary bytes, as an object holding
// q and k and as one bare array. Seeds: corpus/json.
#include "base/argument_error.h"
#include "checker/io/json_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    fuzz::check_small(attn::load_qk(data, size, attn::TensorFormat::Json));
  } catch (const attn::ArgumentError&) {
  }
  try {
    (void)attn::parse_json(data, size, {}, "q");
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
