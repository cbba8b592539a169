// Footer line: which wasm build runs (relaxed SIMD, SIMD128 or scalar, from
// the core's own buildInfo()) and that all computing happens in the browser;
// where the multiply-adds are fused, the CLI option that gives the same
// numbers (--madd fused). The dot kernel's name goes in data-kernel only.
// mount(element, client) -> {relabel()}
import { buildName } from '../bridge/build-names.js';
import { defineStrings, t } from '../base/i18n.js';

defineStrings('build', {
  en: {
    loading: 'Loading the WebAssembly core…',
    ready:
      'Every number on this page is computed in your browser by the C++ core compiled to WebAssembly ({build} build). Nothing is sent to a server.',
    failed: 'The WebAssembly core could not be loaded: {message}',
    fused: ' Its multiply-adds are fused (one rounding each), so the command-line tool gives these numbers with --madd fused.',
  },
  zh: {
    loading: '正在加载 WebAssembly 计算核心…',
    ready:
      '本页的每个数字都由编译为 WebAssembly 的 C++ 核心在你的浏览器中计算（{build} 版本），不会向服务器发送任何数据。',
    failed: '无法加载 WebAssembly 计算核心：{message}',
    fused: '它的乘加是融合的（每次只舍入一次），所以命令行工具加 --madd fused 给出同样的数字。',
  },
});

export function mount(root, client) {
  let info = null;
  let error = null;

  function render() {
    if (error) root.textContent = t('build.failed', { message: error });
    else if (!info) root.textContent = t('build.loading');
    else
      root.textContent = t('build.ready', { build: buildName(info.build) }) + (info.madd === 'fused' ? t('build.fused') : '');
    // The dot kernel's name is for tests and the curious (devtools), not the reader's text.
    root.dataset.build = info ? info.build : '';
    root.dataset.kernel = info?.dotKernel ?? '';
    root.dataset.madd = info?.madd ?? '';
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
