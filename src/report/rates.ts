// Pass-rate statistics in words (docs/statistics.md, "In the reports"): an item's tier beside its
// drift, the headline's count of regressed items, the run's pass-rate line. Read from the record's
// `stats` (evaluate/stats.ts computed them when the run finished); nothing is computed again here.
// Pure.

import type { FixtureRecord, ItemStats, McNemar, PersonaRecord, RunStats, Tally, Tier } from '../types.js';
import { attemptsNeeded, below, DEFAULT_ALPHA, TIERS, wilson } from '../evaluate/stats.js';
import { isScript } from '../evaluate/kind.js';
import { thousands } from '../words.js';
import { percentText, shownTenths, tenthsText } from '../evaluate/agreement.js';

/**
 * How a tier is said. `steady` is every item no test called, a fall of 5/5 to 3/5 among them: it
 * reads "within noise" (what the test found: the change, if any, could be chance), as the run's
 * line does, never "steady" beside a 40-point fall (docs/statistics.md, "Beside the drift").
 */
export const TIER_WORDS: Record<Tier, string> = {
  regressed: 'regressed',
  likely_regressed: 'likely regressed',
  improved: 'improved',
  too_few: 'too few attempts',
  steady: 'within noise',
};

/**
 * A p-value as text: two decimals from 0.1 ("0.63"), three below ("0.003"), "< 0.001" below that;
 * "1" and "0.50" as they are. Which of the first two applies goes by the value once rounded
 * (docs/statistics.md, "Beside the drift"): 0.0996 rounds to 0.100, which is 0.1, and reads "0.10";
 * 0.996 rounds to 1 and reads "1", never "0.100" or "1.00".
 */
export function pText(p: number): string {
  if (p < 0.001) return '< 0.001';
  const three = fixed(p, 3);
  if (Number(three) < 0.1) return `= ${three}`;
  const two = fixed(p, 2);
  return Number(two) >= 1 ? '= 1' : `= ${two}`;
}

/**
 * `digits` decimals, halves rounded up (0.625 reads 0.63, as by hand; toFixed gives 0.62). The
 * p-values are summed in log space, exact to about 1e-12 (evaluate/stats.ts): a half a hair below
 * is still a half.
 */
function fixed(x: number, digits: number): string {
  const scale = 10 ** digits;
  return (Math.round(x * scale * (1 + 1e-9)) / scale).toFixed(digits);
}

/**
 * A rate as shown: "93.5%", in tenths of a point like agreement's percentage beside it, so that the
 * two are read to the same precision (docs/statistics.md, "The run's pass-rate line"); ">99.9%" for
 * a rate below 1 that rounds to 100, "<0.1%" for one above 0 that rounds to 0: 999 passing items of
 * 3/3 and one of 2/3 are not a perfect run.
 */
export function percent(rate: number): string {
  return percentText(rate * 100);
}

/**
 * The sign a difference is written with: "+" above 0, "−" (U+2212, the minus sign, not a hyphen)
 * below, nothing for 0. Every signed difference in the reports and `compare` writes it this way
 * (docs/statistics.md, "The run's pass-rate line"; docs/evaluations.md#compare).
 */
export function signOf(diff: number): string {
  return diff > 0 ? '+' : diff < 0 ? '−' : '';
}

/**
 * Signed points between two rates as `percent` shows them: "+12.5 points", "−22 points", "0
 * points", "−1 point". Taken from the rounded rates, so that the line adds up (82.4% → 45.5% is
 * −36.9 points, though 0.8244 → 0.4551 differ by 36.93; ">99.9%" counts as 99.9 and "<0.1%" as 0.1).
 */
export function points(before: number, now: number): string {
  const n = shownTenths(now * 100) - shownTenths(before * 100);
  return `${signOf(n)}${tenthsText(Math.abs(n))} ${Math.abs(n) === 10 ? 'point' : 'points'}`;
}

