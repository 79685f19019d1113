// The adaptive decision (docs/statistics.md, "Adaptive attempts"): after each look, how many more
// attempts an item gets. Table tests; the p-values in the comments are SciPy's:
//   python3 -c "from scipy.stats import fisher_exact as f; print(f([[k, n - k], [bk, bn - bk]], alternative='less')[1])"
import { describe, expect, it } from 'vitest';
import { looksTaken, maxLooksOf, moreAttempts, type Tally } from '../../src/evaluate/stats.js';
import { moreAttemptsFor, policyOf } from '../../src/evaluate/finish.js';
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
  it("an item's own repeat decides: without max, none", () => {
    expect(moreAttemptsFor({ repeat: { count: 3, minPass: 3 } }, [a('fail'), a('fail'), a('fail')], baseline, policy)).toBe(0);
  });
});
