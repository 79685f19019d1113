// The common suite file, read line by line (docs/configuration.md, "How YAML is read").
//
// Most suite files are block mappings and lists of `key: value` lines whose values are quoted or
// plain scalars on one line, or one-line flow mappings (`assert: { contains: "30 days" }`). This
// reader takes exactly that shape, with regular expressions and indexOf doing the character work,
// and gives the same data and the same node positions as js-yaml with the suite schema
// (suite/yaml/schema.ts), in about two thirds of js-yaml's instructions on a first, unoptimized
// pass, which is what a suite of 5,000 fixtures in 500 files pays (docs/performance.md, "2026-12-06
// (late): the common fixture file read line by line"). Anything else (block
// scalars, a value continued on the next line, anchors, aliases, tags, tabs, a CR not before an LF,
// document markers, a key written twice, an empty value, a quoted key, a nested flow list, an
// escape it does not know) makes it return null, and js-yaml reads the file as before: it never
// guesses. CRLF line ends (a Windows checkout's) are read as js-yaml reads them: the line ends
// before its CR, and positions are offsets into the text as written (docs/configuration.md, "How
// YAML is read"). test/suite/yaml-lines.test.ts holds it equal to js-yaml on generated documents.

import { plainScalarValue } from './schema.js';

/** A node as js-yaml's listener reports it (suite/yaml/fast.ts): where it starts, its kind, its value. */
export interface Closed {
  /** Offset where the node opened. */
  start: number;
  kind: string | null;
  result: unknown;
  children: Closed[];
}

/**
 * Characters after which the reader does not trust itself: what js-yaml refuses (its non-printable
 * pattern), a byte-order mark inside the text, line breaks other than LF (a CR: loneCr), tabs.
 */
const OUTSIDE =
  // eslint-disable-next-line no-control-regex
  /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\t\uFEFF\uFFFE\uFFFF\u2028\u2029]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

/** A CR that ends no CRLF (a line break js-yaml reads and this reader does not). */
function loneCr(text: string): boolean {
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 2)) if (text.charCodeAt(i + 1) !== 10) return true;
  return false;
}

/** A plain key and its colon, followed by a space or the line's end (sticky: at an offset). */
const KEY = /[A-Za-z_][A-Za-z0-9_.-]{0,200}:(?=[ \r\n]|$)/y;
/** A plain scalar inside a flow mapping: no flow indicator, colon, comment or quote in it. */
const FLOW_PLAIN = /(?:[A-Za-z0-9_~]|[-+.](?=[A-Za-z0-9.]))[^,{}[\]#:"'\r\n]*/y;
/** Spaces (sticky). */
const SPACES = / */y;

/** Double-quoted escapes read here (js-yaml reads these the same way); any other escape: null. */
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', ' ': ' ' };

/** Block collections nested deeper than this are js-yaml's to read (suite files nest a few levels). */
const MAX_DEPTH = 20;

/** Thrown inside the reader when the text is not of the shape it takes; caught by readLines. */
const OTHER = Symbol('other');

interface Line {
  /** Offset of the line's first character. */
  start: number;
  /** Offset of its first character that is not a space. */
  content: number;
  /** Offset of its end (its `\n`, the `\r` of its CRLF, or the text's end). */
  end: number;
}

/**
 * The data and the node tree of a suite file of the common shape, or null: js-yaml reads it.
 * `text` has no byte-order mark (readYaml removes it).
 */
export function readLines(text: string): { data: unknown; root: Closed } | null {
  if (OUTSIDE.test(text) || loneCr(text)) return null;
  const lines = contentLines(text);
  if (lines === null || lines.length === 0) return null;
  const reader = new Reader(text, lines);
  try {
    const first = lines[0] as Line;
    const root = reader.block(first.content - first.start);
    return reader.at < lines.length ? null : { data: root.result, root };
  } catch (e) {
    if (e === OTHER) return null;
    throw e;
  }
}

/** The lines that hold something: blank lines and whole-line comments left out; null on a document marker. */
function contentLines(text: string): Line[] | null {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let next = text.indexOf('\n', start);
    if (next === -1) next = text.length;
    // A CR before the LF is the line's end, as js-yaml reads it (loneCr refused any other CR).
    const end = next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    SPACES.lastIndex = start;
    SPACES.test(text);
    const content = SPACES.lastIndex;
    if (content < end && text.charCodeAt(content) !== 35 /* # */) {
      // `---`, `...` (document markers) and `%` (a directive) at the start of a line.
      if (content === start && /^(?:---|\.\.\.)(?: |$)|^%/.test(text.slice(start, Math.min(end, start + 4)))) return null;
      lines.push({ start, content, end });
    }
    start = next + 1;
  }
  return lines;
}

