// Persona script files (docs/personas.md#the-script-format): one script per file, `{personas: [...]}`, or a bare
// list. Checked like fixture files: every problem with its line, a script with a problem is left
// out, the others are still checked.

import * as z from 'zod';
import { type Mock, type PersonaExpect, type PersonaScript, type ReplyExpectation, type ReplyTurn } from '../types.js';
import { checkFlags, DEFAULT_THRESHOLD, REGEX_FLAGS, THRESHOLD_FIX, THRESHOLD_RANGE } from './fixtures.js';
import { toExpectation, toolSchemas } from './tools.js';
import { describeValue, lineOf, quote, rangeCheckedAfter, suggest, translateZodIssues, type ConfigIssue } from './issues.js';
import { colonsLeftOutOf, colonsLeftOutOfIssues, type PathSegment, type SourceFile } from './yaml/index.js';
import { blockTextAtKeys, emptyItemAtKeys, itemFileRule, itemsOfFile, nextItemInside, soundItemsOfFile, splitNumbersOfOneItem, type ItemFileFindings } from './item-file.js';
import { isValidLabel, LABEL_RULE, labelFix, windowsNameIssue } from './labels.js';
import { COMPILE_FIX, inlineFlagsFix, regexSlashesNote } from './regex-advice.js';
import { checkRepeat, repeatSchema } from './repeat.js';
import { onFirstUse } from '../patterns.js';
import { checkTextWarnings, commentCutWarnings, commentedKeysFix, commentedRepeatWarnings, commentOnlyFix, commentOnlyWarnings, emptyItemFix, keyed, labelMeant, listItemAt, trapFile, writeAfter, userTurnWarnings, type CommentedValue, type TrapFile, type TurnText } from './yaml-traps.js';
import { isSplitNumberMessage, splitNumberAs, splitNumberAt, splitNumberWords, splitWritesKeyTwice } from './yaml/split-number.js';

const DEFAULT_MAX_TURNS = 20;
/** The most message turns a simulated user may take (`user.maxTurns`). */
const MAX_SIMULATED_TURNS = 20;

const TURN_RULE = 'must be a turn number (0 is the welcome turn), last, or any';
const SIMULATED_TURNS_RULE = `must be a whole number of message turns from 1 to ${MAX_SIMULATED_TURNS}`;

/**
 * The script schemas, built on first use: a suite without persona files never reads them, and a
 * start should not pay for building them (docs/performance.md, "2026-12-07 (small hours): the
 * session's figures").
 */
const personaSchemas = onFirstUse(() => {
  const { jsonValue, matchMode, toolExpectationSchema } = toolSchemas();
  const mockSchema = z.strictObject({ tool: z.string().min(1), input: jsonValue.optional(), match: matchMode.optional(), output: jsonValue.optional() });

  const replyTurn = z.custom<ReplyTurn>((v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0) || v === 'last' || v === 'any', { error: TURN_RULE });
  const replyExpectationSchema = z.strictObject({ contains: z.string().optional(), regex: z.string().optional(), flags: z.string().optional(), turn: replyTurn.optional() });

  const expectSchema = z.strictObject({
    conversations: z.array(z.string().min(1)).nullable().optional(),
    terminal: z.enum(['finish', 'handoff', 'switch']).nullable().optional(),
    toolCalled: z.array(toolExpectationSchema).nullable().optional(),
    toolNotCalled: z.array(toolExpectationSchema).nullable().optional(),
    criteria: z.array(z.string().min(1)).nullable().optional(),
    reply: z.array(replyExpectationSchema).nullable().optional(),
    // A budget in whole milliseconds for every message turn (docs/latency.md).
    maxTurnLatencyMs: z.number().int().min(1).nullable().optional(),
  });

  // A simulated user (docs/personas.md, "Simulated users"): a model plays the user towards the goal.
  const userSchema = z.strictObject({
    goal: z.string(),
    instructions: z.string().nullable().optional(),
    maxTurns: z.number({ error: SIMULATED_TURNS_RULE }).int({ error: SIMULATED_TURNS_RULE }).min(1, { error: SIMULATED_TURNS_RULE }).max(MAX_SIMULATED_TURNS, { error: SIMULATED_TURNS_RULE }),
  });

  const personaSchema = z.strictObject({
    label: z.string(),
    persona: z.string().nullable().optional(),
    opening: z.string(),
    followUps: z.array(z.string()).nullable().optional(),
    maxTurns: z.number().int().min(1).optional(),
    threshold: rangeCheckedAfter(z.number(), THRESHOLD_RANGE).optional(),
    mocks: z.array(mockSchema).nullable().optional(),
    unmockedTools: z.enum(['error', 'allow']).optional(),
    expect: expectSchema,
    repeat: repeatSchema().nullable().optional(),
    user: userSchema.optional(),
  });

  /** With a simulated user the opening is optional: the simulator then writes message 1 too. */
  const simulatedPersonaSchema = personaSchema.extend({ opening: z.string().optional() });

  return { mockSchema, replyExpectationSchema, expectSchema, personaSchema, simulatedPersonaSchema };
});

