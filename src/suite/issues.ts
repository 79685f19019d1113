// Configuration issues with file:line:column, and the translation of YAML and zod problems into
// messages that say what was observed and what to change.

import { pathText, type PathSegment, type Position, type SourceFile } from './yaml/source.js';
import type * as z from 'zod';
import { citingCut, docsUrl } from '../version.js';
import { headOf, plural, shownJson, thousands } from '../words.js';
import { propsAt, propsLead } from './yaml-props.js';
import { splitNumberAs, splitNumberAt, splitNumberWords, splitWritesKeyTwice } from './yaml/split-number.js';

export interface ConfigIssue {
  /** Path relative to cwd, forward slashes (or a pseudo-source such as `command-line options`). */
  file: string;
  /** 1-based; null when the problem has no position (a missing folder, an override). */
  line: number | null;
  column: number | null;
  message: string;
  fix: string;
  /** This line stands for this many issues not listed one by one ("and 5 more errors in this file": boundIssues). */
  more?: number;
}

/** `path/to/file.yml:12:3: <message>\n  fix: <fix>` */
export function formatIssue(issue: ConfigIssue): string {
  let where = issue.file;
  if (issue.line !== null) {
    where += `:${issue.line}`;
    if (issue.column !== null) where += `:${issue.column}`;
  }
  return `${where}: ${issue.message}\n  fix: ${issue.fix}`;
}

/** Line `line` (1-based) of the file as written, without its line break; null when unknown. */
export function lineOf(src: SourceFile, line: number | null): string | null {
  if (line === null) return null;
  const lines = src.text.split(/\r?\n/);
  return lines[line - 1] ?? null;
}

export function quote(value: string, max = 60): string {
  const shown = value.length > max ? `${headOf(value, max)}...` : value;
  return shownJson(shown);
}

/**
 * A value as a fix writes it, in YAML's flow style as the docs do (`{ orderId: "1234" }`): a word
 * YAML reads as that text stays plain (`find_order`), any other text is double-quoted (digits,
 * `true`, `null`, a space, `: ` or `#`), a list in [ ], a mapping in { }.
 */
export function flowYaml(value: unknown): string {
  if (typeof value === 'string') return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !/^(?:true|false|null|yes|no|on|off)$/i.test(value) ? value : shownJson(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  if (Array.isArray(value)) return `[${value.map(flowYaml).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${flowYaml(k)}: ${flowYaml(v)}`).join(', ')} }`;
  }
  return String(value);
}

/**
 * What a fix writes before a list's item at `pos`: `- ` for an item after its "-" (past an anchor
 * or tag, `- &a 42`; on the line above for an item that starts its line, `-` then the item below
 * it), or one whose line is unknown; nothing for an item of a list in [ ], written as it is (after
 * its "[" or ",", or at the start of a line the list runs on to).
 */
export function itemLead(src: SourceFile, pos: Position): '- ' | '' {
  if (pos.line === null || pos.column === null) return '- ';
  const lines = src.text.split(/\r?\n/);
  let before = (lines[pos.line - 1] ?? '').slice(0, pos.column - 1);
  // An item that starts its line: what is written last above it, past blank lines and comments alone.
  for (let n = pos.line - 1; before.trim() === '' && n >= 1; n -= 1) {
    const above = lines[n - 1] ?? '';
    if (!above.trimStart().startsWith('#')) before = above.replace(/[ \t]+#.*$/, '');
  }
  return /(?:^|[ \t])-(?:[ \t]+[&!][^\s,[\]{}]*)*[ \t]*$/.test(before) ? '- ' : '';
}

/** What the file holds, in words: `the string "x"`, `the number 3`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value (null)';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return typeof value;
}

/** The value at `path` in parsed data (keys and list indexes); undefined when the path leads through a value that is not a mapping or a list. */
export function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[String(seg)];
  }
  return v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
  record: 'a mapping',
};

function typeWord(expected: string): string {
  return TYPE_WORDS[expected] ?? expected;
}

/**
 * Edit distance for "did you mean" hints: insertions, deletions, substitutions and swaps of two
 * neighbours (`modle` is one edit from `model`, as a typist sees it), each counting one.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The unit a key's name ends with (timeoutMs, capUsd): a key written without it still finds it. */
const UNIT_SUFFIX = /(?:Ms|Usd)$/;

/**
 * The most edits a misspelling may hold and still be named by "did you mean" (every hint: config
 * keys, flags, commands, fail-on conditions, presets): a third of the longer of the two names (at
 * least 1, at most 3), and 2 once that has 5 letters or more, so that `alfa` finds `alpha` (a letter
 * written as two) where a 4-letter word stays at one edit (`data` never finds `path`).
 */
export function editsAllowed(typed: string, name: string): number {
  const longer = Math.max(typed.length, name.length);
  return Math.min(3, Math.max(longer >= 5 ? 2 : 1, Math.floor(longer / 3)));
}

/**
 * The name a misspelt or shortened word stands for, for the hints of a fixed list of names (the
 * CLI's commands and flags, `fail-on`'s conditions): the nearest within the edits every hint allows,
 * or one the word is the start of, from 3 letters (`--confirm` for `--confirm-cost`, `slow` for
 * `slower`). `typed` is compared in lower case. Null when nothing is that close.
 */
export function nearestName(typed: string, names: readonly string[]): string | null {
  const word = typed.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(word, name);
    const near = distance <= editsAllowed(word, name) || (word.length >= 3 && name.startsWith(word));
    if (near && (best === null || distance < best.distance)) best = { name, distance };
  }
  return best?.name ?? null;
}

/** The allowed key a misspelt `key` stands for (the one "did you mean" names), or null. */
export function suggest(key: string, allowed: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    // A key written without its unit ("timeout", "timout" for timeoutMs) is measured against the name without it too.
    const bare = candidate.replace(UNIT_SUFFIX, '').toLowerCase();
    const d = candidate.toLowerCase() === key.toLowerCase() ? 0 : Math.min(editDistance(key.toLowerCase(), candidate.toLowerCase()), bare === candidate.toLowerCase() ? Infinity : editDistance(key.toLowerCase(), bare));
    if (d < bestDistance && d <= editsAllowed(key, candidate)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Keys other tools (and habit) name otherwise, for a key no spelling is near: each word with the
 * keys it may stand for, the first that the mapping allows being meant (`name:` or `id:` in a
 * fixture is its `label`; `endpoint:` in agent is its `url`, in judge its `baseUrl`).
 */
const OTHER_NAMES: Record<string, readonly string[]> = {
  // In a tool check (docs/traces.md, "Fixtures"; docs/personas.md), the tool's name and its arguments.
  name: ['label', 'tool'],
  args: ['input'],
  arguments: ['input'],
  params: ['input'],
  parameters: ['input'],
  id: ['label'],
  title: ['label'],
  // A persona script's first message is its `opening` (docs/personas.md): written as a fixture's.
  message: ['opening'],
  prompt: ['message', 'opening'],
  input: ['message', 'opening'],
  question: ['message', 'opening'],
  text: ['message', 'opening'],
  expected: ['assert', 'expect'],
  expect: ['assert'],
  assertion: ['assert'],
  assertions: ['assert'],
  check: ['assert'],
  checks: ['assert'],
  // An assertion's kind (docs/fixtures.md, "Assertions"), as other tools name theirs.
  includes: ['contains'],
  matches: ['regex'],
  pattern: ['regex'],
  rubric: ['judge'],
  endpoint: ['url', 'baseUrl'],
  uri: ['url', 'baseUrl'],
  url: ['baseUrl'],
  key: ['apiKey'],
  maxretries: ['retries'],
  max_retries: ['retries'],
};

/** The allowed key a misspelt or otherwise named `key` stands for, or null (suggest, then OTHER_NAMES). */
export function meantKey(key: string, allowed: readonly string[]): string | null {
  return suggest(key, allowed) ?? (Object.hasOwn(OTHER_NAMES, key.toLowerCase()) ? (OTHER_NAMES[key.toLowerCase()]?.find((k) => allowed.includes(k)) ?? null) : null);
}

// --- zod schema introspection: the allowed keys of the object at a path -----------------------

interface ZodDefLike {
  type: string;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  in?: z.ZodType;
}

function defOf(schema: z.ZodType): ZodDefLike {
  return (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;
}

function unwrapped(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return def.innerType ? unwrapped(def.innerType) : [];
    case 'pipe':
      return def.in ? unwrapped(def.in) : [];
    case 'union':
      return (def.options ?? []).flatMap(unwrapped);
    default:
      return [schema];
  }
}

/** Whether the key at the end of `path` is required in its object (not optional, nullable or defaulted). */
function isRequired(schema: z.ZodType, path: readonly PathSegment[]): boolean {
  const key = path[path.length - 1];
  const parents = shapesAt(schema, path.slice(0, -1));
  return parents.some((p) => {
    const field = typeof key === 'string' ? defOf(p).shape?.[key] : undefined;
    if (!field) return false;
    const type = defOf(field).type;
    return type !== 'optional' && type !== 'nullable' && type !== 'default' && type !== 'prefault';
  });
}

/** Whether the key at the end of `path` may be null in its object (`z.string().nullable()`). */
function acceptsNull(schema: z.ZodType, path: readonly PathSegment[]): boolean {
  const key = path[path.length - 1];
  return shapesAt(schema, path.slice(0, -1)).some((p) => {
    const field = typeof key === 'string' ? defOf(p).shape?.[key] : undefined;
    return field !== undefined && field.safeParse(null).success;
  });
}

/** The object schemas that can sit at `path`. */
function shapesAt(schema: z.ZodType, path: readonly PathSegment[]): z.ZodType[] {
  return schemasAt(schema, path).filter((s) => defOf(s).type === 'object');
}

/** The schemas that can sit at `path` (unions and wrappers unwrapped). */
function schemasAt(schema: z.ZodType, path: readonly PathSegment[]): z.ZodType[] {
  let current: z.ZodType[] = unwrapped(schema);
  for (const seg of path) {
    const next: z.ZodType[] = [];
    for (const s of current) {
      const def = defOf(s);
      if (def.type === 'object' && def.shape && typeof seg === 'string' && def.shape[seg]) next.push(...unwrapped(def.shape[seg]));
      else if (def.type === 'array' && def.element && typeof seg === 'number') next.push(...unwrapped(def.element));
      else if (def.type === 'record' && def.valueType) next.push(...unwrapped(def.valueType));
    }
    current = next;
  }
  return current;
}

/**
 * The keys of the one mapping that can sit at `path`, when it takes no other key (a strict object,
 * and no other form in a union); empty otherwise.
 */
function strictKeysAt(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  const all = schemasAt(schema, path);
  const only = all.length === 1 ? defOf(all[0] as z.ZodType) : null;
  if (only === null || only.type !== 'object' || only.catchall === undefined || defOf(only.catchall).type !== 'never') return [];
  return Object.keys(only.shape ?? {});
}

/** Whether a list at `path` of `schema` takes `value` as an item: a value given alone where a list belongs. */
function takesAsItem(schema: z.ZodType, path: readonly PathSegment[], value: unknown): boolean {
  return schemasAt(schema, path).some((s) => {
    const def = defOf(s);
    // A list whose items are checked elsewhere (a file's `fixtures:`) cannot say here what an item takes.
    const open = def.element === undefined || ['unknown', 'any'].includes(defOf(def.element).type);
    return def.type === 'array' && !open && s.safeParse([value]).success;
  });
}

/**
 * `followUps: Order 1234` where a list belongs, and the list takes the value as its one item: the
 * line with the value in brackets (`followUps: [ Order 1234 ]`), or, for a value over several lines
 * (a mapping), how to make it a list's item; `mocks: find_order`, where an item is a mapping that
 * takes the value as its one required key, the line with that mapping in brackets (`mocks: [ {
 * tool: find_order } ]`). Null when a list of it would not do either (docs/troubleshooting.md,
 * "Configuration errors": a fix that leads to the next error is no fix).
 */
function listOfOneFix(ctx: TranslateContext, full: readonly PathSegment[], rel: readonly PathSegment[], name: string, value: unknown): string | null {
  if (value === null || value === undefined || Array.isArray(value)) return null;
  // A judge panel has 3 or 5 members (docs/judges.md, "Panels"): a list of one is no fix.
  if (rel[rel.length - 1] === 'panel') return panelFix(ctx, full, rel, value);
  // `reply: { contians: refund }`: a mapping a list would take as its item once its misspelt keys are renamed.
  const keys = takesAsItem(ctx.schema, rel, value) ? null : itemKeys(ctx.schema, rel, value);
  const itemKey = takesAsItem(ctx.schema, rel, value) || keys !== null ? null : keyOfItem(ctx.schema, rel, value);
  if (itemKey === undefined) return null;
  const pos = ctx.src.valueAt(full);
  const line = lineOf(ctx.src, pos.line);
  const key = ctx.src.keyAt(full.slice(0, -1), full[full.length - 1] as PathSegment);
  if (line === null || pos.column === null) return null;
  const start = pos.column - 1;
  const written = writtenValue(line, start, value);
  // On the key's line, the whole value: a scalar, or a flow mapping closed on that line.
  const inFlow = /[[{]/.test(line.slice(0, start));
  const oneLine = key !== null && key.line === pos.line && written !== '' && (typeof value !== 'object' || (!inFlow && written.startsWith('{') && written.endsWith('}')));
  if (keys !== null) return itemKeysFix(ctx, full, rel, pos, oneLine ? line : null, keys);
  if (oneLine && itemKey !== null) {
    // Inside { } a plain value is read up to a `,` `}` `]` or `: `: one that would read otherwise is quoted.
    const inner = /^["']/.test(written) || /^[A-Za-z0-9_./-]+$/.test(written) ? written : shownJson(value);
    const fixed = `${line.slice(0, start)}[ { ${itemKey}: ${inner} } ]${line.slice(start + written.length)}`;
    const keys = allowedKeysAt(ctx.schema, [...rel, 0]);
    return `make it a list of one mapping, with ${inner} as its ${itemKey} (the keys an item takes: ${keys.join(', ')}), so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}`;
  }
  if (itemKey !== null) return null;
  if (oneLine) {
    const fixed = `${line.slice(0, start)}[ ${written} ]${line.slice(start + written.length)}`;
    return `make it a list of one: put the value in [ ], so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}`;
  }
  if (typeof value === 'object') return `make it a list of one: start line ${String(pos.line)} with "- " and indent the item's other lines by two more spaces`;
  return `change ${name} to a list: [ ... ], or one "- " line per item`;
}

