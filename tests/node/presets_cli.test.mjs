// `attnlab presets`: real models' scales as JSON, each divisor computed from
// the rule its source states (checked here against a separate computation),
// and no option accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

const run = (args) => spawnSync(CLI, args, { encoding: 'utf8' });

test('presets: every model with its d_k, divisor, soft-cap and source', () => {
  const r = run(['presets']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const { presets } = JSON.parse(r.stdout);
  const by = Object.fromEntries(presets.map((p) => [p.name, p]));
  // name: [d_k, divisor as its source writes it, soft-cap]
  const expected = {
    gpt2: [64, Math.sqrt(64), null],
    'bert-base': [64, Math.sqrt(64), null],
    llama: [128, Math.sqrt(128), null],
    'gemma2-2b': [256, Math.sqrt(256), 50],
    'gemma2-9b': [256, Math.sqrt(256), 50],
    'gemma2-27b': [128, Math.sqrt(144), 50],  // query_pre_attn_scalar 144: ÷12, not ÷√128
    t5: [64, 1, null],
    mup: [64, 64, null],
  };
  for (const [name, [dk, divisor, softcap]] of Object.entries(expected)) {
    const p = by[name];
    assert.ok(p, `${name} is listed`);
    assert.equal(p.dk, dk, name);
    assert.equal(p.divisor, divisor, name);
    assert.equal(p.softcap, softcap, name);
    assert.equal(typeof p.label, 'string');
    assert.ok(p.source.length > 20, `${name} names its source`);
  }
  assert.notEqual(by['gemma2-27b'].divisor, Math.sqrt(by['gemma2-27b'].dk));
  assert.equal(by.t5.init, 't5');
  assert.equal(new Set(presets.map((p) => p.name)).size, presets.length, 'names are unique');
});

test('presets: an option or an argument is refused in one line, exit 2', () => {
  for (const args of [['presets', '--dk', '64'], ['presets', '--name', 'gpt2'], ['presets', 'gpt2']]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^attnlab: [^\n]+\n$/);
  }
});
