// Pass-rate statistics (docs/statistics.md): the Wilson interval, one-sided Fisher exact tests,
// McNemar's exact test, a seeded paired bootstrap, the attempts a drop needs, and an item's tier.
// Pure: numbers in, numbers out. Probabilities are summed in log space (log-factorials), so that
// 100000 attempts are as exact as 3.

import type { ItemStats, Tally, Tier } from '../types.js';

export type { ItemStats, Tally, Tier } from '../types.js';
export { TIERS } from '../types.js';

/** z for a two-sided 95% interval. */
export const Z95 = 1.96;

/** Repeat's limit on attempts per run (docs/fixtures.md#repeat-measure-flakiness-instead-of-suffering-it): attemptsNeeded looks no further. */
export const ATTEMPTS_LIMIT = 20;

/** likely_regressed: the drop's p (not divided by the looks) is under this, and the rate fell by at least LIKELY_POINTS. */
export const LIKELY_P = 0.2;
export const LIKELY_POINTS = 15;

/** too_few: fewer attempts than this on either side, when no tier above applies. */
export const FEW_ATTEMPTS = 3;

export { DEFAULT_ALPHA } from '../config.js';

/**
 * Is p below the level a? A p within one part in 10^9 of a counts as equal, not below: the sums
 * above are exact only to about 1e-12, and an exact tie (3/3 against 0/3 gives p = 1/20) must not
 * turn into a call at 0.05 by rounding.
 */
export function below(p: number, a: number): boolean {
  return p < a * (1 - 1e-9);
}

function checkTally(t: Tally, name: string): void {
  if (!Number.isInteger(t.passed) || !Number.isInteger(t.total) || t.passed < 0 || t.total < 0 || t.passed > t.total) {
    throw new RangeError(`${name}: ${t.passed} of ${t.total} is not a tally (whole numbers, 0 <= passed <= total)`);
  }
}

// ln n! : exact sums below the table's end, Stirling's series above it (its error there is under 1e-20).
const TABLE_END = 256;
const LN_FACTORIAL: number[] = [0];
for (let i = 1; i < TABLE_END; i++) LN_FACTORIAL.push((LN_FACTORIAL[i - 1] as number) + Math.log(i));
const HALF_LN_2PI = 0.5 * Math.log(2 * Math.PI);

/** ln(n!) for a whole n >= 0. */
export function lnFactorial(n: number): number {
  if (n < TABLE_END) return LN_FACTORIAL[n] as number;
  const inv = 1 / n;
  const inv2 = inv * inv;
  return n * Math.log(n) - n + 0.5 * Math.log(n) + HALF_LN_2PI + inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)));
}

/** ln C(n, k). */
export function lnChoose(n: number, k: number): number {
  return lnFactorial(n) - lnFactorial(k) - lnFactorial(n - k);
}

/** ln(sum exp(x)) without overflow or underflow. */
function lnSumExp(xs: readonly number[]): number {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (const x of xs) sum += Math.exp(x - max);
  return max + Math.log(sum);
}

/**
 * The 95% Wilson score interval of `passed / total` (z = 1.96, no continuity correction), clamped
 * to [0, 1]. 0 of 0 says nothing: [0, 1].
 */
export function wilson(t: Tally, z: number = Z95): [number, number] {
  checkTally(t, 'wilson');
  if (t.total === 0) return [0, 1];
  const n = t.total;
  const p = t.passed / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 of n and n of n the bound is exactly 0 or 1; the formula's rounding must not move it.
  const lo = t.passed === 0 ? 0 : Math.max(0, center - half);
  const hi = t.passed === n ? 1 : Math.min(1, center + half);
  return [lo, hi];
}

/**
 * One-sided Fisher exact tests of now against the baseline, from the hypergeometric distribution
 * of the 2x2 table (passes / fails x baseline / now) with its margins fixed: X, the passes now,
 * given all passes and the attempts now. `drop` = P(X <= passes now), `rise` = P(X >= passes now).
 * A side with no attempts leaves X no room to vary: both are 1.
 */