type PersonaSchemas = ReturnType<typeof personaSchemas>;

const PERSONA_FILE = itemFileRule({
  key: 'personas',
  item: { noun: 'persona script', keys: () => Object.keys(personaSchemas().personaSchema.shape) },
  emptyFile: { message: 'the file is empty: it defines no persona script', fix: 'add a script (label, opening, expect) or delete the file' },
  emptyList: { message: 'personas is an empty list: the file defines no persona script', fix: 'add scripts (label, opening, expect) or delete the file' },
  neither: (found) => ({
    message: `a persona file must hold a script (label, opening, expect, ...) or a list under "personas:", found ${found}`,
    fix: 'write "label: my-script", "opening: ..." and an "expect:" block on separate lines, or "personas:" followed by a list',
  }),
});

const EXPECTATIONS = ['conversations', 'terminal', 'toolCalled', 'toolNotCalled', 'criteria', 'reply', 'maxTurnLatencyMs'] as const;

export interface PersonaFileResult extends ItemFileFindings {
  personas: PersonaScript[];
}

/**
 * Checks one parsed persona file. `data` is the one YAML reading of it (see suite/yaml); `partly`: the
 * syntax errors of a file YAML could not read whole, and only the items they leave as written are
 * checked (soundItemsOfFile).
 */
export function checkPersonaFile(src: SourceFile, data: unknown, partly: readonly ConfigIssue[] | null = null): PersonaFileResult {
  const result: PersonaFileResult = { personas: [], errors: [], warnings: [], labels: [], labelsMeant: [] };
  const items = partly !== null ? soundItemsOfFile(src, PERSONA_FILE) : itemsOfFile(src, data, PERSONA_FILE, result);
  const file = trapFile(src);
  for (const item of items) checkScript(file, item.data, item.path, result);
  // `message: |` with its text at the key's column: one error, not the empty value's and the text's
  // (item-file.ts); also in the items a syntax error leaves as written, said in the same run as it.
  blockTextAtKeys(src, items, result.errors);
  // `fixtures:`, `-`, then the item's keys at the "-"'s column: one error, not the empty item's and
  // each key's (item-file.ts); also above a syntax error, said in the same run as it.
  emptyItemAtKeys(src, items, result.errors, partly === null ? null : { rule: PERSONA_FILE, syntax: partly });
  if (partly !== null) {
    const split = splitNumbersOfOneItem(src, PERSONA_FILE, (part) => {
      const scratch: PersonaFileResult = { personas: [], errors: [], warnings: [], labels: [], labelsMeant: [] };
      // A reply's turn is told the turns of the script, counted from followUps and user, which a
      // syntax error may have left out or swallowed: its split number keeps the syntax check's words.
      const expect = part.expect;
      const script = expect !== null && typeof expect === 'object' && !Array.isArray(expect) ? { ...part, expect: { ...expect, reply: undefined } } : part;
      checkScript(file, script, [], scratch);
      return scratch.errors;
    });
    for (const issue of split) result.errors.push(issue);
  }
  return result;
}

