// attnlab train / sweep with the stabilisers: --softcap, --qk-clip, --init t5
// and --preset (checked against `attnlab presets`), the per-head traces, and
// every bad value answered by exit status 2 with one line on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

function json(args) {
  const r = run(args);
  assert.equal(r.status, 0, `attnlab ${args.join(' ')} failed: ${r.err}`);
  return JSON.parse(r.out);
}

function sweepRows(args) {
  const r = run(args);
  assert.equal(r.status, 0, `attnlab ${args.join(' ')} failed: ${r.err}`);
  return r.out.trim().split('\n').map((l) => JSON.parse(l));
}

const SMALL = ['--dk', '32', '--dmodel', '32', '--batch', '32'];
const TINY = ['--steps', '2', '--batch', '4', '--eval', '8', '--dmodel', '16'];
const PRESETS = json(['presets']).presets;
// A row's per-head column group as an array: heads(row, 'max_logit') = [max_logit_h0, ...].
const heads = (row, name) => Object.keys(row).filter((k) => k.startsWith(`${name}_h`)).map((k) => row[k]);

test('every preset sets train\'s d_k, divisor, soft-cap and init as `attnlab presets` states them', () => {
  assert.ok(PRESETS.length >= 8);
  for (const p of PRESETS) {
    const r = json(['train', '--preset', p.name, ...TINY]);
    assert.equal(r.config.preset, p.name);
    assert.equal(r.summary.preset, p.name);
    assert.equal(r.config.dk, p.dk, p.name);
    assert.equal(r.config.divisor_value, p.divisor, `${p.name}: divisor`);
    assert.equal(r.config.qk_norm, false);
    assert.equal(r.config.softcap, p.softcap, `${p.name}: soft-cap`);
    assert.equal(r.summary.softcap, p.softcap);
    assert.equal(r.config.init, p.init === 't5' ? 't5' : 'lecun', `${p.name}: init`);
    assert.equal(r.summary.init, r.config.init);
  }
  const gemma = json(['train', '--preset', 'gemma2-27b', ...TINY]);
  assert.equal(gemma.config.divisor_value, 12, 'Gemma 2 27B divides by sqrt(144), not sqrt(128)');
  assert.equal(gemma.config.softcap, 50);
  const t5 = json(['train', '--preset', 't5', ...TINY]);
  assert.equal(t5.config.divisor_value, 1);
  assert.equal(t5.config.init, 't5');
});

test('an explicit --dk, --divisor, --softcap or --init wins over the preset', () => {
  const r = json(['train', '--preset', 'gemma2-2b', '--dk', '16', '--divisor', 'sqrt', '--softcap', '7', ...TINY]);
  assert.equal(r.config.dk, 16);
  assert.equal(r.config.divisor, 'sqrt');
  assert.equal(r.config.divisor_value, 4);
  assert.equal(r.config.softcap, 7);
  const t5 = json(['train', '--preset', 't5', '--init', 'xavier', ...TINY]);
  assert.equal(t5.config.init, 'xavier');
  assert.equal(t5.config.divisor_value, 1);
  const sweep = sweepRows(['sweep', '--preset', 'llama', '--optimizers', 'adam', ...TINY]);
  assert.equal(sweep.length, 1, 'the preset is one d_k and one divisor');
  assert.equal(sweep[0].dk, 128);
  assert.equal(Number(sweep[0].divisor), Math.sqrt(128));
  assert.equal(sweep[0].preset, 'llama');
  const over = sweepRows(['sweep', '--preset', 'gemma2-9b', '--dks', '16', '--divisors', 'sqrt,1', '--optimizers', 'adam', ...TINY]);
  assert.deepEqual(over.map((x) => [x.dk, x.divisor, x.softcap]), [[16, 'sqrt', 50], [16, '1', 50]]);
});

test('no preset, no stabiliser: the summary says so with nulls', () => {
  const r = json(['train', ...TINY]);
  for (const k of ['softcap', 'qk_clip', 'preset']) {
    assert.equal(r.config[k], null, k);
    assert.equal(r.summary[k], null, k);
  }
  assert.equal(r.summary.init, 'lecun');
  assert.equal(r.summary.qk_clips, 0);
});

test('a soft-capped run trains, and the softmax never sees a logit beyond the cap', () => {
  // d_k 32, √d_k, 300 steps: 0.89 held-out accuracy with the cap at 3 (0.92 without).
  const r = json(['train', ...SMALL, '--softcap', '3', '--steps', '300', '--log-every', '5', '--eval', '512']);
  assert.equal(r.config.softcap, 3);
  assert.equal(r.summary.diverged, null);
  assert.ok(r.summary.final_accuracy > 0.7, `learned: ${r.summary.final_accuracy}`);
  assert.ok(r.metrics.at(-1).loss < r.metrics[0].loss - 2);
  for (const m of r.metrics) assert.ok(m.logit_max_abs <= 3, `softmax input ${m.logit_max_abs} within the cap`);
  // The per-head trace is the logit before the cap: it grows past 3.
  assert.ok(Math.max(...heads(r.metrics.at(-1), 'max_logit')) > 3);
});

