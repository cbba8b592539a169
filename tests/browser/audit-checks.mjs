// What tests/browser/audit-<page>.test.mjs run inside a page (audit-pages.mjs): axe-core, and the
// clipping check (every table, formula and chart either fits or shows a cue
// that it scrolls). Each function here is serialised by playwright and runs in
// the page, so it may use nothing from this module's scope.

/**
 * Every table, formula (.katex-display, a MathML <math> that is not KaTeX's
 * hidden copy) and chart container that is rendered. For each one: where its
 * content ends horizontally, then every ancestor that clips it (overflow other
 * than visible). Content past a scrolling ancestor's box is fine when that box
 * shows a cue; past a clipping (hidden/clip) box, or past the viewport with no
 * scrolling box between, it is lost.
 *
 * The cue, as the site draws it (src/base/style.css, `.table-scroll, .stack-table`):
 * a scroll-shadow background on the overflow:auto box, that is gradients some
 * of which are attached `local` (the covers that scroll with the content) over
 * others attached `scroll` (the shadows that stay with the box), so a shadow
 * shows exactly on the side where more content is. Hidden scrollbars
 * (phones, and headless Chromium here) are no cue. A box may also say it
 * overflows with a class set by script: `is-overflowing` or `data-overflowing`.
 *
 * Returns [{target, where, kind: 'fits'|'cue'|'no-cue'|'clipped'|'page', px}]
 * for the targets that do not fit, and {count} of targets examined.
 */
export function clippingCheck() {
  const SEL = 'table, .katex-display, math, .uchart, .lab-chart, .lab-heatmap, figure, svg.chart, [role="img"]';
  const describe = (el) => {
    if (el.id) return `${el.localName}#${el.id}`;
    const cls = [...el.classList].slice(0, 2).map((c) => `.${c}`).join('');
    const anchor = el.closest('[id]');
    return `${anchor ? `#${anchor.id} ` : ''}${el.localName}${cls}`;
  };
  const hasCue = (box) => {
    if (box.classList.contains('is-overflowing') || box.hasAttribute('data-overflowing')) return true;
    const cs = getComputedStyle(box);
    const att = cs.backgroundAttachment.split(',').map((s) => s.trim());
    return /gradient/.test(cs.backgroundImage) && att.includes('local') && att.includes('scroll');
  };
  const rendered = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const out = [];
  let count = 0;
  const seen = new Set();
  for (const el of document.querySelectorAll(SEL)) {
    // KaTeX's MathML copy is visually hidden on purpose (clip: rect(1px…)).
    if (el.localName === 'math' && el.closest('.katex-mathml, .katex-display, .visually-hidden')) continue;
    if (el.closest('.visually-hidden')) continue;
    if (!rendered(el) || seen.has(el)) continue;
    seen.add(el);
    count++;
    const r = el.getBoundingClientRect();
    let left = r.left;
    let right = r.left + Math.max(r.width, el.scrollWidth);
    let problem = null;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible') continue;
      const ar = a.getBoundingClientRect();
      const inL = ar.left + a.clientLeft;
      const inR = inL + a.clientWidth;
      const over = Math.max(right - inR, inL - left);
      if (over > 1) {
        const where = describe(a);
        if (cs.overflowX === 'auto' || cs.overflowX === 'scroll') {
          if (!hasCue(a)) problem = { kind: 'no-cue', where, px: Math.round(over) };
          // Whether cued or not, what lies past this box is reached by scrolling it.
        } else {
          problem = { kind: 'clipped', where, px: Math.round(over) };
        }
        if (problem) break;
      }
      left = Math.max(left, ar.left);
      right = Math.min(right, ar.right);
    }
    const vw = document.documentElement.clientWidth;
    if (!problem && (right > vw + 1 || left < -1))
      problem = { kind: 'page', where: 'the viewport', px: Math.round(Math.max(right - vw, -left)) };
    if (problem) out.push({ target: describe(el), ...problem });
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1)
    out.push({ target: 'document', kind: 'page', where: 'the viewport', px: doc.scrollWidth - doc.clientWidth });
  return { count, problems: out };
}

/** axe-core's default rules (WCAG 2.x A/AA and best practices) over the whole document. */
export async function runAxe() {
  // eslint-disable-next-line no-undef
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary?.split('\n').slice(0, 3).join(' ') })),
  }));
}

/**
 * axe's color-contrast once more with the scroll cues' gradients taken off
 * (their background-color stays: the colour the text sits on). Over a
 * background-image axe cannot tell the contrast and leaves those nodes
 * "incomplete", so the text of every table in a scroll box would go unchecked.
 */
export async function runContrastUnderCues() {
  const style = document.createElement('style');
  style.textContent = '.table-scroll, .stack-table, .step-formula { background-image: none !important; }';
  document.head.append(style);
  try {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: ['color-contrast'], resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: `${v.id} (under the scroll cues)`,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary?.split('\n').slice(0, 3).join(' ') })),
    }));
  } finally {
    style.remove();
  }
}

// layout.test.mjs's check, also run by the audits (the benchmarks page is checked
// there only, after its one run). In the page: every shown table, formula, chart and code block, and every box
// around one that clips sideways. A box whose content is wider than it must
// scroll (overflow auto/scroll) and show the scroll shadows (a gradient
// background); nothing may reach past the viewport's right edge unless a
// scrolling box holds it.
export function cueCheck() {
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') +
    (el.classList.length ? `.${[...el.classList].join('.')}` : '');
  const where = (el) => {
    const parts = [];
    for (let p = el; p && parts.length < 4; p = p.parentElement) parts.push(name(p));
    return parts.join(' < ');
  };
  const hidden = (el) => el.closest('.visually-hidden, .katex-mathml, [hidden], details:not([open]) > :not(summary)');
  const selector = 'table, .math-display, .katex-display, math, figure, svg, .check-chart, .lab-chart-plot, canvas, pre';
  const targets = [...document.querySelectorAll(selector)].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !hidden(el);
  });
  const boxes = new Set();
  for (const el of targets) {
    let scrolled = false;
    for (let p = el; p && p !== document.body; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox !== 'visible') {
        boxes.add(p);
        if (ox === 'auto' || ox === 'scroll') scrolled = true;
      }
    }
    const right = el.getBoundingClientRect().right;
    if (!scrolled && right > innerWidth + 1) problems.push(`${where(el)} reaches ${Math.round(right)} px in a ${innerWidth} px page`);
  }
  for (const box of boxes) {
    if (box.clientWidth <= 1 || hidden(box)) continue;
    const over = box.scrollWidth - box.clientWidth;
    if (over <= 1) continue;
    const cs = getComputedStyle(box);
    const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
    const cue = /gradient/.test(cs.backgroundImage);
    if (!scrolls || !cue)
      problems.push(`${where(box)}: ${box.scrollWidth} px of content in ${box.clientWidth} px, ${scrolls ? 'no scroll cue' : `overflow-x ${cs.overflowX}`}`);
  }
  const page = document.documentElement.scrollWidth - innerWidth;
  if (page > 0) problems.push(`the page scrolls sideways by ${page} px`);
  return { problems, checked: targets.length };
}
