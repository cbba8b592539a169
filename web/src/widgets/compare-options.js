// <attn-train-compare>'s attributes (element.js options), its controls' specs
// and the divisors on offer: no DOM code, so the embed docs page lists them
// before the element's code loads. The model's and the ranges' facts are the
// core's (train/config.js CORE_OPTIONS, cpp/core/train/train_config.h
// train_options); d_k's default, the steps and their limit are this widget's own.
import { coreSpec } from '../train/config.js';

// The divisors on offer, in the order runs are listed: [key, palette colour, dash] (the saturation widget's).
export const DIVISORS = [
  ['1', 'c-unscaled', null],
  ['2', 'c-two', [2, 3]],
  ['sqrt', 'c-sqrt', null],
  ['dk', 'c-dk', [8, 4]],
];
export const MAX_STEPS = 5000;   // d_k = 1024 at ~30 ms a step: minutes, not hours

export const SPECS = {
  dk: coreSpec('dk', { def: 64 }),
  divisors: { type: 'list', values: DIVISORS.map((d) => d[0]), def: ['1', 'sqrt'] },
  steps: { type: 'int', min: 1, max: MAX_STEPS, def: 300 },
  seed: coreSpec('seed'),
  optimizer: coreSpec('optimizer'),
  lr: coreSpec('lr', { def: null }),
};

export const OPTIONS = {
  dk: { key: 'dk', spec: SPECS.dk },
  divisors: { key: 'divisors', spec: SPECS.divisors },
  steps: { key: 'steps', spec: SPECS.steps },
  seed: { key: 'seed', spec: SPECS.seed },
  optimizer: { key: 'optimizer', spec: SPECS.optimizer },
  lr: { key: 'lr', spec: SPECS.lr },
};
