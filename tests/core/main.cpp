#if defined(__wasm_relaxed_simd__)
// The relaxed-SIMD test program is linked without binaryen's finalize pass
// (cpp/CMakeLists.txt says why), and emcc 3.1.6 then calls only a main()
// that takes no arguments: the whole suite runs, with no command-line filter.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
int main() { return Catch::Session().run(); }
#else
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
