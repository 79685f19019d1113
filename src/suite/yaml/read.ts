// readYaml: the one way a suite file's YAML is read. js-yaml gives the values (fast.ts); the
// `yaml` document gives positions and the words of syntax errors, parsed only when asked
// (source.ts); both read plain scalars the same way (schema.ts).

import { textsWhereMappings, type ConfigIssue, type TranslateContext, type ZodIssueLike } from '../issues.js';
import { fastSource, type FastRefusal } from './fast.js';
import { aliasExpansion, MAX_ALIAS_VALUES } from './schema.js';
import { documentSource, type PathSegment, type Position, type SourceFile } from './source.js';
import { onlyDuplicateKeys, SYNTAX_FIX } from './syntax-kinds.js';
import { loadWithPackage, YamlNotLoaded } from './package.js';
import { deepJsonOffset } from '../json-depth.js';
import { flowIndentSlips, flowIndentWords } from './flow.js';
import { mergeConflicts } from '../merge-conflict.js';
import { headOf } from '../../words.js';
import type { OneEach } from './syntax.js';

// The words of a refused file's syntax errors (syntax.ts): only a refused file runs them, and it
// asks for the `yaml` package first (source.ts documentSource), so they are loaded with it, not
// parsed at every start (docs/performance.md, "2026-12-07 (small hours): the session's figures").
let syntax: typeof import('./syntax.js') | null = null;
loadWithPackage(async () => {
  syntax = await import('./syntax.js');
});
function yamlSyntax(): typeof import('./syntax.js') {
  if (syntax === null) throw new YamlNotLoaded();
  return syntax;
}

/**
 * `issue`, the schema's error on the text `value` where a mapping of `keys` belongs (`agent must be
 * a mapping, found the string "url http://... timeoutMs 5"`): when the text is lines each written as
 * one of `keys` and its value without the ":", it says so after the schema's words, with the fix the
 * YAML check gives such lines (syntax.ts, keysWithoutColons; `oneEach`: keys of which the mapping
 * holds one, several written as a list). Only an error's value is looked at, and only when its first
 * word is one of `keys`.
 */
export function colonsLeftOutOf(issue: ConfigIssue, src: SourceFile, value: string, keys: readonly string[], oneEach?: OneEach): void {
  const first = /^\s*([A-Za-z_][A-Za-z0-9_-]*)[ \t]/.exec(value)?.[1];
  if (first === undefined || !keys.includes(first) || issue.line === null) return;
  const words = yamlSyntax().keysWithoutColons(src, { line: issue.line, column: issue.column }, value, keys, oneEach);
  if (words === null) return;
  issue.message = `${issue.message}: ${words.message}`;
  issue.fix = words.fix;
}

/**
 * `said`, translateZodIssues's words for the schema's `issues`, each on a text where a mapping
 * belongs (`agent:`, then `  url http://...` and `  timeoutMs 5`; a fixture's `assert:`, then
 * `  contains x` and `  maxLatencyMs 5`, or `- contains x` in its list) told with those lines as they
 * should read (colonsLeftOutOf), once.
 */
export function colonsLeftOutOfIssues(ctx: TranslateContext, issues: readonly ZodIssueLike[], said: readonly ConfigIssue[], oneEach?: OneEach): void {
  for (const t of textsWhereMappings(ctx, issues, said)) colonsLeftOutOf(t.issue, ctx.src, t.value, t.keys, oneEach);
}

/** The most levels of lists and mappings js-yaml reads (its maxDepth), and so a suite file. */
const MAX_YAML_DEPTH = 100;

export interface LoadedYaml {
  /** null when the file cannot be read; a file whose only problem is a key written twice is read (its last value) and has both. */
  src: SourceFile | null;
  data: unknown;
  errors: ConfigIssue[];
  /** What is read as written but that YAML 1.2 reads otherwise (flowIndentWarnings); absent when none. */
  warnings?: ConfigIssue[];
  /**
   * A file with syntax errors (src null): its document, from which the loader checks the entries
   * the errors leave as written (SourceFile.entriesAt), never to run them.
   */
  partly?: SourceFile;
}

const TAG_FIX =
  'remove the tag: suite files hold plain values (text, numbers, true/false, null, lists and mappings); put a value in quotes to keep it as text';

