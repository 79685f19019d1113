// Fixture files: one fixture per file, `{fixtures: [...]}`, or a bare list. Every problem is
// reported with its line; a fixture with a problem is left out, the others are still checked.


import * as z from 'zod';
import type { Assertion, Fixture, SingleAssertion } from '../types.js';
import { describeValue, flowYaml, quote, rangeCheckedAfter, REFUSED_AFTER, translateZodIssues, type ConfigIssue, type NumberRange } from './issues.js';
import { colonsLeftOutOf, colonsLeftOutOfIssues, type PathSegment, type SourceFile } from './yaml/index.js';
import { blockTextAtKeys, emptyItemAtKeys, itemFileRule, itemsOfFile, nextItemInside, soundItemsOfFile, splitNumbersOfOneItem, type ItemFileFindings } from './item-file.js';
import { isValidLabel, LABEL_RULE, labelFix, windowsNameIssue } from './labels.js';
import { checkRepeat, repeatSchema } from './repeat.js';
import { toExpectation, toolSchemas } from './tools.js';
import { regexCompileAdvice, regexMeaningNote, regexSlashesNote } from './regex-advice.js';
import { docsUrl } from '../version.js';
import { shownJson } from '../words.js';
import { onFirstUse } from '../patterns.js';
import { checkTextWarnings, commentedRepeatWarnings, commentOnlyFix, commentOnlyWarnings, emptyItemFix, keyed, labelMeant, trapFile, userTurnWarnings, type TrapFile, type TurnText } from './yaml-traps.js';

const ASSERTION_KINDS = ['contains', 'regex', 'judge', 'maxLatencyMs', 'toolCalled', 'toolNotCalled'] as const;
export const DEFAULT_THRESHOLD = 0.7;
/** A judge's threshold (a fixture's, a persona script's), checked after the schema: said out of range and of another type alike. */
export const THRESHOLD_RANGE: NumberRange = { min: 0, max: 1, words: 'a score between 0 and 1', example: DEFAULT_THRESHOLD };
export const THRESHOLD_FIX = `use ${THRESHOLD_RANGE.words}, e.g. threshold: ${String(DEFAULT_THRESHOLD)}`;
export const REGEX_FLAGS = 'dgimsuyv';
/** A latency budget (maxLatencyMs), checked after the schema: `maxLatencyMs: 2,5` is not told `maxLatencyMs: 2.5`. */
const MAX_LATENCY_RANGE: NumberRange = { min: 1, max: Number.MAX_SAFE_INTEGER, whole: true, words: 'a whole number of milliseconds above 0', example: 2000 };

/**
 * The checks a fixture's list of tool calls stands for, one per call, as written (`{ toolCalled: {
 * tool: find_order } }, ...`); the placeholders `a` and `b` when an entry names no tool.
 */
function listedCalls(kind: string, value: readonly unknown[]): string {
  const tools = value.map((v) => (typeof v === 'string' ? { tool: v } : v !== null && typeof v === 'object' && typeof (v as { tool?: unknown }).tool === 'string' ? (v as Record<string, unknown>) : null));
  if (tools.length === 0 || tools.some((t) => t === null)) return `{ ${kind}: { tool: a } }, { ${kind}: { tool: b } }`;
  // Each call's keys in the order written, the tool first; its input in flow style, as the docs write it.
  return (tools as Record<string, unknown>[]).map(({ tool, ...rest }) => flowYaml({ [kind]: { tool, ...rest } })).join(', ');
}

/**
 * The fixture schemas, built on first use: the common fixture is checked without them
 * (isPlainFixture), and a start should not pay for building them (docs/performance.md, "2026-12-07
 * (small hours): the session's figures").
 */
