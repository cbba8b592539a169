// <attn-softmax-table>'s attributes (element.js options) and the examples it
// starts with: no DOM code, so the embed docs page lists them before the
// element's code loads.

// The initial inputs: the seed's example (d_k = 64) and a small one (d_k = 4).
export const EXAMPLES = [
  { scores: '14, 10, 12', dk: '64' },
  { scores: '1, 0.5, 0.8', dk: '4' },
];

const TEXT = (def, max) => ({ type: 'text', max, def });
// d_k from an attribute: a whole number (the fields themselves take any text and say what is wrong).
const DK = (def) => ({ type: 'int', min: 1, max: 65536, def: Number(def) });

export const OPTIONS = {
  scores: { key: 's0', spec: TEXT(EXAMPLES[0].scores, 400) },
  dk: { key: 'dk0', spec: DK(EXAMPLES[0].dk) },
  scores2: { key: 's1', spec: TEXT(EXAMPLES[1].scores, 400) },
  dk2: { key: 'dk1', spec: DK(EXAMPLES[1].dk) },
};
