// One error line in wasm too (issue 14, class 7): the core escapes what it
// echoes, so each module's message for a value with a newline or a terminal
// escape is the CLI's message for the same value, in the SIMD and scalar builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, loadWasm } from './paths.mjs';
import { corpusPath } from './check_cases.mjs';

const { createAttn } = await import(path.join(ROOT, 'web/src/bridge/attn.js'));
const { createCheckAttn } = await import(path.join(ROOT, 'web/src/bridge/attn-check.js'));

function cliMessage(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  assert.equal(r.status, 2, `${JSON.stringify(args)}: ${r.stderr}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  return lines[0].replace(/^attnlab: /, '');
}

const CONTROL = /[\n\r\x00-\x1f\x7f\u0085\u2028\u2029]/;
const VALUES = ['8\n', 'sq\x1b[31mrt', 'a\r\nb', 'dk\u2028'];

for (const variant of ['simd', 'scalar']) {
  test(`explain (${variant}): resolveDivisor echoes a bad divisor as the CLI does`, async () => {
    const M = await loadWasm('explain', variant);
    for (const v of VALUES) {
      const r = M.resolveDivisor(v, 64);
      assert.ok(!CONTROL.test(r.error), JSON.stringify(r.error));
      assert.equal(r.error, cliMessage(['softmax', '--scores', '1', '--divisor', v, '--dk', '64']));
      assert.equal(r.argument, 'divisor');
    }
  });

  test(`lab (${variant}): configure echoes bad names as the CLI's train does`, async () => {
    const M = await loadWasm('lab', variant);
    const base = { task: 'recall', dk: 16, heads: 1, dModel: 16, dv: 16, divisor: 'sqrt', optimizer: 'adam',
      lr: 1e-3, init: 'lecun', batch: 8, seed: 0, logEvery: 1 };
    const s = new M.TrainSession();
    for (const [field, option] of [['task', '--task'], ['optimizer', '--optimizer'], ['init', '--init'], ['divisor', '--divisor']]) {
      for (const v of VALUES) {
        const r = s.configure({ ...base, [field]: v });
        assert.ok(!CONTROL.test(r.error), JSON.stringify(r.error));
        assert.equal(r.error, cliMessage(['train', option, v]), `${field} ${JSON.stringify(v)}`);
      }
    }
    s.delete();
  });

  test(`check (${variant}): options and the file's own names are echoed as the CLI's check does`, async () => {
    const attn = createCheckAttn(await loadWasm('check', variant));
    const rel = 'npz/good.npz';
    const files = [{ name: 'good.npz', bytes: fs.readFileSync(corpusPath(rel)) }];
    const cases = [
      [{ format: 'np\nz' }, ['--format', 'np\nz']],
      [{ q: 'q\x1b' }, ['--q', 'q\x1b']],
      [{ divisor: '2\r' }, ['--divisor', '2\r']],
    ];
    for (const [options, args] of cases) {
      assert.throws(() => attn.checkTensors(files, options), (e) => {
        assert.ok(!CONTROL.test(e.message), JSON.stringify(e.message));
        assert.equal(e.message, cliMessage(['check', corpusPath(rel), ...args]));
        return true;
      });
    }
  });
}