export const fixtureSchemas = onFirstUse(() => {
  const assertionSchema = z.strictObject({
    contains: z.string().optional(),
    regex: z.string().optional(),
    flags: z.string().optional(),
    judge: z.string().optional(),
    threshold: rangeCheckedAfter(z.number(), THRESHOLD_RANGE).optional(),
    maxLatencyMs: rangeCheckedAfter(z.number(), MAX_LATENCY_RANGE).optional(),
    // One call each (docs/traces.md, "Fixtures"): {tool, input?, match?}, as a script's expect entries.
    // A list is let through here and refused by checkAssertion, whose message says how to check several
    // calls; another value is told it must be a mapping, not "a mapping or a list" (REFUSED_AFTER).
    toolCalled: z.union([toolSchemas().toolExpectationSchema, z.array(z.unknown(), { error: REFUSED_AFTER })]).optional(),
    toolNotCalled: z.union([toolSchemas().toolExpectationSchema, z.array(z.unknown(), { error: REFUSED_AFTER })]).optional(),
  });

  const fixtureSchema = z.strictObject({
    label: z.string(),
    message: z.string(),
    persona: z.string().nullable().optional(),
    assert: z.union([assertionSchema, z.array(assertionSchema)]).nullable().optional(),
    repeat: repeatSchema().nullable().optional(),
  });

  return { assertionSchema, fixtureSchema };
});

type FixtureSchemas = ReturnType<typeof fixtureSchemas>;

const FIXTURE_FILE = itemFileRule({
  key: 'fixtures',
  item: { noun: 'fixture', keys: () => Object.keys(fixtureSchemas().fixtureSchema.shape) },
  emptyFile: { message: 'the file is empty: it defines no fixture', fix: 'add a fixture (label: ..., message: ...) or delete the file' },
  emptyList: {
    message: 'fixtures is an empty list: the file defines no fixture',
    fix: 'add items such as "- { label: greeting, message: hello }" or delete the file',
  },
  neither: (found) => ({
    message: `a fixture file must hold a fixture (label, message, ...) or a list under "fixtures:", found ${found}`,
    fix: 'write "label: my-fixture" and "message: ..." on separate lines, or "fixtures:" followed by a list',
  }),
});

export interface FixtureFileResult extends ItemFileFindings {
  fixtures: Fixture[];
}

const PLAIN_FIXTURE_KEYS = new Set(['label', 'message', 'persona', 'assert']);
const TEXT_ASSERTION_KEYS = new Set(['contains', 'regex', 'flags', 'judge']);
const NUMBER_ASSERTION_KEYS = new Set(['threshold', 'maxLatencyMs']);

/**
 * True only for a value that fixtureSchema accepts as it is: the keys label and message (text),
 * persona (text or empty) and assert (empty, or one mapping of text and finite number keys), and
 * no other. Anything else (a list of checks, a tool check, repeat, an unknown key, a wrong type) is
 * false, and the schema decides. Saves the schema's work on thousands of fixtures.
 */
export function isPlainFixture(raw: Record<string, unknown>): boolean {
  if (typeof raw.label !== 'string' || typeof raw.message !== 'string') return false;
  // for...in, not Object.keys / Object.entries: no array per fixture (the loader's garbage, at
  // thousands of fixtures). A parsed mapping's prototype is Object.prototype, which has no
  // enumerable keys, so for...in sees its own keys only; `assert`'s prototype is checked below.
  for (const key in raw) {
    if (!PLAIN_FIXTURE_KEYS.has(key)) return false;
  }
  if (raw.persona !== undefined && raw.persona !== null && typeof raw.persona !== 'string') return false;
  const a = raw.assert;
  if (a === undefined || a === null) return true;
  if (typeof a !== 'object' || Array.isArray(a) || Object.getPrototypeOf(a) !== Object.prototype) return false;
  const checks = a as Record<string, unknown>;
  for (const key in checks) {
    const value = checks[key];
    if (TEXT_ASSERTION_KEYS.has(key) ? typeof value !== 'string' : !NUMBER_ASSERTION_KEYS.has(key) || !Number.isFinite(value)) return false;
  }
  return true;
}

/**
 * Checks one parsed fixture file. `data` is the one YAML reading of it (see suite/yaml); `partly`: the
 * syntax errors of a file YAML could not read whole, and only the items they leave as written are
 * checked (soundItemsOfFile).
 */