/** The keys of a mapping given where a list of mappings belongs that an item does not take: each misspelt one with the key it stands for, the others unknown. */
interface ItemKeys {
  renames: [string, string][];
  unknown: string[];
  /** The keys an item takes. */
  allowed: string[];
  /** Whether an item takes the mapping with its misspelt keys renamed and the unknown ones removed. */
  takes: boolean;
}

/**
 * The keys of the mapping `value` that the list at `path` would not take in its one item
 * (`{ contians: refund }` for `expect.reply`); null when there are none, when the item is refused
 * with its misspelt keys renamed and no other key (a fix that leads to the next error is no fix),
 * or when the list's item is no mapping of known keys.
 */
function itemKeys(schema: z.ZodType, path: readonly PathSegment[], value: unknown): ItemKeys | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const allowed = allowedKeysAt(schema, [...path, 0]);
  if (allowed.length === 0) return null;
  const out: ItemKeys = { renames: [], unknown: [], allowed, takes: false };
  const renamed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const hint = allowed.includes(k) ? k : meantKey(k, allowed);
    if (hint === null || hint in renamed) out.unknown.push(k);
    else if (hint !== k) out.renames.push([k, hint]);
    if (hint !== null) renamed[hint] = v;
  }
  if (out.renames.length + out.unknown.length === 0) return null;
  // An empty mapping is no item, whatever the schema's optional keys say (an expect.reply check needs contains or regex).
  out.takes = Object.keys(renamed).length > 0 && takesAsItem(schema, path, renamed);
  return out.unknown.length > 0 || out.takes ? out : null;
}

/**
 * The fix for a mapping, written where a list of mappings belongs, that an item would not take as
 * it is (itemKeys): its misspelt keys renamed and the list of one shown, when it is on the key's
 * line (`line`), as a misspelling is elsewhere; the keys an item does not take named, to remove.
 */
function itemKeysFix(ctx: TranslateContext, full: readonly PathSegment[], rel: readonly PathSegment[], pos: Position, line: string | null, keys: ItemKeys): string {
  const { renames, unknown } = keys;
  const meant = renames.length === 0 ? '' : `did you mean ${renames.map(([, hint]) => quote(hint)).join(' and ')}? `;
  const start = (pos.column ?? 1) - 1;
  const asList = line === null ? `start line ${String(pos.line)} with "- " and indent the item's other lines by two more spaces` : 'put the mapping in [ ]';
  if (unknown.length > 0) {
    // What is left is no item either (`{ text: refund }`: nothing the reply must contain): the keys an item takes.
    if (!keys.takes) return `${unknown.map((k) => quote(k)).join(' and ')} ${unknown.length === 1 ? 'is not a key' : 'are not keys'} an item of ${pathText(rel)} takes: make it a list of mappings of ${keys.allowed.join(', ')}`;
    const rename = renames.map(([k, hint]) => `, rename ${quote(k)} to ${quote(hint)}`).join('');
    return `remove ${unknown.map((k) => quote(k)).join(' and ')} (an item of ${pathText(rel)} takes ${keys.allowed.join(', ')})${rename}, and make it a list of one: ${asList}`;
  }
  // The keys renamed on the line, right to left so that the columns of those before hold; then the value in [ ].
  const at = renames.map(([k, hint]) => ({ k, hint, pos: ctx.src.keyAt(full, k) })).sort((a, b) => (b.pos?.column ?? 0) - (a.pos?.column ?? 0));
  const renamed = line !== null && at.every((r) => r.pos?.line === pos.line) ? at.reduce<string | null>((text, r) => (text === null ? null : renamedAt(text, r.pos as Position, r.k, r.hint)), line) : null;
  if (renamed !== null) {
    const item = writtenValue(renamed, start, {});
    const fixed = `${renamed.slice(0, start)}[ ${item} ]${renamed.slice(start + item.length)}`;
    return `${meant}rename the ${renames.length === 1 ? 'key' : 'keys'} and make it a list of one, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}`;
  }
  const where = renames.map(([k, hint]) => `${quote(k)}${(({ line: n }) => (n === null ? '' : ` on line ${String(n)}`))(ctx.src.keyAt(full, k) ?? pos)} to ${quote(hint)}`).join(', ');
  return `${meant}rename ${where}, and make it a list of one: ${asList}`;
}

