// The run's pass-rate change (docs/statistics.md, "The run: the paired bootstrap and McNemar"): over
// the items that have a baseline, the suite's pass rate before (the baselines') and now, each item
// weighing the same, with a paired bootstrap interval seeded by the suite hash, and McNemar's exact
// test when no item compared has more than one attempt on either side. Pure.

import type { DriftVerdict, FixtureRecord, ItemStats, McNemar, PersonaRecord, RunStats, Tally } from '../types.js';
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
  const pairs = items.map(pairOf).filter((p): p is RatePair => p !== null);
  const diff = pairedBootstrap(pairs, seed);
  if (diff === null) return null;
  // McNemar when no compared item has attempts to draw (docs/statistics.md, "The run"): a repeated
  // item without a baseline has stats against 0 of 0 but is not in the interval, which then sees no
  // attempt's noise.
  const repeated = pairs.some((p) => p.tallies !== undefined);
  // The seed is recorded beside the interval, so that the record alone gives it again.
  return { ...diff, seed, ...(repeated ? { pooled: pooledOf(pairs, diff.diff) } : { mcnemar: mcnemarOf(items) }) };
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
