// The one place the wasm build is chosen from the page URL: ?build=relaxed,
// ?build=simd or ?build=scalar forces one, anything else is 'auto' (the
// fastest build the browser validates; loader.js). Read on the main thread, since a worker cannot see the page
// URL, and sent to the worker that loads the module (loader.js). Kept apart
// from loader.js so a page's own bundle holds no loader code.
export const BUILDS = ['auto', 'relaxed', 'simd', 'scalar'];

// An embedded widget does not read its host's URL (embed/runtime.js turns this off).
export const buildFromUrl = { on: true };

/** 'relaxed' | 'simd' | 'scalar' | 'auto' from a search string (defaults to this page's). */
export function buildFromSearch(search = buildFromUrl.on ? globalThis.location?.search ?? '' : '') {
  const b = new URLSearchParams(search).get('build');
  return b === 'relaxed' || b === 'simd' || b === 'scalar' ? b : 'auto';
}
