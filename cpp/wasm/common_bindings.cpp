// Linked into every module: the error convention's Status and which build runs.
#include "glue.h"
#include "kernels/dot.h"

namespace attn::wasm {
namespace {

struct BuildInfo {
  bool simd = false;
  std::string build;  // "relaxed" | "simd" | "scalar": the footers' one source
  std::string dotKernel;
  // "fused" | "separate": how this build's multiply-adds round here (the
  // relaxed build: what this engine's relaxed_madd does, kernels/madd.h), so a
  // page can name the CLI's --madd that gives its numbers.
  std::string madd;
};

BuildInfo build_info() {
#if defined(__wasm_relaxed_simd__)
  return {true, "relaxed", dot_f32_kernel_name(), madd_name(madd_mode())};
#elif defined(__wasm_simd128__)
  return {true, "simd", dot_f32_kernel_name(), madd_name(madd_mode())};
#else
  return {false, "scalar", dot_f32_kernel_name(), madd_name(madd_mode())};
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
      .field("dotKernel", &BuildInfo::dotKernel)
      .field("madd", &BuildInfo::madd);
  function("buildInfo", &build_info);
}
