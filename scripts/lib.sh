# Shared by the scripts: paths, logging, and the environment em++ needs.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_NATIVE="$ROOT/build/native"
BUILD_WASM="$ROOT/build/wasm"
BUILD_WASM_RELAXED="$ROOT/build/wasm-relaxed"
WEB="$ROOT/web"
# Debian's em++ 3.1.6 finds its JS optimizer's modules (acorn) only here.
export NODE_PATH=/usr/share/nodejs
JOBS="$(nproc 2>/dev/null || echo 2)"

log() { printf '\033[1m== %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# A compiler cache for every build tree, when Debian's ccache is there
# (scripts/setup.sh installs it): a second run rebuilds only what changed.
# BASEDIR + NOHASHDIR let a fresh clone in another folder hit the same entries
# (paths under ROOT are hashed relative). Native and sanitizer trees take it as
# CMake's launcher; emcc runs its clang through EM_COMPILER_WRAPPER.
CMAKE_LAUNCHER=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1
  export EM_COMPILER_WRAPPER=ccache
  CMAKE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
