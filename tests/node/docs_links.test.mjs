// The docs by audience (issue 33): README.md is a short front page and each
// audience's detail lives in docs/*.md. Every relative Markdown link in them,
// `[text](path)`, `[text](path#anchor)` or `[text](#anchor)`, must reach a file
// that exists, and its anchor a heading of the target page as GitHub slugs it
// (lowercased; every character but letters, digits, spaces, hyphens and
// underscores dropped, so √ goes and CJK stays; spaces to hyphens; a repeated
// heading gets -1, -2, ...). Links inside fenced code blocks and inline code
// are not links; http(s):, mailto: and other schemes are not checked. And the
// README stays short enough to read in two minutes: at most 200 lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const README_MAX_LINES = 200;

/** README.md and every docs/*.md, as paths relative to the repository. */
function pages() {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

/** The lines of a Markdown text with fenced code blocks blanked (line numbers kept). */
function withoutFences(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) fence = null;
      return '';
    }
    if (marker) fence = marker;
    return marker ? '' : line;
  });
}

/** A text with its code spans blanked to spaces (newlines kept; a span never crosses a blank line). */
const blankCode = (text) => text.replace(/(`+)(?:(?!\n\s*\n)[^])*?\1/g, (s) => s.replace(/[^\n]/g, ' '));

/** GitHub's slug of a heading's text, before the duplicate suffix. */
export function slugBase(heading) {
  // Code spans keep their text as written; outside them, links become their
  // text and emphasis markers and inline HTML tags go.
  const plain = heading.split(/(`+[^`]*`+)/).map((part, i) => (i % 2
    ? part.replace(/^`+|`+$/g, '')
    : part
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/(\*\*|\*)(\S(?:.*?\S)?)\1/g, '$2')
      .replace(/(?<![\p{L}\p{N}])(__|_)(\S(?:.*?\S)?)\1(?![\p{L}\p{N}])/gu, '$2'))).join('');
  return plain.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Slugs in order, with GitHub's -1, -2 suffixes for repeats. */
export function slugs(headings) {
  const seen = new Map();
  return headings.map((h) => {
    const base = slugBase(h);
    let slug = base;
    while (seen.has(slug)) {
      const n = seen.get(base) + 1;
      seen.set(base, n);
      slug = `${base}-${n}`;
    }
    seen.set(slug, 0);
    return slug;
  });
}

/** Every anchor a Markdown page offers: its headings' slugs and explicit <a name|id>. */
export function anchors(text) {
  const lines = withoutFences(text);
  const headings = [];
  const explicit = [];
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) headings.push(atx[1] ?? '');
    else if (/^ {0,3}(=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1].trim() !== ''
      && !/^\s*([-*+]\s|\d+[.)]\s|#|\||>)/.test(lines[i - 1])) headings.push(lines[i - 1].trim());
    for (const m of line.matchAll(/<a\s[^>]*\b(?:name|id)="([^"]+)"/g)) explicit.push(m[1]);
  });
  return new Set([...slugs(headings), ...explicit]);
}

/** The relative links of a Markdown page, inline or reference definitions: [{line, target}]. */
export function links(text) {
  const prose = blankCode(withoutFences(text).join('\n'));
  const lineOf = (index) => prose.slice(0, index).split('\n').length;
  const found = [];
  // A link's text may wrap over lines; its destination has no blanks (or is in <...>).
  for (const m of prose.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>\n]*>|[^\s)]*)(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ line: lineOf(m.index), target: m[1].replace(/^<|>$/g, '') });
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) {
    found.push({ line: lineOf(m.index), target: m[1].replace(/^<|>$/g, '') });
  }
  return found.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

