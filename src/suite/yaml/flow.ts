// Flow collections (`[a, b]`, `{ contains: "x" }`) read from a file's text, bracket by bracket, for
// the words of the parser's "Flow map in block collection must be sufficiently indented and end
// with a }": which bracket was never closed, or closed by the other kind, or closed left of where
// YAML looks for it, and the line as it should read where that is certain.

import { plural, shownJson } from '../../words.js';

/** How a flow collection opened at an offset ends (scanFlow). */
export type FlowScan =
  | { kind: 'closed'; end: number }
  /** The text ends first: the brackets still open there (offsets), and whether it ends inside a quoted value. */
  | { kind: 'open'; open: number[]; quoted: boolean }
  /** A `]` closes a `{` (or a `}` a `[`): the innermost bracket still open, the next one out (null: none), the closing bracket. */
  | { kind: 'mismatched'; opener: number; outer: number | null; closer: number };

const CLOSER: Record<string, string> = { '[': ']', '{': '}' };

/**
 * Where the flow collection opened by the `[` or `{` at `start` ends. Quoted scalars (a quote right
 * after `[`, `{`, `,` or `:`) and comments are skipped.
 */
export function scanFlow(text: string, start: number): FlowScan {
  const open: number[] = [start];
  let prev = text[start] as string;
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '#' && /\s/.test(text[i - 1] ?? '')) {
      const eol = text.indexOf('\n', i);
      if (eol === -1) return { kind: 'open', open, quoted: false };
      i = eol;
      continue;
    }
    if ((c === '"' || c === "'") && '[{,:'.includes(prev)) {
      // A double-quoted scalar ends at a `"` not escaped by a backslash; a single-quoted one at a
      // `'` not doubled.
      let j = i + 1;
      while (j < text.length) {
        if (c === '"' && text[j] === '\\') j += 2;
        else if (text[j] !== c) j += 1;
        else if (c === "'" && text[j + 1] === "'") j += 2;
        else break;
      }
      if (j >= text.length) return { kind: 'open', open, quoted: true };
      i = j;
      prev = c;
      continue;
    }
    if (c === '[' || c === '{') open.push(i);
    else if (c === ']' || c === '}') {
      const opener = open.pop() as number;
      if (CLOSER[text[opener] as string] !== c) return { kind: 'mismatched', opener, outer: open.at(-1) ?? null, closer: i };
      if (open.length === 0) return { kind: 'closed', end: i };
    }
    if (!/\s/.test(c)) prev = c;
  }
  return { kind: 'open', open, quoted: false };
}