export function checkFixtureFile(src: SourceFile, data: unknown, partly: readonly ConfigIssue[] | null = null): FixtureFileResult {
  const result: FixtureFileResult = { fixtures: [], errors: [], warnings: [], labels: [], labelsMeant: [] };
  const items = partly !== null ? soundItemsOfFile(src, FIXTURE_FILE) : itemsOfFile(src, data, FIXTURE_FILE, result);
  const file = trapFile(src);
  for (const item of items) checkItem(file, item.data, item.path, result);
  // `message: |` with its text at the key's column: one error, not the empty value's and the text's
  // (item-file.ts); also in the items a syntax error leaves as written, said in the same run as it.
  blockTextAtKeys(src, items, result.errors);
  // `fixtures:`, `-`, then the item's keys at the "-"'s column: one error, not the empty item's and
  // each key's (item-file.ts); also above a syntax error, said in the same run as it.
  emptyItemAtKeys(src, items, result.errors, partly === null ? null : { rule: FIXTURE_FILE, syntax: partly });
  if (partly !== null) {
    const split = splitNumbersOfOneItem(src, FIXTURE_FILE, (part) => {
      const scratch: FixtureFileResult = { fixtures: [], errors: [], warnings: [], labels: [], labelsMeant: [] };
      checkItem(file, part, [], scratch);
      return scratch.errors;
    });
    for (const issue of split) result.errors.push(issue);
  }
  return result;
}

function checkItem(file: TrapFile, data: unknown, path: PathSegment[], result: FixtureFileResult): void {
  const { src } = file;
  const where = src.valueAt(path);
  const name = (): string => (path.length === 0 ? 'the fixture' : `fixture ${path.map((p) => (typeof p === 'number' ? `#${p + 1}` : '')).join('')}`);
  const errorsBefore = result.errors.length;
  const err = (p: PathSegment[], message: string, fix: string): void => {
    const pos = src.valueAt(p);
    result.errors.push({ file: src.file, line: pos.line, column: pos.column, message, fix });
  };

  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    // `- # a refund fixture`: a fixture commented out but for its "-" is told so (yaml-traps.ts).
    const fix = 'write it as { label: my-fixture, message: "..." }';
    err(path, `${name()} must be a mapping with label and message, found ${describeValue(data)}`, data === null ? emptyItemFix(file, path, name(), fix) : fix);
    // `- label a`, `  message hi`: its keys each written without the ":", one text to YAML.
    if (typeof data === 'string') colonsLeftOutOf(result.errors[result.errors.length - 1] as ConfigIssue, src, data, FIXTURE_FILE.item.keys());
    return;
  }
  const raw = data as Record<string, unknown>;
  const labelText = typeof raw.label === 'string' ? raw.label : null;
  // Said before each message about this fixture: made when there is one, not for every fixture.
  const prefix = (): string => (labelText !== null ? `fixture ${quote(labelText)}: ` : path.length ? `${name()}: ` : '');

  // The common fixture (label, message, perhaps a persona and one text or number assertion) is
  // checked without the schema, which it is certain to pass (isPlainFixture); the schema reads the rest.
  const parsed = isPlainFixture(raw) ? ({ success: true, data: raw as z.infer<FixtureSchemas['fixtureSchema']> } as const) : fixtureSchemas().fixtureSchema.safeParse(raw);
  if (!parsed.success) {
    // A file read as one fixture may be a misspelt list (`fixture:` for `fixtures:`).
    const suggestAlso = path.length === 0 ? ['fixtures'] : undefined;
    const ctx = { src, schema: fixtureSchemas().fixtureSchema, data: raw, base: path, prefix: prefix(), suggestAlso };
    const issues = translateZodIssues(ctx, parsed.error.issues);
    const assertAt = typeof raw.assert === 'string' ? src.valueAt([...path, 'assert']) : null;
    for (const issue of issues) {
      // `assert: contains 30 days`: a check written as text; the fix writes it as the mapping it
      // meant (docs/fixtures.md, "Assertions").
      if (assertAt !== null && issue.line === assertAt.line && issue.column === assertAt.column) issue.fix = assertTextFix(raw.assert as string);
    }
    // `assert:`, then `  contains x` and `  maxLatencyMs 5` (or `- contains x`): a check's keys each
    // written without the ":", one text to YAML, said with the lines as they should read.
    colonsLeftOutOfIssues(ctx, parsed.error.issues, issues, ONE_CHECK_EACH);
    commentOnlyFix(file, path, 'message', raw.message, issues);
    const meant = commentOnlyFix(file, path, 'label', raw.label, issues, 'label', labelMeant);
    if (meant !== null) result.labelsMeant.push(meant);
    // `- label: next` written inside assert's list: the next fixture, said so (item-file.ts).
    nextItemInside(src, FIXTURE_FILE, raw, path, prefix(), issues);
    result.errors.push(...issues);
  }

  if (labelText !== null) {
    const labelPos = src.valueAt([...path, 'label']);
    const before = result.errors.length;
    if (!isValidLabel(labelText)) {
      err(
        [...path, 'label'],
        `label ${quote(labelText, 100)} is not valid: a label is ${LABEL_RULE} (it names the baseline file)`,
        labelFix(labelText),
      );
    } else {
      const windows = windowsNameIssue(labelText);
      if (windows !== null) err([...path, 'label'], windows.message, windows.fix);
    }
    const issue = result.errors[before];
    const seen = { label: labelText, file: src.file, line: labelPos.line, column: labelPos.column };
    result.labels.push(issue === undefined ? seen : { ...seen, issue });
  }
  if (typeof raw.message === 'string' && raw.message.trim() === '') {
    err([...path, 'message'], `${prefix()}message is empty`, 'write the user message to send to the agent');
  }
  userTurnWarnings(file, path, 'message', raw.message, MESSAGE_TURN, prefix, result.warnings);
  // `persona: # impatient customer`, `assert: # contains "30 days"`: empty, which the schema takes,
  // said as YAML reads it (yaml-traps.ts). A check written as a comment leaves the fixture a probe,
  // which passes whatever the reply: the warning says so (docs/fixtures.md, "Text YAML reads otherwise");
  // `repeat: # 3` leaves it config.yml's repeat, or one attempt.
  commentOnlyWarnings(file, path, 'persona', raw.persona, 'persona', 'the fixture has no persona tag', prefix, result.warnings);
  commentOnlyWarnings(file, path, 'assert', raw.assert, 'assert', 'the fixture has no check, so it passes as a probe whatever the reply', prefix, result.warnings, commentedAssertFix);
  commentedRepeatWarnings(file, path, raw.repeat, 'fixture', prefix, result.warnings);

  let assertion: Assertion | null = null;
  const a = raw.assert;
  if (a !== null && typeof a === 'object' && !Array.isArray(a)) {
    assertion = checkAssertion(src, a as Record<string, unknown>, [...path, 'assert'], prefix, result);
  } else if (Array.isArray(a)) {
    assertion = checkAssertionList(src, a, [...path, 'assert'], prefix, result, err);
  }

  const repeat = raw.repeat === undefined || raw.repeat === null ? null : checkRepeat(raw.repeat, [...path, 'repeat'], prefix(), err);

  if (result.errors.length === errorsBefore && parsed.success) {
    result.fixtures.push({
      label: parsed.data.label,
      message: parsed.data.message,
      persona: parsed.data.persona ?? null,
      assertion,
      file: src.file,
      line: where.line ?? 1,
      ...(repeat !== null ? { repeat } : {}),
    });
  }
}