function checkScript(file: TrapFile, data: unknown, path: PathSegment[], result: PersonaFileResult): void {
  const { src } = file;
  const where = src.valueAt(path);
  const name = path.length === 0 ? 'the script' : `persona script #${Number(path.at(-1)) + 1}`;
  const errorsBefore = result.errors.length;
  const err = (p: PathSegment[], message: string, fix: string): void => {
    result.errors.push({ file: src.file, ...src.valueAt(p), message, fix });
  };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    // `- # a refund script`: a script commented out but for its "-" is told so (yaml-traps.ts).
    const fix = 'write it as { label: my-script, opening: "...", expect: { ... } }';
    err(path, `${name} must be a mapping with label, opening and expect, found ${describeValue(data)}`, data === null ? emptyItemFix(file, path, name, fix) : fix);
    // `- label a`, `  message hi`: its keys each written without the ":", one text to YAML.
    if (typeof data === 'string') colonsLeftOutOf(result.errors[result.errors.length - 1] as ConfigIssue, src, data, PERSONA_FILE.item.keys());
    return;
  }
  const raw = data as Record<string, unknown>;
  const labelText = typeof raw.label === 'string' ? raw.label : null;
  const prefix = labelText !== null ? `persona script ${quote(labelText)}: ` : `${name}: `;

  // A misspelt `user` (`usr:`) still means a simulated user, whose opening is optional: the
  // misspelling is the one problem, not a missing opening as well (docs/personas.md, "Simulated users").
  const { personaSchema, simulatedPersonaSchema } = personaSchemas();
  const allowedKeys = Object.keys(personaSchema.shape);
  const simulated = raw.user !== undefined || Object.keys(raw).some((k) => !allowedKeys.includes(k) && suggest(k, allowedKeys) === 'user');
  const schema = simulated ? simulatedPersonaSchema : personaSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // A file read as one script may be a misspelt list (`personass:` for `personas:`).
    const suggestAlso = path.length === 0 ? ['personas'] : undefined;
    const ctx = { src, schema, data: raw, base: path, prefix, suggestAlso };
    const issues = translateZodIssues(ctx, parsed.error.issues);
    // `expect:`, then `  terminal finish` and `  maxTurnLatencyMs 3000`: its keys each written without the ":", one text to YAML.
    colonsLeftOutOfIssues(ctx, parsed.error.issues, issues);
    emptyTurnFixes(file, raw, path, issues, result.labelsMeant);
    // `- label: next` written inside followUps' list: the next script, said so (item-file.ts).
    nextItemInside(src, PERSONA_FILE, raw, path, prefix, issues);
    result.errors.push(...issues);
  }
  if (labelText !== null) {
    const before = result.errors.length;
    if (!isValidLabel(labelText)) {
      err([...path, 'label'], `label ${quote(labelText, 100)} is not valid: a label is ${LABEL_RULE} (it names the baseline file)`, labelFix(labelText));
    } else {
      const windows = windowsNameIssue(labelText);
      if (windows !== null) err([...path, 'label'], windows.message, windows.fix);
    }
    const issue = result.errors[before];
    result.labels.push({ label: labelText, file: src.file, ...src.valueAt([...path, 'label']), ...(issue === undefined ? {} : { issue }) });
  }
  if (typeof raw.opening === 'string' && raw.opening.trim() === '') {
    err([...path, 'opening'], `${prefix}opening is empty`, 'write the first user message of the conversation');
  }
  if (Array.isArray(raw.followUps)) {
    raw.followUps.forEach((f, i) => {
      if (typeof f === 'string' && f.trim() === '') err([...path, 'followUps', i], `${prefix}follow-up #${i + 1} is empty`, 'write the user message, or remove the entry');
    });
  }
  turnWarnings(file, raw, path, prefix, result.warnings);
  checkThreshold(raw.threshold, [...path, 'threshold'], prefix, err);
  checkSimulated(raw, path, prefix, err);
  if (!simulated) checkTurns(raw, path, prefix, err);
  checkExpectations(file, raw.expect, [...path, 'expect'], prefix, err);
  checkReplies(src, raw, path, prefix, err, result);
  const repeat = checkRepeat(raw.repeat, [...path, 'repeat'], prefix, err);

  if (result.errors.length === errorsBefore && parsed.success) {
    const p = parsed.data;
    const user = p.user === undefined ? null : { goal: p.user.goal, instructions: p.user.instructions ?? null, maxTurns: p.user.maxTurns };
    result.personas.push({
      label: p.label,
      file: src.file,
      line: where.line ?? 1,
      ...(repeat !== null ? { repeat } : {}),
      persona: p.persona ?? null,
      opening: p.opening ?? null,
      followUps: p.followUps ?? [],
      maxTurns: user?.maxTurns ?? p.maxTurns ?? DEFAULT_MAX_TURNS,
      ...(user !== null ? { user } : {}),
      threshold: p.threshold ?? DEFAULT_THRESHOLD,
      mocks: (p.mocks ?? []).map(toMock),
      ...(p.unmockedTools !== undefined ? { unmockedTools: p.unmockedTools } : {}),
      expect: toExpect(p.expect),
    });
  }
}

