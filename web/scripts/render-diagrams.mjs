// Renders the Mermaid sources in web/src/diagrams/*.mmd to self-contained SVG
// files beside them, in headless Chromium (Debian's, driven by playwright-core),
// so the page ships a 10-odd kB SVG and never the Mermaid runtime.
//
// Under the page's CSP (style-src 'self') an inline SVG's <style> element and
// style="…" attributes are ignored, so each element's computed style is
// written back as SVG presentation attributes and every <style> and style
// attribute is removed; the page stylesheet then themes the result (its rules
// beat presentation attributes), for light and dark schemes.
//
// An SVG records the SHA-256 of its source (and of this script) in
// data-source-hash; a source whose hash matches is skipped, so a build needs
// Chromium only after a .mmd changes. The SVGs are committed.
//
//   node scripts/render-diagrams.mjs [--force]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(WEB, 'src', 'diagrams');
const require = createRequire(import.meta.url);
const force = process.argv.includes('--force');

const self = fs.readFileSync(fileURLToPath(import.meta.url));
const jobs = fs.readdirSync(DIR).filter((f) => f.endsWith('.mmd')).map((f) => {
  const src = fs.readFileSync(path.join(DIR, f), 'utf8');
  const hash = crypto.createHash('sha256').update(src).update(self).digest('hex').slice(0, 16);
  const out = path.join(DIR, f.replace(/\.mmd$/, '.svg'));
  const current = fs.existsSync(out) && fs.readFileSync(out, 'utf8').includes(`data-source-hash="${hash}"`);
  return { f, src, hash, out, current };
});
const todo = jobs.filter((j) => force || !j.current);
if (todo.length === 0) {
  console.log(`diagrams: ${jobs.length} SVG(s) up to date`);
  process.exit(0);
}

const { chromium } = require('playwright-core');
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-mermaid-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--font-render-hinting=none'],
});
try {
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ path: require.resolve('mermaid/dist/mermaid.min.js') });
  for (const job of todo) {
    const id = `chain-${path.basename(job.f, '.mmd').split('.').pop()}`;
    const svg = await page.evaluate(async ({ src, id }) => {
      /* global mermaid */
      mermaid.initialize({
        startOnLoad: false,
        securityLevel: 'loose', // lets `click X href` make links; this runs at build time only
        theme: 'base',
        htmlLabels: false, // SVG <text>, not <foreignObject> HTML
        flowchart: { htmlLabels: false, curve: 'basis', padding: 12, nodeSpacing: 30, rankSpacing: 36 },
        fontFamily: 'system-ui, "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif',
        themeVariables: { fontSize: '15px', primaryColor: '#f5f5f8', primaryBorderColor: '#55555f', lineColor: '#55555f', primaryTextColor: '#1b1b1f' },
      });
      const { svg } = await mermaid.render(id, src);
      const host = document.createElement('div');
      host.innerHTML = svg;
      document.body.replaceChildren(host);
      const root = host.querySelector('svg');
      const PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
        'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline'];
      // Write a property where it differs from what the element would inherit
      // (or, for opacity, the only one not inherited, from its initial value):
      // the same rendering with few attributes.
      const INITIAL = { opacity: '1' };
      const all = [root, ...root.querySelectorAll('*')];
      const computed = new Map(all.map((el) => {
        const cs = getComputedStyle(el);
        return [el, Object.fromEntries(PROPS.map((p) => [p, cs.getPropertyValue(p)]))];
      }));
      for (const el of all) {
        const mine = computed.get(el);
        const parent = el === root ? null : computed.get(el.parentElement);
        for (const p of PROPS) {
          const v = mine[p];
          const inherited = p === 'opacity' ? INITIAL.opacity : parent ? parent[p] : null;
          if (v && v !== inherited) el.setAttribute(p, v);
        }
      }
      for (const s of root.querySelectorAll('style')) s.remove();
      for (const el of [root, ...root.querySelectorAll('[style]')]) el.removeAttribute('style');
      // Size from the viewBox; the page scales it to the column width.
      const vb = root.getAttribute('viewBox').split(/\s+/).map(Number);
      root.setAttribute('width', String(Math.ceil(vb[2])));
      root.setAttribute('height', String(Math.ceil(vb[3])));
      root.removeAttribute('aria-roledescription');
      return root.outerHTML;
    }, { src: job.src, id });
    if (/<style|\sstyle=/.test(svg)) throw new Error(`${job.f}: inline styles left in the SVG`);
    if (/<script|on\w+="/i.test(svg)) throw new Error(`${job.f}: script in the SVG`);
    const out = svg.replace('<svg ', `<svg data-source-hash="${job.hash}" `);
    fs.writeFileSync(job.out, out + '\n');
    console.log(`diagrams: ${path.relative(WEB, job.out)} (${out.length} bytes)`);
  }
} finally {
  await context.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
