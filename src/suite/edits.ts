// What a pull request changed in its own suite's fixtures and persona scripts: which fixtures'
// checks (and scripts' `expect` checks), what they replay (a fixture's message, a script's
// opening, follow-ups, mocks) and their own repeat it changed or removed, and which it deleted
// (docs/action.md, "The PR comment", "Suite edited"). Pure: the texts of the changed files at the
// base and at the head come in, the edits go out.

import type { Assertion, Fixture, FixtureEdit, PersonaScript, Repeat, SingleAssertion } from '../types.js';
import { jsonLine, quote, showPattern } from '../assertions/format.js';
import { describeCall } from '../assertions/tools.js';
import { checkFixtureFile } from './fixtures.js';
import { checkPersonaFile } from './personas.js';
import { readYaml, withYamlPackage } from './yaml/index.js';

/**
 * One fixture or persona file the pull request changed: its path in the repository, its text on
 * each side (null: not there), and `kind` (absent: a fixture file; `persona`: under personas/).
 */
export interface ChangedFixtureFile {
  path: string;
  before: string | null;
  after: string | null;
  kind?: 'fixture' | 'persona';
}

/** A check in words, as a reviewer reads it: `contains "30 days"`, `judge "..." (threshold 0.7)`; null for a probe. */
export function assertionWords(a: Assertion | null): string | null {
  if (a === null) return null;
  if (a.kind === 'all') return a.assertions.map(singleWords).join(' and ');
  return singleWords(a);
}

function singleWords(a: SingleAssertion): string {
  switch (a.kind) {
    case 'contains':
      return `contains ${quote(a.value)}`;
    case 'regex':
      return `regex ${showPattern(a.pattern, a.flags)}`;
    case 'judge':
      return `judge ${quote(a.criterion)} (threshold ${a.threshold})`;
    case 'maxLatency':
      return `maxLatencyMs ${a.ms}`;
    case 'toolCalled':
    case 'toolNotCalled':
      return `${a.kind} ${describeCall(a.tool, a.input, a.match)}`;
  }
}

/** One check of a persona script's `expect` block: compared by `key` (whole), shown as `words`. */
interface ScriptCheck {
  key: string;
  words: string;
}

/**
 * A script's checks, in the order of its `expect` block, each in words as a reviewer reads it
 * (`toolNotCalled refund`, `criterion "..." (threshold 0.7)`): the script's threshold is part of
 * each criterion, so a lowered threshold is a changed check.
 */
export function scriptChecks(p: Pick<PersonaScript, 'expect' | 'threshold'>): ScriptCheck[] {
  const e = p.expect;
  const out: ScriptCheck[] = [];
  const add = (value: unknown, words: string): void => {
    out.push({ key: JSON.stringify(value), words });
  };
  if (e.conversations.length > 0) add(['conversations', e.conversations], `conversations ${e.conversations.map((c) => quote(c)).join(', ')}`);
  if (e.terminal !== null) add(['terminal', e.terminal], `terminal ${e.terminal}`);
  for (const t of e.toolCalled) add(['toolCalled', t], `toolCalled ${describeCall(t.tool, t.input, t.match)}`);
  for (const t of e.toolNotCalled) add(['toolNotCalled', t], `toolNotCalled ${describeCall(t.tool, t.input, t.match)}`);
  for (const r of e.reply ?? []) {
    const what = 'contains' in r ? `contains ${quote(r.contains)}` : `regex ${showPattern(r.regex, r.flags)}`;
    add(['reply', r], `reply ${what} (turn ${r.turn})`);
  }
  if (e.maxTurnLatencyMs !== undefined) add(['maxTurnLatencyMs', e.maxTurnLatencyMs], `maxTurnLatencyMs ${e.maxTurnLatencyMs}`);
  for (const c of e.criteria) add(['criterion', c, p.threshold], `criterion ${quote(c)} (threshold ${p.threshold})`);
  return out;
}

/**
 * What a script replays, part by part, in the order it is sent (`opening "..."`, `follow-up "..."
 * (turn 2)`, `mock find_order {"id": 1} answers {...}`): the agent is sent these, so an edit to one
 * changes what the script measures as a changed check does. The persona handle, the opening, each
 * follow-up (by its turn), the simulated user (its goal, instructions and turns, whole), each mock
 * (its call and its answer, whole) and `unmockedTools`. Compared by `key`, as checks are.
 */