type Err = (p: PathSegment[], message: string, fix: string) => void;

const OPENING_TURN: TurnText = { name: 'the opening', effect: 'the agent is sent', written: keyed('opening') };
const GOAL_TEXT: TurnText = { name: 'user.goal', effect: 'the simulator is given the goal', written: keyed('goal') };
const INSTRUCTIONS_TEXT: TurnText = { name: 'user.instructions', effect: 'the simulator is given the instructions', written: keyed('instructions') };

/** Each key of expect, which the schema takes empty (none), with a value for it, for the fix of one YAML read as a comment alone. */
const EXPECT_EXAMPLES: Record<string, string> = {
  conversations: '[refunds]',
  terminal: 'finish',
  toolCalled: '[{ tool: find_order }]',
  toolNotCalled: '[{ tool: issue_refund }]',
  criteria: '["The agent apologises"]',
  reply: '[{ contains: "refund" }]',
  maxTurnLatencyMs: '5000',
};

/** A simulated user's mapping (`user:`), or null. */
function userOf(raw: Record<string, unknown>): Record<string, unknown> | null {
  const user = raw.user;
  return user !== null && typeof user === 'object' && !Array.isArray(user) ? (user as Record<string, unknown>) : null;
}

/**
 * The user turns YAML reads otherwise than they look (yaml-traps.ts): cut at a ` #`, or in curly
 * quotes; a simulated user's goal and instructions cut at a ` #`.
 */
