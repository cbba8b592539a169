// `npm run dev` and `vite build` before scripts/build.sh has compiled the core
// into web/src/wasm: both stop at once with a message naming scripts/build.sh
// (web/vite.config.js's requireWasm plugin), not with an unresolved import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const WEB = path.join(ROOT, 'web');
const { createServer, build } = await import(path.join(WEB, 'node_modules/vite/dist/node/index.js'));
const { requireWasm } = await import(path.join(WEB, 'vite.config.js'));
const MESSAGE = /No WebAssembly modules in .*: run scripts\/build\.sh/;

// A tiny site whose wasm folder is empty.
function emptySite() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-no-wasm-'));
  fs.mkdirSync(path.join(root, 'wasm'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
  fs.writeFileSync(path.join(root, 'main.js'), "import './wasm/attn_simd.js';\n");
  return root;
}

test('the dev server refuses to start without wasm modules, naming scripts/build.sh', async () => {
  const root = emptySite();
  try {
    await assert.rejects(createServer({
      configFile: false, root, logLevel: 'silent', plugins: [requireWasm(path.join(root, 'wasm'))],
      // No watcher, socket or port: the server is refused before it would close them.
      server: { middlewareMode: true, watch: null, ws: false },
    }), MESSAGE);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a build without wasm modules fails with the same message', async () => {
  const root = emptySite();
  try {
    await assert.rejects(build({
      configFile: false, root, logLevel: 'silent', plugins: [requireWasm(path.join(root, 'wasm'))],
      build: { write: false },
    }), MESSAGE);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('with the modules scripts/build.sh wrote, the check passes', { skip: !fs.existsSync(path.join(WEB, 'src/wasm')) && 'web/src/wasm not built' }, () => {
  const plugin = requireWasm();
  assert.doesNotThrow(() => plugin.configureServer());
  assert.doesNotThrow(() => plugin.buildStart());
});
