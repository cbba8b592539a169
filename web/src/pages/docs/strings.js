// The embed docs page's text (embed.html's data-i18n and data-docs keys, all
// under 'docs.'), in English and Simplified Chinese. Text between backticks
// is shown as code (docs/main.js). The attribute tables themselves are built
// from the widgets' `static options`, so only their column names live here.
import { defineStrings } from '../../base/i18n.js';

defineStrings('docs', {
  en: {
    title: 'Embedding the widgets',
    lede:
      'Every figure of the explainer is a custom element you can put in your own page, tutorial or notebook. One script tag defines them; each computes its numbers with the same C++ core, compiled to WebAssembly, running in the reader’s browser. Each example below is live.',
    skip: 'Skip to the content',
    back: 'Back to the explainer',
    example: 'Read a sample tutorial that uses them',
    'toc.heading': 'Contents',
    'toc.start': 'Quick start',
    'toc.elements': 'The elements',
    'toc.common': 'Common attributes and events',
    'toc.theme': 'Theming',
    'toc.iframe': 'The iframe',
    'toc.hosting': 'Serving the script',
    'toc.tutorials': 'Where tutorials live',
    'toc.trouble': 'When a widget does not show',

    'start.intro':
      'Add the script once, anywhere in the page (a module script runs after the page is parsed), then write the elements where the figures should go, each with its closing tag. Only the code of the elements the page uses is loaded, when they appear. The sentence inside each element (slot="fallback") shows until the widget starts, and stays where the script could not run, saying why (see below).',
    'start.after':
      'The script touches nothing outside the elements: no global CSS, no ids, no URL or storage. Each element renders in a shadow root and speaks the language of its `lang` attribute, else of the nearest `lang` around it (the page’s `<html lang>`), else the reader’s browser. Elements added later (a framework rendering, a step revealed) are found too; inside your own shadow roots call `discover(root)` from the same module.',

    'elements.intro':
      'For each element: what it shows, a live example, its attributes (read from the element’s code as this page runs, so the table cannot fall behind), and its events. An attribute can be changed at any time, or set as a property (`el.dk = 256`); a value the element cannot use is not applied (the widget keeps the value in use, the default at first), shows a message in the widget and fires `attn-error`.',
    'el.attn-chain':
      'The causal chain as a flowchart, with its text version (an ordered list with the same links) and the Mermaid source to copy. Its links open the matching section of the explainer on the site the script comes from, in a new tab (they never change your page’s URL).',
    'el.attn-variance':
      'Histogram of q·k for random q and k with dₖ entries, and its measured variance against dₖ, unscaled and divided by √dₖ. sigma-q, sigma-k and rho break the independence assumption.',
    'el.attn-proof':
      'The proof that Var(q·k) = dₖ, step by step: the dₖ² terms of (q·k)², each a running Monte Carlo mean computed while samples stream in.',
    'el.attn-softmax-table':
      'The worked table: softmax of a row of scores as given and divided by √dₖ, with entropy, largest probability and the Jacobian norm. Two examples, each with its own scores and dₖ.',
    'el.attn-saturation':
      'One sampled row of m scores through softmax, unscaled and with the chosen divisor, and the expected statistics over many rows for every divisor as dₖ goes from 1 to 4096.',
    'el.attn-train-compare':
      'Trains a small attention layer once per divisor on the core and plots the loss curves side by side. It starts when the reader presses start, or at once with autostart.',

    markup: 'Markup of this example',
    'col.attr': 'Attribute',
    'col.type': 'Type',
    'col.default': 'Default',
    'col.range': 'Allowed values',
    'col.property': 'Property',
    'col.meaning': 'Meaning',
    'col.event': 'Event',
    'col.detail': 'event.detail',
    'col.name': 'Custom property',
    'col.themes': 'Styles',
    attrsCaption: 'Attributes of <{tag}>',
    noAttrs: 'No attributes of its own: only lang, theme and controls (below).',
    'type.int': 'integer',
    'type.number': 'number',
    'type.enum': 'one of',
    'type.text': 'text',
    'type.divisor': 'divisor',
    'type.list': 'list',
    'range.text': 'up to {max} characters',
    'range.divisor': '{values}, or a number > 0 up to {max}',
    'range.list': 'comma-separated, each once: {values}',
    'range.open': 'greater than {min}, up to {max}',
    eventsLine: 'Events: {events}. The change event’s detail holds {keys}.',
    eventsNone: 'Events: attn-error only (the chain has no state to change).',
    lastEvent: 'Last change event from this example',
    noEvent: 'none yet: move a control above',

    'common.intro': 'Every element also takes these attributes:',
    'common.lang': 'The widget’s language: en or zh. Without it, the nearest lang around the element, else the browser’s.',
    'common.theme': 'light, dark, or auto (follows the reader’s colour scheme). Default auto.',
    'common.controls': 'all, or none: a fixed figure computed from the attributes, its inputs hidden. Default all.',
    'events.intro':
      'Both events bubble and cross the shadow root (composed), so one listener on a container hears every widget in it.',
    'event.change':
      'The reader moved a control, or an attribute changed. The detail is the widget’s state, with the attributes’ names (camelCase).',
    'event.error':
      'Something the widget could not do or use: kind is attribute (a bad value, or an attribute it does not have; attribute and value say which), or what stopped or slowed its setup: cors, connect-src, worker-src, wasm-unsafe-eval, file, mime, missing, unreachable (with fatal: whether it still computes, and file: code, worker or wasm), and core or load when the cause is none of those (see “When a widget does not show”).',
    'events.code': 'Listening, and setting an attribute from script:',

    'theme.intro':
      'The widgets follow the reader’s light or dark scheme (theme="auto"). To match your page, set these custom properties on the elements, or on any ancestor: they inherit into the shadow roots.',
    'css.--attn-bg': 'background',
    'css.--attn-fg': 'text colour',
    'css.--attn-accent': 'focus ring and accents',
    'css.--attn-c-unscaled': 'curve colour: divided by 1',
    'css.--attn-c-two': 'curve colour: divided by 2',
    'css.--attn-c-sqrt': 'curve colour: divided by √dₖ',
    'css.--attn-c-dk': 'curve colour: divided by dₖ',
    'css.--attn-c-custom': 'curve colour: a custom divisor',
    'css.--attn-font': 'font family',
    'css.--attn-radius': 'corner radius',
    'theme.after':
      'Your page’s other CSS cannot reach inside: fonts and colours are set again at the widget’s edge, and a style-src CSP needs nothing added (the styles are constructable stylesheets, not <style> tags).',
    'room.comment': 'an upper bound; better: its height on your page once drawn',
    'theme.room':
      'Until attnlab.js has loaded an element’s code, the element is empty and has no height; once defined, a widget keeps its height while its numbers arrive. So that nothing on your page moves when it appears, keep its room: the height it takes on your page once drawn (`getBoundingClientRect().height`; the iframe table below gives an upper bound by column width).',

    'iframe.intro':
      'Where raw HTML is stripped but an iframe is allowed, frame.html shows one widget alone. w names the widget (saturation, variance, proof, softmax-table, chain, train-compare, or the element’s name, attn-saturation); every other parameter is an attribute (div is short for divisor), plus lang, theme and controls. Its height attribute must fit the widget where no script can resize it; these are the heights each needs, by the width of the column (the snippet from a figure’s ⋯ menu, Embed…, writes the right one):',
    'iframe.resize':
      'The frame tells its parent its height as a message {type: "attnlab:resize", height} whenever it changes (a table opened, a run’s charts), and {type: "attnlab:error", kind, message} when the widget reports a problem. Where the host page may run a script, the Embed snippet’s one line sizes every frame of the embed’s origin; a longer form, for one frame:',
    'iframe.after':
      'Without a listener the iframe keeps its height attribute, so start from the height above. The messages carry only sizes and error text; the frame reads nothing from its parent.',
    'iframe.heightsCaption': 'iframe height (px) that shows the widget without a scrollbar, by column width',
    'iframe.widget': 'Widget',

    'hosting.intro':
      'The examples above load the script from this site. To serve it from your own server, copy the embed folder (attnlab.js, frame.html and assets/). When the host page is on another origin than the script, the script’s server must send these headers:',
    'hosting.cors':
      'Access-Control-Allow-Origin on every file (JavaScript, WebAssembly, the worker): the script loads its parts as modules and fetches the wasm, and both are cross-origin requests. The .wasm file needs Content-Type application/wasm (streaming compilation requires it).',
    'hosting.csp':
      'A host page with a Content-Security-Policy needs at least these sources for the embed’s origin, next to its own:',
    'hosting.cspList':
      '`script-src` the embed origin and \'wasm-unsafe-eval\' (compiling the core); `connect-src` the embed origin (the wasm fetch); `worker-src blob:` and the embed origin, so the core runs in a worker (a module worker’s imports are checked against worker-src, hence the origin too). `style-src` needs nothing, and neither \'unsafe-inline\' nor \'unsafe-eval\' is ever needed.',
    'hosting.fallback':
      'Without worker-src the widgets still work: they run the core on the main thread, in slices between frames, and each widget’s footer says so. This page itself runs under script-src \'self\' and worker-src \'self\': same-origin workers start directly.',

    'tut.intro':
      'Most documentation tools pass raw HTML through, sometimes after a setting. Put each element on its own line with a blank line before and after, so Markdown treats it as an HTML block, and close it explicitly.',
    'tut.markdownit': 'markdown-it (used by VitePress, Marp and many static sites): raw HTML needs the option html: true (VitePress sets it).',
    'tut.hugo': 'Hugo: Goldmark drops raw HTML unless markup.goldmark.renderer.unsafe is set.',
    'tut.mkdocs':
      'MkDocs (Python-Markdown) passes raw HTML through as it is. Load the script once for the site from mkdocs.yml (type: module needs MkDocs 1.5 or later).',
    'tut.docusaurus':
      'Docusaurus: MDX treats custom elements as JSX, so write attributes as strings (dk="256", not dk={256}) and close every tag. Load the script from docusaurus.config.js.',
    'tut.jupyter':
      'Jupyter: script tags in a notebook’s HTML output do not run everywhere (untrusted notebooks, Markdown cells, most notebook viewers), so the iframe is the dependable way: IPython.display.IFrame(src, width, height). No script resizes it there, so give it the height from the table above for the notebook’s width (about 640 to 800 px in JupyterLab and classic notebooks).',
    'tut.fallback':
      'Where raw HTML is stripped (many wikis, comment systems, READMEs), use the iframe if iframes are allowed; where nothing is, link to the explainer.',
    'trouble.intro':
      'Put a sentence inside each element, marked slot="fallback" (the snippet from a figure’s ⋯ menu, Embed…, does, in the widget’s language). The browser shows it until the widget starts, and it stays where none of the widget’s code can run: attnlab.js sent without Access-Control-Allow-Origin, blocked by the page’s script-src, or the page opened as a file. Once the script runs, each widget says what went wrong itself, once, in its language: in its footer, or in its place when its code did not load. It never marks your inputs as wrong for it, and it fires attn-error with the cause as kind:',
    'trouble.caption': 'What a widget says, and the attn-error kind, for each cause',
    'trouble.col.kind': 'kind',
    'trouble.col.cause': 'Cause',
    'trouble.col.says': 'What the widget says (here with this site’s files)',
    'trouble.cause.cors.code': 'CORS on attnlab.js only',
    'trouble.cause.cors.worker': 'no CORS on the worker (it computes on the main thread)',
    'trouble.cause.cors.wasm': 'no CORS on the .wasm',
    'trouble.cause.missing': 'a file not uploaded',
    'trouble.cause.mime.code': 'a .js file with the wrong MIME type',
    'trouble.cause.mime.wasm': 'the .wasm with the wrong MIME type (it computes)',
    'trouble.cause.unreachable': 'the server down or unreachable',
    'trouble.cause.connectSrc': 'the CSP’s connect-src lacks the embed',
    'trouble.cause.workerSrc': 'the CSP allows no worker (it computes on the main thread)',
    'trouble.cause.wasmEval': 'the CSP lacks \'wasm-unsafe-eval\'',
    'trouble.cause.file': 'the page opened as a file (it computes on the main thread)',
    'trouble.cause.scriptSrc': 'the CSP’s script-src lacks the embed: nothing runs, the fallback sentence stays (the check below finds it)',
    'trouble.nothing':
      'A box with only the fallback sentence: attnlab.js did not run. Open the browser’s console; it names the file and the reason. Without fallback content the element is an empty box of no height.',
    'trouble.check':
      'Check a page’s Content-Security-Policy: paste it (the header’s value, or the content of its <meta http-equiv="Content-Security-Policy">) and the address of the attnlab.js it loads, and see what it would refuse, in the widgets’ words. For this site’s own files, the files themselves are checked too.',
    'check.urlLabel': 'attnlab.js, as your page loads it',
    'check.cspLabel': 'Your page’s Content-Security-Policy (empty: none)',
    'check.run': 'Check',
    'check.running': 'Checking…',
    'check.ok': 'Nothing here would stop the widgets.',
    'check.fileOk': '{file}: there, with Access-Control-Allow-Origin and the right type.',
    'check.noCsp': 'No Content-Security-Policy: nothing to allow.',
    'check.offOrigin':
      'The files at {origin} cannot be fetched from this page (its own CSP allows only its origin): run the check on your page instead, from the browser’s console, as below.',
    'trouble.console':
      'On your own page the same checks run against the files themselves (each one there, with Access-Control-Allow-Origin and its type, as your page sees them) and against the page’s CSP, from the browser’s console. Each line has the widgets’ kind and sentence:',
    footer: 'Everything on this page is computed in your browser by the C++ core compiled to WebAssembly.',
  },
  zh: {
    title: '嵌入这些组件',
    lede:
      '讲解页中的每个图都是一个自定义元素，可以放进你自己的网页、教程或笔记本。一个 script 标签即可定义它们；每个组件都用同一个编译为 WebAssembly 的 C++ 核心，在读者的浏览器中计算数值。下面每个示例都是实时运行的。',
    skip: '跳到正文',
    back: '返回讲解页',
    example: '阅读一篇使用它们的示例教程',
    'toc.heading': '目录',
    'toc.start': '快速开始',
    'toc.elements': '各个元素',
    'toc.common': '通用属性与事件',
    'toc.theme': '主题',
    'toc.iframe': 'iframe',
    'toc.hosting': '部署脚本',
    'toc.tutorials': '教程放在哪里',
    'toc.trouble': '组件没有显示时',

    'start.intro':
      '在页面任意位置加入一次该脚本（模块脚本在页面解析完成后运行），然后在需要图的地方写上元素，并写出结束标签。只有页面用到的元素的代码才会加载，且在元素出现时才加载。每个元素里的那句话（slot="fallback"）在组件启动前显示；脚本无法运行时它会一直显示，并说明原因（见下文）。',
    'start.after':
      '脚本不触碰元素以外的任何东西：没有全局 CSS，没有 id，不读写 URL 或存储。每个元素在 shadow root 中渲染，语言取自它的 `lang` 属性；没有时取最近的外层 `lang`（页面的 `<html lang>`），再没有则取读者浏览器的语言。之后添加的元素（框架渲染、逐步展开的内容）也会被发现；在你自己的 shadow root 中，请调用同一模块导出的 `discover(root)`。',

    'elements.intro':
      '每个元素依次给出：它显示什么、一个实时示例、它的属性（本页运行时从元素代码中读取，因此表格不会过时）以及它的事件。属性随时可以修改，也可以作为 JS 属性设置（`el.dk = 256`）；元素无法使用的值不会生效（组件保留当前值，起初即默认值），并在组件中显示提示、触发 `attn-error`。',
    'el.attn-chain':
      '以流程图表示的因果链，附文字版本（带相同链接的有序列表）和可复制的 Mermaid 源码。其中的链接会在新标签页中打开脚本所在网站上讲解页的对应小节（不会改变你页面的地址）。',
    'el.attn-variance':
      '随机 q、k（各 dₖ 个分量）的 q·k 直方图，以及实测方差随 dₖ 的变化，分为不缩放和除以 √dₖ 两种。sigma-q、sigma-k 与 rho 用来打破独立性假设。',
    'el.attn-proof':
      'Var(q·k) = dₖ 的逐步证明：(q·k)² 的 dₖ² 项，每一项都是样本不断到来时计算的蒙特卡洛滑动均值。',
    'el.attn-softmax-table':
      '算例表：一行分数直接做 softmax 与除以 √dₖ 后做 softmax，并给出熵、最大概率和雅可比范数。两个算例，各有自己的分数与 dₖ。',
    'el.attn-saturation':
      '一行抽样得到的 m 个分数经过 softmax，分为不缩放和所选除数两种；以及 dₖ 从 1 到 4096 时，所有除数在大量抽样行上的统计量期望。',
    'el.attn-train-compare':
      '在计算核心上对每种除数各训练一次小型注意力层，并排画出损失曲线。读者按下开始后运行，设置 autostart 则立即运行。',

    markup: '本示例的标记',
    'col.attr': '属性',
    'col.type': '类型',
    'col.default': '默认值',
    'col.range': '允许的值',
    'col.property': '属性',
    'col.meaning': '含义',
    'col.event': '事件',
    'col.detail': 'event.detail',
    'col.name': 'CSS 自定义属性',
    'col.themes': '作用',
    attrsCaption: '<{tag}> 的属性',
    noAttrs: '没有自己的属性：只有 lang、theme 与 controls（见下文）。',
    'type.int': '整数',
    'type.number': '数值',
    'type.enum': '枚举',
    'type.text': '文本',
    'type.divisor': '除数',
    'type.list': '列表',
    'range.text': '最多 {max} 个字符',
    'range.divisor': '{values}，或大于 0、不超过 {max} 的数',
    'range.list': '逗号分隔，每项最多一次：{values}',
    'range.open': '大于 {min}，不超过 {max}',
    eventsLine: '事件：{events}。change 事件的 detail 包含 {keys}。',
    eventsNone: '事件：只有 attn-error（因果链没有可改变的状态）。',
    lastEvent: '此示例最近一次 change 事件',
    noEvent: '尚无：请调节上方的控件',

    'common.intro': '每个元素还接受以下属性：',
    'common.lang': '组件的语言：en 或 zh。未设置时取元素外层最近的 lang，再没有则取浏览器的语言。',
    'common.theme': 'light、dark 或 auto（跟随读者的配色方案）。默认 auto。',
    'common.controls': 'all，或 none：由属性计算出的固定图，隐藏输入控件。默认 all。',
    'events.intro': '两个事件都会冒泡并穿过 shadow root（composed），所以在容器上监听一次即可收到其中所有组件的事件。',
    'event.change': '读者调节了控件，或某个属性发生了变化。detail 是组件的状态，键名与属性名一致（驼峰式）。',
    'event.error':
      '组件无法完成或无法使用某件事：kind 为 attribute（值无效，或组件没有这个属性；attribute 与 value 指明是哪个），或者是阻止或拖慢其加载的原因：cors、connect-src、worker-src、wasm-unsafe-eval、file、mime、missing、unreachable（fatal 表示它是否仍能计算，file 为 code、worker 或 wasm）；原因都不是这些时为 core 或 load（见“组件没有显示时”）。',
    'events.code': '监听事件，以及用脚本设置属性：',

    'theme.intro':
      '组件跟随读者的浅色或深色方案（theme="auto"）。要与你的页面一致，可在元素或任一祖先元素上设置这些 CSS 自定义属性：它们会继承进 shadow root。',
    'css.--attn-bg': '背景色',
    'css.--attn-fg': '文字颜色',
    'css.--attn-accent': '焦点框与强调色',
    'css.--attn-c-unscaled': '曲线颜色：除以 1',
    'css.--attn-c-two': '曲线颜色：除以 2',
    'css.--attn-c-sqrt': '曲线颜色：除以 √dₖ',
    'css.--attn-c-dk': '曲线颜色：除以 dₖ',
    'css.--attn-c-custom': '曲线颜色：自定义除数',
    'css.--attn-font': '字体',
    'css.--attn-radius': '圆角半径',
    'theme.after':
      '页面的其他 CSS 无法影响组件内部：字体与颜色在组件边缘重新设置；style-src CSP 也无需添加任何来源（样式是可构造样式表，而非 <style> 标签）。',
    'room.comment': '上限；更好的是它在你的页面上绘制完成后的高度',
    'theme.room':
      '在 attnlab.js 加载元素的代码之前，元素是空的，没有高度；定义之后，组件在数字到来时保持自身高度。为了让组件出现时页面不跳动，请为它预留空间：即它在你的页面上绘制完成后的高度（`getBoundingClientRect().height`；下方 iframe 表按栏宽给出上限）。',

    'iframe.intro':
      '在去除原始 HTML 但允许 iframe 的地方，frame.html 单独显示一个组件。w 指定组件（saturation、variance、proof、softmax-table、chain、train-compare，或元素名 attn-saturation）；其余参数都是属性（div 是 divisor 的简写），另有 lang、theme 与 controls。在没有脚本能调整高度的地方，height 属性必须容得下组件；下表按栏宽给出每个组件所需的高度（图表 ⋯ 菜单中“嵌入…”给出的代码会写上合适的值）：',
    'iframe.resize':
      '每当高度变化（展开表格、训练曲线出现），frame 会向父页面发送消息 {type: "attnlab:resize", height}；组件报告问题时发送 {type: "attnlab:error", kind, message}。在宿主页面能运行脚本的地方，“嵌入”代码中的那一行会调整该嵌入源的所有 frame 的高度；针对单个 frame 的较长写法：',
    'iframe.after': '没有监听器时，iframe 保持其 height 属性，所以请从上表的高度开始。消息只包含尺寸和错误文本；frame 不读取父页面的任何内容。',
    'iframe.heightsCaption': '按栏宽给出、能无滚动条地显示组件的 iframe 高度（像素）',
    'iframe.widget': '组件',

    'hosting.intro':
      '上面的示例从本站加载脚本。若要从你自己的服务器提供，请复制 embed 文件夹（attnlab.js、frame.html 与 assets/）。当宿主页面与脚本不同源时，脚本所在的服务器必须发送以下响应头：',
    'hosting.cors':
      '每个文件（JavaScript、WebAssembly、worker）都要有 Access-Control-Allow-Origin：脚本以模块方式加载各部分并获取 wasm，两者都是跨源请求。.wasm 文件需要 Content-Type application/wasm（流式编译要求如此）。',
    'hosting.csp': '设有 Content-Security-Policy 的宿主页面，至少需要为嵌入脚本的源加上这些来源（与页面自己的来源并列）：',
    'hosting.cspList':
      '`script-src` 加嵌入源与 \'wasm-unsafe-eval\'（编译核心）；`connect-src` 加嵌入源（获取 wasm）；`worker-src` 加 blob: 与嵌入源，使核心在 worker 中运行（模块 worker 的 import 按 worker-src 检查，因此也需要该源）。`style-src` 无需任何改动，也从不需要 \'unsafe-inline\' 或 \'unsafe-eval\'。',
    'hosting.fallback':
      '没有 worker-src 时组件仍可工作：它们在主线程上分片（在帧之间）运行核心，每个组件的页脚会注明这一点。本页自身运行在 script-src \'self\' 与 worker-src \'self\' 之下：同源 worker 直接启动。',

    'tut.intro':
      '大多数文档工具会原样保留原始 HTML，有的需要一个设置。每个元素单独占一行，前后各留一个空行，使 Markdown 把它当作 HTML 块，并显式写出结束标签。',
    'tut.markdownit': 'markdown-it（VitePress、Marp 及许多静态站点使用它）：原始 HTML 需要选项 html: true（VitePress 已设置）。',
    'tut.hugo': 'Hugo：除非设置 markup.goldmark.renderer.unsafe，Goldmark 会丢弃原始 HTML。',
    'tut.mkdocs': 'MkDocs（Python-Markdown）原样保留原始 HTML。在 mkdocs.yml 中为整个站点加载一次脚本（type: module 需要 MkDocs 1.5 或更高版本）。',
    'tut.docusaurus':
      'Docusaurus：MDX 把自定义元素当作 JSX，所以属性要写成字符串（dk="256"，而不是 dk={256}），并闭合每个标签。在 docusaurus.config.js 中加载脚本。',
    'tut.jupyter':
      'Jupyter：笔记本 HTML 输出中的 script 标签并非处处都会运行（未受信任的笔记本、Markdown 单元格、大多数笔记本查看器），所以 iframe 是可靠的方式：IPython.display.IFrame(src, width, height)。那里没有脚本调整高度，请按笔记本的宽度（JupyterLab 与经典笔记本约 640 到 800 像素）取上表中的高度。',
    'tut.fallback': '在去除原始 HTML 的地方（许多 wiki、评论系统、README），若允许 iframe 就用 iframe；都不允许时，链接到讲解页。',
    'trouble.intro':
      '在每个元素里放一句话，并标上 slot="fallback"（图表 ⋯ 菜单中“嵌入…”给出的代码会以组件的语言写好）。浏览器在组件启动前显示它；当组件的代码完全无法运行时它会一直显示：attnlab.js 没有带 Access-Control-Allow-Origin、被页面的 script-src 阻止，或页面是以文件方式打开的。脚本一旦运行，每个组件会自己说明出了什么问题，只说一次，用它自己的语言：在页脚中，或在代码未能加载时显示在组件的位置上。它绝不会因此把你的输入标为错误，并以原因为 kind 触发 attn-error：',
    'trouble.caption': '每种原因下组件显示的内容及 attn-error 的 kind',
    'trouble.col.kind': 'kind',
    'trouble.col.cause': '原因',
    'trouble.col.says': '组件显示的内容（此处以本站的文件为例）',
    'trouble.cause.cors.code': '只有 attnlab.js 带 CORS',
    'trouble.cause.cors.worker': 'Worker 没有 CORS（改在主线程计算）',
    'trouble.cause.cors.wasm': '.wasm 没有 CORS',
    'trouble.cause.missing': '有文件没有上传',
    'trouble.cause.mime.code': '.js 文件的 MIME 类型不对',
    'trouble.cause.mime.wasm': '.wasm 的 MIME 类型不对（仍能计算）',
    'trouble.cause.unreachable': '服务器未运行或无法访问',
    'trouble.cause.connectSrc': 'CSP 的 connect-src 不含嵌入源',
    'trouble.cause.workerSrc': 'CSP 不允许 Worker（改在主线程计算）',
    'trouble.cause.wasmEval': 'CSP 缺少 \'wasm-unsafe-eval\'',
    'trouble.cause.file': '页面以文件方式打开（改在主线程计算）',
    'trouble.cause.scriptSrc': 'CSP 的 script-src 不含嵌入源：什么都不会运行，只留下那句后备文字（下面的检查能发现它）',
    'trouble.nothing': '方框里只有那句后备文字：attnlab.js 没有运行。打开浏览器控制台，它会指出是哪个文件、什么原因。没有后备内容时，元素是一个高度为零的空框。',
    'trouble.check':
      '检查页面的内容安全策略（CSP）：粘贴它（响应头的值，或 <meta http-equiv="Content-Security-Policy"> 的 content）以及页面加载的 attnlab.js 地址，即可用组件自己的话看到它会拒绝什么。对本站自己的文件，还会检查文件本身。',
    'check.urlLabel': '你的页面加载的 attnlab.js',
    'check.cspLabel': '你的页面的内容安全策略（留空表示没有）',
    'check.run': '检查',
    'check.running': '正在检查…',
    'check.ok': '这里没有会阻止组件的东西。',
    'check.fileOk': '{file}：存在，带 Access-Control-Allow-Origin，类型正确。',
    'check.noCsp': '没有内容安全策略：无需允许任何来源。',
    'check.offOrigin': '本页无法获取 {origin} 上的文件（本页自己的 CSP 只允许本源）：请改在你的页面上、从浏览器控制台运行检查，如下所示。',
    'trouble.console':
      '在你自己的页面上，同样的检查可以从浏览器控制台针对文件本身（每个文件是否存在、是否带 Access-Control-Allow-Origin、类型是否正确，以你的页面所见为准）和页面的 CSP 运行。每一行给出组件使用的 kind 和句子：',
    footer: '本页的所有内容都由编译为 WebAssembly 的 C++ 核心在你的浏览器中计算。',
  },
});
