// An item's changes against its baseline, decided in one place (docs/architecture.md, "Where an
// item's changes are decided"). Each change dimension is one entry of DIMENSIONS: how it is read
// from a record, the words every surface shows, the fail-on condition it meets, the cause `compare`
// names and how it compares two runs, what an acceptance leaves of it, and how the Changed section
// introduces it. The sections, the headline, the gate, acceptance, `compare`, every renderer and the
// Action's `drifted` output read changesOf (or DIMENSIONS), never the record's fields. Pure.
//
// Records stay results.json schema version 1: `drift` holds the reply (transcript) and route
// comparisons, `slower` is its own field; only the derivation lives here.

import type { Drift, FailOnCondition, FixtureRecord, LatencyThresholds, Meaning, PersonaDrift, PersonaRecord, Route, ScriptEnding, Slower } from '../types.js';
import { sameRoute, sameRoutes } from './drift.js';
import { kindOf, type ItemKind } from './kind.js';
import { judgeFlipLine } from './judge-flip.js';
import { meaningJudgeGaveNone } from './meaning/ladder.js';
import { attemptNamed } from './repeat.js';
import { itemLatencyMs, slowerText, slowerThanBaseline } from './latency.js';
import { capitalized, headOf, listWords } from '../words.js';

/** The ways an item can differ from its baseline, besides its verdict. */
export type Dimension = 'reply' | 'transcript' | 'meaning' | 'route' | 'slower';

/**
 * What changesOf reads of an item: a fixture's or a persona script's record, or a slice of one (the
 * gate's, acceptance's). A script's drift says `transcript`, a fixture's `reply`.
 */
export interface ChangeSubject {
  errored?: boolean;
  drift?: Drift | PersonaDrift | null;
  slower?: Slower | undefined;
}

/** One change of one item. */
export interface Change {
  dimension: Dimension;
  /** How every surface says it, beside the verdict drift: "reply changed", "routes changed", "slower: 1.2 s → 2.9 s". */
  words: string;
}

/** A fixture's or a persona script's record. */
type Item = FixtureRecord | PersonaRecord;
type ReplayedItem = Extract<FixtureRecord, { errored: false }> | Extract<PersonaRecord, { errored: false }>;

/** The change causes `compare` names for a dimension (docs/evaluations.md#compare). */
export type DimensionCause = 'reply_changed' | 'transcript_changed' | 'meaning_changed' | 'reworded' | 'route_changed' | 'slower';

/** How a cause is said: its title in a table, and counted ("1 reply changed", "2 replies changed"). */
export interface CauseWords {
  title: string;
  one: string;
  many: string;
}

interface DimensionRule {
  /** The item kinds the dimension applies to. */
  kinds: readonly ItemKind[];
  /** The words of the change when the item has it, else null. Errored items have no changes. */
  of(item: ChangeSubject): string | null;
  /** The fail-on condition the change meets (docs/semantics.md#the-gate). */
  failOn: FailOnCondition;
  /** When only some of the dimension's changes meet `failOn` (a meaning `changed`, not `unchecked`): which. */
  meets?: (item: ChangeSubject) => boolean;
  /** What `compare` names the change between two runs, and its words. */
  cause: DimensionCause;
  causeWords: CauseWords;
  /** A second cause the dimension may name instead (`between` says which), and its words. */
  otherCause?: { cause: DimensionCause; words: CauseWords };
  /**
   * `compare` (docs/evaluations.md#compare): the detail of the change between two runs of one
   * item, or null. `content` changes are looked for before the verdict, `speed` changes last.
   */
  compared: 'content' | 'speed';
  between(before: Item, after: Item, latency: LatencyThresholds): string | { cause: DimensionCause; detail: string } | null;
  /**
   * True when the change was measured at replay time and cannot be seen by comparing the record
   * with the stored baseline again: accepting an item with it rewrites the baseline even when the
   * reply, route and verdict match (docs/latency.md: accepting a slower item accepts its latency).
   */
  rewritesBaseline: boolean;
  /** The record as it reads once its baseline is accepted: this change gone. */
  settle<T extends ReplayedItem>(item: T): T;
  /**
   * How the Changed section's introduction names the change: a `subject` that "differs from the
   * baseline", or a `clause` after "the check passes now"; `when` the section's items call for it
   * (`present`: an item has the change; a function: an item of which it is true, the subject after the others).
   */
  intro: { subject: string; when: 'always' | 'scripts' | ((item: ChangeSubject) => boolean) } | { clause: string; when: 'present' } | null;
}

function scriptDrift(d: Drift | PersonaDrift): d is PersonaDrift {
  return 'transcript' in d;
}

function replayed(item: ChangeSubject): Drift | PersonaDrift | null {
  return item.errored === true ? null : (item.drift ?? null);
}

function routesOf(item: PersonaRecord): (Route | null)[] {
  return item.turns.map((t) => t.route);
}

