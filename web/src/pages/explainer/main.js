// The page: draws the first screen's live figure (hero.js), loads the
// custom elements of sections 1-5 one per task (section 6's loads on its Start button,
// page-training.js), fills the page's own text, and relabels the rest when the language changes. Every widget talks to
// the one core worker (bridge/client.js); each works alone on a page too.
import '../../base/style.css';
import '../site/page.css';
import './page-strings.js';
import '../site/nav-strings.js';
import { client } from '../../bridge/client.js';
import { applyDocument, onLangChange, t } from '../../base/i18n.js';
import { getParam } from '../../base/url.js';
import * as langSwitch from '../../widgets/lang-switch.js';
import * as buildInfo from '../../widgets/build-info.js';
import * as training from './page-training.js';
import * as hero from './hero.js';
import { loadInTurn } from './stagger.js';
import { whenNear } from '../../base/dom.js';
import { mathNodes } from '../../widgets/math-text.js';
import { embedding } from '../../widgets/element.js';
import { drawWhenNear } from './seen.js';

const byId = (id) => document.getElementById(id);

// The prose's math (σ_q²σ_k², W_Q) as sub- and superscripts, as scripts/static-text.mjs writes it at build time.
const mathProse = () => {
  for (const el of document.querySelectorAll('[data-i18n^="page."]')) {
    const text = t(el.dataset.i18n);
    if (/[_^]/.test(text)) el.replaceChildren(...mathNodes(text));
  }
};
// A figure off screen draws its progress when it comes near (seen.js).
embedding.drawWhen = drawWhenNear;
applyDocument();
mathProse();
const widgets = [
  { relabel: mathProse },
  langSwitch.mount(byId('lang-switch')),
  buildInfo.mount(byId('build-info'), client),
  training.mount(),
  hero.mount(byId('hero'), client),
];
onLangChange(() => widgets.forEach((w) => w.relabel()));
// "What real models divide by": its code and its wasm module (the presets')
// load when the section is two screens away, so the first load holds neither
// and a reader who scrolls finds its rows there (its numbers follow, in place).
const presets = byId('presets');
if (presets) whenNear(presets, () => import('./presets-table.js')
  .then((m) => widgets.push(m.mount(presets, document.querySelector('attn-saturation')))), '200%');
// Sections 1-5's figures, one task each (stagger.js). The seed's table comes
// last: its numbers, the core's answer after it is defined, then mean every
// widget is there (a reader or a test waiting for them finds the others too).
loadInTurn([
  () => import('../../widgets/attn-chain.js'),
  () => import('../../widgets/attn-variance.js'),
  () => import('../../widgets/attn-proof.js'),
  () => import('../../widgets/attn-saturation.js'),
  () => import('../../widgets/attn-softmax-table.js'),
]).then(() => {
  // A shared link to the saturation explorer's view against n (sat.x=n) opens
  // it: the page's work, so an embedded widget's first load carries none of it.
  // Otherwise its distribution view loads as the explorer nears the screen,
  // not when the view itself does: its charts are drawn before a reader
  // scrolling down reaches them (the embed loads it when its place is seen).
  for (const el of document.querySelectorAll('attn-saturation[url-state]'))
    if (getParam(`${el.getAttribute('url-state')}.x`) === 'n') el.loadLength();
    else whenNear(el, () => el.loadDist(), '100%');
});