/**
 * The value at column `start` of `line` as written: a quoted scalar up to its quote; inside a flow
 * mapping, a plain one up to the next `,` `}` or `]`; else the rest of the line but a comment.
 */
function writtenValue(line: string, start: number, value: unknown): string {
  const rest = line.slice(start);
  const quoted = /^"(?:[^"\\]|\\.)*"|^'(?:[^']|'')*'/.exec(rest)?.[0];
  const inFlow = /[[{]/.test(line.slice(0, start));
  return (quoted ?? (inFlow && typeof value !== 'object' ? (/^[^,}\]#]*/.exec(rest)?.[0] ?? '') : rest.replace(/\s+#.*$/, ''))).trimEnd();
}

/**
 * The one key of a list's item mapping that takes `value` alone as a whole item (`tool` for
 * `mocks: find_order`); null when the value is no text or the list takes no mapping of it,
 * undefined when no key or several do.
 */
function keyOfItem(schema: z.ZodType, rel: readonly PathSegment[], value: unknown): string | null | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const keys = allowedKeysAt(schema, [...rel, 0]).filter((k) => takesAsItem(schema, rel, { [k]: value }));
  return keys.length === 1 ? (keys[0] as string) : undefined;
}

/**
 * `panel: { model: a }`, one judge where the panel's list belongs: a list of one is no panel (3 or
 * 5 members, docs/judges.md, "Panels"), so the fix says both ways out: the first of the members,
 * or the judge alone, its keys under `judge` (naming those the judge sets already).
 */
function panelFix(ctx: TranslateContext, full: readonly PathSegment[], rel: readonly PathSegment[], value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !takesAsItem(ctx.schema, rel, value)) return null;
  const head = `a panel is a list of 3 or 5 judges (${docsUrl('judges.md', 'Panels')}):`;
  const pos = ctx.src.valueAt(full);
  const line = lineOf(ctx.src, pos.line);
  const key = ctx.src.keyAt(full.slice(0, -1), full[full.length - 1] as PathSegment);
  const written = line === null || pos.column === null ? '' : writtenValue(line, pos.column - 1, value);
  if (key === null || key.line !== pos.line || !written.startsWith('{') || !written.endsWith('}')) {
    return `${head} start line ${String(pos.line)} with "- " for this one, indent its other lines by two more spaces, and add 2 more; or, for this judge alone, remove panel: and move its keys under judge`;
  }
  const judge = valueAt(ctx.data, rel.slice(0, -1));
  const keys = Object.keys(value);
  // One key is shown as written; several are named (`model: a, label: x` on one line under judge would be one value).
  const set = keys.filter((k) => judge !== null && typeof judge === 'object' && Object.hasOwn(judge, k));
  const replaces = set.length > 0 ? ` (in place of its own ${set.join(', ')})` : '';
  return `${head} write this one as its first "- " line (- ${written}) and add 2 more; or, for this judge alone, remove panel: and write ${keys.length === 1 ? written.slice(1, -1).trim() : `its keys (${keys.join(', ')})`} under judge${replaces}`;
}

/**
 * A single value where a mapping belongs: the mapping's keys, and for `repeat: 3` the mapping it
 * stands for (`--repeat 3` on the command line is `count: 3`; docs/fixtures.md, "Repeat").
 */
function mappingFix(ctx: TranslateContext, rel: PathSegment[], name: string, value: unknown): string | null {
  const key = rel[rel.length - 1];
  // `repeat: 3`, `repeat: "3"` and `repeat: [3]` all stand for 3 attempts.
  const one = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
  const count = typeof one === 'number' ? one : typeof one === 'string' && /^[0-9]+$/.test(one.trim()) ? Number(one.trim()) : null;
  if (key === 'repeat' && count !== null && Number.isInteger(count) && count >= 1 && count <= 20) {
    return `write it as repeat: { count: ${count} } (${count} attempts, every one must pass; add minPass to need fewer)`;
  }
  if (value === null || typeof value === 'object') return null;
  const keys = allowedKeysAt(ctx.schema, rel);
  // `url:http://...` under `agent:`: one of the mapping's keys written without the space after its
  // colon, which YAML reads as text (docs/troubleshooting.md, "has no space after the colon").
  const noSpace = typeof value === 'string' ? /^([A-Za-z_][\w-]*):(\S.*)$/.exec(value) : null;
  if (noSpace !== null && keys.includes(noSpace[1] as string)) {
    const pos = ctx.src.valueAt([...ctx.base, ...rel]);
    const line = lineOf(ctx.src, pos.line);
    if (line !== null && pos.column !== null && line.slice(pos.column - 1).startsWith(value as string)) {
      return `put a space after the colon, so that line ${String(pos.line)} reads\n    ${`${line.slice(0, pos.column - 1)}${noSpace[1] as string}: ${line.slice(pos.column + (noSpace[1] as string).length)}`.trimEnd()}`;
    }
  }
  // `mocks: [find_order]`: a mapping that takes the text as its one required key (a mock's `tool`);
  // `traces: { receive: 4318 }`, `latency: 0.5`: the one key that takes the number.
  // (Not repeat's count, whose range is checked after the schema: repeat: 40 would get a fix that is an error.)
  const single = (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value) && key !== 'repeat');
  const only = single ? keys.filter((k) => schemasAt(ctx.schema, rel).some((sch) => sch.safeParse({ [k]: value }).success)) : [];
  if (only.length === 1) {
    const inner = typeof value === 'number' || /^[A-Za-z0-9_./-]+$/.test(value as string) ? String(value) : shownJson(value);
    return `write it as a mapping with ${inner} as its ${only[0] as string}: { ${only[0] as string}: ${inner} } (the keys it takes: ${keys.join(', ')})`;
  }
  return keys.length > 0 ? `change ${name} to a mapping of ${keys.join(', ')}` : null;
}

/** The keys the mapping at `path` of `schema` allows (the first object schema that can sit there). */
export function allowedKeysAt(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  const obj = shapesAt(schema, path)[0];
  return obj ? Object.keys(defOf(obj).shape ?? {}) : [];
}

// --- zod issues -> ConfigIssue -----------------------------------------------------------------

/**
 * The error of a union's branch that takes a form only to refuse it after the schema, with a
 * message of its own (a fixture's `toolCalled: [...]`, docs/traces.md, "Fixtures"): a value of
 * another form is not told that form is one it may take.
 */
export const REFUSED_AFTER = 'a form refused after the schema';

export interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  keys?: string[];
  values?: unknown[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  origin?: string;
  errors?: ZodIssueLike[][];
}

export interface TranslateContext {
  src: SourceFile;
  /** The schema that produced the issues (for the allowed keys of an unknown key). */
  schema: z.ZodType;
  /** The data that was validated. */
  data: unknown;
  /** Where `data` sits in the YAML document (e.g. `['fixtures', 2]`). */
  base: readonly PathSegment[];
  /** Prepended to messages, e.g. `fixture "refund-policy": `. */
  prefix?: string;
  /**
   * Keys that are not allowed in the mapping at the top of `data` but are worth suggesting for a
   * misspelt key there (`fixture:` in a file read as one fixture means `fixtures:`).
   */
  suggestAlso?: readonly string[];
}

function toSegments(path: PropertyKey[]): PathSegment[] {
  return path.map((p) => (typeof p === 'number' ? p : String(p)));
}

/**
 * Of `said`, translateZodIssues's words for `issues`, those on a text where the schema wants a
 * mapping (`agent:`, then `  url http://...` and `  timeoutMs 5`, one text to YAML), each once, with
 * the text and the keys that mapping takes (read.ts, colonsLeftOutOfIssues).
 */
export function textsWhereMappings(ctx: TranslateContext, issues: readonly ZodIssueLike[], said: readonly ConfigIssue[]): { issue: ConfigIssue; value: string; keys: string[] }[] {
  const out: { issue: ConfigIssue; value: string; keys: string[] }[] = [];
  for (const { rel } of flattenUnions(issues, [])) {
    const value = valueAt(ctx.data, rel);
    if (typeof value !== 'string') continue;
    const pos = ctx.src.valueAt([...ctx.base, ...rel]);
    const issue = said.find((i) => i.line === pos.line && i.column === pos.column);
    if (issue !== undefined && !out.some((t) => t.issue === issue)) out.push({ issue, value, keys: allowedKeysAt(ctx.schema, rel) });
  }
  return out;
}

export function translateZodIssues(ctx: TranslateContext, issues: readonly ZodIssueLike[]): ConfigIssue[] {
  const flat = flattenUnions(issues, []);
  // A misspelt required key shows twice: unknown `mesage`, missing `message`. Said once, at the
  // misspelling, which is where the fix goes (docs/troubleshooting.md, "Configuration errors").
  // Also inside a value of several forms (a tool check that is a mapping or a list): its branch's
  // issues are here with the others.
  const hinted = new Set<string>();
  for (const { issue, rel } of flat) {
    if (issue.code !== 'unrecognized_keys') continue;
    const allowed = allowedKeysAt(ctx.schema, rel);
    for (const key of issue.keys ?? []) {
      const hint = meantKey(key, allowed);
      if (hint !== null) hinted.add(JSON.stringify([...rel, hint]));
    }
  }
  const out: ConfigIssue[] = [];
  for (const { issue, rel } of flat) {
    // Whatever the missing key's schema says of nothing (a type, one of an enum's values): the misspelling says it.
    if (valueAt(ctx.data, rel) === undefined && hinted.has(JSON.stringify(rel))) continue;
    out.push(...translateOne(ctx, issue, rel));
  }
  return out;
}

