// Every input an output echoes reads back as the value that ran (issue 32,
// class 2): rates, divisors, caps, thresholds, sigmas, seeds and sizes, in
// JSON and in CSV, for every command that echoes its inputs. Before the fix
// `sweep --lrs 0.1,0.10000001` printed "lr":0.1 for both rows (7 digits),
// and train's CSV echoed no configuration at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
// Values no 7-digit printing keeps apart from their neighbours, and their neighbours.
const LR = ['0.1', '0.10000001', '0.0030000000000000001', '0.0030000000000000006'];
const CAP = '50.000001';
const CLIP = '100.0000001';

/** CSV text -> [{column: text}]. */
function csvRows(text) {
  const [head, ...rows] = text.trim().split('\n');
  const cols = head.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [cols[i], v])));
}

test('sweep: each row\'s lr, softcap and qk_clip are the values that ran, in JSON and CSV', () => {
  const args = ['sweep', '--dks', '4', '--divisors', '1', '--optimizers', 'adam', '--steps', '1', '--heads', '1', '--dmodel', '4',
    '--batch', '1', '--eval', '1', '--lrs', LR.join(','), '--softcap', CAP, '--qk-clip', CLIP];
  const json = run(args).trim().split('\n').map((l) => JSON.parse(l));
  const csv = csvRows(run([...args, '--format', 'csv']));
  assert.deepEqual(json.map((r) => r.lr), LR.map(Number));
  assert.deepEqual(csv.map((r) => Number(r.lr)), LR.map(Number));
  for (const rows of [json, csv])
    for (const r of rows) {
      assert.equal(Number(r.softcap), Number(CAP));
      assert.equal(Number(r.qk_clip), Number(CLIP));
    }
  // The four rates are four runs: they differ, and so may their numbers.
  assert.equal(new Set(json.map((r) => r.lr)).size, 4);
  // --lr-adam without --lrs: the same rule.
  const one = JSON.parse(run(['sweep', '--dks', '4', '--divisors', '1', '--optimizers', 'adam', '--steps', '1', '--heads', '1',
    '--dmodel', '4', '--batch', '1', '--eval', '1', '--lr-adam', LR[1]]).trim());
  assert.equal(one.lr, Number(LR[1]));
});

test('train: the configuration is echoed exactly, in the JSON\'s config and in the CSV\'s config_ lines', () => {
  const args = ['train', '--dk', '4', '--heads', '1', '--dmodel', '8', '--dv', '4', '--steps', '2', '--batch', '2', '--eval', '2',
    '--lr', LR[1], '--divisor', '2.0000001', '--softcap', CAP, '--qk-clip', CLIP, '--seed', '9007199254740991', '--log-every', '1'];
  const j = JSON.parse(run(args));
  const want = { dk: 4, heads: 1, d_model: 8, dv: 4, lr: Number(LR[1]), divisor: '2.0000001', divisor_value: 2.0000001,
    softcap: Number(CAP), qk_clip: Number(CLIP), batch: 2, seed: 9007199254740991, log_every: 1 };
  for (const [k, v] of Object.entries(want)) assert.equal(j.config[k], v, `config.${k}`);
  const text = run([...args, '--format', 'csv']);
  const kv = Object.fromEntries(text.split('\n\n')[1].trim().split('\n').slice(1).map((l) => l.split(',')));
  for (const [k, v] of Object.entries(want)) {
    const cell = kv[`config_${k}`] ?? kv[k];
    assert.ok(cell !== undefined, `CSV has ${k}`);
    assert.equal(typeof v === 'string' ? cell : Number(cell), v, `CSV ${k}: ${cell}`);
  }
});

test('saturation and variance: the divisor, cap, threshold, rho and sigmas as given', () => {
  const s = JSON.parse(run(['saturation', '--dk', '64', '--n', '16', '--divisor', '8.0000001', '--softcap', CAP, '--samples', '10',
    '--threshold', '1e-7', '--seed', '12345678901']));
  assert.deepEqual([s.divisor, s.divisor_label, s.softcap, s.threshold, s.seed], [8.0000001, '8.0000001', Number(CAP), 1e-7, 12345678901]);
  const v = JSON.parse(run(['variance', '--dk', '64', '--divisor', '8.0000001', '--rho', '0.10000001', '--sigma-q', '1.0000001',
    '--sigma-k', '0.99999999', '--samples', '10']));
  assert.deepEqual([v.divisor, v.rho, v.sigma_q, v.sigma_k], [8.0000001, 0.10000001, 1.0000001, 0.99999999]);
});