/** The meanings that leave an item Reworded (docs/semantics.md#where-an-item-is-shown). */
const REWORDED: ReadonlySet<Meaning['value']> = new Set(['formatting', 'variant', 'reworded']);

/** How a same-meaning reply was decided: "formatting", "known variant", "judge 0.93". */
export function howDecided(m: Meaning): string {
  if (m.value === 'formatting') return 'formatting';
  if (m.value === 'variant') return 'known variant';
  return typeof m.score === 'number' ? `judge ${m.score.toFixed(2)}` : 'judge';
}

/**
 * The words of a meaning (docs/meaning.md): a fixture's "changed in meaning: numbers 30 → 14",
 * "meaning not checked: <cause>", "reworded (judge 0.93)"; a script's detail already names its
 * turn ("turn 3 changed in meaning: numbers 50 → 90"), except a different number of turns; a
 * fixture whose baseline answered another message says so: "changed: the fixture's message was
 * edited since the baseline" (docs/meaning.md, "An edited fixture").
 */
export function meaningWords(m: Meaning, script: boolean): string {
  if (REWORDED.has(m.value)) return `reworded (${howDecided(m)})`;
  // A reply to another message than the baseline's was not compared in meaning: its cause, plainly.
  if (m.by === 'message' && m.detail !== null) return `changed: ${m.detail}`;
  const head = m.value === 'changed' ? 'changed in meaning' : 'meaning not checked';
  if (script && m.by !== 'turns' && m.detail !== null && TURN_NAMED.test(m.detail)) return welcomeNamed(m.detail);
  return m.detail === null || m.detail === '' ? head : `${head}: ${m.detail}`;
}

/** A script's "turn 3 meaning not checked: <cause>" (evaluate/meaning/ladder.ts scriptMeaning), or a repeated script's attempt's: "attempt 2: turn 3 ...". */
const TURN_UNCHECKED = /^((?:attempt \d+: )?turn \d+ meaning not checked): /;

/**
 * A script's detail as every surface says it: the welcome turn named as they name it, "turn 0
 * (welcome) changed in meaning: ..." (docs/meaning.md, "On every surface"). The record keeps the
 * detail it stored ("turn 0 changed in meaning: ..."): what reads it back reads that.
 */
function welcomeNamed(detail: string): string {
  return detail.replace(/^((?:attempt \d+: )?turn 0) /, '$1 (welcome) ');
}

/** A script's detail that names its turn, "turn 3 changed in meaning: ...", or a repeated script's attempt's: "attempt 2: turn 3 changed in meaning: ..." (evaluate/finish.ts). */
const TURN_NAMED = /^(attempt \d+: )?turn \d+ /;

/**
 * An unchecked meaning's words in two parts (docs/meaning.md, "On every surface"): the head,
 * "meaning not checked" (a script's "turn 3 meaning not checked"), and the cause after it; null for
 * any other meaning, or one without a cause. `meaningWords` is `${head}: ${cause}` for these.
 */
export function uncheckedParts(m: Meaning, script: boolean): { head: string; cause: string } | null {
  if (m.value !== 'unchecked' || m.by === 'message' || m.detail === null || m.detail === '') return null;
  const turn = script ? TURN_UNCHECKED.exec(m.detail) : null;
  if (turn !== null) return { head: welcomeNamed(turn[1] as string), cause: m.detail.slice(turn[0].length) };
  if (script && TURN_NAMED.test(m.detail)) return null;
  return { head: 'meaning not checked', cause: m.detail };
}

/**
 * Is the item Reworded (docs/semantics.md#where-an-item-is-shown): its reply (a script: every
 * differing turn) differs only in wording (`formatting`, `variant`, `reworded`), its route is the
 * same, its verdict did not change, and it is not slower?
 */
export function isReworded(item: ChangeSubject, changes: readonly Change[] = changesOf(item)): boolean {
  const d = replayed(item);
  if (d === null || d.verdict !== 'still_passing' && d.verdict !== 'still_failing') return false;
  const m = d.meaning ?? null;
  if (m === null || !REWORDED.has(m.value)) return false;
  return changes.every((c) => c.dimension === 'reply' || c.dimension === 'transcript' || c.dimension === 'meaning');
}

/**
 * Reworded whatever its latency: a reply (transcript) that differs from its baseline only in
 * wording, also when it is slower too. Acceptance reads it as the same measurement as the stored
 * one (docs/statistics.md, "A baseline's attempts"), as it reads the same reply when it is slower.
 */
export function isRewordedApartFromLatency(item: ChangeSubject): boolean {
  return isReworded(item, changesOf(item).filter((c) => c.dimension !== 'slower'));
}

/**
 * Was the later run compared with the earlier run's replies (its baselines), so that its meaning
 * (changed, or one of the same-meaning values) speaks of the change between them?
 */
