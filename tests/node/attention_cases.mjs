// Attention inputs shared by the CLI and wasm tests.

// Attention whose exact result is finite (always, for finite inputs) where
// float overflows on the way (issue 14, class 1): a W·V sum near FLT_MAX
// (printed null before) or q·k past it (an error before). [what, input].
const M = 3.4028234663852886e38;
export const OVERFLOW_CASES = [
  ['the issue\'s case: ten weights of 0.1 on FLT_MAX', { q: [[0]], k: Array(10).fill([0]), v: Array(10).fill([M]), divisor: 1 }],
  ['18 keys, columns FLT_MAX, -FLT_MAX, 1..18', { q: [[0], [0]], k: Array(18).fill([0]),
    v: Array.from({ length: 18 }, (_, j) => [M, -M, j + 1]), divisor: 1 }],
  ['q·k = 4e40, equal scores', { q: [[1e20, 1e20, 1e20, 1e20]], k: [[1e20, 1e20, 1e20, 1e20], [1e20, 1e20, 1e20, 1e20]],
    v: [[1], [2]], divisor: 1 }],
  ['q·k = ±1e40', { q: [[1e20]], k: [[1e20], [-1e20], [0]], v: [[1, 2], [3, 4], [5, 6]], divisor: 1 }],
  ['q·k = 3.2e38 fits, divided by 0.5 it does not', { q: [[1e19, 1e19, 1e19, 1e19]],
    k: [[8e18, 8e18, 8e18, 8e18], [0, 0, 0, 0]], v: [[1], [2]], divisor: 0.5 }],
  ['the smallest divisor: scores 1e39 and 2e39', { q: [[1e4]], k: [[1e5], [2e5]], v: [[3], [5]], divisor: 1e-30 }],
  ['one row of five past FLT_MAX', { q: [[0.5, -1], [2, 1], [3e38, 3e38], [-0.25, 0.75], [1, 1]],
    k: [[1, 0.5], [-1, 2], [0.3, 0.3]], v: [[1, -1], [2, 0], [0.5, 4]], divisor: 'sqrt' }],
];

