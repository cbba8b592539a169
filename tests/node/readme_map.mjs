// The README's one-screen map of the layers (its Contributing section), read
// as data so the layers tests keep it true: { web: {folder: layer}, cpp: {folder: layer} }.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

export function readmeMap(text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')) {
  const block = /```\n(web\/src\/ +cpp\/core\/\n[\s\S]*?)```/.exec(text);
  if (!block) throw new Error('README.md: no map of the layers (a code block headed "web/src/   cpp/core/")');
  const [head, ...lines] = block[1].split('\n');
  const split = head.indexOf('cpp/core/');
  const out = { web: {}, cpp: {} };
  const layer = { web: null, cpp: null };
  for (const line of lines) {
    for (const [side, part] of [['web', line.slice(0, split)], ['cpp', line.slice(split)]]) {
      const m = /^\s*(?:(\d)\s+)?(\S.*?)\s*$/.exec(part);
      if (!m) continue;
      if (m[1] !== undefined) layer[side] = Number(m[1]);
      const names = m[2].replace(/\([^)]*\)/g, '').split(/,\s*/).map((s) => s.trim()).filter(Boolean);
      for (const n of names) out[side][n] = layer[side];
    }
  }
  return out;
}
