// How deep a JSON text nests, found by scanning it: baseline files are read back with parsers that
// recurse once a level (the `yaml` document that places an error, zod's schema), and a hundred
// thousand levels (a few hundred kilobytes of `[`) would exhaust their stack, or crash the process
// outright when V8 compiles a regular expression at the stack's edge (docs/fixtures.md, "Baselines").
// Where a JSON text stops being JSON, and JSON.parse's words for it, are read here too.

import { unicodePattern } from '../patterns.js';

/** The most levels of lists and objects a baseline or results file may nest: a tool call's 256 (docs/presets.md, "Tool calls") under the file's own. */
export const MAX_JSON_DEPTH = 320;

/** A control character (a line break, a tab) quoted as JSON.parse's unexpected token. */
const CONTROL_TOKEN = unicodePattern(String.raw`'(\p{Cc})'`, 'gu');

/** The offset of the first `[` or `{` (outside strings) that opens a level deeper than `max`, or null. */
export function deepJsonOffset(text: string, max: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return null;
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * What JSON.parse said, without where: the error gives the line and column already, so "in JSON at
 * position 74", Node 22's "(line 6 column 3)" and the text around the mistake that V8 quotes ('...
 * "verdict": pas ... is not valid JSON', over several lines) are not said again.
 */
export function jsonErrorWords(message: string): string {
  return message
    .replace(/, (?:\.\.\.)?"[\s\S]* is not valid JSON$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .replace(/(?: in JSON)? at position \d+$/, '')
    // A line break or tab as the token is shown as its escape, not as itself over two lines.
    .replace(CONTROL_TOKEN(), (_, c: string) => `'${JSON.stringify(c).slice(1, -1)}'`);
}

/** A literal or a number that ends at the text's end before it is whole: "t", "fals", "nu", "-", "12.", "1e", "1.5E-". */
const CUT_WORD = /(?:t(?:ru?)?|f(?:a(?:ls?)?)?|n(?:ul?)?|-|-?(?:0|[1-9]\d*)(?:\.\d*)?(?:[eE][+-]?\d*)?)$/y;

/**
 * The offset of the first character of `text` that JSON does not take there (text.length when it
 * ends too soon), or null when it is JSON or nests deeper than MAX_JSON_DEPTH (so the recursion is
 * bounded): where V8's message gives no position.
 */
export function jsonSyntaxOffset(text: string): number | null {
  if (deepJsonOffset(text, MAX_JSON_DEPTH) !== null) return null;
  let i = 0;
  const fail = (): never => {
    throw new RangeError(String(i));
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const ch = text.charCodeAt(i);
      if (ch === 0x22) break;
      if (ch < 0x20) fail();
      if (ch === 0x5c) {
        i++;
        if (text[i] === 'u') {
          const hex = text.slice(i + 1, i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            // An escape the text ends inside ("\u00") ends too soon.
            if (i + 5 > text.length && /^[0-9a-fA-F]*$/.test(hex)) i = text.length;
            fail();
          }
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    space();
    const ch = text[i];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (ch === '{') {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ':') fail();
          i++;
        }
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === close) {
          i++;
          return;
        } else fail();
      }
    }
    if (ch === '"') return string();
    const word = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    word.lastIndex = i;
    const whole = word.test(text);
    const end = whole ? word.lastIndex : i;
    // A word the text ends inside ("tr", "nul", "-", "1.", "2e+") ends too soon: a text cut there.
    if (end < text.length) {
      CUT_WORD.lastIndex = i;
      if (CUT_WORD.test(text)) {
        i = text.length;
        fail();
      }
    }
    if (!whole) fail();
    i = end;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (e) {
    if (e instanceof RangeError && /^\d+$/.test(e.message)) return Number(e.message);
    throw e;
  }
}

/**
 * The offset of a comma after the last entry of an object or list (`"commit": "abc",` before `}`,
 * the mistake a hand edit leaves most), when the mistake JSON.parse found at `offset` is the `}` or
 * `]` after it; null otherwise. The parser names the `}` ("Expected double-quoted property name"),
 * a line below the comma to remove.
 */
export function trailingCommaAt(text: string, offset: number): { comma: number; closes: 'object' | 'list' } | null {
  const closer = text[offset];
  if (closer !== '}' && closer !== ']') return null;
  let i = offset - 1;
  while (i >= 0 && ' \t\n\r'.includes(text[i] as string)) i--;
  return i >= 0 && text[i] === ',' ? { comma: i, closes: closer === '}' ? 'object' : 'list' } : null;
}

/**
 * The mistake JSON.parse's error `message` about `text` is, when it is a comma after the last entry
 * (trailingCommaAt): said at the comma, in the words a baseline and a results file both give, with
 * the fix, and the comma's line without it (`reads`). Null for any other mistake.
 */
export function trailingCommaError(text: string, message: string): { line: number; column: number; words: string; fix: string; reads: string } | null {
  const offset = jsonErrorOffset(text, message);
  const trailing = offset === null ? null : trailingCommaAt(text, offset);
  if (trailing === null) return null;
  const { line, column } = lineColumnAt(text, trailing.comma);
  const start = text.lastIndexOf('\n', trailing.comma - 1) + 1;
  return {
    line,
    column,
    words: `a comma after the last entry of ${trailing.closes === 'object' ? 'an object' : 'a list'}, which JSON does not allow`,
    fix: `remove the comma at line ${String(line)}, column ${String(column)}`,
    reads: shownLine(text.slice(start, trailing.comma) + text.slice(trailing.comma + 1, lineEnd(text, trailing.comma))),
  };
}

/** The offset where the line holding `offset` ends (its line break, or the text's end). */
function lineEnd(text: string, offset: number): number {
  const eol = text.indexOf('\n', offset);
  return eol === -1 ? text.length : eol;
}

/** A line of a JSON file as a fix shows it: without its indentation or a CR. */
function shownLine(line: string): string {
  return line.replace(/\r$/, '').trim();
}

/**
 * The mistake JSON.parse's "Expected ',' or '}' after property value" (or "',' or ']' after array
 * element") is when a value starts where it stopped (a key, a string, a number, a list): the comma
 * between two entries left out, the mistake a hand edit or a merge leaves (a line added after the
 * last one, the comma not added to the line before). Said where the comma is missing, at the end
 * of the entry before, with that line as it should read; null for any other mistake.
 */
export function missingCommaError(text: string, message: string): { line: number; column: number; words: string; fix: string } | null {
  const m = /^Expected ',' or '([}\]])' after (property value|array element)/.exec(message);
  const offset = m === null ? null : jsonErrorOffset(text, message);
  if (m === null || offset === null || !/^["{[\-0-9tfn]/.test(text[offset] ?? '')) return null;
  let end = offset;
  while (end > 0 && ' \t\n\r'.includes(text[end - 1] as string)) end--;
  const { line, column } = lineColumnAt(text, end);
  const next = lineColumnAt(text, offset).line;
  const start = text.lastIndexOf('\n', end - 1) + 1;
  const entry = m[2] === 'property value' ? 'entry' : 'item';
  return {
    line,
    column,
    words: `a comma left out after this ${entry}${next === line ? '' : `, before the next one on line ${String(next)}`}: JSON separates the ${entry === 'entry' ? "entries of an object" : 'items of a list'} with commas`,
    fix: `add a comma at line ${String(line)}, column ${String(column)}, so that line ${String(line)} reads\n    ${shownLine(text.slice(start, end))},${next === line ? ` ${shownLine(text.slice(offset, lineEnd(text, offset)))}` : ''}`,
  };
}

/**
 * The mistake JSON.parse's "Bad control character in string literal" (at `offset`, the character)
 * is, in the words of whoever edited the file: a string not closed on its line, its closing `"` left
 * out (the next line starts another key, or closes the object or list); a line break typed inside a
 * string (it closes on a later line); or a tab or another control character inside one. Said with
 * where to look (the quote that opens the string, or the character) and the fix, the line as it
 * should read when the file shows it; null for any other mistake.
 */
export function controlCharacterError(text: string, message: string): { line: number; column: number; words: string; fix: string } | null {
  if (!/^Bad control character in string literal/.test(message)) return null;
  const offset = jsonErrorOffset(text, message);
  const ch = offset === null ? undefined : text[offset];
  if (offset === null || ch === undefined) return null;
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const { line } = lineColumnAt(text, start);
  if (ch !== '\n' && ch !== '\r') {
    const escape = JSON.stringify(ch).slice(1, -1);
    const what = ch === '\t' ? 'a tab' : `the control character U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    // Each such character of the line after its indentation (inside its strings, as a hand edit leaves them) written as its escape.
    const end = text.indexOf('\n', offset);
    const shown = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '').trim();
    const fixed = Array.from(shown, (c) => (c.charCodeAt(0) < 0x20 ? JSON.stringify(c).slice(1, -1) : c)).join('');
    return { ...lineColumnAt(text, offset), words: `${what} inside a string, which JSON writes as ${escape}`, fix: `write it as ${escape}, so that line ${String(line)} reads\n    ${fixed}` };
  }
  const open = openingQuote(text.slice(start, offset));
  if (open === null) return null;
  const column = open + 1;
  const written = text.slice(start, offset);
  const after = text.slice(offset).replace(/^\r?\n/, '');
  // The next line starts another key ("verdict": ...), is another string of a list ("b" or "b",),
  // or closes the object or list: the quote was left out.
  if (/^\s*(?:"[^"\n]*"\s*(?::|,?[ \t]*(?:\r?\n|$))|[}\]])/.test(after) || after.trim() === '') {
    // Before a comma that ends the entry, where the quote belongs.
    const m = /^(.*?)(\s*,\s*)$/.exec(written.slice(open + 1));
    const fixed = m === null ? `${written.trimEnd()}"` : `${written.slice(0, open + 1)}${m[1] as string}"${(m[2] as string).trim()}`;
    return { line, column, words: 'the string opened here is not closed on its line (its closing " left out)', fix: `close it with ", so that line ${String(line)} reads\n    ${fixed.trim()}` };
  }
  // A line break typed inside the string: its lines joined, each break written \n.
  let close = start + open + 1;
  while (close < text.length && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
  if (close >= text.length) return null;
  const end = text.indexOf('\n', close);
  const spanned = text.slice(start, end === -1 ? text.length : end).replace(/\r$/, '');
  const last = line + (spanned.match(/\n/g) ?? []).length;
  return {
    line,
    column,
    words: 'the string opened here goes on past its line: a line break inside a string is written \\n in JSON',
    fix: `join lines ${String(line)} to ${String(last)} into one, with \\n for each line break, so that line ${String(line)} reads\n    ${spanned.replace(/\r?\n/g, '\\n').trim()}`,
  };
}

/**
 * The hand edit JSON.parse's error `message` about `text` is, in the words a baseline and a results
 * file both give, with the line as it should read: a comma after the last entry (trailingCommaError),
 * one left out between two (missingCommaError), a string's closing quote left out or a control
 * character inside one (controlCharacterError). The fix's line is on its own, after a line break;
 * null for any other mistake.
 */
export function handEditError(text: string, message: string): { line: number; column: number; words: string; fix: string } | null {
  const trailing = trailingCommaError(text, message);
  if (trailing !== null) return { line: trailing.line, column: trailing.column, words: trailing.words, fix: `${trailing.fix}, so that line ${String(trailing.line)} reads\n    ${trailing.reads}` };
  return missingCommaError(text, message) ?? controlCharacterError(text, message);
}

/** The index in `line` of the `"` that opens the string the line ends inside, or null when it ends outside one. */
function openingQuote(line: string): number | null {
  let open: number | null = null;
  for (let i = 0; i < line.length; i++) {
    if (open !== null && line[i] === '\\') i++;
    else if (line[i] === '"') open = open === null ? i : null;
  }
  return open;
}

/** True when JSON text stops inside an object, an array or a string: a file cut off while it was copied or written. */
export function endsEarly(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return inString || depth > 0;
}

/**
 * Where the string opens that a text ends inside (endsEarly) when that text is a complete one with
 * the string's closing quote left out, not one cut short: read from its opening quote on as if no
 * string were open, the rest closes every list and object left open, each with its own bracket,
 * and the text ends with the last of them (`{"a": 1, "b: 2}`, a quote left out earlier on a line
 * turning the rest inside out, `{"a": ["x, "y"], "b": 1}`, or a closing quote escaped, `{"reply":
 * "say \"}`). Null otherwise: the text does not end in a string, or it stops with lists or objects
 * still open (cut short).
 */
export function unclosedStringAt(text: string): number | null {
  const open: string[] = [];
  let quote: number | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== null) {
      if (ch === '\\') i++;
      else if (ch === '"') quote = null;
    } else if (ch === '"') quote = i;
    else if (ch === '{' || ch === '[') open.push(ch);
    else if (ch === '}' || ch === ']') open.pop();
  }
  if (quote === null || open.length === 0 || !/[}\]]$/.test(text.trimEnd())) return null;
  for (const ch of text.slice(quote + 1)) {
    if (ch === '{' || ch === '[') open.push(ch);
    else if (ch === '}' || ch === ']') {
      if (open.pop() !== (ch === '}' ? '{' : '[')) return null;
    }
  }
  return open.length === 0 ? quote : null;
}