/** The one branch of a union whose top-level type matched the value; null when none or several did. */
function matchingBranch(issue: ZodIssueLike): ZodIssueLike[] | null {
  const matching = (issue.errors ?? []).filter((b) => !b.some((i) => i.code === 'invalid_type' && i.path.length === 0));
  return matching.length === 1 ? (matching[0] as ZodIssueLike[]) : null;
}

/**
 * The issues with each union whose value matched one branch's type replaced by that branch's
 * issues, at their full paths (relative to the data), so that they are read together with the rest.
 */
function flattenUnions(issues: readonly ZodIssueLike[], base: readonly PathSegment[]): { issue: ZodIssueLike; rel: PathSegment[] }[] {
  return issues.flatMap((issue) => {
    const rel = [...base, ...toSegments(issue.path)];
    const branch = issue.code === 'invalid_union' ? matchingBranch(issue) : null;
    return branch !== null ? flattenUnions(branch, rel) : [{ issue, rel }];
  });
}

/** "timeout: 30" meant seconds, likely: renamed as it is it would read 30 ms. Said, not rewritten. */
function inMilliseconds(key: string, hint: string): boolean {
  return /Ms$/.test(hint) && !/ms$/i.test(key);
}

/**
 * An example of a value in milliseconds that fits the setting, its default or a budget of its
 * order ("30 seconds is 30000" fits an agent's timeout, not a 300 ms `latency.minDeltaMs`).
 * `parent`: the key of the mapping it is in (`regex` for the regex's 100 ms timeout).
 */
function millisecondsExample(hint: string, parent: string | null): { seconds: string; ms: number } {
  if (hint === 'timeoutMs') return parent === 'regex' ? { seconds: '0.1 seconds', ms: 100 } : { seconds: '30 seconds', ms: 30000 };
  if (hint === 'backoffMs') return { seconds: '0.25 seconds', ms: 250 };
  if (hint === 'minDeltaMs') return { seconds: '0.3 seconds', ms: 300 };
  if (hint === 'waitMs') return { seconds: '5 seconds', ms: 5000 };
  if (hint === 'maxLatencyMs' || hint === 'maxTurnLatencyMs') return { seconds: '2 seconds', ms: 2000 };
  return { seconds: '1 second', ms: 1000 };
}

/** The key of the mapping at `path`: its last key, null at the top level or in a list. */
function parentKey(path: readonly PathSegment[]): string | null {
  const last = path[path.length - 1];
  return typeof last === 'string' ? last : null;
}

/** `line` with the key `key` written at `pos` renamed `hint`; null when the line does not show it there. */
function renamedAt(line: string | null, pos: Position, key: string, hint: string): string | null {
  const col = pos.column === null ? -1 : pos.column - 1;
  // The key as written may be quoted (`"rely": ...` in a JSON baseline): the quote stays.
  const start = line !== null && col >= 0 && (line[col] === '"' || line[col] === "'") && line.startsWith(key, col + 1) ? col + 1 : col;
  return line !== null && start >= 0 && line.startsWith(key, start) ? `${line.slice(0, start)}${hint}${line.slice(start + key.length)}` : null;
}

/**
 * An unknown key that is an allowed key, a space and a value, with no value of its own (`assert: {
 * contains hi }`): the ": " left out. The key meant and the line as it should read, so that the fix
 * does not rename it to the key alone (`{ contains }`, which has no value); null otherwise.
 */
function missingColonFix(src: SourceFile, pos: Position, key: string, parent: unknown, allowed: readonly string[]): { key: string; fix: string } | null {
  const split = /^(\S+)\s+(\S.*)$/.exec(key);
  if (split === null || !allowed.includes(split[1] as string) || parent === null || typeof parent !== 'object' || (parent as Record<string, unknown>)[key] !== null) return null;
  const [, meant = '', value = ''] = split;
  const fixed = renamedAt(lineOf(src, pos.line), pos, key, `${meant}: ${value}`);
  return { key: meant, fix: fixed === null ? `write ": " after ${quote(meant)}: ${meant}: ${value}` : `write ": " after ${quote(meant)}, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}` };
}

/** A key of the mapping under a misspelt key that the key it stands for does not take either. */
interface InnerSlip {
  key: string;
  /** The key it stands for in the mapping the fix names; null when none. */
  hint: string | null;
  pos: Position | null;
  /** Whether the fix of the key above renames it on its line (a flow mapping), or it is said on its own. */
  sameLine: boolean;
}

/**
 * The fix for a misspelt key: the suggestion, and the line as it should read when the file has it.
 * `inner`: keys on the same line, under it, that the key it stands for does not take either, each
 * with the key it stands for there (`costs: { cap: 1 }` reads `cost: { capUsd: 1 }`), so that the
 * line shown does not lead to the next error.
 */
function renameFix(src: SourceFile, pos: Position, key: string, hint: string, parent: string | null, inner: readonly InnerSlip[] = []): string {
  if (inMilliseconds(key, hint)) return `did you mean ${quote(hint)}? it is in milliseconds: rename the key and give the value in milliseconds (${(({ seconds, ms }) => `${seconds} is ${String(ms)}`)(millisecondsExample(hint, parent))})`;
  let fixed = renamedAt(lineOf(src, pos.line), pos, key, hint);
  if (fixed === null) return `did you mean ${quote(hint)}? rename the key`;
  // Right to left, so that the columns of the keys before each hold.
  const shift = hint.length - key.length;
  for (const i of [...inner].sort((a, b) => (b.pos?.column ?? 0) - (a.pos?.column ?? 0))) {
    fixed = renamedAt(fixed, { line: pos.line, column: (i.pos?.column ?? 0) + shift }, i.key, i.hint as string) ?? fixed;
  }
  const also = inner.map((i) => `, and ${quote(i.key)} in it to ${quote(i.hint as string)}`).join('');
  return `did you mean ${quote(hint)}? rename the key${also}, so that line ${String(pos.line)} reads\n    ${fixed.trimEnd()}`;
}

/**
 * YAML's `.nan` and `.inf` are numbers to JavaScript, but no setting takes them: said plainly as
 * what YAML read, with the setting's rule and the fix, never as "found the number NaN"
 * (docs/configuration.md, "How YAML is read").
 */
function nonFinite(
  ctx: TranslateContext,
  full: readonly PathSegment[],
  rel: readonly PathSegment[],
  name: string,
  value: number,
  rule: string,
  at: (pos: Position, message: string, fix: string) => ConfigIssue,
  takesText = false,
): ConfigIssue {
  const written = ctx.src.writtenAt(full) ?? String(value);
  const read = Number.isNaN(value) ? 'NaN ("not a number")' : value > 0 ? 'infinity' : 'minus infinity';
  const key = rel[rel.length - 1];
  // Where text is taken too (a header's value), the words may have been meant as text.
  const quoted = takesText && key !== undefined ? `, or put the value in quotes: ${String(key)}: ${shownJson(written)}` : '';
  const remove = key !== undefined && !isRequired(ctx.schema, rel) ? `, or remove ${quote(String(key))} to use its default` : '';
  return at(
    ctx.src.valueAt(full),
    `${name} ${rule}, found ${written}, which YAML reads as ${read}: not a number ${name} accepts`,
    `write a number in place of ${written}${quoted || remove}`,
  );
}

/**
 * The keys of the mapping under the unknown key `key` that `hint`, the key it stands for, does not
 * take, each with the key it stands for there: renamed in the fix of `key` when they are on its
 * line, else said on their own (in the mapping as `hint`), so that no fix leads to the next error.
 * None when `hint` holds no mapping of known keys (agent.headers), or the value is no mapping.
 */
function innerSlips(ctx: TranslateContext, rel: readonly PathSegment[], full: readonly PathSegment[], key: string, hint: string): { slips: InnerSlip[]; keys: string[] } {
  const value = valueAt(ctx.data, [...rel, key]);
  const keys = strictKeysAt(ctx.schema, [...rel, hint]);
  if (keys.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return { slips: [], keys };
  const at = ctx.src.keyAt(full, key);
  const slips = Object.keys(value)
    .filter((k) => !keys.includes(k))
    .map((k) => {
      const meant = meantKey(k, keys);
      const pos = ctx.src.keyAt([...full, key], k);
      const sameLine = meant !== null && !inMilliseconds(k, meant) && at !== null && pos !== null && pos.line === at.line && (pos.column ?? 0) > (at.column ?? 0);
      return { key: k, hint: meant, pos, sameLine };
    });
  return { slips, keys };
}

/** Milliseconds in one of each unit a duration may be written in (`30s`, `1.5m`, `500ms`). */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60000, min: 60000 };

/**
 * The value meant, for a value of the wrong type that says it plainly: a number in quotes
 * (`concurrency: "4"`) without them, a duration with its unit (`timeoutMs: 30s`) in milliseconds,
 * a model's name where its settings belong (`simulator: gpt-4o`) as `{ model: gpt-4o }`. `lead` is
 * how the line starts (`concurrency:`, or `-` for a list's item); null when there is no such value.
 */
