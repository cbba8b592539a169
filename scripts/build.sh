#!/usr/bin/env bash
# Builds everything: the native CLI and tests (build/native), the wasm modules
# and the wasm test program (build/wasm), then the site (web/dist).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

log "native build (build/native)"
cmake -S "$ROOT" -B "$BUILD_NATIVE" -DCMAKE_BUILD_TYPE=Release "${CMAKE_LAUNCHER[@]}" >/dev/null
cmake --build "$BUILD_NATIVE" -j "$JOBS"

# The checker page's sample files (deterministic, not committed).
mkdir -p "$WEB/public/samples"
for kind in init saturated learned; do
  "$BUILD_NATIVE/bin/attnlab" sample-qk --kind "$kind" --out "$WEB/public/samples/$kind.npz" >/dev/null
  # The same three from real training-lab runs (a few seconds: 200 steps each).
  "$BUILD_NATIVE/bin/attnlab" sample-qk --source lab --kind "$kind" --out "$WEB/public/samples/lab-$kind.npz" >/dev/null
done

log "wasm build (build/wasm)"
emcmake cmake -S "$ROOT" -B "$BUILD_WASM" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_WASM" -j "$JOBS"

# The relaxed-SIMD build (FMA), in a tree of its own: emcc's clang 14 emits a
# pre-standard relaxed_madd opcode, so this tree compiles and links with
# Debian's clang 19 and lld 19 (emcc's EM_*_ADD_VERSION; see cpp/CMakeLists.txt).
log "wasm relaxed-SIMD build (build/wasm-relaxed)"
(export EM_LLVM_ADD_VERSION=19 EM_CLANG_ADD_VERSION=19
 emcmake cmake -S "$ROOT" -B "$BUILD_WASM_RELAXED" -DCMAKE_BUILD_TYPE=Release -DATTN_WASM_VARIANTS=relaxed >/dev/null
 cmake --build "$BUILD_WASM_RELAXED" -j "$JOBS")

# The site imports the modules from web/src/wasm (not committed: built output).
# One module per feature and build (explain, lab, check, bench, presets x
# relaxed, simd, scalar); old names are cleared so a stale module cannot be bundled.
mkdir -p "$WEB/src/wasm"
rm -f "$WEB/src/wasm/"attn*.js "$WEB/src/wasm/"attn*.wasm
for f in explain lab check bench presets; do
  for v in simd scalar; do
    cp "$BUILD_WASM/cpp/attnlab_${f}_$v.js" "$BUILD_WASM/cpp/attnlab_${f}_$v.wasm" "$WEB/src/wasm/"
  done
  cp "$BUILD_WASM_RELAXED/cpp/attnlab_${f}_relaxed.js" "$BUILD_WASM_RELAXED/cpp/attnlab_${f}_relaxed.wasm" "$WEB/src/wasm/"
done
# The core's facts the site reads before any module loads (its training
# options' defaults and ranges, a divisor's range, the presets, the checker's
# limits), from the lab's and the checker's modules: web/src/wasm/core-facts.js,
# divisor-range.js, presets.js and check-limits.js (web/scripts/core-facts.mjs).
(cd "$WEB" && node scripts/core-facts.mjs)

log "site build (web/dist)"
# The flowchart's SVGs are committed; this re-renders one (in headless Chromium)
# only when its Mermaid source has changed.
(cd "$WEB" && npm run --silent diagrams)
(cd "$WEB" && node node_modules/vite/bin/vite.js build --logLevel warn)
# The embed (web/dist/embed/attnlab.js and frame.html): after the site's
# build, which empties web/dist.
(cd "$WEB" && node node_modules/vite/bin/vite.js build -c vite.embed.config.js --logLevel warn)
# The npm package "attnlab": web/dist/npm/attnlab-<version>.tgz (web/scripts/pack.mjs).
(cd "$WEB" && node scripts/pack.mjs)
