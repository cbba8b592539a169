// <attn-variance>'s attributes (element.js options) and its controls' specs: no
// DOM code, so the embed docs page lists them before the element's code loads.
export const DK_LOG2_MAX = 12;

export const SPECS = {
  dk: { type: 'int', min: 1, max: 2 ** DK_LOG2_MAX, def: 64 },
  sq: { type: 'number', min: 0.1, max: 3, def: 1 },
  sk: { type: 'number', min: 0.1, max: 3, def: 1 },
  rho: { type: 'number', min: -1, max: 1, def: 0 },
  seed: { type: 'int', min: 0, max: 2 ** 32 - 1, def: 1 },
};

export const OPTIONS = {
  dk: { key: 'dk', spec: SPECS.dk },
  'sigma-q': { key: 'sq', spec: SPECS.sq },
  'sigma-k': { key: 'sk', spec: SPECS.sk },
  rho: { key: 'rho', spec: SPECS.rho },
  seed: { key: 'seed', spec: SPECS.seed },
};
