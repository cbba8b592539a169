// The lab's loss-spike call-out (web/src/train/mechanism.js lossSpike): a run
// that learned (loss ≤ 0.1) and then lost it (loss ≥ 1) while its largest
// logit at least doubled; the numbers it reports, read off hand-made rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const { lossSpike } = await import(path.join(ROOT, 'web/src/train/mechanism.js'));

// Rows at steps 5, 10, ...: loss and largest |logit| from functions of the row index.
const rows = (n, loss, logit) => ({
  step: Array.from({ length: n }, (_, i) => 5 * (i + 1)),
  loss: Array.from({ length: n }, (_, i) => loss(i)),
  logit_max_abs: Array.from({ length: n }, (_, i) => logit(i)),
});

test('a run that learned, spiked and grew its logits: where, how high, and by how much', () => {
  // Learns by row 10 (loss 0.01 at row 20), spikes at rows 60-62 (1.5, 2.4, 0.7), logits 100 then up to 600.
  const loss = (i) => (i < 10 ? 3 - 0.29 * i : i === 20 ? 0.001 : i === 60 ? 1.5 : i === 61 ? 2.4 : i === 62 ? 0.7 : i === 63 ? 3 : 0.05);
  const logit = (i) => (i < 60 ? 100 + (i % 3) : 100 + 10 * (i - 59));
  const s = lossSpike(rows(100, loss, logit));
  assert.deepEqual(s, { step: 305, low: 0.001, lowStep: 105, peak: 3, peakStep: 320, g0: 101, g1: 500, g1Step: 500, ratio: 500 / 101 });
});

test('no call-out: never learned, learned without a spike, a spike without logit growth, a diverged run, no rows', () => {
  assert.equal(lossSpike(rows(50, () => 3.4, (i) => 10 * (i + 1))), null, 'never below 0.1');
  assert.equal(lossSpike(rows(50, (i) => (i < 5 ? 2 : 0.02), (i) => 10 * (i + 1))), null, 'no spike');
  assert.equal(lossSpike(rows(50, (i) => (i === 30 ? 2 : i < 5 ? 2 : 0.02), () => 100)), null, 'logits flat');
  assert.equal(lossSpike(rows(50, (i) => (i === 30 ? 2 : i < 5 ? 2 : 0.02), (i) => (i < 30 ? 100 : 199))), null, 'under 2×');
  assert.notEqual(lossSpike(rows(50, (i) => (i === 30 ? 2 : i < 5 ? 2 : 0.02), (i) => (i < 30 ? 100 : 200))), null, '2× exactly');
  assert.equal(lossSpike(rows(50, (i) => (i < 5 ? 2 : i === 20 ? NaN : 0.02), () => 100)), null, 'diverged');
  assert.equal(lossSpike({ step: [], loss: [], logit_max_abs: [] }), null);
  assert.equal(lossSpike(null), null);
  // The loss at 0.1 counts as learned, 0.1001 does not; 1 counts as a spike, 0.999 does not.
  assert.notEqual(lossSpike(rows(20, (i) => (i === 5 ? 0.1 : i === 10 ? 1 : 0.5), (i) => (i < 10 ? 10 : 30))), null);
  assert.equal(lossSpike(rows(20, (i) => (i === 5 ? 0.1001 : i === 10 ? 1 : 0.5), (i) => (i < 10 ? 10 : 30))), null);
  assert.equal(lossSpike(rows(20, (i) => (i === 5 ? 0.1 : i === 10 ? 0.999 : 0.5), (i) => (i < 10 ? 10 : 30))), null);
});
