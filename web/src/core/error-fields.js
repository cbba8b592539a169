// The fields a core error carries across every boundary (wasm -> attn.js ->
// postMessage -> the page): {error, argument, kind, params}. No strings and no
// DOM here: the workers import it (rpc.js, attn.js); errors.js turns the
// fields into a sentence for readers.

/** The params of an error or a result: an object, from the core's JSON text or already parsed. */
export function errorParams(p) {
  if (p && typeof p === 'object') return p;
  if (typeof p !== 'string' || p === '') return {};
  try {
    return JSON.parse(p);
  } catch {
    return {};
  }
}

/**
 * The fields of an error that cross a boundary (postMessage, a run's event):
 * {error, argument, kind, params} from an Error or from a core result.
 */
export function errorFields(e) {
  if (e instanceof Error || (e && typeof e === 'object' && 'message' in e && !('error' in e)))
    return { error: e.message ?? String(e), argument: e.argument ?? '', kind: e.kind ?? '', params: errorParams(e.params) };
  if (e && typeof e === 'object')
    return { error: String(e.error ?? ''), argument: e.argument ?? '', kind: e.kind ?? '', params: errorParams(e.params) };
  return { error: String(e), argument: '', kind: '', params: {} };
}

/** An Error from fields ({error, argument, kind, params}), as the core's caller sees it. */
export function coreErrorOf(fields) {
  const f = errorFields(fields);
  const e = new Error(f.error);
  if (f.argument) e.argument = f.argument;
  if (f.kind) e.kind = f.kind;
  e.params = f.params;
  return e;
}

