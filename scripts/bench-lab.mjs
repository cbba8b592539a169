// The lab's default comparison (d_k 256; √d_k, 2, 1; 1500 steps; Adam) end to
// end in headless Chromium, as a reader has it, with motion on and with
// reduced motion, alternating, on the same machine: the time from Start to
// "done" and the main thread's redraws. Drawing must not cost the runs: the
// motion-on time within 1.1× the reduced-motion one (issue 30). A benchmark,
// not a test (timings belong here): run it on a quiet machine after
// scripts/build.sh.
//   node scripts/bench-lab.mjs [--rounds N]
import { startPreview, launch } from '../tests/browser/harness.mjs';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 2;
const server = await startPreview();
const times = { 'no-preference': [], reduce: [] };
try {
  for (let r = 0; r < rounds; r++) {
    for (const motion of ['no-preference', 'reduce']) {
      const { context } = await launch(server.origin, { reducedMotion: motion });
      const page = await context.newPage();
      await page.goto(`${server.origin}/lab.html?lang=en`);
      await page.waitForSelector('#lab-start:not([disabled])');
      await page.waitForTimeout(1500);  // a reader reads the page first; the workers warm up meanwhile
      await page.click('#lab-start');
      await page.waitForFunction(() => document.getElementById('lab-status').dataset.state === 'done', null, { timeout: 600_000 });
      const ms = Number(await page.getAttribute('#lab-status', 'data-total-ms'));
      const draws = await page.evaluate(() => performance.getEntriesByName('lab:redraw').map((e) => e.duration));
      const busy = draws.reduce((a, b) => a + b, 0);
      times[motion].push(ms);
      console.log(`motion ${motion.padEnd(13)} ${(ms / 1000).toFixed(1)} s, ${draws.length} redraws, ${(busy / 1000).toFixed(2)} s of main thread drawing`);
      await context.close();
    }
  }
} finally {
  server.stop();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const on = median(times['no-preference']);
const off = median(times.reduce);
console.log(`median: motion on ${(on / 1000).toFixed(1)} s, reduced ${(off / 1000).toFixed(1)} s, ratio ${(on / off).toFixed(2)} (target ≤ 1.10)`);
