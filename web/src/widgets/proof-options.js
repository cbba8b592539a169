// <attn-proof>'s attributes (element.js options) and its controls' specs: no
// DOM code, so the embed docs page lists them before the element's code loads.
export const STEPS = ['dot', 'square', 'diagonal', 'cross', 'sum', 'divide', 'choose'];

export const SPECS = {
  dk: { type: 'int', min: 1, max: 6, def: 3 },
  step: { type: 'int', min: 1, max: STEPS.length, def: 1 },
  seed: { type: 'int', min: 0, max: 2 ** 32 - 1, def: 1 },
};

export const OPTIONS = {
  dk: { key: 'dk', spec: SPECS.dk },
  step: { key: 'step', spec: SPECS.step },
  seed: { key: 'seed', spec: SPECS.seed },
};
