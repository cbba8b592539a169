// Build step (scripts/build.sh, after the modules are copied into src/wasm):
// the core's facts the site needs before any module has loaded, written as
// src/wasm/core-facts.js, divisor-range.js, presets.js and check-limits.js
// (built output, not committed, like the modules; a file per reader, so the
// saturation widgets, whose first load has a byte budget, bundle a divisor's
// range alone and share no chunk with the training widget). It asks the lab's
// module (scalar build, under Node) for the table of training options that the
// CLI's parser and help and the module's configure() read
// (cpp/core/train/train_config.h train_options, exported by
// cpp/wasm/train_bindings.cpp trainOptionTable()), for a divisor's range and
// for the real models' presets (base/presets.h), and the checker's module for
// its limits (base/size_limits.h), so a form's defaults, an attribute's range,
// the Preset selects and the sentences that state a limit come from the core,
// never from a literal of ours, and are there on the first frame: a page that
// filled them in when its worker answered grew under a reader who had already
// scrolled on (the lab's form by 21-42 px, the checker's by 21-100 px).
// tests/node/core_facts.test.mjs holds the files, and what the site builds
// from them, against the modules and the CLI.
//
// node scripts/core-facts.mjs [DIR]   (default: src/wasm/)
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const WASM = fileURLToPath(new URL('../src/wasm/', import.meta.url));

/** The facts, from a loaded lab module M and checker module C. */
export function coreFacts(M, C) {
  const table = M.trainOptionTable();
  // Keyed by configure()'s field name, or the CLI's for a run's own options (steps, eval).
  const trainOptions = Object.fromEntries(table.map((o) => [o.field ?? o.name, o]));
  const { lo, hi } = M.divisorRange();
  return { trainOptions, divisorRange: { lo, hi }, presets: M.trainPresets(), checkLimits: { ...C.checkLimits() } };
}

const HEAD = "// Written by web/scripts/core-facts.mjs from the core's wasm modules (scripts/build.sh): do not edit.\n";

/** The modules' texts: {file: text}. */
export function coreFactsModules({ trainOptions, divisorRange, presets, checkLimits }) {
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
    'presets.js': `${HEAD}// Real models' d_k, divisor, soft-cap, init and source (cpp/core/base/presets.h), as
// \`attnlab presets\` prints them: the lab's and the checker's Preset selects.
export const MODEL_PRESETS = [
${presets.map((p) => `  ${JSON.stringify(p)},`).join('\n')}
];
`,
    'check-limits.js': `${HEAD}// The checker's limits (cpp/core/base/size_limits.h, the check module's checkLimits()).
export const CHECK_LIMITS = ${JSON.stringify(checkLimits)};
`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? WASM;
  const load = async (feature) => {
    const { default: create } = await import(pathToFileURL(`${WASM}attnlab_${feature}_scalar.js`).href);
    return create({ wasmBinary: fs.readFileSync(`${WASM}attnlab_${feature}_scalar.wasm`) });
  };
  const facts = coreFacts(await load('lab'), await load('check'));
  for (const [file, text] of Object.entries(coreFactsModules(facts))) fs.writeFileSync(`${dir}/${file}`, text);
}