function turnWarnings(file: TrapFile, raw: Record<string, unknown>, path: PathSegment[], prefix: string, warnings: ConfigIssue[]): void {
  const said = (): string => prefix;
  userTurnWarnings(file, path, 'opening', raw.opening, OPENING_TURN, said, warnings);
  // `persona: # impatient customer`: no persona tag, which the schema takes.
  commentOnlyWarnings(file, path, 'persona', raw.persona, 'persona', 'the script has no persona tag', said, warnings);
  // `followUps: # ...`, `mocks: # ...`, `repeat: # 3`, `criteria: # ...`: none, which the schema takes.
  commentOnlyWarnings(file, path, 'followUps', raw.followUps, 'followUps', 'the script sends the opening alone', said, warnings, writeAfter('followUps', '["Where is my order?"]'));
  commentOnlyWarnings(file, path, 'mocks', raw.mocks, 'mocks', 'no tool is mocked', said, warnings, writeAfter('mocks', '[{ tool: find_order, output: { status: shipped } }]'));
  commentedRepeatWarnings(file, path, raw.repeat, 'script', said, warnings);
  const e = raw.expect;
  if (e !== null && typeof e === 'object' && !Array.isArray(e)) {
    for (const [key, example] of Object.entries(EXPECT_EXAMPLES)) {
      commentOnlyWarnings(file, [...path, 'expect'], key, (e as Record<string, unknown>)[key], `expect.${key}`, 'it checks nothing', said, warnings, writeAfter(key, example));
    }
  }
  const user = userOf(raw);
  if (user !== null) {
    const at = [...path, 'user'];
    commentCutWarnings(file, at, 'goal', user.goal, GOAL_TEXT, said, warnings);
    commentCutWarnings(file, at, 'instructions', user.instructions, INSTRUCTIONS_TEXT, said, warnings);
    // `instructions: # be brief`: none, which the schema takes (a goal so is an error, emptyTurnFixes).
    commentOnlyWarnings(file, at, 'instructions', user.instructions, 'user.instructions', 'the simulator is given no instructions', said, warnings);
  }
  if (!Array.isArray(raw.followUps)) return;
  const followUps = [...path, 'followUps'];
  raw.followUps.forEach((f, i) => userTurnWarnings(file, followUps, i, f, { name: `follow-up #${i + 1}`, effect: 'the agent is sent', written: listItemAt(file.src, followUps, i) }, said, warnings));
}

/**
 * The schema's `found an empty value (null)` for a text YAML read as a comment alone (`opening: #42`,
 * `goal: # a refund`, a follow-up `- # ask about refunds`, an item of expect's criteria or
 * conversations) is told why, and to quote it (yaml-traps.ts).
 */
function emptyTurnFixes(file: TrapFile, raw: Record<string, unknown>, path: PathSegment[], issues: ConfigIssue[], labelsMeant: CommentedValue[]): void {
  commentOnlyFix(file, path, 'opening', raw.opening, issues);
  const meant = commentOnlyFix(file, path, 'label', raw.label, issues, 'label', labelMeant);
  if (meant !== null) labelsMeant.push(meant);
  const user = userOf(raw);
  if (user !== null) commentOnlyFix(file, [...path, 'user'], 'goal', user.goal, issues);
  if (Array.isArray(raw.followUps)) {
    const followUps = [...path, 'followUps'];
    raw.followUps.forEach((f, i) => commentOnlyFix(file, followUps, i, f, issues, `follow-up #${i + 1}`));
  }
  const e = raw.expect;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return;
  for (const key of ['criteria', 'conversations'] as const) {
    const list = (e as Record<string, unknown>)[key];
    if (!Array.isArray(list)) continue;
    const at = [...path, 'expect', key];
    list.forEach((item, i) => commentOnlyFix(file, at, i, item, issues, `expect.${key}[${i}]`));
  }
}

/**
 * `expect.reply` entries: exactly one of contains / regex, not empty; flags only with a regex and
 * valid; a turn within the script (0 the welcome turn, then 1 to the number of message turns). A
 * pattern that does not compile is a warning: that check is not evaluated.
 */
