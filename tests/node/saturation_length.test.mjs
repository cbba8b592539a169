// The saturation explorer's sequence-length view computes Scalable-Softmax's
// divisor √d_k / (s·ln n) in JS (web/src/widgets/saturation-ssmax.js: a wasm
// binding for it would cost the embed's first load 1.1 kB gzip). Here it is
// held to the core's: the CLI's `divisor` for the same d_k, n and s, to the
// last bit or one rounding; its s field accepts what the CLI accepts and
// refuses what the CLI refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { ssmaxDivisor, parseS } = await import(path.join(ROOT, 'web/src/widgets/saturation-ssmax.js'));

function cli(args) {
  return spawnSync(CLI, ['saturation', ...args], { encoding: 'utf8' });
}

test('the page\'s ssmax divisor is the core\'s, at every point of its curves', () => {
  for (const dk of [1, 64, 128, 4096])
    for (const n of [2, 3, 16, 512, 4096])
      for (const s of ['0.43', '1', '1e-6', '1e6', '0.1']) {
        const r = cli(['--dk', `${dk}`, '--n', `${n}`, '--samples', '2', '--divisor', `ssmax:${s}`]);
        assert.equal(r.status, 0, r.stderr);
        const core = JSON.parse(r.stdout).divisor;
        const page = ssmaxDivisor(dk, n, parseS(s).value);
        // Math.log and libm's log may differ in the last bit.
        assert.ok(Math.abs(page - core) <= 2 * Number.EPSILON * core, `dk ${dk}, n ${n}, s ${s}: page ${page}, core ${core}`);
      }
});

test('the s field takes what the CLI takes', () => {
  for (const s of ['0.43', '1', '2.5e-1', '1e-6', '1e6', '0.000001']) {
    assert.ok(parseS(s).value > 0, s);
    assert.equal(cli(['--dk', '4', '--n', '8', '--samples', '2', '--divisor', `ssmax:${s}`]).status, 0, s);
  }
  for (const s of ['0', '-0.43', '1e-7', '2e6', 'abc', '', 'nan', 'inf', '0x1', '.5']) {
    assert.ok(parseS(s).error, `page accepted '${s}'`);
    assert.equal(cli(['--dk', '4', '--n', '8', '--samples', '2', '--divisor', `ssmax:${s}`]).status, 2, s);
  }
});
