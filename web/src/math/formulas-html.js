// The formulas typeset at build time, without KaTeX's stylesheet: an embedded
// widget shows their MathML only (math.js), so a host page gets no KaTeX CSS
// and no fonts.
export { default } from 'virtual:attn-formulas';