function checkReplies(src: SourceFile, raw: Record<string, unknown>, path: PathSegment[], prefix: string, err: Err, result: PersonaFileResult): void {
  const e = raw.expect;
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return;
  const list = (e as Record<string, unknown>).reply;
  if (!Array.isArray(list)) return;
  const user = raw.user !== null && typeof raw.user === 'object' ? (raw.user as Record<string, unknown>) : null;
  const simulatedTurns = user !== null && typeof user.maxTurns === 'number' && Number.isInteger(user.maxTurns) ? user.maxTurns : null;
  const turns = simulatedTurns ?? 1 + (Array.isArray(raw.followUps) ? raw.followUps.length : 0);
  list.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return; // the schema says so
    const r = item as Record<string, unknown>;
    const at = [...path, 'expect', 'reply', i];
    const name = `${prefix}expect.reply[${i}]`;
    const hasContains = r.contains !== undefined;
    const hasRegex = r.regex !== undefined;
    if (hasContains === hasRegex) {
      // Neither, beside an unknown key (`contians: x`): the schema said it, with the allowed keys
      // and the spelling meant; said again here, one problem would be two (docs/troubleshooting.md,
      // "Configuration errors").
      const unknownKey = Object.keys(r).some((k) => !Object.hasOwn(personaSchemas().replyExpectationSchema.shape, k));
      if (!hasContains && unknownKey) return;
      err(at, `${name} must have exactly one of contains and regex, found ${hasContains ? 'both' : 'neither'}`, 'write { contains: "text" } or { regex: "pattern", flags: "i" }, with turn: N, last or any (the default)');
      return;
    }
    // A turn that is no turn: the schema said the rule, and its fix names the turns this script has.
    const turnRule = result.errors.find((x) => x.message === `${name}.turn ${TURN_RULE}, found ${describeValue(r.turn)}` && x.fix.startsWith('change '));
    if (turnRule !== undefined) turnRule.fix = `use a turn from 0 to ${turns}, last, or any`;
    // A split number leaves a key of digits beside turn (`000`, read as 0): only then is the line read.
    if (Object.keys(r).some((k) => /^\d+$/.test(k))) splitTurnFix(src, r.turn, [...at, 'turn'], prefix, `expect.reply[${i}].turn`, turns, result.errors);
    const kind = hasContains ? 'contains' : 'regex';
    checkTextWarnings(src, at, kind, r[kind], () => `${name}: `, result.warnings);
    if (typeof r[kind] === 'string' && (r[kind] as string) === '') err([...at, kind], `${name}: ${kind} is empty`, `write the text the reply must ${kind === 'regex' ? 'match' : 'contain'}`);
    if (r.flags !== undefined && !hasRegex) err([...at, 'flags'], `${name}: flags only apply to a regex, not to contains`, 'remove flags');
    if (hasRegex && typeof r.regex === 'string' && (r.flags === undefined || typeof r.flags === 'string')) {
      const flags = (r.flags as string | undefined) ?? '';
      const problem = checkFlags(flags);
      if (problem) err([...at, 'flags'], `${name}: regex flags ${quote(flags)} ${problem}`, `use only the flags ${REGEX_FLAGS.split('').join(' ')}, each at most once (u and v not together), e.g. flags: "i"`);
      else {
        try {
          new RegExp(r.regex, flags);
          const note = regexSlashesNote(r.regex, flags);
          if (note !== null) result.warnings.push({ file: src.file, ...src.valueAt([...at, 'regex']), message: `${name}: ${note.message}`, fix: note.fix });
        } catch (x) {
          result.warnings.push({
            file: src.file,
            ...src.valueAt([...at, 'regex']),
            message: `${name}: pattern does not compile: ${(x as Error).message}; that check is not evaluated at run time`,
            fix: inlineFlagsFix(r.regex, flags) ?? COMPILE_FIX,
          });
        }
      }
    }
    if (typeof r.turn === 'number' && Number.isInteger(r.turn) && r.turn > turns) {
      err(
        [...at, 'turn'],
        `${name}: turn ${r.turn} is beyond the script: it has ${turns} message ${turns === 1 ? 'turn' : 'turns'} (the opening is turn 1, turn 0 the welcome turn)`,
        `use a turn from 0 to ${turns}, last, or any`,
      );
    }
  });
}

