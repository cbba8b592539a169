// What an embedded widget says when its setup fails (diagnose.js, loaded
// only then): one sentence per cause, naming the fix. {base} is the folder of
// attnlab.js, {origin} its origin, {url} the file that failed. The status line
// of a working widget that had to do without something (a worker, the right
// MIME type) adds its sentence after "Computed … on the main thread."
// No DOM code (tests/node/strings.test.mjs loads it).
import { defineStrings } from '../base/i18n.js';

defineStrings('setup', {
  en: {
    'cors.code': 'attnlab.js loaded, but not the widget’s code ({url}): the server sends Access-Control-Allow-Origin on attnlab.js only. Every file under {base} needs it (the JS in assets/, the worker, the .wasm).',
    'cors.worker': 'The worker script ({url}) comes without Access-Control-Allow-Origin, so no worker could start. Send that header on every file under {base}.',
    'cors.wasm': 'The WebAssembly core ({url}) comes without Access-Control-Allow-Origin, so the browser refuses it and the widget cannot compute. Send that header on every file under {base}, the .wasm included.',
    connectSrc: 'This page’s Content-Security-Policy does not let it download the WebAssembly core, so the widget cannot compute: add {origin} to connect-src.',
    workerSrc: 'This page’s Content-Security-Policy allows no worker from {origin}: add worker-src blob: {origin} for one.',
    wasmEval: 'This page’s Content-Security-Policy forbids compiling WebAssembly, so the widget cannot compute: add \'wasm-unsafe-eval\' to script-src.',
    scriptSrc: 'This page’s Content-Security-Policy does not allow scripts from {origin}, so attnlab.js cannot run: add {origin} to script-src.',
    file: 'This page is opened from a file (file://), where the browser starts no worker. Serve it over http(s) instead, for example with python3 -m http.server.',
    'mime.wasm': 'The server sends the WebAssembly core ({url}) as “{type}”, not application/wasm, so the browser compiles it later and more slowly. Serve .wasm files as application/wasm.',
    'mime.code': 'The server sends {url} as “{type}”, which the browser does not run as a module script, so the widget cannot load. Serve .js files as text/javascript.',
    missing: '{url} is not on the server (HTTP {status}): upload all of {base} from one build (attnlab.js with its assets/ folder).',
    unreachable: 'The server of {url} did not answer, so the widget cannot load. Check that {origin} is up and reachable from this page.',
    'unknown.code': 'The widget’s code could not load ({message}). Every file under {base} needs Access-Control-Allow-Origin, and this page’s Content-Security-Policy must allow {origin} in script-src.',
    'unknown.core': 'The WebAssembly core could not load ({message}). Every file under {base} needs Access-Control-Allow-Origin, and this page’s Content-Security-Policy needs {origin} in script-src and connect-src, and \'wasm-unsafe-eval\'.',
    'unknown.worker': 'No worker could start ({message}).',
  },
  zh: {
    'cors.code': 'attnlab.js 已加载，但组件代码（{url}）没有加载：服务器只为 attnlab.js 发送了 Access-Control-Allow-Origin。{base} 下的每个文件都需要它（assets/ 中的 JS、Worker 和 .wasm）。',
    'cors.worker': 'Worker 脚本（{url}）没有 Access-Control-Allow-Origin，因此无法启动 Worker。请为 {base} 下的每个文件发送该响应头。',
    'cors.wasm': 'WebAssembly 计算核心（{url}）没有 Access-Control-Allow-Origin，浏览器拒绝加载，组件无法计算。请为 {base} 下的每个文件（包括 .wasm）发送该响应头。',
    connectSrc: '本页的内容安全策略（CSP）不允许下载 WebAssembly 计算核心，组件无法计算：请把 {origin} 加入 connect-src。',
    workerSrc: '本页的内容安全策略（CSP）不允许来自 {origin} 的 Worker：加上 worker-src blob: {origin} 即可启用。',
    wasmEval: '本页的内容安全策略（CSP）禁止编译 WebAssembly，组件无法计算：请在 script-src 中加入 \'wasm-unsafe-eval\'。',
    scriptSrc: '本页的内容安全策略（CSP）不允许来自 {origin} 的脚本，attnlab.js 无法运行：请把 {origin} 加入 script-src。',
    file: '本页是以文件（file://）方式打开的，浏览器在这种情况下不启动 Worker。请改用 http(s) 提供本页，例如 python3 -m http.server。',
    'mime.wasm': '服务器以“{type}”而不是 application/wasm 发送 WebAssembly 计算核心（{url}），浏览器因此编译得更晚、更慢。请以 application/wasm 提供 .wasm 文件。',
    'mime.code': '服务器以“{type}”发送 {url}，浏览器不会把它当作模块脚本运行，组件无法加载。请以 text/javascript 提供 .js 文件。',
    missing: '服务器上没有 {url}（HTTP {status}）：请上传同一次构建的整个 {base}（attnlab.js 及其 assets/ 文件夹）。',
    unreachable: '{url} 所在的服务器没有响应，组件无法加载。请检查 {origin} 是否在运行、本页能否访问它。',
    'unknown.code': '组件代码无法加载（{message}）。{base} 下的每个文件都需要 Access-Control-Allow-Origin，且本页的内容安全策略（CSP）须在 script-src 中允许 {origin}。',
    'unknown.core': 'WebAssembly 计算核心无法加载（{message}）。{base} 下的每个文件都需要 Access-Control-Allow-Origin，且本页的内容安全策略（CSP）须在 script-src 和 connect-src 中包含 {origin}，并包含 \'wasm-unsafe-eval\'。',
    'unknown.worker': '无法启动 Worker（{message}）。',
  },
});