/**
 * The values of a YAML suite file (see schema.ts for the rules) and where they are, or its problems.
 * `mergeKeys: 'ordinary'` reads a `<<` as the ordinary key it is in YAML 1.2, as GitHub reads a
 * workflow (it reads anchors and aliases, and merges nothing): a suite file's is refused.
 */
export function readYaml(shown: string, written: string, options: { mergeKeys?: 'refused' | 'ordinary' } = {}): LoadedYaml {
  // A byte-order mark is no part of the text: positions are counted as an editor shows them.
  const text = written.charCodeAt(0) === 0xfeff ? written.slice(1) : written;
  // A merge conflict left in the file, before anything reads it: YAML may read one without an error
  // (inside a quoted value, or a marker line as text), and its marker lines would be sent to the
  // agent as the message. Said once per conflict, the file's other errors waiting for the fix
  // (mergeConflicts; one look for a `<<<<<<<` in a file without one).
  const conflicts = mergeConflicts(shown, text, 'YAML');
  if (conflicts.length > 0) return { src: null, data: undefined, errors: conflicts };
  const fast = fastSource(shown, text);
  if ('refused' in fast) {
    const { errors, partly } = refusalIssues(shown, text, fast.refused);
    // A key written twice is said, and the rest of the file is still read (its last value) and
    // checked, so that its other problems are said in the same run.
    if (onlyDuplicateKeys(errors)) {
      const again = fastSource(shown, text, true);
      if (!('refused' in again)) return { src: again.src, data: again.data, errors };
    }
    return partly === null ? { src: null, data: undefined, errors } : { src: null, data: undefined, errors, partly };
  }
  // Without a `*` there is no alias: the walk that counts what aliases add is skipped.
  const added = text.includes('*') ? aliasExpansion(fast.data) : 0;
  if (added > MAX_ALIAS_VALUES) return { src: null, data: undefined, errors: [aliasBombIssue(fast.src, added)] };
  // Without a `<<` there is no merge key: the walk is skipped.
  const merges = options.mergeKeys !== 'ordinary' && text.includes('<<') ? mergeKeys(fast.data) : [];
  if (merges.length > 0) {
    const src = fast.src;
    const at = merges.map((path) => src.keyAt(path.slice(0, -1), '<<') ?? src.valueAt(path));
    const offsets = at.map((pos) => offsetOf(text, pos));
    const errors = at.map((pos): ConfigIssue => ({ file: shown, ...pos, message: MERGE_MESSAGE, fix: MERGE_FIX }));
    return { src: null, data: undefined, errors, partly: { ...src, entriesAt: (path, problems = []) => src.entriesAt(path, [...offsets, ...problems]) } };
  }
  // Only a [ ] or { } over several lines can have a line left of its key: js-yaml says whether it
  // read one (a file the line reader read has none, each value on its key's line, about a sixth of
  // a 5,000-fixture suite's load). Brackets in a block scalar's text or a comment are not one, and
  // a file with only those pays neither the scan nor the `yaml` document it would ask for.
  const warnings = fast.multiLineFlow === true ? flowIndentWarnings(fast.src) : [];
  return warnings.length === 0 ? { src: fast.src, data: fast.data, errors: [] } : { src: fast.src, data: fast.data, errors: [], warnings };
}

/**
 * A line of a multi-line `[ ]` or `{ }` indented no deeper than its key: read as written (the
 * brackets say where the collection ends), and said, since YAML 1.2 ends the collection before it
 * and other YAML tools refuse the file (docs/configuration.md, "How YAML is read").
 */
function flowIndentWarnings(src: SourceFile): ConfigIssue[] {
  const slips = flowIndentSlips(src.text);
  if (slips.length === 0) return [];
  // Brackets in a block scalar's text or a comment are text: a line is said only where the `yaml`
  // document refuses the collection it is in.
  const errors = src.syntaxErrors();
  const refused = (slip: (typeof slips)[number]): boolean => {
    const eol = src.text.indexOf('\n', slip.closer);
    return errors.some((e) => e.offset >= slip.opener && e.offset <= (eol === -1 ? src.text.length : eol + 1));
  };
  return slips.filter(refused).map((slip) => ({ file: src.file, ...src.offsetAt(slip.at), ...flowIndentWords(src.text, slip, (o) => src.offsetAt(o), false) }));
}

const MERGE_MESSAGE = 'invalid YAML: "<<" here is a YAML 1.1 merge key, which agent-replay does not read (in YAML 1.2 it is an ordinary key)';
const MERGE_FIX = 'write the keys out in place of the "<<" line; an alias may still stand for a whole value (message: *greeting)';