/** An assert mapping is one check (docs/fixtures.md, "Assertions"): lines for several are written as a list. */
const ONE_CHECK_EACH = { keys: ASSERTION_KINDS, noun: 'check' };

/** A message YAML reads otherwise than it looks (yaml-traps.ts): cut at a ` #`, or in curly quotes. */
const MESSAGE_TURN: TurnText = { name: 'the message', effect: 'the agent is sent', written: keyed('message') };

/**
 * `assert: [{contains: x}, {maxLatencyMs: 2000}]` (docs/fixtures.md, "Assertions"): checks that
 * must all pass, each one checked as a single assertion is. At most one judge assertion (the record
 * keeps one judge's score, and judge reuse one judge's result).
 */
function checkAssertionList(
  src: SourceFile,
  list: unknown[],
  path: PathSegment[],
  prefix: () => string,
  result: FixtureFileResult,
  err: (p: PathSegment[], message: string, fix: string) => void,
): Assertion | null {
  if (list.length === 0) {
    err(path, `${prefix()}assert is an empty list`, 'list at least one check, e.g. assert: [{ contains: "30 days" }], or remove assert to make the fixture a probe');
    return null;
  }
  const checks: SingleAssertion[] = [];
  let ok = true;
  list.forEach((item, i) => {
    // A value that is not a mapping is reported by the schema, with its position.
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      ok = false;
      return;
    }
    const one = checkAssertion(src, item as Record<string, unknown>, [...path, i], () => `${prefix()}check #${i + 1}: `, result, i);
    if (one === null || one.kind === 'all') ok = false;
    else checks.push(one);
  });
  const judges = list.flatMap((item, i) => (item !== null && typeof item === 'object' && 'judge' in item ? [i] : []));
  if (judges.length > 1) {
    err(
      [...path, judges[1] as number],
      `${prefix()}the list has ${judges.length} judge assertions (checks ${judges.map((i) => `#${i + 1}`).join(', ')}): a fixture has at most one`,
      'keep one judge check and put the other criteria into it, or split the fixture in two with different labels',
    );
    return null;
  }
  return ok ? { kind: 'all', assertions: checks } : null;
}