export function scriptReplay(p: Pick<PersonaScript, 'persona' | 'opening' | 'followUps' | 'user' | 'mocks' | 'unmockedTools'>): ScriptCheck[] {
  const out: ScriptCheck[] = [];
  const add = (value: unknown, words: string): void => {
    out.push({ key: JSON.stringify(value), words });
  };
  if (p.persona !== null) add(['persona', p.persona], `persona ${quote(p.persona)}`);
  if (p.opening !== null) add(['opening', p.opening], `opening ${quote(p.opening)}`);
  p.followUps.forEach((t, i) => add(['followUp', i, t], `follow-up ${quote(t)} (turn ${i + 2})`));
  // The simulated user part by part: a lowered maxTurns reads `simulated user maxTurns 6` is now `... 3`.
  const u = p.user ?? null;
  if (u !== null) {
    add(['userGoal', u.goal], `simulated user goal ${quote(u.goal)}`);
    if (u.instructions !== null) add(['userInstructions', u.instructions], `simulated user instructions ${quote(u.instructions)}`);
    add(['userMaxTurns', u.maxTurns], `simulated user maxTurns ${u.maxTurns}`);
  }
  for (const m of p.mocks) add(['mock', m], `mock ${describeCall(m.tool, m.input, m.match)} answers ${jsonLine(m.output)}`);
  if (p.unmockedTools !== undefined) add(['unmockedTools', p.unmockedTools], `unmockedTools ${p.unmockedTools}`);
  return out;
}

/**
 * What a fixture sends the agent (docs/fixtures.md): its message and its persona tag. The baseline
 * answered the message as it was: another message is another test under the same label, as a
 * script's opening is (scriptReplay). Compared by `key`, as checks are.
 */
export function fixtureReplay(f: Pick<Fixture, 'message' | 'persona'>): ScriptCheck[] {
  const out: ScriptCheck[] = [{ key: JSON.stringify(['message', f.message]), words: `message ${quote(f.message)}` }];
  if (f.persona !== null) out.push({ key: JSON.stringify(['persona', f.persona]), words: `persona ${quote(f.persona)}` });
  return out;
}

/**
 * An item's own `repeat` in words (`repeat count 3, minPass 2`, `, max 10` when adaptive), minPass
 * as it applies (omitted: count); null when it has none (config.yml's applies: docs/fixtures.md, "Repeat").
 */
export function repeatWords(r: Repeat | undefined): string | null {
  if (r === undefined) return null;
  return `repeat count ${r.count}, minPass ${r.minPass}${r.max === undefined ? '' : `, max ${r.max}`}`;
}

/** The checks' words joined as a fixture's list of checks is (`a and b`); null when there are none. */
function joined(checks: readonly ScriptCheck[]): string | null {
  return checks.length === 0 ? null : checks.map((c) => c.words).join(' and ');
}

