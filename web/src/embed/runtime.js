// What the embed entry (attnlab.js) sets up before the first widget module
// loads: widgets render in shadow roots styled by constructable stylesheets
// (a host's strict style-src allows them; no <style> tag, no style
// attribute), the footer's status line, and the default language (the host's <html lang>,
// else the browser's), with nothing written to the host's URL or storage.
import pageCss from '../style.css?inline';
import embedCss from './embed.css?inline';
import { browserLang, langOfTag, useLang } from '../i18n.js';
import { embedding } from '../widgets/element.js';
import { useMathMLOnly } from '../math/math.js';

function sheet(text) {
  const s = new CSSStyleSheet();
  s.replaceSync(text);
  return s;
}

export function setUp(scriptUrl) {
  if (embedding.on) return;
  embedding.on = true;
  embedding.scriptUrl = scriptUrl;
  embedding.sheets = [sheet(pageCss), sheet(embedCss)];
  useMathMLOnly();
  useLang(langOfTag(document.documentElement.getAttribute('lang')) ?? browserLang());
}
