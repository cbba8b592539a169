// One grammar (issue 31, item 6), walked over the whole option table: every
// option that two commands share states the same type and range in both
// (attnlab help --markdown prints the table the parser reads), unless it is
// listed below with the reason its range is that command's own limit. A new
// option, or a new divergence, fails here until it is made the same or
// listed with its reason; option_grammar_cli.test.mjs checks that the shared
// ranges are also what the commands accept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

// [option, command]: why that command's range differs from the others'.
const OWN_LIMITS = new Map([
  ['--dk train', 'a trained model holds d_model × d_k weights per head and steps through them: the trainer\'s limit, 1024'],
  ['--dk sample-qk', 'sample-qk trains or draws a model as train does: the trainer\'s limit'],
  ['--heads sample-qk', 'synthetic q and k only (no model is trained), so more heads fit'],
  ['--n sample-qk', 'sequence length of a model\'s q and k, the trainer\'s limit'],
  ['--samples saturation', 'rows of n keys each, not single q·k products as in variance'],
  ['--steps sample-qk', 'a lab run made only to be exported: at most 2000 steps'],
  ['--format check', 'the format of the file check reads, not of what it prints (train and sweep: json or csv out)'],
]);

// Options whose named values are the command's own while their number range
// is shared: --divisor's names (train's 1, 2 and qknorm, the runs the lab
// colours; saturation's ssmax, which needs the sequence length n it alone
// has) come on top of the one number range every command takes.
const NUMBER_PART = new Map([
  ['--divisor', (range) => range.match(/a number in \[[^\]]+\]/)?.[0]],
]);

function table() {
  const r = spawnSync(CLI, ['help', '--markdown'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const byOption = new Map();
  let command = null;
  for (const line of r.stdout.split('\n')) {
    const head = line.match(/^## (\S+)/);
    if (head) command = head[1];
    const row = line.match(/^\| `(--[a-z0-9-]+)[^|]*(?:\\\|[^|]*)*\| .* \| (.*) \| (.*) \|$/);
    if (!row || !command) continue;
    if (!byOption.has(row[1])) byOption.set(row[1], new Map());
    byOption.get(row[1]).set(command, row[2]);
  }
  return byOption;
}

test('every option two commands share has one type and range, or a stated reason', () => {
  const byOption = table();
  assert.ok(byOption.size > 30, `the table has ${byOption.size} options`);
  let shared = 0;
  for (const [option, commands] of byOption) {
    if (commands.size < 2) continue;
    shared++;
    const part = NUMBER_PART.get(option) ?? ((range) => range);
    const common = [...commands].filter(([c]) => !OWN_LIMITS.has(`${option} ${c}`));
    const ranges = new Set(common.map(([, range]) => part(range)));
    assert.ok(!ranges.has(undefined), `${option}: a command states no number range`);
    assert.ok(common.length > 0, `${option}: every command listed as its own limit`);
    assert.equal(ranges.size, 1, `${option}: ${common.map(([c, range]) => `${c}: ${range}`).join('; ')}`);
  }
  assert.ok(shared >= 8, `${shared} shared options`);
  // Each listed exception still exists and still differs (a stale entry fails).
  for (const key of OWN_LIMITS.keys()) {
    const [option, command] = key.split(' ');
    const commands = byOption.get(option);
    assert.ok(commands?.has(command), `${key}: no such option in the table`);
    const others = [...commands].filter(([c]) => !OWN_LIMITS.has(`${option} ${c}`)).map(([, range]) => range);
    assert.ok(!others.includes(commands.get(command)), `${key}: now the same as the others, drop it from OWN_LIMITS`);
  }
});

test('--preset has one rule in every command that takes it: an option beside it wins', () => {
  const presets = table().get('--preset');
  assert.deepEqual([...presets.keys()].sort(), ['check', 'saturation', 'sweep', 'train']);
  const r = spawnSync(CLI, ['help', '--markdown'], { encoding: 'utf8' });
  for (const command of presets.keys()) {
    const section = r.stdout.split(/^## /m).find((s) => s.startsWith(`${command}\n`));
    const row = section.split('\n').find((l) => l.startsWith('| `--preset'));
    assert.match(row, /an option given beside it wins over the preset's value/, command);
  }
});
