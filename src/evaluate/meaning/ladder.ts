// The meaning ladder (docs/meaning.md, "The ladder"): a reply that differs from its baseline gets a
// meaning from the first rung that can decide it. Normalize (formatting only), then the baseline's
// known variants, then the facts (a different number, amount, time, URL, address or code is a
// change, with no model asked), and only then the meaning judge. Pure: the judge is a function
// passed in, so this module reads no file and opens no connection.

import type { MeaningCheck } from '../../config.js';
import type { Fact, FactsDifference, Meaning, MeaningBy, MeaningValue } from '../../types/meaning.js';
import { compareFacts, factsDetail, factsOf, noFactsDiffer, sameFactsAsWritten } from './facts.js';
import { mayNormalizeAlike, normalizeReply, sameUrlPaths } from './normalize.js';
import { numberWordsRead, withoutNumberWords } from './number-words.js';
import { docsUrl } from '../../version.js';
import { clipKeepingFix } from '../../assertions/format.js';
import { headOf } from '../../words.js';
import { NEW_CONFIG_NAME } from '../../suite/config-names.js';

export type { Meaning, MeaningBy, MeaningValue };
export type { MeaningCheck };

/** The meaning judge's answer for one ordered pair of replies (src/judge/meaning.ts asks it). */
export type MeaningJudgeAnswer = { ok: true; score: number; difference: string; reused: boolean } | { ok: false; reason: string; reused: boolean };

/** How every cause of `check: facts` ends (FACTS_ONLY_CAUSE, numberWordsCause). */
const FACTS_ONLY_TAIL = ' and meaning.check is facts, which asks no model';
/** Why an item the facts cannot decide is `unchecked` under `meaning.check: facts`. */
export const FACTS_ONLY_CAUSE = `the facts are the same${FACTS_ONLY_TAIL}`;
const NUMBER_WORDS_HEAD = 'the facts agree once ';
/**
 * FACTS_ONLY_CAUSE where the facts agree only once a number word is read as the other reply's number
 * ("two-year" against "2-year": docs/meaning.md, "Numbers in words"): `read` says each word so
 * (`"two" is read as 2`, number-words.ts).
 */
export function numberWordsCause(read: readonly string[]): string {
  return `${NUMBER_WORDS_HEAD}${read.join(' and ')}${FACTS_ONLY_TAIL}`;
}
/** Whether `text` says a cause of `check: facts` (FACTS_ONLY_CAUSE or its number-words form) anywhere in it: a refusal that names attempts with it (evaluate/variants.ts). */
export function saysFactsOnly(text: string): boolean {
  return text.includes(FACTS_ONLY_TAIL);
}
/** Whether a cause is FACTS_ONLY_CAUSE or its number-words form (numberWordsCause), which share one fix (factsOnlyFix). */
export function isFactsOnlyCause(cause: string): boolean {
  return cause === FACTS_ONLY_CAUSE || (cause.startsWith(NUMBER_WORDS_HEAD) && cause.endsWith(FACTS_ONLY_TAIL));
}
/**
 * What to do about FACTS_ONLY_CAUSE, said once beside it where several items share it
 * (docs/meaning.md, "Configuration"): with a judge configured (`judged`), `check: facts` was chosen;
 * without one it is the default, and a judge added to `file`, the suite's config file, makes `judge` the default.
 */
export function factsOnlyFix(judged: boolean, file: string = NEW_CONFIG_NAME): string {
  const judge = judged ? 'set meaning.check: judge to have the judge' : `add a judge to ${file}, which makes meaning.check judge, to have a model`;
  return `${judge} tell rewording from a change in meaning (${docsUrl('meaning.md', 'Configuration')})`;
}
/**
 * Why it is `unchecked` when the ladder needs a judge and none is configured, naming the suite's
 * config file (Suite.configName: config.yml, or config.yaml), as results.json keeps it.
 */
export function noMeaningJudgeCause(file: string = NEW_CONFIG_NAME): string {
  return `no meaning judge configured (add a judge or a meaning section with a model to ${file})`;
}

/**
 * The meaning the cheap rungs decide, without a model: null when there is none to give (a reply
 * missing, the replies equal byte for byte, or `check: off`), `'judge'` when only the meaning
 * judge can decide. The runner calls this first, so that most items never wait for a call.
 */
