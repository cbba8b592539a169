// On the site's pages, a figure off screen keeps its Monte Carlo progress and
// draws it when it comes within 300 px of the screen (or at its run's end):
// drawing every batch of every figure below the fold was most of the
// explainer's first-load blocking time. Embedded widgets draw every batch
// (element.js's default), which costs a host's first load nothing.
import { AttnElement } from '../../widgets/element.js';

const near = new WeakMap(); // element -> on or near the screen
const kept = new WeakMap(); // element -> its latest progress, not drawn yet
let io = null;

AttnElement.prototype.drawSeen = function drawSeen(fn, last) {
  const el = this;
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
};