function meaningComparable(before: Item, after: Item): boolean {
  if (before.errored || after.errored || after.baseline == null) return false;
  // `unchecked` says nothing of the meaning: the reply (transcript) changed, as before.
  const m = after.drift?.meaning ?? null;
  if (m === null || m.value === 'unchecked') return false;
  // Another attempt's meaning (docs/meaning.md, "Repeats") beside a shown reply that did not change
  // speaks of that attempt, not of the earlier run's reply: nothing changed where every attempt
  // replied the same, and anotherAttemptMoved names the attempt where both had one baseline.
  const another = m.detail !== null && attemptNamed(m.detail) !== null && !differentWords(before, after);
  if (another && (sameAttemptReplies(before, after) || sameBaselineOf(before, after))) return false;
  if (kindOf(before) === 'fixture' && kindOf(after) === 'fixture') return (after as FixtureRecord).baseline?.reply === (before as FixtureRecord).reply;
  if (kindOf(before) !== 'script' || kindOf(after) !== 'script') return false;
  const base = (after as PersonaRecord).baseline?.transcript ?? null;
  const turns = (before as PersonaRecord).turns;
  return base !== null && base.length === turns.length && base.every((t, i) => t.reply === turns[i]?.reply);
}

/** How a simulated conversation ended, in words (null: a fault, which the verdict or the error class names). */
const ENDED_WORDS: Partial<Record<NonNullable<PersonaRecord['simulation']>['endedBy'], string>> = {
  simulator: 'ended by the simulated user',
  agent: 'ended by the agent',
  max_turns: 'ended at the turn limit',
};

/** Who ended a scripted conversation, in words (docs/personas.md, "Baselines and drift"). */
const SCRIPT_ENDED_WORDS: Record<ScriptEnding, string> = {
  agent: 'ended by the agent',
  both: "ended by the agent on the script's last message",
  script: 'ended by the script',
};

/**
 * Did two runs of a simulated script end another way (docs/simulated-users.md, "How it ended"): the
 * simulated user was done in one and not in the other, as a run reads it against its baseline?
 * "ended by the agent → ended by the simulated user"; null otherwise (the done reason's words aside).
 * A scripted one: the agent ended it in one and not in the other (docs/personas.md, "Baselines and
 * drift"), "ended by the script → ended by the agent on the script's last message".
 */
function endingChange(before: PersonaRecord, after: PersonaRecord): string | null {
  const [x, y] = [before.endedBy, after.endedBy];
  if (x !== undefined && y !== undefined) return (x === 'script') === (y === 'script') ? null : `${SCRIPT_ENDED_WORDS[x]} → ${SCRIPT_ENDED_WORDS[y]}`;
  const [b, a] = [before.simulation, after.simulation];
  if (b === undefined || a === undefined) return null;
  const [was, now] = [ENDED_WORDS[b.endedBy], ENDED_WORDS[a.endedBy]];
  if (was === undefined || now === undefined || (b.doneReason !== null) === (a.doneReason !== null)) return null;
  return `${was} → ${now}`;
}

/** Do the two runs' replies (a script: its turns) differ in any byte? */
function differentWords(before: Item, after: Item): boolean {
  if (kindOf(before) === 'fixture' && kindOf(after) === 'fixture') return (before as FixtureRecord).reply !== (after as FixtureRecord).reply;
  const [b, a] = [(before as PersonaRecord).turns, (after as PersonaRecord).turns];
  return b.length !== a.length || b.some((t, i) => t.reply !== a[i]?.reply);
}

/**
 * A repeated item's attempts (a script's: their turns) replied the same in both runs, attempt by
 * attempt; true for two items run once. Another attempt's meaning may be the item's ("attempt 2:
 * ..."): its replies are among those compared.
 */
function sameAttemptReplies(before: Item, after: Item): boolean {
  const [b, a] = [attemptReplies(before), attemptReplies(after)];
  return b === null || a === null ? b === a : b.length === a.length && b.every((r, i) => r === a[i]);
}

/** A repeated item's attempts' replies (a script's: each attempt's turns' replies, as one string), in attempt order; null for an item run once. */
function attemptReplies(item: Item): (string | null)[] | null {
  if (kindOf(item) === 'fixture') return (item as FixtureRecord).attempts?.map((a) => a.reply) ?? null;
  return (item as PersonaRecord).attempts?.map((a) => JSON.stringify(a.turns.map((t) => t.reply))) ?? null;
}

/** Where an item's meaning puts it: same in meaning (Reworded) whatever the decider, else its value and words; none without one. */
function meaningStanding(m: Meaning | null): string {
  if (m === null) return 'none';
  return REWORDED.has(m.value) ? 'reworded' : `${m.value}: ${m.detail ?? ''}`;
}

