// The run's pass-rate change (docs/statistics.md, "The run: the paired bootstrap and McNemar"): over
// the items that have a baseline, the suite's pass rate before (the baselines') and now, each item
// weighing the same, with a paired bootstrap interval seeded by the suite hash, and McNemar's exact
// test when no item compared has more than one attempt on either side. Pure.

import type { DriftVerdict, FixtureRecord, ItemStats, McNemar, PersonaRecord, RepeatSummary, RunStats, Tally } from '../types.js';
import { attemptsNow } from './finish.js';
import { suiteHash } from './shard.js';
import { fisherOneSided, mcnemarExact, pairedBootstrap, type RatePair } from './stats.js';

type Item = Pick<FixtureRecord, 'label' | 'definitionHash' | 'errored' | 'verdict'> & { stats?: ItemStats | undefined; drift: { verdict: DriftVerdict } | null };

/** A 1-attempt item's rates before and now, from its verdict's drift; null: no baseline verdict or none now. */
const FLIPS: Partial<Record<DriftVerdict, { before: number; now: number }>> = {
  still_passing: { before: 1, now: 1 },
  still_failing: { before: 0, now: 0 },
  newly_passing: { before: 0, now: 1 },
  newly_failing: { before: 1, now: 0 },
};

/**
 * An item's pair of rates: from its stats when it has them (a baseline of at least one attempt and
 * attempts now, with those attempts for the bootstrap to draw again), else from its verdict's
 * drift (an item and baseline of one attempt each); null for an item without a baseline, errored,
 * or not evaluated (an outage or a judge that did not answer says nothing of the pass rate).
 */
function pairOf(item: Item): RatePair | null {
  if (item.errored || item.verdict === 'not_evaluated') return null;
  const s = item.stats;
  if (s !== undefined) {
    if (s.baseline.total === 0 || s.rate === null) return null;
    return { before: s.baseline.passed / s.baseline.total, now: s.rate, tallies: { before: s.baseline, now: { passed: s.passed, total: s.total } } };
  }
  return item.drift === null ? null : (FLIPS[item.drift.verdict] ?? null);
}

/** The seed of the run's bootstrap: the suite hash (a shard's names the whole suite), so the same record gives the same interval. */
export function statsSeed(items: readonly Pick<Item, 'label' | 'definitionHash'>[], shard?: { suiteHash: string }): string {
  return shard?.suiteHash ?? suiteHash(items.map((i) => ({ label: i.label, definitionHash: i.definitionHash ?? '' })));
}

/** The run's stats, or null when no item has a baseline to compare with. */
export function runStatsOf(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[], seed: string): RunStats | null {
  const items: Item[] = [...fixtures, ...personas];
  return statsOfPairs(
    items.map(pairOf).filter((p): p is RatePair => p !== null),
    seed,
    () => mcnemarOf(items),
  );
}

/**
 * The pass-rate change over `pairs` (runStatsOf's, and `compare`'s between two runs: runsStatsOf):
 * the paired bootstrap, then the pooled attempts when some item has attempts to draw, else
 * McNemar's test (`mcnemar`; without it, null). Null when there is no pair.
 */
function statsOfPairs(pairs: readonly RatePair[], seed: string, mcnemar?: () => McNemar): RunStats | null {
  // McNemar when no compared item has attempts to draw (docs/statistics.md, "The run"): a repeated
  // item without a baseline has stats against 0 of 0 but is not in the interval, which then sees no
  // attempt's noise.
  const repeated = pairs.some((p) => p.tallies !== undefined);
  if (!repeated && mcnemar === undefined) return null;
  const diff = pairedBootstrap(pairs, seed);
  if (diff === null) return null;
  // The seed is recorded beside the interval, so that the record alone gives it again.
  return { ...diff, seed, ...(!repeated && mcnemar !== undefined ? { mcnemar: mcnemar() } : { pooled: pooledOf(pairs, diff.diff) }) };
}

