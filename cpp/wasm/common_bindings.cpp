// Linked into every module: the error convention's Status and which build runs.
#include "glue.h"
#include "kernels/dot.h"

namespace attn::wasm {
namespace {

struct BuildInfo {
  bool simd = false;
  std::string build;  // "relaxed" | "simd" | "scalar": the footers' one source
  std::string dotKernel;
};

BuildInfo build_info() {
#if defined(__wasm_relaxed_simd__)
  return {true, "relaxed", dot_f32_kernel_name()};
#elif defined(__wasm_simd128__)
  return {true, "simd", dot_f32_kernel_name()};
#else
  return {false, "scalar", dot_f32_kernel_name()};
#endif
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attnlab_common) {
  using namespace emscripten;
  using namespace attn::wasm;
  value_object<Status>("Status")
      .field("error", &Status::error)
      .field("argument", &Status::argument)
      .field("kind", &Status::kind)
      .field("params", &Status::params);
  value_object<BuildInfo>("BuildInfo").field("simd", &BuildInfo::simd)
      .field("build", &BuildInfo::build)
      .field("dotKernel", &BuildInfo::dotKernel);
  function("buildInfo", &build_info);
}