/**
 * Both runs of a repeated item compared with one baseline, the reply (a script: transcript) shown
 * the same in both, while another attempt replied otherwise and the item's meaning, which may be
 * that attempt's (docs/meaning.md, "Repeats"), moved with it: that attempt is what changed, named
 * as the repeat names it, with the item's meaning before and after (docs/evaluations.md#compare):
 * `attempt 2's reply changed: "…30 days…" → "…14 days…"; the item before: reworded (judge 0.95);
 * now: changed in meaning: attempt 2: numbers 30 → 14` ("the same as the baseline" without a meaning). The attempt is the one the later meaning names (else the
 * earlier's) when its reply changed, else the first whose reply changed. The cause is the later
 * meaning's: "changed in meaning", "reworded", else "reply changed" ("transcript changed").
 * With another baseline in each run (one accepted between them), only an attempt a run's meaning
 * names, whose reply changed: the item stood where that attempt put it, and what else moved it is
 * the baseline's doing, not the agent's; said after the meanings, each its own run's against its
 * own baseline (`...; now: the same as the baseline; the baseline changed between the runs`).
 * Null otherwise: every attempt the same is judgeDisagreed's, a shown reply that changed the reply's.
 */
function anotherAttemptMoved(before: Item, after: Item): { cause: DimensionCause; detail: string } | null {
  if (before.errored || after.errored || differentWords(before, after) || sameAttemptReplies(before, after)) return null;
  const [rb, ra] = [attemptReplies(before), attemptReplies(after)];
  const [mb, ma] = [replayed(before)?.meaning ?? null, replayed(after)?.meaning ?? null];
  if (rb === null || ra === null || itemStanding(before) === itemStanding(after)) return null;
  const differs = (k: number): boolean => k >= 0 && k < Math.max(rb.length, ra.length) && rb[k] !== ra[k];
  const named = [ma, mb].map((m) => Number(attemptNamed(m?.detail ?? '')?.attempt.slice('attempt '.length) ?? 0) - 1).find(differs);
  const oneBaseline = sameBaselineOf(before, after);
  if (!oneBaseline && named === undefined) return null;
  const k = named ?? rb.findIndex((_, i) => differs(i));
  if (!differs(k)) return null;
  const script = kindOf(after) === 'script';
  const what = `attempt ${k + 1}'s ${script ? 'transcript' : 'reply'} changed`;
  let head = what;
  if (script) {
    const [tb, ta] = [(before as PersonaRecord).attempts?.[k]?.turns.length, (after as PersonaRecord).attempts?.[k]?.turns.length];
    if (tb !== undefined && ta !== undefined && tb !== ta) head = `${what} (${tb} → ${ta} turns)`;
  } else {
    const [b, a] = [rb[k] ?? null, ra[k] ?? null];
    if (b !== null && a !== null) head = `${what}: ${changeSnippet(b, a)}`;
  }
  const cause: DimensionCause = ma === null || ma.value === 'unchecked' ? (script ? 'transcript_changed' : 'reply_changed') : REWORDED.has(ma.value) ? 'reworded' : 'meaning_changed';
  return { cause, detail: `${head}; the item before: ${standingWords(before)}; now: ${standingWords(after)}${oneBaseline ? '' : `; ${BASELINE_BETWEEN}`}` };
}

/** How a change names a baseline accepted between the two runs (docs/evaluations.md#compare). */
const BASELINE_BETWEEN = 'the baseline changed between the runs';

/**
 * Both runs told the user the same (the same reply, a script's turns; a repeated item's on every
 * attempt), each against another baseline (one accepted between them), and the item stood
 * elsewhere against each: the baseline moved it, not the agent. Its standings each against its own
 * baseline, the baseline's change said last, as anotherAttemptMoved says it: `the item before: reply
 * changed; now: the same as the baseline; the baseline changed between the runs`. Null otherwise.
 */
export function baselineMoved(before: Item, after: Item): string | null {
  if (before.errored || after.errored || differentWords(before, after) || !sameAttemptReplies(before, after)) return null;
  if (before.baseline == null || after.baseline == null || sameBaselineOf(before, after) || itemStanding(before) === itemStanding(after)) return null;
  return `the item before: ${standingWords(before)}; now: ${standingWords(after)}; ${BASELINE_BETWEEN}`;
}

/**
 * Where an item stood against its own baseline, for anotherAttemptMoved: its meaning's standing
 * (meaningStanding), else whether its reply (transcript) differed; with one baseline in both runs
 * and the same reply shown, only the meaning can differ.
 */
function itemStanding(item: Item): string {
  const m = replayed(item)?.meaning ?? null;
  return m !== null ? meaningStanding(m) : differsFromBaseline(item) ? 'different' : 'none';
}

/** itemStanding in words: its meaning's, "reply changed" ("transcript changed") with none, or "the same as the baseline". */
function standingWords(item: Item): string {
  const d = replayed(item);
  const m = d?.meaning ?? null;
  if (m !== null) return meaningWords(m, d !== null && scriptDrift(d));
  if (!differsFromBaseline(item)) return 'the same as the baseline';
  return d !== null && scriptDrift(d) ? 'transcript changed' : 'reply changed';
}

