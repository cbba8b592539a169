// Page state in the query string (language, d_k, seed), so any view can be shared.
export function getParam(name) {
  return new URLSearchParams(location.search).get(name);
}

/** This page's URL with one query parameter set (or, with null, removed). */
export function urlWithParam(name, value) {
  const url = new URL(location.href);
  if (value === null || value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, String(value));
  return url.href;
}

/** Set (or, with null, remove) one query parameter without reloading or adding history. */
export function setParam(name, value) {
  history.replaceState(history.state, '', urlWithParam(name, value));
}
