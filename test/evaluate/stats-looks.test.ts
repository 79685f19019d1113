// The adaptive decision (docs/statistics.md, "Adaptive attempts"): after each look, how many more
// attempts an item gets. Table tests; the p-values in the comments are SciPy's:
//   python3 -c "from scipy.stats import fisher_exact as f; print(f([[k, n - k], [bk, bn - bk]], alternative='less')[1])"
import { describe, expect, it } from 'vitest';
import { looksTaken, maxLooksOf, moreAttempts, type Tally } from '../../src/evaluate/stats.js';
import { attemptsAtMost, moreAttemptsFor, policyOf } from '../../src/evaluate/finish.js';
import { combineAttempts, scaledMinPass } from '../../src/evaluate/repeat.js';
import { withAdaptiveRange } from '../../src/evaluate/estimate.js';
import { estimateText } from '../../src/report/model.js';
import type { Baseline } from '../../src/types.js';

const t = (passed: number, total: number): Tally => ({ passed, total });
const PLAN = { count: 3, max: 10, alpha: 0.05 };

describe('moreAttempts', () => {
  it.each([
    ['no baseline: never', null, t(0, 3), PLAN, 0],
    ['a 1-attempt baseline: never', t(1, 1), t(0, 3), PLAN, 0],
    ['a 2-attempt baseline: never', t(2, 2), t(0, 3), PLAN, 0],
    ['max equal to count: never', t(9, 10), t(0, 3), { ...PLAN, max: 3 }, 0],
    ['10/10 -> 0/3: p 0.0035 < 0.05/4, settled', t(10, 10), t(0, 3), PLAN, 0],
    ['9/10 -> 0/3: p 0.01399 is not < 0.0125, 90 points down: 3 more', t(9, 10), t(0, 3), PLAN, 3],
    ['10/10 -> 1/3: p 0.0385 (regressed at 0.05, not at 0.05/4): 3 more', t(10, 10), t(1, 3), PLAN, 3],
    ['9/10 -> 2/3: p 0.42, 23 points down: 3 more', t(9, 10), t(2, 3), PLAN, 3],
    ['10/10 -> 3/3: no gap', t(10, 10), t(3, 3), PLAN, 0],
    ['9/10 -> 3/3: a rise gets nothing', t(9, 10), t(3, 3), PLAN, 0],
    ['9/10 -> 5/9: p 0.119, the last batch cut at max: 1 more', t(9, 10), t(5, 9), PLAN, 1],
    ['9/10 -> 3/9: p 0.0174, still not < 0.0125: 1 more', t(9, 10), t(3, 9), PLAN, 1],
    ['9/10 -> 2/10: at max', t(9, 10), t(2, 10), PLAN, 0],
    ['7/10 -> 11/20: exactly 15 points down, p 0.35: count more', t(7, 10), t(11, 20), { count: 20, max: 40, alpha: 0.05 }, 20],
    ['7/10 -> 6/10: 10 points down, the gap closed', t(7, 10), t(6, 10), { count: 10, max: 20, alpha: 0.05 }, 0],
    ['20/20 -> 17/20: 15 points down, p 0.115', t(20, 20), t(17, 20), { count: 20, max: 40, alpha: 0.05 }, 20],
    ['count 1, max 10: one more at a time', t(10, 10), t(0, 1), { count: 1, max: 10, alpha: 0.05 }, 1],
  ] as const)('%s', (_name, baseline, now, plan, more) => {
    expect(moreAttempts(baseline, now, plan)).toBe(more);
  });

  it('the looks: ceil(max / count) when extra attempts are possible, else 1; taken: one per batch', () => {
    expect(maxLooksOf(t(9, 10), { count: 3, max: 10 })).toBe(4);
    expect(maxLooksOf(t(9, 10), { count: 3, max: 9 })).toBe(3);
    expect(maxLooksOf(t(9, 10), { count: 1, max: 10 })).toBe(10);
    expect(maxLooksOf(t(1, 1), { count: 3, max: 10 })).toBe(1);
    expect(maxLooksOf(null, { count: 3, max: 10 })).toBe(1);
    expect(maxLooksOf(t(9, 10), { count: 3, max: 3 })).toBe(1);
    expect([3, 6, 9, 10].map((n) => looksTaken(n, 3))).toEqual([1, 2, 3, 4]);
  });
});

