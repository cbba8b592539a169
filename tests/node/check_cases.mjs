// The checker's test inputs, shared by the CLI, wasm and browser tests: the
// bad inputs of issue #6 (tests/fuzz/bad_inputs.json, written with the seed
// corpus by tests/fuzz/make_corpus.py) and a JS oracle for the report.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

export const CORPUS = path.join(ROOT, 'tests/fuzz/corpus');
/** [{name, issue, files: [relative to CORPUS], expect: a piece of the message}] */
export const BAD = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fuzz/bad_inputs.json'), 'utf8'));

export const corpusPath = (rel) => path.join(CORPUS, rel);

// Good inputs that hold the same numbers in different formats (make_corpus.py):
// q3/k3 [2, 5, 4] and q2/k2 [5, 4] (one head).
export const SAME_3D = [
  ['npz/good.npz'],
  ['npy/q.npy', 'npy/k.npy'],
  ['npy/q_fortran.npy', 'npy/k.npy'],
  ['npy/q_f8_v2.npy', 'npy/k.npy'],
];
export const SAME_2D = [
  ['csv/good_tagged.csv'],
  ['csv/q_plain.csv', 'csv/k_spaces.csv'],
  ['json/good.json'],
  ['json/q_bare.json', 'csv/k_spaces.csv'],
  ['npy/q_2d.npy', 'npy/k_2d_big_endian_f8.npy'],
];

// ---------------------------------------------------------------- JS writers
/** A .npy (version 1.0, '<f4', or '<f8' with `bits` 64; C order) written here from the format's spec. */
export function npyBytes(values, shape, bits = 32) {
  const dims = shape.join(', ') + (shape.length === 1 ? ',' : '');
  let header = `{'descr': '<f${bits / 8}', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = (64 - ((10 + header.length + 1) % 64)) % 64;
  header += ' '.repeat(pad) + '\n';
  const out = new Uint8Array(10 + header.length + (bits / 8) * values.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 255, header.length >> 8]);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const dv = new DataView(out.buffer, 10 + header.length);
  values.forEach((v, i) => (bits === 64 ? dv.setFloat64(8 * i, v, true) : dv.setFloat32(4 * i, v, true)));
  return out;
}

/** Deterministic values of mean 0 and variance about `scale`² (Park–Miller + Box–Muller). */
export function normals(n, seed, scale = 1) {
  let x = seed;
  const u = () => ((x = (x * 48271) % 2147483647) / 2147483647);
  return Array.from({ length: n }, () => scale * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()));
}

// ---------------------------------------------------------------- the oracle
/**
 * The report's numbers for one head, in double, from their definitions.
 * q [nq·dk], k [nk·dk] (float32 values), divisors: numbers; with `seqs`
 * sequences, query i is scored against the nk/seqs keys of its own sequence.
 */
export function oracleHead(q, k, nq, nk, dk, divisors, seqs = 1) {
  const perSeq = nq / seqs, keys = nk / seqs;
  const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
  const variance = (a) => { const m = mean(a); return a.reduce((s, x) => s + (x - m) ** 2, 0) / a.length; };
  const logits = [];
  for (let i = 0; i < nq; i++)
    for (let j = 0; j < keys; j++) {
      const row = Math.floor(i / perSeq) * keys + j;
      let a = 0;
      for (let c = 0; c < dk; c++) a += q[i * dk + c] * k[row * dk + c];
      logits.push(a);
    }
  const out = { qMean: mean(q), qVar: variance(q), kMean: mean(k), kVar: variance(k), logitVar: variance(logits), divisors: [] };
  if (nq === nk) {
    const mq = out.qMean, mk = out.kMean;
    out.corr = q.reduce((s, x, i) => s + (x - mq) * (k[i] - mk), 0) / q.length / Math.sqrt(out.qVar * out.kVar);
  }
  // Mean within-row variance of the raw logits: the spread softmax sees.
  let rowVar = 0;
  for (let i = 0; i < nq; i++) rowVar += variance(logits.slice(i * keys, (i + 1) * keys)) / nq;
  for (const c of divisors) {
    let ent = 0, mp = 0, sat = 0, sharp = 0, frozen = 0;
    const grads = [];
    for (let i = 0; i < nq; i++) {
      const row = logits.slice(i * keys, (i + 1) * keys);
      const mx = Math.max(...row);
      const e = row.map((x) => Math.exp((x - mx) / c));
      const z = e.reduce((s, x) => s + x, 0);
      const p = e.map((x) => x / z);
      ent -= p.reduce((s, x) => (x > 0 ? s + x * Math.log(x) : s), 0);
      const pm = Math.max(...p);
      mp += pm;
      sat += pm > 0.99 ? 1 : 0;
      sharp += pm > 0.9 ? 1 : 0;
      // The gradient softmax passes to the best of the other keys: max p(1 − p) off the top key.
      const top = row.indexOf(mx);
      const g = Math.max(0, ...p.filter((_, j) => j !== top).map((x) => x * (1 - x)));
      grads.push(g);
      frozen += g < 2 ** -24 ? 1 : 0;
    }
    grads.sort((a, b) => a - b);
    const m = grads.length >> 1;
    const gradMedian = grads.length % 2 ? grads[m] : (grads[m - 1] + grads[m]) / 2;
    out.divisors.push({ c, std: Math.sqrt(out.logitVar) / c, entropy: ent / nq, maxProb: mp / nq, saturated: sat / nq,
      sharp: sharp / nq, frozen: frozen / nq, gradMedian, rowStd: Math.sqrt(rowVar) / c });
  }
  return out;
}

export function close(actual, expected, tol, what = '') {
  if (!(Math.abs(actual - expected) <= tol))
    throw new Error(`${what}: expected ${expected} ± ${tol}, got ${actual}`);
}
