// The core's errors for readers: one convention from the C++ core to the page.
//
// The core throws attn::ArgumentError(argument, kind, params, message): the
// English message is the CLI's; a page shows instead a sentence of its own,
// in its language, written from (argument, kind, params). The bindings return
// {error, argument, kind, params} (params: a JSON object's text), attn.js and
// rpc.js carry them as an Error's .message, .argument, .kind and .params (an
// object) across the worker boundary (rpc.js errorFields, coreErrorOf), and
// readerError(e) gives the sentence. This module stays tiny: an embedded
// widget loads it up front.
//
// The sentences (error-strings.js) load on the first error, so an embedded
// widget's first load does not pay for them: the client awaits
// loadErrorStrings() before it rejects a call, and code that reads errors
// from results (the training runs' verdicts) awaits it itself. Until they
// have loaded, readerError() answers with the generic sentence here.
import { t } from '../base/i18n.js';
import './generic-error-strings.js';  // coreerr.generic, until the sentences load

let table = null;
let loading = null;

/** Load the sentences (once); resolves when readerError() can use them. */
export function loadErrorStrings() {
  // A chunk that failed to load: the generic sentence, and a retry next time.
  return (loading ??= import('./error-strings.js').then((m) => { table = m; }, () => { loading = null; }));
}

/**
 * A sentence for readers, in the current language (t()), for an Error or a
 * core result ({error, argument, kind, params}); never the core's English text.
 */
export function readerError(e) {
  if (table) return table.sentence(e);
  loadErrorStrings();
  return t('coreerr.generic');
}
