// Starting a module worker from a script that may live on another origin (an
// embedded widget): a worker script on another origin cannot be started
// directly, so a same-origin blob: module imports it (the host's CSP then
// needs worker-src blob: and the script's origin: a module worker's
// imports are checked against worker-src). Where the host's CSP, as far as a <meta> shows it,
// allows no blob: worker, we do not try (no violation report); a CSP sent as a
// header is found out by trying, and the caller falls back to the main thread.

// Might one CSP source expression allow `url`? Generous on purpose ('https:',
// '*', a source naming the host, a wildcard host): where it is wrong, the
// worker fails to start and the caller falls back to the main thread anyway.
const mayAllow = (src, url) => src === '*' || src === url.protocol || src.includes(url.hostname) || src.includes('*.');

/**
 * Does a <meta> CSP on this page forbid our blob: worker for the script at
 * `scriptUrl`? (A header CSP cannot be read.) The worker needs blob: and,
 * since a module worker's imports are checked against worker-src too, a
 * source that allows the script's URL.
 */
export function metaCspForbidsBlobWorkers(scriptUrl, doc = globalThis.document) {
  const url = new URL(scriptUrl);
  const metas = doc?.querySelectorAll?.('meta[http-equiv="Content-Security-Policy" i]') ?? [];
  for (const m of metas) {
    const dirs = new Map(String(m.content).split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0])
      .map(([name, ...src]) => [name.toLowerCase(), src.map((x) => x.toLowerCase())]));
    // worker-src falls back to child-src, then script-src, then default-src.
    const src = ['worker-src', 'child-src', 'script-src', 'default-src'].map((d) => dirs.get(d)).find(Boolean);
    if (!src) continue;
    if (!src.includes('blob:') && !src.includes('*')) return true;
    if (!src.some((x) => mayAllow(x, url))) return true;
  }
  return false;
}

/**
 * A module Worker running the script at `url`: directly when it is on this
 * page's origin, else through a blob: module. Throws where that cannot work.
 */
export function startWorker(url, name) {
  const u = new URL(url, location.href);
  if (u.origin === location.origin) return new Worker(u, { type: 'module', name });
  if (metaCspForbidsBlobWorkers(u.href)) throw new Error('this page\'s Content-Security-Policy allows no blob: worker');
  const blob = new Blob([`import ${JSON.stringify(u.href)};\n`], { type: 'text/javascript' });
  return new Worker(URL.createObjectURL(blob), { type: 'module', name });
}
