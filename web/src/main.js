// The page: draws the first screen's live figure (hero.js), loads the
// custom elements of sections 1-5 one per task (section 6's loads on its Start button,
// page-training.js), fills the page's own text, and relabels the rest when the language changes. Every widget talks to
// the one core worker (core/client.js); each works alone on a page too.
import './style.css';
import './page.css';
import './page-strings.js';
import './nav-strings.js';
import { client } from './core/client.js';
import { applyDocument, onLangChange } from './i18n.js';
import { getParam } from './url.js';
import * as langSwitch from './widgets/lang-switch.js';
import * as buildInfo from './widgets/build-info.js';
import * as training from './page-training.js';
import * as hero from './hero.js';
import { loadInTurn } from './stagger.js';
import { whenNear } from './dom.js';
import './seen.js';

const byId = (id) => document.getElementById(id);

applyDocument();
const widgets = [
  langSwitch.mount(byId('lang-switch')),
  buildInfo.mount(byId('build-info'), client),
  training.mount(),
  hero.mount(byId('hero'), client),
];
onLangChange(() => widgets.forEach((w) => w.relabel()));
// "What real models divide by": its code and its wasm module (the presets')
// load when the section nears the screen, so the first load holds neither.
const presets = byId('presets');
if (presets) whenNear(presets, () => import('./presets-table.js')
  .then((m) => widgets.push(m.mount(presets, document.querySelector('attn-saturation')))));
// Sections 1-5's figures, one task each (stagger.js). The seed's table comes
// last: its numbers, the core's answer after it is defined, then mean every
// widget is there (a reader or a test waiting for them finds the others too).
loadInTurn([
  () => import('./widgets/attn-chain.js'),
  () => import('./widgets/attn-variance.js'),
  () => import('./widgets/attn-proof.js'),
  () => import('./widgets/attn-saturation.js'),
  () => import('./widgets/attn-softmax-table.js'),
]).then(() => {
  // A shared link to the saturation explorer's view against n (sat.x=n) opens
  // it: the page's work, so an embedded widget's first load carries none of it.
  for (const el of document.querySelectorAll('attn-saturation[url-state]'))
    if (getParam(`${el.getAttribute('url-state')}.x`) === 'n') el.loadLength();
});
