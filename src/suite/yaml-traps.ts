// Valid YAML that says something else than its writer meant, in the texts that matter most: what
// the user sends and what a check looks for (docs/fixtures.md, "Text YAML reads otherwise"). Each
// is a warning: the file is read as YAML reads it, and the warning says what was read and the fix.

import type { ConfigIssue } from './issues.js';
import { itemLead, quote } from './issues.js';
import type { PathSegment, Position, SourceFile } from './yaml/index.js';
import { headOf, shownJson } from '../words.js';
import { freeSuggestion, type NextFree, type TakenLabels } from './labels.js';
import { MAX_REPEAT } from './repeat.js';
import { commentAt, propsAt, propsLead } from './yaml-props.js';
import { unicodePattern } from '../patterns.js';

/** A letter or a digit of any script (built on first use: src/patterns.ts). */
const LETTER_OR_DIGIT = unicodePattern(String.raw`[\p{L}\p{N}]`, 'u');

/** How a user turn (or a simulated user's text) is named and rewritten: `message: "..."`, or a list item's `- "..."`. */
export interface TurnText {
  /** `the message`, `the opening`, `follow-up #2`, `user.goal`. */
  name: string;
  /** What YAML's reading does, before the text read: `the agent is sent`, `the simulator is given the goal`. */
  effect: string;
  /**
   * The text as it would be written quoted: `message: "Where is order #5521?"`; with the anchor
   * and tag written before the value (`&q`, `!!str &q`), kept in front of the quotes.
   */
  written: (text: string, props?: string) => string;
}

/**
 * One file as the traps read it: its source, and its lines, split on first need, or null when the
 * file has no space or tab before a `#`, and so no comment after a value: a file without the
 * pattern pays one search. Made by the file's checker (checkFixtureFile, checkPersonaFile) and
 * passed down: nothing of a file outlives its check, and no check sees another file's text.
 */
export interface TrapFile {
  readonly src: SourceFile;
  lines(): string[] | null;
}

export function trapFile(src: SourceFile): TrapFile {
  let lines: string[] | null | undefined;
  return {
    src,
    lines: () => (lines === undefined ? (lines = src.text.includes(' #') || src.text.includes('\t#') ? src.text.split('\n') : null) : lines),
  };
}

/**
 * `message: Where is order #5521?`: an unquoted user turn whose line holds a ` #`, which YAML reads
 * as the start of a comment, so the agent is sent "Where is order". Said whether the `#` was meant
 * as text or as a comment (`message: hi # greeting test`), which the line cannot tell apart: the
 * fix gives both ways, and each silences it. Only a plain value is read this way (a quoted one or
 * a block scalar keeps its `#`).
 */
function commentCutWarning(file: TrapFile, base: PathSegment[], key: PathSegment, value: unknown, turn: TurnText, prefix: () => string): ConfigIssue | null {
  // A value is cut only at a comment: a file without one (the common one) has none to look for,
  // and file.lines() looks for one once a file (once a value, a file of 130,000 fixtures was read
  // 130,000 times).
  if (typeof value !== 'string' || value === '') return null;
  const lines = file.lines();
  if (lines === null) return null;
  const { src } = file;
  const pos = src.valueAt([...base, key]);
  if (pos.line === null || pos.column === null) return null;
  const first = lines[pos.line - 1];
  if (first === undefined) return null;
  const c = first[pos.column - 1];
  if (c === '"' || c === "'" || c === '|' || c === '>') return null;
  // The value's lines, from where it starts, until the one a comment ends it on: a plain value over
  // several lines is read with its line breaks folded to spaces.
  const meant = value.replace(/\s+/g, ' ');
  let seen = '';
  for (let n = pos.line - 1, from = pos.column - 1; n < lines.length; n += 1, from = 0) {
    const line = (lines[n] as string).replace(/\r$/, '');
    const hash = commentAt(line, from);
    // Its spaces as `meant` has them: a tab inside the text (`refund\tfor`) is one space there too.
    const piece = (hash === -1 ? line.slice(from) : line.slice(from, hash)).trim().replace(/\s+/g, ' ');
    // A comment on a line of its own ends the value, and is one.
    if (piece === '') return null;
    seen = seen === '' ? piece : `${seen} ${piece}`;
    if (hash !== -1) {
      if (seen !== meant) return null;
      const rest = line.slice(hash).trimEnd();
      const before = line.slice(from, hash);
      // As written: the value, the spaces before the #, the rest of the line.
      const whole = `${value}${before.slice(before.trimEnd().length)}${rest}`;
      // `message: &q Where is #5?`: the fix keeps the anchor (and a tag) in front of the quotes.
      const props = propsAt((l) => lines[l - 1], pos);
      return {
        file: src.file,
        line: n + 1,
        column: hash + 1,
        message: `${prefix()}${turn.name} on line ${n + 1} ends before ${quote(rest)}: YAML reads a # after a ${line[hash - 1] === '\t' ? 'tab' : 'space'} and the rest of the line as a comment, so ${turn.effect} ${quote(value)}`,
        fix: `quote ${turn.name} if # is part of it (${turn.written(whole, props)}); if ${quote(rest)} is a comment, put it on a line of its own, or after ${turn.name} in quotes (${turn.written(value, props)} ${rest})`,
      };
    }
    if (!meant.startsWith(seen) || seen.length >= meant.length) return null;
  }
  return null;
}

