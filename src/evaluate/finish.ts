// Finishing an item (docs/architecture.md, "Finishing an item"): once every attempt of a fixture or a
// persona script is in, its one record is made here (no I/O) from the attempts, its baseline and the
// run's finishing policy (built once from config.yml by `policyOf`). The runner only collects attempts.
//
// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it"): the item shows (and
// compares for drift) the first attempt that replied (a fixture) or completed (a persona script),
// else the first attempt; its verdict is the attempts' combined verdict (evaluate/repeat.ts); every
// attempt is kept under `attempts`. Slower (docs/latency.md) is decided on the finished item.

import type {
  Baseline,
  FixtureAttempt,
  FixtureRecord,
  JudgeFingerprint,
  LatencyThresholds,
  PersonaAttempt,
  PersonaBaseline,
  PersonaRecord,
  Repeat,
  RepeatSummary,
  RunRepeat,
  Tally,
  TokenUsage,
  ItemStats,
  Slower,
  TimeSplit,
} from '../types.js';
import type { Meaning } from '../types/meaning.js';
import { MEANING_RANK } from './meaning/ladder.js';
import { baselineAttemptsOf } from './attempts.js';
import { itemStats, looksTaken, maxLooksOf, moreAttempts, type LookPlan } from './stats.js';
import { DEFAULT_ALPHA, DEFAULT_LATENCY, type Config } from '../config.js';
import { repeatOf } from '../suite/repeat.js';
import { computeDrift } from './drift.js';
import { fasterThanBaseline, itemLatencyMs, itemTimeSplit, medianAttempt, scriptTimeSplits, slowerStep, slowerThanBaseline } from './latency.js';
import { personaDrift } from './personas.js';
import { attemptEndingChange } from './ending.js';
import { attemptMeaningDetail, attemptOutcome, attemptsDetailHead, combineAttempts, scaledMinPass } from './repeat.js';
import { plusUsage } from './usage.js';
import { fixtureAttemptViews, meansTheSame, personaAttemptViews, unmeasuredAttemptMeaning } from './variants.js';

/** How the run finishes its items: config.yml's knobs, read once (`policyOf`). */
export interface FinishPolicy {
  /** config.yml's `repeat`, for items without their own; null: each such item runs once. */
  repeat: Repeat | null;
  /** config.yml's `latency`: when an item is slower than its baseline. */
  latency: LatencyThresholds;
  /** The false alarm rate of the pass-rate tiers (docs/statistics.md, "The tier"). */
  alpha: number;
  /** `--repeat N` / `--repeat-max M` for this run (docs/statistics.md, "Adaptive attempts"); absent: none given. */
  repeatFlags?: RepeatFlags;
}

/** The policy's repeat flags: each absent when not given. */
export interface RepeatFlags {
  count?: number;
  max?: number;
}

/** The finishing policy of a run, from its config (absent knobs: the defaults). */
export function policyOf(config: Partial<Pick<Config, 'repeat' | 'latency' | 'stats' | 'repeatFlags'>>): FinishPolicy {
  return {
    repeat: config.repeat ?? null,
    latency: config.latency ?? DEFAULT_LATENCY,
    alpha: config.stats?.alpha ?? DEFAULT_ALPHA,
    ...(config.repeatFlags ? { repeatFlags: config.repeatFlags } : {}),
  };
}

/**
 * The repeat an item runs with under `policy`: its own, else the run's, else once; then the run's
 * flags (docs/statistics.md, "Adaptive attempts"): `--repeat N` sets count to N and keeps the
 * fraction minPass / count (rounded up), and never leaves max below N; `--repeat-max M` sets max,
 * never below count.
 */
export function itemRepeat(item: { repeat?: Repeat }, policy: FinishPolicy): Repeat {
  const own = repeatOf(item, policy.repeat);
  const flags = policy.repeatFlags;
  if (flags === undefined || (flags.count === undefined && flags.max === undefined)) return own;
  const count = flags.count ?? own.count;
  const minPass = scaledMinPass(own, count);
  // Without a max (the item's, config.yml's or --repeat-max) there are no extra attempts: the
  // count an item had before --repeat is never read as a max (`--repeat 1` on `count: 5` is 1 attempt).
  const max = Math.max(count, flags.max ?? own.max ?? count);
  return max > count ? { count, minPass, max } : { count, minPass };
}

