// The file rule shared by fixture and persona files: a file holds one item (a mapping), a bare
// list of items, or a list under one key (`fixtures:`, `personas:`). The items come back with
// their paths in the file; what is wrong with the file as a whole is pushed as issues.

import * as z from 'zod';
import { describeValue, lineOf, meantKey, quote, translateZodIssues, type ConfigIssue } from './issues.js';
import { colonsLeftOutOf, pathText, type PathSegment, type SourceFile } from './yaml/index.js';
import { alsoMoved, blockTextWords, emptyItemWords, indentOf, isBlank } from './yaml/moved.js';
import { isSplitNumberMessage, splitNumberAt, splitWritesKeyTwice } from './yaml/split-number.js';
import { onFirstUse } from '../patterns.js';
import { shownJson } from '../words.js';
import type { CommentedValue } from './yaml-traps.js';

export interface ItemFileRule {
  /** The key of the list form (`fixtures`). */
  key: string;
  emptyFile: { message: string; fix: string };
  emptyList: { message: string; fix: string };
  /** The error when the file holds neither an item nor a list; `found` is what it holds, in words. */
  neither: (found: string) => { message: string; fix: string };
  /** `{key: [...]}`, nothing else; built on first use, as the item's keys are (a start should not build schemas it may not need: onFirstUse). */
  listSchema: () => z.ZodType;
  /** What the file holds as one item, and the keys it takes then (`fixture`: label, message, ...). */
  item: { noun: string; keys: () => readonly string[] };
}

export function itemFileRule(rule: Omit<ItemFileRule, 'listSchema'>): ItemFileRule {
  return { ...rule, listSchema: onFirstUse(() => z.strictObject({ [rule.key]: z.array(z.unknown()) })) };
}

/** What checking one fixture or persona file found besides its items. */
export interface ItemFileFindings {
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /**
   * Labels seen in the file, with their position, even on items with other problems; `issue`: the
   * error about the label itself (invalid, or a name Windows refuses), whose fix suggests another
   * label: made again once the whole suite's labels are known, so that it suggests none in use.
   */
  labels: { label: string; file: string; line: number | null; column: number | null; issue?: ConfigIssue }[];
  /** `label: # refund policy`: labels YAML read as a comment alone, whose fix offers one close to the comment, made again alike. */
  labelsMeant: CommentedValue[];
}

export interface FileItem {
  data: unknown;
  /** Where the item is: `[]` for a file that is the item, `[2]` in a bare list, `['fixtures', 2]`. */
  path: PathSegment[];
}

/** The items of one parsed file under `rule`; none when the file holds none it can be read for. */
export function itemsOfFile(src: SourceFile, data: unknown, rule: ItemFileRule, out: ItemFileFindings): FileItem[] {
  if (data === null || data === undefined) {
    // A file of comments (every item commented out) is not empty to whoever reads it: said as it is.
    const commented = /^\s*#/m.test(src.text) ? rule.emptyFile.message.replace(/^the file is empty/, 'the file holds only comments') : rule.emptyFile.message;
    out.warnings.push({ file: src.file, line: 1, column: 1, ...rule.emptyFile, message: commented });
    return [];
  }
  if (Array.isArray(data)) {
    // `[]`: no item, as `fixtures: []` (whose warning's words after its first colon say so).
    if (data.length === 0) out.warnings.push({ file: src.file, ...src.valueAt([]), ...rule.emptyList, message: `the file is an empty list:${rule.emptyList.message.slice(rule.emptyList.message.indexOf(':') + 1).replace(/^ the file /, ' it ')}` });
    return data.map((d, i) => ({ data: d, path: [i] }));
  }
  if (typeof data === 'object' && rule.key in data) {
    // `fixtures:` over a list and no other key, which the schema is certain to pass: not parsed.
    const parsed = isListOnly(data as Record<string, unknown>, rule.key) ? null : rule.listSchema().safeParse(data);
    if (parsed !== null && !parsed.success) {
      out.errors.push(...translateZodIssues({ src, schema: rule.listSchema(), data, base: [] }, parsed.error.issues));
      if (!Array.isArray((data as Record<string, unknown>)[rule.key])) return [];
    }
    const list = ((data as Record<string, unknown[]>)[rule.key] ?? []).map((d, i) => ({ data: d, path: [rule.key, i] }));
    if (list.length === 0) out.warnings.push({ file: src.file, ...src.valueAt([rule.key]), ...rule.emptyList });
    return list;
  }
  const misspelt = misspeltListKey(data, rule);
  if (misspelt !== null) {
    // `fixture:` over a list: the list form misspelt, said once at its key (not also as a fixture
    // missing its label and message), and its items are checked as the list's.
    // The keys it names are both forms': a file of one item takes that item's keys at the top.
    const parsed = rule.listSchema().safeParse(data);
    const said = parsed.success ? [] : translateZodIssues({ src, schema: rule.listSchema(), data, base: [] }, parsed.error.issues);
    const mine = `unknown key ${quote(misspelt)} `;
    out.errors.push(...said.map((i) => (i.message.startsWith(mine) ? { ...i, message: `${mine}at the top level; allowed keys: ${rule.key}, over a list; or, in a file of one ${rule.item.noun}, ${rule.item.keys().join(', ')}` } : i)));
    return (data as Record<string, unknown[]>)[misspelt]!.map((d, i) => ({ data: d, path: [misspelt, i] }));
  }
  if (typeof data === 'object') return [{ data, path: [] }];
  const neither: ConfigIssue = { file: src.file, ...src.valueAt([]), ...rule.neither(describeValue(data)) };
  // `message hi`, `label a`: an item's keys each written without its ":", which YAML reads as one text.
  if (typeof data === 'string') colonsLeftOutOf(neither, src, data, rule.item.keys());
  out.errors.push(neither);
  return [];
}

