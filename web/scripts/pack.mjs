// The npm package "attnlab" (scripts/build.sh runs this after the embed build):
//   web/dist/npm/package/        the package as packed: package.json (version from
//                                web/package.json), README.md, widgets.d.ts, dist/
//   web/dist/npm/attnlab-<version>.tgz   `npm pack` of that folder
// The package's dist/ is the embed (vite.embed.config.js) built once more
// (with no module preload, as the embed itself: a preload helper's lists of
// chunk paths would be wrong once a host's bundler renames the chunks), with
// one difference that only matters when another bundler bundles it again:
// - the worker's URL is spelled as `new Worker(new URL('./worker-….js',
//   import.meta.url), {type: 'module'})`, the pattern Vite recognises in a
//   dependency: the host's build then bundles the worker with its imports
//   (the wasm glue, whose .wasm files it emits too). With the plain
//   `new URL('worker-….js', import.meta.url)` of the embed, Vite copies the
//   worker as a bare file whose imports of the glue point at names that no
//   longer exist, and every call to the core fails. The `Worker` in that
//   expression is a local class that only records the URL it is given: the
//   worker is still started by bridge/spawn.js (same origin directly, else
//   through a blob: module), as in the embed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, mergeConfig } from 'vite';
import embedConfig from '../vite.embed.config.js';

const WEB = fileURLToPath(new URL('../', import.meta.url));
const TEMPLATE = path.join(WEB, 'package');
const OUT = path.join(WEB, 'dist', 'npm');
const STAGE = path.join(OUT, 'package');

/** Each `new URL('worker-….js', import.meta.url)` of the build, in the form Vite bundles as a worker. */
export function spellWorkerForBundlers(code) {
  const re = /new URL\((["'`])(worker-[\w-]+\.js)\1,\s*import\.meta\.url\)/g;
  let n = 0;
  const out = code.replace(re, (_, _q, file) => {
    n++;
    return `(()=>{let u;{const Worker=class{constructor(x){u=x}};new Worker(new URL("./${file}",import.meta.url),{type:"module"})}return u})()`;
  });
  return { code: out, count: n };
}

async function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(WEB, 'package.json'), 'utf8'));
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(STAGE, { recursive: true });

  await build(mergeConfig(embedConfig, {
    configFile: false,
    logLevel: 'warn',
    build: { outDir: path.join(STAGE, 'dist'), emptyOutDir: true, modulePreload: false, rolldownOptions: { checks: { pluginTimings: false } } },
  }));

  // Each worker file is named exactly once (the core's worker, the training
  // worker); anything else means the embed changed how it starts them.
  const assets = path.join(STAGE, 'dist', 'assets');
  let found = 0;
  for (const f of fs.readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const file = path.join(assets, f);
    const { code, count } = spellWorkerForBundlers(fs.readFileSync(file, 'utf8'));
    if (count) fs.writeFileSync(file, code);
    found += count;
  }
  const workers = fs.readdirSync(assets).filter((f) => /^worker-[\w-]+\.js$/.test(f)).length;
  if (workers === 0 || found !== workers)
    throw new Error(`pack: expected one new URL('worker-….js', import.meta.url) per worker (${workers}) in the build, found ${found}`);

  for (const f of ['README.md', 'widgets.d.ts']) fs.copyFileSync(path.join(TEMPLATE, f), path.join(STAGE, f));
  const manifest = JSON.parse(fs.readFileSync(path.join(TEMPLATE, 'package.json'), 'utf8'));
  manifest.version = pkg.version;
  fs.writeFileSync(path.join(STAGE, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

  const out = execFileSync('npm', ['pack', '--json', '--offline', '--ignore-scripts', '--pack-destination', OUT],
    { cwd: STAGE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [{ filename, size, entryCount }] = JSON.parse(out);
  console.log(`npm package: web/dist/npm/${filename} (${entryCount} files, ${(size / 1024).toFixed(0)} kB)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