function checkAssertion(
  src: SourceFile,
  a: Record<string, unknown>,
  path: PathSegment[],
  /** Made only for a message (checkItem's prefix). */
  prefix: () => string,
  result: FixtureFileResult,
  /** Where `a` is in its assertion list, if it is in one. */
  index: number | null = null,
): Assertion | null {
  const at = (key: string | null) => src.keyAt(path, key ?? '') ?? src.valueAt(path);
  const err = (key: string | null, message: string, fix: string): void => {
    result.errors.push({ file: src.file, ...at(key), message: prefix() + message, fix });
  };
  // A number out of its range, said at the number, as the schema says a value's type: one split by
  // a comma (`maxLatencyMs: 0,5`, `threshold: 2,5`) is then said once, as the split number, not also
  // as the part YAML read, at its key (index.ts, oneSplitNumber).
  const valueErr = (key: string, message: string, fix: string): void => {
    result.errors.push({ file: src.file, ...src.valueAt([...path, key]), message: prefix() + message, fix });
  };
  const kinds = ASSERTION_KINDS.filter((k) => a[k] !== undefined && a[k] !== null);

  if (kinds.length === 0) {
    // An unknown key (`equals: ...`) was already reported by the schema, with the allowed keys.
    const unknownKeys = Object.keys(a).some((k) => !Object.hasOwn(fixtureSchemas().assertionSchema.shape, k));
    if (!unknownKeys) {
      err(
        null,
        `the assertion has no known kind: use one of ${ASSERTION_KINDS.join(', ')}`,
        'write e.g. assert: { contains: "30 days" }, or remove assert to make the fixture a probe',
      );
    }
    return null;
  }
  if (kinds.length > 1) {
    err(
      kinds[1] as string,
      `the assertion has ${kinds.length} kinds (${kinds.join(' and ')}): a fixture has one assertion`,
      `keep one of ${kinds.join(', ')}, or list them all to check each: assert: [{ ${kinds[0]}: ... }, { ${kinds[1]}: ... }]`,
    );
    return null;
  }
  const kind = kinds[0] as (typeof ASSERTION_KINDS)[number];
  if (a.flags !== undefined && kind !== 'regex') {
    err('flags', `flags only apply to a regex assertion, not to ${kind}`, 'remove flags');
  }
  if (a.threshold !== undefined && kind !== 'judge') {
    err('threshold', `threshold only applies to a judge assertion, not to ${kind}`, 'remove threshold');
  }

  if (kind === 'toolCalled' || kind === 'toolNotCalled') {
    const value = a[kind];
    if (Array.isArray(value)) {
      err(
        kind,
        `${kind} names one call in a fixture, found a list`,
        // In a list of checks, the others stay: the calls' checks go in this one's place.
        index === null
          ? `write each call as its own check: assert: [${listedCalls(kind, value)}]`
          : `write each call as its own check, in the list in place of check #${index + 1}: ${listedCalls(kind, value)} (the other checks stay as they are)`,
      );
      return null;
    }
    // A missing tool, an unknown key, a bad match mode: reported by the schema, with their lines.
    const parsed = toolSchemas().toolExpectationSchema.safeParse(value);
    return parsed.success ? { kind, ...toExpectation(parsed.data) } : null;
  }
  if (kind === 'maxLatencyMs') {
    const ms = a.maxLatencyMs;
    if (typeof ms !== 'number') return null; // wrong type: reported by the schema
    if (!Number.isInteger(ms) || ms < 1) {
      valueErr('maxLatencyMs', `maxLatencyMs ${String(ms)} is not ${MAX_LATENCY_RANGE.words}`, `write the budget in whole ms, e.g. maxLatencyMs: ${String(MAX_LATENCY_RANGE.example)}`);
      return null;
    }
    return { kind: 'maxLatency', ms };
  }
  const value = a[kind];
  if (typeof value !== 'string') return null; // wrong type: reported by the schema
  let ok = true;
  if (value === '') {
    err(kind, `the ${kind} assertion is empty`, kind === 'judge' ? 'write the criterion the reply must meet' : `write the text the reply must ${kind === 'regex' ? 'match' : 'contain'}`);
    ok = false;
  }

  // A judge's criterion is read by its meaning: curly quotes around it change nothing.
  if (kind !== 'judge') checkTextWarnings(src, path, kind, value, prefix, result.warnings);
  if (kind === 'contains') return ok ? { kind, value } : null;

  if (kind === 'regex') {
    const flags = a.flags === undefined || a.flags === null ? '' : a.flags;
    if (typeof flags !== 'string') return null;
    const flagProblem = checkFlags(flags);
    if (flagProblem) {
      err('flags', `regex flags ${quote(flags)} ${flagProblem}`, `use only the flags ${REGEX_FLAGS.split('').join(' ')}, each at most once (u and v not together), e.g. flags: "i"`);
      return null;
    }
    if (!ok) return null;
    let note: { message: string; fix: string } | null;
    try {
      new RegExp(value, flags);
      note = regexSlashesNote(value, flags) ?? regexMeaningNote(value, flags);
    } catch (e) {
      note = regexCompileAdvice(value, flags, (e as Error).message);
    }
    if (note !== null) result.warnings.push({ file: src.file, ...at('regex'), message: prefix() + note.message, fix: note.fix });
    return { kind, pattern: value, flags };
  }

  const threshold = a.threshold === undefined || a.threshold === null ? DEFAULT_THRESHOLD : a.threshold;
  if (typeof threshold !== 'number') return null;
  if (!(threshold >= 0 && threshold <= 1)) {
    valueErr('threshold', `threshold ${String(threshold)} is outside [0, 1]`, THRESHOLD_FIX);
    return null;
  }
  return ok ? { kind: 'judge', criterion: value, threshold } : null;
}

