// The page: mounts each widget on its element and relabels them all when the
// language changes. All core work goes through one worker (core/client.js).
import './style.css';
import { client } from './core/client.js';
import { applyDocument, onLangChange } from './i18n.js';
import * as langSwitch from './widgets/lang-switch.js';
import * as seedTable from './widgets/seed-table.js';
import * as dkSlider from './widgets/dk-slider.js';
import * as buildInfo from './widgets/build-info.js';

const byId = (id) => document.getElementById(id);

applyDocument();
const widgets = [
  langSwitch.mount(byId('lang-switch')),
  seedTable.mount(byId('seed-table'), client),
  dkSlider.mount(byId('dk-slider'), client),
  buildInfo.mount(byId('build-info'), client),
];
onLangChange(() => widgets.forEach((w) => w.relabel()));