export function meaningWithoutModel(baseline: string | null, now: string | null, variants: readonly string[], check: MeaningCheck): Meaning | 'judge' | null {
  if (check === 'off' || baseline === null || now === null || baseline === now) return null;
  // The facts are read once each, and the baseline's only where a rung needs them: a known variant
  // is decided by its own facts against the reply's.
  const nowFacts = factsOf(now);
  let baselineFacts: Fact[] | null = null;
  const factsOfBaseline = (): Fact[] => (baselineFacts ??= factsOf(baseline));
  let diff: FactsDifference | null = null;
  const againstBaseline = (): FactsDifference => (diff ??= compareFacts(factsOfBaseline(), nowFacts));
  // What the facts rung decides by: the difference without the numbers the other reply writes in
  // words ("2-year" against "two-year": docs/meaning.md, "Facts"), which only the judge can weigh.
  // Formatting and a known variant still need the facts themselves to agree.
  let changed: FactsDifference | null = null;
  const factsChanged = (): FactsDifference => (changed ??= withoutNumberWords(againstBaseline(), baseline, now));
  // Other facts and no known variant: changed, whatever normalizing would say (it is not done).
  if (variants.length === 0 && !noFactsDiffer(factsChanged())) return changedByFacts(factsChanged());
  // Normalized only where it can be equal to the other side (mayNormalizeAlike), once.
  let normalized: string | null = null;
  const nowNormalized = (): string => (normalized ??= normalizeReply(now));
  // Normalizing lower-cases a URL's path too: a path that differs in case is a different address.
  // And equal once normalized is formatting only when the facts are equal too, and written alike
  // ("10**6" is not 106, nor a German "1,500" 1500: docs/meaning.md, "Formatting").
  if (mayNormalizeAlike(baseline, now) && normalizeReply(baseline) === nowNormalized() && sameUrlPaths(baseline, now) && noFactsDiffer(againstBaseline()) && sameFactsAsWritten(factsOfBaseline(), nowFacts)) return { value: 'formatting', by: 'normalize', detail: null };
  const variant = variants.findIndex((v) => mayNormalizeAlike(v, now) && normalizeReply(v) === nowNormalized());
  if (variant !== -1 && sameUrlPaths(variants[variant] as string, now) && sameFactsAsWritten(variants[variant] as string, nowFacts)) return { value: 'variant', by: 'variant', detail: null };
  if (!noFactsDiffer(factsChanged())) return changedByFacts(factsChanged());
  if (check === 'facts') {
    // The facts agree, or agree only once a number word is read ("two-year" against "2-year"): said so.
    const read = noFactsDiffer(againstBaseline()) ? [] : numberWordsRead(againstBaseline(), baseline, now);
    return { value: 'unchecked', by: null, detail: read.length === 0 ? FACTS_ONLY_CAUSE : numberWordsCause(read) };
  }
  return 'judge';
}

function changedByFacts(facts: FactsDifference): Meaning {
  return { value: 'changed', by: 'facts', detail: factsDetail(facts), facts };
}

/** The first line of a model's text, trimmed, at most 200 characters; null when empty. */
function line(text: string): string | null {
  const first = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '');
  if (first === undefined) return null;
  const flat = first.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${headOf(flat, 199)}\u2026` : flat;
}

/** The causes of an `unchecked` meaning that are the meaning judge's doing: asked, and it gave no answer that could be used. */
const MEANING_JUDGE_GAVE_NONE = /^meaning judge (?:unreachable|gave no usable answer|declined|failed|call failed): /;

/**
 * Was a meaning left `unchecked` by the meaning judge (docs/meaning.md, "A judge that answers
 * differently"): it was asked and could not be reached, gave no usable answer or declined (not: no
 * meaning judge configured, `check: facts`)? Read from the cause, as src/judge/meaning.ts and
 * meaningOf (src/replay/meaning.ts) write it.
 */
export function meaningJudgeGaveNone(cause: string): boolean {
  return MEANING_JUDGE_GAVE_NONE.test(cause);
}

/** The judge's answer as a meaning: `reworded` at or above the threshold, `changed` below it, `unchecked` without a usable answer. */
export function judgedMeaning(answer: MeaningJudgeAnswer, threshold: number): Meaning {
  // The reason's fix is kept whole: an item alone has no shared line to say it (src/assertions/format.ts, clipKeepingFix).
  if (!answer.ok) return { value: 'unchecked', by: null, detail: clipKeepingFix(answer.reason, 200, { flat: true }) || null, reused: answer.reused };
  const value = answer.score >= threshold ? 'reworded' : 'changed';
  return { value, by: 'judge', detail: line(answer.difference), score: answer.score, reused: answer.reused };
}

/** Worse first: a change outranks a doubt, a doubt outranks a rewording (docs/meaning.md, "Persona scripts"). */
export const MEANING_RANK: Record<MeaningValue, number> = { changed: 5, unchecked: 4, reworded: 3, variant: 2, formatting: 1 };

/** How an item's line names a turn's meaning: "changed in meaning", "meaning not checked", ... */
export const MEANING_WORDS: Record<MeaningValue, string> = {
  changed: 'changed in meaning',
  unchecked: 'meaning not checked',
  reworded: 'reworded',
  variant: 'known variant',
  formatting: 'formatting only',
};

/** One turn of a script: its index as recorded and its meaning (null: its reply did not differ). */
export interface TurnMeaning {
  index: number;
  meaning: Meaning | null;
}

/**
 * A persona script's meaning: its worst turn's (the first of equals), named: "turn 3 changed in
 * meaning: numbers 50 → 90"; else, when the transcripts have a different number of turns, `changed`
 * by `turns` ("turns 4 → 5"); null when no turn's reply differs. A turn changed in meaning is named
 * before the number of turns: it is why the agent took another number of turns (docs/meaning.md,
 * "Persona scripts").
 */
export function scriptMeaning(turns: readonly TurnMeaning[], turnCounts: { baseline: number; now: number }): Meaning | null {
  let worst: TurnMeaning | null = null;
  for (const t of turns) {
    if (t.meaning !== null && (worst === null || MEANING_RANK[t.meaning.value] > MEANING_RANK[(worst.meaning as Meaning).value])) worst = t;
  }
  const m = worst?.meaning ?? null;
  if (turnCounts.baseline !== turnCounts.now && m?.value !== 'changed') return { value: 'changed', by: 'turns', detail: `turns ${turnCounts.baseline} \u2192 ${turnCounts.now}` };
  if (worst === null || m === null) return null;
  return { ...m, detail: `turn ${worst.index} ${MEANING_WORDS[m.value]}${m.detail === null ? '' : `: ${m.detail}`}` };
}
