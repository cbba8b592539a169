// Build step (a Vite plugin): a page read in Chinese is not painted in English
// first. The HTML holds the English text (static-text.mjs); i18n.js puts the
// reader's language in as the page's module runs, which is after the first
// paint: every line that changed length moved what follows it (a layout shift
// of 0.24 at 1280 px on the explainer, 0.6 on the embed docs). This script, inline in
// every page's <head> (allowed by its hash in the CSP), picks the language as
// i18n.js's initialLang() does (?lang=, then the stored choice, then the
// browser's languages) and, for any language but the HTML's English, keeps the
// document unpainted until the page's script has set <html lang> (i18n.js
// applyDocument: the text changes in that same task), or for at most 3 s
// should the script not run. English readers, and readers without JavaScript,
// get the page as before.
import crypto from 'node:crypto';

// ES5, kept short: it runs before anything else on the page.
// The URL first: a link's ?lang= decides without the storage, whose first read
// is a few milliseconds of a script that holds the parser.
export const LANG_BOOT = "(function(){try{var d=document.documentElement,k=function(x){return x==='en'||x==='zh'}," +
  "l=new URLSearchParams(location.search).get('lang');" +
  "if(!k(l)){try{l=localStorage.getItem('attnlab.lang')||localStorage.getItem('attn-scale.lang')}catch(e){}}" +
  "if(!k(l))l=(navigator.languages||[navigator.language]).some(function(t){return /^zh\\b/i.test(String(t||'').trim())})?'zh':'en';" +
  "if(l==='en'||d.lang!=='en')return;d.style.visibility='hidden';" +
  "var o=new MutationObserver(function(){if(d.lang!=='en')show()});" +
  "function show(){o.disconnect();d.style.visibility=''}" +
  "o.observe(d,{attributes:true,attributeFilter:['lang']});setTimeout(show,3000)}catch(e){}})();";

/** The CSP source that allows exactly this script. */
export const LANG_BOOT_HASH = `'sha256-${crypto.createHash('sha256').update(LANG_BOOT).digest('base64')}'`;

/** The plugin: the script right after the CSP's <meta> (cspMeta), else after <meta charset>. */
export function langBoot() {
  return {
    name: 'lang-boot',
    transformIndexHtml(html) {
      const tag = `<script>${LANG_BOOT}</script>`;
      const csp = /<meta http-equiv="Content-Security-Policy"[^>]*>/i;
      if (csp.test(html)) return html.replace(csp, (m) => `${m}\n    ${tag}`);
      const charset = /<meta charset="utf-8"\s*\/?>/i;
      if (!charset.test(html)) throw new Error('lang-boot: the page needs <meta charset="utf-8">');
      return html.replace(charset, (m) => `${m}\n    ${tag}`);
    },
  };
}

/**
 * The plugin for pages whose script writes most of their content (the embed
 * docs build every section from its element list): their entry module is
 * render-blocking (blocking="render"), so the first paint already holds what
 * the script writes instead of the bare HTML it then pushes down (0.33 at
 * 1280 px). Vite writes the entry's tag itself, so the attribute goes in after.
 * @param {string[]} pages  HTML file names, e.g. ['embed.html']
 */
export function renderBlocking(pages) {
  return {
    name: 'render-blocking',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!pages.some((p) => ctx.filename.endsWith(`/${p}`))) return html;
        const entry = /<script type="module" crossorigin src="/;
        if (!entry.test(html)) throw new Error(`render-blocking: no entry module in ${ctx.filename}`);
        return html.replace(entry, '<script type="module" blocking="render" crossorigin src="');
      },
    },
  };
}