/** A `[` or `{` that starts a value: after `key: `, `- ` or a line's indentation. */
const FLOW_STARTS = /(?:^[ \t]*|[:?-][ \t]+)([[{])/gm;

/**
 * A line's text from `start` up to `end`, read for its comment and quoted scalars: where a comment
 * starts (a `#` after a space), or where a quote is opened and not closed by `end`; null for each
 * when there is none. A quote counts where it starts a value (at the line's indentation, or after
 * `[`, `{`, `,`, or `: `, `- `, `? `): the `'` of `don't` is text.
 */
export function lineQuotes(text: string, start: number, end: number): { comment: number | null; open: number | null } {
  let open: number | null = null;
  /** The last character that is not a space, and whether spaces followed it. */
  let prev = '';
  let spaced = true;
  for (let i = start; i < end; i += 1) {
    const c = text[i] as string;
    if (open !== null) {
      const quote = text[open];
      if (quote === '"' && c === '\\') i += 1;
      else if (c === quote && quote === "'" && text[i + 1] === "'") i += 1;
      else if (c === quote) {
        open = null;
        prev = c;
        spaced = false;
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      spaced = true;
      continue;
    }
    if (c === '#' && spaced) return { comment: i, open: null };
    if ((c === '"' || c === "'") && (prev === '' || '[{,'.includes(prev) || (spaced && ':-?'.includes(prev)))) open = i;
    prev = c;
    spaced = false;
  }
  return { comment: null, open };
}

/** Whether the offset `at` is inside a comment or a quoted scalar of its line (`# e.g. tags: [`, `message: 'see: [x'`): its text, not a bracket. */
function inTextOfLine(text: string, at: number): boolean {
  const { comment, open } = lineQuotes(text, text.lastIndexOf('\n', at - 1) + 1, at);
  return comment !== null || open !== null;
}

/** The last text read by quotedLines, and what it found. */
let quotedLinesOf: { text: string; starts: Map<number, string> } | null = null;

/** The offset of the quote that closes a `quote` scalar, looked for from `from` up to `end`; null when not there. */
function closingQuote(text: string, quote: string, from: number, end: number): number | null {
  for (let i = from; i < end; i += 1) {
    if (quote === '"' && text[i] === '\\') i += 1;
    else if (text[i] === quote && quote === "'" && text[i + 1] === "'") i += 1;
    else if (text[i] === quote) return i;
  }
  return null;
}

/**
 * The lines of `text` that start inside a quoted scalar begun on a line above (`message: "see the`
 * then `  [docs first"`): their offsets and the quote. A block scalar's lines (after `key: |` or
 * `>`) are text and open no quote. Read once per text, and only for a refused file's brackets.
 */
function quotedLines(text: string): Map<number, string> {
  if (quotedLinesOf?.text === text) return quotedLinesOf.starts;
  const starts = new Map<number, string>();
  let quote: string | null = null;
  /** The indentation of a block scalar's key while its lines are read, else null. */
  let block: number | null = null;
  for (let start = 0; start < text.length; ) {
    const eol = text.indexOf('\n', start);
    const end = eol === -1 ? text.length : eol;
    const line = text.slice(start, end);
    const indent = (/^ */.exec(line) as RegExpExecArray)[0].length;
    if (quote !== null) {
      starts.set(start, quote);
      const closed = closingQuote(text, quote, start, end);
      if (closed !== null) {
        const { open } = lineQuotes(text, closed + 1, end);
        quote = open === null ? null : (text[open] as string);
      }
    } else if (block === null || (!/^\s*$/.test(line) && indent <= block)) {
      const { open } = lineQuotes(text, start, end);
      quote = open === null ? null : (text[open] as string);
      block = quote === null && /(?:^|[:-][ \t]+)[|>][-+0-9]*[ \t]*(?:#.*)?\r?$/.test(line) ? indent : null;
    }
    if (eol === -1) break;
    start = eol + 1;
  }
  quotedLinesOf = { text, starts };
  return starts;
}

/** Whether the offset `at` is in a quoted scalar begun on a line above its own (quotedLines), or in a comment or quoted scalar after it closes. */
function inQuoteFromAbove(text: string, at: number): boolean {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const quote = quotedLines(text).get(start);
  if (quote === undefined) return false;
  const closed = closingQuote(text, quote, start, at);
  if (closed === null) return true;
  const { comment, open } = lineQuotes(text, closed + 1, at);
  return comment !== null || open !== null;
}

/**
 * The next match of FLOW_STARTS (a `g` copy) in `text` whose bracket is not in a comment or a
 * quoted scalar; null at the end. `above`: a quoted scalar begun on a line above counts too (a
 * refused file's brackets; a file read as written is not read for it, see docs/configuration.md).
 */
function nextFlowStart(starts: RegExp, text: string, above = true): RegExpExecArray | null {
  for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
    const at = m.index + m[0].length - 1;
    if (!inTextOfLine(text, at) && !(above && inQuoteFromAbove(text, at))) return m;
  }
  return null;
}

/**
 * The offset of the last `[` or `{` before `end` that starts a value and is never closed; null when
 * there is none (or a bracket of the other kind closes one first: flowSlip's case). The parser says
 * so where the flow collection had to end (often the next line, or the end of the file); the
 * bracket is where to look.
 */
export function unclosedFlow(text: string, end: number): number | null {
  let found: number | null = null;
  const starts = new RegExp(FLOW_STARTS);
  for (let m = nextFlowStart(starts, text); m !== null && m.index < end; m = nextFlowStart(starts, text)) {
    const at = m.index + m[0].length - 1;
    if (at >= end) break;
    const scan = scanHere(text, at);
    if (scan.kind === 'open') found = at;
    else if (scan.kind === 'mismatched') return null;
    else starts.lastIndex = scan.end + 1;
  }
  return found;
}

/** The offsets where the line holding `offset` starts and ends (before its line break and any `\r`). */
function lineSpan(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const eol = text.indexOf('\n', offset);
  let end = eol === -1 ? text.length : eol;
  if (text[end - 1] === '\r') end -= 1;
  return { start, end };
}

/** 1-based line and column of an offset. */
export type Locate = (offset: number) => { line: number | null; column: number | null };

/**
 * The column (0-based) left of which no line of a flow collection opened at `opener` may start,
 * and what sets it: the key the collection is the value of, or the "-" of the list item it is; null
 * when the opening line shows neither.
 */
function leftEdge(text: string, opener: number): { indent: number; what: string } | null {
  const { start } = lineSpan(text, opener);
  const before = text.slice(start, opener);
  const lead = /^( *)((?:- +)*)/.exec(before) as RegExpExecArray;
  const rest = before.slice(lead[0].length);
  const key = /^("[^"]*"|'[^']*'|[^\s#:[\]{},][^:#]*?)\s*:\s+$/.exec(rest);
  if (key !== null) return { indent: lead[0].length, what: shownJson((key[1] as string).replace(/^["']|["']$/g, '')) };
  if (rest === '' && lead[2] !== '') return { indent: lead[0].trimEnd().length - 1, what: 'the "-"' };
  return null;
}

/**
 * The line of a `[` or `{` never closed, closed at its end (before a comment) with a bracket for
 * each one still open there, outermost last (`assert: { contains: x` reads `assert: { contains: x }`),
 * when the collection it is in is on that line alone: the next line that is not blank is indented
 * no deeper than the collection's key (or there is none). null otherwise, or when the line ends
 * inside a quoted value.
 */
export function closedAtLineEnd(text: string, opener: number): { line: string; closers: string } | null {
  const line = lineSpan(text, opener);
  const written = text.slice(line.start, line.end);
  const comment = /\s#/.exec(written.slice(opener - line.start));
  const upTo = comment === null ? written.length : opener - line.start + comment.index;
  const body = written.slice(0, upTo);
  // The outermost collection of the line that holds the bracket still open at the line's end.
  const starts = new RegExp(FLOW_STARTS);
  for (let m = nextFlowStart(starts, body, false); m !== null; m = nextFlowStart(starts, body, false)) {
    const start = m.index + m[0].length - 1;
    if (start > opener - line.start) return null;
    const scan = scanFlow(body, start);
    if (scan.kind === 'closed') {
      starts.lastIndex = scan.end + 1;
      continue;
    }
    if (scan.kind === 'mismatched' || scan.quoted || !scan.open.includes(opener - line.start)) return null;
    const edge = leftEdge(text, line.start + start);
    const after = text.slice(line.end).split('\n').slice(1).find((l) => !/^\s*(?:#.*)?$/.test(l));
    if (edge === null || (after !== undefined && (/^ */.exec(after)?.[0].length ?? 0) > edge.indent)) return null;
    // Each bracket closed as it is opened: `{ ` with ` }`, `[` with `]`.
    const open = [...scan.open].reverse();
    const closing = open.map((o) => `${body[o + 1] === ' ' ? ' ' : ''}${CLOSER[body[o] as string] as string}`).join('');
    const closers = open.map((o) => CLOSER[body[o] as string] as string).join(' ');
    return { line: `${body.trimEnd()}${closing}${written.slice(upTo)}`.trimEnd(), closers };
  }
  return null;
}

/**
 * The flow collection opened at `start`, read no further than YAML reads it: up to the first line
 * after its own indented less than its key (or its item's "-"), unless that line starts with a
 * closing bracket (one left of its key, which flowSlip tells to indent).
 */
function scanHere(text: string, start: number): FlowScan {
  const whole = scanFlow(text, start);
  const edge = leftEdge(text, start);
  if (edge === null) return whole;
  // Only the lines the collection would take are looked at.
  const bound = whole.kind === 'closed' ? whole.end : whole.kind === 'mismatched' ? whole.closer : text.length;
  let at = lineSpan(text, start).end;
  for (let next = text.indexOf('\n', at); next !== -1 && next < bound; next = text.indexOf('\n', at)) {
    at = next + 1;
    const { end } = lineSpan(text, at);
    const line = text.slice(at, end);
    if (/^\s*(?:#.*)?$/.test(line) || /^ */.exec(line)![0].length >= edge.indent) continue;
    if (/^\s*[\]}]/.test(line)) break;
    return scanFlow(text.slice(0, at), start);
  }
  return whole;
}

/** Does the flow collection opened at `opener` end on the line it ends on, with nothing after it but a comment? */
function closesCleanly(text: string, opener: number): boolean {
  const scan = scanFlow(text, opener);
  if (scan.kind !== 'closed') return false;
  const { end } = lineSpan(text, scan.end);
  return /^\s*(?:#.*)?$/.test(text.slice(scan.end + 1, end));
}

/** One flow collection closed by the wrong bracket, or closed left of its key: said at that bracket. */
export interface FlowSlip {
  /** The closing bracket, where the issue is said. */
  at: number;
  /** The offset of the flow collection's first bracket and the end of the closing bracket's line: what the slip covers. */
  from: number;
  to: number;
  message: string;
  fix: string;
}

/**
 * The flow collection the parser's "must be sufficiently indented and end with a ..." at `offset`
 * is about, when a bracket closes it: a bracket of the other kind (`{ contains: "x" ]`, `[a, b }`,
 * `{ a: [1, 2 }`), or the right one on a later line indented less than the collection's key (YAML
 * looks for it at the key's column or deeper). Said at that bracket, with the line as it should
 * read where one change makes the collection whole; null when no bracket closes it there (a
 * bracket never closed: unclosedFlow).
 */
export function flowSlip(text: string, offset: number, locate: Locate): FlowSlip | null {
  const starts = new RegExp(FLOW_STARTS);
  for (let m = nextFlowStart(starts, text); m !== null && m.index <= offset; m = nextFlowStart(starts, text)) {
    const start = m.index + m[0].length - 1;
    if (start >= offset) break;
    const scan = scanHere(text, start);
    if (scan.kind === 'open') continue;
    const closer = scan.kind === 'closed' ? scan.end : scan.closer;
    const line = lineSpan(text, closer);
    // The parser says it at the closing bracket, or just after it on its line.
    if (scan.kind === 'closed' && offset > line.end + 1) {
      starts.lastIndex = scan.end + 1;
      continue;
    }
    if (offset < closer || offset > line.end + 1) return null;
    const edge = leftEdge(text, start);
    const lineNo = locate(closer).line;
    const written = text.slice(line.start, line.end);
    const indent = (/^ */.exec(written)?.[0] ?? '').length;
    // The closing bracket first on its line, left of the key: moved to the key's column.
    const leftOf = edge !== null && line.start + indent === closer && indent < edge.indent && lineNo !== locate(start).line ? edge : null;
    const moved = (s: string): string => (leftOf === null ? s : ' '.repeat(leftOf.indent) + s.trimStart());
    const where = (o: number): string => {
      const p = locate(o);
      return `line ${String(p.line)}, column ${String(p.column)}`;
    };
    const shift = leftOf === null ? '' : `indent it by ${plural(leftOf.indent, 'space', 'spaces')} (not ${String(indent)}), as ${leftOf.what}${leftOf.what === 'the "-"' ? '' : ' is'} on line ${String(locate(start).line)}`;
    const reads = (fixed: string): string => `so that line ${String(lineNo)} reads\n    ${moved(fixed).trimEnd()}`;
    const whole = (fixed: string): boolean => closesCleanly(text.slice(0, line.start) + moved(fixed) + text.slice(line.end), start);
    const slip = (message: string, fix: string): FlowSlip => ({ at: closer, from: start, to: line.end, message: `invalid YAML: ${message}`, fix });
    if (scan.kind === 'closed') {
      if (leftOf === null) return null;
      return slip(
        `the ${text[closer] as string} on line ${String(lineNo)} closes the ${text[start] as string} opened at ${where(start)} but is indented less than ${leftOf.what} on line ${String(locate(start).line)}, so YAML does not read it as part of the ${text[start] === '[' ? '[ ]' : '{ }'}, and reads nothing of the file after it`,
        `${shift}, ${reads(written)}`,
      );
    }
    const opened = text[scan.opener] as string;
    const wrong = text[closer] as string;
    const right = CLOSER[opened] as string;
    const local = closer - line.start;
    const replaced = written.slice(0, local) + right + written.slice(local + 1);
    // The bracket meant for the one around it (`{ a: [1, 2 }`): the inner one's closing bracket left out.
    const [head, tail] = [written.slice(0, local), written.slice(local + 1)];
    const inserted = `${head.trimEnd()}${right}${head.slice(head.trimEnd().length)}${written.slice(local)}`;
    const removed = head.endsWith(' ') && tail.startsWith(' ') ? head + tail.slice(1) : head + tail;
    const also = leftOf === null ? '' : ` and ${shift}`;
    if (scan.outer !== null && text[scan.outer] !== undefined && CLOSER[text[scan.outer] as string] === wrong && whole(inserted)) {
      return slip(
        `the ${opened} opened at ${where(scan.opener)} is never closed: the ${wrong} here closes the ${text[scan.outer] as string} opened at ${where(scan.outer)}`,
        `close the ${opened} with ${right} before the ${wrong}${also}, ${reads(inserted)}`,
      );
    }
    const message = `the ${opened} opened at ${where(scan.opener)} is closed here by ${wrong}, not by ${right}`;
    if (whole(replaced)) return slip(message, `write ${right} in place of the ${wrong}${also}, ${reads(replaced)}`);
    if (whole(removed)) return slip(`this ${wrong} closes nothing that is open: the ${opened} opened at ${where(scan.opener)} is closed by a ${right}`, `remove the ${wrong}${also}, ${reads(removed)}`);
    return slip(message, `write ${right} where the ${opened} is meant to end, and remove the ${wrong} or open it with ${wrong === ']' ? '[' : '{'}; if a bracket is part of a value, put the whole value in quotes`);
  }
  return null;
}

/** A line of a flow collection that YAML reads as ending it (flowIndentSlips). */
export interface FlowIndentSlip {
  /** The offset where the line's text starts. */
  at: number;
  /** The collection's first bracket and its closing bracket. */
  opener: number;
  closer: number;
  /** The line's indentation, the key's (or "-"'s) column, and the indentation the fix writes. */
  indent: number;
  edge: number;
  fixedIndent: number;
  /** The key (quoted) or `the "-"` the collection's lines must be indented past. */
  what: string;
  /** The line as it should read. */
  fixed: string;
}

/**
 * The lines of multi-line flow collections (`message: [a,` then `b]`) indented no deeper than the
 * collection's key or "-": js-yaml reads them as part of the collection (the brackets say where
 * it ends), YAML 1.2 and the `yaml` package end the collection before them and refuse the file. A
 * line that starts with the bracket closing the collection may stand at the key's column.
 * `above`: as nextFlowStart's (a refused file's).
 */
export function flowIndentSlips(text: string, above = false): FlowIndentSlip[] {
  const out: FlowIndentSlip[] = [];
  const starts = new RegExp(FLOW_STARTS);
  for (let m = nextFlowStart(starts, text, above); m !== null; m = nextFlowStart(starts, text, above)) {
    const start = m.index + m[0].length - 1;
    const scan = scanFlow(text, start);
    if (scan.kind !== 'closed') continue;
    starts.lastIndex = scan.end + 1;
    const edge = leftEdge(text, start);
    if (edge === null) continue;
    for (let next = text.indexOf('\n', start); next !== -1 && next < scan.end; next = text.indexOf('\n', next + 1)) {
      const line = lineSpan(text, next + 1);
      const written = text.slice(line.start, line.end);
      const indent = (/^ */.exec(written) as RegExpExecArray)[0].length;
      if (indent > edge.indent || /^\s*(?:#.*)?$/.test(written)) continue;
      // Inside a quoted value the line's indentation is part of the text.
      const before = scanFlow(text.slice(0, line.start), start);
      if (before.kind !== 'open' || before.quoted) continue;
      const closesAll = before.open.length === 1 && /^[\]}]$/.test(written[indent] ?? '');
      if (closesAll && indent === edge.indent) continue;
      // The closing bracket at the key's column, as the key's own line starts; any other line two deeper.
      const fixedIndent = closesAll ? edge.indent : edge.indent + 2;
      out.push({ at: line.start + indent, opener: start, closer: scan.end, indent, edge: edge.indent, fixedIndent, what: edge.what, fixed: ' '.repeat(fixedIndent) + written.trimStart() });
    }
  }
  return out;
}

/**
 * The words for a FlowIndentSlip: a warning in a file read as written (`refused` false), an error
 * in one the `yaml` document's words are said for.
 */
export function flowIndentWords(text: string, slip: FlowIndentSlip, locate: Locate, refused: boolean): { message: string; fix: string } {
  const line = String(locate(slip.at).line);
  const pair = text[slip.opener] === '[' ? '[ ]' : '{ }';
  const edge = slip.what === 'the "-"' ? 'the "-"' : `the key ${slip.what}`;
  const where = `line ${line}, inside the ${pair} opened on line ${String(locate(slip.opener).line)}, is indented ${slip.indent === 0 ? 'by no spaces' : `by ${plural(slip.indent, 'space', 'spaces')}`}, ${slip.indent < slip.edge ? 'less than' : 'no deeper than'} ${edge}`;
  return {
    message: refused
      ? `invalid YAML: ${where}, so YAML ends the ${pair} before it`
      : `${where}: agent-replay reads it as part of the ${pair}, but YAML 1.2 ends the ${pair} before it, and other YAML tools (editors, linters) refuse the file`,
    fix: `indent it by ${plural(slip.fixedIndent, 'space', 'spaces')}, so that line ${line} reads\n    ${slip.fixed.trimEnd()}`,
  };
}

/**
 * The line holding a `]` or `}` that closes nothing (`message: [a, b]]`) as it reads without it,
 * when a collection opened on that line then ends cleanly there; null otherwise (the bracket alone
 * on its line, or more than one change needed).
 */
export function withoutStrayCloser(text: string, offset: number): string | null {
  const line = lineSpan(text, offset);
  const written = text.slice(line.start, line.end);
  const local = offset - line.start;
  const [head, tail] = [written.slice(0, local), written.slice(local + 1)];
  const fixed = head.endsWith(' ') && (tail === '' || tail.startsWith(' ')) ? head.trimEnd() + tail : head + tail;
  const m = nextFlowStart(new RegExp(FLOW_STARTS), fixed, false);
  if (m === null) return null;
  const after = text.slice(0, line.start) + fixed + text.slice(line.end);
  return closesCleanly(after, line.start + m.index + m[0].length - 1) ? fixed.trimEnd() : null;
}