function meantValueFix(ctx: TranslateContext, rel: readonly PathSegment[], name: string, expected: string | undefined, value: unknown, lead: string): string | null {
  // `model: [gpt-4o]`: a list of one value the setting takes, where one value belongs.
  if (Array.isArray(value) && value.length === 1 && (typeof value[0] === 'string' || typeof value[0] === 'number') && schemasAt(ctx.schema, rel).some((sch) => sch.safeParse(value[0]).success)) {
    const one = typeof value[0] === 'string' && !/^[A-Za-z0-9_./-]+$/.test(value[0]) ? shownJson(value[0]) : String(value[0]);
    return `write the one value without [ ]: ${lead}${one}`;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  // Only a value the setting takes: a fix that leads to the next error is no fix.
  // A range checked after the schema (rangeCheckedAfter) too: `threshold: 150%` is not told `threshold: 1.5`.
  const takes = (v: unknown): boolean => (typeof v === 'number' ? takesNumber(ctx, rel, v) : schemasAt(ctx.schema, rel).some((sch) => sch.safeParse(v).success));
  if (expected === 'number' || expected === 'int') {
    // `${NAME}` gives text (docs/configuration.md, "Environment variables and secrets").
    if (/\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(text)) return `write the number itself: a \${NAME} reference is read as text, which ${name} does not take`;
    if (quotedNumber(ctx.schema, rel, value, siblingsAt(ctx.data, rel)) !== null) return `write the number without quotes: ${lead}${text}`;
    // `timeoutMs: 30_000`, `30,000`: digits grouped, which YAML 1.2 reads as text (docs/configuration.md, "How YAML is read").
    const grouped = /^\d{1,3}(?:([_,])\d{3})+$/.exec(text);
    const ungrouped = grouped === null ? null : Number(text.replace(/[_,]/g, ''));
    if (grouped !== null && takes(ungrouped)) return `write the number without its ${grouped[1] === '_' ? 'underscores' : 'commas'}, which make it text in YAML: ${lead}${String(ungrouped)}`;
    // `threshold: 0,5`: a decimal comma, which YAML reads as text too, where the setting takes a fraction.
    // A whole number so written is a thousand (`count: 1,000` is no count of 1), except where the
    // setting takes nothing past 1 (a score): `threshold: 1,000` is 1.000.
    const decimal = /^-?\d+,\d+$/.test(text) ? Number(text.replace(',', '.')) : null;
    if (decimal !== null && (!Number.isInteger(decimal) || takesFractionsOnly(ctx, rel)) && takes(decimal)) return `write the number with a decimal point in place of the comma, which makes it text in YAML: ${lead}${text.replace(',', '.')}`;
    const duration = /^(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min)$/i.exec(text);
    const last = rel[rel.length - 1];
    // `capUsd: $1.00`, `agentTurnUsd: 0.01 USD`: an amount in USD written with its currency.
    const usd = /^(?:\$\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:\$|usd))$/i.exec(text);
    const amount = usd === null ? undefined : (usd[1] ?? usd[2]);
    if (amount !== undefined && typeof last === 'string' && /Usd$/.test(last) && takes(Number(amount))) {
      return `write the amount without the currency (the key says USD): ${lead}${amount}`;
    }
    if (duration !== null && typeof last === 'string' && /Ms$/.test(last)) {
      const ms = Number(duration[1]) * (UNIT_MS[(duration[2] as string).toLowerCase()] ?? 1);
      if (Number.isInteger(ms) && takes(ms)) return `write it as a number of milliseconds: ${lead}${String(ms)}`;
    }
    // `slowerBy: 50%`, `threshold: 70 %`: a percentage, where the setting takes a fraction.
    const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
    const fraction = percent === null ? null : Number((Number(percent[1]) / 100).toFixed(6));
    if (fraction !== null && takes(fraction)) return `write it as a fraction: ${lead}${String(fraction)} (${text})`;
    // `slowerBy: 1.5x`: a multiple of the baseline's latency; slowerBy is the part above it (docs/latency.md).
    const times = last === 'slowerBy' ? /^(\d+(?:\.\d+)?)\s*(?:x|\u00d7|times)$/i.exec(text) : null;
    const above = times === null ? null : Number((Number(times[1]) - 1).toFixed(6));
    if (above !== null && takes(above)) return `write how much slower than the baseline, as a fraction: ${lead}${String(above)} (${text} the baseline's latency is ${String(Number((above * 100).toFixed(4)))}% slower)`;
    return null;
  }
  const yesNo = expected === 'boolean' ? yesNoFix(ctx, rel, value, lead) : null;
  if (yesNo !== null) return yesNo;
  // `meaning: facts`: one of the values a key of the mapping lists (its `check`), not a model's name.
  const listed = expected === 'object' ? strictKeysAt(ctx.schema, rel).filter((k) => schemasAt(ctx.schema, [...rel, k]).some((sch) => defOf(sch).type === 'enum' && sch.safeParse(text).success)) : [];
  if (listed.length === 1 && takes({ [listed[0] as string]: text })) return `write it as a mapping: ${lead}{ ${listed[0] as string}: ${text} }`;
  if (expected === 'object' && text !== '' && !/[\s:{}[\],#]/.test(text) && strictKeysAt(ctx.schema, rel).includes('model')) {
    return `write it as a mapping of its settings: ${lead}{ model: ${text} }`;
  }
  // `headers: "X-Tenant: acme"`: one entry written as a line of text.
  const entry = expected === 'object' || expected === 'record' ? /^([A-Za-z0-9_-]+):\s+(\S.*)$/.exec(text) : null;
  if (entry !== null && takes({ [entry[1] as string]: entry[2] })) return `write it as a mapping: ${lead}${flowYaml({ [entry[1] as string]: entry[2] })}`;
  return null;
}

/**
 * `stream: yes`, `start: off`: YAML 1.1's words for true and false, which YAML 1.2 reads as text
 * (docs/configuration.md, "How YAML is read"), where the setting takes true or false (alone, or
 * among other forms); null otherwise.
 */
function yesNoFix(ctx: TranslateContext, rel: readonly PathSegment[], value: unknown, lead: string): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const yesNo = /^(?:(yes|y|on)|(no|n|off))$/i.exec(text);
  if (yesNo === null) return null;
  const meant = yesNo[1] !== undefined;
  if (!schemasAt(ctx.schema, rel).some((sch) => defOf(sch).type === 'boolean' && sch.safeParse(meant).success)) return null;
  return `YAML 1.2 reads ${text} as text, not as ${String(meant)}: write ${lead}${String(meant)}`;
}

/**
 * The number a value in quotes stands for where `schema` wants a number at `path` and takes it
 * (`count: "3"`: 3), which the fix "write the number without quotes" writes; null otherwise.
 * `siblings`: the keys beside it, which may bound it (`minPass: "5"` beside `count: 3` is not taken).
 */
export function quotedNumber(schema: z.ZodType, path: readonly PathSegment[], value: unknown, siblings: Readonly<Record<string, unknown>> = {}): number | null {
  if (typeof value !== 'string' || !/^-?\d+(?:\.\d+)?$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return schemasAt(schema, path).some((sch) => sch.safeParse(n).success && withinCheckedRange(sch, n, siblings)) ? n : null;
}

/**
 * `threshold: 80` or `alpha: 5` where a fraction belongs (a score from 0 to 1, a probability): a
 * percentage, most likely, written as the fraction the setting takes; null when that is not it.
 * A threshold is a score a reply must reach, written as a percentage in tens (70, 80): 1.5 or 2
 * is not one, and reading it so would offer `threshold: 0.015`, under which every reply passes.
 */
function percentFix(ctx: TranslateContext, rel: readonly PathSegment[], value: unknown): string | null {
  const key = rel[rel.length - 1];
  if (typeof value !== 'number' || typeof key !== 'string' || value <= 1 || value > 100) return null;
  if (key === 'threshold' && value < 10) return null;
  const fraction = Number((value / 100).toFixed(6));
  if (!schemasAt(ctx.schema, rel).some((sch) => sch.safeParse(fraction).success)) return null;
  return `write it as a fraction: ${key}: ${String(fraction)} (${String(value)}%)`;
}

/**
 * `message:` with nothing after it: the value to write there, at the key's line (a setting that
 * may be left out may also lose its line); null when the value was written (`null`, `~`) or is no
 * mapping's.
 */
/** Numbers up to twenty, and the tens, as words: `concurrency: four` is `concurrency: 4`. */
const NUMBER_WORDS: Record<string, number> = Object.fromEntries(
  [
    ...'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(' ').map((w, i) => [w, i] as const),
    ...'thirty forty fifty sixty seventy eighty ninety'.split(' ').map((w, i) => [w, (i + 3) * 10] as const),
    ['hundred', 100] as const,
  ],
);

/**
 * A number's range, in words, and a value in it the fix gives as its example. `whole`: whole
 * numbers only. `atMost` / `atLeast`: a key beside it whose number bounds it too (repeat's minPass
 * is at most its count, max at least it), when that key holds a whole number in this range.
 * `wordsBy`: the words with that key as they name it, `count (3)` where its number is known (as
 * checkRepeat's own message says it); `words` are `wordsBy('count')`.
 */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  readonly words: string;
  readonly wordsBy?: (bound: string) => string;
  readonly example: number;
  readonly whole?: boolean;
  readonly atMost?: string;
  readonly atLeast?: string;
}

const CHECKED_RANGE = 'agentReplayCheckedRange';

/**
 * A number setting whose range is checked after the schema, in words of its own (a fixture's
 * `threshold`: `threshold 1.5 is outside [0, 1]`): the range and example a value of another type
 * (`threshold: high`) is told, as numberRange reads a range the schema states.
 */