/** The checks of `a` that `b` does not have, each matched once (a check written twice counts twice). */
function without(a: readonly ScriptCheck[], b: readonly ScriptCheck[]): ScriptCheck[] {
  const left = [...b];
  return a.filter((c) => {
    const i = left.findIndex((x) => x.key === c.key);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** An item's own repeat at the base and at the head, in words, when they differ; null when they do not. */
function repeatEdit(was: Repeat | undefined, now: Repeat | undefined): { before: string | null; after: string | null } | null {
  const before = repeatWords(was);
  const after = repeatWords(now);
  return before === after ? null : { before, after };
}

type Item = { kind: 'fixture'; fixture: Fixture } | { kind: 'persona'; script: PersonaScript };

/** The fixtures or scripts a file defines, by label (a file that does not read defines none that can be told apart). */
function itemsOf(path: string, text: string | null, kind: 'fixture' | 'persona'): Item[] {
  if (text === null) return [];
  const loaded = readYaml(path, text);
  if (loaded.src === null) return [];
  if (kind === 'persona') return checkPersonaFile(loaded.src, loaded.data).personas.map((script) => ({ kind, script }));
  return checkFixtureFile(loaded.src, loaded.data).fixtures.map((fixture) => ({ kind, fixture }));
}

/**
 * The fixtures whose check differs between the base and the head of the changed files (another
 * check, or none: a probe now), and the fixtures deleted (in a changed file at the base, in none
 * at the head: a fixture moved to another file keeps its label and is not deleted). Two checks
 * are compared whole, not as shown: a change past the words' cut is still a change. Persona
 * scripts alike (`kind: 'persona'`), check by check: `before` holds the checks only the base has
 * (changed or removed), `after` those only the head has; a deleted script's `before` holds all its
 * checks. A script whose opening, follow-ups, simulated user or mocks changed has one more entry,
 * `change: 'script'`, whose `before` and `after` are the parts only the base or the head sends
 * (scriptReplay); a fixture whose message or persona tag changed, alike (fixtureReplay). An item
 * whose own `repeat` changed (added, removed, another count, minPass or max) has one more,
 * `change: 'repeat'`, `before` and `after` its repeat in words (null: none of its own). An item's
 * entries in that order: checks, what it replays, repeat. Files sorted by path; fixtures first,
 * then scripts.
 */
/**
 * `before` and `after` as an edit says them, with a word when they look the same: the same text
 * but for how an accented letter is encoded (`é` as one character, Unicode NFC, or as `e` and a
 * combining accent, NFD, as some macOS editors save text), which sends (or looks for) other bytes.
 */
function encodingSaid(before: string | null, after: string | null): { before: string | null; after: string | null } {
  if (before === null || after === null || before === after || before.normalize('NFC') !== after.normalize('NFC')) return { before, after };
  const now = after === after.normalize('NFC') ? 'one character (Unicode NFC), where it was a letter and a combining accent (NFD)' : 'a letter and a combining accent (Unicode NFD, as some macOS editors save text), where it was one character (NFC)';
  return { before, after: `${after} (looks the same, but an accented letter is now ${now})` };
}

export async function fixtureEdits(files: readonly ChangedFixtureFile[]): Promise<FixtureEdit[]> {
  return withYamlPackage(() => {
    const before = new Map<string, { item: Item; file: string }>();
    const after = new Map<string, { item: Item; file: string }>();
    const labelOf = (i: Item): string => (i.kind === 'fixture' ? i.fixture.label : i.script.label);
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const kind = f.kind ?? 'fixture';
      for (const item of itemsOf(f.path, f.before, kind)) if (!before.has(`${kind}:${labelOf(item)}`)) before.set(`${kind}:${labelOf(item)}`, { item, file: f.path });
      for (const item of itemsOf(f.path, f.after, kind)) if (!after.has(`${kind}:${labelOf(item)}`)) after.set(`${kind}:${labelOf(item)}`, { item, file: f.path });
    }
    const edits: FixtureEdit[] = [];
    const scripts: FixtureEdit[] = [];
    for (const was of before.values()) {
      const label = labelOf(was.item);
      const now = after.get(`${was.item.kind}:${label}`)?.item;
      const file = after.get(`${was.item.kind}:${label}`)?.file ?? was.file;
      if (was.item.kind === 'persona') {
        const old = scriptChecks(was.item.script);
        if (now === undefined) {
          scripts.push({ label, kind: 'persona', file, change: 'deleted', before: joined(old), after: null });
          continue;
        }
        const script = (now as Extract<Item, { kind: 'persona' }>).script;
        const current = scriptChecks(script);
        const gone = without(old, current);
        const added = without(current, old);
        if (gone.length > 0 || added.length > 0) scripts.push({ label, kind: 'persona', file, change: 'assertion', ...encodingSaid(joined(gone), joined(added)) });
        // What it replays: another opening, follow-up or mock is another test under the same label.
        const wasSent = scriptReplay(was.item.script);
        const sent = scriptReplay(script);
        const unsent = without(wasSent, sent);
        const newly = without(sent, wasSent);
        if (unsent.length > 0 || newly.length > 0) scripts.push({ label, kind: 'persona', file, change: 'script', ...encodingSaid(joined(unsent), joined(newly)) });
        // How many attempts must pass: another repeat is another verdict from the same replies.
        const repeat = repeatEdit(was.item.script.repeat, script.repeat);
        if (repeat !== null) scripts.push({ label, kind: 'persona', file, change: 'repeat', ...repeat });
        continue;
      }
      const old = was.item.fixture.assertion;
      if (now === undefined) {
        edits.push({ label, file, change: 'deleted', before: assertionWords(old), after: null });
        continue;
      }
      const fixture = (now as Extract<Item, { kind: 'fixture' }>).fixture;
      const assertion = fixture.assertion;
      if (JSON.stringify(old) !== JSON.stringify(assertion)) {
        edits.push({ label, file, change: 'assertion', ...encodingSaid(assertionWords(old), assertionWords(assertion)) });
      }
      // What it sends: another message (or persona tag) is another test under the same label.
      const wasSent = fixtureReplay(was.item.fixture);
      const sent = fixtureReplay(fixture);
      const unsent = without(wasSent, sent);
      const newly = without(sent, wasSent);
      if (unsent.length > 0 || newly.length > 0) edits.push({ label, file, change: 'script', ...encodingSaid(joined(unsent), joined(newly)) });
      const repeat = repeatEdit(was.item.fixture.repeat, fixture.repeat);
      if (repeat !== null) edits.push({ label, file, change: 'repeat', ...repeat });
    }
    return [...edits, ...scripts];
  });
}
