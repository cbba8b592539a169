// What element.js loads only when a widget's markup needs a word (so a page
// whose markup is right never downloads it): the sentences for attributes it
// cannot use (opt-strings.js), which attributes any element may carry, and
// the fix for a widget written as a self-closing tag. diagnose.js uses
// releaseContent for a widget whose code did not load.
import './opt-strings.js';

// HTML's global attributes and frameworks' markers (Vue's data-v-…, Angular's
// _ngcontent-…): an element may carry them, so they are never reported.
const GLOBAL = /^(id|class|style|slot|part|exportparts|title|lang|hidden|inert|tabindex|dir|role|is|nonce|autofocus|accesskey|draggable|translate|spellcheck|popover|contenteditable|enterkeyhint|inputmode|autocapitalize|writingsuggestions|itemscope|itemtype|itemprop|itemid|itemref|(data|aria|on|_ng|xml|xmlns)\S*|id-prefix|url-state)$/;

/** Whether any element may carry attribute `name` (not one of a widget's own). */
export const isGlobalAttribute = (name) => GLOBAL.test(name);

/**
 * Page content the HTML parser put inside an element: `<attn-chain />` is
 * not self-closing in HTML, so the rest of its parent went in, and the
 * widget's shadow root would hide it. It is moved after the element, with a
 * word in the console. Elements marked slot="fallback", and bare text, are
 * the element's own fallback content (shown until it upgrades) and stay.
 */
export function releaseContent(el) {
  const stray = [...el.childNodes].filter((n) => (n.nodeType === 1 ? n.slot !== 'fallback' : n.nodeType !== 3 || n.data.trim()));
  if (!stray.some((n) => n.nodeType === 1)) return;
  const tag = el.localName;
  console.warn(`attnlab: <${tag}> held page content: HTML has no self-closing custom elements, so write <${tag}></${tag}>, not <${tag} />. The content is shown after the widget.`);
  el.after(...stray);
}
