// The core's folders are layers: base/ <- kernels/ <- explain/ <- train/, checker/ <- samples/.
// A file includes only from its own folder and the layers below it, so a
// kernel never depends on the trainer and the trainer never on the checker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const CORE = path.join(ROOT, 'cpp/core');
const BELOW = {
  base: [],
  kernels: ['base'],
  explain: ['base', 'kernels'],
  train: ['base', 'kernels', 'explain'],
  checker: ['base', 'kernels', 'explain'],
  samples: ['base', 'kernels', 'explain', 'train', 'checker'],
};

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : /\.(h|cpp)$/.test(e.name) ? [path.join(dir, e.name)] : []);
}

test('cpp/core: every file sits in a wing, and includes only its own wing and the ones below', () => {
  const wrong = [];
  let includes = 0;
  for (const f of files(CORE)) {
    const rel = path.relative(CORE, f);
    const wing = rel.split(path.sep)[0];
    assert.ok(wing in BELOW, `${rel} is outside the wings ${Object.keys(BELOW).join(', ')}`);
    for (const [, target] of fs.readFileSync(f, 'utf8').matchAll(/^#include "([^"]+)"/gm)) {
      includes++;
      const to = target.split('/')[0];
      if (!(to in BELOW)) wrong.push(`${rel}: "${target}" is not rooted at cpp/core`);
      else if (to !== wing && !BELOW[wing].includes(to)) wrong.push(`${rel} (${wing}) includes "${target}" (${to})`);
    }
  }
  assert.ok(includes > 100, `only ${includes} includes seen`);
  assert.deepEqual(wrong, []);
});

test("the README's map of the layers names every wing of cpp/core at its layer", async () => {
  const { readmeMap } = await import('./readme_map.mjs');
  // A wing's layer: one above the highest wing it may include.
  const layer = (w) => Math.max(-1, ...BELOW[w].map(layer)) + 1;
  const want = Object.fromEntries(Object.keys(BELOW).map((w) => [`${w}/`, layer(w)]));
  assert.deepEqual(readmeMap().cpp, want);
  // Every folder of cpp/core is a wing.
  const dirs = fs.readdirSync(CORE, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  assert.deepEqual(dirs, Object.keys(BELOW).sort());
});
