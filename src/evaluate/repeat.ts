// Repeat (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it): how the attempts of one item make its verdict. Pure: outcomes in, verdict out.
//
//   pass            passes >= minPass
//   fail            the attempts that did not pass and cannot (fail, errored) leave fewer than
//                   minPass attempts that could: passes + notEvaluated < minPass
//   not_evaluated   otherwise: the attempts not evaluated decide, so there is no verdict to give
//   errored         only when every attempt errored (then no verdict at all)
//
// With extra attempts (docs/statistics.md, "Adaptive attempts") minPass is read as a fraction of count:
// N attempts need ceil(minPass x N / count) passes (2 of 3: at least two thirds of all attempts).
//
// Flaky: the attempts' outcomes (pass, fail, not evaluated, errored: four outcomes) are not all the same.

import type { Repeat, RepeatSummary, Verdict } from '../types.js';
import { listWords } from '../words.js';

/** One attempt's outcome: its verdict, or errored. */
export type AttemptOutcome = Verdict | 'errored';

export interface RepeatVerdict {
  /** null: every attempt errored (the item is errored). */
  verdict: Verdict | null;
  summary: RepeatSummary;
}

/** The passes `attempts` attempts need: minPass / count of them, rounded up (whole-number arithmetic). */
export function scaledMinPass(repeat: Pick<Repeat, 'count' | 'minPass'>, attempts: number): number {
  if (attempts === repeat.count) return repeat.minPass;
  return Math.floor((repeat.minPass * attempts + repeat.count - 1) / repeat.count);
}

export function combineAttempts(outcomes: readonly AttemptOutcome[], repeat: Repeat): RepeatVerdict {
  const minPass = scaledMinPass(repeat, outcomes.length);
  const passed = outcomes.filter((o) => o === 'pass').length;
  const notEvaluated = outcomes.filter((o) => o === 'not_evaluated').length;
  const allErrored = outcomes.length > 0 && outcomes.every((o) => o === 'errored');
  const flaky = new Set(outcomes).size > 1;
  const summary: RepeatSummary = { count: outcomes.length, minPass, passed, flaky };
  if (allErrored) return { verdict: null, summary };
  if (passed >= minPass) return { verdict: 'pass', summary };
  if (passed + notEvaluated < minPass) return { verdict: 'fail', summary };
  return { verdict: 'not_evaluated', summary };
}

/**
 * The attempt whose outcome is the item's verdict, the first such, which says why the item passed,
 * failed or was not evaluated (docs/fixtures.md, "What the item shows"); `shown` when none is (every
 * attempt errored). A fail whose first reply passed names an attempt that failed, not the pass.
 */
export function decisiveIndex(outcomes: readonly AttemptOutcome[], verdict: Verdict | null, shown: number): number {
  if (verdict === null) return shown;
  if (outcomes[shown] === verdict) return shown;
  const i = outcomes.indexOf(verdict);
  return i === -1 ? shown : i;
}

/** One attempt's outcome from its record: its verdict, or errored when it errored or has none. */
export function attemptOutcome(a: { errored: boolean; verdict: Verdict | null }): AttemptOutcome {
  return a.errored || a.verdict === null ? 'errored' : a.verdict;
}

/**
 * A fail none of whose attempts failed: its errored attempts made it (each counts as not passed),
 * so the first of them, whose error says why (docs/fixtures.md, "What the item shows"); -1 for any
 * other item.
 */
export function erroredFailIndex(outcomes: readonly AttemptOutcome[], verdict: Verdict | null): number {
  return verdict === 'fail' && !outcomes.includes('fail') ? outcomes.indexOf('errored') : -1;
}

/**
 * The attempt a repeated fixture's detail line names (docs/fixtures.md, "What the item shows"): the
 * decisive one, but for a fail its errored attempts made (erroredFailIndex) the first of them, never
 * a passing attempt.
 */
