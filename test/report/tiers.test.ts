// Pass-rate statistics in every surface (docs/statistics.md, "In the reports"): the tier beside the
// drift, the headline's count of regressed items, the run's pass-rate line. Goldens: stats.*.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemStats } from '../../src/evaluate/index.js';
import { pairedBootstrap } from '../../src/evaluate/stats.js';
import { renderComment, renderJUnit, renderSummary, renderTerminal } from '../../src/report/index.js';
import { afterAcceptance, buildModel, headlineText, viewOf } from '../../src/report/model.js';
import { forestRows, pText, runRateText, tierWords, tooFewOfRun, tooFewText } from '../../src/report/rates.js';
import { renderHtml } from '../../src/report/html.js';
import { FOREST_ROWS, forestPanel } from '../../src/report/html/forest.js';
import { runRateLine } from '../../src/report/blocks.js';
import type { FixtureRecord, ItemStats, RunRecord, Tally } from '../../src/types.js';
import { baseline, ctx, fixture, resetLines } from './fixtures.js';
import { expectGolden, structure } from './helpers.js';
import { flipsRun, manyStats, oneAttemptBaselines, repeated, statsRun, withRunStats } from './stats-fixtures.js';

const STATS = statsRun();

function words(base: Tally, now: Tally): string | null {
  const s = itemStats(base, now, { alpha: 0.05, maxLooks: 1 });
  if (s === null) throw new Error('no stats');
  return tierWords(s);
}

