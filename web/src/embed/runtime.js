// What the embed entry (attnlab.js) sets up before the first widget module
// loads: widgets render in shadow roots styled by constructable stylesheets
// (a host's strict style-src allows them; no <style> tag, no style
// attribute), the footer's status line, and the default language (the host's <html lang>,
// followed when it changes, else the browser's), with nothing written to the host's URL or storage.
import pageCss from '../base/style.css?inline';
import embedCss from './embed.css?inline';
import { browserLang, langOfTag, useLang } from '../base/i18n.js';
import { embedding } from '../widgets/element.js';
import { mathMode } from '../math/mode.js';
import { buildFromUrl } from '../bridge/build.js';

// rem is the host's root font size, which a host may set to anything (a
// `* { font: 40px serif !important }` theme makes it 40px): inside a widget,
// every rem becomes a multiple of --attn-rem (embed.css: 16px, or the host's
// --attn-font-size).
const ownRem = (css) => css.replace(/(\d*\.?\d+)rem\b/g, 'calc($1 * var(--attn-rem))');

// A width @media asks about the host's viewport; an embedded widget asks about
// its own width instead (a container query on .attn-root, embed.css), so it
// takes its narrow layout in a host's narrow column, and on a phone. It runs
// before ownRem: a query cannot hold var(), so its rem become px (16 each).
// (The build writes them either way: (max-width: 46rem) or (width<=736px).)
const ownWidth = (css) => css.replace(/@media\s*(\(\s*(?:max-width|min-width|width)\s*(?::|<=|>=|<|>)\s*\d*\.?\d+(?:rem|px)\s*\))/g,
  (m, query) => `@container attn ${query.replace(/(\d*\.?\d+)rem/, (r, x) => `${Number(x) * 16}px`)}`);

/** The embed's version of a stylesheet: its own widths and rem. */
export const forEmbed = (text) => ownRem(ownWidth(text));

function sheet(text) {
  const s = new CSSStyleSheet();
  s.replaceSync(forEmbed(text));
  return s;
}

export function setUp(scriptUrl) {
  if (embedding.on) return;
  embedding.on = true;
  embedding.scriptUrl = scriptUrl;
  embedding.sheets = [sheet(pageCss), sheet(embedCss)];
  embedding.sheet = sheet;
  mathMode.mathmlOnly = true;
  buildFromUrl.on = false;
  const html = document.documentElement;
  const follow = () => useLang(langOfTag(html.getAttribute('lang')) ?? browserLang());
  follow();
  // A host that changes <html lang> later (its own language switch): every
  // widget without a lang of its own follows (widgetLang reads it again).
  new MutationObserver(() => {
    follow();
    for (const el of embedding.live) el.refreshText();
  }).observe(html, { attributeFilter: ['lang'] });
}
