// How tall each widget's iframe (embed/frame.html) must be to show it without
// a scrollbar, by the width of the column it sits in: measured in headless
// Chromium with each widget's default attributes, the largest of English and
// Chinese at this width and the next one measured (a width between two takes
// the narrower's row), plus 3% (the saturation explorer 5%: its distribution
// view loads when it reaches the screen, and its height varied by 60 px
// between runs). tests/browser/embed-frames.test.mjs loads
// each widget at 375 and 800 px in an iframe of this height and fails,
// printing what it measured, when one has outgrown its entry. The Embed
// panel's iframe snippet and the docs' examples start at this height; the
// frame's resize messages (the snippet's one-line listener) then follow the
// content (a table opened, a run's charts). No DOM code.
export const FRAME_WIDTHS = [320, 375, 480, 640, 800, 1024];

export const FRAME_HEIGHTS = {
  'attn-chain': [1560, 1560, 1500, 1470, 1060, 1060],
  'attn-variance': [2260, 2100, 1920, 1790, 1230, 1120],
  'attn-proof': [1190, 1080, 1000, 900, 710, 630],
  'attn-softmax-table': [2050, 1820, 1750, 1530, 770, 700],
  'attn-saturation': [3760, 3670, 3510, 2770, 2750, 2280],
  'attn-train-compare': [1660, 1550, 1360, 1080, 980, 930],
};

/** The iframe height (px) for widget `tag` in a column `width` px wide (at least 320). */
export function frameHeight(tag, width) {
  const row = FRAME_HEIGHTS[tag];
  if (!row) return 600;
  let i = 0;
  while (i + 1 < FRAME_WIDTHS.length && FRAME_WIDTHS[i + 1] <= width) i++;
  return row[i];
}

/** The one-line listener the iframe snippet carries: each attnlab frame from `origin` takes the height it reports. */
export const resizeListener = (origin) => `<script>addEventListener('message', (e) => { if (e.origin === '${origin}' && e.data?.type === 'attnlab:resize') for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });</script>`;
