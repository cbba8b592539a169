// The npm package as a host project uses it: web/dist/npm/attnlab-<version>.tgz
// (scripts/build.sh packs it) installed with npm, offline, into a fresh host
// project in a temp dir, then
//  (a) a plain HTML page including node_modules/attnlab/dist/attnlab.js,
//      served as files, shows <attn-softmax-table> with the core's numbers;
//  (b) a React 19 TSX page that imports 'attnlab/widgets' and renders
//      <attn-saturation dk={256} controls="none" />: tsc type-checks it with
//      both JSX runtimes and refuses theme="blue"; Vite builds it; the built
//      page, under a strict CSP, shows the widget with the core running in a
//      worker (the footer says so), and no console errors.
// React, react-dom, typescript, @types/react(-dom) and Vite come from
// web/node_modules (linked into the host's node_modules): nothing is fetched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { WEB, launch } from './harness.mjs';
import { serveStatic } from './static-server.mjs';

const run = promisify(execFile);
const VERSION = JSON.parse(fs.readFileSync(path.join(WEB, 'package.json'), 'utf8')).version;
const TARBALL = path.join(WEB, 'dist', 'npm', `attnlab-${VERSION}.tgz`);
const NM = path.join(WEB, 'node_modules');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; worker-src 'self' blob:; connect-src 'self'";

// softmax([14, 10, 12]) in double: the first probability, as the table shows it.
const SOFTMAX_14 = `${(100 / (1 + Math.exp(-4) + Math.exp(-2))).toFixed(2)}%`;

let host;
const write = (p, text) => {
  fs.mkdirSync(path.dirname(path.join(host, p)), { recursive: true });
  fs.writeFileSync(path.join(host, p), text);
};

before(async () => {
  if (!fs.existsSync(TARBALL)) throw new Error(`${TARBALL} is missing: run scripts/build.sh first`);
  host = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-npm-host-'));
  write('package.json', JSON.stringify({ name: 'attnlab-host', private: true, type: 'module' }, null, 2));
  // --offline: a tarball with no dependencies needs no registry; npm fails rather than fetch.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', TARBALL], { cwd: host });
  // After the install (npm would remove links it did not make).
  for (const p of ['react', 'react-dom', '@types/react', '@types/react-dom']) {
    fs.mkdirSync(path.dirname(path.join(host, 'node_modules', p)), { recursive: true });
    fs.symlinkSync(path.join(NM, p), path.join(host, 'node_modules', p), 'dir');
  }

  write('plain.html', `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>plain host</title>
<script type="module" src="/node_modules/attnlab/dist/attnlab.js"></script></head>
<body><attn-softmax-table></attn-softmax-table></body></html>`);

  write('index.html', `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>React host</title></head>
<body><div id="app"></div><script type="module" src="/src/main.tsx"></script></body></html>`);
  // React is in scope for the classic runtime; react-jsx does not need it.
  write('src/main.tsx', `import * as React from 'react';
import { createRoot } from 'react-dom/client';
import 'attnlab/widgets';
import type { AttnSaturationElement, AttnSaturationState } from 'attnlab/widgets';

function App() {
  const ref = React.useRef<AttnSaturationElement>(null);
  React.useEffect(() => {
    const el = ref.current;
    const onChange = (e: CustomEvent<AttnSaturationState>) => { document.title = 'dk ' + e.detail.dk; };
    el?.addEventListener('change', onChange);
    return () => el?.removeEventListener('change', onChange);
  }, []);
  return (
    <main>
      <h1>React host</h1>
      <attn-saturation ref={ref} dk={256} controls="none" className="figure" />
    </main>
  );
}

const found: AttnSaturationElement | null = document.querySelector('attn-saturation');
if (found) found.divisor = 'sqrt';
createRoot(document.getElementById('app')!).render(<App />);
`);
  write('bad/bad.tsx', `import 'attnlab/widgets';
export const Bad = () => <attn-saturation dk={256} theme="blue" />;
`);
  const compilerOptions = {
    target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true,
    lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: false,
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { ...compilerOptions, jsx: 'react-jsx' }, include: ['src'] }));
  write('tsconfig.classic.json', JSON.stringify({ compilerOptions: { ...compilerOptions, jsx: 'react' }, include: ['src'] }));
  write('tsconfig.bad.json', JSON.stringify({ compilerOptions: { ...compilerOptions, jsx: 'react-jsx' }, include: ['bad'] }));
});

