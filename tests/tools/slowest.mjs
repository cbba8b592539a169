// Prints the slowest tests recorded by durations-reporter.mjs.
//   node tests/tools/slowest.mjs COUNT FILE.jsonl...
import fs from 'node:fs';
import path from 'node:path';

const [count, ...files] = process.argv.slice(2);
if (!files.length || !/^\d+$/.test(count ?? '')) {
  console.error('usage: node tests/tools/slowest.mjs COUNT FILE.jsonl...');
  process.exit(2);
}
const rows = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)))
  .filter((r) => r.leaf);
rows.sort((a, b) => b.ms - a.ms);
const total = rows.reduce((s, r) => s + r.ms, 0);
console.log(`  ${rows.length} tests, ${(total / 1000).toFixed(0)} s of test time in all; the slowest ${Math.min(+count, rows.length)}:`);
for (const r of rows.slice(0, +count)) {
  const name = r.name.length > 90 ? r.name.slice(0, 89) + '…' : r.name;
  console.log(`  ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${path.basename(r.file ?? '?')}: ${name}${r.ok ? '' : '  (failed)'}`);
}