/**
 * The repeat a run was given, as its record keeps it (docs/results-json.md, `repeat`): what an item
 * without its own ran with, and the flags as given with `changed`, the items of `items` (those the
 * run replayed) whose own repeat they changed: by these a merge tells shards run alike. Flags that
 * changed no item's own repeat ran every item as config.yml's repeat with them applied does.
 */
export function runRepeat(policy: FinishPolicy, items: readonly { repeat?: Repeat }[]): RunRepeat {
  const flags = policy.repeatFlags;
  const given = flags === undefined ? {} : { ...(flags.count === undefined ? {} : { count: flags.count }), ...(flags.max === undefined ? {} : { max: flags.max }) };
  if (Object.keys(given).length === 0) return itemRepeat({}, policy);
  const { repeatFlags: _flags, ...asConfigured } = policy;
  const same = (a: Repeat, b: Repeat): boolean => a.count === b.count && a.minPass === b.minPass && a.max === b.max;
  const changed = items.filter((i) => i.repeat !== undefined && !same(itemRepeat(i, policy), itemRepeat(i, asConfigured))).length;
  return { ...itemRepeat({}, policy), flags: { ...given, changed } };
}

/**
 * The fraction an item's verdict reads minPass as (docs/statistics.md, "Adaptive attempts"): its own
 * repeat's minPass of count, before the run's flags. `--repeat N` keeps that fraction, so N
 * attempts and any number of extra ones are each scaled from it once: 2 of 3 run with `--repeat 5
 * --repeat-max 10` needs 4 of 5 and 7 of 10. Scaled from itemRepeat's 4 of 5 instead, 10 attempts
 * needed 8, a stricter verdict than config.yml's two thirds.
 */
export function verdictFraction(item: { repeat?: Repeat }, policy: FinishPolicy): Pick<Repeat, 'count' | 'minPass'> {
  const own = repeatOf(item, policy.repeat);
  return { count: own.count, minPass: own.minPass };
}

/** The baseline's attempts (docs/statistics.md, "A baseline's attempts"), null without a baseline. */
function baselineTally(baseline: Baseline | PersonaBaseline | null): Tally | null {
  return baseline === null ? null : baselineAttemptsOf(baseline);
}

/** An item's adaptive plan under `policy`: its count, its max (count when not adaptive), the run's alpha. */
function lookPlan(item: { repeat?: Repeat }, policy: FinishPolicy): LookPlan {
  const r = itemRepeat(item, policy);
  return { count: r.count, max: r.max ?? r.count, alpha: policy.alpha };
}

/**
 * The most attempts an item can make in this run: max when it could get extra attempts (its
 * baseline has 3 or more), else count. What the estimate counts (docs/statistics.md, "The estimate").
 */
export function attemptsAtMost(item: { repeat?: Repeat }, baseline: Baseline | PersonaBaseline | null, policy: FinishPolicy): number {
  const plan = lookPlan(item, policy);
  return maxLooksOf(baselineTally(baseline), plan) > 1 ? plan.max : plan.count;
}

/**
 * The runner's question after each look (docs/statistics.md, "Adaptive attempts"): how many more
 * attempts the item gets, given its attempts so far (in order); 0 when it is finished. An item
 * none of whose attempts was checked (each errored or not evaluated) gets none: the agent (or the
 * judge) did not answer, and more attempts would not tell a drop.
 */
export function moreAttemptsFor(
  item: { repeat?: Repeat },
  attempts: readonly { errored: boolean; verdict: FixtureRecord['verdict'] }[],
  baseline: Baseline | PersonaBaseline | null,
  policy: FinishPolicy,
): number {
  if (!attempts.some(checked)) return 0;
  const now = { passed: attempts.filter((a) => !a.errored && a.verdict === 'pass').length, total: attempts.length };
  return moreAttempts(baselineTally(baseline), now, lookPlan(item, policy));
}