describe("an item's pass rate in words", () => {
  it.each([
    [{ passed: 10, total: 10 }, { passed: 0, total: 3 }, 'pass rate 10/10 → 0/3 (p = 0.003): regressed'],
    [{ passed: 5, total: 5 }, { passed: 4, total: 5 }, 'pass rate 5/5 → 4/5: within noise'],
    [{ passed: 5, total: 5 }, { passed: 3, total: 5 }, 'pass rate 5/5 → 3/5: within noise'],
    [{ passed: 5, total: 5 }, { passed: 5, total: 5 }, 'pass rate 5/5 → 5/5: within noise'],
    [{ passed: 9, total: 10 }, { passed: 1, total: 3 }, 'pass rate 9/10 → 1/3 (p = 0.11): likely regressed'],
    [{ passed: 0, total: 10 }, { passed: 3, total: 3 }, 'pass rate 0/10 → 3/3 (p = 0.003): improved'],
    [{ passed: 1, total: 1 }, { passed: 0, total: 2 }, 'pass rate 1/1 → 0/2: too few attempts (needs 20)'],
    [{ passed: 3, total: 3 }, { passed: 1, total: 2 }, 'pass rate 3/3 → 1/2: too few attempts (against a baseline of 3 attempts, no number up to 20 would tell at this rate)'],
    [{ passed: 2, total: 20 }, { passed: 0, total: 1 }, 'pass rate 2/20 → 0/1: too few attempts (against a baseline of 20 attempts, 2 passing, no number up to 20 would tell at this rate)'],
    // too_few where the rate did not fall: nothing on the line; the run says it once (test/repeat/too-few-once.test.ts).
    [{ passed: 1, total: 1 }, { passed: 2, total: 2 }, null],
    [{ passed: 10, total: 10 }, { passed: 1, total: 1 }, null],
    [{ passed: 0, total: 0 }, { passed: 2, total: 3 }, 'pass rate 2/3'],
  ])('%j against %j: %s', (base, now, expected) => {
    expect(words(base, now)).toBe(expected);
  });

  // 3/5 against 5/5 at the default alpha: pDrop = 2/9 = 0.22 (from scipy.stats import fisher_exact;
  // fisher_exact([[3,2],[5,0]],alternative='less')[1] -> 0.2222222222222222), not < 0.05 and not < 0.2:
  // tier `steady`. The line said "newly failing · pass rate 5/5 → 3/5: steady" beside a 40-point fall;
  // what the test found is that the fall could be chance, and the line says so.
  it('3/5 against 5/5: a fall no test called reads "within noise" on every surface, never "steady"', () => {
    const run = withRunStats([repeated('three-of-five', { passed: 5, total: 5 }, { passed: 3, total: 5 }, 5)]);
    expect(run.fixtures[0]?.stats?.tier).toBe('steady');
    const line = 'newly failing · pass rate 5/5 → 3/5: within noise';
    // report.html without its tags (a row's data-tier attribute keeps the record's tier name).
    const html = renderHtml(run).replace(/<[^>]*>/g, ' ');
    for (const text of [renderComment(run, ctx), renderSummary(run, ctx), renderTerminal(run, { color: false }), html]) {
      expect(text).toContain(line);
      expect(text).not.toContain('steady');
    }
    expect(html).toContain('5/5 → 3/5 within noise');
    expect(forestRows(run.fixtures).map((r) => r.words)).toEqual(['pass rate 5/5 → 3/5: within noise']);
  });

  // An item with 4 possible looks (count 3, max 10) is tested at 0.05 / 4 = 0.0125. 10/10 -> 5/10
  // gives pDrop = 3003/184756 = 0.016 (from scipy.stats import fisher_exact;
  // fisher_exact([[5,5],[10,0]],alternative="less")[1] -> 0.016253869969040248): not regressed at
  // 0.0125, likely regressed. The line read "(p = 0.016): likely regressed", which at the default
  // 0.05 looks like a regression called by mistake; results.json did not even keep alpha.
  it('a level other than 0.05 (looks, or stats.alpha) is said beside the p, and recorded', () => {
    const looks = itemStats({ passed: 10, total: 10 }, { passed: 5, total: 10 }, { alpha: 0.05, maxLooks: 4, looks: 4 });
    expect(looks).toMatchObject({ tier: 'likely_regressed', alpha: 0.05, maxLooks: 4 });
    expect(tierWords(looks!)).toBe('pass rate 10/10 → 5/10 (p = 0.016; regressed below 0.0125): likely regressed');
    const called = itemStats({ passed: 10, total: 10 }, { passed: 0, total: 3 }, { alpha: 0.05, maxLooks: 3 });
    expect(tierWords(called!)).toBe('pass rate 10/10 → 0/3 (p = 0.003; regressed below 0.0167): regressed');
    const rise = itemStats({ passed: 0, total: 10 }, { passed: 3, total: 3 }, { alpha: 0.01, maxLooks: 1 });
    expect(tierWords(rise!)).toBe('pass rate 0/10 → 3/3 (p = 0.003; improved below 0.01): improved');
    // At 0.05 with one look nothing is added; a record written before alpha was kept says nothing of it either.
    expect(words({ passed: 10, total: 10 }, { passed: 0, total: 3 })).toBe('pass rate 10/10 → 0/3 (p = 0.003): regressed');
    const { alpha: _a, ...older } = looks!;
    expect(tierWords(older)).toBe('pass rate 10/10 → 5/10 (p = 0.016): likely regressed');
  });

  it('docs/statistics.md quotes these words as the renderers write them', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/statistics.md'), 'utf8');
    const quoted = [
      words({ passed: 10, total: 10 }, { passed: 0, total: 3 }),
      words({ passed: 9, total: 10 }, { passed: 1, total: 3 }),
      words({ passed: 0, total: 10 }, { passed: 3, total: 3 }),
      words({ passed: 5, total: 5 }, { passed: 4, total: 5 }),
      words({ passed: 1, total: 1 }, { passed: 0, total: 2 }),
    ];
    for (const w of quoted) expect(doc).toContain(`${w}\``);
    const twenty = Array.from({ length: 20 }, () => ({ stats: itemStats({ passed: 10, total: 10 }, { passed: 1, total: 1 }, { alpha: 0.05, maxLooks: 1 })! }) as FixtureRecord);
    expect(doc).toContain(runRateLine({ runRate: null, tooFew: tooFewOfRun(twenty) }));
    expect(doc).toContain(`📈 ${runRateText(STATS.stats!).replace(/^pass rate/, 'Pass rate')}`);
  });

  it('the too_few items whose rate did not fall are counted once, with the --repeat that would tell a drop of each', () => {
    const item = (base: Tally, now: Tally) => ({ stats: itemStats(base, now, { alpha: 0.05, maxLooks: 1 })! }) as FixtureRecord;
    // 10/10: 0 of 2 gives p = 1/66 = 0.015; 3/3: 0 of 4 gives 1/35 = 0.029 (0 of 3: exactly 1/20, not below 0.05); 0/10 cannot fall.
    const run = [item({ passed: 10, total: 10 }, { passed: 1, total: 1 }), item({ passed: 3, total: 3 }, { passed: 2, total: 2 }), item({ passed: 0, total: 10 }, { passed: 0, total: 1 })];
    // One that fell says it on its line, one without a baseline has none: neither is counted.
    const others = [item({ passed: 1, total: 1 }, { passed: 0, total: 2 }), item({ passed: 0, total: 0 }, { passed: 2, total: 3 })];
    const t = tooFewOfRun([...run, ...others]);
    expect(t).toEqual({ items: 3, repeat: 4, baseline: { passed: 3, total: 3 }, never: 1 });
    expect(tooFewText(t!)).toBe('too few attempts to tell a drop from noise for 3 items whose pass rate did not fall (not said on their lines); every attempt failing would be called regressed for 2 of them (for the other 1, no number up to 20 would) with --repeat 4, what a baseline of 3 attempts needs');
    expect(tooFewText(tooFewOfRun(run.slice(0, 1))!)).toBe('too few attempts to tell a drop from noise for 1 item whose pass rate did not fall (not said on its line); every attempt failing would be called regressed for it with --repeat 2, what a baseline of 10 attempts needs');
    expect(tooFewOfRun(others)).toBeNull();
  });

  // One comment read "pass rate 1/1 → 2/3: too few attempts (no number up to 20 would tell)" on a
  // flaky item and, under the run's line, "with `repeat: 20`, every attempt failing would be called
  // regressed" for the others: 20 would and would not, and nothing said why. Both come of baselines
  // of one attempt (1/1 against 0 of 20: p = 1/21; against 13 of 20, at 2/3, p = 2/3), and both now say so.
  it('a flaky item and the run\'s too-few line against 1-attempt baselines name the same cause, at this rate and every attempt failing', () => {
    resetLines();
    const run = withRunStats([
      repeated('refund', { passed: 1, total: 1 }, { passed: 2, total: 3 }, 2),
      ...['a', 'b', 'c'].map((l) => repeated(l, { passed: 1, total: 1 }, { passed: 3, total: 3 }, 2)),
    ]);
    const md = renderComment(run, ctx);
    expect(md).toContain('pass rate 1/1 → 2/3: too few attempts (against a baseline of 1 attempt, no number up to 20 would tell at this rate)');
    expect(md).toContain(
      "🔍 Too few attempts to tell a drop from noise for 3 items whose pass rate did not fall (not said on their lines); every attempt failing would be called regressed for each of them with the check step's `repeat: 20` input, what a baseline of 1 attempt needs.",
    );
    expect(renderTerminal(run, { color: false })).toContain('every attempt failing would be called regressed for each of them with --repeat 20, what a baseline of 1 attempt needs');
  });

  it('p-values: three decimals below 0.1, two above, halves rounded up, "< 0.001" below that', () => {
    expect([pText(1 / 286), pText(0.625), pText(0.0385), pText(0.00049), pText(1), pText(0.5)]).toEqual(['= 0.003', '= 0.63', '= 0.039', '< 0.001', '= 1', '= 0.50']);
  });

  it('p-values at the boundaries: the rule goes by the rounded value (0.0996 reads 0.10, never 0.100; 0.996 reads 1, never 1.00)', () => {
    const shown = (ps: number[]): string[] => ps.map((p) => pText(p));
    // Below 0.001, whatever the rounding would give.
    expect(shown([0.000999, 0.0009995])).toEqual(['< 0.001', '< 0.001']);
    expect(shown([0.001, 0.00949, 0.00995, 0.00999, 0.01])).toEqual(['= 0.001', '= 0.009', '= 0.010', '= 0.010', '= 0.010']);
    expect(shown([0.09949, 0.0995, 0.0996, 0.0999, 0.1, 0.1049])).toEqual(['= 0.099', '= 0.10', '= 0.10', '= 0.10', '= 0.10', '= 0.10']);
    expect(shown([0.99499, 0.995, 0.9996, 1])).toEqual(['= 0.99', '= 1', '= 1', '= 1']);
    for (const text of shown([0.0995, 0.0999, 0.995, 0.9999])) expect(text).not.toMatch(/^= (0\.100|1\.00)$/);
  });

  it('reads the record: a tier written there is the one shown, whatever the counts', () => {
    const r = statsRun();
    const f = r.fixtures[4];
    if (f?.stats === undefined) throw new Error('fixture without stats');
    const stats: ItemStats = { ...f.stats, tier: 'improved', pRise: 0.01 };
    const edited: RunRecord = { ...r, fixtures: r.fixtures.map((x): FixtureRecord => (x === f ? { ...f, stats } : x)) };
    expect(viewOf(buildModel(edited), edited.fixtures[4] as never).drift).toContain('pass rate 5/5 → 4/5 (p = 0.010): improved');
  });
});

