// The wasm builds' names as readers see them, in every footer (the pages',
// the lab's, the checker's and each embedded widget's): one table, so a build
// reads the same wherever it is named.
import { defineStrings, t } from '../base/i18n.js';

defineStrings('buildName', {
  en: { simd: 'SIMD128', relaxed: 'relaxed SIMD (FMA)', scalar: 'scalar' },
  zh: { simd: 'SIMD128', relaxed: 'relaxed SIMD（FMA）', scalar: '标量（scalar）' },
});

/** The name of a build ('relaxed', 'simd' or 'scalar', as buildInfo() gives it) in the reader's language. */
export const buildName = (build) => t(`buildName.${build}`);
