#!/usr/bin/env bash
# Installs what is missing, and nothing else: Debian packages with apt-get and
# the web's npm packages with `npm ci` from the committed lock file. Idempotent.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Why each package: cmake/g++ build the native CLI and tests; emscripten builds
# the wasm modules; libeigen3-dev is the test oracle; catch2 the C++ test
# framework; nlohmann-json3-dev parses and writes the CLI's JSON; wabt gives
# wasm-objdump (the f32x4 check); chromium runs the browser tests; clang and
# libclang-rt-14-dev (libFuzzer and the sanitizer runtimes, only recommended by
# clang) build the fuzz targets of scripts/fuzz.sh; fonts-noto-cjk gives Chromium
# a CJK font, so the 简体中文 pages' screenshots (tests/browser/audit-<page>.test.mjs)
# show characters rather than boxes; clang-19, lld-19 and llvm-19 compile and
# link the relaxed-SIMD build (emcc's own clang 14 emits a pre-standard
# relaxed_madd opcode that browsers and Node reject); ccache caches every
# build tree's compiles, so a second run rebuilds only what changed.
PACKAGES=(cmake g++ make emscripten libeigen3-dev catch2 nlohmann-json3-dev wabt chromium
  clang libclang-rt-14-dev fonts-noto-cjk clang-19 lld-19 llvm-19 ccache)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v node >/dev/null || die "node (>= 20) is required"
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' ||
  die "node >= 20 is required, found $(node --version)"

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f "$WEB/node_modules/.package-lock.json" ] ||
   [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
  log "npm ci in web/"
  (cd "$WEB" && npm ci --no-audit --no-fund)
fi
