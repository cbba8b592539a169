// A small static file server for the embed tests: web/dist/embed on one
// origin (with or without CORS headers), host pages on another (with the CSP
// a test gives), each on its own free 127.0.0.1 port. Node's http module only:
// `vite preview` cannot serve two origins with different headers.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2', '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serve `dir` (and `pages`: {'/path': html string}) on 127.0.0.1.
 * headers(urlPath) -> extra response headers; missing(urlPath) -> true answers
 * 404 (a broken deployment); requests: every request path.
 * Resolves to {origin, requests, stop()}.
 */
export function serveStatic({ dir = null, pages = {}, headers = () => ({}), missing = () => false } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push(url.pathname + url.search);
    const extra = headers(url.pathname);
    const send = (status, type, body) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...extra });
      res.end(body);
    };
    if (Object.hasOwn(pages, url.pathname))
      return send(200, TYPES[path.extname(url.pathname)] ?? TYPES['.html'], pages[url.pathname]);
    if (!dir || missing(url.pathname)) return send(404, TYPES['.txt'], 'not found');
    const file = path.join(dir, decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return send(404, TYPES['.txt'], 'not found');
    send(200, TYPES[path.extname(file)] ?? 'application/octet-stream', fs.readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ origin, requests, stop: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * page.goto(url), and once more if the browser aborted one of its scripts
 * (attnlab.js, frame.js: net::ERR_ABORTED). Under load (two test files side by
 * side on two cores) headless Chromium sometimes cancels that request on a
 * fresh page, about one page in fifteen, with any server and any headers;
 * nothing of the page's then runs. A refusal (no CORS: net::ERR_FAILED) is
 * not retried. Returns the number of reloads.
 */
export async function gotoEmbedPage(page, url) {
  const aborted = [];
  const watch = (r) => {
    if (/\.js(\?|$)/.test(r.url()) && r.failure()?.errorText === 'net::ERR_ABORTED') aborted.push(r.url());
  };
  page.on('requestfailed', watch);
  try {
    await page.goto(url);
    if (!aborted.length) return 0;
    aborted.length = 0;
    await page.reload();
    return 1;
  } finally {
    page.off('requestfailed', watch);
  }
}