/**
 * Each attempt's meaning against attempt 1's, in order (docs/meaning.md, "Repeats"), computed by the
 * runner (the meaning judge is I/O); null for an attempt that has none, or for all when not computed.
 */
export type AttemptMeanings = readonly (Meaning | null)[] | null;

/** An attempt's `meaning` key: present only when it has one. */
function meaningField(meanings: AttemptMeanings, k: number): { meaning?: Meaning } {
  const m = meanings?.[k] ?? null;
  return m === null ? {} : { meaning: m };
}

/**
 * A repeated item's meaning against its baseline (docs/meaning.md, "Repeats"): the shown attempt's,
 * unless another attempt's reply is worse against it (each attempt is compared with the first that
 * replied, the one shown): then that one, named ("attempt 2: numbers 30 → 14"), so that one attempt
 * that changed a fact keeps the item out of Reworded and meets `meaning_changed`. Null (the shown
 * reply is the baseline's, `baselineShown`) is the baseline's too: an attempt changed in meaning
 * against it, or whose meaning was not checked, is so against the baseline, and that one, named, is
 * the item's meaning, as acceptance refuses it; one only reworded leaves it null, the attempts'
 * wordings the repeat's to show. `against` leaves out an attempt's meaning that does not speak of
 * the baseline (a script's ending, where the baseline does not keep who ended it).
 */
function itemMeaning(
  shown: Meaning | null | undefined,
  meanings: AttemptMeanings,
  baselineShown = false,
  against: (m: Meaning, k: number) => boolean = () => true,
): Meaning | null | undefined {
  if (meanings === null || (shown == null && !baselineShown)) return shown;
  let worst: Meaning | null = shown ?? null;
  let at = -1;
  for (const [k, m] of meanings.entries()) {
    if (m === null || (shown == null && (meansTheSame(m) || !against(m, k)))) continue;
    if (worst === null || MEANING_RANK[m.value] > MEANING_RANK[worst.value]) {
      worst = m;
      at = k;
    }
  }
  return at === -1 || worst === null ? shown : { ...worst, detail: attemptMeaningDetail(at + 1, worst.detail) };
}

/** The shown attempt's drift with the verdict of all attempts; its meaning against the baseline never depends on the verdict. */
function withMeaning<D extends { meaning?: Meaning | null }>(drift: D, meaning: Meaning | null | undefined): D {
  return meaning == null ? drift : { ...drift, meaning };
}

/** A script's evaluation fields (evaluate/definition.ts, `personaEvaluationFields`), computed once by the runner. */
export interface ScriptEvaluation {
  definitionHash: string;
  judgeFingerprint: JudgeFingerprint | null;
}

/** The record of a fixture from its attempts (in order; one attempt: an item run once). */
export function finishFixture(
  fixture: { repeat?: Repeat },
  attempts: readonly FixtureRecord[],
  baseline: Baseline | null,
  policy: FinishPolicy,
  meanings: AttemptMeanings = null,
): FixtureRecord {
  const combined = combineFixtureAttempts(attempts, verdictFraction(fixture, policy), baseline, meanings);
  // Set in place, on the record the attempt just made and nothing else holds: `slower` is a key every
  // fixture record has already (replay/fixture.ts), so the record keeps its one shape; a copy would not.
  if (!combined.errored) combined.slower = withStep(slowerThanBaseline(itemLatencyMs(combined), baseline?.latencyMs, policy.latency), itemTimeSplit(combined), baseline?.time) ?? undefined;
  // `faster` likewise: the same rule mirrored, for report.html's latency view (docs/latency.md, "Views").
  if (!combined.errored) combined.faster = fasterThanBaseline(itemLatencyMs(combined), baseline?.latencyMs, policy.latency) ?? undefined;
  const stats = statsOf(fixture, combined, baseline, policy);
  if (stats !== null) combined.stats = stats;
  return withPlan(combined, itemRepeat(fixture, policy));
}