/** Whether `data` holds a list under `key` and no other key (a parsed mapping: its prototype adds no key to for...in). */
function isListOnly(data: Record<string, unknown>, key: string): boolean {
  for (const k in data) if (k !== key) return false;
  return Array.isArray(data[key]);
}

/** The one key of a mapping that holds a list under a misspelling of the list form's key (`fixture:`, `Fixtures:`); null otherwise. */
function misspeltListKey(data: unknown, rule: ItemFileRule): string | null {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  const key = keys[0];
  if (keys.length !== 1 || key === undefined || !Array.isArray((data as Record<string, unknown>)[key])) return null;
  return meantKey(key, [rule.key]) === rule.key ? key : null;
}

/**
 * The items of a list file that YAML could not read whole, as far as its syntax errors leave them
 * as written (SourceFile.entriesAt; docs/configuration.md, "How YAML is read"): checked, so that
 * their errors are said in the same run, and never run. None for a file that is one item (splitNumbersOfOneItem).
 */
export function soundItemsOfFile(src: SourceFile, rule: ItemFileRule): FileItem[] {
  const top = src.entriesAt([]);
  if (top === null) return [];
  const listed = top.length > 0 && top.every((e) => typeof e.key === 'number');
  const base: PathSegment[] = listed ? [] : top.some((e) => e.key === rule.key) ? [rule.key] : [];
  if (!listed && base.length === 0) return [];
  return (listed ? top : (src.entriesAt(base) ?? [])).filter((e) => e.sound && typeof e.key === 'number').map((e) => ({ data: e.value, path: [...base, e.key] }));
}

/**
 * A file that is one item, with syntax errors, which are said alone (docs/configuration.md, "How
 * YAML is read"), but for one slip the YAML syntax check says without the setting's range: a number
 * split by commas into keys written twice (`max: 1,000,000`: the key 000 twice), whose fix would
 * write a number the setting refuses (`max: 1000000`, past 20). Its entries the syntax errors leave
 * as written are checked as the item (`check`, which returns its errors), and of what it finds only
 * such numbers are said, with the range the next run takes (index.ts, oneSplitNumber, keeps these
 * words in place of the syntax check's): anything else may be only a consequence of the entries left
 * out (a label missing). None for a list file, or a file with no key written twice.
 */