/** What is wrong with one relative link from page `from`, or null. */
export function brokenLink(from, target) {
  const hash = target.indexOf('#');
  const file = decodeURI(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = file === '' ? path.join(ROOT, from) : path.resolve(path.dirname(path.join(ROOT, from)), file);
  if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) return 'points outside the repository';
  if (!fs.existsSync(resolved)) return `no file ${path.relative(ROOT, resolved)}`;
  if (anchor === null) return null;
  if (!resolved.endsWith('.md')) return `anchor #${anchor} on a file that is not Markdown`;
  const offered = anchors(fs.readFileSync(resolved, 'utf8'));
  return offered.has(anchor) ? null : `no heading with the anchor #${anchor} in ${path.relative(ROOT, resolved)}`;
}

test('GitHub slugs: punctuation and symbols dropped, CJK kept, repeats numbered', () => {
  assert.equal(slugBase('Dependencies, and why each is there'), 'dependencies-and-why-each-is-there');
  assert.equal(slugBase("Stabilisers: soft-cap, QK-clip, T5's initialisation"), 'stabilisers-soft-cap-qk-clip-t5s-initialisation');
  assert.equal(slugBase('Which build runs: scalar, SIMD128, relaxed SIMD (FMA)'), 'which-build-runs-scalar-simd128-relaxed-simd-fma');
  assert.equal(slugBase('Which divisor did the model use? (the scale fit)'), 'which-divisor-did-the-model-use-the-scale-fit');
  assert.equal(slugBase('How multiply-adds round: `--madd`'), 'how-multiply-adds-round---madd');
  assert.equal(slugBase('`train` and `sweep`'), 'train-and-sweep');
  assert.equal(slugBase('Why attention divides by √d_k'), 'why-attention-divides-by-d_k');
  assert.equal(slugBase('简体中文 page'), '简体中文-page');
  assert.equal(slugBase('Var(q·k) = d_k²'), 'varqk--d_k');
  assert.equal(slugBase('d_k and d_v, *emphasis* and _this_'), 'd_k-and-d_v-emphasis-and-this');
  assert.deepEqual(slugs(['Limits', 'Limits', 'Limits-1', 'Limits']), ['limits', 'limits-1', 'limits-1-1', 'limits-2']);
});

test('link finder: code blocks, inline code and external links are not checked; anchors resolve', () => {
  const text = [
    '# Top', '', 'See [a](docs/x.md#y), [b](#top) and [c](https://example.com/#z).',
    '`[not](a-link.md)` and [wrapped', 'text](wrapped.md).', '', '```', '[in code](nowhere.md)', '```',
    '', '## Top', '', 'Setext', '------', '', '[ref]: defined.md',
  ].join('\n');
  assert.deepEqual(links(text).map((l) => l.target).sort(), ['#top', 'defined.md', 'docs/x.md#y', 'wrapped.md']);
  assert.deepEqual([...anchors(text)].sort(), ['setext', 'top', 'top-1']);
  assert.match(brokenLink('README.md', 'docs/no-such-page.md'), /no file docs\/no-such-page\.md/);
  assert.match(brokenLink('README.md', '#no-such-heading'), /no heading with the anchor #no-such-heading/);
});

for (const page of pages()) {
  test(`${page}: every relative link reaches a file, and every anchor a heading there`, () => {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    const broken = links(text)
      .map(({ line, target }) => ({ line, target, why: brokenLink(page, target) }))
      .filter((l) => l.why)
      .map((l) => `${page}:${l.line}: (${l.target}) ${l.why}`);
    assert.deepEqual(broken, []);
  });
}

test(`README.md has at most ${README_MAX_LINES} lines`, () => {
  const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
  assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines; move detail into docs/`);
});

test('every docs page says who it is for and links back to the README', () => {
  for (const page of pages().filter((p) => p.startsWith('docs/') && p !== 'docs/cli.md')) {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    assert.match(text, /^# \S.*\n\n\S/, `${page} starts with a one-line "# Title" and a sentence`);
    assert.ok(links(text).some((l) => l.target.startsWith('../README.md')), `${page} links back to ../README.md`);
  }
});
