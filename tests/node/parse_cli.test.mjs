// One number grammar (issue 14, class 6; cpp/core/base/number.h): every
// numeric input of the CLI, options and files alike, takes JSON's number
// syntax and nothing else, and reads it as the correctly rounded double (an
// option) or float (a tensor value). The same spellings go through each
// channel here, so a channel that parsed its own way would disagree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-parse-'));
let files = 0;
function file(name, text) {
  const p = path.join(TMP, `${files++}-${name}`);
  fs.writeFileSync(p, text);
  return p;
}

function run(args, input) {
  const r = spawnSync(CLI, args, { input, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}
function ok(args, input) {
  const r = run(args, input);
  assert.equal(r.status, 0, `${JSON.stringify(args)}: ${r.err}`);
  return JSON.parse(r.out);
}
function refused(args, input, pattern) {
  const r = run(args, input);
  const what = JSON.stringify(args);
  assert.equal(r.status, 2, `${what} exits 2 (stdout ${r.out.slice(0, 80)})`);
  assert.equal(r.out, '', `${what}: nothing on stdout`);
  assert.match(r.err, /^attnlab: [^\n]*\n$/, `${what}: one line on stderr: ${JSON.stringify(r.err)}`);
  if (pattern) assert.match(r.err, pattern, what);
  return r.err;
}

// Spellings of 0.5, each exactly 0.5 as a double and as a float.
const HALF = ['0.5', '5e-1', '5E-1', '0.50', '50e-2', '0.5e+0', '5000000000e-10', '0.5E0'];
// Not the grammar: refused by every channel.
const NOT_NUMBERS = ['0x10', '0x1p-1', ' 0.5', '0.5 ', '\t0.5', '0.5\n', '+0.5', '.5', '5.', '00.5', '05', '5e',
  '5e+', '-', '', '.', '0,5', '0.5.0', '1_0', '5e-1f', '٥'];
const NON_FINITE = ['inf', '-inf', 'Infinity', 'nan', 'NaN', '1e999', '-1e400'];

// The channels that read one real number, each with its exit for 0.5.
const OPTIONS = [
  ['softmax --scores X,0', (x) => ['softmax', '--scores', `${x},0`], (o) => o.scores[0]],
  ['softmax --divisor X', (x) => ['softmax', '--scores', '1,0', '--divisor', x], (o) => o.divisor],
  ['variance --rho X', (x) => ['variance', '--dk', '4', '--samples', '100', '--rho', x], (o) => o.rho],
  ['variance --sigma-q X', (x) => ['variance', '--dk', '4', '--samples', '100', '--sigma-q', x], (o) => o.sigma_q],
  ['variance --divisor X', (x) => ['variance', '--dk', '4', '--samples', '100', '--divisor', x], (o) => o.divisor],
  ['train --lr X', (x) => ['train', '--dk', '8', '--heads', '1', '--steps', '1', '--eval', '8', '--lr', x], (o) => o.config.lr],
  ['train --divisor X', (x) => ['train', '--dk', '8', '--heads', '1', '--steps', '1', '--eval', '8', '--divisor', x],
    (o) => o.config.divisor_value],
];

test('options: every spelling of 0.5 in the grammar reads as 0.5, in every option', () => {
  for (const [, argv, value] of OPTIONS)
    for (const x of HALF) assert.equal(value(ok(argv(x))), 0.5, `${argv(x).join(' ')}`);
});

test('options: what is not the grammar is refused alike by every option', () => {
  for (const [name, argv] of OPTIONS) {
    // '0,5' is a list of two scores, which --scores takes.
    for (const x of [...NOT_NUMBERS, ...NON_FINITE].filter((t) => !(name.includes('scores') && t === '0,5'))) {
      const err = refused(argv(x), undefined, /must be/);
      assert.doesNotMatch(err, /\n./, `${name} ${JSON.stringify(x)}`);
    }
  }
  // A score list: each item is a number, no blanks around the commas.
  refused(['softmax', '--scores', '1, 2'], undefined, /--scores must be a finite number, got ' 2'/);
  refused(['softmax', '--scores', ' 1,2'], undefined, /--scores must be a finite number, got ' 1'/);
});

test('options: subnormals and underflow are the rounded value; the float maximum as printed is a number', () => {
  assert.equal(ok(['softmax', '--scores', '1e-320,0']).scores[0], 1e-320);
  assert.equal(ok(['softmax', '--scores', '1e-400,0']).scores[0], 0);
  assert.equal(ok(['variance', '--dk', '4', '--samples', '200', '--rho', '1e-320']).rho, 1e-320);
  assert.equal(ok(['softmax', '--scores', '3.4028235e+38,0']).scores[0], 3.4028235e38);
  assert.equal(ok(['softmax', '--scores', '1.7976931348623157e308,0']).scores[0], Number.MAX_VALUE);
  refused(['softmax', '--scores', '1.8e308,0'], undefined, /--scores must be a finite number, got '1.8e308'/);
  // A divisor below its range is a range error, not a parse error.
  refused(['softmax', '--scores', '1,0', '--divisor', '1e-320'], undefined, /divisor must be 'sqrt', 'dk' or a number in \[1e-30, 1e\+12\], got '1e-320'/);
});

test('integer options: digits only, no sign, no leading zero, in range', () => {
  const INTS = [
    (x) => ['variance', '--dk', x, '--samples', '100'],
    (x) => ['softmax', '--scores', '1,0', '--divisor', 'sqrt', '--dk', x],
    (x) => ['train', '--dk', x, '--heads', '1', '--steps', '1', '--eval', '8'],
    (x) => ['train', '--dk', '8', '--heads', '1', '--steps', '1', '--eval', x],
  ];
  for (const argv of INTS) {
    ok(argv('8'));
    for (const x of ['08', '+8', '8.0', '8e0', ' 8', '8 ', '0x8', '', '-8', '8.', '1e1', '٨'])
      refused(argv(x), undefined, /must be an integer in \[/);
  }
  ok(['variance', '--dk', '4', '--samples', '100', '--seed', '0']);
  refused(['variance', '--dk', '4', '--samples', '100', '--seed', '00'], undefined, /--seed must be an integer/);
  refused(['variance', '--dk', '4', '--samples', '100', '--seed', '99999999999999999999999'], undefined, /--seed must be an integer/);
});

// The checker's files: a CSV with both tensors, a JSON object, with x as q's first value.
const csvWith = (x) => `q,${x},1\nq,1,2\nk,0,1\nk,0,2\n`;
const jsonWith = (x, extra = '') => `{"q": [[${x}, 1], [1, 2]], "k": [[0, 1], [0, 2]]${extra}}`;
const attentionWith = (x, extra = '') => `{"q": [[${x}, 1]], "k": [[0, 1], [0, 2]], "v": [[1], [3]]${extra}}`;

test('files: every spelling of 0.5 gives the same report and the same attention output', () => {
  const csv0 = ok(['check', file('a.csv', csvWith('0.5'))]);
  const json0 = ok(['check', file('a.json', jsonWith('0.5'))]);
  const att0 = ok(['attention', '--input', '-'], attentionWith('0.5'));
  for (const x of HALF) {
    assert.deepEqual(ok(['check', file('a.csv', csvWith(x))]).head, csv0.head, `csv ${x}`);
    assert.deepEqual(ok(['check', file('a.json', jsonWith(x))]).head, json0.head, `json ${x}`);
    assert.deepEqual(ok(['attention', '--input', '-'], attentionWith(x)), att0, `attention ${x}`);
  }
  assert.deepEqual(csv0.head, json0.head);
});

test('files: what is not the grammar is refused in a CSV field, a JSON array and the attention input', () => {
  // Blanks around a CSV field are CSV's own separators, and a CSV line ends at a newline.
  const csvNot = NOT_NUMBERS.filter((x) => x.trim() === x && !x.includes(','));
  for (const x of csvNot) {
    if (x === '') continue;
    refused(['check', file('a.csv', csvWith(x))], undefined, /csv: line 1, field 2 \(.*\) is not a number/);
  }
  for (const x of NOT_NUMBERS.filter((s) => s.trim() === s && s !== '' && !s.includes(',') && s !== '٥')) {
    refused(['check', file('a.json', jsonWith(x))], undefined, /json: line 1, column \d+: .*is not a number \(JSON's syntax/);
    refused(['attention', '--input', '-'], attentionWith(x), /input: not valid JSON: line 1, column \d+: .*is not a number \(JSON's syntax/);
  }
  // A character no number holds: where a number was expected.
  refused(['check', file('a.json', jsonWith('٥'))], undefined, /json: line 1, column 9: expected a number/);
  refused(['attention', '--input', '-'], attentionWith('٥'), /input: not valid JSON: line 1, column 9: expected a value/);
  for (const x of ['NaN', 'Infinity', '-Infinity']) {
    refused(['check', file('a.json', jsonWith(x))], undefined, new RegExp(`q\\[0\\]\\[0\\] is ${x}, not a finite number`));
    refused(['attention', '--input', '-'], attentionWith(x), new RegExp(`input: q\\[0\\]\\[0\\] is ${x}, not a finite number`));
  }
  for (const x of ['nan', 'inf', '-Infinity'])
    refused(['check', file('a.csv', csvWith(x))], undefined, /csv: line 1, field 2 is -?(nan|inf): q and k must hold finite numbers/);
});

test('files: float values: the maximum as printed is FLT_MAX, past it out of range, subnormals kept or rounded to 0', () => {
  for (const x of ['3.4028235e+38', '3.4028234663852886e38', '-3.4028235E38', '1e-45', '1e-320', '-0']) {
    ok(['check', file('a.csv', csvWith(x))]);
    ok(['check', file('a.json', jsonWith(x))]);
    ok(['attention', '--input', '-'], attentionWith(x));
  }
  for (const x of ['3.5e38', '-1e39', '1e400']) {
    refused(['check', file('a.csv', csvWith(x))], undefined, new RegExp(`csv: line 1, field 2 is ${x}, outside the float32 range`));
    refused(['check', file('a.json', jsonWith(x))], undefined, new RegExp(`json: line 1, column 9: q\\[0\\]\\[0\\] is ${x}, outside the float32 range`));
    refused(['attention', '--input', '-'], attentionWith(x), /input: q\[0\]\[0\] is outside the float range/);
  }
});

test('files: members not used are skipped unchecked (Python json.dumps: NaN, Infinity), in check and attention', () => {
  const extra = ', "loss": NaN, "best": -Infinity, "worst": Infinity, "count": 1e40, "huge": [1e400, {"x": -1e999}]';
  const base = ok(['check', file('a.json', jsonWith('0.5'))]);
  assert.deepEqual(ok(['check', file('a.json', jsonWith('0.5', extra))]).head, base.head);
  assert.deepEqual(ok(['attention', '--input', '-'], attentionWith('0.5', extra)), ok(['attention', '--input', '-'], attentionWith('0.5')));
  // The file.
  ok(['check', file('issue.json', '{"q":[[1,2],[3,4]],"k":[[1,2],[3,4]],"loss":NaN,"count":1e40}')]);
  // Still JSON: a word that is not one is a syntax error even where it is skipped.
  refused(['check', file('a.json', jsonWith('0.5', ', "x": nan'))], undefined, /'nan' is not a JSON value/);
  refused(['attention', '--input', '-'], attentionWith('0.5', ', "x": 0x10'), /'0x10' is not a JSON value/);
});

test('files: a UTF-8 byte order mark is skipped; a NUL byte is refused, naming where', () => {
  const BOM = '\ufeff';
  assert.deepEqual(ok(['check', file('bom.csv', BOM + csvWith('0.5'))]).head, ok(['check', file('a.csv', csvWith('0.5'))]).head);
  ok(['check', file('bom.json', BOM + jsonWith('0.5'))]);
  ok(['attention', '--input', file('bom.json', BOM + attentionWith('0.5'))]);
  const q = file('q.csv', `${BOM}1,2\n3,4\n`);
  const k = file('k.csv', `${BOM}1,2\n3,4\n`);
  ok(['check', q, k]);
  refused(['check', file('nul.csv', 'q,1,2\nq,3,4\nk,1,2\n\0k,3,4\n')], undefined, /csv: line 4, column 1 holds a NUL byte/);
  refused(['check', file('nul.json', jsonWith('0.5') + '\0trailing')], undefined, /json: line 1, column \d+ holds a NUL byte/);
  refused(['attention', '--input', file('nul.json', attentionWith('0.5') + '\0{}')], undefined, /input: not valid JSON: line 1, column \d+: a NUL byte/);
  refused(['attention', '--input', '-'], attentionWith('0.5', ', "x": "a\0b"'), /a NUL byte/);
});

test('files: a value given twice is refused, whichever reader', () => {
  refused(['check', file('twice.json', '{"q": [[1, 2]], "k": [[1, 2], [3, 4]], "q": [[5, 6]]}')], undefined, /"q" is given twice/);
  refused(['attention', '--input', '-'], '{"q": [[1]], "k": [[1], [2]], "v": [[1], [2]], "v": [[3], [4]]}', /"v" is given twice/);
  refused(['attention', '--input', '-'], '{"q": [[1]], "\\u0071": [[2]], "k": [[1], [2]], "v": [[1], [2]]}', /"q" is given twice/);
});

test('attention: a divisor string is read whole, and one too long to keep is refused, never cut', () => {
  const input = (div) => JSON.stringify({ q: [[1]], k: [[1], [0]], v: [[1], [0]], divisor: div });
  // 1.000…0e-5 with 260 zeros: cut at 256 bytes it read as 1 and ran with the wrong divisor.
  refused(['attention', '--input', '-'], input(`1.${'0'.repeat(260)}e-5`), /^attnlab: input: "divisor" is longer than 256 bytes\n$/);
  refused(['attention', '--input', '-'], input(`1.${'0'.repeat(260)}e50`), /^attnlab: input: "divisor" is longer than 256 bytes\n$/);
  // Within 256 bytes the same grammar as everywhere: 2 written long is 2.
  assert.equal(ok(['attention', '--input', '-'], input(`2.${'0'.repeat(200)}`)).divisor, 2);
});