export function rangeCheckedAfter(schema: z.ZodNumber, range: NumberRange): z.ZodNumber {
  return schema.meta({ [CHECKED_RANGE]: range });
}

function checkedRange(schema: z.ZodType): NumberRange | null {
  return (schema.meta() as { [CHECKED_RANGE]?: NumberRange } | undefined)?.[CHECKED_RANGE] ?? null;
}

/** The mapping a setting at `path` is a key of (its siblings' values), or an empty one. */
export function siblingsAt(data: unknown, path: readonly PathSegment[]): Readonly<Record<string, unknown>> {
  const parent = valueAt(data, path.slice(0, -1));
  return parent !== null && typeof parent === 'object' && !Array.isArray(parent) ? (parent as Record<string, unknown>) : {};
}

/**
 * The bounds of a checked range where `siblings` are the keys beside the setting: its own, narrowed
 * by a sibling's number, also one in quotes (`count: "3"`), which its own fix writes as that number.
 */
function boundsOf(range: NumberRange, siblings: Readonly<Record<string, unknown>>): { min: number; max: number; words: string } {
  const sibling = (key: string | undefined): number | null => {
    const written = key === undefined ? undefined : siblings[key];
    const v = typeof written === 'string' && /^\d+$/.test(written.trim()) ? Number(written.trim()) : written;
    return typeof v === 'number' && Number.isInteger(v) && v >= range.min && v <= range.max ? v : null;
  };
  const atLeast = sibling(range.atLeast);
  const atMost = sibling(range.atMost);
  // The key that bounds it named with its number, as the range's own check names it ("from 1 to count (3)").
  const key = atMost !== null ? `${range.atMost} (${atMost})` : atLeast !== null ? `${range.atLeast} (${atLeast})` : null;
  return { min: atLeast ?? range.min, max: atMost ?? range.max, words: key !== null && range.wordsBy !== undefined ? range.wordsBy(key) : range.words };
}

function withinCheckedRange(schema: z.ZodType, value: number, siblings: Readonly<Record<string, unknown>>): boolean {
  const range = checkedRange(schema);
  if (range === null) return true;
  const { min, max } = boundsOf(range, siblings);
  return value >= min && value <= max && (range.whole !== true || Number.isInteger(value));
}

/**
 * The range a number setting takes, in words, read from its schema ("a whole number from 1 to
 * 256", "a number of at least 0"); null when the schema bounds it on neither side.
 */
function numberRange(ctx: TranslateContext, rel: readonly PathSegment[]): { words: string; example: number | null; whole: boolean } | null {
  const num = schemasAt(ctx.schema, rel).find((sch) => defOf(sch).type === 'number') as (z.ZodType & { minValue?: number | null; maxValue?: number | null; isInt?: boolean }) | undefined;
  if (num === undefined) return null;
  const later = checkedRange(num);
  // Its example kept within a sibling's bound (minPass: 2 beside count: 1 is minPass: 1).
  if (later !== null) {
    const { min, max, words } = boundsOf(later, siblingsAt(ctx.data, rel));
    return { words, example: Math.min(max, Math.max(min, later.example)), whole: later.whole === true };
  }
  // An unbounded side reads as ±Infinity, or as the largest safe integer for a whole number.
  const bound = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : null);
  const min = bound(num.minValue);
  const max = bound(num.maxValue);
  const whole = num.isInt === true;
  const kind = whole ? 'a whole number' : 'a number';
  // The example: the least value of a count (concurrency: 1), the middle of a fraction (threshold: 0.5).
  if (min !== null && max !== null) return { words: `${kind} from ${String(min)} to ${String(max)}`, example: whole ? min : (min + max) / 2, whole };
  if (min !== null) return { words: `${kind} of at least ${String(min)}`, example: min, whole };
  if (max !== null) return { words: `${kind} of at most ${String(max)}`, example: null, whole };
  return null;
}

/**
 * What a number setting whose range its schema does not state (a check of its own: a reply's `turn`)
 * takes, in the words its schema refuses `value` with ("must be a turn number (0 is the welcome turn),
 * last, or any"); whole when it takes a whole number beside a `value` that is not one. null when
 * those words do not say it.
 */
function refusedRange(ctx: TranslateContext, rel: readonly PathSegment[], value: number): { words: string; example: null; whole: boolean } | null {
  for (const sch of schemasAt(ctx.schema, rel)) {
    const parsed = sch.safeParse(value);
    const message = parsed.success ? undefined : parsed.error.issues[0]?.message;
    if (message?.startsWith('must be ') === true) {
      return { words: message.slice('must be '.length), example: null, whole: !Number.isInteger(value) && [Math.floor(value), Math.ceil(value)].some((v) => takesNumber(ctx, rel, v)) };
    }
  }
  return null;
}

/**
 * Does the setting at `rel` take fractions, and no number past 1 (a score from 0 to 1, a
 * probability): its range, as numberRange reads it, checked after the schema or stated by it.
 */
function takesFractionsOnly(ctx: TranslateContext, rel: readonly PathSegment[]): boolean {
  const num = schemasAt(ctx.schema, rel).find((sch) => defOf(sch).type === 'number') as (z.ZodType & { maxValue?: number | null; isInt?: boolean }) | undefined;
  if (num === undefined) return false;
  const later = checkedRange(num);
  if (later !== null) return later.whole !== true && later.max <= 1;
  return num.isInt !== true && typeof num.maxValue === 'number' && num.maxValue <= 1;
}

/** Does the setting at `rel` take the number `v`: its schema, and a range checked after it (with the keys beside it)? */
function takesNumber(ctx: TranslateContext, rel: readonly PathSegment[], v: number): boolean {
  return schemasAt(ctx.schema, rel).some((sch) => sch.safeParse(v).success && withinCheckedRange(sch, v, siblingsAt(ctx.data, rel)));
}

/**
 * The fix for a number setting given something else (`concurrency: four`): the range it takes, read
 * from its schema, with the line as it should read when the value is a number word in that range,
 * else with an example; null when the schema states no range.
 */
function numberFix(ctx: TranslateContext, rel: readonly PathSegment[], name: string, value: unknown, lead: string): string | null {
  const range = numberRange(ctx, rel);
  if (range === null) return null;
  const meant = typeof value === 'string' ? NUMBER_WORDS[value.trim().toLowerCase()] : undefined;
  // A range checked after the schema (rangeCheckedAfter) bounds the fix's number too: `threshold: twenty` is not told `threshold: 20`.
  const takes = (v: number): boolean => takesNumber(ctx, rel, v);
  if (meant !== undefined && takes(meant)) return `write the number in digits (${name} is ${range.words}): ${lead}${String(meant)}`;
  // `minDeltaMs: 300.5`: the whole number nearest to what was written, not a made-up example.
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) && takes(Math.round(value))) return `change ${name} to ${range.words}: ${lead}${String(Math.round(value))}`;
  const ex = numberExample(ctx, rel, range);
  const example = ex === null ? '' : `, e.g. ${lead}${String(ex.value)}${ex.seconds === null ? '' : ` (${ex.seconds})`}`;
  return `change ${name} to ${range.words}${example}`;
}

/**
 * The value a fix gives as an example of the number setting at `rel`: for a duration a plausible
 * value of that setting (30 seconds for a timeout, 0.1 for the regex's), not its least value (1 ms);
 * else its range's example; null when the setting takes neither.
 */
function numberExample(ctx: TranslateContext, rel: readonly PathSegment[], range: { example: number | null }): { value: number; seconds: string | null } | null {
  const last = rel[rel.length - 1];
  const ms = typeof last === 'string' && /Ms$/.test(last) ? millisecondsExample(last, parentKey(rel.slice(0, -1))) : null;
  if (ms !== null && takesNumber(ctx, rel, ms.ms)) return { value: ms.ms, seconds: ms.seconds };
  return range.example !== null && takesNumber(ctx, rel, range.example) ? { value: range.example, seconds: null } : null;
}

function emptyValueFix(ctx: TranslateContext, full: readonly PathSegment[], rel: readonly PathSegment[], value: unknown): string | null {
  const last = rel[rel.length - 1];
  if (value !== null || typeof last !== 'string' || ctx.src.file.endsWith('.json') || ctx.src.writtenAt(full) !== null) return null;
  const pos = ctx.src.keyAt(full.slice(0, -1), last);
  if (pos === null || pos.line === null) return null;
  return `write the value after ${quote(`${last}:`)} on line ${String(pos.line)}${isRequired(ctx.schema, rel) ? '' : ', or remove that line'}`;
}

/**
 * The issue for a key of digits that is the rest of a number split by a comma inside `{ }`
 * (`cost: { capUsd: 1,000 }`, split-number.ts), at the number; 'said' when the YAML syntax check
 * said it; null when the line shows none.
 */