/**
 * `turn: 1,000` inside { }: a number split by a comma, said by the schema's checker (issues.ts) or,
 * `1,000,000` (0 twice), by the YAML syntax check, neither of which knows the script's turns: their
 * fix `turn: 1000` is refused next (checkReplies). When the number meant is not a turn of this
 * script, its fix is told the turns it has, as a setting's range is, in the same place
 * (index.ts, oneSplitNumber, keeps this one).
 */
function splitTurnFix(src: SourceFile, turn: unknown, path: PathSegment[], prefix: string, name: string, turns: number, errors: ConfigIssue[]): void {
  if (typeof turn !== 'number') return;
  const pos = src.valueAt(path);
  if (pos.column === null) return;
  // The split's first key of digits: just past the digits YAML read and their comma (read from the
  // line alone: the document is not parsed for it).
  const line = lineOf(src, pos.line);
  const read = line === null ? null : /^-?\d+,\d/.exec(line.slice(pos.column - 1));
  if (read === null) return;
  const found = line === null ? null : splitNumberAt(line, pos.column + read[0].length - 1);
  if (line === null || found === null || found.readings.length === 0 || found.column !== pos.column) return;
  const isTurn = (v: number): boolean => Number.isInteger(v) && v >= 0 && v <= turns;
  // `turn: 0,500`: 0.500 or 500, the one that is a turn of this script, as the checker chose by the schema alone.
  const turnsMeant = found.readings.filter((r) => isTurn(Number(r)));
  const split = found.meant === null && turnsMeant.length === 1 ? splitNumberAs(found, line, turnsMeant[0] as string) : found;
  const meant = Number(split.meant ?? split.readings[0]);
  if (split.meant !== null && isTurn(meant) && split === found) return;
  const either = [...new Set([Math.floor(meant), Math.ceil(meant)])].filter(isTurn);
  const instead = Number.isInteger(meant) ? null : either.length > 0 ? either : [turns];
  const words = split.meant !== null && isTurn(meant) ? splitNumberWords(split, pos.line) : splitNumberWords(split, pos.line, { name, words: `a turn from 0 to ${turns}, last, or any`, instead });
  const issue = errors.find((x) => x.file === src.file && x.line === pos.line && x.column === pos.column && isSplitNumberMessage(x.message));
  if (issue !== undefined) issue.fix = words.fix;
  else if (splitWritesKeyTwice(split)) errors.push({ file: src.file, ...pos, message: prefix + words.message, fix: words.fix });
}

/**
 * A simulated user: `user` in place of `followUps` (not both), its own `maxTurns` (a script-level
 * one beside it is an error that says which to keep), a goal that says something; `opening` is
 * optional only with `user`.
 */
function checkSimulated(raw: Record<string, unknown>, path: PathSegment[], prefix: string, err: Err): void {
  const user = raw.user;
  if (user === undefined) return;
  if (raw.followUps !== undefined && raw.followUps !== null) {
    err(
      [...path, 'followUps'],
      `${prefix}followUps and user cannot be used together: follow-ups are a fixed script, a simulated user writes its own messages`,
      'keep followUps (remove user) for a fixed conversation, or keep user (remove followUps) for a simulated one',
    );
  }
  if (raw.maxTurns !== undefined) {
    const n = typeof raw.maxTurns === 'number' ? raw.maxTurns : null;
    err(
      [...path, 'maxTurns'],
      `${prefix}maxTurns beside user: a simulated user's turn limit is user.maxTurns`,
      n !== null && user !== null && typeof user === 'object' && (user as Record<string, unknown>).maxTurns === undefined
        ? `move it under user (user: { ..., maxTurns: ${n} }) and remove the script-level maxTurns`
        : 'remove the script-level maxTurns and keep user.maxTurns',
    );
  }
  if (user !== null && typeof user === 'object' && !Array.isArray(user)) {
    const u = user as Record<string, unknown>;
    if (typeof u.goal === 'string' && u.goal.trim() === '') err([...path, 'user', 'goal'], `${prefix}user.goal is empty`, 'say what the simulated user wants, e.g. goal: Get a refund for order 1234, which arrived broken');
    if (typeof u.instructions === 'string' && u.instructions.trim() === '') err([...path, 'user', 'instructions'], `${prefix}user.instructions is empty`, 'say how the user behaves, or remove instructions');
  }
}

