// Build step (scripts/build.sh, after the modules are copied into src/wasm):
// the core's facts the site needs before any module has loaded, written as
// src/wasm/core-facts.js and src/wasm/divisor-range.js (built output, not
// committed, like the modules; two files, so the saturation widgets, whose
// first load has a byte budget, bundle a divisor's range alone and share no
// chunk with the training widget). It
// asks the lab's module (scalar build, under Node) for the table of training
// options that the CLI's parser and help and the module's configure() read
// (cpp/core/train/train_config.h train_options, exported by
// cpp/wasm/train_bindings.cpp trainOptionTable()) and for a divisor's range,
// so a form's defaults and an attribute's range come from the core, never
// from a literal of ours. tests/node/core_facts.test.mjs holds the file, and
// what the site builds from it, against the module and the CLI.
//
// node scripts/core-facts.mjs [DIR]   (default: src/wasm/)
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WASM = fileURLToPath(new URL('../src/wasm/', import.meta.url));

/** The facts, from a loaded lab module M. */
export function coreFacts(M) {
  const table = M.trainOptionTable();
  // Keyed by configure()'s field name, or the CLI's for a run's own options (steps, eval).
  const trainOptions = Object.fromEntries(table.map((o) => [o.field ?? o.name, o]));
  const { lo, hi } = M.divisorRange();
  return { trainOptions, divisorRange: { lo, hi } };
}

const HEAD = "// Written by web/scripts/core-facts.mjs from the lab's wasm module (scripts/build.sh): do not edit.\n";

/** The modules' texts: {file: text}. */
export function coreFactsModules({ trainOptions, divisorRange }) {
  return {
    'core-facts.js': `${HEAD}// The core's training options (cpp/core/train/train_config.h train_options), keyed by
// configure()'s field (or the CLI's name: steps, eval): {name, field, type, def, lo, hi, choices, optional}.
export const TRAIN_OPTIONS = {
${Object.entries(trainOptions).map(([k, o]) => `  ${JSON.stringify(k)}: ${JSON.stringify(o)},`).join('\n')}
};
`,
    // Two numbers, not an object: the bundler writes them into the code that reads them.
    'divisor-range.js': `${HEAD}// A divisor's number range (cpp/core/base/size_limits.h kMinDivisor, kMaxDivisor).
export const MIN_DIVISOR = ${divisorRange.lo};
export const MAX_DIVISOR = ${divisorRange.hi};
`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? WASM;
  const { default: create } = await import(pathToFileURL(`${WASM}attnlab_lab_scalar.js`).href);
  const M = await create({ wasmBinary: fs.readFileSync(`${WASM}attnlab_lab_scalar.wasm`) });
  for (const [file, text] of Object.entries(coreFactsModules(coreFacts(M)))) fs.writeFileSync(`${dir}/${file}`, text);
}
