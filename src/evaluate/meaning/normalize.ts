// The first rungs of the meaning ladder (docs/meaning.md, "Formatting" and "Known variants"): two
// replies that are equal once their formatting is taken away differ only in formatting. Pure.
//
// Every regular expression is compiled once, here, and none can backtrack without bound: each
// repeated part is followed by something it cannot match.

import { unicodePattern } from '../../patterns.js';

// Digits of every script, as ASCII ones (docs/meaning.md, "Facts"). Unicode property patterns are
// built on first use (patterns.ts).
const NON_ASCII_DIGIT = unicodePattern(String.raw`(?![0-9])\p{Nd}`, 'gu');
const IS_DIGIT = unicodePattern(String.raw`^\p{Nd}$`, 'u');
const digitCache = new Map<string, string>();

/**
 * The value of a decimal digit of any script ("٣" is 3, "३" is 3). Unicode encodes each script's
 * digits 0 to 9 in consecutive code points, so a digit's value is its distance from the start of
 * its run of digits, modulo 10 (a run can hold several scripts' digits back to back).
 */
function asciiDigit(ch: string): string {
  const cached = digitCache.get(ch);
  if (cached !== undefined) return cached;
  const cp = ch.codePointAt(0) as number;
  let start = cp;
  while (start > 0 && cp - start < 100 && IS_DIGIT().test(String.fromCodePoint(start - 1))) start--;
  const value = String((cp - start) % 10);
  digitCache.set(ch, value);
  return value;
}

/** Arabic decimal and thousands separators, as `.` and `,`. */
const ARABIC_SEPARATORS = /[\u066b\u066c]/g;

/** `text` with the digits of every script as ASCII ones and the Arabic separators as `.` and `,` ("٣٠" reads "30"). */
export function asciiDigits(text: string): string {
  return text.replace(NON_ASCII_DIGIT(), asciiDigit).replace(ARABIC_SEPARATORS, (s) => (s === '\u066b' ? '.' : ','));
}

/**
 * Characters that draw nothing: zero-width space, non-joiner, joiner, word joiner, byte-order mark,
 * soft hyphen. The marks of bidirectional text (left-to-right, right-to-left, Arabic letter) draw
 * nothing either but can move the digits and signs beside them on screen: kept.
 */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
/** Curly single quotes and primes, as typographers and models write them; `'` after normalizing. */
const SINGLE_QUOTES = /[\u2018\u2019\u201a\u201b\u2032]/g;
/** Curly double quotes and double primes; `"` after normalizing. */
const DOUBLE_QUOTES = /[\u201c\u201d\u201e\u201f\u2033]/g;
/**
 * A line's leading Markdown quote and heading markers: quotes (`>`, nested), a heading (`#` to
 * `######`). A `>` right before a number, a signed number, an amount's currency sign or `=` is
 * kept: "> 50 items", "> -5", "> $50" and ">= 50" say "more than". Tried only on a line that
 * starts with a character a marker can start with.
 */
const QUOTE_HEADING_MARKERS = /^(?=[ \t>#])[ \t]*(?:>(?![ \t]*(?:[\d=$\u20AC\u00A3\u00A5\u20B9\u20BD\u20A9\u20BA\u20AA\u20AB\u20B1\u0E3F]|[-\u2212+]\d))[ \t]*)*(?:#{1,6}[ \t]+)?/gm;
/** A list item's marker at the start of a line, after its quote markers: `-`, `*`, `+`, `•`, `1.`, `1)` (group 2: the number). */
const LIST_ITEM = /^([ \t]*(?:>[ \t]*)*)(?:[-*+\u2022]|(\d{1,9})[.)])[ \t]+/;
/** The lines LIST_ITEM can match: a list needs two of them. */
const MAY_BE_LIST_ITEM = /^[ \t>]*(?:[-*+\u2022]|\d{1,9}[.)])[ \t]/gm;

/**
 * The markers of lines that are a list, removed: two or more item lines in a row (blank lines
 * between them allowed), each line's quote markers kept. A lone line that starts with "30." or
 * "- $5" is text, not a list, and keeps its number or sign. `numbered`: only numbered items count.
 */
