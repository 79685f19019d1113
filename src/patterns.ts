// Regular expressions with Unicode property escapes (`\p{L}`, `\p{Script=Greek}`), built on their
// first use. V8 looks every `\p{...}` up in ICU each time it parses a pattern: when it pre-parses
// a regular expression literal at start (whether or not the code around it ever runs), again when
// it compiles the function that holds it, and when it creates the expression (docs/performance.md,
// "2026-12-04: Unicode property escapes, and instructions counted"). Built here, a pattern is
// parsed once, by the first call that needs it, and not at all by a run that never needs it. A test
// (test/patterns.test.ts) keeps `\p{` out of the regular expression literals of src/.
// Pure; shared by every layer, as words.ts is.

/**
 * `new RegExp(source, flags)`, built on the first call and the same object on every call after.
 * Only for a pattern whose `lastIndex` no caller relies on: one without the g or y flag, or one
 * used only by `replace`, `match`, `matchAll` or `split`, which start from 0 or copy it.
 */
export function unicodePattern(source: string, flags: string): () => RegExp {
  return onFirstUse(() => new RegExp(source, flags));
}

/**
 * `build()`'s value, built on the first call and the same value on every call after: what a start
 * should not pay for until something needs it (a module's zod schemas, which only some files or
 * commands read: docs/performance.md, "2026-12-07 (small hours): the session's figures").
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