/** Did the item's reply (a script: transcript) differ from its baseline's? */
function differsFromBaseline(item: Item): boolean {
  const d = replayed(item);
  return d !== null && (scriptDrift(d) ? d.transcript === 'different' : d.reply === 'different');
}

/** Does the item tell the user what its baseline does: the baseline's reply (transcript) itself, or one the same in meaning? */
function meansBaseline(item: Item): boolean {
  const d = replayed(item);
  if (d === null || d.route !== 'same') return false;
  const m = d.meaning ?? null;
  if (m !== null) return REWORDED.has(m.value);
  return scriptDrift(d) ? d.transcript === 'same' : d.reply === 'same';
}

/** Were both runs compared with one baseline (the same reply; a script: the same messages and replies)? */
function sameBaselineOf(before: Item, after: Item): boolean {
  if (kindOf(before) === 'fixture' && kindOf(after) === 'fixture') {
    const [b, a] = [(before as FixtureRecord).baseline, (after as FixtureRecord).baseline];
    return b != null && a != null && b.reply === a.reply;
  }
  if (kindOf(before) !== 'script' || kindOf(after) !== 'script') return false;
  const [b, a] = [(before as PersonaRecord).baseline?.transcript ?? null, (after as PersonaRecord).baseline?.transcript ?? null];
  return b !== null && a !== null && b.length === a.length && b.every((t, i) => t.message === a[i]?.message && t.reply === a[i]?.reply);
}

/**
 * Were both runs compared with the same baseline, and does each mean what it does (docs/evaluations.md#compare)?
 * Then what changed between them is the wording only: two pushes of a pull request against an agent
 * that rewords every reply are "reworded", not "reply changed".
 */
function rewordedAgainstOneBaseline(before: Item, after: Item): boolean {
  // A verdict that flipped between the runs is named as such, not hidden behind the wording.
  if (before.errored || after.errored || before.verdict !== after.verdict) return false;
  return sameBaselineOf(before, after) && meansBaseline(before) && meansBaseline(after);
}

/**
 * Both runs compared with one baseline, the earlier the same in meaning as it and the later changed
 * in meaning against it: the later's meaning, "changed in meaning: numbers 30 → 14", said beside
 * the reply (transcript) that changed (docs/evaluations.md#compare). An agent that rewords every
 * reply differs from the earlier run everywhere, so the replies' snippet may not show the fact.
 */
function changedAgainstOneBaseline(before: Item, after: Item): string {
  if (before.errored || after.errored || !sameBaselineOf(before, after) || !meansBaseline(before)) return '';
  const m = replayed(after)?.meaning ?? null;
  return m !== null && m.value === 'changed' ? `; against the baseline: ${meaningWords(m, kindOf(after) === 'script')}` : '';
}

/**
 * Both runs compared the same replies (a repeated item's: each attempt's) with one baseline and
 * the meaning judge answered them differently, one the same in meaning and the other changed, or
 * gave an answer in one run and none it could use in the other (unreachable, no usable answer:
 * `unchecked`): the judge disagreed with itself, the agent did not change (docs/meaning.md, "A
 * judge that answers differently"). The cause is the later answer's ("reworded", "changed in
 * meaning"; a later answer not given: "reply changed", "transcript changed", as an item whose
 * meaning was not checked reads); the detail says both.
 */
function judgeDisagreed(before: Item, after: Item): { cause: DimensionCause; detail: string } | null {
  if (before.errored || after.errored || !sameBaselineOf(before, after) || differentWords(before, after) || !sameAttemptReplies(before, after)) return null;
  const [mb, ma] = [replayed(before)?.meaning ?? null, replayed(after)?.meaning ?? null];
  const script = kindOf(after) === 'script';
  // The judge gave no answer it could use: its cause in two parts ("turn 2 meaning not checked", "meaning judge unreachable: ...");
  // a repeated fixture's names its attempt first ("attempt 2: meaning judge unreachable: ..."), kept in the words.
  const none = (m: Meaning): { head: string; cause: string } | null => {
    const parts = uncheckedParts(m, script);
    return parts !== null && meaningJudgeGaveNone(attemptNamed(parts.cause)?.rest ?? parts.cause) ? parts : null;
  };
  if (mb === null || ma === null || (mb.by !== 'judge' && none(mb) === null) || (ma.by !== 'judge' && none(ma) === null)) return null;
  if (mb.by !== 'judge' && ma.by !== 'judge') return null;
  if (mb.by === 'judge' && ma.by === 'judge' && REWORDED.has(mb.value) === REWORDED.has(ma.value)) return null;
  // A script's words name the turn already ("turn 2 changed in meaning: ..."); a fixture's say the score too.
  const words = (m: Meaning): string => {
    const missing = m.by === 'judge' ? null : none(m);
    if (missing !== null) return `${missing.head} (${missing.cause})`;
    return REWORDED.has(m.value) || script ? meaningWords(m, script) : `changed in meaning (${howDecided(m)})${m.detail ? `: ${m.detail}` : ''}`;
  };
  const cause: DimensionCause = ma.by !== 'judge' ? (script ? 'transcript_changed' : 'reply_changed') : REWORDED.has(ma.value) ? 'reworded' : 'meaning_changed';
  return { cause, detail: judgeFlipLine('meaning judge', 'replies', { words: words(mb), answered: mb.by === 'judge' }, { words: words(ma), answered: ma.by === 'judge' }) };
}