export function stripListMarkers(text: string, numbered: boolean): string {
  // A list is two lines at least.
  if (!text.includes('\n')) return text;
  MAY_BE_LIST_ITEM.lastIndex = 0;
  if (!MAY_BE_LIST_ITEM.test(text) || !MAY_BE_LIST_ITEM.test(text)) return text;
  const lines = text.split('\n');
  const items = lines.map((l) => {
    const m = LIST_ITEM.exec(l);
    return m !== null && (!numbered || m[2] !== undefined) ? m : null;
  });
  const neighbourIsItem = (i: number, step: number): boolean => {
    for (let j = i + step; j >= 0 && j < lines.length; j += step) if ((lines[j] as string).trim() !== '') return items[j] !== null;
    return false;
  };
  // Markers that say something are kept (docs/meaning.md, "Formatting"): a list whose items mix
  // `+` and `-` says plus and minus with them ("+ $5 shipping", "- $10 coupon"), and one numbered
  // otherwise than 1, 2, 3, ... (or one number throughout, "1. 1. 1.") ranks its items with them.
  const signed = new Set<number>();
  let run: number[] = [];
  const endRun = (): void => {
    const marks = run.map((j) => bulletOf(items[j] as RegExpExecArray, lines[j] as string));
    const keep = (mark: string): void => {
      run.forEach((j, k) => {
        if (marks[k] === mark) signed.add(j);
      });
    };
    if (marks.includes('+') && marks.includes('-')) {
      keep('+');
      keep('-');
    }
    if (!numbered) {
      const numbers = run.flatMap((j) => ((items[j] as RegExpExecArray)[2] === undefined ? [] : [Number((items[j] as RegExpExecArray)[2])]));
      if (numbers.length > 1 && !numbers.every((n, k) => n === k + 1) && !numbers.every((n) => n === numbers[0])) keep('.');
    }
    run = [];
  };
  lines.forEach((line, i) => {
    if (items[i] !== null) run.push(i);
    else if (line.trim() !== '') endRun();
  });
  endRun();
  let changed = false;
  const out = lines.map((line, i) => {
    const m = items[i];
    if (m == null || signed.has(i) || !(neighbourIsItem(i, -1) || neighbourIsItem(i, 1))) return line;
    changed = true;
    return (m[1] as string) + line.slice(m[0].length);
  });
  return changed ? out.join('\n') : text;
}

/** The bullet of a list item's marker (`-`, `*`, `+`), or `.` for a numbered one. */
function bulletOf(m: RegExpExecArray, line: string): string {
  return m[2] === undefined ? (line[(m[1] as string).length] as string) : '.';
}

/** Superscript and subscript digits and signs, which NFKC makes ordinary ones ("10⁶" would read "106"). */
const SCRIPT_DIGITS = /[\u00b2\u00b3\u00b9\u2070\u2074-\u207b\u2080-\u208b]/g;

/** Superscript and subscript digits and signs written `^6` and `_2` before NFKC, so that "10⁶" and "106" stay apart. */
export function markScriptDigits(text: string): string {
  return text.replace(SCRIPT_DIGITS, (ch) => `${ch >= '\u2080' ? '_' : '^'}${ch.normalize('NFKC')}`);
}