/**
 * The paths of the `<<` keys whose value is a mapping or a list (a YAML 1.1 merge, `<<: *base`),
 * each mapping visited once (an alias shares the anchor's object: said where it is written).
 */
function mergeKeys(data: unknown): PathSegment[][] {
  const out: PathSegment[][] = [];
  const seen = new Set<object>();
  const walk = (v: unknown, path: PathSegment[]): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    for (const [key, value] of Object.entries(v)) {
      if (key === '<<' && value !== null && typeof value === 'object') out.push([...path, key]);
      walk(value, [...path, key]);
    }
  };
  walk(data, []);
  return out;
}

/** The offset of a 1-based line and column in `text`. */
function offsetOf(text: string, pos: Position): number {
  let offset = 0;
  for (let line = 1; line < (pos.line ?? 1); line += 1) offset = text.indexOf('\n', offset) + 1;
  return offset + (pos.column ?? 1) - 1;
}

/**
 * Why a text is not read: the `yaml` document's better-worded syntax errors (with the document, for
 * what can still be checked), else js-yaml's reason.
 */
function refusalIssues(shown: string, text: string, refused: FastRefusal): { errors: ConfigIssue[]; partly: SourceFile | null } {
  const { reason, position } = refused;
  if (refused.tooDeep) {
    return { partly: null, errors: [{ file: shown, ...position, message: `invalid YAML: ${reason}`, fix: 'flatten the file: fixtures and config need a few levels of nesting, not hundreds' }] };
  }
  // The `yaml` document's words, unless the text nests deeper than js-yaml reads (refused here for
  // another reason first): the `yaml` package would recurse to its stack's edge on it, and say only
  // "Maximum call stack size exceeded". Brackets are counted outside double quotes, which is enough
  // to choose whose words to give.
  const src = deepJsonOffset(text, MAX_YAML_DEPTH) === null ? documentSource(shown, text) : null;
  if (src !== null && src.syntaxErrors().length > 0) {
    // Where the syntax check places a mistake on a line the parser said nothing of (a list item's
    // "-" the parser read past, to stop on a line below): the entry it is in was not read as written
    // either, so its schema complaints would only follow from the refusal (docs/configuration.md,
    // "How YAML is read"). On the parser's own lines (a second document, a number split by commas)
    // entriesAt already knows what is unsure.
    const errors = yamlSyntax().yamlSyntaxIssues(src);
    const parsers = new Set(src.syntaxErrors().map((e) => src.offsetAt(e.offset).line));
    const at = errors.flatMap((e) => (e.file === shown && e.line !== null && !parsers.has(e.line) ? [offsetOf(text, e)] : []));
    return { errors, partly: at.length === 0 ? src : { ...src, entriesAt: (path, problems = []) => src.entriesAt(path, [...at, ...problems]) } };
  }
  // What only js-yaml refuses: tags outside the schema, which `yaml` merely warns about.
  const fix = /tag/.test(reason)
    ? TAG_FIX
    : /^unidentified alias/.test(reason)
      ? 'a value that starts with * is an alias of a value marked &name above: put the value in quotes to keep it as text'
      : SYNTAX_FIX;
  // What the `yaml` document read of the rest is checked, js-yaml's place being a problem too.
  const at = refused.offset;
  const partly: SourceFile | null =
    src === null || at === undefined ? null : { ...src, entriesAt: (path, problems = []) => src.entriesAt(path, [at, ...problems]) };
  return { errors: [{ file: shown, ...position, message: `invalid YAML: ${reason}`, fix }], partly };
}

/** One issue at the first alias of a file whose aliases add more than MAX_ALIAS_VALUES values. */
function aliasBombIssue(src: SourceFile, added: number): ConfigIssue {
  const alias = src.firstAlias();
  const pos = alias ? src.offsetAt(alias.offset) : { line: null, column: null };
  const what =
    added === Infinity
      ? 'an alias refers to a collection that contains it'
      : `its aliases${alias ? ` (first: *${headOf(alias.source, 40)})` : ''} would repeat values more than ${MAX_ALIAS_VALUES} times`;
  return {
    file: src.file,
    ...pos,
    message: `refused: ${what}, as in a YAML "billion laughs" bomb`,
    fix: 'write the values out, or use anchors (&name) and aliases (*name) only to repeat a value a few times, not nested in each other',
  };
}
