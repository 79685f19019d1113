// The words of YAML syntax errors: what the `yaml` parser reported, and for the commonest slip (a
// regex's backslash inside double quotes) the line as it should read.

import { lineOf, type ConfigIssue } from '../issues.js';
import { headOf, plural, shownJson, tailOf } from '../../words.js';
import type { CST } from 'yaml';
import { yamlPackage } from './package.js';
import { documentSource, type Position, type SourceFile, type YamlSyntaxError } from './source.js';
import { closedAtLineEnd, flowIndentSlips, flowIndentWords, flowSlip, lineQuotes, scanFlow, unclosedFlow, withoutStrayCloser, type FlowIndentSlip, type FlowSlip } from './flow.js';
import { splitNumberAt, splitNumberWords, splitWritesKeyTwice } from './split-number.js';

import { alsoMoved, blockTextWords, emptyItemWords, indentOf, isBlank, lineRange, linesWord, spacesWord } from './moved.js';
import { DUPLICATE_KEY_MESSAGE, onlyDuplicateKeys, SYNTAX_FIX } from './syntax-kinds.js';

export { onlyDuplicateKeys, SYNTAX_FIX };

/** The indentation of line `n` (1-based) of `lines`: moved.ts's indentOf, by line number; 0 past the last line. */
function indentAt(lines: readonly string[], n: number): number {
  return indentOf(lines[n - 1] ?? '');
}

/** The key written at `pos` (the second of the two), read from its line; null when the line says otherwise. */
function duplicateKeyAt(src: SourceFile, pos: Position): string | null {
  const line = pos.line === null ? null : lineOf(src, pos.line);
  if (line === null) return null;
  const m = /^\s*(?:-\s+)?(?:"([^"]*)"|'([^']*)'|([^\s:#{}[\],][^:#]*?))\s*:/.exec(line.slice(Math.max(0, (pos.column ?? 1) - 1)));
  return m === null ? null : (m[1] ?? m[2] ?? m[3] ?? null);
}

/**
 * The line where `key`, written again at `pos`, is first written in the same block mapping: the
 * lines above at the key's column, up to the line that opens the mapping; null when not found (a
 * flow mapping, or a key written otherwise).
 */
function firstKeyLine(src: SourceFile, pos: Position, key: string): number | null {
  if (pos.line === null || pos.column === null) return null;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let n = pos.line - 1; n >= 1; n -= 1) {
    const text = lines[n - 1] as string;
    if (isBlank(text)) continue;
    // The column of the line's key: after its indentation and any "- ".
    const lead = /^[ ]*(?:-[ ]+)*/.exec(text)?.[0] ?? '';
    const indent = indentOf(text);
    if (lead.length + 1 === pos.column && duplicateKeyAt(src, { line: n, column: pos.column }) === key) return n;
    // A line less indented than the key (the key above the mapping, or the "- " item it starts): no further.
    if (indent + 1 < pos.column) return null;
  }
  return null;
}

/**
 * The offset of the first quote (`"` or `'`) before `end` that opens a value and is not closed on
 * its line; null when there is none. A quoted value may go on over lines in YAML, so this is where
 * a reader looks first, not a proof. Quotes closed on their line, and those in comments or inside
 * another quoted value, are skipped (`message: "Can I get a refund?"` closes its quote).
 */
function unclosedQuote(text: string, quote: string, end: number): number | null {
  for (let start = 0; start < end; ) {
    const eol = text.indexOf('\n', start);
    const lineEnd = eol === -1 ? text.length : eol;
    const { open } = lineQuotes(text, start, lineEnd);
    if (open !== null && open < end && text[open] === quote) return open;
    if (eol === -1) break;
    start = eol + 1;
  }
  return null;
}

/** The parser's words where a flow collection (`[ ]`, `{ }`) does not end where YAML looks for its end. */
const FLOW_END = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a/;

/** Whether the parser says a flow collection does not end where it looks for its end: in a block collection (FLOW_END), or one that is the whole document ("Flow map must end with a }"). */
function isFlowEnd(err: YamlSyntaxError): boolean {
  return (err.code === 'BAD_INDENT' && FLOW_END.test(err.message)) || (err.code === 'MISSING_CHAR' && /^Flow (sequence|map) must end with a/.test(err.message));
}

/** `key:value` at a line's start: a key with no space after its colon, which YAML reads as text. */
const NO_SPACE_AFTER_COLON = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*):(\S.*)$/;

/** The issue for a line of `lines` from `first` (1-based) that writes `key:value` with no space, or null. */
function missingSpace(src: SourceFile, first: number, last: number): ConfigIssue | null {
  for (let n = first; n <= last; n += 1) {
    const line = lineOf(src, n);
    const m = line === null ? null : NO_SPACE_AFTER_COLON.exec(line);
    if (m === null) continue;
    const [, indent = '', key = '', rest = ''] = m;
    return {
      file: src.file,
      line: n,
      column: indent.length + 1,
      message: `invalid YAML: ${shownJson(headOf(`${key}:${rest}`, 60))} has no space after the colon, so YAML reads it as text, not as the key ${shownJson(key)}`,
      fix: `put a space after the colon, so that line ${String(n)} reads\n    ${key}: ${rest}`,
    };
  }
  return null;
}