export function detailIndex(outcomes: readonly AttemptOutcome[], verdict: Verdict | null, shown: number): number {
  const e = erroredFailIndex(outcomes, verdict);
  return e !== -1 ? e : decisiveIndex(outcomes, verdict, shown);
}

/**
 * A repeated item's detail up to what its named attempt says (docs/fixtures.md, "What the item
 * shows"): "2/5 attempts passed (minPass 3), 3 errored, flaky; attempt 1: ", the attempt
 * detailIndex names, and its index. A fixture's detail follows with that attempt's detail; a
 * script's line, for a fail its errored attempts made, with that attempt's error.
 */
export function attemptsDetailHead(summary: RepeatSummary, outcomes: readonly AttemptOutcome[], verdict: Verdict | null, shown: number): { index: number; head: string } {
  const index = detailIndex(outcomes, verdict, shown);
  return { index, head: `${repeatDetail(summary, outcomes.filter((o) => o === 'errored').length)}; attempt ${index + 1}: ` };
}

/** "k/N": passes over attempts. */
function passesOf(summary: Pick<RepeatSummary, 'passed' | 'count'>): string {
  return `${summary.passed}/${summary.count}`;
}

/**
 * The line a repeated item's detail starts with, e.g. "2/3 attempts passed (minPass 3)", and
 * "1/5 attempts passed (minPass 3), 3 errored, flaky" when some attempts errored and others were
 * not: each counts as not passed, in the verdict and the pass rate, so a drop an outage made is
 * said to be one (docs/fixtures.md, "What the item shows"). An item every attempt of which errored
 * is the Errored section's, and says nothing more.
 */
export function repeatDetail(summary: RepeatSummary, errored = 0): string {
  const some = errored > 0 && errored < summary.count ? `, ${errored} errored` : '';
  return `${passesOf(summary)} attempts passed (minPass ${summary.minPass})${some}${summary.flaky ? ', flaky' : ''}`;
}

/**
 * A repeated item's meaning detail when it is another attempt's (docs/meaning.md, "Repeats"): that
 * attempt named before its own detail, "attempt 2: numbers 30 → 14" ("attempt 2" when it has none).
 */
export function attemptMeaningDetail(number: number, detail: string | null): string {
  return `attempt ${number}${detail === null || detail === '' ? '' : `: ${detail}`}`;
}

/** The attempt attemptMeaningDetail names before a detail: "attempt 2: " (or "attempt 2" alone). */
const ATTEMPT_NAMED = /^(attempt \d+)(?:: |$)/;

/**
 * A detail that attemptMeaningDetail wrote, in its two parts: the attempt ("attempt 2") and its own
 * detail ("meaning judge unreachable: ...", '' when it has none); null for a detail that names no
 * attempt. What recognises a cause by its start reads `rest`, as it reads an item run once.
 */
export function attemptNamed(detail: string): { attempt: string; rest: string } | null {
  const m = ATTEMPT_NAMED.exec(detail);
  return m === null ? null : { attempt: m[1] as string, rest: detail.slice(m[0].length) };
}

/**
 * The reason acceptance gives for an item whose attempts replied differently with no meaning
 * recorded (docs/meaning.md, "Repeats"), naming them: "replies vary across 3 attempts: attempts 2
 * and 3 replied otherwise than attempt 1" (`otherwise`: repliedOtherwise's words).
 */
export function repliesVary(attempts: number, otherwise: string): string {
  return `replies vary across ${attempts} attempts: ${otherwise}`;
}

/** The attempts numbered `numbers` replied otherwise than attempt `reference` (the one accepted and shown): "attempts 2 and 3 replied otherwise than attempt 1". */
export function repliedOtherwise(numbers: readonly number[], reference: number): string {
  return `${attemptsNamed(numbers)} replied otherwise than attempt ${reference}`;
}

/** Attempts by their numbers: "attempt 2", "attempts 2 and 3". */
export function attemptsNamed(numbers: readonly number[]): string {
  return numbers.length === 1 ? `attempt ${numbers[0]}` : `attempts ${listWords(numbers.map(String))}`;
}