/**
 * Where a file cut short (endsEarly) stops: just after its last character that is not white space,
 * when JSON.parse's mistake is there (only white space after it), which is where the text ends,
 * not at the parser's words for what it expected; null for a mistake elsewhere (a quote left out
 * in the middle of the file).
 */
export function cutShortAt(text: string, message: string): number | null {
  if (!endsEarly(text)) return null;
  const end = text.trimEnd().length;
  const offset = jsonErrorOffset(text, message);
  return offset !== null && offset >= end ? end : null;
}

/** Where JSON.parse's error `message` about `text` is: its position, else where the text stops being JSON; null when neither says. */
export function jsonErrorOffset(text: string, message: string): number | null {
  const m = /at position (\d+)/.exec(message);
  return m ? Math.min(Number(m[1]), text.length) : jsonSyntaxOffset(text);
}

/**
 * The offset of the value at `path` (object keys and list indexes, `['fixtures', 3, 'label']`) in
 * a text JSON.parse reads, found by scanning it without a parse; null when the text has no value
 * there. Where a record's problem found after parsing is, to say it at its line. A key an object
 * has twice (a file edited by hand) is its last, the one JSON.parse keeps.
 */
export function jsonValueOffset(text: string, path: readonly (string | number)[]): number | null {
  let i = 0;
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  /** Past a string that starts at i; its text, quotes included. */
  const string = (): string => {
    const start = i++;
    while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
    return text.slice(start, ++i);
  };
  /** Past the value that starts at i (a list or object by its depth, never by recursion). */
  const skip = (): void => {
    let depth = 0;
    do {
      const c = text[i];
      if (c === '"') {
        string();
        continue;
      }
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      else if (depth === 0) {
        // A number, true, false or null: up to what ends it.
        while (i < text.length && !',]} \t\n\r'.includes(text[i] as string)) i++;
        continue;
      }
      i++;
    } while (depth > 0 && i < text.length);
  };
  /** Past the comma after an entry; false at the end of its list or object. */
  const next = (): boolean => {
    space();
    if (text[i] !== ',') return false;
    i++;
    space();
    return true;
  };
  for (const step of path) {
    space();
    if (typeof step === 'number') {
      if (text[i] !== '[') return null;
      i++;
      space();
      if (text[i] === ']') return null;
      for (let k = 0; k < step; k++) {
        skip();
        if (!next()) return null;
      }
    } else {
      if (text[i] !== '{') return null;
      i++;
      space();
      // Every entry is read: a later one of the same key is the value JSON.parse keeps.
      let found: number | null = null;
      if (text[i] !== '}') {
        for (;;) {
          if (text[i] !== '"') return null;
          const key = JSON.parse(string()) as string;
          space();
          i++; // the colon
          space();
          if (key === step) found = i;
          skip();
          if (!next()) break;
        }
      }
      if (found === null) return null;
      i = found;
    }
  }
  space();
  return i < text.length ? i : null;
}
