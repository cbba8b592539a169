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