/** An http(s) URL, as the facts read one: its scheme and host are case-blind, its path is not. */
const URL_IN_TEXT = /[hH][tT][tT][pP][sS]?:\/\/[^\s<>"'`[\]{}|\\^]+/g;

/**
 * Do two replies that normalize alike name the same URL paths, case included? normalizeReply
 * lower-cases everything, and a path's case is part of the address (`/3xYzQ` is not `/3XyZq`).
 */
export function sameUrlPaths(a: string, b: string): boolean {
  if (!a.includes('://') && !b.includes('://')) return true;
  const paths = (t: string): string[] => Array.from(t.matchAll(URL_IN_TEXT), (m) => m[0].slice(m[0].indexOf('/', m[0].indexOf('://') + 3) >>> 0));
  const pa = paths(a);
  const pb = paths(b);
  return pa.length === pb.length && pa.every((p, i) => p === pb[i]);
}

/** A line that is only a rule or a setext underline: `---`, `***`, `___`, `===`. */
const RULE_LINES = /^[ \t]*(?:[-*_=][ \t]*){3,}$/gm;
/**
 * Emphasis and inline-code markers: `*`, `_` at a word's edge, `` ` ``. Strikethrough (`~~`) is kept:
 * struck text says something else. A run of `*` with a space (or the text's edge) on both sides is
 * not emphasis but a multiplication sign or a bullet's star, kept: "2 * 3". A single `_` between
 * two letters or digits is part of a word (`snake_case`), kept; every other run of `_` goes.
 * Each run of one marker is found by a plain scan and decided by its neighbours in the text as
 * given: a pattern with lookbehinds at each of its alternatives tried every position of the text,
 * several times slower on the ladder's every reply.
 */
const MARKER_RUNS = /`+|\*+|_+/g;
const SPACE = /\s/;
const WORD_ASCII = /^[A-Za-z0-9]$/;
// Built on first use (patterns.ts).
const WORD = unicodePattern(String.raw`^[\p{L}\p{N}]$`, 'u');

/** `text` without its emphasis and inline-code markers (see MARKER_RUNS); `ascii`: the text is all ASCII. */
export function stripEmphasis(text: string, ascii: boolean): string {
  return text.replace(MARKER_RUNS, (run: string, at: number) => {
    if (run[0] === '`') return '';
    if (run[0] === '*') {
      const before = at === 0 ? '' : (text[at - 1] as string);
      const after = text[at + run.length] ?? '';
      return (before !== '' && !SPACE.test(before)) || (after !== '' && !SPACE.test(after)) ? '' : run;
    }
    if (run.length > 1) return '';
    return isWordChar(codePointBefore(text, at), ascii) && isWordChar(at + 1 < text.length ? String.fromCodePoint(text.codePointAt(at + 1) as number) : '', ascii) ? run : '';
  });
}

