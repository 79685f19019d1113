// What acceptance writes into a baseline's `variants`, and when a repeated item's attempts agree
// well enough to be accepted (docs/meaning.md, "Variants" and "Repeats"). Pure.
//
// Variants are replies a maintainer accepted as meaning the same as the baseline reply. They are
// written only by acceptance, never by a run:
//   - accepting a reply whose meaning is formatting, variant or reworded keeps the previous reply and
//     its variants; one whose meaning is changed or unchecked (or null: `meaning.check: off`, an
//     older record), or whose verdict changed, clears them; a reply equal to the previous one keeps
//     its variants as they are;
//   - a repeated item's other attempts that replied differently in wording only are its variants too;
//   - the list is newest first (this run's attempts, then the previous reply, then its variants),
//     distinct after normalization and from the new reply, at most MAX_VARIANTS.

import { MAX_VARIANTS, type Meaning, type MeaningValue, type ScriptEnding } from '../types.js';
import { attemptEndingChange } from './ending.js';
import { MEANING_WORDS, factsOf, normalizeReply, sameFactsAsWritten } from './meaning/index.js';
import { attemptMeaningDetail, attemptsNamed, repliedOtherwise, repliesVary } from './repeat.js';

/** The meanings that say a reply tells the user the same as the one it was compared with. */
const SAME_MEANING: ReadonlySet<MeaningValue> = new Set<MeaningValue>(['formatting', 'variant', 'reworded']);

/** Does this meaning say the reply tells the user the same? Not for changed, unchecked, or none (null, absent). */
export function meansTheSame(meaning: Meaning | null | undefined): boolean {
  return meaning != null && SAME_MEANING.has(meaning.value);
}

/**
 * The variants a baseline keeps beside `reply`: `candidates` (newest first) without those equal to
 * the reply or to an earlier candidate after normalization, at most MAX_VARIANTS.
 */
export function variantsFor(reply: string, candidates: readonly string[]): string[] {
  const seen = new Set([normalizeReply(reply)]);
  const out: string[] = [];
  for (const c of candidates) {
    if (out.length === MAX_VARIANTS) break;
    const n = normalizeReply(c);
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(c);
  }
  return out;
}

/**
 * The wordings known to mean the same as a repeated item's attempt 1 (docs/meaning.md, "Repeats"):
 * the baseline's reply and its variants when attempt 1's reply is one of them after normalization,
 * else none. So the next run of an item accepted with its attempts' wordings as variants compares
 * its attempts with no meaning call.
 */
export function knownWordings(first: string | null, baseline: PreviousReply | null | undefined): string[] {
  if (first === null || baseline == null) return [];
  const all = [baseline.reply, ...(baseline.variants ?? [])];
  const n = normalizeReply(first);
  // Equal once normalized and with the same facts written alike, as the ladder's formatting rung asks ("10**6" is not 106).
  let facts: ReturnType<typeof factsOf> | undefined;
  return all.some((w) => normalizeReply(w) === n && sameFactsAsWritten(w, (facts ??= factsOf(first)))) ? all : [];
}

/** The part of a stored reply acceptance reads: the reply, its variants, and the verdict accepted with it. */
export interface PreviousReply {
  reply: string;
  variants?: readonly string[] | undefined;
}

/**
 * What an acceptance carries over of the reply it replaces (newest first): nothing without one or
 * when the verdict changed; its variants when the reply is the same; the reply and its variants
 * when the new reply's meaning against it is formatting, variant or reworded; else nothing.
 */
export function carriedVariants(previous: PreviousReply | null, now: { reply: string; meaning?: Meaning | null | undefined }, verdictChanged: boolean): string[] {
  if (previous === null || verdictChanged) return [];
  if (previous.reply === now.reply) return [...(previous.variants ?? [])];
  return meansTheSame(now.meaning) ? [previous.reply, ...(previous.variants ?? [])] : [];
}

/**
 * The variants to write beside `reply`: `computed`, or the stored list as it stands when the stored
 * baseline holds this very reply and `computed` holds the same wordings in another order (a repeat
 * whose attempts replied known wordings again adds none: the file is not rewritten only to reorder
 * them; docs/meaning.md, "Variants").
 */
export function inStoredOrder(stored: PreviousReply | null | undefined, reply: string, computed: string[]): string[] {
  const kept = stored?.variants ?? [];
  if (stored == null || stored.reply !== reply || kept.length !== computed.length) return computed;
  return computed.every((v) => kept.includes(v)) && kept.every((v) => computed.includes(v)) ? [...kept] : computed;
}