function splitNumberIssue(
  ctx: TranslateContext,
  rel: readonly PathSegment[],
  shown: readonly PathSegment[],
  pos: Position,
  at: (pos: Position, message: string, fix: string) => ConfigIssue,
): ConfigIssue | 'said' | null {
  const text = lineOf(ctx.src, pos.line);
  const found = splitNumberAt(text, pos.column);
  const parent = valueAt(ctx.data, rel);
  if (found === null || text === null || parent === null || typeof parent !== 'object' || typeof (parent as Record<string, unknown>)[found.key] !== 'number') return null;
  const path = [...rel, found.key];
  // `maxLatencyMs: 0,500`: 0.500 or 500, the one the setting takes (both said when it takes both).
  const taken = found.meant === null ? found.readings.filter((r) => takesNumber(ctx, path, Number(r))) : [];
  // `threshold: 1,000` where the setting takes nothing past 1 (a score): the decimal comma's 1.000, not a thousand.
  const decimal = found.keys.length === 1 ? `${found.read}.${found.keys[0] as string}` : null;
  const fraction = found.meant !== null && decimal !== null && !takesNumber(ctx, path, Number(found.meant)) && takesFractionsOnly(ctx, path) && takesNumber(ctx, path, Number(decimal));
  const split = fraction ? splitNumberAs(found, text, decimal) : taken.length === 1 ? splitNumberAs(found, text, taken[0] as string) : found;
  if (taken.length === 2) {
    const both = splitNumberWords(split, pos.line);
    return at({ line: pos.line, column: split.column }, both.message, both.fix);
  }
  // The number meant (the decimal, of two the setting takes neither of), when the setting does not
  // take it: what it takes, so that the fix is not the next error.
  const meant = Number(split.meant ?? split.readings[0]);
  const range = split.readings.length === 0 || (split.meant !== null && takesNumber(ctx, path, meant)) ? null : (numberRange(ctx, path) ?? refusedRange(ctx, path, meant));
  // `1,000,000`: 0 twice, a key written twice, which the YAML syntax check has said as this slip;
  // said again here only with the range it did not know (`max: 1,000,000` is past 20), in its place (index.ts, oneSplitNumber).
  if (splitWritesKeyTwice(split) && range === null) return 'said';
  // `minPass: 2,5` where a whole number belongs: the whole numbers either side that it takes, else
  // the setting's example (a duration's always: `maxLatencyMs: 2,5` is no 2 or 3 ms budget).
  const either = /Ms$/.test(split.key) ? [] : [Math.floor(meant), Math.ceil(meant)].filter((v) => takesNumber(ctx, path, v));
  const example = range === null ? null : numberExample(ctx, path, range);
  const instead = range === null || !range.whole || Number.isInteger(meant) ? null : either.length > 0 ? either : example === null ? [] : [example.value];
  const { message, fix } = splitNumberWords(split, pos.line, range === null ? null : { name: pathText([...shown, split.key]), words: range.words, instead });
  return at({ line: pos.line, column: split.column }, message, fix);
}

function translateOne(ctx: TranslateContext, issue: ZodIssueLike, rel: PathSegment[]): ConfigIssue[] {
  const full = [...ctx.base, ...rel];
  // With a prefix (`fixture "x": `) paths are relative to the item; otherwise to the file.
  const shown = ctx.prefix ? rel : full;
  const name = pathText(shown) || (ctx.prefix ? 'it' : 'the file');
  const prefix = ctx.prefix ?? '';
  const value = valueAt(ctx.data, rel);
  const at = (pos: Position, message: string, fix: string): ConfigIssue => ({
    file: ctx.src.file,
    line: pos.line,
    column: pos.column,
    message: prefix + message,
    fix,
  });

  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeysAt(ctx.schema, rel);
      const where = pathText(shown) === '' ? (ctx.prefix ? '' : 'at the top level') : `in ${pathText(shown)}`;
      const candidates = rel.length === 0 && ctx.suggestAlso ? [...allowed, ...ctx.suggestAlso] : allowed;
      /** The numbers split by a comma already said (their columns), one issue for all their keys. */
      const splits = new Set<string>();
      return (issue.keys ?? []).flatMap((key) => {
        const hint = meantKey(key, candidates);
        const pos = ctx.src.keyAt(full, key) ?? ctx.src.valueAt(full);
        const parent = valueAt(ctx.data, rel);
        // `{ capUsd: 1,000 }`: the digits after the comma read as a key (000, read as 0).
        const split = /^\d+$/.test(key) ? splitNumberIssue(ctx, rel, shown, pos, at) : null;
        if (split === 'said') return [];
        if (split !== null) {
          const seen = `${String(split.line)}:${String(split.column)}`;
          if (splits.has(seen)) return [];
          splits.add(seen);
          return [split];
        }
        const missing = hint !== null && allowed.includes(hint) && parent !== null && typeof parent === 'object' && !(hint in parent) && isRequired(ctx.schema, [...rel, hint]);
        // Renaming onto a key the mapping already has would write it twice.
        const given = hint !== null && parent !== null && typeof parent === 'object' && hint in parent ? ctx.src.keyAt(full, hint) : null;
        // `{ contains hi }`: an allowed key and its value without the ": " between them, read as one key.
        const colon = missingColonFix(ctx.src, pos, key, parent, allowed);
        if (colon !== null) return [at(pos, `${quote(key)} ${where ? `${where} ` : ''}is written without ": " after the key ${quote(colon.key)}, so YAML reads it as one key with no value`, colon.fix)];
        const fix =
          hint === null
            ? `remove ${quote(key)} or use one of the allowed keys`
            : given !== null
              ? `did you mean ${quote(hint)}? it is already given${given.line === null ? '' : ` on line ${String(given.line)}`}: keep one of the two and remove the other`
              : null;
        // The keys under it that the key it stands for does not take either (costs: { cap: 1 }).
        const inner = hint !== null && given === null ? innerSlips(ctx, rel, full, key, hint) : { slips: [], keys: [] };
        const own = inner.slips.filter((i) => !i.sameLine);
        const section = pathText([...shown, hint ?? key]);
        return [
          at(
            pos,
            `unknown key ${quote(key)}${where ? ` ${where}` : ''}${missing ? ` (and the required ${quote(hint)} is missing)` : ''}; allowed keys: ${allowed.join(', ')}`,
            fix ?? renameFix(ctx.src, pos, key, hint as string, parentKey(shown), inner.slips.filter((i) => i.sameLine)),
          ),
          ...own.map((i) =>
            at(
              i.pos ?? pos,
              `unknown key ${quote(i.key)} in ${section} (written ${quote(key)}${pos.line === null ? '' : ` on line ${String(pos.line)}`}); allowed keys: ${inner.keys.join(', ')}`,
              i.hint === null ? `remove ${quote(i.key)} or use one of the allowed keys` : renameFix(ctx.src, i.pos ?? pos, i.key, i.hint, hint),
            ),
          ),
        ];
      });
    }
    case 'invalid_type': {
      const expected = typeWord(issue.expected ?? 'value');
      if ((issue.expected === 'number' || issue.expected === 'int') && typeof value === 'number' && !Number.isFinite(value)) {
        return [nonFinite(ctx, full, rel, name, value, issue.message.startsWith('must ') ? issue.message : `must be ${expected}`, at)];
      }
      if (value === undefined) {
        const key = rel[rel.length - 1];
        const parentShown = shown.slice(0, -1);
        // In a JSON file (a baseline) the key is written as JSON writes it.
        const written = ctx.src.file.endsWith('.json') ? `"${String(key)}"` : String(key);
        // A key that must be there but may be null (a baseline's "commit") says both.
        const orNull = acceptsNull(ctx.schema, rel) ? ' (or null)' : '';
        return [
          at(
            ctx.src.valueAt(full.slice(0, -1)),
            `missing required key ${quote(String(key))}${parentShown.length ? ` in ${pathText(parentShown)}` : ''}`,
            `add ${written}: <${issue.expected ?? 'value'}>${orNull}`,
          ),
        ];
      }
      // A plain value that YAML reads as a number, true/false or null where text belongs: say how it
      // was written and how it was read, and quote exactly what was written.
      // Only YAML reads a plain value so: in a JSON file (a baseline) `null`, `5` and `true` are what they say.
      const yaml = !ctx.src.file.endsWith('.json');
      const written = yaml && issue.expected === 'string' && (value === null || typeof value === 'number' || typeof value === 'boolean') ? ctx.src.writtenAt(full) : null;
      const found = written !== null && written !== String(value) ? `${written}, which YAML reads as ${describeValue(value)}` : describeValue(value);
      const last = rel[rel.length - 1];
      // A list's item is written after its "-", not as a key (`- "42"`, not `2: "42"`).
      const item = typeof last === 'number';
      const pos = ctx.src.valueAt(full);
      // In a JSON file (a baseline) the key is written as JSON writes it, as a missing key's fix above.
      const lead = item ? itemLead(ctx.src, pos) : yaml ? `${String(last ?? 'value')}: ` : `"${String(last ?? 'value')}": `;
      // `- &a 42`: the anchor stays in front of the quotes (an alias *a is then the text too); a tag
      // that made it a number (`!!int 7`) does not, or the quoted value would be read so again.
      const anchor = (): string => propsAt((l) => lineOf(ctx.src, l) ?? undefined, pos).split(' ').filter((p) => p.startsWith('&')).join(' ');
      const quoteFix =
        written !== null
          ? `put the value in quotes: ${lead}${propsLead(anchor())}${shownJson(written)}`
          : item && value === null && yaml && pos.line !== null
            ? `write the item after the "-" on line ${String(pos.line)}, or remove that line`
            : ((issue.expected === 'array' ? listOfOneFix(ctx, full, rel, name, value) : null) ??
              meantValueFix(ctx, rel, name, issue.expected, value, lead) ??
              emptyValueFix(ctx, full, rel, value) ??
              (issue.expected === 'object' ? mappingFix(ctx, rel, name, value) : null) ??
              (issue.expected === 'number' || issue.expected === 'int' ? numberFix(ctx, rel, name, value, lead) : null) ??
              `change ${name} to ${expected}`);
      return [at(pos, `${name} must be ${expected}, found ${found}`, quoteFix)];
    }
    case 'invalid_value': {
      const allowed = (issue.values ?? []).map((v) => (typeof v === 'string' ? v : shownJson(v)));
      const pos = ctx.src.valueAt(full);
      // `provider: OpenAI`: the value meant, written as the setting takes it; `preset: openai_chat`,
      // the closest; `preset: openai`, a family's name: each of its forms (as init --preset says them).
      const family = typeof value === 'string' ? allowed.filter((a) => a.toLowerCase().startsWith(`${value.toLowerCase()}-`)) : [];
      const meant =
        typeof value === 'string' ? (allowed.find((a) => a.toLowerCase() === value.toLowerCase()) ?? (family.length === 1 ? family[0] : undefined) ?? (family.length === 0 ? (suggest(value, allowed) ?? undefined) : undefined)) : undefined;
      const line = lineOf(ctx.src, pos.line);
      const col = pos.column === null ? -1 : pos.column - 1;
      const fixed = meant !== undefined && line !== null && col >= 0 && line.startsWith(value as string, col) ? `${line.slice(0, col)}${meant}${line.slice(col + (value as string).length)}`.trim() : null;
      return [
        at(
          pos,
          `${name} must be one of ${allowed.join(', ')}, found ${describeValue(value)}`,
          fixed !== null
            ? `did you mean ${quote(meant as string)}? so that line ${String(pos.line)} reads\n    ${fixed}`
            : family.length > 1
              ? `did you mean ${family.map((f) => quote(f)).join(' or ')}? use one of: ${allowed.join(', ')}`
              : `use one of: ${allowed.join(', ')}`,
        ),
      ];
    }
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const word = issue.code === 'too_small' ? (issue.inclusive === false ? 'greater than' : 'at least') : issue.inclusive === false ? 'less than' : 'at most';
      if (issue.origin === 'string') {
        return [at(ctx.src.valueAt(full), `${name} must not be empty`, `give ${name} a value`)];
      }
      // A schema that states its whole range (`must be ... from 1 to 600000 ...`) says it as written.
      if (issue.message.startsWith('must ')) {
        return [at(ctx.src.valueAt(full), `${name} ${issue.message}, found ${describeValue(value)}`, percentFix(ctx, rel, value) ?? `set ${name} to a value in that range`)];
      }
      return [
        at(
          ctx.src.valueAt(full),
          `${name} must be ${word} ${String(bound)}, found ${describeValue(value)}`,
          `set ${name} to a value ${word} ${String(bound)}`,
        ),
      ];
    }
    case 'invalid_union': {
      // A union whose value matched one branch's type is read as that branch's issues
      // (flattenUnions): here no branch, or several, matched, and the value is said to be wrong.
      const branches = issue.errors ?? [];
      const expected = [
        ...new Set(branches.flatMap((b) => b.filter((i) => i.code === 'invalid_type' && i.path.length === 0 && i.message !== REFUSED_AFTER).map((i) => typeWord(i.expected ?? '')))),
      ];
      const custom = issue.message && issue.message !== 'Invalid input' ? issue.message : null;
      if (typeof value === 'number' && !Number.isFinite(value) && expected.includes(typeWord('number'))) {
        return [nonFinite(ctx, full, rel, name, value, custom ?? `must be ${expected.join(' or ')}`, at, expected.includes(typeWord('string')))];
      }
      return [
        at(
          ctx.src.valueAt(full),
          custom ? `${name} ${custom}, found ${describeValue(value)}` : `${name} must be ${expected.join(' or ')}, found ${describeValue(value)}`,
          custom
            ? (yesNoFix(ctx, rel, value, `${String(rel[rel.length - 1] ?? 'value')}: `) ?? `change ${name}: it ${custom}`)
            : (yesNoFix(ctx, rel, value, `${String(rel[rel.length - 1] ?? 'value')}: `) ??
              (expected.includes(typeWord('array')) ? listOfOneFix(ctx, full, rel, name, value) : null) ??
              emptyValueFix(ctx, full, rel, value) ??
              // `toolCalled: find_order`: the mapping form, with the text as the one key that takes it.
              (expected.includes(typeWord('object')) ? mappingFix(ctx, rel, name, value) : null) ??
              `change ${name} to ${expected.join(' or ')}`),
        ),
      ];
    }
    default: {
      // A rule of our own (`must be a turn number ...`): said with what was found, as the others are.
      if (issue.code === 'custom' && issue.message.startsWith('must ')) {
        const last = rel[rel.length - 1];
        const quotedNumber = typeof value === 'string' && /^\d+$/.test(value) && /\bnumber\b/.test(issue.message) && typeof last === 'string';
        return [
          at(
            ctx.src.valueAt(full),
            `${name} ${issue.message}, found ${describeValue(value)}`,
            quotedNumber ? `write the number without quotes: ${String(last)}: ${value}` : `change ${name}: it ${issue.message}`,
          ),
        ];
      }
      return [at(ctx.src.valueAt(full), `${name}: ${issue.message}`, `change ${name}`)];
    }
  }
}