class Reader {
  /** The next line to read. */
  at = 0;
  /** Block collections open. */
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly lines: readonly Line[],
  ) {}

  private line(): Line | undefined {
    return this.lines[this.at];
  }

  private indent(line: Line): number {
    return line.content - line.start;
  }

  /** `-` then a space or the line's end, at `offset`. */
  private isEntry(offset: number): boolean {
    const next = this.text.charCodeAt(offset + 1);
    return this.text.charCodeAt(offset) === 45 /* - */ && (next === 32 || next === 10 || next === 13 || Number.isNaN(next));
  }

  /**
   * The block collection whose first line is the next one, indented `indent`. Deeper than
   * MAX_DEPTH, js-yaml reads it (and refuses one nested more than 100 levels).
   */
  block(indent: number): Closed {
    const line = this.line();
    if (line === undefined || this.indent(line) !== indent || ++this.depth > MAX_DEPTH) throw OTHER;
    const node = this.isEntry(line.content) ? this.sequence(indent) : this.mapping(indent, line.content);
    this.depth--;
    return node;
  }

  /** A block list whose entries start at column `indent`. */
  private sequence(indent: number): Closed {
    const first = this.line() as Line;
    const node: Closed = { start: first.content, kind: 'sequence', result: [], children: [] };
    const items = node.result as unknown[];
    for (let line = this.line(); line !== undefined && this.indent(line) === indent && this.isEntry(line.content); line = this.line()) {
      SPACES.lastIndex = line.content + 1;
      SPACES.test(this.text);
      const at = SPACES.lastIndex;
      // `-` alone (its item on the next lines), `- - x`, `- # comment`: js-yaml's.
      if (at >= line.end || at === line.content + 1 || this.isEntry(at) || this.text.charCodeAt(at) === 35) throw OTHER;
      KEY.lastIndex = at;
      const item = KEY.test(this.text) ? this.mapping(at - line.start, at) : this.inline(at, line.end, indent);
      items.push(item.result);
      node.children.push(item);
    }
    const next = this.line();
    if (next !== undefined && this.indent(next) > indent) throw OTHER;
    return node;
  }

  /**
   * A block mapping whose keys start at column `column`; its first key at `offset` (a line's
   * content, or after a list entry's `- `).
   */
  private mapping(column: number, offset: number): Closed {
    const node: Closed = { start: offset, kind: 'mapping', result: {}, children: [] };
    const map = node.result as Record<string, unknown>;
    let from = offset;
    for (;;) {
      const line = this.line() as Line;
      KEY.lastIndex = from;
      if (!KEY.test(this.text)) throw OTHER;
      const colon = KEY.lastIndex - 1;
      const key = this.text.slice(from, colon);
      if (typeof plainScalarValue(key) !== 'string' || key === '__proto__' || Object.hasOwn(map, key)) throw OTHER;
      SPACES.lastIndex = colon + 1;
      SPACES.test(this.text);
      const valueAt = SPACES.lastIndex;
      let value: Closed;
      if (valueAt >= line.end || (valueAt > colon + 1 && this.text.charCodeAt(valueAt) === 35)) {
        // The value is the block on the next lines: deeper, or a list at the key's own column.
        this.at++;
        const next = this.line();
        if (next === undefined) throw OTHER;
        const nextIndent = this.indent(next);
        if (!(nextIndent > column || (nextIndent === column && this.isEntry(next.content)))) throw OTHER;
        value = this.block(nextIndent);
      } else {
        value = this.inline(valueAt, line.end, column);
      }
      map[key] = value.result;
      node.children.push({ start: from, kind: 'scalar', result: key, children: [] }, value);
      const next = this.line();
      if (next === undefined || this.indent(next) < column) return node;
      if (this.indent(next) > column || this.isEntry(next.content)) throw OTHER;
      from = next.content;
    }
  }

  /**
   * A value written on the rest of one line (from `offset` to `end`), inside a collection at
   * column `column`; the reader moves past that line. The next line may not be deeper: that
   * would continue the value.
   */
  private inline(offset: number, end: number, column: number): Closed {
    const value = this.scalarOrFlow(offset, end);
    const current = this.lines[this.at] as Line;
    if (current.end !== end) throw OTHER;
    this.at++;
    const next = this.line();
    if (next !== undefined && this.indent(next) > column) throw OTHER;
    return value;
  }

  /** A quoted, plain or flow value from `offset` to the line's end (a comment after it allowed). */
  private scalarOrFlow(offset: number, end: number): Closed {
    const c = this.text[offset];
    if (c === '"' || c === "'") {
      const q = c === '"' ? this.doubleQuoted(offset, end) : this.singleQuoted(offset, end);
      this.rest(q.end, end);
      return { start: offset, kind: 'scalar', result: q.value, children: [] };
    }
    if (c === '{' || c === '[') {
      const flow = this.flow(offset, end, c === '[');
      this.rest(flow.end, end);
      return flow.node;
    }
    // A plain scalar: to a comment (` #`) or the line's end, without what would make it another token.
    const line = this.text.slice(offset, end);
    const hash = line.indexOf(' #');
    const written = (hash === -1 ? line : line.slice(0, hash)).trimEnd();
    if (!/^(?:[A-Za-z0-9_~(/.+]|-(?=[A-Za-z0-9.]))/.test(written) || written.includes(': ') || written.endsWith(':')) throw OTHER;
    return { start: offset, kind: 'scalar', result: plainScalarValue(written), children: [] };
  }

  /** After a value: spaces, then the line's end or a comment. */
  private rest(from: number, end: number): void {
    SPACES.lastIndex = from;
    SPACES.test(this.text);
    const at = SPACES.lastIndex;
    if (at < end && !(at > from && this.text.charCodeAt(at) === 35)) throw OTHER;
  }

  private doubleQuoted(offset: number, end: number): { value: string; end: number } {
    let value = '';
    let from = offset + 1;
    for (;;) {
      const quote = this.text.indexOf('"', from);
      if (quote === -1 || quote >= end) throw OTHER;
      // Searched within the string read so far only: the text after it may hold no backslash at all.
      const before = this.text.slice(from, quote);
      const at = before.indexOf('\\');
      if (at === -1) return { value: value + before, end: quote + 1 };
      const slash = from + at;
      const escape = ESCAPES[this.text[slash + 1] as string];
      if (escape !== undefined) {
        value += this.text.slice(from, slash) + escape;
        from = slash + 2;
        continue;
      }
      const hex = this.text.slice(slash + 2, slash + 6);
      if (this.text[slash + 1] !== 'u' || !/^[0-9A-Fa-f]{4}$/.test(hex)) throw OTHER;
      const code = parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdfff) throw OTHER;
      value += this.text.slice(from, slash) + String.fromCharCode(code);
      from = slash + 6;
    }
  }

  private singleQuoted(offset: number, end: number): { value: string; end: number } {
    let value = '';
    let from = offset + 1;
    for (;;) {
      const quote = this.text.indexOf("'", from);
      if (quote === -1 || quote >= end) throw OTHER;
      value += this.text.slice(from, quote);
      if (this.text[quote + 1] !== "'") return { value, end: quote + 1 };
      value += "'";
      from = quote + 2;
    }
  }

  /** A flow mapping (`{ a: 1, b: "x" }`) or a flow list of scalars and flow mappings, on one line. */
  private flow(offset: number, end: number, list: boolean): { node: Closed; end: number } {
    const node: Closed = { start: offset, kind: list ? 'sequence' : 'mapping', result: list ? [] : {}, children: [] };
    let at = this.skip(offset + 1);
    const close = list ? ']' : '}';
    if (this.text[at] === close) return { node, end: at + 1 };
    for (;;) {
      if (list) {
        const item = this.text[at] === '{' ? this.flow(at, end, false) : this.flowScalar(at, end);
        (node.result as unknown[]).push(item.node.result);
        node.children.push(item.node);
        at = this.skip(item.end);
      } else {
        KEY.lastIndex = at;
        if (!KEY.test(this.text)) throw OTHER;
        const colon = KEY.lastIndex - 1;
        const key = this.text.slice(at, colon);
        const map = node.result as Record<string, unknown>;
        if (typeof plainScalarValue(key) !== 'string' || key === '__proto__' || Object.hasOwn(map, key) || this.text[colon + 1] !== ' ') throw OTHER;
        const value = this.flowScalar(this.skip(colon + 1), end);
        map[key] = value.node.result;
        node.children.push({ start: at, kind: 'scalar', result: key, children: [] }, value.node);
        at = this.skip(value.end);
      }
      if (at >= end) throw OTHER;
      if (this.text[at] === close) return { node, end: at + 1 };
      if (this.text[at] !== ',') throw OTHER;
      at = this.skip(at + 1);
      // A comma before the closing bracket, or a line's end: js-yaml's.
      if (at >= end || this.text[at] === close) throw OTHER;
    }
  }

  /** A quoted or plain scalar inside a flow collection. */
  private flowScalar(at: number, end: number): { node: Closed; end: number } {
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const q = c === '"' ? this.doubleQuoted(at, end) : this.singleQuoted(at, end);
      return { node: { start: at, kind: 'scalar', result: q.value, children: [] }, end: q.end };
    }
    FLOW_PLAIN.lastIndex = at;
    if (!FLOW_PLAIN.test(this.text) || FLOW_PLAIN.lastIndex > end) throw OTHER;
    const written = this.text.slice(at, FLOW_PLAIN.lastIndex).trimEnd();
    return { node: { start: at, kind: 'scalar', result: plainScalarValue(written), children: [] }, end: at + written.length };
  }

  private skip(from: number): number {
    SPACES.lastIndex = from;
    SPACES.test(this.text);
    return SPACES.lastIndex;
  }
}