/** The words of a same-meaning pair of runs: the later run's meaning, else the earlier's (the later replied the baseline itself). */
function sharedRewordedWords(before: Item, after: Item): string {
  const m = replayed(after)?.meaning ?? replayed(before)?.meaning ?? null;
  return m === null ? 'reworded' : meaningWords(m, kindOf(after) === 'script');
}

/**
 * The meaning dimension's change between two runs of one item (docs/evaluations.md#compare): a
 * judge that answered the same replies differently, a rewording against one baseline, or the later
 * run's meaning where it was compared with the earlier run's replies; null otherwise.
 */
function meaningBetween(before: Item, after: Item): string | { cause: DimensionCause; detail: string } | null {
  const disagreed = judgeDisagreed(before, after);
  if (disagreed !== null) return disagreed;
  // Both compared with one baseline, each the same in meaning as it: reworded, when the words differ.
  if (!meaningComparable(before, after) && rewordedAgainstOneBaseline(before, after)) {
    return differentWords(before, after) ? { cause: 'reworded', detail: sharedRewordedWords(before, after) } : null;
  }
  if (!meaningComparable(before, after)) return null;
  const d = replayed(after);
  const m = d?.meaning ?? null;
  if (d === null || m === null) return null;
  const words = meaningWords(m, scriptDrift(d));
  if (REWORDED.has(m.value)) return { cause: 'reworded', detail: words };
  return m.value === 'changed' ? words : null;
}

/**
 * The change dimensions, in the order every surface lists them (a fixture: reply, route, slower; a
 * script: transcript, routes, slower). Adding a dimension is one entry here (docs/architecture.md).
 */