/**
 * An interval's bound in signed whole points; a bound that is not 0 keeps its sign when it rounds
 * to 0 ("−0", "+0"), so that an interval shown reaching 0 is one that holds it and "−19 to 0" is
 * never called beyond noise (docs/statistics.md, "The run's pass-rate line").
 */
function signed(diff: number): string {
  const n = Math.round(diff * 100);
  return `${signOf(diff)}${Math.abs(n)}`;
}

/** The p that decided the tier: the drop's for a drop, the rise's for `improved`; null when none did. */
function decidingP(s: ItemStats): number | null {
  if (s.tier === 'regressed' || s.tier === 'likely_regressed') return s.pDrop;
  if (s.tier === 'improved') return s.pRise;
  return null;
}

/** The default level: stats.alpha 0.05 with one look, which the line does not repeat. */
const PLAIN_LEVEL = 0.05;

/**
 * The level the deciding p was tested at, when it is not 0.05: "; regressed below 0.0125" (alpha
 * 0.05 over 4 looks), "; improved below 0.01" (stats.alpha 0.01), so that a p under 0.05 beside
 * "likely regressed" is not read as a call missed (docs/statistics.md, "Beside the drift"). Empty
 * at 0.05 and for a record written before alpha was kept.
 */
function levelWords(s: ItemStats): string {
  if (s.alpha === undefined) return '';
  const level = s.alpha / s.maxLooks;
  if (Math.abs(level - PLAIN_LEVEL) <= PLAIN_LEVEL * 1e-12) return '';
  return `; ${s.tier === 'improved' ? 'improved' : 'regressed'} below ${Number(level.toPrecision(3))}`;
}

/** Did the rate fall? */
function fell(s: ItemStats): boolean {
  return s.baseline.total > 0 && s.rate !== null && s.rate < s.baseline.passed / s.baseline.total;
}

/**
 * A `too_few` item whose rate did not fall against a baseline (10/10 then one attempt that passed):
 * no test could call anything, and nothing fell, so its line says nothing of its pass rate; the
 * run says it once for all of them (tooFewOfRun). An unchanged agent run once against 10-attempt
 * baselines would otherwise say "too few attempts" on every line (docs/statistics.md, "Too few
 * attempts, said once"). results.json keeps the tier.
 */
export function quietTooFew(s: ItemStats): boolean {
  return s.tier === 'too_few' && s.baseline.total > 0 && !fell(s);
}

/**
 * What `too_few` says where the rate fell: how many attempts in one run would call the drop at the
 * same observed rate ("needs 7"), or that none up to 20 would, with the cause: the baseline it is
 * tested against ("against a baseline of 1 attempt, no number up to 20 would tell at this rate").
 * The run's line for the items whose rate did not fall names the same baseline (tooFewText), so
 * that "no number would" here and "with --repeat 20, every attempt failing would" there read as
 * the two sides of one cause (docs/statistics.md, "Too few attempts, said once").
 */
function tooFewWords(s: ItemStats): string {
  if (s.attemptsNeeded === null) return `${TIER_WORDS.too_few} (against ${baselineWords(s.baseline)}, no number up to 20 would tell at this rate)`;
  return `${TIER_WORDS.too_few} (needs ${thousands(s.attemptsNeeded)})`;
}

/** "a baseline of 1 attempt", "a baseline of 10 attempts", "a baseline of 10 attempts, 7 passing". */
function baselineWords(t: Tally): string {
  const attempts = `a baseline of ${thousands(t.total)} ${t.total === 1 ? 'attempt' : 'attempts'}`;
  return t.passed === t.total ? attempts : `${attempts}, ${thousands(t.passed)} passing`;
}

/**
 * An item's pass rate and tier, beside its drift: "pass rate 10/10 → 0/3 (p = 0.003): regressed",
 * "pass rate 5/5 → 4/5: within noise", "pass rate 1/1 → 0/2: too few attempts (needs 20)"; an item
 * without a baseline has its rate alone: "pass rate 2/3". null for a `too_few` item whose rate did
 * not fall (quietTooFew): the run's line says those once.
 */
