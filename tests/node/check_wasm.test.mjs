// The checker in wasm under Node, through the page's own wrapper (attn.js):
// every bad input gives exactly the CLI's message, in the SIMD and the scalar
// build; good files give the CLI's numbers; nothing leaks across calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, loadWasm } from './paths.mjs';
import { BAD, SAME_2D, SAME_3D, close, corpusPath } from './check_cases.mjs';

const { createAttn } = await import(path.join(ROOT, 'web/src/core/attn.js'));

// The checker's module (check.html), in both builds.
async function load(variant) {
  const M = await loadWasm('check', variant);
  return { M, attn: createAttn(M) };
}
const builds = { simd: await load('simd'), scalar: await load('scalar') };

const files = (rels) => rels.map((rel) => ({ name: path.basename(rel), bytes: fs.readFileSync(corpusPath(rel)) }));

function cli(args) {
  return spawnSync(CLI, ['check', ...args], { encoding: 'utf8', timeout: 60_000 });
}

test('every bad input gives the CLI\'s exact message, in both builds', () => {
  for (const c of BAD) {
    const native = cli(c.files.map(corpusPath));
    assert.equal(native.status, 2, c.name);
    const expected = native.stderr.trim().replace(/^attnlab: /, '');
    for (const [variant, { attn }] of Object.entries(builds)) {
      assert.throws(() => attn.checkTensors(files(c.files)), (e) => {
        assert.equal(e.message, expected, `${c.name} (${variant})`);
        return true;
      });
    }
  }
});

test('good files give the native numbers', () => {
  for (const rels of [...SAME_3D, ...SAME_2D, ['npz/good_2d_extra_member.npz'], ['npz/good_sequences.npz']]) {
    const native = JSON.parse(cli(rels.map(corpusPath)).stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const w = attn.checkTensors(files(rels));
      const what = `${rels.join(' + ')} (${variant})`;
      assert.deepEqual(w.shape, native.shape, what);
      assert.equal(w.format, native.format, what);
      assert.equal(w.kernel, variant === 'simd' ? 'dot_f32__wasmsimd_acc4' : 'dot_f32__scalar');
      w.heads.forEach((h, i) => {
        const n = native.heads[i];
        assert.equal(h.verdict, n.verdict, what);
        assert.equal(h.reason_code, n.reason_code, what);
        for (const key of ['mean', 'var']) {
          assert.equal(h.q[key], n.q[key], `${what} q ${key}`);  // the same floats, summed in double
          assert.equal(h.k[key], n.k[key], `${what} k ${key}`);
        }
        // Logits are float dot products: the SIMD kernel sums in another order.
        close(h.logits.var, n.logits.var, 1e-5 * n.logits.var, `${what} logit var`);
        h.divisors.forEach((d, j) => {
          close(d.entropy_mean, n.divisors[j].entropy_mean, 1e-5, `${what} entropy`);
          close(d.max_prob_mean, n.divisors[j].max_prob_mean, 1e-5, `${what} max prob`);
          assert.equal(d.saturated_share, n.divisors[j].saturated_share, `${what} saturated`);
        });
      });
    }
  }
});

test('options cross the boundary: divisor, names, format', () => {
  const { attn } = builds.simd;
  const npz = files(['npz/good_2d_extra_member.npz']);
  assert.deepEqual(attn.checkTensors(npz, { divisor: 'dk' }).divisor, { label: 'dk', value: 4, index: 3 });
  assert.deepEqual(attn.checkTensors(npz, { divisor: '2.5' }).divisor, { label: '2.5', value: 2.5, index: 4 });
  close(attn.checkTensors(npz, { k: 'v' }).heads[0].correlation, 1, 1e-12, 'q against itself');
  const seqs = files(['npz/good_sequences.npz']);
  assert.equal(attn.checkTensors(seqs).shape.keys_per_query, 5);
  assert.equal(attn.checkTensors(seqs, { sequences: 1 }).shape.keys_per_query, 15);
  assert.throws(() => attn.checkTensors(seqs, { sequences: 2.5 }), /^Error: sequences must be an integer in \[0, 4096\], got 2.5/);
  assert.throws(() => attn.checkTensors(npz, { divisor: 'abc' }), /^Error: divisor must be 'sqrt', 'dk' or a number/);
  assert.throws(() => attn.checkTensors(npz, { format: 'csv' }), /^Error: csv: line 1, column 6 holds a NUL byte: not a text file$/);  // a binary file read as text
  assert.throws(() => attn.checkTensors(npz, { q: '' }), /array names must be 1 to 64 printable characters/);
  const json = files(['json/good.json']);
  json[0].name = 'qk.bin';  // no telling extension: the content decides
  assert.equal(attn.checkTensors(json).format, 'json');
  assert.throws(() => attn.checkTensors([]), /give one file/);
  assert.throws(() => attn.checkTensors([...npz, ...npz, ...npz]), /give one file/);
});