test('QK-clip keeps every reported per-head largest |logit| at most τ (1e-5 relative), and τ above the logits changes nothing', () => {
  for (const [div, tau] of [['sqrt', '3'], ['1', '4'], ['qknorm', '2.5']]) {
    const free = json(['train', ...SMALL, '--divisor', div, '--lr', '0.02', '--steps', '120', '--log-every', '1', '--eval', '64']);
    const r = json(['train', ...SMALL, '--divisor', div, '--lr', '0.02', '--steps', '120', '--log-every', '1', '--eval', '64',
      '--qk-clip', tau]);
    assert.equal(r.config.qk_clip, Number(tau));
    assert.ok(r.summary.qk_clips > 0, `${div}: the clip did act`);
    assert.ok(Math.max(...free.metrics.map((m) => Math.max(...heads(m, 'max_logit')))) > 1.5 * Number(tau),
      `${div}: without the clip the logits pass τ`);
    for (const m of r.metrics) {
      for (const x of heads(m, 'max_logit')) assert.ok(x <= Number(tau) * (1 + 1e-5), `${div}, step ${m.step}: ${x} > ${tau}`);
      assert.ok(m.logit_max_abs <= Number(tau) * (1 + 1e-5));
    }
  }
  const a = json(['train', ...SMALL, '--steps', '40', '--log-every', '1', '--eval', '64']);
  const b = json(['train', ...SMALL, '--steps', '40', '--log-every', '1', '--eval', '64', '--qk-clip', '10000']);
  assert.equal(b.summary.qk_clips, 0);
  assert.deepEqual(b.metrics, a.metrics);
  assert.equal(b.summary.final_loss, a.summary.final_loss);
});

test('the per-head traces: max_logit_h*, entropy_h* in JSON and CSV, consistent with the totals', () => {
  const r = json(['train', ...SMALL, '--heads', '3', '--steps', '20', '--log-every', '5', '--eval', '64']);
  for (const m of r.metrics) {
    const mx = heads(m, 'max_logit'), ent = heads(m, 'entropy');
    assert.deepEqual(Object.keys(m).slice(-18, -12), ['max_logit_h0', 'max_logit_h1', 'max_logit_h2', 'entropy_h0', 'entropy_h1', 'entropy_h2']);
    assert.equal(Math.max(...mx), m.logit_max_abs);
    const mean = ent.reduce((s, x) => s + x, 0) / 3;
    assert.ok(Math.abs(mean - m.attn_entropy) <= 1e-6 * m.attn_entropy);
    for (const e of ent) assert.ok(e >= 0 && e <= Math.log(17) + 1e-6);
  }
  const csv = run(['train', ...SMALL, '--heads', '3', '--steps', '20', '--log-every', '5', '--eval', '64', '--format', 'csv']);
  assert.equal(csv.status, 0, csv.err);
  const [table, summary] = csv.out.trimEnd().split('\n\n');
  const header = table.split('\n')[0].split(',');
  assert.deepEqual(header.slice(-18, -12), ['max_logit_h0', 'max_logit_h1', 'max_logit_h2', 'entropy_h0', 'entropy_h1', 'entropy_h2']);
  const row = table.split('\n')[2].split(',').map(Number);
  assert.deepEqual(row.slice(-18, -12), [...heads(r.metrics[1], 'max_logit'), ...heads(r.metrics[1], 'entropy')]);
  const kv = Object.fromEntries(summary.split('\n').slice(1).map((l) => l.split(',')));
  assert.equal(kv.softcap, '');
  assert.equal(kv.init, 'lecun');
});

test('--init t5 with divisor 1: the init checkpoint\'s Var(logit) is near 1, Lecun\'s near d_k', () => {
  // One seed's 256 sequences: within a factor of 2 (the lab's band); the
  // Catch2 case measures the mean over 48 seeds to a few per cent.
  const t5 = json(['train', '--dk', '64', '--divisor', '1', '--init', 't5', ...TINY]);
  assert.equal(t5.config.init, 't5');
  assert.ok(t5.init.var_logit > 0.5 && t5.init.var_logit < 2, `t5: ${t5.init.var_logit}`);
  const lecun = json(['train', '--dk', '64', '--divisor', '1', '--init', 'lecun', ...TINY]);
  assert.ok(lecun.init.var_logit > 32 && lecun.init.var_logit < 128, `lecun: ${lecun.init.var_logit}`);
});

test('bad --softcap, --qk-clip, --preset and --init: exit 2, one line on stderr, nothing on stdout', () => {
  for (const cmd of ['train', 'sweep']) {
    for (const opt of ['--softcap', '--qk-clip']) {
      for (const v of ['0', '-1', '-0', 'nan', 'inf', 'abc', '', '1e-4', '1e5', '10000.5', '0x10', ' 5']) {
        const r = run([cmd, opt, v, '--steps', '1']);
        assert.equal(r.status, 2, `${cmd} ${opt} '${v}'`);
        assert.equal(r.out, '');
        assert.equal(r.err.split('\n').length, 2, `one line: ${r.err}`);
        assert.match(r.err, new RegExp(`^attnlab: ${opt}`));
      }
    }
    for (const args of [['--preset', 'gemma3'], ['--preset', ''], ['--preset', 'GPT2'], ['--init', 'T5']]) {
      const r = run([cmd, ...args, '--steps', '1']);
      assert.equal(r.status, 2, `${cmd} ${args.join(' ')}`);
      assert.equal(r.out, '');
      assert.equal(r.err.split('\n').length, 2, r.err);
    }
  }
  // The edges of the stated range are accepted.
  for (const v of ['0.001', '10000']) {
    assert.equal(json(['train', '--softcap', v, ...TINY]).config.softcap, Number(v));
    assert.equal(json(['train', '--qk-clip', v, ...TINY]).config.qk_clip, Number(v));
  }
});

test('attnlab --help lists the new options', () => {
  const r = run(['--help']);
  for (const s of ['--softcap C', '--qk-clip TAU', '--preset NAME', 't5']) assert.ok(r.out.includes(s), s);
});
