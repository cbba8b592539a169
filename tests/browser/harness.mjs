// Shared by the browser tests: serve web/dist with `vite preview` on a free
// 127.0.0.1 port (with the CSP header the site ships), and launch Debian's
// Chromium through playwright-core with flags that keep it off the network.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--font-render-hinting=none', '--force-color-profile=srgb',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `vite preview` of web/dist; resolves to {origin, stop()}. */
export async function startPreview() {
  if (!fs.existsSync(path.join(WEB, 'dist', 'index.html')))
    throw new Error('web/dist is missing: run scripts/build.sh first');
  const port = await freePort();
  const child = spawn(process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: WEB, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early:\n${log}`);
    try {
      if ((await fetch(origin + '/')).ok) return { origin, stop: () => child.kill() };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite preview did not answer on ${origin}:\n${log}`);
}

/**
 * A fresh Chromium profile. `problems` collects console errors, page errors and
 * any request that leaves `origin`; a test asserts it is empty at the end.
 */
export async function launch(origin, options = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    ...options,
  });
  const problems = [];
  context.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin)
      problems.push(`request to another origin: ${req.url()}`);
  });
  context.on('page', (page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error on ${page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
    page.on('worker', (w) => w.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`worker console error: ${msg.text()}`);
    }));
  });
  return {
    context,
    problems,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
