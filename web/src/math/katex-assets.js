// The lazy half of math.js: KaTeX's stylesheet (and through it the fonts,
// emitted by Vite as same-origin files) and the formulas typeset at build time.
import 'katex/dist/katex.min.css';
export { default } from 'virtual:attn-formulas';
