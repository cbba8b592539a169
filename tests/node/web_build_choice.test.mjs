// web/src/bridge/build.js and detect.js, the one choice of wasm build: ?build=
// forces one the browser can run, and a forced build it cannot run (the
// relaxed build in Safari; here Node 20 without --experimental-wasm-relaxed-simd,
// which validates SIMD128 but not relaxed SIMD) falls back to detection's
// choice instead of failing to compile. Anything else in ?build= is 'auto'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ROOT } from './paths.mjs';

const detectUrl = pathToFileURL(path.join(ROOT, 'web/src/bridge/detect.js')).href;
const { buildFromSearch } = await import(pathToFileURL(path.join(ROOT, 'web/src/bridge/build.js')).href);

// detectBuild for each request in a Node child, with or without relaxed SIMD; its warnings counted.
function detect(flags) {
  const script = `const { detectBuild } = await import(${JSON.stringify(detectUrl)});
    const warned = []; console.warn = (m) => warned.push(String(m));
    const out = {};
    for (const b of ['auto', 'relaxed', 'simd', 'scalar']) out[b] = await detectBuild(b);
    console.log(JSON.stringify({ out, warned }));`;
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('?build= values: relaxed, simd and scalar force one; anything else is auto', () => {
  assert.equal(buildFromSearch('?build=relaxed'), 'relaxed');
  assert.equal(buildFromSearch('?build=simd'), 'simd');
  assert.equal(buildFromSearch('?lang=zh&build=scalar'), 'scalar');
  for (const s of ['', '?build=', '?build=SIMD', '?build=fast', '?build=relaxed%00', '?build=auto', '?build'])
    assert.equal(buildFromSearch(s), 'auto', s);
});

test('an engine without relaxed SIMD: ?build=relaxed falls back to SIMD128, with a warning; the others as asked', () => {
  const { out, warned } = detect([]);
  assert.deepEqual(out, { auto: 'simd', relaxed: 'simd', simd: 'simd', scalar: 'scalar' });
  assert.equal(warned.length, 1);
  assert.match(warned[0], /cannot run the relaxed build/);
});

test('an engine with relaxed SIMD: every forced build is honoured, and auto picks relaxed', () => {
  const { out, warned } = detect(['--experimental-wasm-relaxed-simd']);
  assert.deepEqual(out, { auto: 'relaxed', relaxed: 'relaxed', simd: 'simd', scalar: 'scalar' });
  assert.deepEqual(warned, []);
});
