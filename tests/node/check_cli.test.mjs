// `attnlab check` and `attnlab sample-qk`: every bad input of issue #6 gives
// its one-line message and exit status 2; the same numbers in any format give
// the same report; the report agrees with a JS oracle; q = k gives correlation 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';
import { BAD, SAME_2D, SAME_3D, close, corpusPath, normals, npyBytes, oracleHead } from './check_cases.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-check-'));

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

function report(args) {
  const r = run(['check', ...args]);
  assert.equal(r.status, 0, `attnlab check ${args.join(' ')} failed: ${r.err}`);
  assert.equal(r.err, '');
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1, 'one JSON object on one line');
  return JSON.parse(lines[0]);
}

function rejects(args, expect) {
  const r = run(args);
  assert.equal(r.signal, null, `attnlab ${args.join(' ')} died of ${r.signal}`);
  assert.equal(r.status, 2, `attnlab ${args.join(' ')}: status ${r.status}, stderr ${r.err}`);
  assert.equal(r.out, '');
  const lines = r.err.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr: ${r.err}`);
  assert.ok(lines[0].startsWith('attnlab: '), lines[0]);
  if (expect instanceof RegExp) assert.match(lines[0], expect);
  else assert.ok(lines[0].includes(expect), `expected "${expect}" in: ${lines[0]}`);
  return lines[0].slice('attnlab: '.length);
}

test('every bad input of issue #6 gives its message and exit status 2', () => {
  assert.ok(BAD.length >= 40);
  for (const c of BAD) rejects(['check', ...c.files.map(corpusPath)], c.expect);
});

test('the same numbers in any format give the same report', () => {
  for (const group of [SAME_3D, SAME_2D]) {
    const reports = group.map((files) => report(files.map(corpusPath)));
    for (let i = 1; i < reports.length; i++)
      assert.deepEqual(reports[i].heads, reports[0].heads, `${group[i].join(' + ')} vs ${group[0].join(' + ')}`);
    assert.equal(reports[0].heads.length, group === SAME_3D ? 2 : 1);
  }
});

test('the report agrees with a JS oracle, on .npy files written by JS', () => {
  const H = 3, nq = 9, nk = 13, dk = 16;
  const q = normals(H * nq * dk, 7).map(Math.fround);
  const k = normals(H * nk * dk, 99, 1.7).map(Math.fround);
  const qf = path.join(TMP, 'q.npy'), kf = path.join(TMP, 'k.npy');
  fs.writeFileSync(qf, npyBytes(q, [H, nq, dk]));
  fs.writeFileSync(kf, npyBytes(k, [H, nk, dk]));
  const r = report([qf, kf, '--divisor', '3']);
  assert.deepEqual(r.shape, { heads: H, n_q: nq, n_k: nk, dk, sequences: 1, keys_per_query: nk });
  assert.deepEqual(r.divisor, { label: '3', value: 3, index: 4, source: 'given' });
  const divisors = [4, 1, 2, 16, 3];
  r.heads.forEach((got, h) => {
    const o = oracleHead(q.slice(h * nq * dk, (h + 1) * nq * dk), k.slice(h * nk * dk, (h + 1) * nk * dk), nq, nk, dk, divisors);
    close(got.q.mean, o.qMean, 1e-12, 'q mean');
    close(got.q.var, o.qVar, 1e-12, 'q var');
    close(got.k.var, o.kVar, 1e-12, 'k var');
    close(got.logits.var, o.logitVar, 1e-5 * o.logitVar, 'logit var');
    close(got.suggested_divisor, Math.sqrt(o.logitVar), 1e-5 * Math.sqrt(o.logitVar), 'suggested divisor');
    assert.equal(got.correlation, null, 'no correlation when n_q != n_k');
    got.divisors.forEach((d, i) => {
      assert.equal(d.value, divisors[i]);
      close(d.logit_std, o.divisors[i].std, 1e-5 * o.divisors[i].std, `std ÷${divisors[i]}`);
      close(d.entropy_mean, o.divisors[i].entropy, 1e-5, `entropy ÷${divisors[i]}`);
      close(d.max_prob_mean, o.divisors[i].maxProb, 1e-5, `max prob ÷${divisors[i]}`);
      assert.equal(d.saturated_share, o.divisors[i].saturated, `saturated ÷${divisors[i]}`);
      assert.equal(d.sharp_share, o.divisors[i].sharp, `sharp ÷${divisors[i]}`);
      assert.equal(d.frozen_share, o.divisors[i].frozen, `frozen ÷${divisors[i]}`);
      close(d.grad_median, o.divisors[i].gradMedian, 1e-5 * o.divisors[i].gradMedian + 1e-12, `gradient median ÷${divisors[i]}`);
      close(d.row_logit_std, o.divisors[i].rowStd, 1e-5 * o.divisors[i].rowStd, `row std ÷${divisors[i]}`);
    });
    assert.equal(got.rows.entropy.length, nq);
    assert.equal(got.rows.grad.length, nq);
    assert.equal(got.rows.max_prob.length, nq);
  });
});

test('a batch of sequences: each query against its own keys, S from the option or the .npz', () => {
  const H = 2, S = 4, dk = 8, nq = 3 * S, nk = 6 * S;
  const q = normals(H * nq * dk, 31).map(Math.fround), k = normals(H * nk * dk, 37, 2).map(Math.fround);
  const qf = path.join(TMP, 'seq_q.npy'), kf = path.join(TMP, 'seq_k.npy');
  fs.writeFileSync(qf, npyBytes(q, [H, nq, dk]));
  fs.writeFileSync(kf, npyBytes(k, [H, nk, dk]));
  const r = report([qf, kf, '--sequences', String(S)]);
  assert.deepEqual(r.shape, { heads: H, n_q: nq, n_k: nk, dk, sequences: S, keys_per_query: nk / S });
  r.heads.forEach((got, h) => {
    const o = oracleHead(q.slice(h * nq * dk, (h + 1) * nq * dk), k.slice(h * nk * dk, (h + 1) * nk * dk), nq, nk, dk,
      [Math.sqrt(dk), 1, 2, dk], S);
    close(got.logits.var, o.logitVar, 1e-5 * o.logitVar, 'logit var');
    got.divisors.forEach((d, i) => {
      close(d.entropy_mean, o.divisors[i].entropy, 1e-5, 'entropy');
      close(d.max_prob_mean, o.divisors[i].maxProb, 1e-5, 'max prob');
    });
  });
  rejects(['check', qf, kf, '--sequences', '5'], "5 sequences do not divide q's 12 rows and k's 24 rows into equal blocks");
  rejects(['check', qf, kf, '--sequences', '0'], '--sequences must be an integer in [1, 4096], got 0');
  // The training lab's export names S in the .npz; --sequences 1 overrides it.
  const npz = corpusPath('npz/good_sequences.npz');
  assert.deepEqual(report([npz]).shape, { heads: 2, n_q: 3, n_k: 15, dk: 4, sequences: 3, keys_per_query: 5 });
  assert.equal(report([npz, '--sequences', '1']).shape.keys_per_query, 15);
});

test('q = k gives correlation 1; the sample files get the verdicts their names say', () => {
  const q = normals(64 * 8, 5).map(Math.fround);
  const f = path.join(TMP, 'same.npy');
  fs.writeFileSync(f, npyBytes(q, [64, 8]));
  const r = report([f, f]);
  close(r.heads[0].correlation, 1, 1e-12, 'correlation');
  close(r.heads[0].q.var, r.heads[0].k.var, 0, 'same variance');

  const expected = { init: 'fine', saturated: 'frozen', learned: 'fine' };
  for (const [kind, verdict] of Object.entries(expected)) {
    const out = path.join(TMP, `${kind}.npz`);
    const made = JSON.parse(run(['sample-qk', '--kind', kind, '--out', out]).out);
    assert.deepEqual(made.shape, [4, 64, 64]);
    assert.equal(fs.statSync(out).size, made.bytes);
    const rep = report([out]);
    assert.deepEqual(rep.heads.map((h) => h.verdict), [verdict, verdict, verdict, verdict], kind);
    // The sample names the divisor such a layer divides by, √d_k, and is judged there.
    assert.deepEqual(rep.divisor, { label: 'sqrt', value: 8, index: 0, source: 'file' }, kind);
    // Deterministic: the same seed writes the same bytes.
    const again = path.join(TMP, `${kind}-again.npz`);
    run(['sample-qk', '--kind', kind, '--out', again]);
    assert.deepEqual(fs.readFileSync(again), fs.readFileSync(out));
  }
  rejects(['sample-qk', '--kind', 'bored', '--out', path.join(TMP, 'x.npz')], "kind must be 'init', 'saturated' or 'learned'");
  rejects(['sample-qk', '--kind', 'init'], '--out FILE.npz is required');
});

test('sample-qk --source lab: q and k of real training-lab runs, checked at the divisor each trained with', () => {
  // The unscaled run (divisor 1) is frozen; the √d_k run is sharp and still learning.
  const expected = { init: ['fine', 'fine'], saturated: ['frozen', 'frozen'], learned: ['sharp', 'sharp'] };
  const divisor = { init: { label: 'sqrt', value: 16 }, saturated: { label: '1', value: 1 }, learned: { label: 'sqrt', value: 16 } };
  for (const kind of ['init', 'saturated', 'learned']) {
    const out = path.join(TMP, `lab-${kind}.npz`);
    const made = JSON.parse(run(['sample-qk', '--source', 'lab', '--kind', kind, '--out', out]).out);
    assert.deepEqual(made.q_shape, [2, 16, 256]);
    assert.deepEqual(made.k_shape, [2, 16 * 17, 256]);
    assert.equal(made.sequences, 16);
    assert.equal(fs.statSync(out).size, made.bytes);
    const rep = report([out]);
    assert.equal(rep.heads.length, 2);
    // The file's own `sequences` array pairs each query with its 17 keys.
    assert.deepEqual(rep.shape, { heads: 2, n_q: 16, n_k: 272, dk: 256, sequences: 16, keys_per_query: 17 });
    assert.deepEqual(rep.heads.map((h) => h.verdict), expected[kind], kind);
    assert.equal(rep.divisor.source, 'file', kind);
    assert.equal(rep.divisor.label, divisor[kind].label, kind);
    assert.equal(rep.divisor.value, divisor[kind].value, kind);
    for (const h of rep.heads) {
      const d = h.divisors[rep.divisor.index];
      if (kind === 'saturated') assert.ok(d.frozen_share > 0.5 && d.grad_median < 2 ** -24, `${kind}: ${JSON.stringify(d)}`);
      if (kind === 'learned') assert.ok(d.frozen_share <= 0.5 && d.sharp_share > 0.5 && d.grad_median >= 2 ** -24, `${kind}: ${JSON.stringify(d)}`);
    }
    // Told another divisor, it judges there, from the same per-divisor numbers.
    if (kind === 'saturated') {
      const at = report([out, '--divisor', 'sqrt']);
      assert.deepEqual(at.divisor, { label: 'sqrt', value: 16, index: 0, source: 'given' });
      at.heads.forEach((h, i) => {
        assert.deepEqual(h.divisors, rep.heads[i].divisors);
        const d = h.divisors[0];
        assert.equal(h.verdict, d.frozen_share > 0.5 ? 'frozen' : d.sharp_share > 0.5 ? 'sharp' : h.verdict);
      });
    }
  }
  rejects(['sample-qk', '--source', 'web', '--out', path.join(TMP, 'x.npz')], "--source must be 'synthetic' or 'lab', got 'web'");
  rejects(['sample-qk', '--source', 'lab', '--kind', 'learned', '--steps', '0', '--out', path.join(TMP, 'x.npz')], '--steps must be an integer in [1, 2000], got 0');
});

test('options: the divisor, array names and format', () => {
  const npz = corpusPath('npz/good_2d_extra_member.npz');
  assert.equal(report([npz]).divisor.label, 'sqrt');
  assert.equal(report([npz]).divisor.source, 'default');
  assert.deepEqual(report([npz, '--divisor', 'dk']).divisor, { label: 'dk', value: 4, index: 3, source: 'given' });
  assert.deepEqual(report([npz, '--divisor', '1']).divisor, { label: '1', value: 1, index: 1, source: 'given' });
  // --k v: the archive's third array (the same values as q) as the keys.
  const qv = report([npz, '--k', 'v']);
  close(qv.heads[0].correlation, 1, 1e-12, 'q against itself');
  rejects(['check', npz, '--k', 'w'], "npz: no array named 'w' (the archive holds q, v, k)");
  // Content wins when the name says nothing; --format overrides the name.
  const renamed = path.join(TMP, 'qk.data');
  fs.copyFileSync(corpusPath('json/good.json'), renamed);
  assert.equal(report([renamed]).format, 'json');
  rejects(['check', renamed, '--format', 'csv'], "csv: line 1 starts with '{\"q\": [[[");
});

test('an .npz or .npy read as text (--format, or a .csv name): what it is and how to read it, not its NUL byte', () => {
  const npz = corpusPath('npz/good.npz');
  const sayNpz = "looks like an .npz (it begins as a zip archive does), not ";
  rejects(['check', npz, '--format', 'csv'], `'${npz}' ${sayNpz}CSV text: drop --format (or give --format npz)`);
  rejects(['check', npz, '--format', 'json'], `${sayNpz}JSON text: drop --format (or give --format npz)`);
  rejects(['check', corpusPath('npy/q.npy'), corpusPath('npy/k.npy'), '--format', 'csv'],
    "q.npy' looks like an .npy (it begins as a NumPy array file does), not CSV text: drop --format (or give --format npy)");
  rejects(['check', npz, '--logits', corpusPath('npy/q.npy'), '--format', 'json'], `${sayNpz}JSON text`);
  // Named .csv, the name decides: dropping --format would not help.
  const named = path.join(TMP, 'really-npz.csv');
  fs.copyFileSync(npz, named);
  rejects(['check', named], `${sayNpz}CSV text: give --format npz (or --format auto)`);
  rejects(['check', named, '--format', 'csv'], 'give --format npz (or --format auto)');
  assert.equal(report([named, '--format', 'auto']).format, 'npz');
  // Text that merely begins with "PK" is still read as text.
  const pk = path.join(TMP, 'pk.csv');
  fs.writeFileSync(pk, 'PK,1,2\nk,3,4\nk,5,6\n');
  assert.equal(report([pk, '--q', 'PK', '--format', 'csv']).format, 'csv');
});

test('usage errors, unreadable and oversized files: one line, status 2', () => {
  const good = corpusPath('npz/good.npz');
  rejects(['check'], 'check needs one file (q and k together) or two (q, then k), got 0');
  rejects(['check', good, good, good], 'got 3');
  rejects(['check', corpusPath('npy/q.npy'), corpusPath('npy/k.npy'), '--q', 'a'], '--q and --k name the arrays inside one file');
  rejects(['check', good, '--divisor', '0'], /divisor must be 'sqrt', 'dk' or a number in .*, got '0'$/);
  // The divisor is checked before any file is read.
  rejects(['check', path.join(TMP, 'missing.npz'), '--divisor', 'x'], "got 'x'");
  rejects(['check', path.join(TMP, 'missing.npz')], "cannot open '");
  rejects(['check', TMP], 'is not a regular file');
  rejects(['check', good, '--format', 'xls'], "format must be 'auto', 'npy', 'npz', 'csv' or 'json', got 'xls'");
  rejects(['check', good, '--bogus', '1'], "unknown option '--bogus'");
  rejects(['check', good, '--divisor'], "option '--divisor' needs a value");
  rejects(['check', good, '--q', 'k'], "q and k need different names, got 'k' twice");
  const empty = path.join(TMP, 'empty.npz');
  fs.writeFileSync(empty, '');
  rejects(['check', empty], 'file: the file is empty');
  // 64 MiB + 1 byte, sparse: refused from its size, before it is read.
  const big = path.join(TMP, 'big.npz');
  fs.closeSync(fs.openSync(big, 'w'));
  fs.truncateSync(big, 64 * 1024 * 1024 + 1);
  rejects(['check', big], 'is 67108865 bytes, more than the limit of 64 MiB');
  fs.rmSync(big);
});

test('PyTorch\'s default nn.Linear init: too flat at √d_k, with the reason\'s numbers', () => {
  // nn.Linear's default weights, U(±1/√fan_in), on unit inputs give q and k
  // entries of variance 1/3 (12 BERT-shaped heads: 64 positions, d_k 64): the
  // logits' spread after √d_k is 1/3, and attention is close to uniform.
  const H = 12, n = 64, dk = 64;
  let x = 11;
  const uniform = () => 2 * ((x = (x * 48271) % 2147483647) / 2147483647) - 1;  // U(-1, 1): variance 1/3
  const q = Array.from({ length: H * n * dk }, () => Math.fround(uniform()));
  const k = Array.from({ length: H * n * dk }, () => Math.fround(uniform()));
  const qf = path.join(TMP, 'torch_q.npy'), kf = path.join(TMP, 'torch_k.npy');
  fs.writeFileSync(qf, npyBytes(q, [H, n, dk]));
  fs.writeFileSync(kf, npyBytes(k, [H, n, dk]));
  const r = report([qf, kf]);
  assert.deepEqual(r.divisor, { label: 'sqrt', value: 8, index: 0, source: 'default' });
  for (const h of r.heads) {
    const d = h.divisors[0];
    assert.equal(h.verdict, 'too_flat', h.reason);
    assert.equal(h.reason_code, 'flat_logits');
    close(h.q.var, 1 / 3, 0.02, 'q variance');
    close(d.row_logit_std, 1 / 3, 0.03, 'row std');
    assert.ok(d.entropy_mean > Math.log(n) - 0.1 && d.entropy_mean < Math.log(n), `entropy ${d.entropy_mean}`);
    assert.match(h.reason, /close to uniform \(mean entropy 4\.\d+ nats of ln 64 = 4\.16\)/);
  }
  // Scaled to unit variance, the same heads are fine.
  fs.writeFileSync(qf, npyBytes(q.map((v) => Math.fround(v * Math.sqrt(3))), [H, n, dk]));
  fs.writeFileSync(kf, npyBytes(k.map((v) => Math.fround(v * Math.sqrt(3))), [H, n, dk]));
  assert.ok(report([qf, kf]).heads.every((h) => h.verdict === 'fine'));
});
