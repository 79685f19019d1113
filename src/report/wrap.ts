// Lines inside code blocks are at most 100 characters (docs/action.md#the-pr-comment): longer lines are wrapped at a
// space where there is one, and every continuation line starts with a visible mark.

import { unicodePattern } from '../patterns.js';

/** Longest line inside any code block of the comment, in UTF-16 units (never fewer than characters). */
export const CODE_WIDTH = 100;
/** Starts every continuation line of a wrapped line. */
export const CONTINUATION = '↪ ';

/** Sentinels for marked words while wrapping (private use; stripped from the text beforehand). */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';
const SENTINELS = /[\uE000\uE001]/g;

export function stripSentinels(text: string): string {
  return text.replace(SENTINELS, '');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Where to cut `text` so the first part is at most `max` units, but for spaces at its end (the line
 * drops them): after the last space, and after the spaces that follow it (a run of them across the
 * cut started the next line "↪  tail"), else hard.
 */
function cutAt(text: string, max: number): number {
  if (text.length <= max) return text.length;
  const space = text.lastIndexOf(' ', max);
  if (space > max / 3) {
    let cut = space + 1;
    while (text.charCodeAt(cut) === 32) cut++;
    return cut;
  }
  let end = max;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return Math.max(end, 1);
}

/** Is a marked span open at the end of `text`? */
function openAtEnd(text: string, open: boolean): boolean {
  let state = open;
  for (const ch of text) {
    if (ch === MARK_OPEN) state = true;
    else if (ch === MARK_CLOSE) state = false;
  }
  return state;
}

/** The isolates' characters of ours (docs/meaning.md, "Right-to-left text"): LRI, RLI, FSI open one, PDI closes it. */
const ISOLATE = /[\u2066-\u2069]/;
const PDI = '\u2069';

function isIsolateOpen(ch: string): boolean {
  return ch === '\u2066' || ch === '\u2067' || ch === '\u2068';
}

/** The isolates open after `text`, outermost first, from those open before it. */
function isolatesAtEnd(text: string, open: string): string {
  let stack = open;
  for (const ch of text) {
    if (isIsolateOpen(ch)) stack += ch;
    else if (ch === PDI) stack = stack.slice(0, -1);
  }
  return stack;
}

/** The deepest nesting of isolates in `text`: the most closing characters a wrapped line of it can need. */
function isolateDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const ch of text) {
    if (isIsolateOpen(ch)) deepest = Math.max(deepest, ++depth);
    else if (ch === PDI) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/**
 * Wraps one line to `width` units. `first` prefixes the first line, `next` every continuation
 * line (the continuation mark is added after it). A marked span cut by a wrap is closed at the end
 * of the line and reopened on the next, so every line reads on its own; so are the right-to-left
 * isolates a wrap cuts (a tool call's JSON in a script's transcript): each line closes those it
 * left open and the next reopens them, the same characters, so each line is drawn as the whole
 * was (a continuation without its isolate was drawn by its own first strong character). A line
 * with no isolate is wrapped as before.
 */
export function wrapLine(text: string, width = CODE_WIDTH, first = '', next = ''): string[] {
  const lines: string[] = [];
  let rest = text;
  let prefix = first;
  let open = false;
  // Room for the closing characters of the deepest isolates, when the line has any.
  const depth = ISOLATE.test(text) ? isolateDepth(text) : 0;
  let isolates = '';
  for (;;) {
    const reopen = `${open ? MARK_OPEN : ''}${isolates}`;
    // Room for the prefix, a reopened mark and a closing mark at the end.
    const room = Math.max(8, width - prefix.length - reopen.length - 1 - depth);
    let cut = cutAt(rest, room);
    // An isolate opened at the cut opens on the next line, not empty at this one's end.
    if (depth > 0) while (cut > 1 && cut < rest.length && isIsolateOpen(rest[cut - 1] as string)) cut--;
    const part = rest.slice(0, cut);
    rest = rest.slice(cut);
    const stillOpen = openAtEnd(part, open);
    const body = `${reopen}${part}`;
    if (rest === '') {
      lines.push(`${prefix}${body}`.replace(/\s+$/, ''));
      return lines;
    }
    const trimmed = body.replace(/ +$/, '');
    // Isolates that close right at the cut close on this line, not reopened empty on the next.
    if (depth > 0) {
      // One pass over the line: each closing character at the cut closes the innermost still open.
      let left = isolatesAtEnd(part, isolates);
      let closing = '';
      while (rest.startsWith(PDI) && left !== '') {
        closing += PDI;
        left = left.slice(0, -1);
        rest = rest.slice(1);
      }
      if (rest === '') {
        lines.push(`${prefix}${trimmed}${closing}`);
        return lines;
      }
      lines.push(`${prefix}${trimmed}${closing}${stillOpen ? MARK_CLOSE : ''}${PDI.repeat(left.length)}`);
      isolates = left;
    } else lines.push(`${prefix}${trimmed}${stillOpen ? MARK_CLOSE : ''}`);
    open = stillOpen;
    prefix = `${next}${CONTINUATION}`;
    // A mark that closes right at the cut needs no reopening.
    if (open && rest.startsWith(MARK_CLOSE)) {
      rest = rest.slice(1);
      open = false;
    }
    // Spaces after what closed at a hard cut are the wrap's, as a cut at a space drops them: the next
    // line starts "↪ tail", not "↪  tail".
    if (rest.startsWith(' ')) {
      rest = rest.replace(/^ +/, '');
      if (rest === '') return lines;
    }
  }
}

/** Every line of `text` wrapped to `width`: the body of a plain code block. */
export function wrapBlock(text: string, width = CODE_WIDTH): string {
  return stripSentinels(text)
    .split('\n')
    .flatMap((line) => (line.length <= width ? [line] : wrapLine(line, width)))
    .join('\n');
}

/** The no-break space: words it joins stay on one line. */
export const NBSP = '\u00a0';
// Built at first use (src/patterns.ts): a \p{...} literal costs every start; the bundles stay ASCII.
const NUMBER_UNIT = unicodePattern('(\\d) (ms|s|min|h|%)(?![\\p{L}\\p{N}])', 'gu');
const P_VALUE = /\bp ([=<>\u2264\u2265]) (?=\d)/g;

/**
 * An item's status words as the comment's `<summary>` line shows them, no quantity split across
 * two lines (docs/action.md#the-pr-comment): the line wraps at any space on a phone, so "slower:
 * 1.2 s → 2.9 s" broke between "1.2" and "s". A number and its unit, and "p = 0.003", are joined
 * by no-break spaces; the words around them still wrap.
 */
export function keepQuantitiesWhole(text: string): string {
  return text.replace(NUMBER_UNIT(), `$1${NBSP}$2`).replace(P_VALUE, `p${NBSP}$1${NBSP}`);
}