/** Are two variants lists the same, in the same order? */
export function sameVariants(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

// --- repeats --------------------------------------------------------------------------------------

/** Whether a repeated item's attempts can be accepted as one reply, and the variants they give it. */
export type AttemptsAgreement = { kind: 'agree'; variants: string[] } | { kind: 'refuse'; reason: string };

/** One attempt that replied, as acceptance reads it: whether it differs from the accepted one, and its meaning against attempt 1. */
export interface AttemptView {
  /** 1-based, as the record lists the attempts. */
  number: number;
  differs: boolean;
  meaning: Meaning | null | undefined;
  /**
   * A script's attempt whose only difference from attempt 1 that stands in the way is who ended the
   * conversation (its `meaning` then says so, `changed` by `turns`): its replies may be the same.
   */
  ended?: boolean;
}

/**
 * How an attempt stands against attempt 1 (docs/meaning.md, "Repeats"), the terms acceptance
 * decides on: the same reply; reworded (formatting, a known variant or reworded); changed in
 * meaning; meaning not checked; or different with no meaning recorded (`meaning.check: off`, an
 * older record). The last three refuse acceptance.
 */
export type AttemptStanding = 'same' | 'reworded' | 'changed' | 'ended' | 'unchecked' | 'unmeasured';

export function attemptStanding(v: AttemptView): AttemptStanding {
  if (!v.differs) return 'same';
  if (v.ended === true) return 'ended';
  if (v.meaning == null) return 'unmeasured';
  return meansTheSame(v.meaning) ? 'reworded' : v.meaning.value === 'changed' ? 'changed' : 'unchecked';
}

/** How a refusal names an attempt's meaning: the facts or the judge's difference; "meaning not checked: ..." when unchecked. */
function attemptWords(meaning: Meaning, script: boolean): string {
  // A script's meaning already names its turn and what it is ("turn 3 changed in meaning: ...").
  if (script && meaning.detail !== null) return meaning.detail;
  if (meaning.value === 'changed') return meaning.detail ?? MEANING_WORDS.changed;
  return `${MEANING_WORDS.unchecked}${meaning.detail !== null ? `: ${meaning.detail}` : ''}`;
}

/**
 * The refusal for attempts that differ (docs/meaning.md, "Repeats"): any whose meaning against
 * attempt 1 is changed or unchecked are named ("replies differ in meaning across 3 attempts:
 * attempt 2: numbers 30 → 14"); without a meaning (check off, older records), differing attempts
 * are refused as "replies vary across 3 attempts: attempts 2 and 3 replied otherwise than attempt
 * 1", named too; beside attempts named for their meaning (an older record whose attempts carry a
 * meaning or not), after them: "...: attempt 2: numbers 30 → 14; attempt 3 replied otherwise than
 * attempt 1". A script's attempt whose conversation ended otherwise is named in its own words,
 * and the head says what differs: "conversations ended
 * differently across 3 attempts: attempt 2: the agent ended ..." when nothing else does (its
 * replies may be the same), "replies differ in meaning, and conversations ended differently,
 * across 3 attempts: ..." or "replies vary, and conversations ended differently, across 3
 * attempts: ...; attempt 3 replied otherwise than attempt 1" beside the others. Null: no attempt
 * stands in the way.
 */
function attemptsRefusal(views: readonly AttemptView[], total: number, script: boolean): string | null {
  const differing = views.filter((v) => v.differs);
  const meaningful = differing.filter((v) => v.meaning != null && !meansTheSame(v.meaning));
  const unmeasured = differing.filter((v) => v.meaning == null).map((v) => v.number);
  // The attempts that replied otherwise with no meaning, named against the first that replied (the one accepted and shown).
  const otherwise = unmeasured.length === 0 ? null : repliedOtherwise(unmeasured, views[0]?.number ?? 1);
  if (meaningful.length === 0) return otherwise === null ? null : repliesVary(total, otherwise);
  // Attempts none of which changed in meaning, only not checked: the head says so, not that their
  // meanings differ, and attempts with the same cause are named once ("attempts 2 and 3: the facts
  // are the same and meaning.check is facts, which asks no model").
  if (otherwise === null && meaningful.every((v) => v.ended !== true && v.meaning?.value === 'unchecked')) {
    return `replies vary across ${total} attempts, ${MEANING_UNCHECKED}: ${uncheckedNamed(meaningful, script)}`;
  }
  // Beside them, the attempts of an older record that carry no meaning and replied otherwise are named after, as every attempt that stands in the way is.
  const named = `${meaningful.map((v) => `attempt ${v.number}: ${attemptWords(v.meaning as Meaning, script)}`).join('; ')}${otherwise === null ? '' : `; ${otherwise}`}`;
  if (!meaningful.some((v) => v.ended === true)) return `${REPLIES_DIFFER} across ${total} attempts: ${named}`;
  if (meaningful.some((v) => v.ended !== true)) return `${REPLIES_DIFFER}, and ${ENDINGS_DIFFER}, across ${total} attempts: ${named}`;
  return otherwise === null ? `${ENDINGS_DIFFER} across ${total} attempts: ${named}` : `replies vary, and ${ENDINGS_DIFFER}, across ${total} attempts: ${named}`;
}

/**
 * A repeated item's meaning when its shown reply (transcript) is its baseline's and another attempt
 * replied otherwise with no meaning recorded (`meaning.check: off`; docs/meaning.md, "Repeats"):
 * the first such attempt, named as acceptance names it, `unchecked` ("meaning not checked: attempt
 * 2: replied otherwise than attempt 1"), so that the item reads Changed as acceptance refuses it.
 * Null when no attempt did. `views`: the attempts that replied, the shown one first.
 */
export function unmeasuredAttemptMeaning(views: readonly AttemptView[]): Meaning | null {
  const v = views.slice(1).find((a) => attemptStanding(a) === 'unmeasured');
  return v === undefined ? null : { value: 'unchecked', by: null, detail: repliedOtherwiseDetail(v.number, views[0]?.number ?? 1) };
}

/** That meaning's detail: "attempt 2: replied otherwise than attempt 1" (report/item-parts.ts reads it back to show that attempt's reply). */
export function repliedOtherwiseDetail(number: number, reference: number): string {
  return attemptMeaningDetail(number, `replied otherwise than attempt ${reference}`);
}

/**
 * Attempts whose meaning was not checked, grouped by their words in first-named order: "attempts 2
 * and 3: the facts are the same ..." (a script's detail names its turn: "attempt 2: turn 1 meaning
 * not checked: ...").
 */
function uncheckedNamed(views: readonly AttemptView[], script: boolean): string {
  const groups = new Map<string, number[]>();
  for (const v of views) {
    const m = v.meaning as Meaning;
    const words = script && m.detail !== null ? m.detail : (m.detail ?? MEANING_WORDS.unchecked);
    groups.set(words, [...(groups.get(words) ?? []), v.number]);
  }
  return [...groups].map(([words, numbers]) => `${attemptsNamed(numbers)}: ${words}`).join('; ');
}

/** The heads of attemptsRefusal's words (report/blocks.ts attemptsRefusalFix reads them back for the fix). */
const REPLIES_DIFFER = 'replies differ in meaning';
/** Said of attempts that replied otherwise, none changed in meaning, some not checked (docs/meaning.md, "Repeats"). */
const MEANING_UNCHECKED = 'their meaning not checked';
const ENDINGS_DIFFER = 'conversations ended differently';

/**
 * A repeated fixture's attempts against the reply accepted (the first that replied): agreed when
 * every attempt that replied gave the same reply or one whose meaning against attempt 1 is
 * formatting, variant or reworded; then the others' replies are variants, in attempt order.
 * Errored attempts have no reply and are left out (their effect is on the verdict).
 */
export function fixtureAttemptsAgree(reply: string, attempts: readonly FixtureAttemptText[]): AttemptsAgreement {
  const reason = attemptsRefusal(fixtureAttemptViews(reply, attempts), attempts.length, false);
  if (reason !== null) return { kind: 'refuse', reason };
  return { kind: 'agree', variants: attempts.flatMap((a) => (a.errored || a.reply === null || a.reply === reply ? [] : [a.reply])) };
}

type FixtureAttemptText = { errored: boolean; reply: string | null; meaning?: Meaning | null };

/** A repeated fixture's attempts that replied, each against `reply` (attempt 1's, the one accepted and shown). */
export function fixtureAttemptViews(reply: string, attempts: readonly FixtureAttemptText[]): AttemptView[] {
  return attempts.flatMap((a, i) => (a.errored || a.reply === null ? [] : [{ number: i + 1, differs: a.reply !== reply, meaning: a.meaning }]));
}

/** A script's turn as acceptance reads it. */
interface TurnText {
  message: string | null;
  reply: string;
}

/** A repeated script's attempt as acceptance reads it: its turns, its meaning against attempt 1, and who ended it (a scripted script's). */
interface ScriptAttemptText {
  errored: boolean;
  turns: readonly (TurnText & { index: number })[];
  meaning?: Meaning | null;
  endedBy?: ScriptEnding;
}

/**
 * The same for a repeated persona script: an attempt that completed differs when any turn's reply
 * (or the number of turns) does, compared only while its user said what attempt 1's did (a
 * simulated user may write another message: from there the replies answer other messages), or when
 * the agent ended its conversation where attempt 1's did not, or the reverse; its meaning is the
 * script's against attempt 1, over the same turns. Agreed attempts
 * give each turn the others' replies at that turn as its variants, where the user's message at
 * that turn was the same (a simulated user may write another one).
 */
export function personaAttemptsAgree(turns: readonly TurnText[], attempts: readonly ScriptAttemptText[]): { kind: 'agree'; variants: string[][] } | { kind: 'refuse'; reason: string } {
  const reason = attemptsRefusal(personaAttemptViews(turns, attempts), attempts.length, true);
  if (reason !== null) return { kind: 'refuse', reason };
  const variants: string[][] = turns.map(() => []);
  for (const a of attempts) {
    if (a.errored) continue;
    for (const [k, t] of a.turns.entries()) {
      const accepted = turns[k];
      if (accepted !== undefined && t.message === accepted.message && t.reply !== accepted.reply) variants[k]?.push(t.reply);
    }
  }
  return { kind: 'agree', variants };
}

/**
 * A repeated script's attempts that completed, each against `turns` (attempt 1's, the transcript
 * accepted and shown), compared while its user said what attempt 1's did. An attempt of the same
 * messages and turns whose agent ended the conversation where attempt 1's did not, or the reverse,
 * is `changed` by `turns` in those words, as its meaning says with meaning checked
 * (docs/meaning.md, "Repeats"): also with meaning off, or in a record whose meanings predate it,
 * there is no one ending to accept.
 */
export function personaAttemptViews(turns: readonly TurnText[], attempts: readonly ScriptAttemptText[]): AttemptView[] {
  const ref = attempts.findIndex((a) => !a.errored);
  const first = attempts[ref];
  return attempts.flatMap((a, i) => {
    if (a.errored) return [];
    const apart = a.turns.findIndex((t, k) => k < turns.length && t.message !== turns[k]?.message);
    const compared = apart === -1 ? a.turns : a.turns.slice(0, apart);
    const ended = first === undefined ? null : attemptEndingChange(a, first, ref + 1);
    const differs = ended !== null || (apart === -1 && a.turns.length !== turns.length) || compared.some((t, k) => t.reply !== turns[k]?.reply);
    // A turn changed in meaning is named before the ending, as against the baseline (replay/personas.ts conversationMeaning).
    // The run records that meaning already (evaluate/finish.ts); an older record or meaning off, not.
    const byEnding = ended !== null && (a.meaning?.value !== 'changed' || a.meaning.detail === ended);
    const meaning: Meaning | null | undefined = byEnding ? { value: 'changed', by: 'turns', detail: ended } : a.meaning;
    return [{ number: i + 1, differs, meaning, ...(byEnding ? { ended: true } : {}) }];
  });
}

/** A persona baseline's turn as acceptance compares it with the record's turn at the same index. */
export interface PreviousTurn extends PreviousReply {
  message: string | null;
}

/** A stored baseline as acceptance reads it: its verdict and its reply (a fixture's) or turns (a script's). */
interface Accepted {
  verdict: 'pass' | 'fail';
}

/**
 * What an accepted fixture reply carries over (docs/meaning.md, "Variants"). The stored baseline
 * when it holds this very reply (its variants stay as they are); else the baseline the run compared
 * with, against which the reply's meaning was decided: by carriedVariants.
 */
export function carriedReplyVariants(
  current: (Accepted & PreviousReply) | null,
  compared: (Accepted & PreviousReply) | null,
  now: { reply: string; verdict: 'pass' | 'fail'; meaning: Meaning | null | undefined },
): string[] {
  const previous = current !== null && current.reply === now.reply ? current : compared;
  if (previous === null) return [];
  return carriedVariants(previous, now, previous.verdict !== now.verdict);
}

/**
 * The same for each turn of an accepted script, by the turn's own meaning: the stored baseline's
 * turn at the same index when it holds this very reply to the same message, else the compared
 * baseline's when the user's message at that turn is the same (else the reply answers another
 * message, and nothing is carried).
 */
export function carriedTurnVariants(
  current: (Accepted & { transcript: readonly PreviousTurn[] }) | null,
  compared: (Accepted & { transcript: readonly PreviousTurn[] }) | null,
  now: { verdict: 'pass' | 'fail'; turns: readonly { message: string | null; reply: string; meaning?: Meaning | null }[] },
): string[][] {
  return now.turns.map((t, i) => {
    const stored = current?.transcript[i];
    if (current !== null && stored !== undefined && stored.message === t.message && stored.reply === t.reply) return carriedVariants(stored, t, current.verdict !== now.verdict);
    const p = compared?.transcript[i];
    if (compared === null || p === undefined || p.message !== t.message) return [];
    return carriedVariants(p, t, compared.verdict !== now.verdict);
  });
}