test('a file above the size limit is refused from its size alone', () => {
  const { M } = builds.simd;
  const p = M._malloc(16);
  try {
    const opts = { fileName: 'x.npz', fileName2: '', format: 'auto', divisor: 'sqrt', q: 'q', k: 'k', sequences: 0 };
    // The pointer covers 16 bytes only: the core must not read past them.
    const r = M.checkTensors(p, 64 * 1024 * 1024 + 1, 0, 0, opts);
    assert.equal(r.error, 'file: the file is 67108865 bytes, more than the limit of 64 MiB');
    assert.equal(r.argument, 'file');
    assert.match(M.checkTensors(p, -1, 0, 0, opts).error, /^size must be an integer/);
    assert.match(M.checkTensors(p, 2.5, 0, 0, opts).error, /^size must be an integer/);
  } finally {
    M._free(p);
  }
});

test('the checker\'s limits come from the core (the page states and checks them before reading)', () => {
  const { attn } = builds.simd;
  assert.deepEqual(attn.checkLimits(),
    { maxFileBytes: 64 * 1024 * 1024, maxValues: 1 << 22, maxHeads: 1024, maxSeqLen: 4096, maxDk: 65536 });
});

test('no memory grows or leaks across 1000 checks, good and bad', () => {
  const { M, attn } = builds.simd;
  const good = files(['npz/good.npz']);
  const bad = BAD.slice(0, 20).map((c) => files(c.files));
  attn.checkTensors(good);  // first use may set up lasting state (exceptions, locale)
  for (const f of bad) try { attn.checkTensors(f); } catch { /* expected */ }
  const probe = () => { const p = M._malloc(256); M._free(p); return p; };
  const before = { bytes: M.HEAP8.length, probe: probe() };
  for (let i = 0; i < 1000; i++) {
    attn.checkTensors(good);
    try { attn.checkTensors(bad[i % bad.length]); } catch { /* expected */ }
  }
  assert.equal(M.HEAP8.length, before.bytes, 'wasm memory grew');
  assert.equal(probe(), before.probe, 'the allocator hands out a different block: something leaked');
});

test('the scale fit: an .npz with logits or probs gives the native fit, in both builds', () => {
  const fixture = (f) => path.join(ROOT, 'tests/fixtures/scale_fit', f);
  for (const f of ['logits_dmodel.npz', 'probs_causal.npz']) {
    const native = JSON.parse(cli([fixture(f)]).stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const w = attn.checkTensors([{ name: f, bytes: fs.readFileSync(fixture(f)) }]);
      assert.deepEqual(w.scale_fit, native.scale_fit, `${f} (${variant})`);
      w.heads.forEach((h, i) => {
        const n = native.heads[i].scale_fit;
        assert.equal(h.scale_fit.verdict, n.verdict, `${f} (${variant})`);
        assert.equal(h.scale_fit.masked, n.masked);
        assert.equal(h.scale_fit.entries, n.entries);
        close(h.scale_fit.c, n.c, 1e-6 * n.c, `${f} c (${variant})`);  // the SIMD q·k sums in another order
      });
    }
  }
  const both = fs.readFileSync(fixture('bad_both.npz'));
  for (const { attn } of Object.values(builds))
    assert.throws(() => attn.checkTensors([{ name: 'bad_both.npz', bytes: both }]), /holds both 'logits' and 'probs'/);
});