/** The record of a persona script from its attempts (in order; one attempt: a script run once). */
export function finishScript(
  script: { repeat?: Repeat },
  attempts: readonly PersonaRecord[],
  baseline: PersonaBaseline | null,
  policy: FinishPolicy,
  evaluation: ScriptEvaluation,
  meanings: AttemptMeanings = null,
): PersonaRecord {
  const combined = combinePersonaAttempts(attempts, verdictFraction(script, policy), baseline, meanings);
  // The step is named over the turns timed on both sides (docs/traces.md, "Slower"): a repeated
  // script's median attempt's turns, against the baseline's (accepted from its median attempt).
  const splits = baseline === null ? null : scriptTimeSplits((medianAttempt(combined.attempts) ?? combined).turns, baseline.transcript);
  // A step is named only when those turns are themselves slower by the latency rule: otherwise the
  // time went to a turn timed on one side only, and the step that grew most in the others is noise.
  const timed = splits?.now != null && splits.baseline != null && slowerThanBaseline(splitTotal(splits.now), splitTotal(splits.baseline), policy.latency) !== null;
  const slower = combined.errored ? null : withStep(slowerThanBaseline(itemLatencyMs(combined), baseline?.latencyMs, policy.latency), timed ? splits?.now : null, timed ? splits?.baseline : null);
  const faster = combined.errored ? null : fasterThanBaseline(itemLatencyMs(combined), baseline?.latencyMs, policy.latency);
  const stats = statsOf(script, combined, baseline, policy);
  return withPlan(Object.assign({}, combined, evaluation, slower === null ? {} : { slower }, faster === null ? {} : { faster }, stats === null ? {} : { stats }), itemRepeat(script, policy));
}

/**
 * A repeated item's record with the repeat it ran with, when it could make extra attempts (`max`
 * above `count`): its `repeat.count` is the attempts made, which vary from run to run, and compare
 * reads what defines the item from the plan (docs/evaluations.md#compare).
 */
function withPlan<R extends { repeat?: RepeatSummary | undefined }>(record: R, repeat: Repeat): R {
  if (record.repeat === undefined || repeat.max === undefined || repeat.max <= repeat.count) return record;
  record.repeat = { ...record.repeat, plan: { count: repeat.count, minPass: repeat.minPass, max: repeat.max } };
  return record;
}

/**
 * An item's attempts now (docs/statistics.md, "A baseline's attempts"): a repeated item's passes
 * of attempts made; an item run once is 1 of 1 when it passed, else 0 of 1 (an errored or
 * not-evaluated attempt counts as not passed, as in the item's verdict).
 */
export function attemptsNow(record: { verdict: FixtureRecord['verdict']; repeat?: Pick<RepeatSummary, 'passed' | 'count'> | undefined }): Tally {
  return record.repeat !== undefined ? { passed: record.repeat.passed, total: record.repeat.count } : { passed: record.verdict === 'pass' ? 1 : 0, total: 1 };
}

/** An attempt's errored flag and verdict: what says whether it was checked. */
type CheckedAttempt = { errored: boolean; verdict: FixtureRecord['verdict'] };

/**
 * Was the attempt checked: did it get a pass or a fail? An errored attempt (the agent did not
 * answer) or one not evaluated (the judge did not) says nothing of the pass rate.
 */
function checked(a: CheckedAttempt): boolean {
  return !a.errored && (a.verdict === 'pass' || a.verdict === 'fail');
}

/**
 * The item's pass-rate statistics against its baseline's attempts (docs/statistics.md, "The
 * figures"), null when neither side has more than one attempt, or when no attempt now was
 * checked. An item without a baseline is measured against 0 of 0: its interval stands, and its
 * tier is too_few.
 */
