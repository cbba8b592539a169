// The site's modules are layers, lowest first, and each layer is a folder of
// web/src; a module imports only from its own group and from groups in lower
// layers, so the plumbing never reaches up into a widget, a widget never into a
// page, and one page never into another:
//   0 base/        url, i18n, format, parse, number-text, dom, state, colors, style.css:
//                  what every page and widget stands on; knows no custom element and no core
//   1 bridge/      the bridge to the C++ core (loader, Embind wrapper, worker, client, the
//                  core's error sentences) and wasm/ (the Emscripten output it loads)
//   2 math/, diagrams/   what widgets show, with no element of their own;
//     train/       the training runs (pool of workers, ops, comparison, configuration),
//                  under the lab page and the attn-train-compare widget alike
//   3 widgets/     the custom elements and what they share (element.js, chart.js, the
//                  language switch, the build line, their strings)
//   4 pages/site/  what the site's pages share and no widget needs: the header's strings, page.css
//   5 pages/<one>/ one group per page (explainer, lab, check, bench, docs), and embed/
//                  (the widgets on someone else's page): a page never imports another's module
// Imports seen: static and dynamic import, export … from, and new URL('…', import.meta.url)
// (workers and assets). Packages and virtual modules are outside the layers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const SRC = path.join(ROOT, 'web/src');
// Folders, not files: a new module joins its folder's layer with no edit here.
const GROUPS = {
  base: { layer: 0, dir: 'base/' },
  bridge: { layer: 1, dir: 'bridge/' },
  wasm: { layer: 1, dir: 'wasm/', with: 'bridge' },
  math: { layer: 2, dir: 'math/' },
  diagrams: { layer: 2, dir: 'diagrams/' },
  train: { layer: 2, dir: 'train/' },
  widgets: { layer: 3, dir: 'widgets/' },
  site: { layer: 4, dir: 'pages/site/' },
  embed: { layer: 5, dir: 'embed/' },
};
const PAGE_LAYER = 5;

/** The group of a path relative to web/src (posix separators), or null: every
 *  folder under pages/ but site/ is a page and a group of its own. */
function groupOf(rel) {
  for (const [name, g] of Object.entries(GROUPS)) if (rel.startsWith(g.dir)) return g.with ?? name;
  const page = /^pages\/([^/]+)\//.exec(rel);
  return page ? `pages/${page[1]}` : null;
}
const layerOf = (group) => GROUPS[group]?.layer ?? PAGE_LAYER;

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
    else if (to !== from && layerOf(to) >= layerOf(from))
      problem = `${rel} (${from}, layer ${layerOf(from)}) imports '${spec}' (${to}, layer ${layerOf(to)})`;
    return { spec, problem };
  });
}

test('web/src: every module sits in a layer and imports only its own group and the layers below', () => {
  const wrong = [];
  let imports = 0;
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    assert.ok(groupOf(rel), `${rel} is in no layer: move it into the folder of its layer (tests/node/web_layers.test.mjs)`);
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
  assert.match(problems('pages/lab/sweep.js', "import {\n  renderReport,\n} from '../check/report.js';")[0], /\(pages\/check, layer 5\)/);
  assert.match(problems('base/dom.js', "const w = new Worker(new URL('../bridge/worker.js', import.meta.url));")[0], /\(bridge, layer 1\)/);
  assert.match(problems('base/state.js', "import '../stray.js';")[0], /in no layer/);
  assert.deepEqual(problems('widgets/chart.js', "import katex from 'katex';\nimport { h } from '../base/dom.js';\nimport('./element.js');"), [null, null]);
});

test('web/src holds folders only, each a layer (no module loose at the root)', () => {
  const loose = fs.readdirSync(SRC, { withFileTypes: true })
    .filter((e) => !(e.isDirectory() && (e.name === 'pages' || Object.values(GROUPS).some((g) => g.dir === `${e.name}/`))))
    .map((e) => e.name);
  assert.deepEqual(loose, []);
  const pages = fs.readdirSync(path.join(SRC, 'pages'), { withFileTypes: true });
  assert.deepEqual(pages.filter((e) => !e.isDirectory()).map((e) => e.name), [], 'pages/ holds one folder per page');
  for (const p of ['explainer', 'lab', 'check', 'bench', 'docs']) assert.ok(pages.some((e) => e.name === p), `pages/${p}/`);
});

/** Every relative import edge between our modules: Map(rel -> Set(rel)). */
function importGraph() {
  const graph = new Map();
  for (const file of sources(SRC)) {
    const rel = path.relative(SRC, file).split(path.sep).join('/');
    const text = fs.readFileSync(file, 'utf8');
    const specs = new Set(IMPORT.flatMap((re) => [...text.matchAll(re)].map((m) => m[1])));
    graph.set(rel, new Set([...specs].filter((s) => s.startsWith('.'))
      .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(rel), s.replace(/\?.*$/, ''))))
      .filter((t) => /\.m?js$/.test(t) && !t.startsWith('wasm/'))));
  }
  return graph;
}

/** The first import circle found (a list of modules, the first repeated at the end), or null. */
function findCircle(graph) {
  const state = new Map();  // rel -> 'open' | 'done'
  const stack = [];
  const visit = (m) => {
    if (state.get(m) === 'done') return null;
    if (state.get(m) === 'open') return [...stack.slice(stack.indexOf(m)), m];
    state.set(m, 'open');
    stack.push(m);
    for (const n of graph.get(m) ?? []) {
      const c = visit(n);
      if (c) return c;
    }
    stack.pop();
    state.set(m, 'done');
    return null;
  };
  for (const m of graph.keys()) {
    const c = visit(m);
    if (c) return c;
  }
  return null;
}

test('no import circle among the modules', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `only ${graph.size} modules seen`);
  const circle = findCircle(graph);
  assert.equal(circle, null, circle && `import circle: ${circle.join(' -> ')}`);
  // The search finds one where there is one.
  assert.deepEqual(findCircle(new Map([['a.js', new Set(['b.js'])], ['b.js', new Set(['c.js'])], ['c.js', new Set(['a.js'])]])), ['a.js', 'b.js', 'c.js', 'a.js']);
  assert.equal(findCircle(new Map([['a.js', new Set(['b.js'])], ['b.js', new Set()]])), null);
});

test("the README's map of the layers names every folder of web/src at its layer", async () => {
  const { readmeMap } = await import('./readme_map.mjs');
  const want = Object.fromEntries(Object.values(GROUPS).map((g) => [g.dir, g.layer]));
  for (const e of fs.readdirSync(path.join(SRC, 'pages'), { withFileTypes: true }))
    if (e.isDirectory() && e.name !== 'site') want[`pages/${e.name}/`] = PAGE_LAYER;
  assert.deepEqual(readmeMap().web, want);
});
