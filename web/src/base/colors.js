// The stylesheet's colours for drawing (the SVG charts, widgets/chart.js; the lab's heatmaps). A colour
// custom property may hold light-dark(light, dark) or a host's --attn-*
// override, which only a colour property resolves, and only where the
// element's color-scheme is known: a hidden probe inside `scope` (a chart's
// figure, inside a widget's shadow root when embedded) resolves it there.
const FALLBACK = '#888888';

/** name ('c-sqrt') -> 'rgb(…)' as it applies inside `scope`. */
export function readColors(scope, names) {
  const probe = document.createElement('span');
  probe.hidden = true;
  scope.append(probe);
  const out = {};
  try {
    for (const n of names) {
      probe.style.color = FALLBACK;
      probe.style.color = `var(--${n}, ${FALLBACK})`;
      out[n] = getComputedStyle(probe).color || FALLBACK;
    }
  } finally {
    probe.remove();
  }
  return out;
}

// One listener for every chart, holding each callback weakly: a chart a host
// removed (and its widget) can be collected without anyone unsubscribing.
// The caller keeps fn alive as long as it is wanted (a chart: its figure's
// 'attn-recolor' listener holds it).
const callbacks = new Set();
globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', () => {
  for (const ref of callbacks) {
    const fn = ref.deref();
    if (fn) fn();
    else callbacks.delete(ref);
  }
});

/** Call fn when the reader's colour scheme changes; returns a function that stops. */
export function onSchemeChange(fn) {
  const ref = new WeakRef(fn);
  callbacks.add(ref);
  return () => callbacks.delete(ref);
}
