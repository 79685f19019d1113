// The first rungs of the meaning ladder (docs/meaning.md, "Formatting" and "Known variants"): two
// replies that are equal once their formatting is taken away differ only in formatting. Pure.
//
// Every regular expression is compiled once, here, and none can backtrack without bound: each
// repeated part is followed by something it cannot match.

/** Characters that draw nothing: zero-width space, non-joiner, joiner, word joiner, byte-order mark. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
/** Curly single quotes and primes, as typographers and models write them; `'` after normalizing. */
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032]/g;
/** Curly double quotes and double primes; `"` after normalizing. */
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033]/g;
/**
 * A line's leading Markdown block markers: quotes (`>`, nested), a heading (`#` to `######`), a list
 * item (`-`, `*`, `+`, `1.`, `1)`). Tried only on a line that starts with a character a marker can
 * start with: elsewhere it would match nothing and only cost a copy of the text.
 */
const LINE_MARKERS = /^(?=[ \t>#*+\-\d])[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d{1,9}[.)][ \t]+)?/gm;
/** A line that is only a rule or a setext underline: `---`, `***`, `___`, `===`. */
const RULE_LINES = /^[ \t]*(?:[-*_=][ \t]*){3,}$/gm;
/** Emphasis and inline-code markers: `*`, `_` at a word's edge, `` ` ``. Strikethrough (`~~`) is kept: struck text says something else. */
const EMPHASIS = /[*`]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;
/** The same for text that is all ASCII (the same matches, several times faster). */
const EMPHASIS_ASCII = /[*`]+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])/g;
/**
 * Punctuation that ends a line or the text: `.`, `!`, `?`, `;`, `:`, `,` and the ellipsis. Tried
 * only where a run of it starts, so a long run is read once.
 */
const LINE_END_PUNCTUATION = /(?<![.!?;:,\u2026])[.!?;:,\u2026]+(?=[ \t]*(?:\n|$))/g;
const CARRIAGE_RETURNS = /\r\n?/g;
/** What EMPHASIS can match at all. */
const EMPHASIS_CHARS = /[*`_]/;
/** A run of whitespace that is not one plain space: made one space (a lone space is left as it is, uncopied). */
const WHITESPACE = /\s{2,}|[^\S ]/g;
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;

/**
 * A reply with its formatting taken away: Unicode NFKC (full-width letters and digits become
 * ordinary ones), invisible characters removed, curly quotes made straight, rule lines removed,
 * Markdown quote, heading and list markers at the start of a line removed, emphasis and
 * inline-code markers removed, punctuation at the end of each line removed, runs of whitespace
 * made one space, lower case. Two replies with the same normalized text differ only in formatting.
 */
export function normalizeReply(text: string): string {
  const ascii = !NON_ASCII.test(text);
  let t = ascii ? text : text.normalize('NFKC').replace(INVISIBLE, '').replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"');
  // Each pass runs only where its characters occur (the same result, fewer copies of the text).
  if (t.includes('\r')) t = t.replace(CARRIAGE_RETURNS, '\n');
  t = t.replace(RULE_LINES, '').replace(LINE_MARKERS, '');
  if (EMPHASIS_CHARS.test(t)) t = t.replace(ascii ? EMPHASIS_ASCII : EMPHASIS, '');
  return t.replace(LINE_END_PUNCTUATION, '').replace(WHITESPACE, ' ').trim().toLowerCase();
}

/**
 * The index of the first variant whose normalized text is `normalized` (a reply already passed
 * through `normalizeReply`), or -1. Variants are replies a maintainer accepted as meaning the same
 * as the baseline (docs/meaning.md, "Known variants").
 */
export function matchingVariant(normalized: string, variants: readonly string[]): number {
  for (let i = 0; i < variants.length; i++) {
    if (normalizeReply(variants[i] as string) === normalized) return i;
  }
  return -1;
}
