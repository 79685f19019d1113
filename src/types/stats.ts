// Pass-rate statistics as results.json keeps them (docs/statistics.md, docs/results-json.md):
// an item's `stats` and the run's `stats`.

/** An item's tier against its baseline's attempts, the first that holds (docs/statistics.md, "The tier"). */
export const TIERS = ['regressed', 'likely_regressed', 'improved', 'too_few', 'steady'] as const;
export type Tier = (typeof TIERS)[number];

/** Passes out of attempts. `total` 0 is allowed and means no evidence. */
export interface Tally {
  passed: number;
  total: number;
}

/** An item's statistics (docs/statistics.md, "The figures"): present when it had more than one attempt in the run or in its baseline. */
export interface ItemStats {
  passed: number;
  total: number;
  /** passed / total; null with no attempt. */
  rate: number | null;
  /** The 95% Wilson interval of the rate. */
  ci: [number, number];
  /** The baseline's attempts; 0 of 0 for an item without a baseline. */
  baseline: Tally;
  pDrop: number;
  pRise: number;
  tier: Tier;
  /** too_few only: the attempts that would call this drop; null: none up to 20, or another tier. */
  attemptsNeeded: number | null;
  /** Looks taken (1 when attempts are not adaptive). */
  looks: number;
  /** Looks the item could get: the divisor of alpha (Bonferroni). */
  maxLooks: number;
  /** stats.alpha the tier was decided with, before the division by maxLooks. Absent in older records. */
  alpha?: number;
}

/** McNemar's exact test over the items whose verdict flipped (docs/statistics.md, "The run"). */
export interface McNemar {
  newlyFailing: number;
  newlyPassing: number;
  p: number;
}

/** The run's pass-rate change over the items that have a baseline (docs/statistics.md, "The run"). */
export interface RunStats {
  /** Items compared (those with a baseline and a rate on both sides). */
  items: number;
  /** Mean of the baselines' pass rates, each item weighing the same. */
  before: number;
  /** Mean of the pass rates now. */
  now: number;
  /** now - before. */
  diff: number;
  /** 95% percentile interval of diff from the paired bootstrap, seeded by the suite hash. */
  ci: [number, number];
  /** The bootstrap's seed (the suite hash): with the items' tallies it gives `ci` again. Absent in older records. */
  seed?: string;
  /** Present only when no item had more than one attempt on either side. */
  mcnemar?: McNemar;
  /**
   * Beside the interval (no `mcnemar`): every compared item's attempts summed on each side, and
   * Fisher's one-sided p of that pooled tally in the direction of `diff` (the drop's when it fell,
   * else the rise's). An interval that leaves out 0 is "beyond noise" only when this p is below
   * 0.05 too (docs/statistics.md, "The run's pass-rate line"). Absent in older records.
   */
  pooled?: { before: Tally; now: Tally; p: number };
}