export function fisherOneSided(baseline: Tally, now: Tally): { drop: number; rise: number } {
  checkTally(baseline, 'fisher baseline');
  checkTally(now, 'fisher now');
  const all = baseline.total + now.total;
  const passes = baseline.passed + now.passed;
  const draws = now.total;
  const lo = Math.max(0, draws - (all - passes));
  const hi = Math.min(passes, draws);
  const lnDenom = lnChoose(all, draws);
  const lnPmf = (x: number): number => lnChoose(passes, x) + lnChoose(all - passes, draws - x) - lnDenom;
  const tail = (from: number, to: number): number => {
    const terms: number[] = [];
    for (let x = from; x <= to; x++) terms.push(lnPmf(x));
    return Math.min(1, Math.exp(lnSumExp(terms)));
  };
  const x = now.passed;
  // A tail that holds the whole support is exactly 1 (summing it would only add rounding).
  return { drop: x >= hi ? 1 : tail(lo, x), rise: x <= lo ? 1 : tail(x, hi) };
}

/** P(X <= k) for X ~ Bin(n, 1/2). */
function halfBinomialCdf(k: number, n: number): number {
  if (k >= n) return 1;
  const terms: number[] = [];
  const lnHalf = n * Math.log(0.5);
  for (let x = 0; x <= k; x++) terms.push(lnChoose(n, x) + lnHalf);
  return Math.min(1, Math.exp(lnSumExp(terms)));
}

/**
 * McNemar's exact test over paired verdicts: `newlyFailing` (b) and `newlyPassing` (c) are the
 * discordant pairs; p = min(1, 2 P(X <= min(b, c))) with X ~ Bin(b + c, 1/2). No discordant pair: p = 1.
 */
export function mcnemarExact(newlyFailing: number, newlyPassing: number): number {
  for (const v of [newlyFailing, newlyPassing]) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`mcnemar: ${v} is not a count`);
  }
  const n = newlyFailing + newlyPassing;
  if (n === 0) return 1;
  return Math.min(1, 2 * halfBinomialCdf(Math.min(newlyFailing, newlyPassing), n));
}

/**
 * A 32-bit FNV-1a hash of the seed's UTF-8 bytes: the generator's starting state, so that one
 * seed string always gives one sequence.
 */