export function splitNumbersOfOneItem(src: SourceFile, rule: ItemFileRule, check: (part: Record<string, unknown>) => readonly ConfigIssue[]): ConfigIssue[] {
  if (!src.syntaxErrors().some((e) => e.code === 'DUPLICATE_KEY')) return [];
  const top = src.entriesAt([]);
  if (top === null || top.length === 0 || top.some((e) => typeof e.key !== 'string' || e.key === rule.key)) return [];
  const part = Object.fromEntries(top.filter((e) => e.sound).map((e) => [e.key, e.value]));
  return check(part).filter((i) => {
    if (!isSplitNumberMessage(i.message) || i.column === null) return false;
    // The number's first key of digits: just past the digits YAML read and their comma.
    const line = lineOf(src, i.line);
    const read = line === null ? null : /^-?\d+,/.exec(line.slice(i.column - 1));
    const split = read === null ? null : splitNumberAt(line, i.column + read[0].length);
    return split !== null && split.column === i.column && splitWritesKeyTwice(split);
  });
}

/**
 * `assert:`, `- contains: x`, then `- label: next` at the keys' column: the next item, written
 * inside a list of the item above, which YAML reads as one more item of that list, so the schema
 * says its keys are unknown there (`unknown key "label" in assert[1]`, with the fix to remove it)
 * or that it must be text (`followUps[1] must be a string, found a mapping`). A mapping in a list
 * inside an item of the file's list that has a label and only keys an item has is said so instead,
 * once, at its "-": the likely reading, and the fix, to write it at the column of the items' "-",
 * with the line as it should read (its next lines moved alike). `issues`: the item's, from the
 * schema; `prefix`: said before the message (`fixture "a": `).
 */