function statsOf(
  item: { repeat?: Repeat },
  record: CheckedAttempt & { repeat?: RepeatSummary | undefined; attempts?: readonly CheckedAttempt[] | undefined },
  baseline: Baseline | PersonaBaseline | null,
  policy: FinishPolicy,
): ItemStats | null {
  // No attempt checked (each errored or not evaluated): nothing measured the pass rate now, and
  // the item is not verified, never regressed (docs/statistics.md, "Which items get `stats`").
  if (!(record.attempts ?? [record]).some(checked)) return null;
  const before = baselineTally(baseline);
  const now = attemptsNow(record);
  const plan = lookPlan(item, policy);
  // Looks and the Bonferroni divisor (docs/statistics.md, "Adaptive attempts"): 1 and 1 when the item cannot get extra attempts.
  const maxLooks = maxLooksOf(before, plan);
  const looks = maxLooks === 1 ? 1 : looksTaken(now.total, plan.count);
  return itemStats(before ?? { passed: 0, total: 0 }, now, { alpha: policy.alpha, maxLooks, looks });
}

/** Index of the attempt an item shows: the first that did not error, else the first. */
function shownIndex(records: readonly { errored: boolean }[]): number {
  const i = records.findIndex((r) => !r.errored);
  return i === -1 ? 0 : i;
}

function sum(records: readonly { durationMs: number }[]): number {
  return records.reduce((n, r) => n + r.durationMs, 0);
}

/** The tokens every attempt reported (each was spent), null when none did (docs/latency.md, "Usage"). */
function usageOfAttempts(records: readonly Pick<FixtureRecord, 'usage'>[]): TokenUsage | null {
  return records.reduce<TokenUsage | null>((u, r) => plusUsage(u, r.usage), null);
}

/** The record of a fixture replayed `records.length` times (each record one attempt, in order). */
export function combineFixtureAttempts(records: readonly FixtureRecord[], repeat: Repeat, baseline: Baseline | null, meanings: AttemptMeanings = null): FixtureRecord {
  const first = records[0];
  if (first === undefined) throw new Error('a repeated fixture has no attempt');
  if (records.length === 1) return first;
  const attempts: FixtureAttempt[] = records.map((r, k) => ({
    errored: r.errored,
    error: r.error,
    errorKind: r.errorKind,
    reply: r.reply,
    route: r.route,
    verdict: r.verdict,
    detail: r.detail,
    score: r.score,
    rationale: r.rationale,
    ...(r.judgeReused != null ? { judgeReused: r.judgeReused } : {}),
    ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
    ...(r.time != null ? { time: r.time } : {}),
    // Each attempt's own tokens: the item's tokens per attempt are those of the attempts that replied (docs/latency.md, "Usage").
    ...(r.usage != null ? { usage: r.usage } : {}),
    ...(r.usagePartial === true ? { usagePartial: true as const } : {}),
    durationMs: r.durationMs,
    ...(r.members != null ? { members: r.members } : {}),
    // An assertion list's own checks on this attempt: compare tells a judge check that moved on the same replies (docs/judges.md).
    ...(r.checks !== undefined ? { checks: r.checks } : {}),
    // An errored attempt's calls begun by its cut stream, as an errored fixture that ran once keeps them (docs/presets.md, "Streamed replies").
    ...(r.errored && r.toolCalls != null && r.toolCalls.length > 0 ? { toolCalls: r.toolCalls } : {}),
    ...meaningField(meanings, k),
  }));
  const outcomes = records.map(attemptOutcome);
  const { verdict, summary } = combineAttempts(outcomes, repeat);
  const k = shownIndex(records);
  const shown = records[k] as FixtureRecord;
  // The detail names the first attempt with the item's verdict: a fail says why it failed even when the reply shown (attempt 1's) passed,
  // and a fail its errors made names the first errored attempt's error.
  const d = attemptsDetailHead(summary, outcomes, verdict, k);
  const detail = `${d.head}${(records[d.index] as FixtureRecord).detail}`;
  // Some turns' tokens alone on an attempt that replied (docs/latency.md, "Usage"): said on the item as on that attempt.
  const usagePartial = records.some((r) => !r.errored && r.usagePartial === true) ? (true as const) : undefined;
  const extra = { repeat: summary, attempts, durationMs: sum(records), usage: usageOfAttempts(records), usagePartial };
  if (verdict === null || shown.errored) return { ...shown, detail, ...extra };
  const drift = computeDrift(verdict, shown.reply, shown.route, baseline);
  return { ...shown, verdict, detail, drift: withMeaning(drift, fixtureItemMeaning(shown.drift?.meaning, shown.reply, attempts, drift.reply === 'same')), ...extra };
}

