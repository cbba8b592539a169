// On the site's pages, a figure off screen keeps its Monte Carlo progress and
// draws it when it comes within 300 px of the screen (or at its run's end):
// drawing every batch of every figure below the fold was most of the
// explainer's first-load blocking time. Embedded widgets draw every batch
// (element.js's default), which costs a host's first load nothing. main.js
// sets it as the widgets' embedding.drawWhen.

const near = new WeakMap(); // element -> on or near the screen
const kept = new WeakMap(); // element -> its latest progress, not drawn yet
let io = null;

/** Draw now if `el` is on or near the screen (or `last`), else when it comes near. */
export function drawWhenNear(el, fn, last) {
  io ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      near.set(e.target, e.isIntersecting);
      const fn = e.isIntersecting && kept.get(e.target);
      if (fn) kept.delete(e.target), fn();
    }
  }, { rootMargin: '300px' });
  if (!near.has(el)) near.set(el, false), io.observe(el);
  if (last || near.get(el)) kept.delete(el), fn();
  else kept.set(el, fn);
}
