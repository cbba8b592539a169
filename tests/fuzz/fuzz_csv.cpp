// libFuzzer target: the CSV reader on arbitrary bytes, as one file holding q
// and k (rows named q/k) and as one plain matrix. Seeds: corpus/csv.
#include "base/argument_error.h"
#include "checker/io/csv_reader.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    fuzz::check_small(attn::load_qk(data, size, attn::TensorFormat::Csv));
  } catch (const attn::ArgumentError&) {
  }
  try {
    (void)attn::parse_csv(data, size, {}, "q");
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