/** The record of a persona script replayed `records.length` times (each record one attempt, in order). */
export function combinePersonaAttempts(records: readonly PersonaRecord[], repeat: Repeat, baseline: PersonaBaseline | null, meanings: AttemptMeanings = null): PersonaRecord {
  const first = records[0];
  if (first === undefined) throw new Error('a repeated persona script has no attempt');
  if (records.length === 1) return first;
  const attempts: PersonaAttempt[] = records.map((r, k) => ({
    errored: r.errored,
    error: r.error,
    errorKind: r.errorKind,
    verdict: r.verdict,
    turns: r.turns,
    unsent: r.unsent,
    // Who ended each attempt's scripted conversation: attempts that end it differently disagree (docs/meaning.md, "Repeats").
    ...(r.endedBy !== undefined ? { endedBy: r.endedBy } : {}),
    visited: r.visited,
    outcome: r.outcome,
    checks: r.checks,
    // The transcript as the judge read it: compare tells a criterion that moved on the same transcripts (docs/judges.md).
    ...(r.transcriptHash != null ? { transcriptHash: r.transcriptHash } : {}),
    // An errored attempt's failing turn's calls begun, as the script's record keeps them when it ran once (docs/presets.md, "Streamed replies").
    ...(r.errorToolCalls !== undefined ? { errorToolCalls: r.errorToolCalls } : {}),
    durationMs: r.durationMs,
    // A simulated script: each attempt's own simulation (each started from the baseline).
    ...(r.simulation !== undefined ? { simulation: r.simulation } : {}),
    ...meaningField(meanings, k),
  }));
  const { verdict, summary } = combineAttempts(records.map(attemptOutcome), repeat);
  const shown = records[shownIndex(records)] as PersonaRecord;
  const extra = { repeat: summary, attempts, durationMs: sum(records), usage: usageOfAttempts(records) };
  if (verdict === null || shown.errored) return { ...shown, ...extra };
  const drift = personaDrift(verdict, shown.turns, baseline, null, shown.simulation?.endedBy === 'simulator_fault');
  // The transcript comparison is the shown attempt's own: a simulated user's ending, or its user written anew, included.
  const transcript = shown.drift?.transcript ?? drift.transcript;
  return { ...shown, verdict, drift: withMeaning({ ...drift, transcript }, scriptItemMeaning(shown.drift?.meaning, shown.turns, attempts, baseline, transcript === 'same')), ...extra };
}

/** Each attempt's meaning against attempt 1's as its record keeps it (null: none), for itemMeaning. */
const attemptMeanings = (attempts: readonly { meaning?: Meaning | null }[]): (Meaning | null)[] => attempts.map((a) => a.meaning ?? null);

/**
 * A repeated fixture's meaning against its baseline, from its attempts as its record keeps them
 * (docs/meaning.md, "Repeats"): the shown attempt's (`shown`), or an attempt's that is worse
 * (itemMeaning); with the baseline's reply shown (`baselineShown`), an attempt changed or unchecked
 * in meaning, else one that replied otherwise with no meaning (fixtureOtherwise). What a run
 * stores, and what a record written before it did is read as (evaluate/older-records.ts).
 */
export function fixtureItemMeaning(
  shown: Meaning | null | undefined,
  reply: string,
  attempts: readonly Pick<FixtureAttempt, 'errored' | 'reply' | 'meaning'>[],
  baselineShown: boolean,
): Meaning | null | undefined {
  return itemMeaning(shown, attemptMeanings(attempts), baselineShown) ?? (baselineShown ? fixtureOtherwise(reply, attempts) : null);
}