export function seedOf(seed: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(seed)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32 seeded from a string (seedOf): uniform numbers in [0, 1), each a multiple of 2^-32. */
export function seededRandom(seed: string): () => number {
  let state = seedOf(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The q-quantile of sorted values, interpolated linearly between order statistics (numpy's default, "linear"). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of no values');
  const h = (sorted.length - 1) * q;
  const i = Math.floor(h);
  const a = sorted[i] as number;
  const b = sorted[Math.min(i + 1, sorted.length - 1)] as number;
  return a + (h - i) * (b - a);
}

export const BOOTSTRAP_RESAMPLES = 2000;

export interface PairedDifference {
  items: number;
  /** Mean of the baseline rates, each item weighing the same. */
  before: number;
  /** Mean of the rates now. */
  now: number;
  /** now - before. */
  diff: number;
  /** 95% percentile interval of diff from the paired bootstrap. */
  ci: [number, number];
}

/** An item's pair of pass rates; with `tallies`, the attempts each rate was counted from. */
export interface RatePair {
  before: number;
  now: number;
  /** The attempts behind each rate (an item with `stats`); absent: single attempts, taken as they are. */
  tallies?: { before: Tally; now: Tally };
}

/**
 * The paired bootstrap over items, in two stages (docs/statistics.md, "The run"): each resample
 * draws as many items as there are, with replacement (index floor(u x n) for each u the generator
 * gives, item by item, resample by resample), and for a drawn item with tallies draws its attempts
 * again: first the rate now, then the rate before, each k' / n with k' ~ Bin(n, (k + 1/2) / (n + 1))
 * for its k of n (the baseline's for before), each from one u by the inverse of the binomial CDF
 * (the least k' with u < CDF(k')). The chance is k/n moved half an attempt towards 1/2 (the mean of
 * the Jeffreys posterior): drawn at k/n itself, a tally of 0 or all passes had nothing to draw, so
 * a baseline's 1/1 or 5/5 counted as certain and a drop against it was called beyond noise on a
 * handful of attempts. A drawn rate counts from the observed k/n: k/n + (k' - n x chance) / n, the
 * draw's deviation from its mean being the noise. Taken as k'/n, each side's mean moved by its own
 * half attempt, more on the side with fewer attempts, and unchanged items (10/10 -> 3/3) were called
 * a drop beyond noise (docs/statistics.md, "How they are computed"). The resample's value is the mean of its
 * differences now - before; the interval is the 2.5th and 97.5th percentiles of those means, kept
 * within [-1, 1] (a difference of rates cannot leave it; 0 is inside or outside it as before). So the
 * interval holds both the spread between items and the noise of each item's few attempts. Null when
 * there is no item. `random` is the source of the u's, `seed`'s generator unless another is given
 * (a test counts the draws through it).
 */
export function pairedBootstrap(
  pairs: readonly RatePair[],
  seed: string,
  resamples: number = BOOTSTRAP_RESAMPLES,
  random: () => number = seededRandom(seed),
): PairedDifference | null {
  const n = pairs.length;
  if (n === 0) return null;
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const cdfs = new Map<string, Float64Array>();
  // Per item: its fixed difference, or the CDFs to draw its two rates from (null: a rate that stays).
  const diffs = new Float64Array(n);
  const before: (Float64Array | null)[] = [];
  const now: (Float64Array | null)[] = [];
  pairs.forEach((p, i) => {
    const t = p.tallies;
    const b = t === undefined ? null : binomialCdf(t.before, cdfs);
    const a = t === undefined ? null : binomialCdf(t.now, cdfs);
    diffs[i] = p.now - p.before;
    before.push(b);
    now.push(a);
  });
  // A drawn rate counts from the observed one: k/n plus the draw's deviation from its mean.
  const rateOf = (cdf: Float64Array | null, fixed: number, t: Tally | undefined): number =>
    cdf === null || t === undefined ? fixed : fixed + drawRate(cdf, random()) - drawMean(t);
  const means = new Float64Array(resamples);
  if (oneFixedDifference(diffs, before, now)) {
    // Every item's difference fixed and the same (an unchanged run of single attempts, the usual
    // case): each resample adds that difference n times, so every mean is this one, bit for bit,
    // and the draws are not made (2,000 of them were 0.7% of a one-fixture start with a baseline:
    // docs/performance.md, "2026-12-07 (midday): the start's path").
    let sum = 0;
    for (let k = 0; k < n; k++) sum += diffs[0] as number;
    means.fill(sum / n);
  } else {
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const i = Math.floor(random() * n);
        const b = before[i] as Float64Array | null;
        const a = now[i] as Float64Array | null;
        if (b === null && a === null) sum += diffs[i] as number;
        else {
          const p = pairs[i] as RatePair;
          sum += rateOf(a, p.now, p.tallies?.now) - rateOf(b, p.before, p.tallies?.before);
        }
      }
      means[r] = sum / n;
    }
  }
  means.sort();
  const before0 = mean(pairs.map((p) => p.before));
  const now0 = mean(pairs.map((p) => p.now));
  return {
    items: n,
    before: before0,
    now: now0,
    diff: now0 - before0,
    ci: [clampDiff(quantileSorted(means as unknown as number[], 0.025)), clampDiff(quantileSorted(means as unknown as number[], 0.975))],
  };
}

/**
 * The CDF of Bin(N, (k + 1/2) / (N + 1)) for a tally of k of N, as N + 1 cumulative chances (the
 * last exactly 1), shared by equal tallies; null for 0 of 0: nothing to draw.
 */
