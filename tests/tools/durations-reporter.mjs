// A node --test reporter that writes one JSON line per finished test (file,
// name, ms, leaf or not), beside the spec reporter on stdout. scripts/test.sh
// reads it to print the slowest tests of the node and browser layers, so a
// test that costs minutes is seen in every run (tests/tools/slowest.mjs).
export default async function* durations(source) {
  let lastNesting = -1;
  for await (const ev of source) {
    if (ev.type !== 'test:pass' && ev.type !== 'test:fail') continue;
    const { name, nesting, file, details } = ev.data;
    // Children are reported before their parent: an event less nested than the
    // one before it closes a group (a describe block or a test with subtests).
    const leaf = !(nesting < lastNesting) && details?.type !== 'suite';
    lastNesting = nesting;
    yield JSON.stringify({ file, name, ms: Math.round(details?.duration_ms ?? 0), leaf,
      ok: ev.type === 'test:pass' }) + '\n';
  }
}