export const DIMENSIONS = {
  reply: {
    kinds: ['fixture'],
    of: (item) => {
      const d = replayed(item);
      return d !== null && !scriptDrift(d) && d.reply === 'different' ? 'reply changed' : null;
    },
    failOn: 'reply_changed',
    cause: 'reply_changed',
    causeWords: { title: 'reply changed', one: 'reply changed', many: 'replies changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) !== 'fixture' || kindOf(after) !== 'fixture') return null;
      const [b, a] = [(before as FixtureRecord).reply, (after as FixtureRecord).reply];
      if (meaningComparable(before, after) || rewordedAgainstOneBaseline(before, after)) return null;
      return b !== null && a !== null && b !== a ? `reply changed: ${changeSnippet(b, a)}${changedAgainstOneBaseline(before, after)}` : null;
    },
    rewritesBaseline: false,
    settle: (item) => (kindOf(item) === 'fixture' ? { ...item, drift: { ...item.drift, reply: 'same' } } : item),
    intro: { subject: 'the reply', when: 'always' },
  },
  transcript: {
    kinds: ['script'],
    of: (item) => {
      const d = replayed(item);
      return d !== null && scriptDrift(d) && d.transcript === 'different' ? 'transcript changed' : null;
    },
    // A script's reply drift is its transcript drift.
    failOn: 'reply_changed',
    cause: 'transcript_changed',
    causeWords: { title: 'transcript changed', one: 'transcript changed', many: 'transcripts changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) !== 'script' || kindOf(after) !== 'script') return null;
      const [b, a] = [(before as PersonaRecord).turns, (after as PersonaRecord).turns];
      if (meaningComparable(before, after) || rewordedAgainstOneBaseline(before, after)) return null;
      if (b.length !== a.length) return `transcript changed (${b.length} → ${a.length} turns)${changedAgainstOneBaseline(before, after)}`;
      if (b.some((t, i) => t.reply !== a[i]?.reply)) return `transcript changed${changedAgainstOneBaseline(before, after)}`;
      const ended = endingChange(before as PersonaRecord, after as PersonaRecord);
      return ended === null ? null : `transcript changed (${ended})`;
    },
    rewritesBaseline: false,
    settle: (item) => (kindOf(item) === 'script' ? { ...item, drift: { ...item.drift, transcript: 'same' } } : item),
    intro: { subject: "a script's transcript", when: 'scripts' },
  },
  meaning: {
    kinds: ['fixture', 'script'],
    // Beside "reply changed" (docs/meaning.md): "changed in meaning: numbers 30 → 14", "meaning not
    // checked: <cause>", "reworded (judge 0.93)". Null (check off, or the reply the same): no words.
    of: (item) => {
      const d = replayed(item);
      const m = d?.meaning ?? null;
      return d === null || m === null ? null : meaningWords(m, scriptDrift(d));
    },
    failOn: 'meaning_changed',
    // `unchecked` never meets it (docs/semantics.md#the-gate).
    meets: (item) => replayed(item)?.meaning?.value === 'changed',
    cause: 'meaning_changed',
    causeWords: { title: 'changed in meaning', one: 'changed in meaning', many: 'changed in meaning' },
    otherCause: { cause: 'reworded', words: { title: 'reworded', one: 'reworded', many: 'reworded' } },
    compared: 'content',
    // Only where the later run was compared with the earlier run's replies (its baselines), or both
    // with one baseline; else the reply or transcript dimension names "reply changed" as before
    // (docs/evaluations.md#compare). A repeated item's shown reply the same while another attempt's
    // moved its meaning: that attempt, named.
    between: (before, after) => meaningBetween(before, after) ?? anotherAttemptMoved(before, after),
    rewritesBaseline: false,
    settle: (item) => ({ ...item, drift: { ...item.drift, meaning: null } }),
    // Changed by another attempt only, the reply shown being the baseline's: that attempt is what differs.
    intro: { subject: 'an attempt other than the one shown', when: byAnotherAttempt },
  },
  route: {
    kinds: ['fixture', 'script'],
    of: (item) => {
      const d = replayed(item);
      if (d === null || d.route !== 'different') return null;
      return scriptDrift(d) ? 'routes changed' : 'route changed';
    },
    failOn: 'route_changed',
    cause: 'route_changed',
    causeWords: { title: 'route changed', one: 'route changed', many: 'routes changed' },
    compared: 'content',
    between: (before, after) => {
      if (kindOf(before) === 'script' && kindOf(after) === 'script') {
        return sameRoutes(routesOf(before as PersonaRecord), routesOf(after as PersonaRecord)) ? null : 'route changed';
      }
      if (kindOf(before) !== 'fixture' || kindOf(after) !== 'fixture') return null;
      const [b, a] = [before as FixtureRecord, after as FixtureRecord];
      if (b.reply === null || a.reply === null || sameRoute(b.route, a.route)) return null;
      const show = (r: Route | null): string => (r === null ? 'no route' : `${r.conversation}/${r.stage}`);
      return `route changed (${show(b.route)} → ${show(a.route)})`;
    },
    rewritesBaseline: false,
    settle: (item) => ({ ...item, drift: { ...item.drift, route: 'same' } }),
    intro: { subject: 'the route', when: 'always' },
  },
  slower: {
    kinds: ['fixture', 'script'],
    // Beside the drift, like it (docs/latency.md): "slower: 1.2 s → 2.9 s".
    of: (item) => (item.errored === true || item.slower == null ? null : `slower: ${slowerText(item.slower)}`),
    failOn: 'slower',
    cause: 'slower',
    causeWords: { title: 'slower', one: 'item slower', many: 'items slower' },
    compared: 'speed',
    // The same result, only slower, by config.yml's `latency` thresholds (docs/latency.md).
    between: (before, after, latency) => {
      if (before.errored || after.errored) return null;
      const s = slowerThanBaseline(itemLatencyMs(after), itemLatencyMs(before), latency);
      return s === null ? null : `slower: ${slowerText(s)}`;
    },
    rewritesBaseline: true,
    // The baseline now holds the item's latency: it is no longer slower than it.
    settle: (item) => {
      const { slower: _slower, ...rest } = item;
      return rest as typeof item;
    },
    intro: { clause: 'the item is slower than its baseline', when: 'present' },
  },
} as const satisfies Record<Dimension, DimensionRule>;

/** Every dimension, in the order surfaces list them. */
export const DIMENSION_ORDER = Object.keys(DIMENSIONS) as Dimension[];

function ruleOf(d: Dimension): DimensionRule {
  return DIMENSIONS[d];
}

/** An item's changes against its baseline, in DIMENSION_ORDER; none for an errored item or one without a baseline. */
export function changesOf(item: ChangeSubject): Change[] {
  const changes: Change[] = [];
  for (const dimension of DIMENSION_ORDER) {
    const words = ruleOf(dimension).of(item);
    if (words !== null) changes.push({ dimension, words });
  }
  return changes;
}

/** Does the item meet a fail-on condition through one of its changes (reply_changed, route_changed, slower)? */
export function meetsChange(item: ChangeSubject, condition: FailOnCondition): boolean {
  return changesOf(item).some((c) => {
    const rule = ruleOf(c.dimension);
    return rule.failOn === condition && (rule.meets?.(item) ?? true);
  });
}

/** Did the verdict change since the baseline (newly failing or newly passing)? */
function verdictChanged(item: ChangeSubject): boolean {
  const v = replayed(item)?.verdict;
  return v === 'newly_failing' || v === 'newly_passing';
}

/**
 * Drifted (the Action's `drifted` output, docs/action.md): the item differs from its baseline in
 * any change dimension or in its verdict. Every item of the Changed section is drifted, and so is a
 * failing item whose reply, route or speed changed.
 */