function binomialCdf(t: Tally, cache: Map<string, Float64Array>): Float64Array | null {
  if (t.total <= 0) return null;
  const key = `${t.passed}/${t.total}`;
  let cdf = cache.get(key);
  if (cdf === undefined) {
    const n = t.total;
    const p = (t.passed + 0.5) / (n + 1);
    const lnP = Math.log(p);
    const lnQ = Math.log1p(-p);
    cdf = new Float64Array(n + 1);
    let acc = 0;
    for (let k = 0; k <= n; k++) {
      acc += Math.exp(lnChoose(n, k) + k * lnP + (n - k) * lnQ);
      cdf[k] = acc;
    }
    cdf[n] = 1;
    cache.set(key, cdf);
  }
  return cdf;
}

/** The mean of a draw of k of n's attempts: (k + 1/2) / (n + 1), the chance binomialCdf draws with. */
function drawMean(t: Tally): number {
  return (t.passed + 0.5) / (t.total + 1);
}

/** No item with attempts to draw again, and every difference the same number (Object.is: +0 and -0 differ). */
function oneFixedDifference(diffs: Float64Array, before: readonly (Float64Array | null)[], now: readonly (Float64Array | null)[]): boolean {
  for (let i = 0; i < diffs.length; i++) if (before[i] !== null || now[i] !== null || !Object.is(diffs[i], diffs[0])) return false;
  return true;
}

/**
 * A difference of two rates lies in [-1, 1]; a bound within 1e-9 of 0 is 0. The means are sums of
 * rates such as 1/5 - 5/12 whose rounding leaves a bound that is exactly 0 at 1.9e-17 or -5.6e-17,
 * and the interval must hold 0 or not as the exact sums do (docs/statistics.md, "How they are
 * computed": ties within one part in 10^9, as for a p at its level).
 */
function clampDiff(x: number): number {
  if (Math.abs(x) < 1e-9) return 0;
  return Math.min(1, Math.max(-1, x));
}