export function checkFlags(flags: string): string | null {
  const seen = new Set<string>();
  for (const f of flags) {
    if (!REGEX_FLAGS.includes(f)) return `contain ${quote(f)}, which is not a regex flag`;
    if (seen.has(f)) return `repeat ${quote(f)}`;
    seen.add(f);
  }
  if (seen.has('u') && seen.has('v')) return 'combine u and v, which JavaScript does not allow';
  return null;
}

/** The check `text` names as a mapping (`contains 30 days`: `assert: { contains: "30 days" }`), or null when it starts with no kind. */
function namedCheck(text: string): string | null {
  const m = /^(contains|regex|judge|maxLatencyMs)\b\s*[:=]?\s*(.*)$/.exec(text.trim());
  if (m === null || m[2] === '') return null;
  const [, kind = '', rest = ''] = m;
  const value = kind === 'maxLatencyMs' && /^\d+$/.test(rest) ? rest : shownJson(rest.replace(/^(["'])(.*)\1$/, '$2'));
  return `assert: { ${kind}: ${value} }`;
}

/** The fix for `assert: <text>`: the check as a mapping, with the kind the text starts with when it names one. */
function assertTextFix(text: string): string {
  const check = namedCheck(text);
  return check === null
    ? `write the check as a mapping, e.g. assert: { contains: ${shownJson(text.trim())} } (the reply contains that text); the kinds are in ${docsUrl('fixtures.md', 'Assertions')}`
    : `write the check as a mapping: ${check}`;
}

/** The fix for `assert: # contains "30 days"` when the comment is the check meant: the check it names, as a mapping; else a check's form. */
function commentedAssertFix(comment: string): string {
  const check = namedCheck(comment.replace(/^#+/, ''));
  return check === null ? `write the check after assert:, e.g. assert: { contains: "30 days" }` : `write the check as a mapping if it is the check meant (${check})`;
}