describe('a run with stats', () => {
  it('puts an item whose pass rate moved in Changed, the others where their verdict puts them', () => {
    const m = buildModel(STATS);
    expect(m.sections.newly_failing.map((f) => f.label)).toEqual(['refund-window', 'order-status', 'store-locations']);
    expect(m.sections.changed.map((f) => f.label)).toEqual(['greeting', 'shipping-times']);
    expect(m.sections.unchanged.map((f) => f.label)).toEqual(['opening-hours']);
    expect(m.sections.new.map((f) => f.label)).toEqual(['gift-cards']);
    expect(m.tiers).toEqual({ regressed: 2, likely_regressed: 1, improved: 1, too_few: 2, steady: 1 });
  });

  it('headline: the counts add up, then "2 regressed · 1 likely regressed"; a regressed pass rate alone reddens it', () => {
    expect(headlineText(buildModel(STATS))).toBe('3 newly failing · 2 changed · 1 new · 1 unchanged — 2 regressed · 1 likely regressed');
    const onlyGreeting: RunRecord = { ...STATS, fixtures: STATS.fixtures.filter((f) => f.label === 'greeting' || f.label === 'opening-hours') };
    const m = buildModel(onlyGreeting);
    expect(headlineText(m)).toBe('1 changed · 1 unchanged — 1 regressed');
    expect(renderComment(onlyGreeting, ctx)).toContain('### 🔴 1 changed · 1 unchanged — 1 regressed');
  });

  it("the run's pass-rate line: before → now, the difference and its interval; McNemar when no item is repeated", () => {
    const s = STATS.stats;
    if (s === undefined) throw new Error('no run stats');
    expect(runRateText(s)).toMatch(/^pass rate of attempts 81.7% → 45.6%: −36.1 points \(95% interval of the change: −\d+ to \+\d+\) over 6 items with a baseline, within noise$/);
    const flips = flipsRun();
    expect(renderTerminal(flips, { color: false })).toContain('3 newly failing, 1 newly passing: p = 0.63, within noise');
    expect(renderComment(flips, ctx)).toContain('📈 **Pass rate of attempts 83.3% → 50%**');
  });

  it('the difference is the one between the rates as shown: 82.4% → 45.6% is −36.8 points, though the rates differ by 36.88', () => {
    const line = runRateText({ items: 200, before: 0.8244, now: 0.4556, diff: 0.4556 - 0.8244, ci: [-0.45, -0.28] });
    expect(line).toBe('pass rate of attempts 82.4% → 45.6%: −36.8 points (95% interval of the change: −45 to −28) over 200 items with a baseline, beyond noise');
  });

  // "📊 Agreement 83.3%" (items' verdicts, one decimal) stood beside "📈 Pass rate 100% → 83%"
  // (attempts, whole points): two percentages of near the same thing, read to two precisions.
  it('the pass rate is of attempts and shown to the tenth, as agreement beside it is: 100% → 83.3%, never 100% below 1', () => {
    const shown = (before: number, now: number): string => runRateText({ items: 6, before, now, diff: now - before, ci: [-0.5, 0.2] }).split(' (')[0]!;
    expect(shown(1, 5 / 6)).toBe('pass rate of attempts 100% → 83.3%: −16.7 points');
    expect(shown(0.9, 1)).toBe('pass rate of attempts 90% → 100%: +10 points');
    expect(shown(0.5, 0.51)).toBe('pass rate of attempts 50% → 51%: +1 point');
    expect(shown(1, 0.9996)).toBe('pass rate of attempts 100% → >99.9%: −0.1 points');
    expect(shown(0, 0.0004)).toBe('pass rate of attempts 0% → <0.1%: +0.1 points');
    expect(renderComment(flipsRun(), ctx)).toMatch(/📊 \*\*Agreement 50%\*\*[^]*📈 \*\*Pass rate of attempts 83.3% → 50%\*\*/);
  });

  it("report.html gives the run's pass-rate line too, with McNemar's test when no item is repeated", () => {
    // It had the forest plot only: a run of single attempts (no item stats) said nothing there of
    // whether 3 newly failing against 1 newly passing is chance (McNemar p = 0.625, SciPy 1.17:
    // python3 -c "from scipy.stats import binomtest; print(binomtest(1, 4, 0.5).pvalue)" -> 0.625).
    const text = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
    const flips = flipsRun();
    expect(text(renderHtml(flips))).toContain(`📈 ${runRateText(flips.stats!).replace(/^pass rate/, 'Pass rate')}`);
    expect(text(renderHtml(flips))).toContain('3 newly failing, 1 newly passing: p = 0.63, within noise');
    expect(text(renderHtml(STATS))).toContain(`📈 ${runRateText(STATS.stats!).replace(/^pass rate/, 'Pass rate')}`);
    const plain: RunRecord = { ...STATS, stats: undefined };
    expect(renderHtml(plain)).not.toContain('📈');
  });

  it('the interval says within or beyond noise only where it can: not beside McNemar, not when it is one value', () => {
    const base = { items: 1, before: 1, now: 0, diff: -1 };
    // No item repeated: McNemar decides, and a lone newly failing item is within noise (p = 1).
    expect(runRateText({ ...base, ci: [-1, -1], mcnemar: { newlyFailing: 1, newlyPassing: 0, p: 1 } })).toBe(
      'pass rate of attempts 100% → 0%: −100 points (95% interval of the change: −100 to −100) over 1 item with a baseline · 1 newly failing, 0 newly passing: p = 1, within noise',
    );
    // One value, no spread seen between items or in their attempts: no claim either way.
    expect(runRateText({ ...base, ci: [-1, -1] })).toBe('pass rate of attempts 100% → 0%: −100 points (95% interval of the change: −100 to −100) over 1 item with a baseline');
    expect(runRateText({ items: 12, before: 1, now: 0.8, diff: -0.2, ci: [-0.3, -0.1] })).toMatch(/over 12 items with a baseline, beyond noise$/);
  });

  it('an interval from 0 is within noise: the bound is 0 in exact arithmetic (test/evaluate/stats.test.ts, seed t1101)', () => {
    // The resample means' rounding left the lower bound at 1.85e-17, and the line read "0 to +100, beyond noise".
    const s = pairedBootstrap(
      [
        { before: 0, now: 0.2, tallies: { before: { passed: 0, total: 1 }, now: { passed: 1, total: 5 } } },
        { before: 0, now: 0.8, tallies: { before: { passed: 0, total: 1 }, now: { passed: 4, total: 5 } } },
        { before: 0, now: 1 },
      ],
      't1101',
    );
    expect(runRateText(s!)).toBe('pass rate of attempts 0% → 66.7%: +66.7 points (95% interval of the change: 0 to +100) over 3 items with a baseline, within noise');
  });

  it('a bound that is not 0 never reads 0: an interval shown ending at 0 is one that holds it', () => {
    // An upper bound of -0.19 points is beyond noise; rounded to whole points it read "−19 to 0, beyond noise".
    expect(runRateText({ items: 200, before: 0.9, now: 0.8, diff: -0.1, ci: [-0.19, -0.0019] })).toBe(
      'pass rate of attempts 90% → 80%: −10 points (95% interval of the change: −19 to −0) over 200 items with a baseline, beyond noise',
    );
    expect(runRateText({ items: 200, before: 0.8, now: 0.9, diff: 0.1, ci: [0.004, 0.19] })).toBe(
      'pass rate of attempts 80% → 90%: +10 points (95% interval of the change: +0 to +19) over 200 items with a baseline, beyond noise',
    );
    expect(runRateText({ items: 200, before: 0.8, now: 0.9, diff: 0.1, ci: [0, 0.19] })).toMatch(/\(95% interval of the change: 0 to \+19\) .*, within noise$/);
  });

  it("baselines of one attempt against a repeated run: a 1/1 is not certain, so 3/5 three times is within noise", () => {
    // Drawn at k/n, the baselines' 1/1 had nothing to draw and the line said "beyond noise" (-70
    // to -10) while each item's tier said too few (docs/statistics.md, "The run").
    const run = oneAttemptBaselines();
    const line = runRateText(run.stats!);
    expect(line).toMatch(/^pass rate of attempts 100% → 60%: −40 points \(95% interval of the change: −\d+ to \+\d+\) over 3 items with a baseline, within noise$/);
    expect(run.fixtures.map((f) => f.stats?.tier)).toEqual(['too_few', 'too_few', 'too_few']);
  });

  // The run line with a few attempts: the bootstrap draws each item's attempts at its observed rate
  // and can leave 0 out of the interval where no test could call the change. The pooled tally's
  // one-sided Fisher p, SciPy 1.10.1 (python3-scipy):
  //   python3 -c "from scipy.stats import fisher_exact as f
  //   print(f([[1,0],[0,3]], alternative='greater')[1], f([[3,0],[0,3]], alternative='greater')[1], f([[15,0],[9,6]], alternative='greater')[1])"
  //   -> 0.25 0.05000000000000001 0.00842911877394636
  it('an interval that leaves 0 out is "beyond noise" only when the pooled attempts\' test agrees: 1/1 -> 0/3 is too few to tell', () => {
    // Before, "−100 points (95% interval −100 to −4) over 1 item with a baseline, beyond noise"
    // beside the item's own "too few attempts" (pDrop 0.25).
    const one = withRunStats([repeated('x', { passed: 1, total: 1 }, { passed: 0, total: 3 }, 3)]);
    expect(one.fixtures[0]?.stats?.tier).toBe('too_few');
    expect(one.stats?.ci[1]).toBeLessThan(0);
    expect(one.stats?.pooled).toEqual({ before: { passed: 1, total: 1 }, now: { passed: 0, total: 3 }, p: expect.closeTo(0.25, 12) });
    expect(runRateText(one.stats!)).toMatch(/over 1 item with a baseline, too few attempts to tell \(pooled 1\/1 → 0\/3: p = 0\.25\)$/);
    // 3/3 -> 0/3: exactly 1/20, which is not below 0.05 (the item's tier says too few as well).
    const three = withRunStats([repeated('y', { passed: 3, total: 3 }, { passed: 0, total: 3 }, 3)]);
    expect(three.stats?.pooled?.p).toBeCloseTo(0.05, 12);
    expect(runRateText(three.stats!)).toMatch(/too few attempts to tell \(pooled 3\/3 → 0\/3: p = 0\.050\)$/);
    // Three items 5/5 -> 3/5: pooled 15/15 -> 9/15, p = 0.0084: the test agrees, beyond noise.
    const agree = withRunStats(['a', 'b', 'c'].map((l) => repeated(l, { passed: 5, total: 5 }, { passed: 3, total: 5 }, 3)));
    expect(agree.stats?.pooled?.p).toBeCloseTo(0.00842911877394636, 12);
    expect(runRateText(agree.stats!)).toMatch(/over 3 items with a baseline, beyond noise$/);
    // The words say the same on every surface that has the line.
    expect(renderTerminal(one, { color: false })).toContain('too few attempts to tell (pooled 1/1 → 0/3: p = 0.25)');
    expect(renderComment(one, ctx)).toContain('too few attempts to tell (pooled 1/1 → 0/3: p = 0.25)');
  });

  it('a record written before the pooled test keeps its words: beyond noise', () => {
    expect(runRateText({ items: 1, before: 1, now: 0, diff: -1, ci: [-1.375, -0.04] })).toMatch(/, beyond noise$/);
  });

  it('read back through cmark-gfm, the headline counts still add up to the items', () => {
    const s = structure(renderComment(STATS, ctx));
    expect(s.headline.reduce((n, [, k]) => n + k, 0)).toBe(STATS.fixtures.length);
    expect(s.sections.map((x) => [x.title, x.count])).toEqual([
      ['Newly failing', 3],
      ['Changed', 2],
      ['New, no baseline', 1],
      ['Unchanged', 1],
    ]);
  });

  it('PR comment, job summary, terminal and JUnit (goldens)', () => {
    expectGolden('stats.comment.md', renderComment(STATS, ctx));
    expectGolden('stats.summary.md', renderSummary(STATS, ctx));
    expectGolden('stats.terminal.txt', renderTerminal(STATS, { color: false }));
    expectGolden('stats.junit.xml', renderJUnit(STATS));
  });

  it('a run without stats says nothing of pass rates', () => {
    const plain: RunRecord = { ...STATS, stats: undefined, fixtures: STATS.fixtures.map(({ stats: _s, ...f }) => f as never) };
    const md = renderComment(plain, ctx);
    expect(md).not.toContain('pass rate');
    expect(md).not.toContain('Pass rate');
    expect(md).not.toContain('regressed');
  });

  // A run of single attempts whose items all held had a line with nothing to say on every surface:
  // "Pass rate 100% → 100%: 0 points (95% interval 0 to 0) over 4 items with a baseline · 0 newly
  // failing, 0 newly passing: p = 1, within noise".
  it("no item repeated and no verdict flipped: no pass-rate line on any surface, results.json's stats kept", () => {
    resetLines();
    const once = (label: string, verdict: 'pass' | 'fail'): FixtureRecord =>
      fixture(label, { verdict, baseline: baseline(label, `Reply for ${label}.`, verdict), drift: { reply: 'same', route: 'same', verdict: verdict === 'pass' ? 'still_passing' : 'still_failing' } } as Partial<FixtureRecord>);
    const held = withRunStats([once('a', 'pass'), once('b', 'pass'), once('c', 'fail')]);
    expect(held.stats).toMatchObject({ items: 3, diff: 0, ci: [0, 0], mcnemar: { newlyFailing: 0, newlyPassing: 0, p: 1 } });
    expect(buildModel(held).runRate).toBeNull();
    for (const text of [renderComment(held, ctx), renderSummary(held, ctx), renderTerminal(held, { color: false }), renderHtml(held)]) {
      expect(text).not.toMatch(/pass rate/i);
      expect(text).not.toContain('newly passing: p');
    }
    // A flipped verdict, or a repeated item even when nothing moved, keeps the line.
    expect(renderComment(flipsRun(), ctx)).toContain('📈 **Pass rate');
    const same = withRunStats([repeated('x', { passed: 3, total: 3 }, { passed: 3, total: 3 }, 3), repeated('y', { passed: 3, total: 3 }, { passed: 3, total: 3 }, 3)]);
    expect(renderComment(same, ctx)).toContain('📈 **Pass rate');
  });

  it('after acceptance, an accepted item no longer shows its tier', () => {
    const accepted = afterAcceptance(STATS, ['greeting'], 'c0ffee0c0ffee0c0ffee0c0ffee0c0ffee0c0ffe');
    const m = buildModel(accepted);
    expect(m.sections.unchanged.map((f) => f.label)).toContain('greeting');
    expect(m.tiers.regressed).toBe(1);
  });
});

