// How formulas are shown: KaTeX's HTML with its stylesheet (the site), or the
// browser's MathML alone (the embed; embed/runtime.js sets it). A module of
// its own, so setting it does not load the formulas.
export const mathMode = { mathmlOnly: false };