type RunItem = Pick<FixtureRecord, 'label' | 'definitionHash' | 'errored' | 'verdict'> & { repeat?: Pick<RepeatSummary, 'passed' | 'count'> | undefined };

/** What runsStatsOf reads of a run's record. */
export interface RunItems {
  fixtures: readonly RunItem[];
  /** Absent in a record written before persona scripts existed. */
  personas?: readonly RunItem[] | undefined;
  stats?: Pick<RunStats, 'seed'> | null | undefined;
  shard?: { suiteHash: string } | undefined;
  incomplete?: { suiteHash: string } | null | undefined;
}

/**
 * An item's pair of rates between two runs, as pairOf's against a baseline (docs/evaluations.md,
 * "Compare"): each run's attempts (attemptsNow), drawn again when either run made more than one;
 * null when it errored or was not evaluated in either run.
 */
function pairOfRuns(before: RunItem, after: RunItem): RatePair | null {
  if (before.errored || after.errored || before.verdict === 'not_evaluated' || after.verdict === 'not_evaluated') return null;
  const tallies = { before: attemptsNow(before), now: attemptsNow(after) };
  const rates = { before: tallies.before.passed / tallies.before.total, now: tallies.now.passed / tallies.now.total };
  return tallies.before.total <= 1 && tallies.now.total <= 1 ? rates : { ...rates, tallies };
}

/**
 * The pass rate of attempts between two runs both of which repeated some item (docs/evaluations.md,
 * "Compare"), over the items in both, by the run's own rule (statsOfPairs), in the later run's
 * order and with its seed: a later run whose baselines are the earlier's attempts reads as its own
 * line. Null when either run repeated no item, or no item repeated in either was checked in both
 * (their flips are McNemar's, which compare says apart).
 */
export function runsStatsOf(before: RunItems, after: RunItems): RunStats | null {
  const all = (r: RunItems): RunItem[] => [...r.fixtures, ...(r.personas ?? [])];
  if (!all(before).some((i) => i.repeat !== undefined) || !all(after).some((i) => i.repeat !== undefined)) return null;
  const earlier = new Map(all(before).map((i) => [i.label, i]));
  const pairs = all(after).flatMap((y) => {
    const x = earlier.get(y.label);
    const p = x === undefined ? null : pairOfRuns(x, y);
    return p === null ? [] : [p];
  });
  return statsOfPairs(pairs, after.stats?.seed ?? statsSeed(all(after), after.shard ?? after.incomplete ?? undefined));
}

/**
 * The compared items' attempts summed on each side (a single attempt is 1 of 1 or 0 of 1), and
 * Fisher's one-sided p of that tally in the direction of `diff` (docs/statistics.md, "The run's
 * pass-rate line"): what the items' own tests can tell of the whole. With a few attempts the
 * bootstrap, which draws each item's attempts at its observed rate, can leave 0 out of an interval
 * where no test could call the change: one item 1/1 -> 0/3 (p = 0.25) drew an interval of -100 to -4.
 */
function pooledOf(pairs: readonly RatePair[], diff: number): { before: Tally; now: Tally; p: number } {
  const before = { passed: 0, total: 0 };
  const now = { passed: 0, total: 0 };
  for (const p of pairs) {
    const t = p.tallies ?? { before: { passed: p.before, total: 1 }, now: { passed: p.now, total: 1 } };
    before.passed += t.before.passed;
    before.total += t.before.total;
    now.passed += t.now.passed;
    now.total += t.now.total;
  }
  const fisher = fisherOneSided(before, now);
  return { before, now, p: diff < 0 ? fisher.drop : fisher.rise };
}

function mcnemarOf(items: readonly Item[]): McNemar {
  const count = (v: DriftVerdict): number => items.filter((i) => i.drift?.verdict === v).length;
  const newlyFailing = count('newly_failing');
  const newlyPassing = count('newly_passing');
  return { newlyFailing, newlyPassing, p: mcnemarExact(newlyFailing, newlyPassing) };
}