// --- bounds: an error about a file is clipped --------------------------------------------------

/** Issues shown per file (errors and warnings each); the rest are counted in one last issue. */
const MAX_ISSUES_PER_FILE = 20;
/** Issues shown in all (errors and warnings each), after the per-file bound. */
const MAX_ISSUES_TOTAL = 200;
/** Characters of one message or fix (the address of a page it cites not counted: clipCiting); longer ones end with an ellipsis. */
const MAX_ISSUE_TEXT = 300;

function clipText(text: string): string {
  const cut = citingCut(text, MAX_ISSUE_TEXT, 1);
  return cut === null ? text : `${headOf(text, cut)}\u2026`;
}

/** Characters of a fix whose lines to copy (those indented by 4 spaces, after "so that line N reads") are kept whole. */
const MAX_FIX_TEXT = 2000;
/** Characters of one line to copy: one longer is said too long to show, never shown cut. */
const MAX_FIX_LINE = 1000;

/**
 * A fix as shown: its words (a line not indented by 4 spaces) clipped as a message is, each line
 * to copy whole or, over MAX_FIX_LINE (a hostile 1 MB line), said too long to show; the lines from
 * the one that would take it over MAX_FIX_TEXT left out, with an ellipsis. A fix is never shown with
 * a line to copy that is cut.
 */
function clipFix(fix: string): string {
  if (fix.length <= MAX_ISSUE_TEXT) return fix;
  const out: string[] = [];
  let total = 0;
  for (const line of fix.split('\n')) {
    const copied = line.startsWith('    ');
    const shown = !copied ? clipText(line) : line.length <= MAX_FIX_LINE ? line : `  (the line as it should read, ${thousands(line.length - 4)} characters, is too long to show here)`;
    if (total + shown.length > MAX_FIX_TEXT) {
      out.push('  \u2026');
      break;
    }
    out.push(shown);
    total += shown.length + 1;
  }
  return out.join('\n');
}

/**
 * Clips each message and fix, and keeps the first MAX_ISSUES_PER_FILE issues of each file (in the
 * order given), followed by "and N more ... in this file"; after MAX_ISSUES_TOTAL issues in all,
 * one last issue counts the rest. A hostile file, or hundreds of them, cannot flood the output.
 */
export function boundIssues(issues: readonly ConfigIssue[], noun: 'errors' | 'warnings'): ConfigIssue[] {
  const perFile = new Map<string, number>();
  for (const i of issues) perFile.set(i.file, (perFile.get(i.file) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: ConfigIssue[] = [];
  /** Issues shown or counted in a per-file "and N more". */
  let accounted = 0;
  for (const i of issues) {
    if (out.length >= MAX_ISSUES_TOTAL) break;
    const n = (seen.get(i.file) ?? 0) + 1;
    seen.set(i.file, n);
    if (n <= MAX_ISSUES_PER_FILE) {
      out.push({ ...i, message: clipText(i.message), fix: clipFix(i.fix) });
      accounted += 1;
    }
    const total = perFile.get(i.file) ?? 0;
    if (n === total && total > MAX_ISSUES_PER_FILE) {
      out.push(moreIssue(i.file, total - MAX_ISSUES_PER_FILE, noun, 'in this file'));
      accounted += total - MAX_ISSUES_PER_FILE;
    }
  }
  const rest = issues.length - accounted;
  if (rest > 0) {
    const files = new Set(issues.filter((i) => (seen.get(i.file) ?? 0) < (perFile.get(i.file) ?? 0)).map((i) => i.file)).size;
    out.push(moreIssue('all files', rest, noun, `in ${plural(files, 'file', 'files')} not shown in full`));
  }
  return out;
}

/**
 * How many problems `issues` stand for: each shown issue counts one, and the last one of a file (or
 * of the suite) that says "and N more ..." counts its N (`more`). The summary line ("25 configuration
 * errors") counts what is wrong, not the lines shown (boundIssues).
 */
export function issueCount(issues: readonly ConfigIssue[]): number {
  let n = 0;
  for (const i of issues) n += i.more ?? 1;
  return n;
}

function moreIssue(file: string, more: number, noun: 'errors' | 'warnings', where: string): ConfigIssue {
  return {
    file,
    line: null,
    column: null,
    message: `and ${thousands(more)} more ${more === 1 ? noun.slice(0, -1) : noun} ${where}`,
    fix: 'fix the ones above and run validate again to see the rest',
    more,
  };
}
