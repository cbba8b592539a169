// The heatmaps' scrubber: a slider over the captures of a comparison that
// follows the newest capture until the reader moves it back. The run cards
// (run-cards.js) draw the capture it picks.
import { t } from '../../base/i18n.js';
import { h } from '../../base/dom.js';
import { int } from '../../base/format.js';
import './strings.js';

export function createScrubber(onInput) {
  const input = h('input', { type: 'range', id: 'lab-scrub', min: 0, max: 0, step: 1, value: 0, disabled: true,
    'aria-describedby': 'lab-scrub-out' });
  const out = h('output', { id: 'lab-scrub-out', for: 'lab-scrub' });
  let follow = true;
  input.addEventListener('input', () => {
    follow = Number(input.value) === Number(input.max);
    onInput();
  });
  return {
    input, out,
    /** The capture picked. */
    get capture() {
      return Number(input.value);
    },
    /** There are `captures` captures now (0: nothing to scrub yet). */
    setCaptures(captures) {
      if (captures === 0) return;
      input.disabled = false;
      input.max = String(captures - 1);
      if (follow) input.value = String(captures - 1);
    },
    showStep(step) {
      out.textContent = t('lab.maps.stepOut', { step: int(step) });
    },
    reset() {
      input.disabled = true;
      input.max = 0;
      input.value = 0;
      out.textContent = '';
    },
  };
}