describe('moreAttemptsFor (the runner asks it)', () => {
  const baseline = { verdict: 'pass', attempts: { passed: 9, total: 10 } } as unknown as Baseline;
  const policy = policyOf({ repeat: { count: 3, minPass: 2, max: 10 } });
  const a = (verdict: 'pass' | 'fail' | 'not_evaluated' | null, errored = false) => ({ verdict, errored });
  it('counts passes of the attempts so far; an errored or not evaluated attempt is not a pass', () => {
    expect(moreAttemptsFor({}, [a('pass'), a('not_evaluated'), a(null, true)], baseline, policy)).toBe(3);
    expect(moreAttemptsFor({}, [a('pass'), a('pass'), a('pass')], baseline, policy)).toBe(0);
  });
  it('every attempt errored: no more (the agent did not answer)', () => {
    expect(moreAttemptsFor({}, [a(null, true), a(null, true), a(null, true)], baseline, policy)).toBe(0);
  });
  it('no attempt checked, each errored or not evaluated: no more (a judge outage tells nothing of a drop either)', () => {
    expect(moreAttemptsFor({}, [a('not_evaluated'), a('not_evaluated'), a('not_evaluated')], baseline, policy)).toBe(0);
    expect(moreAttemptsFor({}, [a('not_evaluated'), a(null, true), a('not_evaluated')], baseline, policy)).toBe(0);
    // One failed attempt was checked: 0/3 against 9/10 is still unclear at 0.05 / 4 looks, so 3 more.
    expect(moreAttemptsFor({}, [a('fail'), a(null, true), a('not_evaluated')], baseline, policy)).toBe(3);
  });
  it("an item's own repeat decides: without max, none", () => {
    expect(moreAttemptsFor({ repeat: { count: 3, minPass: 3 } }, [a('fail'), a('fail'), a('fail')], baseline, policy)).toBe(0);
  });
});

describe('what the estimate and the verdict read', () => {
  const policy = policyOf({ repeat: { count: 3, minPass: 2, max: 10 } });
  const b = (attempts?: { passed: number; total: number }) => ({ verdict: 'pass', ...(attempts ? { attempts } : {}) }) as unknown as Baseline;
  it('attemptsAtMost: max only for an item that could get extra attempts', () => {
    expect(attemptsAtMost({}, null, policy)).toBe(3);
    expect(attemptsAtMost({}, b(), policy)).toBe(3);
    expect(attemptsAtMost({}, b({ passed: 2, total: 2 }), policy)).toBe(3);
    expect(attemptsAtMost({}, b({ passed: 3, total: 3 }), policy)).toBe(10);
    expect(attemptsAtMost({ repeat: { count: 5, minPass: 5 } }, b({ passed: 9, total: 10 }), policy)).toBe(5);
  });

  it('the verdict reads minPass as a fraction of count: N attempts need ceil(minPass x N / count)', () => {
    const r = { count: 3, minPass: 2 };
    expect([3, 4, 6, 9, 10].map((n) => scaledMinPass(r, n))).toEqual([2, 3, 4, 6, 7]);
    const outcomes = (pass: number, fail: number) => [...Array<'pass'>(pass).fill('pass'), ...Array<'fail'>(fail).fill('fail')];
    expect(combineAttempts(outcomes(7, 3), r)).toEqual({ verdict: 'pass', summary: { count: 10, minPass: 7, passed: 7, flaky: true } });
    expect(combineAttempts(outcomes(6, 4), r).verdict).toBe('fail');
    expect(combineAttempts(outcomes(4, 2), r).verdict).toBe('pass');
  });

  it('the estimate line shows the range up to its upper bound', () => {
    const e = withAdaptiveRange({ usd: 1, capUsd: 2, aboveCap: false, confirmed: false }, { usd: 0.3, capUsd: 2, aboveCap: false, confirmed: false }, 50);
    expect(e.adaptive).toEqual({ items: 50, lowUsd: 0.3 });
    expect(estimateText(e)).toMatch(/^≈ \$0\.30?–\$1(\.00)? estimated \(cap \$2(\.00)?, at most: extra attempts for up to 50 items whose drop is unclear\)$/);
    expect(withAdaptiveRange({ usd: 1, capUsd: 2, aboveCap: false, confirmed: false }, null, 0).adaptive).toBeUndefined();
  });
});