export function isDrifted(item: ChangeSubject): boolean {
  return verdictChanged(item) || changesOf(item).length > 0;
}

/** How many fixtures and persona scripts of a run drifted (the Action's `drifted` output). */
export function driftedCount(run: { fixtures: readonly ChangeSubject[]; personas?: readonly ChangeSubject[] | null }): number {
  return run.fixtures.filter(isDrifted).length + (run.personas ?? []).filter(isDrifted).length;
}

/** Would accepting the item rewrite its baseline although its reply, route and verdict match it (a slower item)? */
export function rewritesBaseline(item: ChangeSubject): boolean {
  return changesOf(item).some((c) => ruleOf(c.dimension).rewritesBaseline);
}

/** The record as it reads once its baseline is accepted: no change left, the verdict still passing or still failing. */
export function asAccepted<T extends ReplayedItem>(item: T): T {
  let out = item;
  for (const d of DIMENSION_ORDER) out = ruleOf(d).settle(out);
  const verdict = item.verdict === 'pass' ? 'still_passing' : 'still_failing';
  return { ...out, drift: { ...out.drift, verdict } };
}

/**
 * The first change between two runs of one item that `compare` names, among the dimensions
 * compared at `stage` ("content" before the verdict, "speed" last); null when none.
 */
export function changeBetween(before: Item, after: Item, stage: DimensionRule['compared'], latency: LatencyThresholds): { cause: DimensionCause; detail: string } | null {
  for (const d of DIMENSION_ORDER) {
    const rule = ruleOf(d);
    if (rule.compared !== stage) continue;
    const found = rule.between(before, after, latency);
    if (found !== null) return typeof found === 'string' ? { cause: rule.cause, detail: found } : found;
  }
  return null;
}

/**
 * The Changed section's introduction (docs/semantics.md#where-an-item-is-shown), from the dimensions
 * its items call for: "The reply or the route differs from the baseline, or the check passes now."
 */
export function changedIntro(items: readonly ChangeSubject[], hasScripts: boolean): string {
  const subjects: string[] = [];
  const later: string[] = [];
  const clauses = ['the check passes now'];
  for (const d of DIMENSION_ORDER) {
    const intro = ruleOf(d).intro;
    if (intro === null) continue;
    if ('subject' in intro) {
      if (typeof intro.when === 'function') {
        if (items.some(intro.when)) later.push(intro.subject);
      } else if (intro.when === 'always' || hasScripts) subjects.push(intro.subject);
    } else if (items.some((i) => changesOf(i).some((c) => c.dimension === d))) {
      clauses.push(intro.clause);
    }
  }
  return `${capitalized(listWords([...subjects, ...later], 'or'))} differs from the baseline, ${clauses.length === 1 ? 'or ' : ''}${clausesOr(clauses)}.`;
}

/**
 * A repeated item whose reply (a script: transcript) shown is its baseline's and whose meaning is
 * another attempt's, named ("attempt 2: numbers 30 → 14", "attempt 2: replied otherwise than
 * attempt 1"; evaluate/finish.ts): it is Changed for that attempt alone (docs/meaning.md, "Repeats").
 */
function byAnotherAttempt(item: ChangeSubject): boolean {
  const d = replayed(item);
  const m = d?.meaning ?? null;
  if (d === null || m === null || m.detail === null) return false;
  const shownIsBaseline = scriptDrift(d) ? d.transcript === 'same' : d.reply === 'same';
  return shownIsBaseline && attemptNamed(m.detail) !== null;
}

/**
 * The intro's clauses: "a", "a, or b", "a, b, or c". A comma before "or", unlike listWords: each
 * clause is a sentence's part of its own ("the check passes now, or the tools called differ").
 */
function clausesOr(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')}, or ${parts[parts.length - 1]}`;
}

/** Characters of context kept on each side of a changed part, and the longest part shown. */
const SNIPPET_CONTEXT = 24;
const SNIPPET_PART = 80;

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What changed between two texts, one line: the differing middle of each with a little context,
 * e.g. `"…open 9:00-17:00, Monday…" → "…open 9:00-18:00, Monday…"`.
 */
function changeSnippet(before: string, after: string): string {
  const a = flat(before);
  const b = flat(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const part = (t: string): string => {
    const from = Math.max(0, start - SNIPPET_CONTEXT);
    const to = Math.min(t.length, t.length - end + SNIPPET_CONTEXT);
    let middle = t.slice(from, to);
    if (middle.length > SNIPPET_PART) middle = `${headOf(middle, SNIPPET_PART - 1)}…`;
    const text = `${from > 0 ? '…' : ''}${middle}${to < t.length && !middle.endsWith('…') ? '…' : ''}`;
    return t === '' ? '(empty)' : JSON.stringify(text);
  };
  return `${part(a)} → ${part(b)}`;
}
