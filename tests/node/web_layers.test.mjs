// The site's modules are layers, lowest first; a module imports only from its
// own group and from groups in lower layers, so the plumbing never reaches up
// into a widget, a widget never into a page, and one page never into another:
//   0 base       url, i18n, format, parse, number-text, dom, state (and style.css; page.css and
//                nav-strings.js, the pages' header): what every page
//                and widget stands on; knows no custom element and no core
//   1 core       core/ (loader, Embind wrapper, worker, client) and wasm/ (the
//                Emscripten output it loads): the C++ core and how to reach it
//   2 content    math/ (formulas, lazy KaTeX) and diagrams/ (the chain's .mmd and SVG):
//                what widgets show, with no element of their own; train/ (the training
//                runs: pool of workers, ops, comparison, configuration) under the lab
//                page and the attn-train-compare widget alike
//   3 widgets    widgets/: the custom elements and what they share (element.js, chart.js,
//                the language switch, the build line, their strings)
//   4 pages      the explainer (main.js, page-strings.js, page-training.js, presets-table.js, presets-strings.js, hero.js, stagger.js, seen.js), lab/, check/, bench/, and
//                embed/ (the widgets on someone else's page), docs/ (the embed's docs
//                page and the sample tutorial): a group each, so a page
//                never imports another page's module
// Imports seen: static and dynamic import, export … from, and new URL('…', import.meta.url)
// (workers and assets). Packages and virtual modules are outside the layers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const SRC = path.join(ROOT, 'web/src');
const GROUPS = {
  base: { layer: 0, paths: ['url.js', 'i18n.js', 'format.js', 'parse.js', 'number-text.js', 'dom.js', 'state.js', 'colors.js', 'style.css', 'page.css', 'nav-strings.js'] },
  core: { layer: 1, paths: ['core/', 'wasm/'] },
  content: { layer: 2, paths: ['math/', 'diagrams/'] },
  train: { layer: 2, paths: ['train/'] },
  widgets: { layer: 3, paths: ['widgets/'] },
  explainer: { layer: 4, paths: ['main.js', 'page-strings.js', 'page-training.js', 'presets-table.js', 'presets-strings.js', 'hero.js', 'stagger.js', 'seen.js'] },
  lab: { layer: 4, paths: ['lab/'] },
  check: { layer: 4, paths: ['check/'] },
  bench: { layer: 4, paths: ['bench/'] },
  embed: { layer: 4, paths: ['embed/'] },
  docs: { layer: 4, paths: ['docs/'] },
};

/** The group of a path relative to web/src (posix separators), or null. */
function groupOf(rel) {
  for (const [name, g] of Object.entries(GROUPS))
    if (g.paths.some((p) => (p.endsWith('/') ? rel.startsWith(p) : rel === p))) return name;
  return null;
}

const IMPORT = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,  // import x from '…', export { y } from '…'
  /\bimport\s*['"]([^'"]+)['"]/g,                                // import '…' (side effects, CSS)
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,                         // import('…')
  /\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g,     // workers and assets
];

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'wasm' ? [] : sources(p);  // wasm/: generated, imports nothing of ours
    return /\.m?js$/.test(e.name) ? [p] : [];
  });
}

/** What `text`, the module at `rel`, imports: [{spec, problem}] (problem null when allowed). */
function check(rel, text) {
  const from = groupOf(rel);
  const specs = new Set(IMPORT.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));
  return [...specs].filter((spec) => spec.startsWith('.')).map((spec) => {  // not a package or a virtual module
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec.replace(/\?.*$/, '')));
    const to = groupOf(target);
    let problem = null;
    if (!to) problem = `${rel} imports '${spec}', which is in no layer`;
    else if (to !== from && GROUPS[to].layer >= GROUPS[from].layer)
      problem = `${rel} (${from}, layer ${GROUPS[from].layer}) imports '${spec}' (${to}, layer ${GROUPS[to].layer})`;
    return { spec, problem };
  });
}

test('web/src: every module sits in a layer and imports only its own group and the layers below', () => {
  const wrong = [];
  let imports = 0;
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    assert.ok(groupOf(rel), `${rel} is in no layer: place it in GROUPS (tests/node/web_layers.test.mjs)`);
    const seen = check(rel, fs.readFileSync(file, 'utf8'));
    imports += seen.length;
    wrong.push(...seen.map((s) => s.problem).filter(Boolean));
  }
  assert.ok(imports > 80, `only ${imports} relative imports seen: is the pattern still right?`);
  assert.deepEqual(wrong, []);
});

test('the check sees upward, sideways and multi-line imports, and allows downward ones', () => {
  const problems = (rel, text) => check(rel, text).map((s) => s.problem);
  // What math.js once did: content reaching up into the widgets.
  assert.match(problems('math/math.js', "import { whenNear } from '../widgets/element.js';")[0], /layer 2.*layer 3/);
  assert.match(problems('lab/sweep.js', "import {\n  renderReport,\n} from '../check/report.js';")[0], /\(check, layer 4\)/);
  assert.match(problems('dom.js', "const w = new Worker(new URL('./core/worker.js', import.meta.url));")[0], /\(core, layer 1\)/);
  assert.match(problems('state.js', "import './stray/x.js';")[0], /in no layer/);
  assert.deepEqual(problems('widgets/chart.js', "import uPlot from 'uplot';\nimport { h } from '../dom.js';\nimport('./element.js');"), [null, null]);
});