/** The character (a whole code point) that ends just before `at`; '' at the start. */
function codePointBefore(text: string, at: number): string {
  if (at === 0) return '';
  const low = text.charCodeAt(at - 1);
  const high = at >= 2 ? text.charCodeAt(at - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? text.slice(at - 2, at) : (text[at - 1] as string);
}

function isWordChar(ch: string, ascii: boolean): boolean {
  return ch !== '' && (ascii ? WORD_ASCII.test(ch) : WORD().test(ch));
}

/**
 * Punctuation that ends a line or the text: `.`, `!`, `?`, `;`, `:`, `,`, the ellipsis, and the
 * full stops and commas of other scripts (`。`, `、`, `।`, `؟`, `،`, ...). Tried only where a run of it
 * starts, so a long run is read once.
 */
const LINE_END_PUNCTUATION = /(?<![.!?;:,\u2026\u3001\u3002\u0964\u0965\u060c\u061b\u061f\u06d4])[.!?;:,\u2026\u3001\u3002\u0964\u0965\u060c\u061b\u061f\u06d4]+(?=[ \t]*(?:\n|$))/g;
/**
 * A sentence's closing `.`, `!`, `?` or `…` before the next sentence's capital letter on the same
 * line: taken away, as a line's last punctuation is, so that one sentence a line and one paragraph
 * read alike ("We are open. Call us" and "We are open.\nCall us").
 */
const SENTENCE_END = unicodePattern(String.raw`(?<![.!?\u2026])[.!?\u2026]+(?=[ \t]+\p{Lu})`, 'gu');
const SENTENCE_END_ASCII = /(?<![.!?])[.!?]+(?=[ \t]+[A-Z])/g;
/**
 * A thousands separator between digit groups ("1,000", "1'000", "1 000"), and a space before `%`:
 * taken away. So is a point where it can only separate thousands: between groups of three before a
 * decimal comma ("1.500,50" reads "1500,50", as "1 500,50" does) or between two or more groups
 * ("1.234.567"); one point ("1.500") may be a decimal point, and is kept (docs/meaning.md, "Formatting").
 */
const NUMBER_SPACING = /(\d)(?:[,' ](?=\d{3}(?!\d))| (?=%)|\.(?=\d{3}(?:\.\d{3})*,\d|\d{3}\.\d{3}(?!\d))|(?<=\.\d{3})\.(?=\d{3}(?!\d)))/g;
/** En and em dashes and the minus sign, written `-`. */
const DASHES = /[\u2013\u2014\u2212]/g;
const CARRIAGE_RETURNS = /\r\n?/g;
/** What stripEmphasis can take away at all. */
const EMPHASIS_CHARS = /[*`_]/;
/** A run of whitespace that is not one plain space: made one space (a lone space is left as it is, uncopied). */
const WHITESPACE = /\s{2,}|[^\S ]/g;
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;

/**
 * A reply with its formatting taken away: Unicode NFKC (full-width letters and digits become
 * ordinary ones; superscript and subscript digits are kept apart as ^6 and _2), invisible
 * characters removed, curly quotes made straight, rule lines removed, Markdown quote and heading
 * markers at the start of a line removed (a `>` before a number kept), the markers of a list's
 * lines removed (a lone line is not a list), emphasis and inline-code markers removed,
 * punctuation at the end of each line removed, runs of whitespace made one space, lower case
 * (the ladder compares URL paths as written apart: sameUrlPaths). Two replies with the same normalized text differ only in formatting.
 */
export function normalizeReply(text: string): string {
  const ascii = !NON_ASCII.test(text);
  let t = ascii ? text : asciiDigits(markScriptDigits(text).normalize('NFKC').replace(INVISIBLE, '').replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"'));
  // Each pass runs only where its characters occur (the same result, fewer copies of the text).
  if (t.includes('\r')) t = t.replace(CARRIAGE_RETURNS, '\n');
  // A fenced code block's lines are kept as written (docs/meaning.md, "Formatting"): in code,
  // indentation, case, a `#`, a `-` or a `*` change what it does.
  if (!t.includes('```') && !t.includes('~~~')) return normalizeProse(t, ascii);
  return splitFencedCode(t)
    .map((part, i) => (i % 2 === 0 ? normalizeProse(part, ascii) : part))
    .join('\u0000');
}

/** normalizeReply for text outside fenced code blocks. */
function normalizeProse(text: string, ascii: boolean): string {
  // Inline code keeps its text as written but for its case (its `*`, `_` and spaces say what it
  // does): each span is a mark while the rest is normalized, then its text without its backquotes.
  const code: string[] = [];
  let t = text.includes('`') && !text.includes(CODE_MARK) ? markInlineCode(text, code) : text;
  t = stripListMarkers(t.replace(RULE_LINES, ''), false).replace(QUOTE_HEADING_MARKERS, '');
  if (EMPHASIS_CHARS.test(t)) t = stripEmphasis(t, ascii);
  if (!ascii) t = t.replace(DASHES, '-');
  t = t.replace(ascii ? SENTENCE_END_ASCII : SENTENCE_END(), '');
  // How a number is written ("1,000" or "1000", "10 %" or "10%") is formatting only when the facts
  // agree: the ladder compares them too (docs/meaning.md, "Formatting").
  t = t.replace(LINE_END_PUNCTUATION, '').replace(WHITESPACE, ' ').replace(NUMBER_SPACING, '$1').trim();
  // A unit's case is kept: "100 Mb/s" is not "100 MB/s", nor "5 mW" "5 MW". Its capitals get a mark
  // that lower case keeps (a reply that writes the mark itself keeps none).
  if (!t.includes(CAPITAL_MARK)) t = t.replace(UNIT_AFTER_NUMBER, (_, number: string, unit: string) => number + (AM_PM.test(unit) ? unit : unit.replace(CAPITALS, `${CAPITAL_MARK}$&`)));
  t = t.toLowerCase();
  if (code.length === 0) return t;
  let k = 0;
  return t.replace(CODE_MARKS, () => (code[k++] as string).toLowerCase());
}

/** A unit right after a number: 1 to 3 ASCII letters, with a capital among them ("MB", "Mb", "kWh", "mW"). */
const UNIT_AFTER_NUMBER = /(\d ?)((?=[a-z]{0,2}[A-Z])[A-Za-z]{1,3})(?![A-Za-z])/g;
/** A 12-hour time's half of the day, whose case says nothing ("5 PM" is "5 pm"). */
const AM_PM = /^[aApP][mM]?$/;
const CAPITALS = /[A-Z]/g;
/** Marks a unit's capital letter through lower case (a private-use character). */
const CAPITAL_MARK = '\ue001';

/** Stands for one inline code span while the text around it is normalized (a private-use character). */
const CODE_MARK = '\ue000';
const CODE_MARKS = /\ue000/g;
const BACKQUOTE_RUNS = /`+/g;

/**
 * `text` with each inline code span (a run of backquotes up to the next run of as many on its line)
 * made one CODE_MARK; the spans' texts, trimmed, pushed to `code` in order. Each run is looked at
 * once: the runs of a line are queued by their length.
 */
export function markInlineCode(text: string, code: string[]): string {
  // Every run of backquotes, with the line it is on (lines counted forwards, once).
  const runs: { start: number; end: number; line: number }[] = [];
  let line = 0;
  let nextNewline = text.indexOf('\n');
  BACKQUOTE_RUNS.lastIndex = 0;
  for (let m = BACKQUOTE_RUNS.exec(text); m !== null; m = BACKQUOTE_RUNS.exec(text)) {
    while (nextNewline !== -1 && nextNewline < m.index) {
      line++;
      nextNewline = text.indexOf('\n', nextNewline + 1);
    }
    runs.push({ start: m.index, end: m.index + m[0].length, line });
  }
  // Each run's index among the runs of its line and length, queued: a span closes at the next one.
  const queues = new Map<string, number[]>();
  runs.forEach((r, i) => {
    const key = `${r.line}:${r.end - r.start}`;
    const queue = queues.get(key);
    if (queue === undefined) queues.set(key, [i]);
    else queue.push(i);
  });
  const heads = new Map<string, number>();
  let out = '';
  let copied = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i] as { start: number; end: number; line: number };
    const key = `${open.line}:${open.end - open.start}`;
    const queue = queues.get(key) as number[];
    let head = heads.get(key) ?? 0;
    while (head < queue.length && (queue[head] as number) <= i) head++;
    heads.set(key, head);
    if (head === queue.length) continue;
    const j = queue[head] as number;
    const close = runs[j] as { start: number; end: number };
    out += text.slice(copied, open.start) + CODE_MARK;
    code.push(text.slice(open.end, close.start).trim());
    copied = close.end;
    i = j;
  }
  return out + text.slice(copied);
}

/** A line that opens or closes a fenced code block: its indentation, then 3 or more backquotes or tildes (group 2), then the info string. */
const FENCE = /^([ \t>]*)(`{3,}|~{3,})(.*)$/;

/**
 * The text cut at its fenced code blocks: prose, code, prose, code, ..., prose (always an odd
 * number of parts). A code part is the block's fence (its info string trimmed and in lower case)
 * and its lines as written: only their trailing whitespace and the opening fence's indentation
 * are taken away (so a block indented under a list item reads as one that is not). A block left
 * open runs to the end of the text, as Markdown reads it.
 */
export function splitFencedCode(text: string): string[] {
  const parts: string[] = [];
  let prose: string[] = [];
  let code: string[] | null = null;
  let fence = '';
  let indent = 0;
  for (const line of text.split('\n')) {
    const m = FENCE.exec(line);
    if (code === null) {
      if (m === null || ((m[2] as string)[0] === '`' && (m[3] as string).includes('`'))) {
        prose.push(line);
        continue;
      }
      parts.push(prose.join('\n'));
      prose = [];
      fence = m[2] as string;
      indent = (m[1] as string).length;
      code = [`${fence[0] as string}${fence[0] as string}${fence[0] as string} ${(m[3] as string).trim().toLowerCase()}`];
      continue;
    }
    if (m !== null && (m[2] as string)[0] === fence[0] && (m[2] as string).length >= fence.length && (m[3] as string).trim() === '') {
      parts.push(code.join('\n'));
      code = null;
      continue;
    }
    let cut = 0;
    while (cut < indent && cut < line.length && (line[cut] === ' ' || line[cut] === '\t' || line[cut] === '>')) cut++;
    code.push(line.slice(cut).trimEnd());
  }
  if (code !== null) parts.push(code.join('\n'));
  parts.push(prose.join('\n'));
  return parts;
}

const NOT_LETTERS = /[^A-Za-z]+/g;

/**
 * False when two texts cannot normalize alike (normalizeReply), found without normalizing them: for
 * text all in ASCII, normalizing takes no letter away and adds none (it takes markers, punctuation
 * and spacing away, marks a unit's capitals with a character that is not a letter, and lower-cases),
 * so texts whose letters differ, case aside, normalize apart. True otherwise (other text: NFKC can
 * change its letters), and then only normalizing them says. The ladder asks it before normalizing a
 * reworded reply it would normalize in vain.
 */
export function mayNormalizeAlike(a: string, b: string): boolean {
  if (NON_ASCII.test(a) || NON_ASCII.test(b)) return true;
  return a.replace(NOT_LETTERS, '').toLowerCase() === b.replace(NOT_LETTERS, '').toLowerCase();
}