/**
 * The same for a repeated script whose shown attempt's turns are `turns`: then an attempt whose
 * agent ended the conversation otherwise against a baseline that keeps who ended it (endedOtherwise),
 * else one that replied otherwise with no meaning (scriptOtherwise). An attempt's ending speaks of
 * the baseline's only where the baseline keeps who ended it.
 */
export function scriptItemMeaning(
  shown: Meaning | null | undefined,
  turns: PersonaRecord['turns'],
  attempts: readonly Pick<PersonaAttempt, 'errored' | 'turns' | 'meaning' | 'endedBy'>[],
  baseline: Pick<PersonaBaseline, 'endedBy'> | null,
  baselineShown: boolean,
): Meaning | null | undefined {
  const k = shownIndex(attempts);
  const first = attempts[k];
  const against = (m: Meaning, at: number): boolean =>
    baseline?.endedBy !== undefined || first === undefined || !(m.by === 'turns' && m.detail === attemptEndingChange(attempts[at] ?? first, first, k + 1));
  const otherwise = baselineShown ? scriptOtherwise(turns, attempts) : null;
  return itemMeaning(shown, attemptMeanings(attempts), baselineShown, against) ?? endedOtherwise(attempts, k, baseline) ?? otherwise;
}

/**
 * A repeated fixture's meaning when its shown reply is its baseline's and another attempt replied
 * otherwise with no meaning (`meaning.check: off`; docs/meaning.md, "Repeats"): that attempt, named
 * (unmeasuredAttemptMeaning); null when none did. What a run stores, and what a record written
 * before it did is read as (evaluate/older-records.ts).
 */
export function fixtureOtherwise(reply: string, attempts: readonly Pick<FixtureAttempt, 'errored' | 'reply' | 'meaning'>[]): Meaning | null {
  return unmeasuredAttemptMeaning(fixtureAttemptViews(reply, attempts));
}

/** The same for a repeated script whose shown transcript is its baseline's (personaAttemptViews: compared while its user said the same). */
export function scriptOtherwise(turns: PersonaRecord['turns'], attempts: readonly Pick<PersonaAttempt, 'errored' | 'turns' | 'meaning' | 'endedBy'>[]): Meaning | null {
  return unmeasuredAttemptMeaning(personaAttemptViews(turns, attempts));
}

/**
 * A repeated script whose shown attempt is its baseline's (no meaning against it) while another
 * attempt's agent ended the conversation where the shown one's did not, or the reverse (docs/meaning.md,
 * "Repeats"): that attempt ended it otherwise than the baseline, which keeps who ended it, too. The
 * first such attempt's words, named ("attempt 2: the agent ended the conversation on turn 3, where
 * attempt 1's agent did not end it"), are the item's meaning, `changed` by `turns`: not unchanged
 * while acceptance refuses it for that. Undefined when none did, or the baseline does not say who
 * ended it (accepted before it was kept).
 */
export function endedOtherwise(records: readonly Pick<PersonaAttempt, 'errored' | 'turns' | 'endedBy'>[], shown: number, baseline: Pick<PersonaBaseline, 'endedBy'> | null): Meaning | undefined {
  const first = records[shown];
  if (first === undefined || baseline?.endedBy === undefined) return undefined;
  for (const [k, r] of records.entries()) {
    const ended = k === shown || r.errored ? null : attemptEndingChange(r, first, shown + 1);
    if (ended !== null) return { value: 'changed', by: 'turns', detail: attemptMeaningDetail(k + 1, ended) };
  }
  return undefined;
}

/** The time a split accounts for: model, tool and other together. */
const splitTotal = (t: TimeSplit): number => t.modelMs + t.toolMs + t.otherMs;

/**
 * A slower item with the step that grew most (docs/traces.md, "Slower"), when traces gave both the
 * item now and its baseline a time split; otherwise slower as it was.
 */
function withStep(slower: Slower | null, now: TimeSplit | null | undefined, baseline: TimeSplit | null | undefined): Slower | null {
  if (slower === null || now == null || baseline == null) return slower;
  const step = slowerStep(now, baseline);
  return step === null ? slower : { ...slower, step };
}
