// libFuzzer target: `attnlab check`'s argument handling. The input is argv,
// one argument a line; files are served from memory by their extension, so
// the fuzzer reaches the divisor, format and name options end to end without
// touching the disk or exiting. Seeds: corpus/check_args.
#include <string>
#include <vector>

#include "args.h"
#include "base/argument_error.h"
#include "check_command.h"
#include "checker/io/npy.h"
#include "checker/io/npz.h"

namespace {

std::vector<std::uint8_t> text(const char* s) { return {s, s + std::string(s).size()}; }

std::vector<std::uint8_t> serve(const std::string& path) {
  static const std::vector<float> v{0.5f, -1, 2, 0.25f, 1, -0.5f, 3, 1.5f};
  const auto npy = attn::write_npy(v.data(), {2, 4});
  const auto ends = [&](const char* ext) {
    const std::string e(ext);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".npy")) return npy;
  if (ends(".npz")) return attn::write_npz({{"q", npy}, {"k", npy}, {"query", npy}, {"key", npy}});
  if (ends(".csv")) return text("q,1,2\nq,3,4\nk,1,0\nk,0,1\n");
  if (ends(".json")) return text("{\"q\": [[1, 2], [3, 4]], \"k\": [[1, 0], [0, 1]]}");
  if (ends(".txt")) return text("1 2\n3 4\n");
  throw attncli::UsageError("cannot open '" + path + "'");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> argv(1);
  for (std::size_t i = 0; i < size && argv.size() <= 32; ++i) {
    if (data[i] == '\n') argv.emplace_back();
    else argv.back() += static_cast<char>(data[i]);
  }
  try {
    const attncli::CheckRequest r = attncli::parse_check_args(argv);
    (void)attncli::check_report(r, serve);
  } catch (const attncli::UsageError&) {
  } catch (const attn::ArgumentError&) {
  }
  return 0;
}