export function tierWords(s: ItemStats): string | null {
  const now = `${thousands(s.passed)}/${thousands(s.total)}`;
  if (s.baseline.total === 0) return `pass rate ${now}`;
  if (quietTooFew(s)) return null;
  const rates = `pass rate ${thousands(s.baseline.passed)}/${thousands(s.baseline.total)} → ${now}`;
  const p = decidingP(s);
  const tier = s.tier === 'too_few' ? tooFewWords(s) : TIER_WORDS[s.tier];
  return p === null ? `${rates}: ${tier}` : `${rates} (p ${pText(p)}${levelWords(s)}): ${tier}`;
}

/** The run's `too_few` items whose rate did not fall, said once (docs/statistics.md, "Too few attempts, said once"). */
export interface TooFew {
  /** How many: their lines leave their pass rate out. */
  items: number;
  /**
   * The fewest attempts per item with which every attempt failing would be called `regressed` for
   * each of them that such a number up to 20 has (the largest of theirs); null when none has.
   */
  repeat: number | null;
  /** The baseline that sets `repeat` (the first item needing it), which the line names as its cause; null with `repeat`. */
  baseline: Tally | null;
  /** Those for which no number of attempts up to 20 would (a baseline of no pass, or too few attempts of its own). */
  never: number;
}

/**
 * The `too_few` items of a run whose rate did not fall, with what `--repeat` would tell them: for
 * each, the least N up to 20 at which N failing attempts give a drop's p below its level (alpha
 * over its looks), from the recorded tallies, as report.html's baseline interval is; null when the
 * run has none.
 */
export function tooFewOfRun(items: readonly (FixtureRecord | PersonaRecord)[]): TooFew | null {
  let n = 0;
  let repeat: number | null = null;
  let baseline: Tally | null = null;
  let never = 0;
  for (const item of items) {
    const s = item.stats;
    if (s === undefined || !quietTooFew(s)) continue;
    n++;
    const needed = attemptsNeeded(s.baseline, { passed: 0, total: 1 }, (s.alpha ?? DEFAULT_ALPHA) / s.maxLooks);
    if (needed === null) never++;
    else if (repeat === null || needed > repeat) {
      repeat = needed;
      baseline = { passed: s.baseline.passed, total: s.baseline.total };
    }
  }
  return n === 0 ? null : { items: n, repeat, baseline, never };
}

/**
 * The run's one line for them, `code` setting a flag in each surface's markup: "too few attempts to
 * tell a drop from noise for 20 items whose pass rate did not fall (not said on their lines); every
 * attempt failing would be called regressed for each of them with --repeat 2, what a baseline of 10
 * attempts needs". The baseline is the cause, named as an item's own line names it (tooFewWords).
 */
export function tooFewText(t: TooFew, code: (flag: string) => string = (f) => f, setting: RepeatSetting = 'flag'): string {
  const head = `too few attempts to tell a drop from noise for ${thousands(t.items)} ${t.items === 1 ? 'item' : 'items'} whose pass rate did not fall (not said on ${t.items === 1 ? 'its line' : 'their lines'})`;
  if (t.repeat === null) return `${head}; no number of attempts up to 20 would tell a drop of ${t.items === 1 ? 'it' : 'theirs'}`;
  const them = t.never > 0 ? `${thousands(t.items - t.never)} of them (for the other ${thousands(t.never)}, no number up to 20 would)` : t.items === 1 ? 'it' : 'each of them';
  const cause = t.baseline === null ? '' : `, what ${baselineWords(t.baseline)} needs`;
  return `${head}; every attempt failing would be called regressed for ${them} with ${repeatWords(t.repeat, code, setting)}${cause}`;
}

/**
 * Where a reader of a surface sets every item's attempts: the CLI's flag (the terminal, the markdown
 * report, report.html), the Action's check-mode input (the PR comment, read on a pull request), or
 * both (the job summary, which the CLI writes too).
 */
export type RepeatSetting = 'flag' | 'input' | 'both';

