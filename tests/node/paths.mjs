// Where the build puts what these tests exercise (scripts/build.sh).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'build/native/bin/attnlab');
export const WASM_DIR = path.join(ROOT, 'build/wasm/cpp');
// The relaxed-SIMD build has a tree of its own (clang 19; scripts/build.sh).
export const WASM_RELAXED_DIR = path.join(ROOT, 'build/wasm-relaxed/cpp');

// One module per feature (explain, lab, check, bench, presets), each in a
// simd, a scalar and a relaxed build: attnlab_<feature>_<variant>.{js,wasm}.
export const wasmFile = (feature, variant, ext = 'wasm') =>
  path.join(variant === 'relaxed' ? WASM_RELAXED_DIR : WASM_DIR, `attnlab_${feature}_${variant}.${ext}`);

/** A fresh instance of a feature's module under Node (the EXPORT_ES6 glue is given the bytes). */
export async function loadWasm(feature, variant) {
  const { default: create } = await import(wasmFile(feature, variant, 'js'));
  return create({ wasmBinary: (await import('node:fs')).readFileSync(wasmFile(feature, variant)) });
}