describe('hundreds of repeated items', () => {
  it('the comment stays under the limit, names every regressed item and keeps the steady ones collapsed', () => {
    const run = manyStats(600);
    const md = renderComment(run, ctx);
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('### 🔴 60 changed · 540 unchanged — 60 regressed');
    for (let i = 0; i < 600; i += 10) expect(md).toContain(`item-${String(i).padStart(4, '0')}`);
    const unchanged = md.slice(md.indexOf('#### ✅ Unchanged'));
    expect(unchanged.startsWith('#### ✅ Unchanged (540)\n\n<details><summary>')).toBe(true);
  });
});

describe('the "To accept" line and unchanged items whose baselines the label would rewrite', () => {
  const repeats = (): RunRecord => {
    resetLines();
    return withRunStats([
      repeated('refund-window', { passed: 5, total: 5 }, { passed: 3, total: 5 }, 5),
      repeated('greeting', { passed: 5, total: 5 }, { passed: 5, total: 5 }, 5),
      repeated('shipping', { passed: 3, total: 5 }, { passed: 5, total: 5 }, 5),
    ]);
  };

  it('counts the newly failing item as a changed pass/fail result and names the unchanged one whose pass rate moved', () => {
    const md = renderComment(repeats(), ctx);
    expect(md).toContain('### 🔴 1 newly failing · 2 unchanged');
    expect(md).toContain(
      '**To accept** the new or changed pass/fail result as a baseline, and refresh the baseline of 1 unchanged item whose measurements moved (`shipping`: attempts passed 3/5 → 5/5), apply the',
    );
    expect(md).not.toContain('the 2 new or changed pass/fail results');
  });

  it('with no changed result, the line offers the refresh alone', () => {
    const r = repeats();
    const only = { ...r, fixtures: r.fixtures.filter((f) => f.label !== 'refund-window') };
    const md = renderComment(only, ctx);
    expect(md).toContain('**To refresh** the baseline of 1 unchanged item whose measurements moved (`shipping`: attempts passed 3/5 → 5/5), apply the');
    expect(md).not.toContain('Nothing to accept');
  });
});

describe("report.html's forest plot: the rows past those drawn", () => {
  const row = (i: number) => ({ label: `item-${i}`, script: false, tier: 'steady' as const, rate: 1, ci: [0.7, 1] as const, baselineRate: 1, baselineCi: [0.7, 1] as const, counts: '10/10 → 10/10', words: 'pass rate 10/10 → 10/10: steady' });
  const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i));

  it('counts one more item in the singular, and more in the plural', () => {
    expect(forestPanel(rows(FOREST_ROWS + 1))).toContain('>and 1 more item, in the same order</p>');
    expect(forestPanel(rows(FOREST_ROWS + 2))).toContain('>and 2 more items, in the same order</p>');
    expect(forestPanel(rows(FOREST_ROWS))).not.toContain('more item');
  });

  it('its label and tally group a count of 1,000 or more, as the line under it does', () => {
    const panel = forestPanel(rows(1_200));
    expect(panel).toContain('with 95% intervals: 1,200 items (1,200 within noise)');
    expect(panel).toContain('>and 1,160 more items, in the same order</p>');
  });
});