function checkThreshold(value: unknown, at: PathSegment[], prefix: string, err: Err): void {
  if (typeof value === 'number' && !(value >= 0 && value <= 1)) {
    err(at, `${prefix}threshold ${String(value)} is outside [0, 1]`, THRESHOLD_FIX);
  }
}

/** A script is fixed: more message turns than maxTurns is found here, before anything is spent. */
function checkTurns(raw: Record<string, unknown>, path: PathSegment[], prefix: string, err: Err): void {
  const followUps = Array.isArray(raw.followUps) ? raw.followUps.length : 0;
  const maxTurns = typeof raw.maxTurns === 'number' && Number.isInteger(raw.maxTurns) && raw.maxTurns >= 1 ? raw.maxTurns : raw.maxTurns === undefined ? DEFAULT_MAX_TURNS : null;
  const turns = 1 + followUps;
  if (maxTurns === null || turns <= maxTurns) return;
  err(
    raw.maxTurns === undefined ? [...path, 'followUps'] : [...path, 'maxTurns'],
    `${prefix}the script has ${turns} message turns (the opening and ${followUps} follow-ups), more than maxTurns ${maxTurns}${raw.maxTurns === undefined ? ' (the default)' : ''}`,
    `set maxTurns: ${turns}, or remove ${turns - maxTurns} follow-up${turns - maxTurns === 1 ? '' : 's'}`,
  );
}

function checkExpectations(file: TrapFile, value: unknown, at: PathSegment[], prefix: string, err: Err): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return; // missing or wrong type: the schema says so
  const e = value as Record<string, unknown>;
  // An unknown key (`termnal: finish`) was already reported by the schema, with the allowed keys.
  if (Object.keys(e).some((k) => !(EXPECTATIONS as readonly string[]).includes(k))) return;
  const present = EXPECTATIONS.filter((k) => {
    const v = e[k];
    return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
  });
  if (present.length === 0) {
    err(
      at,
      `${prefix}the script has no expectation: a script with nothing to check proves nothing`,
      // `terminal: # finish` alone: YAML read every key as empty, which the warning beside says too.
      `${commentedKeysFix(file, at, e, 'expect') ?? ''}add at least one of ${EXPECTATIONS.join(', ')} under expect, e.g. expect: { conversations: [refunds] }`,
    );
  }
}

/** Key order as the protocol shows it: {tool, input, match, output}; no input: any call. */
function toMock(m: z.infer<PersonaSchemas['mockSchema']>): Mock {
  const match = m.match ?? 'subset';
  const output = m.output ?? null;
  return m.input === undefined ? { tool: m.tool, match, output } : { tool: m.tool, input: m.input, match, output };
}

function toReply(r: z.infer<PersonaSchemas['replyExpectationSchema']>): ReplyExpectation {
  const turn = r.turn ?? 'any';
  return r.regex !== undefined ? { regex: r.regex, flags: r.flags ?? '', turn } : { contains: r.contains ?? '', turn };
}

function toExpect(e: z.infer<PersonaSchemas['expectSchema']>): PersonaExpect {
  const reply = (e.reply ?? []).map(toReply);
  return {
    ...(reply.length > 0 ? { reply } : {}),
    ...(typeof e.maxTurnLatencyMs === 'number' ? { maxTurnLatencyMs: e.maxTurnLatencyMs } : {}),
    conversations: e.conversations ?? [],
    terminal: e.terminal ?? null,
    toolCalled: (e.toolCalled ?? []).map(toExpectation),
    toolNotCalled: (e.toolNotCalled ?? []).map(toExpectation),
    criteria: e.criteria ?? [],
  };
}