export function nextItemInside(src: SourceFile, rule: ItemFileRule, data: Record<string, unknown>, path: PathSegment[], prefix: string, issues: ConfigIssue[]): void {
  // An item of the file's list, or the file that is one item (path []).
  if (typeof path.at(-1) !== 'number' && path.length > 0) return;
  const keys = rule.item.keys();
  const items = `${rule.item.noun}s'`;
  const found: { rel: PathSegment[]; keys: string[] }[] = [];
  const walk = (value: unknown, rel: PathSegment[]): void => {
    if (value === null || typeof value !== 'object' || rel.length > 4) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        const own = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
        if (own.includes('label') && own.every((k) => keys.includes(k))) found.push({ rel: [...rel, i], keys: own });
        else walk(v, [...rel, i]);
      });
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(v, [...rel, k]);
  };
  walk(data, []);
  // The file's lines, only for an item that has such a mapping (the schema refused the item).
  if (found.length === 0) return;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  /** The line of the item at `at`, and the column (0-based) of the "-" its line starts with; null when no "-" starts it. */
  const dashOf = (at: PathSegment[]): { line: number; dash: number } | null => {
    const pos = src.valueAt(at);
    if (pos.line === null || pos.column === null) return null;
    const lead = /^( *)-[ \t]+$/.exec((lines[pos.line - 1] ?? '').slice(0, pos.column - 1));
    return lead === null ? null : { line: pos.line, dash: (lead[1] as string).length };
  };
  // A file that is one item: the next one is said with the file made a list, at the item's first key's column.
  const first = path.length === 0 ? src.keyAt([], Object.keys(data)[0] ?? '') : null;
  const outer = path.length > 0 ? dashOf(path) : first?.line != null && first.column === 1 ? { line: first.line, dash: 0 } : null;
  if (outer === null) return;
  for (const { rel, keys: own } of found) {
    const full = [...path, ...rel];
    const inner = dashOf(full);
    if (inner === null || (path.length > 0 ? inner.dash <= outer.dash : inner.dash < outer.dash)) continue;
    // The schema's words for it: at its keys, or at the item.
    const at = [src.valueAt(full), ...own.map((k) => src.keyAt(full, k))];
    const said = (i: ConfigIssue): boolean => i.file === src.file && at.some((p) => p !== null && p.line === i.line && p.column === i.column);
    if (!issues.some(said)) continue;
    // Its lines: those after its "-" line right of the "-", up to the first that is not (blank lines between kept).
    let last = inner.line;
    for (let n = inner.line + 1; n <= lines.length; n += 1) {
      const text = lines[n - 1] as string;
      if (text.trim() === '') continue;
      if (indentOf(text) <= inner.dash) break;
      last = n;
    }
    const shift = inner.dash - outer.dash;
    const list = pathText(rel.slice(0, -1));
    const moved = last === inner.line ? '' : alsoMoved(last === inner.line + 1 ? [last] : [inner.line + 1, last], shift);
    // In a file of one item, the item's keys after the next one's lines: not the next item.
    if (path.length === 0 && lines.slice(last).some((l) => l.trim() !== '' && !/^\s*#/.test(l))) continue;
    // In the place of the first of the schema's, the others left out.
    const first = issues.findIndex(said);
    const kept = issues.filter((i, n) => n === first || !said(i));
    kept.splice(kept.indexOf(issues[first] as ConfigIssue), 1, {
      file: src.file,
      line: inner.line,
      column: inner.dash + 1,
      message: `${prefix}${pathText(rel)} on line ${String(inner.line)} has a ${rule.item.noun}'s keys (${own.join(', ')}): the next ${rule.item.noun}, written inside the list of ${list} above, which YAML reads as one more item of that list`,
      fix: path.length > 0 ? `write it at the column of the ${items} "-" (column ${String(outer.dash + 1)}, not ${String(inner.dash + 1)}), so that line ${String(inner.line)} reads\n    ${(lines[inner.line - 1] as string).slice(shift)}${moved}` : asList(rule, lines, outer.line, inner, moved),
    });
    issues.splice(0, issues.length, ...kept);
  }
}

/**
 * nextItemInside's fix in a file that is one item (its first key on line `first`): the file made a
 * list of items, "- " before that line and the item's next lines indented by 2 spaces, the next
 * item's "-" at the column of the first's, with its lines as they then read.
 */
function asList(rule: ItemFileRule, lines: readonly string[], first: number, inner: { line: number; dash: number }, moved: string): string {
  const between = inner.line - 1 > first ? (inner.line - 1 === first + 1 ? `line ${String(first + 1)}` : `lines ${String(first + 1)} to ${String(inner.line - 1)}`) : null;
  const head = `make the file a list of ${rule.item.noun}s: write "- " before line ${String(first)}, so that it reads\n    - ${lines[first - 1] as string}${between === null ? '' : `\n  and indent ${between} by 2 spaces`}`;
  return inner.dash === 0
    ? `${head}; line ${String(inner.line)} stays as it is, its "-" at the column of line ${String(first)}'s`
    : `${head}; line ${String(inner.line)} then reads\n    ${(lines[inner.line - 1] as string).slice(inner.dash)}${moved}`;
}

/**
 * `message: |`, then its text at the key's column or left of it (`Note: where is my order`, `- Where
 * is my order?`): valid YAML, which ends the block before the text, so the value is empty, and reads
 * the text as a key of its own or one more item of a list, which the schema then refuses (`unknown
 * key "Note"`, `fixture #2 must be a mapping`). Where a line right after such an empty block is
 * refused, the empty value's error and those of the lines read out of it (each refused, up to the
 * first that is not) are said as one, at the text's first line, with the fix: the text indented
 * deeper than its key (docs/fixtures.md, "Text YAML reads otherwise"). A misspelt key there (`asert:`)
 * is a key, not text. `errors`: the file's, from its checks, changed in place.
 */
export function blockTextAtKeys(src: SourceFile, items: readonly FileItem[], errors: ConfigIssue[]): void {
  if (errors.length === 0 || !(src.text.includes('|') || src.text.includes('>'))) return;
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const mine = (i: ConfigIssue, line: number): boolean => i.file === src.file && i.line === line;
  const seen = (value: unknown, path: PathSegment[], depth: number): void => {
    if (value === null || typeof value !== 'object' || depth > 4) return;
    for (const [k, v] of Object.entries(value)) {
      const at = [...path, Array.isArray(value) ? Number(k) : k];
      if (typeof v !== 'string') {
        seen(v, at, depth + 1);
        continue;
      }
      if (v.trim() !== '') continue;
      const pos = src.valueAt(at);
      if (pos.line === null || pos.column === null) continue;
      const header = lines[pos.line - 1] ?? '';
      const indicator = /^[|>][-+0-9]*(?=\s*(?:#.*)?$)/.exec(header.slice(pos.column - 1))?.[0];
      if (indicator === undefined) continue;
      let n = pos.line + 1;
      while (n <= lines.length && isBlank(lines[n - 1] as string)) n += 1;
      const here = lines[n - 1];
      const refused = (line: number): boolean => errors.some((i) => mine(i, line) && !i.fix.startsWith('did you mean'));
      if (Array.isArray(value)) {
        // `- |`, then `- Where is my order?` at its "-"'s column: an empty item, then one more of the
        // list, which the list takes as text (not refused), so only the empty item is said.
        const i = Number(k);
        const dash = /^( *)-[ \t]+$/.exec(header.slice(0, pos.column - 1))?.[1]?.length;
        if (dash === undefined || here === undefined || indentOf(here) !== dash || !/^ *-\s/.test(here) || typeof value[i + 1] !== 'string' || src.valueAt([...path, i + 1]).line !== n || refused(n)) continue;
        const empty = (e: ConfigIssue): boolean => mine(e, pos.line as number) && e.column === pos.column;
        const first = errors.findIndex(empty);
        if (first === -1) continue;
        const words = blockTextWords({ n, here, at: dash, header: pos.line, key: null, keyIndent: dash, indicator, readAs: 'one more item of the list' });
        errors.splice(first, 1, { file: src.file, line: n, column: dash + 1, message: words.message, fix: `${words.fix}\n  or, if line ${String(n)} is an item of its own, remove line ${String(pos.line)}` });
        for (let e = errors.length - 1; e > first; e -= 1) if (empty(errors[e] as ConfigIssue)) errors.splice(e, 1);
        continue;
      }
      const keyPos = src.keyAt(path, k);
      if (keyPos?.column == null) continue;
      const keyIndent = keyPos.column - 1;
      if (here === undefined || indentOf(here) > keyIndent) continue;
      if (!refused(n)) continue;
      // The lines read out of the block: the first, and each next one the schema refused.
      const out = new Set([n]);
      for (let m = n + 1; m <= lines.length; m += 1) {
        if (isBlank(lines[m - 1] as string)) continue;
        if (!refused(m)) break;
        out.add(m);
      }
      const gone = (i: ConfigIssue): boolean => (i.file === src.file && i.line === pos.line && i.column === pos.column) || (i.line !== null && out.has(i.line) && mine(i, i.line));
      const first = errors.findIndex(gone);
      const readAs = /^\s*-(?:\s|$)/.test(here) ? 'one more item of the list' : 'a key of its own';
      const issue: ConfigIssue = { file: src.file, line: n, column: indentOf(here) + 1, ...blockTextWords({ n, here, at: indentOf(here), header: pos.line, key: k, keyIndent, indicator, readAs }) };
      const kept = errors.filter((i) => !gone(i));
      kept.splice(first, 0, issue);
      errors.splice(0, errors.length, ...kept);
    }
  };
  for (const item of items) seen(item.data, item.path, 0);
}

/**
 * `fixtures:`, `-`, then `label: a` and `message: hi` at the column of the "-" (or left of it): valid
 * YAML, which reads the item as empty and the lines under the "-" as keys of the mapping that holds
 * the list, beside `fixtures`, which the schema then refuses (`fixture #1 must be a mapping`, then
 * `unknown key "label" at the top level` for each line). The empty item's error and those of the
 * lines read out of it (each refused, up to the first that is not, with the lines under them) are
 * said as one, at the first line, with the fix: the lines indented under the "-", as a "-" alone
 * whose lines YAML refuses is told (syntax.ts, emptyDashItem). `errors`: the file's, changed in place.
 * `partly`: a file YAML could not read whole (soundItemsOfFile's items) and its syntax errors: its
 * keys beside the list are not checked, so each is taken as refused, as the schema refuses any key
 * there; an item is told so in the same run as the errors, its lines taken up to the line above the
 * first of them below its "-", and the list's last item, which entriesAt leaves unsure when an error
 * is below it, when every error is below its first line (docs/configuration.md, "How YAML is read").
 */
export function emptyItemAtKeys(src: SourceFile, items: readonly FileItem[], errors: ConfigIssue[], partly: PartlyFile | null = null): void {
  const read = partly === null ? null : partlyRead(src, items, partly);
  if (partly === null ? errors.length === 0 : read === null) return;
  let lines: string[] | null = null;
  const mine = (i: ConfigIssue, line: number): boolean => i.file === src.file && i.line === line;
  const refused = (line: number): boolean => (read === null ? errors.some((i) => mine(i, line)) : read.keys.has(line));
  for (const item of read?.items ?? items) {
    const list = item.path.at(-2);
    if (item.data !== null || typeof list !== 'string') continue;
    const pos = src.valueAt(item.path);
    if (pos.line === null || (read === null && !errors.some((i) => mine(i, pos.line as number)))) continue;
    lines ??= src.text.split('\n').map((l) => l.replace(/\r$/, ''));
    const dash = /^( *)-[ \t]*(?:#.*)?$/.exec(lines[pos.line - 1] ?? '');
    if (dash === null) continue;
    const d = (dash[1] as string).length;
    let first = pos.line + 1;
    while (first <= lines.length && isBlank(lines[first - 1] as string)) first += 1;
    const text = lines[first - 1];
    const from = pos.line;
    const end = read === null ? Infinity : (read.syntax.find((l) => l > from) ?? Infinity);
    if (text === undefined || first >= end || (item === read?.unsure && (read.syntax[0] ?? Infinity) <= first)) continue;
    if (indentOf(text) > d || /^ *-(?:\s|$)/.test(text) || !refused(first)) continue;
    const at = indentOf(text);
    // The lines read out of the item: the first, each next one at its column the schema refused, and the lines under them.
    let to = first;
    for (let k = first + 1; k < end && k <= lines.length; k += 1) {
      const line = lines[k - 1] as string;
      if (isBlank(line)) continue;
      if (indentOf(line) < at || (indentOf(line) === at && !refused(k))) break;
      to = k;
    }
    // A syntax error on the next line, at the item's lines' column or deeper, may be the item's too.
    let next = to + 1;
    while (next < end && isBlank(lines[next - 1] as string)) next += 1;
    const cut = next === end && indentOf(lines[end - 1] ?? '') >= at;
    const key = src.keyAt(item.path.slice(0, -2), list);
    const readAs = `line ${String(first)} as a key beside ${shownJson(list)}${key?.line == null ? '' : ` on line ${String(key.line)}`}, not as part of the item`;
    const gone = (i: ConfigIssue): boolean => i.file === src.file && i.line !== null && (i.line === pos.line || (i.line >= first && i.line <= to));
    const at0 = errors.findIndex(gone);
    const kept = errors.filter((i) => !gone(i));
    // The list's last item, unsure to entriesAt, has no error of its own to take the place of: in line order.
    const place = at0 !== -1 ? at0 : kept.findIndex((i) => i.line !== null && i.line > first);
    kept.splice(place === -1 ? kept.length : place, 0, { file: src.file, line: first, column: at + 1, ...emptyItemWords(lines, { from: pos.line, first, to, at, dash: d, readAs, cut }) });
    errors.splice(0, errors.length, ...kept);
  }
}

/** A file YAML could not read whole: the rule of its items, and its syntax errors (emptyItemAtKeys). */
export interface PartlyFile {
  rule: ItemFileRule;
  syntax: readonly ConfigIssue[];
}

/**
 * What emptyItemAtKeys looks at in a file YAML could not read whole: `items` and the list's last
 * item when entriesAt leaves it unsure (`unsure`), the lines of the keys beside the list, and the
 * lines of the syntax errors, in order. null without a list under the rule's key with keys beside it.
 */
function partlyRead(src: SourceFile, items: readonly FileItem[], { rule, syntax }: PartlyFile): { items: readonly FileItem[]; unsure: FileItem | null; keys: Set<number>; syntax: number[] } | null {
  // Without a "-" alone on its line there is none: the document is not walked again.
  if (!/^ *-[ \t]*(?:#.*)?\r?$/m.test(src.text)) return null;
  const top = src.entriesAt([]);
  if (top === null || !top.some((e) => e.key === rule.key)) return null;
  const keys = new Set<number>();
  for (const e of top) {
    const line = e.key === rule.key ? null : src.keyAt([], e.key)?.line;
    if (line != null) keys.add(line);
  }
  if (keys.size === 0) return null;
  const last = src.entriesAt([rule.key])?.at(-1);
  const unsure = last === undefined || last.sound || typeof last.key !== 'number' ? null : { data: null, path: [rule.key, last.key] };
  const lines = syntax.flatMap((i) => (i.file === src.file && i.line !== null ? [i.line] : [])).sort((x, y) => x - y);
  return { items: unsure === null ? items : [...items, unsure], unsure, keys, syntax: lines };
}