/** `url http://host/chat` or `- message hi`: a key, spaces, then its value, with no colon after the key. */
const NO_COLON_AFTER_KEY = /^(\s*(?:-\s+)?)([A-Za-z_][A-Za-z0-9_-]*)[ \t]+([^\s#:][^#]*?)\s*(?:#.*)?$/;

/**
 * A line that is a key and its value with the colon left out (`message hi`, `url http://...`):
 * YAML reads it as a key over several lines ("Implicit keys need to be on a single line") or a key
 * with no value ("Implicit map keys need to be followed by map values"). Said at that line with the
 * line as it should read; null when the line is a `key:` line or shows no such key.
 */
function missingColonAt(src: SourceFile, n: number | null): ConfigIssue | null {
  const line = lineOf(src, n);
  if (n === null || line === null || KEY_LINE.test(line)) return null;
  // `assert` alone with its keys indented under it: the colon of a key whose value is below.
  const bare = /^(\s*(?:-\s+)?)([A-Za-z_][A-Za-z0-9_-]*)\s*(#.*)?$/.exec(line);
  const next = src.text.split('\n').slice(n).find((l) => !isBlank(l));
  if (bare !== null && next !== undefined && indentOf(next) > (bare[1] ?? '').length) {
    const [, lead = '', key = ''] = bare;
    return {
      file: src.file,
      line: n,
      column: lead.length + 1,
      message: `invalid YAML: line ${String(n)} has no ":" after its key ${shownJson(key)}, so YAML cannot read the lines indented under it as its value`,
      fix: `write ":" after ${shownJson(key)}, so that line ${String(n)} reads\n    ${lead}${key}:`,
    };
  }
  const m = NO_COLON_AFTER_KEY.exec(line);
  if (m === null) return null;
  const [, lead = '', key = '', value = ''] = m;
  // The rest of the line as written (a comment after the value keeps its spaces).
  const rest = line.slice(lead.length + key.length).replace(/^[ \t]+/, '');
  return {
    file: src.file,
    line: n,
    column: lead.length + 1,
    message: `invalid YAML: line ${String(n)} has no ":" after its key ${shownJson(key)}, so YAML cannot read ${shownJson(headOf(value, 60))} as its value`,
    fix: `write ": " after ${shownJson(key)}, so that line ${String(n)} reads\n    ${`${lead}${key}: ${rest}`.trimEnd()}`,
  };
}

/**
 * missingColonAt for line `n`, with every other line of the same mapping that has no ":" after its
 * key either (`message hi`, then `assert x`): one issue at the first, naming each line with the line
 * as it should read, whichever of them the parser says it at. The mapping's lines are those whose
 * key is at the column of line `n`'s, up to a line left of it; a line deeper than it is a value's,
 * and a key whose value may go on over lines (`[`, `{`, a quote) ends the search.
 */
function missingColon(src: SourceFile, n: number | null): ConfigIssue | null {
  return colonsLeftOut(src, n)?.issue ?? null;
}

/** missingColon's issue, with the lines it names and their keys, in order. */
function colonsLeftOut(src: SourceFile, n: number | null): { issue: ConfigIssue; lines: number[]; keys: string[] } | null {
  const here = missingColonAt(src, n);
  if (here === null || n === null) return null;
  const keyOf = (k: number): string => (/^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_-]*)/.exec(lineOf(src, k) ?? '') as RegExpExecArray)[1] as string;
  if (here.column === null) return { issue: here, lines: [n], keys: [keyOf(n)] };
  const col = here.column - 1;
  const keyColumn = (l: string): number => (/^ *(?:- +)?/.exec(l) as RegExpExecArray)[0].length;
  /** Whether line `k` is in the mapping and lacks its ":" (true), is in it as a key that may be passed (false), or ends it (null). */
  const step = (k: number): boolean | null => {
    const text = lineOf(src, k) ?? '';
    if (keyColumn(text) !== col) return null;
    if (missingColonAt(src, k) !== null) return true;
    const key = KEY_LINE.exec(text);
    return key === null || /^[[{"']/.test(text.slice(key[0].length).trimStart()) ? null : false;
  };
  const lines: number[] = [n];
  const total = src.text.split('\n').length;
  // A line n that starts its item ("- contains x") is its mapping's first: the lines above are another item's.
  for (const way of indentOf(lineOf(src, n) ?? '') < col ? [1] : [-1, 1]) {
    for (let k = n + way; k >= 1 && k <= total; k += way) {
      const text = lineOf(src, k) ?? '';
      if (isBlank(text) || indentOf(text) > col) continue;
      // Above, the item's "- " line is the mapping's first; below, a line left of the column ends it.
      if (indentOf(text) < col && (way === 1 || keyColumn(text) !== col)) break;
      const lacks = step(k);
      if (lacks === null) break;
      if (lacks) lines.push(k);
      if (indentOf(text) < col) break;
    }
  }
  lines.sort((a, b) => a - b);
  const keys = lines.map(keyOf);
  if (lines.length === 1) return { issue: here, lines, keys };
  const each = lines.map((k) => missingColonAt(src, k) as ConfigIssue);
  const reads = (i: ConfigIssue): string => i.fix.slice(i.fix.lastIndexOf(' reads\n') + ' reads\n'.length);
  const head = each[0] as ConfigIssue;
  return {
    lines,
    keys,
    issue: {
      file: src.file,
      line: head.line,
      column: head.column,
      message: `invalid YAML: ${linesWord(lines)} have no ":" after their keys (${keys.map((k) => shownJson(k)).join(', ')}), so YAML cannot read them as keys and their values`,
      fix: `write ":" after each key (and a space before its value), so that ${each.map((i, j) => `line ${String(lines[j])} reads\n${reads(i)}`).join('\n  and ')}`,
    },
  };
}

/**
 * A text that YAML read from lines each written as `key value` without the ":" (`agent:`, then
 * `  url http://...` and `  timeoutMs 5`): valid YAML, one text, which the schema refuses where a
 * mapping belongs. When `value`, starting at `at`, is those lines and each key is one of `keys`:
 * missingColon's words for them (without "invalid YAML:"), to say after the schema's; null otherwise.
 */
export function keysWithoutColons(src: SourceFile, at: Position, value: string, keys: readonly string[], oneEach?: OneEach): { message: string; fix: string } | null {
  const found = colonsLeftOut(src, at.line);
  if (found === null || found.issue.line !== at.line || found.issue.column !== at.column || !found.keys.every((k) => keys.includes(k))) return null;
  // The text YAML read is those lines and nothing else (the first's "- ", and a comment after the last, left out).
  const from = (found.issue.column ?? 1) - 1;
  const words = (t: string): string => t.trim().split(/\s+/).join(' ');
  const written = found.lines.map((k) => (lineOf(src, k) ?? '').slice(from).replace(/\s#.*$/, '')).join(' ');
  if (words(written) !== words(value)) return null;
  // The message as for one key of `oneEach` (an issue's message is clipped at 300 characters): the fix says why a list.
  return { message: found.issue.message.replace(/^invalid YAML: /, ''), fix: (oneEach === undefined ? null : asListItems(src, found.lines, found.keys, oneEach)) ?? found.issue.fix };
}

/**
 * Keys of which a mapping holds one (`noun`: a fixture's assert is one check, `contains` or
 * `maxLatencyMs`), the others going with the one before (a judge's `threshold`).
 */
export interface OneEach {
  keys: readonly string[];
  noun: string;
}

/**
 * keysWithoutColons's fix when the lines, with their ":", would be a mapping holding several of
 * `oneEach.keys` (`contains x`, `maxLatencyMs 5`): the lines as a list, each such key starting an
 * item at the column of the first line's key (or its "-"), so that the file as fixed loads; null
 * when they hold one.
 */
function asListItems(src: SourceFile, lines: readonly number[], keys: readonly string[], oneEach: OneEach): string | null {
  const each = keys.filter((k) => oneEach.keys.includes(k));
  if (each.length < 2) return null;
  const dash = indentOf(lineOf(src, lines[0] ?? null) ?? '');
  const read: string[] = [];
  for (const [j, n] of lines.entries()) {
    const m = NO_COLON_AFTER_KEY.exec(lineOf(src, n) ?? '');
    if (m === null) return null;
    const [line, lead = '', key = ''] = m;
    const item = oneEach.keys.includes(key) || j === 0;
    read.push(`    ${' '.repeat(dash)}${item ? '- ' : '  '}${`${key}: ${line.slice(lead.length + key.length).replace(/^[ \t]+/, '')}`.trimEnd()}`);
  }
  return `write ":" after each key (and a space before its value), and each of the ${String(each.length)} ${oneEach.noun}s as an item of a list (a mapping is one ${oneEach.noun}), so that ${linesWord(lines)} read\n${read.join('\n')}`;
}

/**
 * missingColon for the last line above line `n` that is not blank, when it starts at the same column
 * as line `n` (a key of the same mapping, not the next line of a text that runs on); null otherwise.
 */
function missingColonAbove(src: SourceFile, n: number | null): ConfigIssue | null {
  const indent = (k: number): number => indentOf(lineOf(src, k) ?? '');
  for (let k = (n ?? 1) - 1; k >= 1; k -= 1) {
    if (isBlank(lineOf(src, k) ?? '')) continue;
    return n !== null && indent(k) === indent(n) ? missingColon(src, k) : null;
  }
  return null;
}

/**
 * One slip the parser reports twice ("Nested mappings are not allowed in compact mappings", then
 * "Implicit keys need to be on a single line", both at the value of the line above): a `key:` line
 * indented deeper than the key before it, which YAML reads as more of that key's value; or a key
 * written without a space after its colon. Said once, at the line to change, with the line as it
 * should read; null when the text shows neither.
 */
function implicitKeySlip(src: SourceFile, err: YamlSyntaxError): ConfigIssue | null {
  const first = src.offsetAt(err.offset).line;
  const last = src.offsetAt(err.end).line;
  if (first === null || last === null) return null;
  const noSpace = missingSpace(src, first, last) ?? missingColon(src, first);
  if (noSpace !== null || last <= first) return noSpace;
  const above = /^(\s*(?:-\s+)?)([^\s#:][^:#]*?)\s*:\s/.exec(lineOf(src, first) ?? '');
  const deeper = /^(\s+)(\S.*)$/.exec(lineOf(src, last) ?? '');
  if (above === null || deeper === null) return null;
  const [, keyIndent = '', key = ''] = above;
  const [, indent = '', content = ''] = deeper;
  if (indent.length <= keyIndent.length || indent.includes('\t')) return null;
  return {
    file: src.file,
    line: last,
    column: indent.length + 1,
    message: `invalid YAML: line ${String(last)} is indented deeper than ${shownJson(key)} on line ${String(first)}, so YAML reads it as more of ${shownJson(key)}'s value, not as a key of its own`,
    fix: `${keyIndent.length === 0 ? `start it at the beginning of the line (not after ${plural(indent.length, 'space', 'spaces')})` : `indent it by ${plural(keyIndent.length, 'space', 'spaces')} (not ${String(indent.length)})`}, as ${shownJson(key)} is on line ${String(first)}, so that line ${String(last)} reads\n    ${' '.repeat(keyIndent.length)}${content}`,
  };
}

/**
 * Keys of the suite's files whose value is a mapping of keys (docs/fixtures.md, docs/configuration.md,
 * docs/personas.md): `assert: contains: "x"` under one of them means a key under it, not text.
 */
const MAPPING_KEYS = new Set(['assert', 'agent', 'judge', 'cost', 'regex', 'repeat', 'headers', 'request', 'response', 'expect', 'traces', 'receive', 'query', 'meaning', 'latency', 'stats', 'coverage', 'simulator', 'toolCalled', 'toolNotCalled']);

/**
 * `assert: contains: "x"`: a key of a mapping-valued key written on that key's line, the value one
 * simple `key: text` (no further ": "); the two keys, or null.
 */
function keyOnKeyLine(before: string, value: string): { outer: string; inner: string } | null {
  const outer = /^\s*(?:-\s+)?([A-Za-z][\w-]*)\s*:\s*$/.exec(before)?.[1];
  const inner = /^([A-Za-z][\w-]*):\s+(\S.*)$/.exec(value);
  if (outer === undefined || !MAPPING_KEYS.has(outer) || inner === null || /:\s/.test(inner[2] as string)) return null;
  return { outer, inner: inner[1] as string };
}

/**
 * `message: Note: refunds take 30 days`: a plain value holding ": " is read as a mapping, which a
 * key's value on the same line cannot be ("Nested mappings are not allowed in compact mappings"),
 * nor one in `{ }` or `[ ]` (`assert: { contains: Note: 30 days }`, "Block collections are not
 * allowed within flow collections": `flow`, where the value ends at a `,`, `}` or `]`). The value
 * was meant as text: the line with it in quotes; null when the line shows no such value.
 */
function colonInValue(src: SourceFile, err: YamlSyntaxError, flow = false): ConfigIssue | null {
  const pos = src.offsetAt(err.offset);
  const line = lineOf(src, pos.line);
  if (line === null || pos.column === null) return null;
  const rest = line.slice(pos.column - 1);
  const value = (flow ? rest.slice(0, /[,}\]]|$/.exec(rest)?.index) : rest).replace(/\s+#.*$/, '').trimEnd();
  if (!/^[^\s"'[{&*!|>#-][^#]*:\s/.test(value)) return null;
  const nested = flow ? null : keyOnKeyLine(line.slice(0, pos.column - 1), value);
  if (nested !== null) {
    const fixed = `${line.slice(0, pos.column - 1)}{ ${value} }${line.slice(pos.column - 1 + value.length)}`;
    return {
      file: src.file,
      line: pos.line,
      column: pos.column,
      message: `invalid YAML: ${shownJson(nested.inner)} is written on the line of ${shownJson(nested.outer)}, which YAML does not read as a key under it`,
      fix: `put it in { }, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}\n  or write it on a line of its own, indented under ${shownJson(nested.outer)}`,
    };
  }
  const quoted = value.includes('"') ? `'${value.replace(/'/g, "''")}'` : `"${value.replace(/\\/g, '\\\\')}"`;
  const fixed = `${line.slice(0, pos.column - 1)}${quoted}${line.slice(pos.column - 1 + value.length)}`;
  return {
    file: src.file,
    line: pos.line,
    column: pos.column,
    message: `invalid YAML: the value ${shownJson(headOf(value, 60))} holds ": ", which YAML reads as one more key on the same line`,
    fix: `put the value in quotes, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}`,
  };
}

/** A key at the start of a line (after its indentation and any "- "): its indentation and name. */
const KEY_LINE = /^( *)(?:- +)?("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:(?:\s|$)/;

/**
 * A key indented less than the keys above it but more than the key they belong to (`agent:`, then
 * `  url:`, then ` timeoutMs:`): YAML cannot tell which mapping it is in ("All mapping items must
 * start at the same column"). Said with both columns it can take; null when the lines say otherwise.
 */
function misalignedKey(src: SourceFile, line: number | null): ConfigIssue | null {
  if (line === null) return null;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const here = KEY_LINE.exec(lines[line - 1] ?? '');
  if (here === null) return null;
  const indent = (here[1] as string).length;
  let sibling: { line: number; indent: number; key: string } | null = null;
  for (let n = line - 1; n >= 1; n -= 1) {
    const text = lines[n - 1] as string;
    if (isBlank(text)) continue;
    const m = KEY_LINE.exec(text);
    const at = indentOf(text);
    if (at > indent) {
      if (m !== null && (m[1] as string).length === at) sibling = { line: n, indent: at, key: m[2] as string };
      continue;
    }
    if (at === indent || m === null || sibling === null) return null;
    const parent = { line: n, indent: at, key: m[2] as string };
    const named = (k: string): string => shownJson(k.replace(/^["']|["']$/g, ''));
    const key = named(here[2] as string);
    parent.key = named(parent.key);
    sibling.key = named(sibling.key);
    const spaces = (k: number): string => plural(k, 'space', 'spaces');
    return {
      file: src.file,
      line,
      column: indent + 1,
      message: `invalid YAML: ${key} on line ${String(line)} is indented by ${spaces(indent)}, more than ${parent.key} on line ${String(parent.line)} and less than the keys under it (${String(sibling.indent)}), so YAML cannot tell which mapping it belongs to`,
      fix: `indent it by ${spaces(sibling.indent)}, as ${sibling.key} on line ${String(sibling.line)}, for a key under ${parent.key}; or ${parent.indent === 0 ? 'start it at the beginning of the line' : `indent it by ${spaces(parent.indent)}`}, as ${parent.key}, for a key beside it`,
    };
  }
  return null;
}

/**
 * A key indented deeper than the key above it, whose value ends on its line (`message: "hi"`, then
 * ` cost: 1`): YAML cannot read it as more of that value, as it does after a plain one
 * (implicitKeySlip), nor as a key beside it ("All mapping items must start at the same column").
 * Said at the key with the line as it should read, with the indentation that line then takes;
 * null when the lines say otherwise (the key above has no value on its line, so the line may start
 * its value).
 */
function deeperKey(src: SourceFile, line: number | null): { issue: ConfigIssue; lead: number } | null {
  const text = lineOf(src, line);
  const here = text === null || /^ *-(?:\s|$)/.test(text) ? null : KEY_LINE.exec(text);
  if (line === null || text === null || here === null) return null;
  const indent = (here[1] as string).length;
  for (let n = line - 1; n >= 1; n -= 1) {
    const above = lineOf(src, n) ?? '';
    if (isBlank(above)) continue;
    const m = KEY_LINE.exec(above);
    const lead = (/^ *(?:- +)?/.exec(above)?.[0] ?? '').length;
    // The key above and its value on its line (after the colon, something other than a comment).
    if (m === null || lead >= indent || isBlank(above.slice(m[0].length))) return null;
    // The next key at this line's column too: the key above may be the one out of place.
    const next = src.text.split('\n').slice(line).find((l) => !isBlank(l));
    if (next !== undefined && indentOf(next) === indent) return null;
    const key = JSON.stringify((m[2] as string).replace(/^["']|["']$/g, ''));
    const named = JSON.stringify((here[2] as string).replace(/^["']|["']$/g, ''));
    const where = lead === 0 ? `start it at the beginning of the line (not after ${plural(indent, 'space', 'spaces')})` : `indent it by ${plural(lead, 'space', 'spaces')} (not ${String(indent)})`;
    const issue: ConfigIssue = {
      file: src.file,
      line,
      column: indent + 1,
      message: `invalid YAML: ${named} on line ${String(line)} is indented by ${plural(indent, 'space', 'spaces')}, more than ${key} on line ${String(n)}, whose value ends on its line: YAML reads it neither as more of that value nor as a key beside ${key}`,
      fix: `${where}, as ${key} on line ${String(n)}, so that line ${String(line)} reads\n    ${' '.repeat(lead)}${text.slice(indent).trimEnd()}`,
    };
    return { issue, lead };
  }
  return null;
}

/** A line that starts a list item: its indentation and what follows the indentation. */
const ITEM_LINE = /^( *)-(?:[ \t]|$)/;

/** A list item indented under the item above it, and the text its slip covers. */
interface NestedItem {
  issue: ConfigIssue;
  /** Offsets: from the start of the line above the item to the end of the item's last line. */
  from: number;
  to: number;
}

/**
 * A list item written under the item before it (`- label: a` / `  message: hi` / `    - label: b`),
 * as a second item is when its "-" goes at the keys' column or deeper: YAML reads it as part of the
 * item above (more of the value on the line above, or a key of its own), and the parser says so
 * two or three times, at that line and the item's next ones. Said once, at its "-", with the line
 * as it should read. Found from the text: a "- " line whose line above holds a key and its value
 * (a key with no value on its line, `assert:`, may hold a list) and whose "-" is deeper than the
 * "-" of the item that line belongs to.
 */
function nestedItems(src: SourceFile): NestedItem[] {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const starts: number[] = [];
  let offset = 0;
  for (const l of src.text.split('\n')) {
    starts.push(offset);
    offset += l.length + 1;
  }
  const out: NestedItem[] = [];
  for (let n = 1; n < lines.length; n += 1) {
    const item = ITEM_LINE.exec(lines[n] as string);
    if (item === null) continue;
    const dash = (item[1] as string).length;
    let above = n - 1;
    while (above >= 0 && isBlank(lines[above] as string)) above -= 1;
    if (above < 0) continue;
    const aboveText = lines[above] as string;
    const keyed = /^( *(?:- +)?)[^\s#:-][^:#]*?:[ \t]+[^\s#|>]/.exec(aboveText) ?? /^( *- +)[^\s#]/.exec(aboveText);
    if (keyed === null || dash < (keyed[1] as string).length) continue;
    // The item the line above belongs to: the nearest "- " line above, less indented, with every
    // line between it and this one indented under its "-".
    let parent = above;
    let parentDash = -1;
    for (; parent >= 0; parent -= 1) {
      const text = lines[parent] as string;
      if (isBlank(text)) continue;
      const m = ITEM_LINE.exec(text);
      if (m !== null && (m[1] as string).length < dash) {
        parentDash = (m[1] as string).length;
        break;
      }
      if (/^\s*/.exec(text)?.[0].length === 0) break;
    }
    if (parentDash < 0) continue;
    let inside = true;
    for (let k = parent + 1; k < n && inside; k += 1) {
      const text = lines[k] as string;
      if (!isBlank(text) && indentOf(text) <= parentDash) inside = false;
    }
    if (!inside) continue;
    // At the column of that item's keys, the item may also be a list whose key was left out: unless
    // it starts with a key that item has (`- label: b` under `- label: a`), said with each reading
    // (itemAtKeyColumn).
    const keysColumn = (/^ *- +/.exec(lines[parent] as string)?.[0] ?? '').length;
    if (dash === keysColumn) {
      const keyOf = (text: string): string | undefined => KEY_LINE.exec(text)?.[2];
      const own = keyOf(' '.repeat(dash) + (lines[n] as string).slice(dash).replace(/^- +/, ''));
      const keys = lines.slice(parent, n).map((text, i) => keyOf(i === 0 ? ' '.repeat(keysColumn) + text.slice(keysColumn) : text));
      if (own === undefined || !keys.includes(own)) continue;
    }
    // The item's own next lines: those indented under its "-".
    let last = n;
    const next: number[] = [];
    for (let k = n + 1; k < lines.length; k += 1) {
      const text = lines[k] as string;
      if (isBlank(text)) continue;
      if (indentOf(text) <= dash) break;
      next.push(k + 1);
      last = k;
    }
    const shift = dash - parentDash;
    const written = (lines[n] as string).slice(dash);
    const where =
      parentDash === 0
        ? `start its "-" at the beginning of the line (not after ${plural(dash, 'space', 'spaces')})`
        : `indent its "-" by ${plural(parentDash, 'space', 'spaces')} (not ${String(dash)})`;
    const rest = alsoMoved(next, shift);
    out.push({
      issue: {
        file: src.file,
        line: n + 1,
        column: dash + 1,
        message: `invalid YAML: the list item on line ${String(n + 1)} is indented under the item on line ${String(parent + 1)}, so YAML reads it as part of that item, not as the next item of the list`,
        fix: `${where}, as the "-" on line ${String(parent + 1)}, so that line ${String(n + 1)} reads\n    ${' '.repeat(parentDash)}${written}${rest}`,
      },
      from: starts[above] as number,
      to: (starts[last] as number) + (lines[last] as string).length,
    });
  }
  return out;
}

/** The first items of a list indented deeper than the items after them, and the lines the parser then misreads. */
interface DeeperItems {
  issue: ConfigIssue;
  /** 1-based lines: from the deeper first item to the list's end. */
  from: number;
  to: number;
}

/**
 * A list whose first item is indented deeper than the items after it (`fixtures:` /
 * `    - label: a` / `  - label: b`): YAML takes the first item's column for the list's, and reads
 * the next item, less indented, as a key of the mapping above, which the parser says three ways at
 * that line. Said once, at the first item's "-", with the line as it should read (at the column of
 * the items after it) and the lines to move with it. `line`: a line the parser complained at.
 */
function deeperFirstItems(src: SourceFile, said: number): DeeperItems | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  // The parser may say it at the blank line before the item.
  let line = said;
  while (line <= lines.length && isBlank(lines[line - 1] as string)) line += 1;
  const at = ITEM_LINE.exec(lines[line - 1] ?? '');
  if (at === null) return null;
  const dash = (at[1] as string).length;
  // Up from the line: the lines indented deeper than its "-", then the key that holds the list.
  let first = -1;
  let key = line - 2;
  for (; key >= 0; key -= 1) {
    const text = lines[key] as string;
    if (isBlank(text)) continue;
    if (indentOf(lines[key] as string) <= dash) break;
    first = key;
  }
  if (key < 0 || first < 0 || !/^ *[^\s#:-][^:#]*:\s*(?:#.*)?$/.test(lines[key] as string) || indentOf(lines[key] as string) >= dash) return null;
  const deep = ITEM_LINE.exec(lines[first] as string);
  if (deep === null) return null;
  const deepDash = (deep[1] as string).length;
  const shift = deepDash - dash;
  // Every line of the deeper items is indented at least as deep as their "-": all move left together.
  for (let k = first; k < line - 1; k += 1) if (!isBlank(lines[k] as string) && indentOf(lines[k] as string) < deepDash) return null;
  const moved: number[] = [];
  for (let k = first + 1; k < line - 1; k += 1) if (!isBlank(lines[k] as string)) moved.push(k + 1);
  const keyIndent = indentOf(lines[key] as string);
  let end = line;
  for (let k = line; k < lines.length; k += 1) {
    if (isBlank(lines[k] as string)) continue;
    if (indentOf(lines[k] as string) <= keyIndent) break;
    end = k + 1;
  }
  const rest = alsoMoved(moved, shift);
  const where = dash === 0 ? `start its "-" at the beginning of the line (not after ${plural(deepDash, 'space', 'spaces')})` : `indent its "-" by ${plural(dash, 'space', 'spaces')} (not ${String(deepDash)})`;
  return {
    issue: {
      file: src.file,
      line: first + 1,
      column: deepDash + 1,
      message: `invalid YAML: the list item on line ${String(first + 1)} is indented deeper than the item on line ${String(line)} after it, so YAML takes line ${String(first + 1)}'s column for the list's and cannot read the items from line ${String(line)} on`,
      fix: `${where}, as the "-" on line ${String(line)}, so that line ${String(first + 1)} reads\n    ${' '.repeat(dash)}${(lines[first] as string).slice(deepDash)}${rest}`,
    },
    from: first + 1,
    to: end,
  };
}

/** The last line from `line` on before the next non-blank line indented as little as `line` or less. */
function shadowEnd(src: SourceFile, line: number): number {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const indent = indentOf(lines[line - 1] ?? '');
  let n = line;
  while (n < lines.length && (isBlank(lines[n] as string) || indentOf(lines[n] as string) > indent)) n += 1;
  return n;
}

/** The parser's words for the parts of a list item indented under the item above (nestedItems). */
function isNestingError(err: YamlSyntaxError): boolean {
  return (
    err.code === 'BLOCK_AS_IMPLICIT_KEY' ||
    err.code === 'MULTILINE_IMPLICIT_KEY' ||
    (err.code === 'MISSING_CHAR' && /^Implicit map keys need to be followed by map values/.test(err.message))
  );
}

/** The parser's words for a line read as one more item of a list with no "-" before it ("Sequence item without - indicator"). */
function isSequenceItemError(err: YamlSyntaxError): boolean {
  return err.code === 'MISSING_CHAR' && err.message.startsWith('Sequence item without - indicator');
}

/** The parser's words for what it misreads of a list item at the column of the keys above it, and its next lines (itemAtKeyColumn). */
function followsItemAtKeys(err: YamlSyntaxError): boolean {
  return isNestingError(err) || err.code === 'UNEXPECTED_TOKEN' || err.code === 'DUPLICATE_KEY' || err.code === 'BAD_INDENT';
}

/** Whether the lines after `item` up to `line` are all the item's (none starts another item with "- "). */
function continuesItem(src: SourceFile, item: number, line: number | null): boolean {
  if (line === null || line <= item) return false;
  for (let n = item + 1; n < line; n += 1) if (/^\s*-(\s|$)/.test(lineOf(src, n) ?? '')) return false;
  return !/^\s*-(\s|$)/.test(lineOf(src, line) ?? '');
}

/** A line indented with a tab (before its first other character). */
const TAB_INDENT = /^ *\t/;

/** A list item's "-" (or "- - ") at a line's start followed by a tab: `-\tlabel: a`. */
const TAB_AFTER_DASH = /^( *(?:-[ \t]+)*?-)([ \t]*\t[ \t]*)(?=\S)/;

/** One stretch of lines the parser misreads after a line indented with a tab (tabIndents). */
interface TabStretch {
  issue: ConfigIssue;
  /** 1-based lines, `last` included. */
  first: number;
  last: number;
}

/**
 * A line whose list item's "-" a tab follows, as it should read: the tab written as spaces, as
 * many as put the item's first key at the column of its next lines when they are indented with
 * spaces deeper than the "-", else one (`- label: a`).
 */
function dashTabFixed(lines: readonly string[], n: number): string | null {
  const m = TAB_AFTER_DASH.exec(lines[n - 1] as string);
  if (m === null || TAB_INDENT.test(lines[n - 1] as string)) return null;
  const [, dashes = '', gap = ''] = m;
  const rest = (lines[n - 1] as string).slice(dashes.length + gap.length);
  const head = dashes.replace(/\t/g, ' ');
  let width = 1;
  for (let k = n; k < lines.length; k += 1) {
    const next = lines[k] as string;
    if (isBlank(next)) continue;
    const indent = indentOf(next);
    if (indent > head.length && !/^ *[\t-]/.test(next)) width = indent - head.length;
    break;
  }
  return `${head}${' '.repeat(width)}${rest}`;
}

/**
 * Lines indented with a tab, which YAML does not allow: the parser says so ("Tabs are not allowed
 * as indentation") or loses its place ("Unexpected scalar at node end") and then says something of
 * nearly every line after it, until the next key at the start of a line. Said once per stretch, at
 * its first tab, naming every tab-indented line in it; the parser's other words in the stretch are
 * its consequences. Only lines the parser has an error on are counted: a tab inside a block
 * scalar's text is text. A tab after a list item's "-" (`-\tlabel: a`) indents the item's keys:
 * said the same, with the line as it should read.
 */
function tabIndents(src: SourceFile, errors: readonly YamlSyntaxError[]): TabStretch[] {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const errorLines = new Set(errors.map((e) => src.offsetAt(e.offset).line));
  const tabbedAt = (k: number): boolean => TAB_INDENT.test(lines[k - 1] as string) || TAB_AFTER_DASH.test(lines[k - 1] as string);
  const out: TabStretch[] = [];
  for (let n = 1; n <= lines.length; n += 1) {
    if (!tabbedAt(n) || !errorLines.has(n)) continue;
    // The stretch ends before the next line that starts a key at the beginning of the line; it
    // starts at the blank lines above the tab, where the parser may say the item it misreads.
    let first = n;
    while (first > 1 && /^\s*$/.test(lines[first - 2] as string)) first -= 1;
    let last = n;
    while (last < lines.length && !/^[^\s#-]|^-[^\s-]/.test(lines[last] as string)) last += 1;
    const tabbed: number[] = [];
    for (let k = n; k <= last; k += 1) if (tabbedAt(k)) tabbed.push(k);
    const named = `${linesWord(tabbed)} ${tabbed.length === 1 ? 'is' : 'are'}`;
    const dashed = tabbed.flatMap((k) => {
      const fixed = dashTabFixed(lines, k);
      return fixed === null ? [] : [{ k, fixed }];
    });
    const all = dashed.length === tabbed.length;
    const afterDash = dashed.length === 0 ? '' : all ? ` after ${tabbed.length === 1 ? 'its list item\'s' : 'their list items\''} "-"` : ` (${linesWord(dashed.map((d) => d.k))} after the "-")`;
    const reads = dashed
      .slice(0, 3)
      .map((d, i) => `${i === 0 ? ', so that' : '\n  and'} line ${String(d.k)} reads\n    ${d.fixed}`)
      .join('');
    const more = dashed.length > 3 ? `\n  and likewise ${linesWord(dashed.slice(3).map((d) => d.k))}` : '';
    out.push({
      first,
      last,
      issue: {
        file: src.file,
        line: n,
        // A tab after the "-": at the tab.
        column: dashed[0]?.k === n ? (TAB_AFTER_DASH.exec(lines[n - 1] as string)?.[1] ?? '').length + 1 : 1,
        message: `invalid YAML: ${named} indented with a tab${afterDash}, which YAML does not allow`,
        fix: `indent with spaces, not tabs (set the editor to insert spaces for this file)${reads}${more}`,
      },
    });
    n = last;
  }
  return out;
}

/**
 * Where the parser left the document: its first "Unexpected ... in YAML stream" (or "at node end")
 * error. Past it YAML reads nothing of the file, and says so of nearly every token after it; one
 * issue says it. When the file's first line is indented and that line is not, the stray indentation
 * of the first line is the cause (every other error of the file follows from it): said there.
 */
function leftDocument(src: SourceFile, errors: readonly YamlSyntaxError[], skip: (err: YamlSyntaxError) => boolean): { at: YamlSyntaxError; issue: ConfigIssue; whole: boolean } | null {
  const at = errors.find((e) => e.code === 'UNEXPECTED_TOKEN' && /in YAML stream|at node end/.test(e.message) && !skip(e));
  if (at === undefined) return null;
  const pos = src.offsetAt(at.offset);
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const firstLine = lines.findIndex((l) => !isBlank(l) && !/^(?:---|%)/.test(l)) + 1;
  const firstIndent = firstLine === 0 ? 0 : indentOf(lines[firstLine - 1] as string);
  const hereIndent = pos.line === null ? 0 : indentOf(lines[pos.line - 1] ?? '');
  if (firstIndent > hereIndent && pos.line !== null) {
    return {
      at,
      whole: true,
      issue: {
        file: src.file,
        line: firstLine,
        column: 1,
        message: `invalid YAML: line ${String(firstLine)}, the file's first, is indented by ${plural(firstIndent, 'space', 'spaces')}, and line ${String(pos.line)} by ${hereIndent === 0 ? 'none' : plural(hereIndent, 'space', 'spaces')}: YAML reads the file as ending before line ${String(pos.line)}`,
        fix: `${hereIndent === 0 ? `start line ${String(firstLine)} at the beginning of the line` : `indent line ${String(firstLine)} by ${plural(hereIndent, 'space', 'spaces')}`}, as line ${String(pos.line)}: a file's top-level keys or list items all start at one column`,
      },
    };
  }
  const bracket = /^Unexpected flow-(map|seq)-end token/.exec(at.message);
  // One bracket too many at the end of a collection (`message: [a, b]]`): the line without it.
  const stray = bracket === null || pos.line === null ? null : withoutStrayCloser(src.text, at.offset);
  return {
    at,
    whole: false,
    issue: bracket
      ? {
          file: src.file,
          ...pos,
          message: `invalid YAML: this ${bracket[1] === 'map' ? '}' : ']'} closes nothing that is open, and YAML reads nothing of the file after it`,
          fix:
            stray === null
              ? `remove it, or put it where the ${bracket[1] === 'map' ? '{' : '['} it closes is meant to end; if it is part of a value, put the whole value in quotes`
              : `remove it, so that line ${String(pos.line)} reads\n    ${stray}\n  or, if it is part of a value, put the whole value in quotes`,
        }
      : {
          file: src.file,
          ...pos,
          message: `invalid YAML: line ${String(pos.line)} is not part of the mapping or list the file starts with, and YAML reads nothing of the file from here (the parser: ${at.message.split('\n')[0] ?? ''})`,
          fix: 'check its indentation against the lines above it: the file\'s first line sets the column of its top-level keys or list items',
        },
  };
}

/** `-label: a` or `-{ label: a }`: a list item's "-" with no space after it. */
const DASH_NO_SPACE = /^( *)-([A-Za-z_][\w-]*:(?:\s|$)|[[{])/;

/**
 * The first line, at or above line `upTo`, that starts a list item with no space after its "-"
 * (`-label: a`): YAML reads `-label` as a key (`-{` as text), not as an item, and then misreads
 * every line after it. Said once there, with the line as it should read; null when there is none.
 */
function dashWithoutSpace(src: SourceFile, upTo: number): { issue: ConfigIssue; offset: number } | null {
  let offset = 0;
  const lines = src.text.split('\n');
  for (let n = 1; n <= Math.min(upTo, lines.length); n += 1) {
    const line = (lines[n - 1] as string).replace(/\r$/, '');
    const m = DASH_NO_SPACE.exec(line);
    // `-x` after an item at its column (`- see [docs]`): the next item, which YAML reads as text.
    const text = m === null ? DASH_NO_SPACE_TEXT.exec(line) : null;
    if ((m !== null && inList(lines, n, (m[1] as string).length)) || (text !== null && afterItem(lines, n, (text[1] as string).length))) {
      const [, indent = '', rest = ''] = m ?? text ?? [];
      const what = m === null ? `reads ${JSON.stringify(headOf(line.trim(), 40))} as text` : /^[[{]/.test(rest) ? `reads the line as text` : `reads "-${rest.replace(/:\s*$/, '')}" as a key`;
      return {
        offset,
        issue: {
          file: src.file,
          line: n,
          column: indent.length + 1,
          message: `invalid YAML: line ${String(n)} has no space after its "-", so YAML ${what}, not as a list item`,
          fix: `put a space after the "-", so that line ${String(n)} reads\n    ${indent}- ${line.slice(indent.length + 1).trimEnd()}`,
        },
      };
    }
    offset += (lines[n - 1] as string).length + 1;
  }
  return null;
}

/** `-x` or `-"x"`: a list item's "-" with no space before its text. */
const DASH_NO_SPACE_TEXT = /^( *)-([A-Za-z_"'])/;

/** Whether the nearest line above line `n` indented no deeper than `dash` is a list item whose "-" is at column `dash`. */
function afterItem(lines: readonly string[], n: number, dash: number): boolean {
  for (let k = n - 1; k >= 1; k -= 1) {
    const text = (lines[k - 1] as string).replace(/\r$/, '');
    if (isBlank(text) || indentOf(text) > dash) continue;
    return ITEM_LINE.exec(text)?.[1]?.length === dash;
  }
  return false;
}

/**
 * Whether a line `n` whose "-" is at column `dash` (0-based) stands where a list's item does: the
 * nearest line above indented no deeper is an item of that list (`- ` at the same column) or the
 * key that holds it (`fixtures:`, less indented), or there is none (a list at the file's top
 * level); not a block scalar's key or text.
 */
function inList(lines: readonly string[], n: number, dash: number): boolean {
  for (let k = n - 1; k >= 1; k -= 1) {
    const text = (lines[k - 1] as string).replace(/\r$/, '');
    if (isBlank(text)) continue;
    const indent = indentOf(text);
    if (indent > dash) continue;
    return indent === dash ? /^ *-(?:[ \t]|$)/.test(text) : /:\s*(?:#.*)?$/.test(text);
  }
  // The file's first line: a list at the top level.
  return dash === 0;
}

/**
 * A key of a list item indented less than the item's first key but more than its "-" (`- label: a`,
 * `    message: hi`, then `   mocks:`): YAML reads it as neither ("Sequence item without -
 * indicator"), and misreads the item's lines after it. Said once at the key, with the line as it
 * should read, for every error from its line to the item's end (1-based lines); null when line
 * `n` is not one, or no line between or next shows the item's column (its "-" line may be the one moved).
 */
function keyShortOfItem(src: SourceFile, n: number): { issue: ConfigIssue; from: number; to: number } | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const here = KEY_LINE.exec(lines[n - 1] ?? '');
  if (here === null || /^ *-/.test(lines[n - 1] as string)) return null;
  const indent = (here[1] as string).length;
  for (let k = n - 1; k >= 1; k -= 1) {
    const text = lines[k - 1] as string;
    if (isBlank(text) || indentOf(text) > indent) continue;
    const item = /^( *)(- +)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:(?:\s|$)/.exec(text);
    if (item === null) return null;
    const dash = (item[1] as string).length;
    const column = dash + (item[2] as string).length;
    if (dash >= indent || column <= indent) return null;
    // The item's keys are at its first key's column: a line between or the next one says so, or
    // its "-" is where the list's is, an item above at its column or the line's start (else the
    // item's line may be the one misplaced).
    const next = lines.slice(n).find((l) => !isBlank(l));
    const atColumn = (l: string): boolean => !isBlank(l) && indentOf(l) === column;
    const listAbove = lines.slice(0, k - 1).reverse().find((l) => !isBlank(l) && indentOf(l) <= dash);
    // Or the list's key holds it (`fixtures:` at `p`, the "-" an even number of spaces deeper) and
    // the key is an odd number short: the "-" line moved instead would stand at an odd offset from
    // that key, or left of it (a one-item list, `fixtures:` / `  - label: a` / `   message: hi`).
    const holder = listAbove === undefined ? null : /^( *)[^\s#:-][^:#]*:\s*(?:#.*)?$/.exec(listAbove);
    const held = holder !== null && ((dash - (holder[1] as string).length) % 2 === 0 && (column - indent) % 2 === 1);
    const placed = dash === 0 || held || (listAbove !== undefined && ITEM_LINE.exec(listAbove)?.[1]?.length === dash);
    if (!placed && !lines.slice(k, n - 1).some(atColumn) && (next === undefined || !atColumn(next))) return null;
    let to = n;
    /** The item's next keys written at the same column, short as well: moved with it. */
    const alike: number[] = [];
    for (let m = n + 1; m <= lines.length; m += 1) {
      const next = lines[m - 1] as string;
      if (isBlank(next)) continue;
      if (indentOf(next) <= dash) break;
      if (KEY_LINE.exec(next)?.[1]?.length === indent && !/^ *-/.test(next)) alike.push(m);
      to = m;
    }
    const also = alike.length === 0 ? '' : `\n  and indent ${linesWord(alike)} by ${plural(column, 'space', 'spaces')} too`;
    const key = shownJson((here[2] as string).replace(/^["']|["']$/g, ''));
    const first = shownJson((item[3] as string).replace(/^["']|["']$/g, ''));
    return {
      from: n,
      to,
      issue: {
        file: src.file,
        line: n,
        column: indent + 1,
        message: `invalid YAML: ${key} on line ${String(n)} is indented by ${plural(indent, 'space', 'spaces')}, less than ${first} on line ${String(k)} (${String(column)}), so YAML does not read it as a key of that list item`,
        fix: `indent it by ${plural(column, 'space', 'spaces')} (not ${String(indent)}), as ${first} on line ${String(k)}, so that line ${String(n)} reads\n    ${' '.repeat(column)}${(lines[n - 1] as string).trimStart()}${also}`,
      },
    };
  }
  return null;
}

/**
 * The fix of a list item whose "-" is deeper than the item's above (`  - judge: polite`, its keys,
 * then `   - regex: y`): its "-" at their column, with the line as it then reads and its next lines
 * moved as much; null when the line above it is not that item's (or the item is less indented).
 */
function misplacedItemFix(src: SourceFile, n: number | null): string | null {
  if (n === null) return null;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const here = ITEM_LINE.exec(lines[n - 1] ?? '');
  if (here === null) return null;
  const dash = (here[1] as string).length;
  let above = n - 1;
  while (above >= 1 && (isBlank(lines[above - 1] as string) || indentAt(lines, above) > dash)) above -= 1;
  const item = above < 1 ? null : ITEM_LINE.exec(lines[above - 1] as string);
  if (item === null || (item[1] as string).length >= dash) return null;
  const to = (item[1] as string).length;
  // Its next lines at its keys' column or deeper move with it (one at the column its keys move to stays).
  const keys = (/^ *-[ \t]*/.exec(lines[n - 1] as string)?.[0] ?? '').length;
  const next: number[] = [];
  for (let k = n + 1; k <= lines.length; k += 1) {
    if (isBlank(lines[k - 1] as string)) continue;
    if (indentAt(lines, k) <= dash) break;
    if (indentAt(lines, k) >= keys) next.push(k);
  }
  const shift = dash - to;
  const where = to === 0 ? `start its "-" at the beginning of the line (not after ${plural(dash, 'space', 'spaces')})` : `indent its "-" by ${plural(to, 'space', 'spaces')} (not ${String(dash)})`;
  const rest = alsoMoved(next, shift);
  const written = (lines[n - 1] as string).slice(dash);
  const outer = `${where}, as the "-" on line ${String(above)}, so that line ${String(n)} reads\n    ${' '.repeat(to)}${written}${rest}`;
  // Right after a list deeper than its "-" (a key's list at the key's column): one more item of
  // that list, when of its kind; the outer list's next item too, when of that list's kind.
  const inner = listAbove(lines, n, dash);
  if (inner === null || isMapping(lines[inner.first - 1] as string) !== isMapping(written)) return outer;
  const into = `for one more item of the list of ${shownJson(inner.key)} on line ${String(inner.keyLine)}, indent its "-" by ${plural(inner.dash, 'space', 'spaces')} (not ${String(dash)}), as the "-" on line ${String(inner.first)}, so that line ${String(n)} reads\n    ${' '.repeat(inner.dash)}${written}${alsoMoved(next, inner.dash - dash, 'right')}`;
  return isMapping(lines[above - 1] as string) === isMapping(written) ? `${into}\n  or, for the next item of the list on line ${String(above)}, ${outer}` : into;
}

/** The list item the parser names at line `said` (1-based) or, said at the blank lines before it, after them: its line and its "-"'s column; null when none. */
function itemFrom(lines: readonly string[], said: number): { n: number; column: number } | null {
  if (said < 1) return null;
  let n = said;
  while (n < lines.length && isBlank(lines[n - 1] as string)) n += 1;
  const here = ITEM_LINE.exec(lines[n - 1] ?? '');
  return here === null ? null : { n, column: (here[1] as string).length };
}

/** Whether a list item's line (its indentation and "- " left out) starts a mapping. */
function isMapping(item: string): boolean {
  return KEY_LINE.test(item.replace(/^ *- +/, ''));
}

/**
 * The list right above line `n` whose "-" is deeper than `dash`, held by a key with nothing after
 * its ":" (`followUps:` / `  - one`): that key (its name and line), the list's first item's line
 * and its "-"'s column; null when the lines above are not such a list.
 */
function listAbove(lines: readonly string[], n: number, dash: number): { key: string; keyLine: number; first: number; dash: number } | null {
  let column = -1;
  let first = -1;
  for (let k = n - 1; k >= 1; k -= 1) {
    const text = lines[k - 1] as string;
    if (isBlank(text)) continue;
    const item = ITEM_LINE.exec(text);
    // The list's column: the nearest item above, every line between it and line `n` under its "-".
    if (column < 0) {
      if (indentAt(lines, k) <= dash) return null;
      if (item !== null && lines.slice(k, n - 1).every((l) => isBlank(l) || indentOf(l) > indentAt(lines, k))) column = indentAt(lines, k);
      if (column < 0) continue;
    }
    if (indentAt(lines, k) > column) continue;
    if (indentAt(lines, k) === column && item !== null) {
      first = k;
      continue;
    }
    const key = /^( *)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:\s*(?:#.*)?$/.exec(text);
    if (key === null || (key[1] as string).length <= dash || (key[1] as string).length > column) return null;
    return { key: (key[2] as string).replace(/^["']|["']$/g, ''), keyLine: k, first, dash: column };
  }
  return null;
}

/**
 * Keys written at the column of the "-" of the list item above them (`  - label: a`, its keys, then
 * `  label: b`): YAML reads them neither as keys of that item nor as an item of the list ("All
 * mapping items must start at the same column", at each). A new item whose "- " was left out, or
 * keys of the item above: said once, at the first of them, with both fixes; null when line `n` is
 * not one of them.
 */
function keyAtItemColumn(src: SourceFile, n: number | null): ConfigIssue | null {
  if (n === null) return null;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const isKey = (k: number): boolean => !/^ *-(?:\s|$)/.test(lines[k - 1] as string) && KEY_LINE.test(lines[k - 1] as string);
  if (!isKey(n)) return null;
  const column = indentAt(lines, n);
  // Up to the item: the keys at this column (the first is said) and the lines under them.
  let first = n;
  let k = n - 1;
  for (; k >= 1; k -= 1) {
    if (isBlank(lines[k - 1] as string) || indentAt(lines, k) > column) continue;
    if (indentAt(lines, k) === column && isKey(k)) first = k;
    else break;
  }
  const item = k < 1 ? null : /^( *)(- +)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:(?:\s|$)/.exec(lines[k - 1] as string);
  if (item === null || (item[1] as string).length !== column) return null;
  const keys = column + (item[2] as string).length;
  // Down: the keys at this column after the first, up to a line less indented or the next item.
  const more: number[] = [];
  for (let m = first + 1; m <= lines.length; m += 1) {
    if (isBlank(lines[m - 1] as string) || indentAt(lines, m) > column) continue;
    if (indentAt(lines, m) === column && isKey(m)) more.push(m);
    else break;
  }
  const named = shownJson((KEY_LINE.exec(lines[first - 1] as string)?.[2] as string).replace(/^["']|["']$/g, ''));
  const firstKey = shownJson((item[3] as string).replace(/^["']|["']$/g, ''));
  const spaces = plural(keys, 'space', 'spaces');
  const written = (lines[first - 1] as string).slice(column);
  return {
    file: src.file,
    line: first,
    column: column + 1,
    message: `invalid YAML: ${named} on line ${String(first)} is at the column of the "-" of the list item on line ${String(k)}, so YAML reads it neither as a key of that item nor as an item of the list`,
    fix: `for a new item of the list, write "- " before it, so that line ${String(first)} reads\n    ${' '.repeat(column)}- ${written}${more.length === 0 ? '' : `\n  and indent ${linesWord(more)} by ${spaces} too`}\n  or, for ${more.length === 0 ? 'a key' : 'keys'} of the item on line ${String(k)}, indent ${linesWord([first, ...more])} by ${spaces}, as ${firstKey} on line ${String(k)}`,
  };
}

/** A list item whose "-" is at the column of a mapping's keys (itemAtKeyColumn), and the lines (1-based) its slip covers. */
interface ItemAtKeys {
  issue: ConfigIssue;
  from: number;
  to: number;
}

/**
 * A list item whose "-" is at the column of the keys of the mapping it is in, where YAML reads a
 * list only as the value of the key just above it, written with nothing after its ":" (`followUps:`
 * / `- one`, which is valid). After that key's list written deeper (`followUps:` / `    - one` /
 * `  - two`): the list's next item, said with the line as it should read, at its items' column.
 * After a key and its value (`message: hi` / `- z`): YAML reads it neither as a key nor as a
 * list's item ("Implicit keys need to be on a single line", or "A block sequence may not be used
 * as an implicit map key"), and what was meant may be any of these, each that fits said with its
 * fix: one more item of a list of the same kind (text, or mappings) written above under a key of
 * the same mapping; else, the item a mapping, the next item of the list the mapping is an item of,
 * or of a list of mappings the mapping then starts; or a list whose key was left out. null when line `said`
 * (or the first line after it that is not blank) is not such an item (an item at the column of
 * one above it is the list going on).
 */
function itemAtKeyColumn(src: SourceFile, said: number): ItemAtKeys | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const at = itemFrom(lines, said);
  if (at === null) return null;
  const { n, column } = at;
  const isItem = (k: number): boolean => ITEM_LINE.test(lines[k - 1] as string);
  const isKey = (k: number): boolean => !isItem(k) && KEY_LINE.test(lines[k - 1] as string);
  // Up to the key before it, at its column: the lines between are that key's value.
  let key = n - 1;
  let under = -1;
  for (; key >= 1; key -= 1) {
    if (isBlank(lines[key - 1] as string)) continue;
    if (indentAt(lines, key) <= column) break;
    under = key;
  }
  if (key < 1 || indentAt(lines, key) !== column || !isKey(key)) return null;
  // The item and what goes with it: its next lines, and the items after it at its column.
  const items = [n];
  let to = n;
  for (let k = n + 1; k <= lines.length; k += 1) {
    if (isBlank(lines[k - 1] as string)) continue;
    if (indentAt(lines, k) < column || (indentAt(lines, k) === column && !isItem(k))) break;
    if (indentAt(lines, k) === column) items.push(k);
    to = k;
  }
  const next: number[] = [];
  for (let k = n + 1; k <= to; k += 1) if (!isBlank(lines[k - 1] as string)) next.push(k);
  const keyName = (k: number): string => shownJson((KEY_LINE.exec(lines[k - 1] as string)?.[2] as string).replace(/^["']|["']$/g, ''));
  const written = (lines[n - 1] as string).slice(column);
  const lineList = (ls: readonly number[]): string => lineRange(ls[0] as number, ls.at(-1) as number);
  const listAt = under < 0 ? null : ITEM_LINE.exec(lines[under - 1] as string);
  const opens = (k: number): boolean => /:\s*(?:#.*)?$/.test(lines[k - 1] as string);
  /** The issue at the item's "-" (`what`: where its column is), for every error from the line the parser names to the item's last. */
  const atItem = (what: string, fix: string): ItemAtKeys => ({ from: said, to, issue: { file: src.file, line: n, column: column + 1, message: `invalid YAML: the list item on line ${String(n)} is at the column of ${what}`, fix } });
  if (listAt !== null && opens(key)) {
    // The key's list, written deeper: the item goes at its items' column.
    const dash = (listAt[1] as string).length;
    for (let k = under; k < n; k += 1) if (!isBlank(lines[k - 1] as string) && indentAt(lines, k) < dash) return null;
    return atItem(
      `${keyName(key)} on line ${String(key)}, left of the items of its list (from line ${String(under)}), so YAML reads it neither as an item of that list nor as a key`,
      `indent its "-" by ${plural(dash, 'space', 'spaces')} (not ${String(column)}), as the "-" on line ${String(under)}, so that line ${String(n)} reads\n    ${' '.repeat(dash)}${written}${alsoMoved(next, dash - column, 'right')}`,
    );
  }
  // After a key and its value. The mapping's keys above it, up to its first.
  let first = key;
  let list: { key: number; last: number; dash: number } | null = null;
  for (let k = key; k >= 1; k -= 1) {
    // Lines under a key, and the items of a list at its key's column, are that key's value.
    if (isBlank(lines[k - 1] as string) || indentAt(lines, k) > column || (k < key && indentAt(lines, k) === column && isItem(k))) continue;
    if (indentAt(lines, k) < column || !isKey(k)) break;
    first = k;
    // A key of the mapping that holds a list, at its column or deeper: the list the item may belong to.
    if (list === null && opens(k)) {
      let last = -1;
      let dash = -1;
      for (let m = k + 1; m < key + 1; m += 1) {
        if (isBlank(lines[m - 1] as string)) continue;
        const item = ITEM_LINE.exec(lines[m - 1] as string);
        if (dash < 0 && (item === null || (item[1] as string).length < column)) break;
        // Its items of the item's kind (text, or mappings): a list the item may be one more of.
        if (dash < 0 && isMapping(lines[m - 1] as string) !== isMapping(written)) break;
        if (dash < 0) dash = (item?.[1] as string).length;
        if (indentAt(lines, m) < dash || (indentAt(lines, m) === dash && item === null)) break;
        last = m;
      }
      if (last > 0) list = { key: k, last, dash };
    }
  }
  // The line above the mapping's first key: what holds the mapping.
  let above = first - 1;
  while (above >= 1 && isBlank(lines[above - 1] as string)) above -= 1;
  const before = above < 1 ? undefined : (lines[above - 1] as string);
  const readings: string[] = [];
  if (list !== null) {
    const where = list.dash === column ? '' : `, indented by ${plural(list.dash - column, 'space', 'spaces')} more`;
    readings.push(`for ${items.length === 1 ? 'one more item' : 'more items'} of the list of ${keyName(list.key)} on line ${String(list.key)}, move ${lineList([n, ...next])} up under line ${String(list.last)}${where}`);
  }
  // The keys are those of a list item: a mapping is the next item of that list (as nestedItems says
  // it of one that starts with a key of that item), unless a list of mappings above takes it.
  const owner = before === undefined ? null : /^( *)- +/.exec(before);
  if (list === null && isMapping(written) && owner !== null && (owner[0] as string).length === column) {
    const dash = (owner[1] as string).length;
    const where = dash === 0 ? 'start its "-" at the beginning of the line' : `indent its "-" by ${plural(dash, 'space', 'spaces')}`;
    readings.push(`for the next item of the list, ${where}, as the "-" on line ${String(above)}, so that line ${String(n)} reads\n    ${' '.repeat(dash)}${written}${alsoMoved(next, column - dash)}`);
  }
  // `- label: b` after the keys of one fixture: a list of them, when the keys are not in one already
  // (nor hold a list of such mappings, which the item is then read as one more of).
  if (list === null && isMapping(written) && (before === undefined || /^---\s*$/.test(before) || /:\s*(?:#.*)?$/.test(before)) && !ITEM_LINE.test(before ?? '')) {
    const between: number[] = [];
    for (let k = first + 1; k < n; k += 1) if (!isBlank(lines[k - 1] as string)) between.push(k);
    const rest = between.length === 0 ? '' : `\n  and indent ${lineList(between)} by 2 spaces more`;
    readings.push(`for the next item of a list of mappings, write "- " before line ${String(first)} too, so that it reads\n    ${' '.repeat(column)}- ${(lines[first - 1] as string).slice(column)}${rest}`);
  }
  readings.push('for a list whose key was left out, write the key above it, at its column, ending in ":"');
  return atItem(
    `the keys above it, after ${keyName(key)} on line ${String(key)} and its value, so YAML reads it neither as a key nor as an item of a list (a list may start at its key's column only on the line after the key)`,
    readings.join('\n  or, '),
  );
}

/**
 * The last line of the text item whose "-" is on line `n` at `column`: its text may go on over the
 * next lines (plain text on deeper lines, quoted text up to its closing quote, a block scalar `|`
 * or `>` on the lines deeper than its first line of text). Null when the quote is never closed.
 */
function textItemEnd(lines: readonly string[], n: number, column: number): number | null {
  const text = (lines[n - 1] as string).slice(column).replace(/^-\s*/, '');
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    // Up to the closing quote (`\"` inside double quotes, `''` inside single ones).
    let rest = text.slice(1);
    for (let k = n; k <= lines.length; k += 1) {
      const body: string = quote === '"' ? rest.replace(/\\./g, '') : rest.replace(/''/g, '');
      if (body.includes(quote)) return k;
      rest = lines[k] ?? '';
    }
    return null;
  }
  let end = n;
  if (/^[|>][-+0-9]*\s*(?:#.*)?$/.test(text)) {
    // A block scalar: its lines are those as deep as its first line of text (or blank).
    let deep = -1;
    for (let k = n + 1; k <= lines.length; k += 1) {
      if (/^\s*$/.test(lines[k - 1] as string)) continue;
      if (deep < 0) deep = indentAt(lines, k);
      if (deep <= column || indentAt(lines, k) < deep) break;
      end = k;
    }
    return end;
  }
  // Plain text: deeper lines that are no key, item nor comment, up to one that is (a comment ends it).
  if (/\s#/.test(text)) return n;
  for (let k = n + 1; k <= lines.length; k += 1) {
    const line = lines[k - 1] as string;
    if (/^\s*$/.test(line)) continue;
    if (isBlank(line) || indentAt(lines, k) <= column || ITEM_LINE.test(line) || KEY_LINE.test(line)) break;
    end = k;
    if (/\s#/.test(line)) break;
  }
  return end;
}

/**
 * A text item at the column of the "-" of the list item above it, right after that item's key
 * with nothing after its ":" (`- label: p` / `  followUps:` / `  - one`, or no list, then `- two`),
 * the item's keys going on after it (`  expect: ...`): YAML reads it as a text item of the outer
 * list and cannot read the key after it ("Implicit keys need to be on a single line", at the text).
 * Its text may go on over the next lines (textItemEnd): plain, quoted or a block scalar.
 * Several such items (`- two`, `- three`) are said as one, at the first: the parser says it at the
 * last, and reads the others as valid items. A comment line before the next key, or text over
 * lines that ends deeper or in a quote, makes the parser say "Sequence item without - indicator"
 * at the key's line or the comment's (`sequenceItem`): the item is then the one above them. Said
 * at its "-", with its lines as they read in the key's list (at its items' column, or 2 spaces
 * deeper than the key, every line of its text moved with it); null when line `said` (or the first
 * line after it that is not blank) is not one.
 */
function itemLeftOfList(src: SourceFile, said: number, sequenceItem = false): ItemAtKeys | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  let from = said;
  // The item above the line the parser names: its text, and only blank lines or comments, between them.
  if (sequenceItem) while (from > 1 && !ITEM_LINE.test(lines[from - 1] ?? '')) from -= 1;
  const at = itemFrom(lines, from);
  if (at === null) return null;
  const { n, column } = at;
  if (isMapping((lines[n - 1] as string).slice(column))) return null;
  const last = textItemEnd(lines, n, column);
  if (last === null || (sequenceItem && !lines.slice(last, said - 1).every(isBlank))) return null;
  // The text items at this column right above it, read as valid items of the outer list: said with it.
  const items = [n];
  for (let k = n - 1; k >= 1; k -= 1) {
    if (isBlank(lines[k - 1] as string)) continue;
    // The item whose text ends on line k: its "-" at this column, the lines between deeper.
    let start = k;
    while (start > 1 && (/^\s*$/.test(lines[start - 1] as string) || indentAt(lines, start) > column)) start -= 1;
    const text = lines[start - 1] as string;
    if (indentAt(lines, start) !== column || !ITEM_LINE.test(text) || isMapping(text.slice(column)) || textItemEnd(lines, start, column) !== k) break;
    items.unshift(start);
    k = start;
  }
  const first = items[0] as number;
  // The item above at this column, every line between it and this one under its "-".
  let owner = first - 1;
  while (owner >= 1 && (isBlank(lines[owner - 1] as string) || indentAt(lines, owner) > column)) owner -= 1;
  const outer = owner < 1 ? null : /^( *- +)/.exec(lines[owner - 1] as string);
  if (outer === null || indentAt(lines, owner) !== column) return null;
  const keys = (outer[1] as string).length;
  // The next line: a key of the item above, at its keys' column, which YAML cannot read after the text.
  let after = last + 1;
  while (after <= lines.length && isBlank(lines[after - 1] as string)) after += 1;
  if (after > lines.length || indentAt(lines, after) !== keys || ITEM_LINE.test(lines[after - 1] as string)) return null;
  // Right above: a key of that item with nothing after its ":", or its list of text (listAbove).
  let above = first - 1;
  while (above >= 1 && isBlank(lines[above - 1] as string)) above -= 1;
  const bare = /^( *)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:\s*(?:#.*)?$/.exec(lines[above - 1] as string);
  const list = bare === null ? listAbove(lines, first, column) : null;
  if (list !== null && (isMapping(lines[list.first - 1] as string) || lines.slice(list.first - 1, first - 1).some((l) => !isBlank(l) && isMapping(l) && ITEM_LINE.test(l)))) return null;
  const key = list !== null ? { name: list.key, line: list.keyLine, column: keys } : bare === null ? null : { name: (bare[2] as string).replace(/^["']|["']$/g, ''), line: above, column: (bare[1] as string).length };
  if (key === null || key.column !== keys) return null;
  const named = shownJson(key.name);
  const target = list?.dash ?? keys + 2;
  const left = list === null ? `${named} on line ${String(key.line)}, which has nothing after its ":"` : `the items of the list of ${named} on line ${String(key.line)} (from line ${String(list.first)})`;
  const as = list === null ? `deeper than ${named} on line ${String(key.line)}` : `as the "-" on line ${String(list.first)}`;
  // Every line from the first "-" to the last item's text, moved right with the items.
  const moved = lines.slice(first - 1, last).filter((l) => !/^\s*$/.test(l));
  const written = moved.map((l) => `\n    ${' '.repeat(target - column)}${l}`).join('');
  const one = items.length === 1;
  const which = one ? `the list item on line ${String(n)} is` : `the list items on lines ${String(first)} to ${String(n)} are`;
  const them = one ? 'it' : 'them';
  return {
    from: Math.min(said, first),
    to: Math.max(said, last),
    issue: {
      file: src.file,
      line: first,
      column: column + 1,
      message: `invalid YAML: ${which} at the column of the "-" on line ${String(owner)}, left of ${left}, so YAML reads ${them} as ${one ? 'a text item' : 'text items'} of the list on line ${String(owner)}, and cannot read line ${String(after)} after ${them}`,
      fix: `for ${list === null ? (one ? 'an item' : 'items') : one ? 'one more item' : 'more items'} of the list of ${named}, indent ${one ? 'its' : 'their'} "-" by ${plural(target, 'space', 'spaces')} (not ${String(column)}), ${as}, so that ${first === last ? `line ${String(first)} reads` : `lines ${String(first)} to ${String(last)} read`}${written}`,
    },
  };
}

/**
 * The list under a key (`followUps:`, nothing after its ":") written left of the key but right of
 * the "-" of the list item the key is in (`  - label: a` / `    followUps:` / `   - one`): YAML
 * reads the key as empty and the item as one of the outer list at another column ("All sequence
 * items must start at the same column", said at the key's line). Said at the item's "-", with the
 * line as it should read: indented as an item of the list after it at the key's column, or by 2
 * spaces more than the key; null when line `keyLine` and the next are not that.
 */
function itemShortOfKey(src: SourceFile, keyLine: number | null): ItemAtKeys | null {
  if (keyLine === null) return null;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const key = /^( *(?:- +)?)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:\s*(?:#.*)?$/.exec(lines[keyLine - 1] ?? '');
  if (key === null) return null;
  const keyColumn = (key[1] as string).length;
  let n = keyLine + 1;
  while (n <= lines.length && isBlank(lines[n - 1] as string)) n += 1;
  const item = ITEM_LINE.exec(lines[n - 1] ?? '');
  if (item === null) return null;
  const dash = (item[1] as string).length;
  // The "-" of the list item the key is in: left of this one.
  let outer = keyLine;
  while (outer >= 1 && (isBlank(lines[outer - 1] as string) || indentAt(lines, outer) >= keyColumn || !ITEM_LINE.test(lines[outer - 1] as string))) outer -= 1;
  if (dash >= keyColumn || outer < 1 || indentAt(lines, outer) >= dash) return null;
  // Its next lines, up to the key's next key (or an item at the key's column, whose column the list then takes).
  let target = keyColumn + 2;
  let atTarget: number | null = null;
  const next: number[] = [];
  for (let k = n + 1; k <= lines.length; k += 1) {
    if (isBlank(lines[k - 1] as string)) continue;
    if (indentAt(lines, k) < dash) break;
    if (indentAt(lines, k) === keyColumn) {
      if (ITEM_LINE.test(lines[k - 1] as string)) {
        target = keyColumn;
        atTarget = k;
      }
      break;
    }
    next.push(k);
  }
  const named = shownJson((key[2] as string).replace(/^["']|["']$/g, ''));
  const as = atTarget === null ? `deeper than ${named} on line ${String(keyLine)}` : `as the "-" on line ${String(atTarget)}`;
  return {
    from: n,
    to: next.at(-1) ?? n,
    issue: {
      file: src.file,
      line: n,
      column: dash + 1,
      message: `invalid YAML: the list item on line ${String(n)} is indented by ${plural(dash, 'space', 'spaces')}, less than ${named} on line ${String(keyLine)} (${String(keyColumn)}), so YAML does not read it as an item of the list under ${named}`,
      fix: `indent its "-" by ${plural(target, 'space', 'spaces')} (not ${String(dash)}), ${as}, so that line ${String(n)} reads\n    ${' '.repeat(target)}${(lines[n - 1] as string).slice(dash)}${alsoMoved(next, target - dash, 'right')}`,
    },
  };
}

/**
 * `message：hi`: a key followed by a full-width colon (U+FF1A, as a Chinese or Japanese keyboard
 * types it), which YAML reads as a letter, not as the ":" after a key. Said at the key with the
 * line as it should read; null when line `n` is not one.
 */
function fullWidthColon(src: SourceFile, n: number): ConfigIssue | null {
  const m = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)[ \t]*\uFF1A[ \t]*(.*)$/.exec(lineOf(src, n) ?? '');
  if (m === null) return null;
  const [, lead = '', key = '', rest = ''] = m;
  const fixed = `${lead}${key}: ${rest}`.trimEnd();
  if (!readsAlone(fixed)) return null;
  return {
    file: src.file,
    line: n,
    column: lead.length + key.length + 1,
    message: `invalid YAML: line ${String(n)} writes "\uFF1A" (a full-width colon) after the key ${shownJson(key)}, which YAML reads as a letter, not as the ":" after a key`,
    fix: `write ":" (and a space) in its place, so that line ${String(n)} reads\n    ${fixed}`,
  };
}

/**
 * `- "Order 5521",`: a quoted value followed by a comma, as in a JSON list, outside any `[ ]` or
 * `{ }`, where YAML cannot read it. Said at the comma with the line without it; null when line
 * `n` is not one.
 */
function commaAfterQuoted(src: SourceFile, n: number): ConfigIssue | null {
  const line = lineOf(src, n) ?? '';
  const m = /^(\s*(?:-\s+)?(?:[^\s#:"'[{][^:#]*?:\s+)?)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')(\s*),(\s*(?:#.*)?)$/.exec(line);
  if (m === null || (m[1] as string).trim() === '') return null;
  const [, lead = '', value = '', space = '', rest = ''] = m;
  const fixed = `${lead}${value}${rest.trim() === '' ? '' : ` ${rest.trim()}`}`;
  if (!readsAlone(fixed)) return null;
  return {
    file: src.file,
    line: n,
    column: lead.length + value.length + space.length + 1,
    message: `invalid YAML: the "," after the quoted value on line ${String(n)} is outside any [ ] or { }, where YAML cannot read it (a list's items on lines of their own, each after "- ", need no commas)`,
    fix: `remove it, so that line ${String(n)} reads\n    ${fixed}`,
  };
}

/** Whether a line as a fix writes it reads as YAML on its own (its indentation and "- " left out). */
function readsAlone(line: string): boolean {
  return documentSource('', line.replace(/^\s*(?:-\s+)?/, '')).syntaxErrors().length === 0;
}

/** `assert { contains: x }`, `toolCalled:[ x ]`: a key, then its [ ] or { } with no ": " between. */
const FLOW_WITHOUT_COLON = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)(?:[ \t]+|:)([[{].*)$/;

/**
 * A key written without the ": " before its `[ ]` or `{ }`: YAML reads the key and the bracket's
 * text as one plain key or text, and the parser then says something of each ": " inside the
 * brackets. Said once at the key, with the line as it should read; null when line `n` is not one.
 */
function flowWithoutColon(src: SourceFile, n: number): ConfigIssue | null {
  const line = lineOf(src, n);
  const m = line === null ? null : FLOW_WITHOUT_COLON.exec(line);
  if (m === null) return null;
  const [, lead = '', key = '', value = ''] = m;
  const pair = value.startsWith('[') ? '[ ]' : '{ }';
  const noSpace = (line as string).slice(lead.length + key.length).startsWith(':');
  if (!readsAlone(`${key}: ${value}`)) return null;
  return {
    file: src.file,
    line: n,
    column: lead.length + 1,
    message: noSpace
      ? `invalid YAML: line ${String(n)} has no space after the colon of ${shownJson(key)}, so YAML does not read the ${pair} after it as its value`
      : `invalid YAML: line ${String(n)} has no ":" after its key ${shownJson(key)}, so YAML does not read the ${pair} after it as its value`,
    fix: `${noSpace ? 'put a space after the colon' : `write ": " after ${shownJson(key)}`}, so that line ${String(n)} reads\n    ${`${lead}${key}: ${value}`.trimEnd()}`,
  };
}

/** A key whose value is a block of text (`message: |`, `note: >-`): its indentation, "- " included, its key and its indicator. */
const BLOCK_HEADER = /^( *(?:- +)?)("[^"]*"|'[^']*'|[^\s#:-][^:#]*?)\s*:\s+([|>][-+0-9]*)\s*(?:#.*)?$/;

/**
 * A line of a `|` or `>` block's text indented no deeper than its key (`message: |`, then `Hello`
 * at the line's start), or less than the block's first line (`  Hello`, then ` Bye`): YAML ends
 * the block before it, and reads it as a key written wrong. Said at the line, with the line as it
 * should read, indented as the block's first line (under the key, by 2 spaces, when the block has
 * none above it); null when line `n` is not one.
 */
function blockTextSlip(src: SourceFile, n: number): ConfigIssue | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const here = lines[n - 1] ?? '';
  if (isBlank(here) || /^ *-(?:\s|$)/.test(here)) return null;
  const at = indentOf(here);
  let first: number | null = null;
  for (let k = n - 1; k >= 1; k -= 1) {
    const text = lines[k - 1] as string;
    if (/^\s*$/.test(text)) continue;
    const header = BLOCK_HEADER.exec(text);
    if (header !== null) {
      const keyIndent = (header[1] as string).length;
      const textIndent = first === null ? keyIndent + 2 : indentOf(lines[first - 1] as string);
      // No line of text above it: one at the key's column or left of it; else one left of the first.
      if (first === null ? at > keyIndent : at >= textIndent || at <= keyIndent) return null;
      const bare = (header[2] as string).replace(/^["']|["']$/g, '');
      const indicator = header[3] as string;
      if (first === null) {
        const words = blockTextWords({ n, here, at, header: k, key: bare, keyIndent, indicator, readAs: 'a key written wrong' });
        return { file: src.file, line: n, column: at + 1, message: `invalid YAML: ${words.message}`, fix: words.fix };
      }
      const key = shownJson(bare);
      const spaces = (k2: number): string => plural(k2, 'space', 'spaces');
      return {
        file: src.file,
        line: n,
        column: at + 1,
        message: `invalid YAML: line ${String(n)} is indented by ${spaces(at)}, less than line ${String(first)}, the first of the ${indicator} block of ${key} on line ${String(k)} (${String(textIndent)}), so YAML ends the block before it and reads it as a key written wrong`,
        fix: `indent it by ${spaces(textIndent)} (not ${String(at)}), as line ${String(first)}, so that line ${String(n)} reads\n    ${' '.repeat(textIndent)}${here.trimStart()}`,
      };
    }
    // A line of the block's text: deeper than the line `n` is, or, the block's first, anything deeper than its key.
    if (indentOf(text) <= at) return null;
    first = k;
  }
  return null;
}

/** A "-" with nothing after it but a comment, or a block's `|` or `>`: its indentation, and the block's indicator. */
const EMPTY_DASH = /^( *)-[ \t]*([|>][-+0-9]*)?[ \t]*(?:#.*)?$/;

/**
 * A list item's "-" with nothing after it, and its lines written no deeper than it (emptyDashItem):
 * one issue for the lines from the "-" to the last of them, or to the next item's "-", what the
 * parser says of which follows from it (DeeperItems' shape).
 */
type EmptyDashItem = DeeperItems;

/**
 * `-` alone on its line (or `- |`, a block), then the item's text or keys at the column of the "-" or
 * left of it (`  -`, then ` Where is my order?`): YAML reads an empty item, and the parser says "All mapping items
 * must start at the same column" at the "-", then something of each line under it. Said once, at
 * the first of those lines, with the lines indented as the item's should be (2 spaces deeper than
 * the "-"). `n`: the line the parser says it at, the "-" line or, after a comment, the first under
 * it; null when the line above it is not such a "-".
 */
function emptyDashItem(src: SourceFile, n: number): EmptyDashItem | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  let from = n;
  while (from > 1 && !EMPTY_DASH.test(lines[from - 1] ?? '') && isBlank(lines[from - 2] ?? '')) from -= 1;
  if (from > 1 && !EMPTY_DASH.test(lines[from - 1] ?? '')) from -= 1;
  const dash = EMPTY_DASH.exec(lines[from - 1] ?? '');
  if (dash === null) return null;
  const d = (dash[1] as string).length;
  let first = from + 1;
  while (first <= lines.length && isBlank(lines[first - 1] as string)) first += 1;
  const text = lines[first - 1];
  if (text === undefined) return null;
  const at = indentOf(text);
  // Deeper than the "-" is the item's, and a "-" at its column or left of it another item.
  if (at > d || ITEM_LINE.test(text.slice(Math.min(at, d)))) return null;
  // The item's lines: from the first, up to one left of it, or another item's "-" at the "-"'s column or left of it.
  let to = first;
  for (let k = first + 1; k <= lines.length; k += 1) {
    const line = lines[k - 1] as string;
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    if (indent < at || (indent <= d && ITEM_LINE.test(line.slice(indent)))) break;
    to = k;
  }
  // What the parser says at the next item's "-", which it reads at the column of the lines above, follows from it too.
  let last = to + 1;
  while (last <= lines.length && isBlank(lines[last - 1] as string)) last += 1;
  if (!ITEM_LINE.test(lines[last - 1] ?? '')) last = to;
  // `- |`: the block's text goes under it, never on the "-" line.
  const block = dash[2];
  const at1 = { file: src.file, line: first, column: at + 1 };
  if (block === undefined) {
    const words = emptyItemWords(lines, { from, first, to, at, dash: d, readAs: `cannot read line ${String(first)} as part of it` });
    return { from, to: last, issue: { ...at1, message: `invalid YAML: ${words.message}`, fix: words.fix } };
  }
  const deep = d + 2;
  const next = [];
  for (let k = first + 1; k <= to; k += 1) next.push(k);
  const moved = alsoMoved(next.length > 1 ? [next[0] as number, next[next.length - 1] as number] : next, deep - at, 'right');
  return {
    from,
    to: last,
    issue: {
      ...at1,
      message: `invalid YAML: line ${String(first)}, the text of the ${block} block of the "-" on line ${String(from)}, is indented by ${spacesWord(at)}, no deeper than the "-", so YAML reads the block as empty and cannot read line ${String(first)} as part of it`,
      fix: `indent the block's text deeper than the "-": by ${plural(deep, 'space', 'spaces')}, so that line ${String(first)} reads\n    ${' '.repeat(deep)}${text.trimStart()}${moved}`,
    },
  };
}

/**
 * `fixtures:`, `-`, `label: a`, `message: hi`, then `-`, `label: b`, ..., each at the start of its
 * line: items whose "-" is alone and whose keys are at its column, under a list at its key's column.
 * YAML reads the first item as empty and its keys beside `fixtures` (valid YAML so far, which
 * item-file.ts, emptyItemAtKeys, says), then refuses the next "-" after those keys and says each key
 * of the next such item written twice. One issue for the list, at the first item's first key, in the
 * words of the valid file's (emptyItemWords), naming each such item's lines, for every error the
 * parser gives from its "-" to the list's end; null when the list around line `said` (where the
 * parser names a "-", or the blank lines before it) holds no such item above it.
 */
function emptyItemsAtKeys(src: SourceFile, said: number): ItemAtKeys | null {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const at = itemFrom(lines, said);
  if (at === null) return null;
  const c = at.column;
  const isItem = (k: number): boolean => ITEM_LINE.test(lines[k - 1] as string);
  const isKey = (k: number): boolean => !isItem(k) && KEY_LINE.test(lines[k - 1] as string);
  const nextLine = (k: number): number => {
    let m = k + 1;
    while (m <= lines.length && isBlank(lines[m - 1] as string)) m += 1;
    return m;
  };
  // Up to the list's key: at the column, nothing after its ":", its next line an item at its column.
  let key = at.n - 1;
  for (; key >= 1; key -= 1) {
    const line = lines[key - 1] as string;
    if (isBlank(line) || indentOf(line) > c || isItem(key)) continue;
    if (indentOf(line) < c || !isKey(key)) return null;
    const m = nextLine(key);
    if (/:\s*(?:#.*)?$/.test(line) && m <= lines.length && isItem(m) && indentOf(lines[m - 1] as string) === c) break;
  }
  if (key < 1) return null;
  // The list's items: a "-" alone, its keys at its column after it, is one written so (the lines
  // under its keys its own); a key at the column after any other item ends the list.
  const alone: { from: number; first: number; to: number }[] = [];
  let open: { from: number; first: number; to: number } | null = null;
  let end = key;
  for (let k = key + 1; k <= lines.length; k += 1) {
    const line = lines[k - 1] as string;
    if (isBlank(line)) continue;
    const indent = indentOf(line);
    if (indent < c) break;
    if (indent === c && isItem(k)) {
      const dash = EMPTY_DASH.exec(line);
      open = dash !== null && dash[2] === undefined ? { from: k, first: 0, to: k } : null;
    } else if (indent > c) {
      // Under a "-" alone, deeper than it: its item, written as YAML reads it.
      if (open !== null && open.first === 0) open = null;
      if (open !== null) open.to = k;
    } else {
      if (open === null || !isKey(k)) break;
      if (open.first === 0) {
        open.first = k;
        alone.push(open);
      }
      open.to = k;
    }
    end = k;
  }
  const [head, ...more] = alone;
  if (head === undefined || head.first >= at.n || at.n > end) return null;
  const name = shownJson((KEY_LINE.exec(lines[key - 1] as string)?.[2] as string).replace(/^["']|["']$/g, ''));
  const words = emptyItemWords(lines, { ...head, at: c, dash: c, readAs: `line ${String(head.first)} as a key beside ${name} on line ${String(key)}, not as part of the item` }, more);
  return { from: head.from, to: end, issue: { file: src.file, line: head.first, column: c + 1, message: `invalid YAML: ${words.message}`, fix: words.fix } };
}

/** A key and its value (or a list item's `- ` and its value): the text before the value, the value, and a comment after it. */
const KEY_AND_VALUE = /^(\s*(?:-\s+)?(?:[^\s#:"'@`%[{|>*&!-][^:#]*?:\s+)?)(\S.*?)(\s+#.*)?$/;

/**
 * `message: @user hi`, `` message: `code` ``, `message: - no`, `message: [urgent] help`, `message:
 * | hello`: a value meant as text that starts with a character YAML reads otherwise (one it
 * reserves, a list item's "- ", a `[ ]` or `{ }` with text after its closing bracket, a block's
 * `|` or `>` with text after it on its line), so the parser cannot read it. Said at the value with
 * the line as it reads in quotes; null when line `n` is not one, or that line does not read alone.
 */
function valueStartSlip(src: SourceFile, n: number): ConfigIssue | null {
  const line = lineOf(src, n);
  const m = line === null ? null : KEY_AND_VALUE.exec(line);
  if (m === null) return null;
  const [, lead = '', value = '', comment = ''] = m;
  const keyed = /:\s+$/.test(lead);
  if (lead.trim() === '') return null;
  const c = value[0] as string;
  let why: string;
  if ('@`%'.includes(c)) why = `starts with ${c}, which YAML does not allow at the start of unquoted text`;
  else if (keyed && /^-(?:\s|$)/.test(value)) why = 'starts with "- ", which YAML reads as a list item, and a list cannot start on its key\'s line';
  else if (c === '[' || c === '{') {
    const scan = scanFlow(value, 0);
    // Nothing after it, or a closing bracket too many (withoutStrayCloser's): not text.
    if (scan.kind !== 'closed' || /^\s*(?:[\]}]|$)/.test(value.slice(scan.end + 1))) return null;
    // `{ contains: "x" }, { judge: "y" }`: collections separated by commas, a list without its [ ].
    const list = `${lead}[ ${value} ]${comment}`;
    if (/^\s*,\s*[[{]/.test(value.slice(scan.end + 1)) && readsAlone(list)) {
      return {
        file: src.file,
        line: n,
        column: lead.length + 1,
        message: `invalid YAML: the value on line ${String(n)} is ${c === '[' ? 'lists' : 'mappings'} separated by commas, which YAML reads as one list only inside [ ]`,
        fix: `put them in [ ], so that line ${String(n)} reads\n    ${list}`,
      };
    }
    why = `starts with ${c}, so YAML reads ${shownJson(headOf(value.slice(0, scan.end + 1), 40))} as a ${c === '[' ? 'list' : 'mapping'} and cannot read the text after it`;
  } else if (keyed && /^[|>][-+0-9]*\s+\S/.test(value)) why = `starts with ${c}, which YAML reads as the start of a block of text on the lines below, with nothing but a comment after it on its line`;
  else return null;
  const quoted = value.includes('"') ? `'${value.replace(/'/g, "''")}'` : `"${value.replace(/\\/g, '\\\\')}"`;
  const fixed = `${lead}${quoted}${comment}`;
  if (!readsAlone(fixed)) return null;
  // A block's text, written on its line: the line as a block, its text on the next line.
  const block = keyed && (c === '|' || c === '>') ? /^([|>][-+0-9]*)\s+(.*)$/.exec(value) : null;
  const indent = ' '.repeat(indentOf(lead) + (/^ *-\s+/.exec(lead)?.[0].length ?? 0));
  const asBlock = block === null ? '' : `\n  or, for a block of text, end line ${String(n)} with the ${c} and write the text on the lines below it, indented under the key:\n    ${lead}${block[1] as string}${comment}\n    ${indent}  ${block[2] as string}`;
  return {
    file: src.file,
    line: n,
    column: lead.length + 1,
    message: `invalid YAML: the value ${shownJson(headOf(value, 60))} on line ${String(n)} ${why}`,
    fix: `put the value in quotes, so that line ${String(n)} reads\n    ${fixed}${asBlock}`,
  };
}

/** The offset of the quote that ends the quoted value opened at `start` of `line`, as YAML reads it (line.length: not on the line). */
function quotedEnd(line: string, start: number): number {
  const quote = line[start];
  let end = start + 1;
  while (end < line.length) {
    if (quote === '"' && line[end] === '\\') end += 2;
    else if (quote === "'" && line[end] === "'" && line[end + 1] === "'") end += 2;
    else if (line[end] === quote) break;
    else end += 1;
  }
  return Math.min(end, line.length);
}

/**
 * `message: 'don't do it'`, `message: "say "hi" now"` or `assert: { regex: "boots "x" (in" }`: a
 * quote inside a quoted value ends the value there, and YAML cannot read the rest of the line. Said
 * at the value, with the quotes inside it written as YAML reads them (`''` in single quotes, `\"` in
 * double ones), when a later quote closes it: the line's last one, or inside `[ ]` or `{ }` the first
 * one followed by the `,`, `]` or `}` that ends the value there. null when line `n` is not one.
 */
function quoteEndsEarly(src: SourceFile, n: number): ConfigIssue | null {
  const line = lineOf(src, n);
  if (line === null) return null;
  const block = /^(\s*(?:-\s+)?(?:[^\s#:"'][^:#]*?:\s+)?)(["'])/.exec(line);
  // A quote that starts a value: the line's value, or inside brackets one after `[`, `{`, `,` or `: `.
  let depth = 0;
  let prev = '';
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (c === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) return null;
    const opens = (c === '"' || c === "'") && (block?.[1]?.length === i || (depth > 0 && ('[{,'.includes(prev) || (prev === ':' && /\s/.test(line[i - 1] as string)))));
    if (opens) {
      const end = quotedEnd(line, i);
      if (end >= line.length) return null;
      const after = line.slice(end + 1);
      // Nothing after it, a comment, the next item of a [ ] or { }, or a quoted key's colon: the value ends there as meant.
      if (/^\s*(?:#.*)?$/.test(after) || /^\s*[,\]}:]/.test(after)) {
        i = end;
        prev = c;
        continue;
      }
      return quoteSlip(src, n, line, i, end, depth > 0);
    }
    if (c === '[' || c === '{') depth += 1;
    else if ((c === ']' || c === '}') && depth > 0) depth -= 1;
    if (!/\s/.test(c)) prev = c;
  }
  return null;
}

/** quoteEndsEarly's issue for the value opened at `start` that YAML ends at `end`; null when no later quote closes it as meant. */
function quoteSlip(src: SourceFile, n: number, line: string, start: number, end: number, inFlow: boolean): ConfigIssue | null {
  const quote = line[start] as string;
  const after = line.slice(end + 1);
  let last = -1;
  if (inFlow) {
    for (let q = line.indexOf(quote, end + 1); q !== -1 && last === -1; q = line.indexOf(quote, q + 1)) if (/^\s*[,\]}]/.test(line.slice(q + 1))) last = q;
  } else {
    const comment = /\s#/.exec(after.slice(after.lastIndexOf(quote)));
    last = line.lastIndexOf(quote, comment === null ? line.length : end + 1 + after.lastIndexOf(quote) + comment.index);
    if (!/^\s*(?:#.*)?$/.test(line.slice(last + 1))) return unclosedQuotedText(src, n, line, start, end);
  }
  if (last <= end) return null;
  const inner = line.slice(start + 1, last);
  // Inside brackets, a next item or key taken into the value (`"a"b, flags: "i"`) is no quote of its text.
  if (inFlow && /,\s*(?:["']|[\w-]+:\s)/.test(inner)) return null;
  const written = quote === "'" ? inner.replace(/'/g, "''") : inner.replace(/(^|[^\\])"/g, '$1\\"');
  const word = line.slice(start + 1, end).trimEnd();
  const fixed = `${line.slice(0, start)}${quote}${written}${quote}${line.slice(last + 1).trimEnd()}`;
  if (!readsAlone(fixed)) return null;
  const rest = shownJson(headOf(after.trimEnd(), 40));
  const fix = `${quote === "'" ? "write each ' inside the value twice ('')" : 'write each " inside the value as \\"'}, so that line ${String(n)} reads\n    ${fixed}`;
  if (word === '' && end === start + 1) {
    // `""x"`: two quotes first, an empty text YAML has closed before the rest.
    const once = `${line.slice(0, start)}${line.slice(start + 1).trimEnd()}`;
    return {
      file: src.file,
      line: n,
      column: start + 1,
      message: `invalid YAML: the value on line ${String(n)} is an empty quoted text (${quote}${quote}) followed by ${rest}, which YAML cannot read after its closing quote`,
      fix: readsAlone(once) ? `${fix}\n  or, if the first ${quote} is one too many, remove it, so that line ${String(n)} reads\n    ${once}` : fix,
    };
  }
  return {
    file: src.file,
    line: n,
    column: start + 1,
    message: `invalid YAML: the value on line ${String(n)} ends at the ${quote} after ${shownJson(tailOf(word, 30))}, so YAML cannot read the rest of the line (${rest})`,
    fix,
  };
}

/**
 * `message: "say "hi" now` or `message: ""x" more`: a quoted value whose last quote is not at the
 * line's end, the text after its opening quote holding quotes in pairs, as when a value with a
 * quoted word in it is never closed. Said at the value, with the line as it reads with that text
 * quoted (in the other quote, where the text holds none of it; or in its quote, with those inside
 * it written as YAML reads them); null when the text's quotes are not in pairs or neither line
 * reads on its own.
 */
function unclosedQuotedText(src: SourceFile, n: number, line: string, start: number, end: number): ConfigIssue | null {
  const quote = line[start] as string;
  // The text after the opening quote; or, its quotes not in pairs, the value as written, its first
  // quote part of the text (`message: "Hello" he said`).
  const after1 = line.slice(start + 1);
  const paired = after1.slice(0, /\s#/.exec(after1.slice(after1.lastIndexOf(quote)))?.index ?? after1.length).split(quote).length % 2 === 1;
  const rest = paired ? after1 : line.slice(start);
  // A comment after the text's last quote is no part of it.
  const comment = /\s#/.exec(rest.slice(rest.lastIndexOf(quote)));
  const text = (comment === null ? rest : rest.slice(0, rest.lastIndexOf(quote) + comment.index)).trimEnd();
  if (text.split(quote).length % 2 === 0) return null;
  const after = comment === null ? '' : rest.slice(text.length);
  const other = quote === '"' ? "'" : '"';
  const lines = [
    ...(text.includes(other) ? [] : [`${other}${text}${other}`]),
    quote === "'" ? `'${text.replace(/'/g, "''")}'` : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  ]
    .map((value) => `${line.slice(0, start)}${value}${after}`.trimEnd())
    .filter(readsAlone);
  if (lines.length === 0) return null;
  const how = (fixed: string): string =>
    fixed.slice(start).startsWith(other)
      ? `put the whole value in ${other === '"' ? 'double' : 'single'} quotes, so that line ${String(n)} reads\n    ${fixed}`
      : `${
          paired
            ? `${quote === "'" ? "write each ' inside the value twice ('')" : 'write each " inside the value as \\"'} and close it with ${quote}`
            : `put the whole value in ${quote === '"' ? 'double quotes, with each " inside it written as \\"' : "single quotes, with each ' inside it written twice ('')"}`
        }, so that line ${String(n)} reads\n    ${fixed}`;
  const word = line.slice(start + 1, end).trimEnd();
  return {
    file: src.file,
    line: n,
    column: start + 1,
    message:
      end === start + 1
        ? `invalid YAML: the value on line ${String(n)} is an empty quoted text (${quote}${quote}) followed by ${shownJson(text.slice(1, 41))}, which YAML cannot read after its closing quote`
        : `invalid YAML: the value on line ${String(n)} ends at the ${quote} after ${shownJson(tailOf(word, 30))}, so YAML cannot read the rest of the line (${shownJson(headOf(line.slice(end + 1, start + (paired ? 1 : 0) + text.length).trimEnd(), 40))})`,
    fix: `${paired ? '' : 'if the quotes are part of the text, '}${lines.map(how).join('\n  or ')}`,
  };
}

/**
 * flowSlip at the parser's `offset`, said of the file as it reads with line `keyLine`'s key moved
 * to `lead` spaces (deeperKey's fix), its lines and columns those of the file as written.
 */
function movedKeySlip(src: SourceFile, offset: number, keyLine: number, lead: number): FlowSlip | null {
  const lines = src.text.split('\n');
  const start = lines.slice(0, keyLine - 1).reduce((n, l) => n + l.length + 1, 0);
  const written = lines[keyLine - 1] ?? '';
  const delta = indentOf(written) - lead;
  const text = src.text.slice(0, start) + written.slice(delta) + src.text.slice(start + written.length);
  const back = (o: number): number => (o >= start + lead ? o + delta : o);
  return flowSlip(text, offset - delta, (o) => src.offsetAt(back(o)));
}

/**
 * The bad escapes in double quotes (`"\\q"`) the `yaml` document never read, each as the parser
 * words one: the value of a key the parser refused (`- label: c` after `message: hi`, at its
 * column) is left out of the document, so its escapes are not among the parser's errors, and one
 * would be said only once the mistake above it is fixed, a load later. The parser's tokens hold
 * every double-quoted value, read or not: each is resolved as the document resolves one, and the
 * escapes the document did not say are added. One pass of the parser over the file, for a file
 * with syntax errors only (a valid file never comes here); none per error.
 */
function unreadEscapes(src: SourceFile, errors: readonly YamlSyntaxError[]): YamlSyntaxError[] {
  const said = new Set(errors.flatMap((e) => (e.code === 'BAD_DQ_ESCAPE' ? [e.offset] : [])));
  const { CST: cst, Parser } = yamlPackage();
  const out: YamlSyntaxError[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if ((node as { type?: unknown }).type === 'double-quoted-scalar') {
      cst.resolveAsScalar(node as CST.FlowScalar, true, (offset, code, message) => {
        if (code === 'BAD_DQ_ESCAPE' && !said.has(offset)) out.push({ code, message, offset, end: offset + 1 });
      });
      return;
    }
    for (const value of Object.values(node)) walk(value);
  };
  for (const token of new Parser().parse(src.text)) walk(token);
  return out;
}

/** Syntax problems reported by the YAML parser, one issue each (escapes refused on one line: one issue). */
export function yamlSyntaxIssues(src: SourceFile): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  // An issue the parser's words lead to twice (`message hi`, then `assert x`: the ':' left out, said at both): said once.
  const say = (issue: ConfigIssue): void => {
    if (!out.some((o) => o.file === issue.file && o.line === issue.line && o.column === issue.column && o.message === issue.message)) out.push(issue);
  };
  // A list item indented under the item above is one slip, said once at its "-", whatever the
  // parser says about it and its next lines (nestedItems).
  const errors = src.syntaxErrors();
  // A merge conflict left in the file is said before the file is parsed (readYaml), never here.
  // A tab in a line's indentation: one issue for the stretch the parser then misreads (tabIndents).
  const tabs = errors.length === 0 ? [] : tabIndents(src, errors);
  const tabAt = (err: YamlSyntaxError): TabStretch | undefined => {
    const line = src.offsetAt(err.offset).line ?? 0;
    return tabs.find((t) => line >= t.first && line <= t.last);
  };
  const pos0 = (err: YamlSyntaxError): number => src.offsetAt(err.offset).line ?? 0;
  /** The lines an unclosed flow collection's end leaves misread (see its issue). */
  let flowShadow: { from: number; to: number } | null = null;
  // Where the parser left the document: one issue for all it says after (leftDocument).
  const left = errors.length === 0 ? null : leftDocument(src, errors, (err) => tabAt(err) !== undefined);
  // A flow collection closed by the wrong bracket, or left of its key: one issue, at that bracket
  // (flowSlip); when the parser then leaves the document there, what it says after is that issue too.
  const flowSlips = new Map<number, ConfigIssue>();
  // A key deeper than the key above (deeperKey): one issue per line, however often it is asked for.
  const deeperKeys = new Map<number, ReturnType<typeof deeperKey>>();
  const deeperKeyAt = (line: number | null): ReturnType<typeof deeperKey> => {
    if (line === null) return null;
    if (!deeperKeys.has(line)) deeperKeys.set(line, deeperKey(src, line));
    return deeperKeys.get(line) ?? null;
  };
  for (const err of errors) {
    if (!isFlowEnd(err)) continue;
    const slip = flowSlip(src.text, err.offset, (o) => src.offsetAt(o));
    if (slip === null) continue;
    // The key one space deeper than the key above, its closing bracket at the column the key's fix
    // moves it to: one mistake, the key's, said once with its one fix (not "indent the bracket").
    // Any other slip of that bracket is said as the file reads once the key is moved, so that its
    // fix does not undo the key's (`indent it by 1 space` of a bracket at the key's new column).
    const keyLine = src.offsetAt(slip.from).line;
    const key = deeperKeyAt(keyLine);
    const said = key === null ? slip : movedKeySlip(src, err.offset, keyLine as number, key.lead);
    const issue =
      key !== null && said === null
        ? key.issue
        : ([...flowSlips.values()].find((i) => i.message === (said ?? slip).message) ?? { file: src.file, ...src.offsetAt(slip.at), message: (said ?? slip).message, fix: (said ?? slip).fix });
    flowSlips.set(err.offset, issue);
    if (left !== null && !left.whole && left.at.offset >= slip.from && left.at.offset <= slip.to + 1) left.issue = issue;
  }
  // A line of a multi-line `[ ]` or `{ }` left of its key (not its closing bracket: flowSlip's):
  // said at that line, for what the parser says inside the collection (flowIndentSlips).
  const indentSlips = errors.length === 0 ? [] : flowIndentSlips(src.text, true).filter((s) => s.at !== s.closer);
  const slipIssues = indentSlips.map((slip): ConfigIssue => ({ file: src.file, ...src.offsetAt(slip.at), ...flowIndentWords(src.text, slip, (o) => src.offsetAt(o), true) }));
  const slipSpan = (slip: FlowIndentSlip): [number, number] => {
    const eol = src.text.indexOf('\n', slip.closer);
    return [slip.opener, eol === -1 ? src.text.length : eol + 1];
  };
  const slipsAt = (offset: number): ConfigIssue[] =>
    slipIssues.filter((_, i) => {
      const [from, to] = slipSpan(indentSlips[i] as FlowIndentSlip);
      return offset >= from && offset <= to;
    });
  if (left !== null && !left.whole) {
    const first = slipsAt(left.at.offset)[0];
    if (first !== undefined) left.issue = first;
  }
  // A line the parser cannot read past for a slip of its own (a quote inside a quoted value, a
  // key's ": " left out before its brackets): said once, for each error on it and what follows.
  const lineSlips = new Map<number, ConfigIssue | null>();
  const lineSlip = (n: number): ConfigIssue | null => {
    if (!lineSlips.has(n)) lineSlips.set(n, n === 0 ? null : (quoteEndsEarly(src, n) ?? flowWithoutColon(src, n) ?? blockText(n) ?? valueStartSlip(src, n) ?? fullWidthColon(src, n) ?? commaAfterQuoted(src, n)));
    return lineSlips.get(n) ?? null;
  };
  // A block's line left of its text (blockTextSlip), which the parser may say at the blank line above it too.
  const blockText = (n: number): ConfigIssue | null => {
    let line = n;
    while (/^\s*$/.test(lineOf(src, line) ?? 'end')) line += 1;
    return line === n ? blockTextSlip(src, n) : blockTextSlip(src, line) === null ? null : lineSlip(line);
  };
  if (left !== null && !left.whole) left.issue = lineSlip(pos0(left.at)) ?? left.issue;
  // A key short of its list item's keys: one issue for the rest of the item (keyShortOfItem).
  const shortKeys = errors.flatMap((e) => (isSequenceItemError(e) ? [keyShortOfItem(src, pos0(e))] : [])).filter((k) => k !== null);
  // A list item's "-" with no space after it, at or above the first error: every error after it follows from it.
  const dash = errors.length === 0 ? null : dashWithoutSpace(src, pos0(errors.reduce((a, b) => (b.offset < a.offset ? b : a))));
  const nested = errors.length === 0 ? [] : nestedItems(src);
  const nestedAt = (err: YamlSyntaxError): NestedItem | undefined => (isNestingError(err) ? nested.find((m) => err.offset >= m.from && err.offset <= m.to) : undefined);
  // A key the parser had to read over several lines is one slip, said once (implicitKeySlip); the
  // other error it gives at the same place goes with it.
  const slips = new Map<number, ConfigIssue>();
  /** The line of a list item that starts at another column than the items before it (BAD_INDENT). */
  let misplacedItem: number | null = null;
  for (const err of errors) {
    if (err.code !== 'MULTILINE_IMPLICIT_KEY' || slips.has(err.offset) || nestedAt(err) !== undefined) continue;
    const slip = implicitKeySlip(src, err);
    if (slip !== null) slips.set(err.offset, slip);
  }
  // A quote never closed takes the rest of the file as its value: what the parser says after it
  // is about that text, said with the quote.
  const quoteEnd = errors.find((e) => e.code === 'MISSING_CHAR' && /^Missing closing ["']quote/.test(e.message));
  const quoteOpened = quoteEnd === undefined ? null : unclosedQuote(src.text, quoteEnd.message.startsWith('Missing closing "') ? '"' : "'", quoteEnd.offset);
  /** Bad escapes by line: the issue already made for that line, and the escapes it names. */
  const escapesByLine = new Map<number, { issue: ConfigIssue; escapes: string[] }>();
  /** First items of a list indented deeper than the next ones (deeperFirstItems): one issue each. */
  const deeperLists: DeeperItems[] = [];
  /** List items at the column of the keys above them (itemAtKeyColumn): one issue each. */
  const keyItems: ItemAtKeys[] = [];
  // A "-" alone, its lines no deeper than it: one issue for what the parser says of them (emptyDashItem).
  const emptyDashes = errors.flatMap((e) => (e.code === 'BAD_INDENT' && /^All mapping items must start at the same column/.test(e.message) ? [emptyDashItem(src, pos0(e))] : [])).filter((e) => e !== null);
  // The escapes the document did not read are said with the parser's own errors (unreadEscapes).
  for (const err of errors.length === 0 ? errors : [...errors, ...unreadEscapes(src, errors)]) {
    if (quoteOpened !== null && err !== quoteEnd && err.offset > quoteOpened) continue;
    if (dash !== null && err.offset >= dash.offset) {
      if (!out.includes(dash.issue)) out.push(dash.issue);
      continue;
    }
    const tab = tabAt(err);
    if (tab !== undefined) {
      if (!out.includes(tab.issue)) out.push(tab.issue);
      continue;
    }
    const short = shortKeys.find((k) => pos0(err) >= k.from && pos0(err) <= k.to);
    if (short !== undefined) {
      if (!out.includes(short.issue)) out.push(short.issue);
      continue;
    }
    const empty = emptyDashes.find((e) => pos0(err) >= e.from && pos0(err) <= e.to);
    if (empty !== undefined) {
      if (!out.includes(empty.issue)) out.push(empty.issue);
      continue;
    }
    const own = lineSlip(pos0(err));
    if (own !== null) {
      if (!out.includes(own)) out.push(own);
      continue;
    }
    const inSlip = slipsAt(err.offset);
    if (inSlip.length > 0 && (left === null || left.whole || err.offset < left.at.offset)) {
      for (const issue of inSlip) if (!out.includes(issue)) out.push(issue);
      // The parser then misreads the rest of the top-level entry ("Implicit keys need to be on a
      // single line" on its next keys): said with the line.
      const above = src.text.slice(0, src.text.lastIndexOf('\n', err.offset) + 1).split('\n');
      let top = above.length;
      while (top > 0 && !/^[^\s#]/.test(above[top - 1] as string)) top -= 1;
      if (top > 0 && flowShadow === null) flowShadow = { from: top, to: shadowEnd(src, top) };
      const closer = isFlowEnd(err) ? flowSlips.get(err.offset) : undefined;
      if (closer !== undefined && !out.includes(closer)) out.push(closer);
      continue;
    }
    const line = pos0(err);
    if (flowShadow !== null && line >= flowShadow.from && line <= flowShadow.to && isNestingError(err)) continue;
    if (left !== null && (left.whole || err.offset >= left.at.offset)) {
      if (!out.includes(left.issue)) out.push(left.issue);
      continue;
    }
    const item = nestedAt(err);
    if (item !== undefined) {
      if (!out.includes(item.issue)) out.push(item.issue);
      continue;
    }
    if (isNestingError(err)) {
      const deeper = deeperLists.find((d) => line >= d.from && line <= d.to) ?? (line === 0 ? null : deeperFirstItems(src, line));
      if (deeper !== null) {
        if (!deeperLists.includes(deeper)) deeperLists.push(deeper);
        if (!out.includes(deeper.issue)) out.push(deeper.issue);
        continue;
      }
    }
    // A list item at the column of the keys above it: one issue for it and the lines that go with it (itemAtKeyColumn).
    const atKeys = keyItems.find((k) => line >= k.from && line <= k.to && followsItemAtKeys(err)) ?? (isNestingError(err) || err.code === 'UNEXPECTED_TOKEN' ? (emptyItemsAtKeys(src, line) ?? itemAtKeyColumn(src, line) ?? itemLeftOfList(src, line)) : isSequenceItemError(err) ? itemLeftOfList(src, line, true) : null);
    if (atKeys !== null) {
      if (!keyItems.includes(atKeys)) keyItems.push(atKeys);
      if (!out.includes(atKeys.issue)) out.push(atKeys.issue);
      continue;
    }
    // What the parser misreads on the line of an item that starts at another column (its text, then
    // the key on the next line: "Implicit keys need to be on a single line"): the same slip.
    if (misplacedItem !== null && line === misplacedItem && isNestingError(err)) continue;
    const slip = slips.get(err.offset);
    if (slip !== undefined) {
      if (err.code === 'MULTILINE_IMPLICIT_KEY') say(slip);
      if (err.code === 'MULTILINE_IMPLICIT_KEY' || err.code === 'BLOCK_AS_IMPLICIT_KEY') continue;
    }
    if (err.code === 'BLOCK_AS_IMPLICIT_KEY' || err.code === 'BLOCK_IN_FLOW') {
      const colon = colonInValue(src, err, err.code === 'BLOCK_IN_FLOW');
      if (colon !== null) {
        say(colon);
        continue;
      }
    }
    const pos = src.offsetAt(err.offset);
    // An item that starts at another column takes its next lines out of the list: the parser then
    // says each is "Sequence item without - indicator". One slip, said once, at the item's "-".
    if (isSequenceItemError(err) && misplacedItem !== null && continuesItem(src, misplacedItem, pos.line)) continue;
    let message = `invalid YAML: ${err.message}`;
    let fix = SYNTAX_FIX;
    if (err.code === 'MULTIPLE_DOCS') {
      message = 'invalid YAML: the file contains more than one document (a --- separator)';
      fix = 'keep one document per file: remove the --- line or split the file in two';
    } else if (err.code === 'DUPLICATE_KEY') {
      // `{ capUsd: 1,000,000 }`: the parts after the commas read as keys, 0 twice: the number split, said once at it.
      const split = splitNumberAt(lineOf(src, pos.line), pos.column);
      if (split !== null && splitWritesKeyTwice(split)) {
        const issue: ConfigIssue = { file: src.file, line: pos.line, column: split.column, ...splitNumberWords(split, pos.line) };
        if (!out.some((o) => o.line === issue.line && o.column === issue.column && o.message === issue.message)) out.push(issue);
        continue;
      }
      const key = duplicateKeyAt(src, pos);
      const first = key === null ? null : firstKeyLine(src, pos, key);
      message = key === null ? DUPLICATE_KEY_MESSAGE : `invalid YAML: the key ${shownJson(key)} appears twice in one mapping${first === null ? '' : ` (first on line ${String(first)})`}`;
      fix = 'remove or rename one of the two keys';
    } else if (err.code === 'MISSING_CHAR' && /^Missing closing ["']quote/.test(err.message)) {
      // The parser says so at the end of the file; the quote that was never closed is where to look.
      const quote = err.message.startsWith('Missing closing "') ? '"' : "'";
      const opened = unclosedQuote(src.text, quote, err.offset);
      if (opened !== null) {
        const at = src.offsetAt(opened);
        out.push({ file: src.file, line: at.line, column: at.column, message: `invalid YAML: the ${quote === '"' ? 'double' : 'single'} quote opened here is never closed`, fix: `close the value with ${quote} on this line (a ${quote} inside it is written ${quote === '"' ? '\\"' : "''"})` });
        continue;
      }
    } else if (isFlowEnd(err)) {
      const slip = flowSlips.get(err.offset);
      if (slip !== undefined) {
        if (!out.includes(slip)) out.push(slip);
        continue;
      }
      // Said where the collection had to end (the next key's line, or past the file's last line);
      // the bracket that was never closed is where to look.
      const opened = unclosedFlow(src.text, err.offset);
      if (opened !== null) {
        const at = src.offsetAt(opened);
        const list = src.text[opened] === '[';
        const issue: ConfigIssue = {
          file: src.file,
          line: at.line,
          column: at.column,
          message: `invalid YAML: the ${list ? '[' : '{'} opened here (${list ? 'a list, as in [a, b]' : 'a mapping, as in { contains: "x" }'}) is never closed`,
          fix: `close it with ${list ? ']' : '}'}; if the ${list ? '[' : '{'} is part of the text, put the whole value in quotes`,
        };
        // On its line alone: closed at the line's end, the line as it then reads.
        const closed = closedAtLineEnd(src.text, opened);
        if (closed !== null) {
          const how = closed.closers.length === 1 ? `close it with ${closed.closers} at the end of the line` : `close it at the end of the line, with every bracket still open there (${closed.closers})`;
          issue.fix = `${how}, so that line ${String(at.line)} reads\n    ${closed.line}\n  or, if the ${list ? '[' : '{'} is part of the text, put the whole value in quotes`;
        }
        // One bracket, one issue: the parser may say it once per collection it was in.
        if (!out.some((o) => o.line === issue.line && o.column === issue.column && o.message === issue.message)) out.push(issue);
        // The parser then misreads the lines where it had to end, up to the next line as little
        // indented ("Implicit keys need to be on a single line" on the next list item): said with it.
        if (pos.line !== null) flowShadow = { from: pos.line, to: shadowEnd(src, pos.line) };
        continue;
      }
    } else if (err.code === 'MISSING_CHAR' && /^Implicit map keys need to be followed by map values/.test(err.message)) {
      const noSpace = missingSpace(src, pos.line ?? 0, pos.line ?? -1) ?? missingColon(src, pos.line);
      if (noSpace !== null) {
        say(noSpace);
        continue;
      }
    } else if (err.code === 'BAD_INDENT' && /^All mapping items must start at the same column/.test(err.message)) {
      // A key line after one whose colon was left out and that ends in a comment (`url http://... # local`).
      const key = misalignedKey(src, pos.line) ?? deeperKeyAt(pos.line)?.issue ?? missingColonAbove(src, pos.line) ?? keyAtItemColumn(src, pos.line);
      if (key !== null) {
        if (!out.some((o) => o.line === key.line && o.message === key.message)) out.push(key);
        continue;
      }
    } else if (err.code === 'BAD_INDENT' && /^All sequence items must start at the same column/.test(err.message)) {
      // Said at the end of a key's line: the list under it, written left of the key (itemShortOfKey).
      const short = itemShortOfKey(src, pos.line);
      if (short !== null) {
        misplacedItem = short.from;
        keyItems.push(short);
        out.push(short.issue);
        continue;
      }
      misplacedItem = pos.line;
      message = `invalid YAML: the list item on line ${String(pos.line)} starts at another column than the list's items above it`;
      fix = misplacedItemFix(src, pos.line) ?? 'start its "-" at the column of the other items\' "-", and its other lines at the column of the item above\'s keys: indentation is part of YAML\'s structure';
    } else if (err.code === 'BAD_DQ_ESCAPE') {
      const escape = /Invalid escape sequence (\S+)/.exec(err.message)?.[1] ?? '\\';
      const seen = pos.line === null ? undefined : escapesByLine.get(pos.line);
      if (seen) {
        if (!seen.escapes.includes(escape)) seen.escapes.push(escape);
        Object.assign(seen.issue, escapeAdvice(src, pos, seen.escapes));
        continue;
      }
      const issue: ConfigIssue = { file: src.file, line: pos.line, column: pos.column, ...escapeAdvice(src, pos, [escape]) };
      if (pos.line !== null) escapesByLine.set(pos.line, { issue, escapes: [escape] });
      out.push(issue);
      continue;
    }
    say({ file: src.file, line: pos.line, column: pos.column, message, fix });
  }
  return followOnsLeftOut(out);
}

/**
 * The issues without the parser's own words for what it misread after the first mistake: an
 * error said as the parser words it (SYNTAX_FIX) is kept only when it is the file's first, on a
 * line before every other issue's (but a key written twice); the others follow from a mistake
 * said above them, and wait for its fix (docs/troubleshooting.md).
 */
function followOnsLeftOut(issues: ConfigIssue[]): ConfigIssue[] {
  const line = (i: ConfigIssue): number => i.line ?? Infinity;
  // A key written twice loses the parser nothing: what it says after one is not its consequence.
  const first = Math.min(...issues.filter((i) => !onlyDuplicateKeys([i])).map(line));
  let kept = false;
  return issues.filter((i) => {
    if (i.fix !== SYNTAX_FIX) return true;
    if (kept || line(i) > first) return false;
    kept = true;
    return true;
  });
}

/** `"\d+"`: in double quotes a backslash starts a YAML escape; a regex's backslash wants single quotes. */
function escapeAdvice(src: SourceFile, pos: Position, escapes: readonly string[]): { message: string; fix: string } {
  const list = escapes.join(' and ');
  const message = `invalid YAML: ${list} inside double quotes ${escapes.length === 1 ? 'is not a YAML escape' : 'are not YAML escapes'} (in "..." a backslash starts one, such as \\n or \\")`;
  const doubled = escapes.map((e) => `\\${e}`).join(', ');
  const fixed = singleQuoted(lineOf(src, pos.line), pos.column);
  const fix =
    fixed === null
      ? `put the value in single quotes, where a backslash is kept as written, or keep the double quotes and double the backslash (${doubled})`
      : `put the value in single quotes, where a backslash is kept as written, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}\n  or keep the double quotes and double the backslash (${doubled})`;
  return { message, fix };
}

/**
 * The line with the double-quoted scalar around `column` (1-based) written in single quotes, the
 * way its author meant it: `\\` and `\"` become the character they escape, every other backslash
 * is kept (YAML refused it, so it was meant literally, as in a regex's `\d`), a `'` is doubled.
 * null when the line has no such scalar.
 */
function singleQuoted(line: string | null, column: number | null): string | null {
  if (line === null || column === null) return null;
  const at = column - 1;
  for (let start = line.indexOf('"'); start !== -1; ) {
    let end = start + 1;
    let inner = '';
    while (end < line.length && line[end] !== '"') {
      if (line[end] === '\\' && (line[end + 1] === '\\' || line[end + 1] === '"')) {
        inner += line[end + 1];
        end += 2;
      } else {
        inner += line[end];
        end += 1;
      }
    }
    if (end >= line.length) return null;
    if (at >= start && at <= end) return `${line.slice(0, start)}'${inner.replace(/'/g, "''")}'${line.slice(end + 1)}`;
    start = line.indexOf('"', end + 1);
  }
  return null;
}
