// Footer line: which wasm build runs (SIMD128 or scalar, from the core's own
// buildInfo()) and that all computing happens in the browser.
// mount(element, client) -> {relabel()}
import { t } from '../i18n.js';

export function mount(root, client) {
  let info = null;
  let error = null;

  function render() {
    if (error) root.textContent = t('footer.failed', { message: error });
    else if (!info) root.textContent = t('footer.loading');
    else
      root.textContent = t('footer.ready', {
        build: t(info.simd ? 'build.simd' : 'build.scalar'),
        kernel: info.dotKernel,
      });
    root.dataset.build = info ? (info.simd ? 'simd' : 'scalar') : '';
  }

  render();
  client.call('buildInfo').then(
    (r) => {
      info = r;
      render();
    },
    (e) => {
      error = e.message;
      render();
    },
  );
  return { relabel: render };
}