/**
 * The comment alone written after `lead` (a key's `message:`, an item's `-`) at `at` (`# ask about
 * refunds`), its column, and the anchor and tag written between them (`instructions: &i # be
 * brief`: `&i`, an anchored empty value); or null.
 */
function commentAlone(file: TrapFile, at: Position | null, lead: string): { comment: string; column: number; props: string } | null {
  const lines = file.lines();
  if (lines === null || at === null || at.line === null || at.column === null) return null;
  const written = (lines[at.line - 1] ?? '').replace(/\r$/, '').slice(at.column - 1);
  const alone = written.startsWith(lead) ? /^((?:[ \t]+[&!][^\s,[\]{}]*)*[ \t]+)(#.*?)[ \t]*$/.exec(written.slice(lead.length)) : null;
  if (alone === null) return null;
  const before = alone[1] as string;
  return { comment: alone[2] as string, column: at.column + lead.length + before.length, props: before.trim().replace(/[ \t]+/g, ' ') };
}

/** Why a value is empty: `YAML reads "# ask about refunds" after the "-" as a comment, so follow-up #1 is empty`. */
function readAsComment(comment: string, lead: string, name: string): string {
  return `YAML reads ${commentAfter(comment, lead)} as a comment, so ${name} is empty`;
}

/** `"# finish" after "terminal:"`, `"# refunds" after the "-"`; `line`: `... after "terminal:" on line 4`. */
function commentAfter(comment: string, lead: string, line?: number): string {
  return `${quote(comment)} after ${lead === '-' ? 'the "-"' : `"${lead}"`}${line === undefined ? '' : ` on line ${line}`}`;
}

/**
 * The fix's start for a mapping (`expect`, named `name`) that says nothing because every key of it
 * YAML read as a comment alone (`terminal: # finish`): `YAML reads "# finish" after "terminal:" on
 * line 4 as a comment, so expect.terminal is empty: write the value after its key, or `, or of
 * several keys `expect's keys on lines 4, 5 hold a comment alone, which YAML reads as empty: ...`; null when
 * a key holds a value, or is left empty without a comment (the fix as it is says enough).
 */
export function commentedKeysFix(file: TrapFile, base: PathSegment[], value: Record<string, unknown>, name: string): string | null {
  const keys = Object.keys(value);
  if (keys.length === 0 || file.lines() === null) return null;
  const read: Array<{ comment: string; line: number }> = [];
  for (const key of keys) {
    if (value[key] !== null) return null;
    const at = file.src.keyAt(base, key);
    const alone = commentAlone(file, at, `${key}:`);
    if (alone === null || at === null || at.line === null) return null;
    read.push({ comment: alone.comment, line: at.line });
  }
  const [one] = read;
  if (read.length === 1 && one !== undefined) return `YAML reads ${commentAfter(one.comment, `${keys[0]}:`, one.line)} as a comment, so ${name}.${keys[0]} is empty: write the value after its key, or `;
  // Lines, not each comment: the fix after it must fit in an issue's length (issues.ts).
  return `${name}'s keys on lines ${read.map((r) => r.line).join(', ')} hold a comment alone, which YAML reads as empty: write each value after its key, or `;
}

/**
 * The fix for an empty item of a list of fixtures or scripts (`found an empty value (null)`): when
 * YAML read the rest of its "-" line as a comment (`- # a refund fixture`, an item commented out but
 * for its "-"), it says so first, and to remove the item; else it is `fix` as it is.
 */
export function emptyItemFix(file: TrapFile, path: PathSegment[], name: string, fix: string): string {
  const alone = typeof path.at(-1) === 'number' && file.lines() !== null ? commentAlone(file, file.src.valueAt(path), '-') : null;
  return alone === null ? fix : `${readAsComment(alone.comment, '-', name)}: remove the item, or ${fix}`;
}

/**
 * `message: #5521 where is it?`, `- # ask about refunds`: YAML reads the whole value (of a key, or
 * of a list item after its "-") as a comment, and the value as empty. The schema's error at the key
 * or the "-" (`found an empty value (null)`, whose fix is to write a value, which was written) is
 * given why and the fix: quotes, or for an item, removing it. Only an empty value of a refused item
 * is looked at. `name`: how an item is named (`follow-up #1`); a key is named by itself. `meant`:
 * a key's fix for the value meant, from the comment and the anchor and tag before it (by default,
 * to quote it; a label, which holds no # or space, is offered one close to it: labelMeant).
 */
export function commentOnlyFix(
  file: TrapFile,
  base: PathSegment[],
  key: PathSegment,
  value: unknown,
  issues: ConfigIssue[],
  name = String(key),
  meant: (comment: string, props: string) => string = quoteMeant(String(key)),
): CommentedValue | null {
  if (value !== null || file.lines() === null) return null;
  const { src } = file;
  const item = typeof key === 'number';
  const at = item ? src.valueAt([...base, key]) : src.keyAt(base, key);
  const lead = item ? '-' : `${key}:`;
  const alone = commentAlone(file, at, lead);
  const issue = alone === null || at === null ? undefined : issues.find((i) => i.file === src.file && i.line === at.line && i.column === at.column);
  if (alone === null || issue === undefined) return null;
  const why = readAsComment(alone.comment, lead, name);
  issue.fix = item ? `${why}: quote it if it is the text (${listItem(alone.comment, alone.props)}), or remove the item` : `${why}: ${meant(alone.comment, alone.props)}`;
  return { issue, why, comment: alone.comment, props: alone.props };
}

/**
 * A value YAML read as a comment alone, whose error commentOnlyFix gave a fix: `why` it is empty,
 * the comment and the anchor and tag before it. A label's (`label: # refund policy`) is kept for
 * its fix to be made again once the suite's labels are known (labelMeantFix).
 */
export interface CommentedValue {
  issue: ConfigIssue;
  why: string;
  comment: string;
  props: string;
}

/** The fix for a key's text meant as its value, from the comment YAML read (and the anchor and tag before it): `quote it if it is the text (persona: "# impatient customer")`. */
function quoteMeant(key: string): (comment: string, props: string) => string {
  return (comment, props) => `quote it if it is the text (${keyed(key)(comment, props)})`;
}

/** The fix for a key whose value is not text, the comment read in its place: `write it after criteria:, e.g. criteria: ["The agent apologises"]`. */
export function writeAfter(key: string, example: string): (comment: string, props: string) => string {
  return (_comment, props) => `write it after ${key}:, e.g. ${key}: ${propsLead(props)}${example}`;
}

/**
 * The fix for `label: # refund policy`: a label close to the comment (labels.ts), which quoting the
 * comment would not be (a label holds no # or space); else to write one. As a file is checked the
 * suite's labels are not known: its fix is made again with them (labelMeantFix).
 */
export function labelMeant(comment: string, props: string): string {
  return labelMeantFix(comment, props).fix;
}

/**
 * labelMeant's fix with the label it offers (null: none), one neither `taken` (the suite's labels)
 * nor `offered` (another fix's) holds, with the words naming the one it would have been
 * (`label: refund-policy-2; refund-policy is used already`): freeLabelFixes in suite/index.ts.
 */
export function labelMeantFix(comment: string, props: string, taken?: TakenLabels, offered?: TakenLabels, next?: NextFree): { fix: string; label: string | null } {
  // A comment of no letter or digit (`label: # TODO` has some; `label: #` none) offers nothing close.
  const close = LETTER_OR_DIGIT().test(comment) ? freeSuggestion(comment, taken, offered, next) : null;
  if (close === null) return { fix: writeAfter('label', 'refund-policy')(comment, props), label: null };
  // The note is ` (refund-policy is used already)`: said inside the brackets, not in a second pair.
  const note = close.note === '' ? '' : `; ${close.note.trim().slice(1, -1)}`;
  return { fix: `write the label if it is the label meant (label: ${propsLead(props)}${close.label}${note})`, label: close.label };
}

/**
 * `repeat: # 3`, of a fixture or a persona script (`noun`): said to `warnings` as YAML reads it, no
 * repeat of its own (docs/fixtures.md, "Repeat"); the fix writes the count the comment holds, if one.
 */
export function commentedRepeatWarnings(file: TrapFile, base: PathSegment[], value: unknown, noun: string, prefix: () => string, warnings: ConfigIssue[]): void {
  // Asked of every fixture: a repeat written or left out returns before its words and fix are made.
  if (value !== null) return;
  commentOnlyWarnings(file, base, 'repeat', value, 'repeat', `the ${noun} runs as config.yml's repeat says, or once`, prefix, warnings, (comment, props) => {
    // A count the repeat may have (`# 50` is none: the fix would be refused in its turn).
    const count = /^#+[ \t]*([1-9]\d*)[ \t]*$/.exec(comment)?.[1];
    return count === undefined || Number(count) > MAX_REPEAT ? writeAfter('repeat', '{ count: 3 }')(comment, props) : `write it as a mapping if it is the repeat meant (repeat: ${propsLead(props)}{ count: ${count} })`;
  });
}

/**
 * `instructions: # be brief`, `persona: # impatient customer`, `assert: # contains "30 days"`: a
 * key the schema takes empty (null, as none), whose value YAML read as a comment alone, is said to
 * `warnings` at the #: the file loads as YAML reads it, and `none` says what that does (`the
 * simulator is given no instructions`). A comment meant as one is said too, as after a value cut at
 * a ` #`: the fix gives both ways. `name`: how the key is named (`user.instructions`); `meant`: the
 * fix for the text meant as the value, from the comment and the anchor and tag written before it
 * (by default, to quote it: `instructions: &i "# be brief"`).
 */
export function commentOnlyWarnings(
  file: TrapFile,
  base: PathSegment[],
  key: string,
  value: unknown,
  name: string,
  none: string,
  prefix: () => string,
  warnings: ConfigIssue[],
  meant?: (comment: string, props: string) => string,
): void {
  // Asked of every fixture's keys: a value written or left out returns at once, before the rest
  // (commentOnlyFound), which V8 then never compiles on a suite that has none.
  if (value === null) commentOnlyFound(file, base, key, name, none, prefix, warnings, meant ?? quoteMeant(key));
}

function commentOnlyFound(
  file: TrapFile,
  base: PathSegment[],
  key: string,
  name: string,
  none: string,
  prefix: () => string,
  warnings: ConfigIssue[],
  meant: (comment: string, props: string) => string,
): void {
  if (file.lines() === null) return;
  const at = file.src.keyAt(base, key);
  const alone = commentAlone(file, at, `${key}:`);
  if (alone === null || at === null) return;
  warnings.push({
    file: file.src.file,
    line: at.line,
    column: alone.column,
    message: `${prefix()}${readAsComment(alone.comment, `${key}:`, name)}: ${none}`,
    fix: `${meant(alone.comment, alone.props)}; if it is a comment, put it on a line of its own, or remove ${key}`,
  });
}

/** Whether `value` is wrapped in curly quotes (“…” or ‘…’), as text copied from a document is. */
function curlyQuoted(value: string): boolean {
  if (value.length < 2) return false;
  const open = value.charCodeAt(0);
  const close = value.charCodeAt(value.length - 1);
  return (open === 0x201c || open === 0x2018) && (close === 0x201d || close === 0x2019);
}

/**
 * `contains: “30 days”`: curly quotes around a value are part of its text (YAML quotes with " and '
 * only), so the check looks for them in the reply, or the agent is sent them. Checked on the value
 * as read; the file's text is read only for the position (and the line) of a value that has them.
 */
function curlyQuotesWarning(
  src: SourceFile,
  base: PathSegment[],
  key: PathSegment,
  value: unknown,
  /** `the contains value`, `the message`. */
  name: string,
  /** What the quotes then do: `the check looks for them in the reply`. */
  effect: string,
  /** The value written with straight quotes: `contains: "30 days"`; with its anchor and tag, `contains: &d "30 days"`. */
  written: (text: string, props?: string) => string,
  /** Said before the message (the item's name), made only when there is one. */
  prefix: () => string,
): ConfigIssue | null {
  if (typeof value !== 'string' || !curlyQuoted(value)) return null;
  const pos = src.valueAt([...base, key]);
  const line = pos.line === null ? '' : ` on line ${pos.line}`;
  // `contains: &d “30 days”`: the fix keeps the anchor (and a tag); the lines are read only for a value that is said.
  const lines = pos.column === null ? [] : src.text.split('\n');
  const props = propsAt((l) => lines[l - 1], pos);
  // Shown between its own quotes as written; a text with a line break or another control
  // character, as a quoted value shows it (quote), long ones cut.
  const inner = value.slice(1, -1);
  // eslint-disable-next-line no-control-regex
  const text = /[\x00-\x1f\x7f\u2028\u2029]/.test(inner) ? quote(inner).slice(1, -1) : inner.length > 60 ? `${headOf(inner, 60)}...` : inner;
  const shown = `${value[0] as string}${text}${value[value.length - 1] as string}`;
  return {
    file: src.file,
    ...pos,
    message: `${prefix()}${name}${line} is in curly quotes ${shown}, which are part of the text: ${effect}`,
    fix: `write straight quotes (${written(inner, props)}) or none`,
  };
}

/**
 * A user turn YAML reads otherwise than it looks: cut at a ` #`, or in curly quotes; each said goes
 * to `warnings`. The turn is at `key` of `base` (a list item's index), its path made only to place
 * one that is said: a fixture without either pays no array (the loader's garbage, at thousands of
 * fixtures).
 */
export function userTurnWarnings(file: TrapFile, base: PathSegment[], key: PathSegment, value: unknown, turn: TurnText, prefix: () => string, warnings: ConfigIssue[]): void {
  if (typeof value !== 'string') return;
  commentCutWarnings(file, base, key, value, turn, prefix, warnings);
  const curly = curlyQuotesWarning(file.src, base, key, value, turn.name, 'the agent is sent them', turn.written, prefix);
  if (curly !== null) warnings.push(curly);
}

/**
 * A text cut at a ` #` only, said to `warnings`: a simulated user's goal and instructions, which
 * the simulator reads by their meaning (curly quotes around them change nothing, as around a judge's
 * criterion).
 */
export function commentCutWarnings(file: TrapFile, base: PathSegment[], key: PathSegment, value: unknown, turn: TurnText, prefix: () => string, warnings: ConfigIssue[]): void {
  const cut = commentCutWarning(file, base, key, value, turn, prefix);
  if (cut !== null) warnings.push(cut);
}

/** A check's text (`contains`, `regex`) in curly quotes, which it then looks for in the reply; said goes to `warnings`. */
export function checkTextWarnings(src: SourceFile, base: PathSegment[], kind: 'contains' | 'regex', value: unknown, prefix: () => string, warnings: ConfigIssue[]): void {
  if (typeof value !== 'string' || !curlyQuoted(value)) return;
  const effect = kind === 'contains' ? 'the check looks for them in the reply' : 'the pattern matches them in the reply';
  const curly = curlyQuotesWarning(src, base, kind, value, `the ${kind} value`, effect, keyed(kind), prefix);
  if (curly !== null) warnings.push(curly);
}

/** `key: "text"`, as a fix writes a value; with its anchor and tag, `key: &q "text"`. */
export const keyed =
  (key: string) =>
  (text: string, props = ''): string =>
    `${key}: ${propsLead(props)}${shownJson(text)}`;

/** `- "text"`, as a fix writes a list item; with its anchor and tag, `- &q "text"`; in a list in [ ] (`lead` ''), `"text"`. */
export const listItem = (text: string, props = '', lead: '- ' | '' = '- '): string => `${lead}${propsLead(props)}${shownJson(text)}`;

/**
 * How a fix writes item `index` of the list at `base`: after its "-", or as it is in a list in [ ]
 * (`followUps: [ Hi, “Thanks” ]`: `"Thanks"`), as the schema's fixes write an item (itemLead). Its
 * position is looked up only when a fix is written.
 */
export const listItemAt =
  (src: SourceFile, base: PathSegment[], index: number) =>
  (text: string, props = ''): string =>
    listItem(text, props, itemLead(src, src.valueAt([...base, index])));