after(() => {
  if (host) fs.rmSync(host, { recursive: true, force: true });
});

/** Serve `dir` under the strict CSP, open `url`, wait for `tag`'s shadow text to hold every of `want`. */
async function render(dir, url, tag, want) {
  const srv = await serveStatic({ dir, pages: { '/favicon.ico': '' }, headers: () => ({ 'Content-Security-Policy': CSP }) });
  const browser = await launch(srv.origin);
  try {
    const page = await browser.context.newPage();
    await page.goto(srv.origin + url);
    await page.waitForFunction(({ tag, want }) => {
      const root = document.querySelector(tag)?.shadowRoot;
      const status = root?.querySelector('.embed-status')?.textContent ?? '';
      return root && want.every((w) => root.textContent.includes(w)) && /worker|main thread/.test(status);
    }, { tag, want }, { timeout: 30_000 });
    const status = await page.evaluate((tag) => document.querySelector(tag).shadowRoot.querySelector('.embed-status').textContent, tag);
    return { status, problems: browser.problems, requests: srv.requests };
  } finally {
    await browser.close();
    await srv.stop();
  }
}

test('the tarball installs offline and holds what its exports name', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(host, 'node_modules/attnlab/package.json'), 'utf8'));
  assert.equal(pkg.version, VERSION);
  for (const f of [pkg.exports['./widgets'].default, pkg.exports['./widgets'].types, pkg.exports['./frame.html']])
    assert.ok(fs.existsSync(path.join(host, 'node_modules/attnlab', f)), f);
});

test('plain HTML page: <attn-softmax-table> from node_modules/attnlab/dist shows the core\'s softmax', async () => {
  const { status, problems, requests } = await render(host, '/plain.html', 'attn-softmax-table', [SOFTMAX_14]);
  assert.match(status, /in a worker/);
  assert.deepEqual(problems, []);
  assert.ok(requests.some((r) => /^\/node_modules\/attnlab\/dist\/assets\/.*\.wasm$/.test(r)), 'the wasm came from the package');
});

test('TSX: the JSX declarations type-check with both React runtimes and refuse theme="blue"', async () => {
  const tsc = path.join(NM, 'typescript/bin/tsc');
  const [automatic, classic, bad] = await Promise.allSettled(['tsconfig.json', 'tsconfig.classic.json', 'tsconfig.bad.json']
    .map((c) => run(process.execPath, [tsc, '-p', c], { cwd: host })));
  const why = (r) => (r.status === 'rejected' ? `${r.reason.stdout}${r.reason.stderr}` : '');
  assert.equal(automatic.status, 'fulfilled', why(automatic));
  assert.equal(classic.status, 'fulfilled', why(classic));
  assert.equal(bad.status, 'rejected', 'theme="blue" type-checked');
  assert.match(bad.reason.stdout, /bad\.tsx\(2,\d+\): error TS2322: Type '"blue"' is not assignable to type 'AttnTheme/);
});

test('Vite build of a React page: <attn-saturation dk={256}> renders under a strict CSP, the core in a worker', async () => {
  const { build } = await import(path.join(NM, 'vite/dist/node/index.js'));
  // The host's own defaults: no config file, nothing about attnlab.
  await build({ root: host, configFile: false, logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true } });
  const assets = fs.readdirSync(path.join(host, 'dist/assets'));
  assert.ok(assets.some((f) => /^attnlab_explain_simd-.*\.wasm$/.test(f)), `the build emitted the wasm: ${assets}`);
  const worker = assets.find((f) => /^worker-.*\.js$/.test(f));
  assert.ok(worker, 'the build emitted the worker');
  // Bundled with its imports (the glue), not copied bare with imports of names that do not exist.
  assert.doesNotMatch(fs.readFileSync(path.join(host, 'dist/assets', worker), 'utf8'), /import\(["'`]\.\/attnlab_explain_simd-[\w-]+\.js["'`]\)/);

  const { status, problems, requests } = await render(path.join(host, 'dist'), '/index.html', 'attn-saturation', ['dₖ = 256']);
  assert.match(status, /in a worker/);
  assert.deepEqual(problems, []);
  assert.ok(requests.some((r) => /^\/assets\/worker-.*\.js$/.test(r)), 'the worker script was loaded');
});
