// Independent references in plain JS (double precision), written from the
// formulas, not from the C++: softmax and attention.
export function softmax(scores, divisor = 1) {
  const z = scores.map((s) => s / divisor);
  const mx = Math.max(...z);
  const e = z.map((x) => Math.exp(x - mx));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

export function entropy(p) {
  return -p.reduce((acc, x) => (x > 0 ? acc + x * Math.log(x) : acc), 0);
}

export function attention(q, k, v, divisor) {
  const weights = q.map((qi) => softmax(k.map((kj) => kj.reduce((a, x, c) => a + x * qi[c], 0)), divisor));
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((a, wj, j) => a + wj * v[j][c], 0)));
  return { weights, output };
}

export function close(actual, expected, tol, what = '') {
  if (!(Math.abs(actual - expected) <= tol))
    throw new Error(`${what}: expected ${expected} ± ${tol}, got ${actual}`);
}