/** "`--repeat 4`", "the check step's `repeat: 4` input", or both (docs/statistics.md, "Too few attempts, said once"). */
function repeatWords(n: number, code: (flag: string) => string, setting: RepeatSetting): string {
  const flag = code(`--repeat ${n}`);
  const input = `the check step's ${code(`repeat: ${n}`)} input`;
  return setting === 'flag' ? flag : setting === 'input' ? input : `${input} (${flag} on the command line)`;
}

/** The tiers the headline counts, worst first. */
export const HEADLINE_TIERS = ['regressed', 'likely_regressed'] as const satisfies readonly Tier[];

/** "2 regressed · 1 likely regressed": the non-zero counts of HEADLINE_TIERS; null when none. */
export function tierCountsText(counts: Readonly<Record<Tier, number>>): string | null {
  const parts = HEADLINE_TIERS.filter((t) => counts[t] > 0).map((t) => `${thousands(counts[t])} ${TIER_WORDS[t]}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Does the interval hold 0 (a change within noise)? */
function holdsZero(ci: readonly [number, number]): boolean {
  return ci[0] <= 0 && ci[1] >= 0;
}

/**
 * An interval that leaves 0 out: "beyond noise" when the pooled tally's test agrees (or an older
 * record has none), else ", too few attempts to tell (pooled 1/1 → 0/3: p = 0.25)": the items'
 * own tests could not call it either (docs/statistics.md, "The run's pass-rate line").
 */
function beyondWords(pooled: RunStats['pooled']): string {
  if (pooled === undefined || below(pooled.p, 0.05)) return ', beyond noise';
  const t = (x: Tally): string => `${thousands(x.passed)}/${thousands(x.total)}`;
  return `, too few attempts to tell (pooled ${t(pooled.before)} → ${t(pooled.now)}: p ${pText(pooled.p)})`;
}

/** McNemar's test in words: "3 newly failing, 1 newly passing: p = 0.63, within noise". */
export function mcnemarText(m: McNemar): string {
  const verdict = m.p < 0.05 ? 'beyond noise' : 'within noise';
  return `${thousands(m.newlyFailing)} newly failing, ${thousands(m.newlyPassing)} newly passing: p ${pText(m.p)}, ${verdict}`;
}

/** The run's pass-rate line in parts, so that each surface sets them in its own markup. */
export interface RunRateParts {
  /** "pass rate of attempts 93% → 71.5%": of attempts, where agreement beside it is of items' verdicts */
  head: string;
  /** "−21.5 points (95% interval of the change: −35 to −9) over 24 items with a baseline, beyond noise" */
  detail: string;
  /** McNemar's test, when no item was repeated: "3 newly failing, 1 newly passing: p = 0.63, within noise". */
  mcnemar: string | null;
}

/** The run's errored and not evaluated items: left out of its pass rate, and said so beside its count. */
export interface LeftOut {
  errored: number;
  notEvaluated: number;
}

/**
 * " (1 errored and 2 not evaluated left out)", or nothing: an item the agent or the judge did not
 * answer is not in the pass rate, and the count of items says so, as agreement's line does
 * (docs/statistics.md, "The run's pass-rate line").
 */
function leftOutWords(l: LeftOut): string {
  const parts = [l.errored > 0 ? `${thousands(l.errored)} errored` : null, l.notEvaluated > 0 ? `${thousands(l.notEvaluated)} not evaluated` : null].filter((x) => x !== null);
  return parts.length === 0 ? '' : ` (${parts.join(' and ')} left out)`;
}

/**
 * Has the run's pass-rate line anything to say? Not when no item with a baseline is repeated and
 * no verdict flipped: every item did what its baseline did, so the line could only read "100% →
 * 100%: 0 points (95% interval of the change: 0 to 0) · 0 newly failing, 0 newly passing: p = 1" (docs/statistics.md,
 * "The run's pass-rate line"). A repeated item keeps the line, unchanged or not: its interval is
 * how large a change its attempts could hide. results.json keeps the run's `stats` either way.
 */
export function runRateSaysSomething(s: RunStats): boolean {
  return s.mcnemar === undefined || s.mcnemar.newlyFailing + s.mcnemar.newlyPassing > 0;
}

/**
 * The run's pass-rate change (docs/statistics.md, "The run"), from the record's run `stats`; `over`
 * says which items it is of: a run's "with a baseline", `compare`'s "in both runs".
 */
export function runRateParts(s: RunStats, leftOut: LeftOut = { errored: 0, notEvaluated: 0 }, over = 'with a baseline'): RunRateParts {
  // The interval says within or beyond noise only where it can see the noise: with McNemar's test
  // (no item repeated) the test says it, and an interval of one value (no spread between the items
  // or in their attempts) says nothing (docs/statistics.md, "The run").
  const noise = s.mcnemar !== undefined || s.ci[0] === s.ci[1] ? '' : holdsZero(s.ci) ? ', within noise' : beyondWords(s.pooled);
  const items = `${thousands(s.items)} ${s.items === 1 ? 'item' : 'items'} ${over}${leftOutWords(leftOut)}`;
  return {
    // "of attempts": agreement, beside it, is the share of items whose verdict passed; this is each
    // item's share of passing attempts, averaged (docs/statistics.md, "The run's pass-rate line").
    head: `pass rate of attempts ${percent(s.before)} → ${percent(s.now)}`,
    // The interval is of the change, not of a rate: 100% → 100% can read −33 to +33, since 3 passes
    // of 3 do not show a true rate of 1. In whole points: 2,000 resamples do not know it to a tenth.
    detail: `${points(s.before, s.now)} (95% interval of the change: ${signed(s.ci[0])} to ${signed(s.ci[1])}) over ${items}${noise}`,
    mcnemar: s.mcnemar === undefined ? null : mcnemarText(s.mcnemar),
  };
}

/** The run's pass-rate line as plain text. */
export function runRateText(s: RunStats, leftOut?: LeftOut, over?: string): string {
  const r = runRateParts(s, leftOut, over);
  return [`${r.head}: ${r.detail}`, r.mcnemar].filter((x) => x !== null).join(' · ');
}

/** One row of report.html's forest plot: an item's pass rate now and its baseline's, with their intervals. */
export interface ForestRow {
  label: string;
  script: boolean;
  tier: Tier;
  rate: number | null;
  ci: readonly [number, number];
  baselineRate: number;
  /** The baseline's 95% Wilson interval: the record keeps the baseline's tally, and the interval follows from it by the same rule as now's. */
  baselineCi: readonly [number, number];
  /** "10/10 → 0/3" */
  counts: string;
  /** The item's words: "pass rate 10/10 → 0/3 (p = 0.003): regressed". */
  words: string;
}

/**
 * The forest plot's rows: every item with `stats` against a baseline, worst tier first
 * (regressed, likely regressed, improved, too few, steady), then the smaller drop p, then label.
 */
export function forestRows(items: readonly (FixtureRecord | PersonaRecord)[]): ForestRow[] {
  const rows: (ForestRow & { pDrop: number })[] = [];
  for (const item of items) {
    const s = item.stats;
    // A too_few item whose rate did not fall draws nothing worth reading: the run's line counts it.
    if (s === undefined || s.baseline.total === 0 || quietTooFew(s)) continue;
    rows.push({
      label: item.label,
      script: isScript(item),
      tier: s.tier,
      rate: s.rate,
      ci: s.ci,
      baselineRate: s.baseline.passed / s.baseline.total,
      baselineCi: wilson(s.baseline),
      counts: `${thousands(s.baseline.passed)}/${thousands(s.baseline.total)} → ${thousands(s.passed)}/${thousands(s.total)}`,
      words: tierWords(s) ?? '',
      pDrop: s.pDrop,
    });
  }
  const rank = (t: Tier): number => TIERS.indexOf(t);
  rows.sort((a, b) => rank(a.tier) - rank(b.tier) || a.pDrop - b.pDrop || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return rows.map(({ pDrop: _p, ...r }) => r);
}