/** k' / N for the least k' with u < CDF(k'). */
function drawRate(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u < (cdf[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo / (cdf.length - 1);
}

/** round(passed x attempts / total), halves up, in whole-number arithmetic (no floating error at .5). */
function passesAtRate(rate: Tally, attempts: number): number {
  return Math.floor((2 * rate.passed * attempts + rate.total) / (2 * rate.total));
}

/**
 * The least number of attempts now, 1 to ATTEMPTS_LIMIT, at which the observed rate (k =
 * round(rate x N) passes, halves rounded up) would make the drop's p < a against the same baseline;
 * null when no number up to the limit would (or there is no observed rate). p < a as in `below`.
 */
export function attemptsNeeded(baseline: Tally, now: Tally, a: number): number | null {
  if (now.total === 0) return null;
  for (let n = 1; n <= ATTEMPTS_LIMIT; n++) {
    if (below(fisherOneSided(baseline, { passed: passesAtRate(now, n), total: n }).drop, a)) return n;
  }
  return null;
}

export interface TierOptions {
  /** stats.alpha: 0.05 unless configured. */
  alpha: number;
  /** The looks the item could get (1 when attempts are not adaptive): alpha is divided by it. */
  maxLooks: number;
}

/** Did the rate fall by at least `points` points, in exact whole-number arithmetic? */
function fellBy(baseline: Tally, now: Tally, points: number): boolean {
  if (baseline.total === 0 || now.total === 0) return false;
  return (baseline.passed * now.total - now.passed * baseline.total) * 100 >= points * baseline.total * now.total;
}

/**
 * The tier, in this order: regressed (drop's p < alpha / maxLooks), likely_regressed (drop's p <
 * 0.2 and a fall of at least 15 points), improved (rise's p < alpha / maxLooks), too_few (fewer
 * than 3 attempts on either side), steady.
 */
export function tierOf(baseline: Tally, now: Tally, p: { drop: number; rise: number }, options: TierOptions): Tier {
  const a = options.alpha / options.maxLooks;
  if (below(p.drop, a)) return 'regressed';
  if (below(p.drop, LIKELY_P) && fellBy(baseline, now, LIKELY_POINTS)) return 'likely_regressed';
  if (below(p.rise, a)) return 'improved';
  if (baseline.total < FEW_ATTEMPTS || now.total < FEW_ATTEMPTS) return 'too_few';
  return 'steady';
}

/**
 * An item's statistics, now against its baseline's attempts (baseline first, as in every function
 * here), or null when neither side has more than
 * one attempt (its change is then the verdict's drift alone).
 */
export function itemStats(baseline: Tally, now: Tally, options: TierOptions & { looks?: number }): ItemStats | null {
  checkTally(baseline, 'baseline');
  checkTally(now, 'now');
  if (!(options.alpha > 0 && options.alpha < 1)) throw new RangeError(`alpha ${options.alpha} is not between 0 and 1`);
  if (!Number.isInteger(options.maxLooks) || options.maxLooks < 1) throw new RangeError(`maxLooks ${options.maxLooks} is not a whole number >= 1`);
  if (now.total <= 1 && baseline.total <= 1) return null;
  const p = fisherOneSided(baseline, now);
  const tier = tierOf(baseline, now, p, options);
  return {
    passed: now.passed,
    total: now.total,
    rate: now.total === 0 ? null : now.passed / now.total,
    ci: wilson(now),
    baseline: { passed: baseline.passed, total: baseline.total },
    pDrop: p.drop,
    pRise: p.rise,
    tier,
    attemptsNeeded: tier === 'too_few' ? attemptsNeeded(baseline, now, options.alpha / options.maxLooks) : null,
    looks: options.looks ?? 1,
    maxLooks: options.maxLooks,
    alpha: options.alpha,
  };
}

/** An item's adaptive plan (docs/statistics.md, "Adaptive attempts"): batches of `count`, up to `max` attempts. */
export interface LookPlan {
  count: number;
  max: number;
  /** stats.alpha, before the Bonferroni division. */
  alpha: number;
}

/** Attempts on the baseline's side that let an item get extra attempts: fewer can hardly call a drop. */
export const ADAPTIVE_BASELINE = 3;

/** Points below the baseline's rate the rate now must be for another look (a gap that closes below it ends the looks). */
export const GAP_POINTS = 15;

/**
 * Can the item get extra attempts at all? Only against a baseline of ADAPTIVE_BASELINE attempts or
 * more, and only when max is above count.
 */
export function adaptive(baseline: Tally | null, plan: Pick<LookPlan, 'count' | 'max'>): boolean {
  return baseline !== null && baseline.total >= ADAPTIVE_BASELINE && plan.max > plan.count;
}

/**
 * The looks an item could get: at count, 2 count, ... and max (the last batch cut at max), so
 * ceil(max / count) for an item that can get extra attempts, else 1. The Bonferroni divisor of alpha.
 */
export function maxLooksOf(baseline: Tally | null, plan: Pick<LookPlan, 'count' | 'max'>): number {
  return adaptive(baseline, plan) ? Math.ceil(plan.max / plan.count) : 1;
}

/** The looks taken after `attempts` attempts: one per batch of count, the last one cut at max. */
export function looksTaken(attempts: number, count: number): number {
  return Math.max(1, Math.ceil(attempts / count));
}

/**
 * After a look at `now` (the attempts so far), how many more attempts the item gets: 0 (stop) unless
 * it can get extra attempts, has fewer than max, its drop is not yet significant at alpha divided by
 * its looks (Bonferroni), and its rate is still at least 15 points below the baseline's; then
 * count more, the last batch cut at max. A rise never gets extra attempts.
 */
export function moreAttempts(baseline: Tally | null, now: Tally, plan: LookPlan): number {
  if (baseline === null || !adaptive(baseline, plan)) return 0;
  checkTally(baseline, 'baseline');
  checkTally(now, 'now');
  if (now.total >= plan.max) return 0;
  const a = plan.alpha / maxLooksOf(baseline, plan);
  if (below(fisherOneSided(baseline, now).drop, a)) return 0;
  if (!fellBy(baseline, now, GAP_POINTS)) return 0;
  return Math.min(plan.count, plan.max - now.total);
}
