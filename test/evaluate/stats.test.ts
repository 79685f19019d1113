// Pass-rate statistics (docs/statistics.md): every table below was computed independently with
// Debian's python3-scipy 1.10.1 (/usr/bin/python3), by the command written above it.

import { describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_RESAMPLES,
  attemptsNeeded,
  below,
  fisherOneSided,
  itemStats,
  lnFactorial,
  mcnemarExact,
  pairedBootstrap,
  quantileSorted,
  seededRandom,
  seedOf,
  tierOf,
  wilson,
  type RatePair,
  type Tally,
} from '../../src/evaluate/stats.js';

/** |actual - expected| within `rel` of expected (or 1e-15 absolute near 0). */
function close(actual: number, expected: number, rel = 1e-9): void {
  const tolerance = Math.max(Math.abs(expected) * rel, 1e-15);
  if (!(Math.abs(actual - expected) <= tolerance)) {
    expect.fail(`${actual} is not ${expected} within ${rel} (relative)`);
  }
}

const t = (passed: number, total: number): Tally => ({ passed, total });

describe('wilson', () => {
  // from scipy.stats import binomtest, norm
  // cl=2*norm.cdf(1.96)-1   # scipy takes a confidence level; this one is exactly z = 1.96
  // for k,n in [(0,1),(1,1),(0,3),(3,3),(2,3),(7,10),(1,2),(0,20),(20,20),(45,100),(99999,100000),(50000,100000)]:
  //     ci=binomtest(k,n).proportion_ci(confidence_level=cl,method='wilson'); print(k, n, ci.low, ci.high)
  const table: [number, number, number, number][] = [
    [0, 1, 0.0, 0.793456708526107],
    [1, 1, 0.2065432914738931, 1.0],
    [0, 3, 0.0, 0.5615060804490175],
    [3, 3, 0.4384939195509825, 1.0],
    [2, 3, 0.20765495512648807, 0.9385096847238394],
    [7, 10, 0.3967732199795653, 0.8922107125137881],
    [1, 2, 0.0945286548008662, 0.9054713451991339],
    [0, 20, 0.0, 0.1611301254949331],
    [20, 20, 0.838869874505067, 1.0],
    [45, 100, 0.3561437510640347, 0.5475557296835655],
    [99999, 100000, 0.9999433514463467, 0.9999982347976764],
    [50000, 100000, 0.4969010274175287, 0.5030989725824713],
  ];
  it.each(table)('%i of %i: [%f, %f]', (k, n, lo, hi) => {
    const [l, h] = wilson(t(k, n));
    close(l, lo);
    close(h, hi);
  });

  it('0 of N starts at exactly 0 and N of N ends at exactly 1; 0 of 0 is the whole range', () => {
    expect(wilson(t(0, 7))[0]).toBe(0);
    expect(wilson(t(7, 7))[1]).toBe(1);
    expect(wilson(t(0, 0))).toEqual([0, 1]);
  });

  it('refuses a tally that is not one', () => {
    expect(() => wilson(t(4, 3))).toThrow(/4 of 3 is not a tally/);
    expect(() => wilson(t(-1, 3))).toThrow(RangeError);
    expect(() => wilson(t(1.5, 3))).toThrow(RangeError);
  });
});

describe('fisherOneSided', () => {
  // from scipy.stats import fisher_exact
  // for (bp,bt),(np_,nt) in cases:   # baseline passed/total, now passed/total
  //     t=[[np_,nt-np_],[bp,bt-bp]]
  //     print(bp, bt, np_, nt, fisher_exact(t,alternative='less')[1], fisher_exact(t,alternative='greater')[1])
  // with cases = [((3,3),(0,3)),((10,10),(0,3)),((10,10),(1,3)),((9,10),(1,3)),((5,5),(3,5)),((5,5),(4,5)),
  //   ((1,1),(0,1)),((0,1),(1,1)),((1,1),(0,3)),((0,1),(3,3)),((10,10),(10,10)),((0,10),(0,3)),((0,0),(2,3)),
  //   ((3,3),(0,0)),((9,10),(2,10)),((90000,100000),(89500,100000)),((40,100000),(55,100000))]
  const table: [number, number, number, number, number, number][] = [
    [3, 3, 0, 3, 0.05000000000000001, 1.0],
    [10, 10, 0, 3, 0.0034965034965034965, 1.0],
    [10, 10, 1, 3, 0.038461538461538464, 1.0],
    [9, 10, 1, 3, 0.10839160839160841, 0.9965034965034965],
    [5, 5, 3, 5, 0.22222222222222224, 1.0],
    [5, 5, 4, 5, 0.5, 1.0],
    [1, 1, 0, 1, 0.5, 1.0],
    [0, 1, 1, 1, 1.0, 0.5],
    [1, 1, 0, 3, 0.25, 1.0],
    [0, 1, 3, 3, 1.0, 0.25],
    [10, 10, 10, 10, 1.0, 1.0],
    [0, 10, 0, 3, 1.0, 1.0],
    [0, 0, 2, 3, 1.0, 1.0],
    [3, 3, 0, 0, 1.0, 1.0],
    [9, 10, 2, 10, 0.002738747320790664, 0.9999404620147654],
  ];
  it.each(table)('baseline %i/%i, now %i/%i: drop %f, rise %f', (bp, bt, np, nt, drop, rise) => {
    const p = fisherOneSided(t(bp, bt), t(np, nt));
    close(p.drop, drop);
    close(p.rise, rise);
  });

  // The same command over ((90000,100000),(89500,100000)) and ((40,100000),(55,100000)): at 200000
  // attempts each term is a difference of log-factorials near 1e6, of which doubles carry about
  // 1e-10; the sums agree with SciPy's to 5e-11 (measured), checked here to 1e-9.
  it.each([
    [90000, 100000, 89500, 100000, 0.0001170967074484524, 0.9998894925710469],
    [40, 100000, 55, 100000, 0.94995361194954, 0.07521056981226006],
  ])('huge N: baseline %i/%i, now %i/%i', (bp, bt, np, nt, drop, rise) => {
    const p = fisherOneSided(t(bp, bt), t(np, nt));
    close(p.drop, drop);
    close(p.rise, rise);
  });

  it('a tail that holds the whole support is exactly 1', () => {
    expect(fisherOneSided(t(10, 10), t(3, 3)).drop).toBe(1);
    expect(fisherOneSided(t(0, 10), t(0, 3)).rise).toBe(1);
  });
});

describe('lnFactorial', () => {
  it('joins the exact table and the series without a step', () => {
    // ln 256! from ln 255! + ln 256, against the series at 256.
    close(lnFactorial(256), lnFactorial(255) + Math.log(256), 1e-14);
    close(lnFactorial(1000), lnFactorial(999) + Math.log(1000), 1e-14);
    expect(lnFactorial(0)).toBe(0);
    close(lnFactorial(10), Math.log(3628800), 1e-14);
  });
});

describe('mcnemarExact', () => {
  // from scipy.stats import binomtest
  // for b,c in [(3,1),(1,3),(0,1),(1,1),(0,5),(5,0),(6,0),(10,2),(7,7),(60,40),(50000,49000),(50000,50000)]:
  //     print(b, c, binomtest(min(b,c),b+c,0.5).pvalue)
  const table: [number, number, number][] = [
    [3, 1, 0.625],
    [1, 3, 0.625],
    [0, 1, 1.0],
    [1, 1, 1.0],
    [0, 5, 0.0625],
    [5, 0, 0.0625],
    [6, 0, 0.03125],
    [10, 2, 0.03857421875],
    [7, 7, 1.0],
    [60, 40, 0.05688793364098088],
  ];
  it.each(table)('%i newly failing, %i newly passing: p = %f', (b, c, p) => {
    close(mcnemarExact(b, c), p);
  });

  it.each([
    [50000, 49000, 0.0014980826229750027],
    [50000, 50000, 1.0],
  ])('huge N: %i newly failing, %i newly passing', (b, c, p) => {
    close(mcnemarExact(b, c), p);
  });

  it('no discordant pair is no evidence: p = 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
  });

  it('refuses a count that is not one', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(/not a count/);
  });
});

describe('attemptsNeeded', () => {
  // from fractions import Fraction; from math import floor; from scipy.stats import fisher_exact
  // def needed(bp,bt,np_,nt,a):
  //     for n in range(1,21):
  //         k=floor(Fraction(np_*n,nt)+Fraction(1,2))   # round halves up
  //         if fisher_exact([[k,n-k],[bp,bt-bp]],alternative='less')[1] < a*(1-1e-9): return n
  //     return None
  const table: [number, number, number, number, number, number | null][] = [
    [3, 3, 0, 3, 0.05, 4],
    [10, 10, 0, 1, 0.05, 2],
    [10, 10, 0, 2, 0.05, 2],
    [1, 1, 0, 1, 0.05, 20],
    [1, 1, 0, 2, 0.05, 20],
    [10, 10, 1, 2, 0.05, 6],
    [10, 10, 1, 2, 0.0125, 12],
    [5, 5, 1, 2, 0.05, null],
    [2, 2, 0, 2, 0.05, 5],
    [10, 10, 2, 2, 0.05, null],
    [9, 10, 0, 2, 0.0125, 4],
    [4, 5, 0, 1, 0.05, 4],
    [2, 3, 0, 1, 0.05, 9],
  ];
  it.each(table)('baseline %i/%i, now %i/%i at a = %f: %s', (bp, bt, np, nt, a, n) => {
    expect(attemptsNeeded(t(bp, bt), t(np, nt), a)).toBe(n);
  });

  it('no observed rate needs no number', () => {
    expect(attemptsNeeded(t(10, 10), t(0, 0), 0.05)).toBeNull();
  });
});

describe('below', () => {
  it('an exact tie is not below, whatever the last bits of the sum', () => {
    // 3/3 against 0/3: p = 1/20 exactly; SciPy's own sum gives 0.05000000000000001.
    expect(below(0.05, 0.05)).toBe(false);
    expect(below(0.04999999999999999, 0.05)).toBe(false);
    expect(below(0.0499, 0.05)).toBe(true);
    // The module's own sum for it lands a few ulps under 0.05 (0.04999999999999996): still not below.
    expect(below(fisherOneSided(t(3, 3), t(0, 3)).drop, 0.05)).toBe(false);
  });
});

describe('tierOf and itemStats', () => {
  const opts = { alpha: 0.05, maxLooks: 1 };
  // The p-values are the fisher table's above; each tier follows from its rule in docs/statistics.md.
  it.each([
    // 10/10 -> 0/3: p 0.0035 < 0.05.
    [10, 10, 0, 3, 1, 'regressed'],
    // The same with 3 possible looks: a = 0.0167, still below.
    [10, 10, 0, 3, 3, 'regressed'],
    // 10/10 -> 1/3: p 0.038 < 0.05, but not < 0.05 / 4 = 0.0125; a fall of 67 points and p < 0.2.
    [10, 10, 1, 3, 4, 'likely_regressed'],
    // 9/10 -> 1/3: p 0.108 < 0.2 and 57 points down.
    [9, 10, 1, 3, 1, 'likely_regressed'],
    // 5/5 -> 3/5: p 0.22, not < 0.2.
    [5, 5, 3, 5, 1, 'steady'],
    // 3/3 -> 0/3: p = 0.05 exactly, not below 0.05; 100 points and p < 0.2.
    [3, 3, 0, 3, 1, 'likely_regressed'],
    // 1/1 -> 0/3: p 0.25; too few on the baseline's side.
    [1, 1, 0, 3, 1, 'too_few'],
    // 0/1 -> 3/3: rise's p 0.25.
    [0, 1, 3, 3, 1, 'too_few'],
    // 2/10 -> 9/10 is the mirror of 9/10 -> 2/10: the rise's p 0.0027.
    [2, 10, 9, 10, 1, 'improved'],
    [10, 10, 10, 10, 1, 'steady'],
    // 0/0 baseline: no evidence at all.
    [0, 0, 2, 3, 1, 'too_few'],
  ] as const)('baseline %i/%i, now %i/%i, %i looks: %s', (bp, bt, np, nt, maxLooks, tier) => {
    const p = fisherOneSided(t(bp, bt), t(np, nt));
    expect(tierOf(t(bp, bt), t(np, nt), p, { alpha: 0.05, maxLooks })).toBe(tier);
  });

  it('likely_regressed needs a fall of at least 15 points, exactly', () => {
    // 20/20 -> 17/20 is exactly 15 points (and its p is under 0.2); 20/20 -> 18/20 is 10 points.
    // from scipy.stats import fisher_exact; fisher_exact([[17,3],[20,0]],alternative='less')[1] -> 0.1153846153846154
    const p17 = fisherOneSided(t(20, 20), t(17, 20));
    close(p17.drop, 0.1153846153846154);
    expect(tierOf(t(20, 20), t(17, 20), p17, opts)).toBe('likely_regressed');
    // A p under 0.2 with a fall under 15 points: force it to isolate the points rule.
    expect(tierOf(t(20, 20), t(18, 20), { drop: 0.1, rise: 1 }, opts)).toBe('steady');
    expect(tierOf(t(20, 20), t(17, 20), { drop: 0.2, rise: 1 }, opts)).toBe('steady');
  });

  it('gives the record its fields: rate, Wilson interval, both p-values, the looks', () => {
    const s = itemStats(t(10, 10), t(0, 3), { alpha: 0.05, maxLooks: 3, looks: 1 });
    expect(s).not.toBeNull();
    expect(s?.tier).toBe('regressed');
    expect(s?.rate).toBe(0);
    expect(s?.baseline).toEqual({ passed: 10, total: 10 });
    close(s?.pDrop ?? NaN, 0.0034965034965034965);
    expect(s?.pRise).toBe(1);
    expect(s?.ci).toEqual(wilson(t(0, 3)));
    expect(s?.attemptsNeeded).toBeNull();
    expect([s?.looks, s?.maxLooks]).toEqual([1, 3]);
  });

  it('too_few says how many attempts would call the drop, or null when none up to 20 would', () => {
    // from the same needed() as attemptsNeeded's table: needed(4,5,0,1,0.05) -> 4, needed(2,3,0,1,0.05) -> 9,
    // and fisher_exact([[0,1],[4,1]],alternative='less')[1] -> 0.333 (not < 0.2: not likely_regressed).
    expect(itemStats(t(4, 5), t(0, 1), opts)).toMatchObject({ tier: 'too_few', attemptsNeeded: 4 });
    expect(itemStats(t(2, 3), t(0, 1), opts)).toMatchObject({ tier: 'too_few', attemptsNeeded: 9 });
    expect(itemStats(t(1, 1), t(0, 1), opts)).toBeNull();
    expect(itemStats(t(1, 1), t(0, 2), opts)).toMatchObject({ tier: 'too_few', attemptsNeeded: 20 });
    expect(itemStats(t(1, 1), t(2, 2), opts)).toMatchObject({ tier: 'too_few', attemptsNeeded: null });
  });

  it('an item run once against a 1-attempt baseline has no statistics', () => {
    expect(itemStats(t(0, 1), t(1, 1), opts)).toBeNull();
    expect(itemStats(t(1, 1), t(0, 1), opts)).toBeNull();
  });

  it('huge N: 89500/100000 against 90000/100000 is regressed', () => {
    const s = itemStats(t(90000, 100000), t(89500, 100000), opts);
    expect(s?.tier).toBe('regressed');
    close(s?.pDrop ?? NaN, 0.0001170967074484524);
  });

  it('refuses settings that are not ones', () => {
    expect(() => itemStats(t(3, 3), t(1, 3), { alpha: 0, maxLooks: 1 })).toThrow(/alpha 0/);
    expect(() => itemStats(t(3, 3), t(1, 3), { alpha: 0.05, maxLooks: 0 })).toThrow(/maxLooks 0/);
  });
});

describe('seededRandom', () => {
  it('one seed gives one sequence; another seed another', () => {
    const a = seededRandom('suite-hash-1');
    const b = seededRandom('suite-hash-1');
    const c = seededRandom('suite-hash-2');
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('hashes the seed with FNV-1a (32 bits), the published test vectors', () => {
    expect(seedOf('')).toBe(0x811c9dc5);
    expect(seedOf('a')).toBe(0xe40c292c);
    expect(seedOf('foobar')).toBe(0xbf9cf968);
  });

  it('is mulberry32 from that state: the published reference function gives the same sequence', () => {
    // Tommy Ettinger's mulberry32 as commonly published, independent of the module's wording.
    function mulberry32(a: number): () => number {
      return () => {
        a |= 0;
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    const ours = seededRandom('foobar');
    const theirs = mulberry32(0xbf9cf968);
    for (let i = 0; i < 1000; i++) expect(ours()).toBe(theirs());
  });

  it('is close to uniform', () => {
    const r = seededRandom('uniform');
    const bins = [0, 0, 0, 0];
    for (let i = 0; i < 40000; i++) bins[Math.floor(r() * 4)]! += 1;
    for (const b of bins) expect(Math.abs(b - 10000)).toBeLessThan(400);
  });
});

describe('quantileSorted', () => {
  it("interpolates linearly, as numpy.quantile's default", () => {
    // numpy.quantile([1,2,3,4], [0.025, 0.5, 0.975]) -> [1.075, 2.5, 3.925]
    const xs = [1, 2, 3, 4];
    close(quantileSorted(xs, 0.025), 1.075, 1e-12);
    close(quantileSorted(xs, 0.5), 2.5, 1e-12);
    close(quantileSorted(xs, 0.975), 3.925, 1e-12);
    expect(quantileSorted([7], 0.975)).toBe(7);
  });
});

describe('pairedBootstrap', () => {
  const pairs = [
    { before: 1, now: 0.9 },
    { before: 1, now: 1 },
    { before: 0.8, now: 0.2 },
    { before: 0.5, now: 0.6 },
    { before: 1, now: 0.7 },
  ];

  it('the same pairs and seed give the same interval; another seed another', () => {
    const a = pairedBootstrap(pairs, 'suite-abc');
    expect(pairedBootstrap(pairs, 'suite-abc')).toEqual(a);
    expect(pairedBootstrap(pairs, 'suite-abd')?.ci).not.toEqual(a?.ci);
  });

  it('gives the means before and now and their difference, with the interval around it', () => {
    const r = pairedBootstrap(pairs, 'suite-abc');
    close(r?.before ?? NaN, 0.86, 1e-12);
    close(r?.now ?? NaN, 0.68, 1e-12);
    close(r?.diff ?? NaN, -0.18, 1e-9);
    expect(r?.items).toBe(5);
    const [lo, hi] = r?.ci ?? [NaN, NaN];
    // A resample's mean lies between the smallest and largest difference (-0.6 and 0.1).
    expect(lo).toBeGreaterThanOrEqual(-0.6);
    expect(hi).toBeLessThanOrEqual(0.1);
    expect(lo).toBeLessThan(-0.18);
    expect(hi).toBeGreaterThan(-0.18);
  });

  it('equal differences give an interval of that one value', () => {
    const same = [0.2, 0.5, 0.9].map((b) => ({ before: b, now: b - 0.25 }));
    const r = pairedBootstrap(same, 'x');
    close(r?.ci[0] ?? NaN, -0.25, 1e-12);
    close(r?.ci[1] ?? NaN, -0.25, 1e-12);
  });

  it('every difference fixed and the same (an unchanged run): the interval is their mean at both ends, with no resample drawn', () => {
    // The generator's draws counted: none when the draws are skipped.
    let drawn = 0;
    const counted = (seed: string): (() => number) => {
      const random = seededRandom(seed);
      return () => {
        drawn += 1;
        return random();
      };
    };
    const unchanged = pairedBootstrap(
      Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? { before: 0, now: 0 } : { before: 1, now: 1 })),
      'same',
      BOOTSTRAP_RESAMPLES,
      counted('same'),
    );
    expect(unchanged).toMatchObject({ items: 500, diff: 0, ci: [0, 0] });
    // 0.1 added three times is not 0.3 in binary: the interval is the mean each resample computes.
    const tenth = pairedBootstrap(
      [0, 1, 2].map(() => ({ before: 0.5, now: 0.6 })),
      'tenth',
      BOOTSTRAP_RESAMPLES,
      counted('tenth'),
    );
    const mean = (0 + (0.6 - 0.5) + (0.6 - 0.5) + (0.6 - 0.5)) / 3;
    expect(tenth?.ci).toEqual([mean, mean]);
    expect(drawn).toBe(0);
    // A pair with attempts to draw again, or another difference, draws them: an index per item per resample.
    const flip = [{ before: 1, now: 1 }, { before: 1, now: 0 }];
    const counting = pairedBootstrap(flip, 'flip', BOOTSTRAP_RESAMPLES, counted('flip'));
    expect(drawn).toBe(2 * 2000);
    expect(counting).toEqual(pairedBootstrap(flip, 'flip'));
  });

  it('two items, one resample per index pattern: the interval is the percentiles of the known means', () => {
    // With differences 0 and 1 each resample's mean is 0, 0.5 or 1 with chances 1/4, 1/2, 1/4:
    // over 2000 resamples the 2.5th percentile is 0 and the 97.5th is 1.
    const r = pairedBootstrap(
      [
        { before: 0, now: 0 },
        { before: 0, now: 1 },
      ],
      'two',
    );
    expect(r?.ci).toEqual([0, 1]);
  });

  // The second stage draws each tally of k of n as Bin(n, c) with c = (k + 1/2) / (n + 1), and counts
  // the drawn rate from the observed one: k/n + (k' - n c) / n. When every resampled item is the same
  // item, the first stage varies nothing and the interval is the 2.5th and 97.5th percentiles of the
  // mean over m copies, (Bin(m nn, c_now) / (m nn) - Bin(m nb, c_before) / (m nb)) plus the offset
  // (kn/nn - c_now) - (kb/nb - c_before). Its exact quantiles, SciPy 1.17:
  //   python3 -c "
  //   from scipy.stats import binom; import numpy as np; from fractions import Fraction as F
  //   def q(m, kb, nb, kn, nn):
  //     pn, pb = F(2*kn+1, 2*(nn+1)), F(2*kb+1, 2*(nb+1)); off = (F(kn, nn) - pn) - (F(kb, nb) - pb)
  //     X = binom.pmf(np.arange(m*nn+1), m*nn, float(pn)); Y = binom.pmf(np.arange(m*nb+1), m*nb, float(pb)); d = {}
  //     for x, px in enumerate(X):
  //       for y, py in enumerate(Y): v = F(x, m*nn) - F(y, m*nb) + off; d[v] = d.get(v, 0) + px*py
  //     ks = sorted(d); c = np.cumsum([d[k] for k in ks]); i, j = np.searchsorted(c, .025), np.searchsorted(c, .975)
  //     print(ks[i], c[i-1], c[i], ks[j], c[j-1], c[j])
  //   q(1,5,5,3,5); q(3,5,5,4,5); q(3,5,5,3,5); q(1,10,10,0,10); q(3,1,1,3,5); q(30,10,10,3,3); q(1,3,3,3,3); q(3,3,3,3,3)"
  // prints (lower bound, CDF below it, CDF at it, upper bound, CDF below it, CDF at it):
  //   -13/15    0.0081 0.0687  2/15     0.9602 0.9947
  //   -13/30    0.0228 0.0656  1/30     0.9384 0.9805
  //   -2/3      0.0179 0.0527  -2/15    0.9457 0.9804
  //   -12/11    0      0.3944  -87/110  0.9399 0.9885   (-12/11 is the first value: c[-1] is printed below it; kept at -1)
  //   -5/6      0.0191 0.0506  1/6      0.9597 0.9762
  //   -301/3960 0.0235 0.0254  271/3960 0.9735 0.9752
  //   -2/3      0.0013 0.0293  2/3      0.9707 0.9987
  //   -1/3      0.0065 0.0353  1/3      0.9647 0.9935
  // Without the offset (k'/n as drawn) the same script gave -0.8 and 0.2, -0.4 and 1/15, -0.6 and
  // -1/15, -1 and -0.7, -0.6 and 0.4, and for the last -7/45 and -1/90.
  it("second stage: one item's 5/5 -> 3/5 is an interval that holds 0 (the baseline's 5/5 is not certain)", () => {
    const one = pairedBootstrap([{ before: 1, now: 0.6, tallies: { before: { passed: 5, total: 5 }, now: { passed: 3, total: 5 } } }], 'b');
    close(one?.ci[0] ?? NaN, -13 / 15, 1e-12);
    close(one?.ci[1] ?? NaN, 2 / 15, 1e-12);
    close(one?.diff ?? NaN, -0.4, 1e-12);
  });

  it('three items each 5/5 -> 4/5: the mean of their attempts drawn again, an interval that holds 0', () => {
    const item = { before: 1, now: 0.8, tallies: { before: { passed: 5, total: 5 }, now: { passed: 4, total: 5 } } };
    const r = pairedBootstrap([item, item, item], 'three');
    close(r?.ci[0] ?? NaN, -13 / 30, 1e-12);
    close(r?.ci[1] ?? NaN, 1 / 30, 1e-12);
  });

  it('three items each 5/5 -> 3/5: beyond noise (pooled, 15/15 against 9/15)', () => {
    const item = { before: 1, now: 0.6, tallies: { before: { passed: 5, total: 5 }, now: { passed: 3, total: 5 } } };
    const r = pairedBootstrap([item, item, item], 'c');
    close(r?.ci[0] ?? NaN, -2 / 3, 1e-12);
    close(r?.ci[1] ?? NaN, -2 / 15, 1e-12);
  });

  // Both sides 100% with few attempts read "100% → 100%: 0 points (95% interval −33 to +33)": the
  // interval is of the change in the true pass rates, which 3 passes of 3 on each side do not pin
  // down (each 3/3 is consistent with a true rate from 0.44, its Wilson interval).
  it('unchanged items of all passes, 3/3 -> 3/3: the exact quantiles, an interval around 0 that is not 0 to 0', () => {
    const item = { before: 1, now: 1, tallies: { before: { passed: 3, total: 3 }, now: { passed: 3, total: 3 } } };
    // One item's lower bound is -2/3 with the CDF at 0.029 (0.0013 below it): 2,000 draws land on it
    // or a step (1/3) inside, by the seed; this seed's draws land on it.
    const one = pairedBootstrap([item], 'b');
    close(one?.ci[0] ?? NaN, -2 / 3, 1e-12);
    close(one?.ci[1] ?? NaN, 2 / 3, 1e-12);
    const three = pairedBootstrap([item, item, item], 'held');
    close(three?.ci[0] ?? NaN, -1 / 3, 1e-12);
    close(three?.ci[1] ?? NaN, 1 / 3, 1e-12);
    expect(three?.diff).toBe(0);
  });

  it('a tally of all passes or none is drawn too: 10/10 -> 0/10 is an interval, not the one value -1; kept within [-1, 1]', () => {
    const r = pairedBootstrap([{ before: 1, now: 0, tallies: { before: { passed: 10, total: 10 }, now: { passed: 0, total: 10 } } }], 'edge');
    expect(r?.ci[0]).toBe(-1);
    close(r?.ci[1] ?? NaN, -87 / 110, 1e-12);
  });

  it("three items of one attempt each at baseline (1/1) -> 3/5: within noise, where counting the 1/1 as certain said beyond", () => {
    // Exact: [-5/6, 1/6], both bounds within 0.02 of their percentile (the CDF above): 2,000 draws
    // may land a step (1/15) further out, never on the other side of 0.
    const item = { before: 1, now: 0.6, tallies: { before: { passed: 1, total: 1 }, now: { passed: 3, total: 5 } } };
    const r = pairedBootstrap([item, item, item], 'a');
    expect(r?.ci[0]).toBeLessThanOrEqual(-5 / 6 + 1e-12);
    expect(r?.ci[0]).toBeGreaterThanOrEqual(-5 / 6 - 1 / 15 - 1e-12);
    expect(r?.ci[1]).toBeGreaterThanOrEqual(1 / 6 - 1e-12);
    expect(r?.ci[1]).toBeLessThanOrEqual(1 / 6 + 1 / 15 + 1e-12);
  });

  // Unchanged items measured with fewer attempts now than in their baseline (the docs' recipe: 10-attempt
  // nightly baselines, pull requests at count 3). Drawn as k'/n, 3/3 is drawn at 0.875 and 10/10 at
  // 0.955: every such item drifted 8 points down in every resample, and 30 of them were called beyond
  // noise, with an interval (-16 to -1) that did not even hold the observed difference 0 (q(30,10,10,3,3)
  // above: -7/45 and -1/90 as drawn; -301/3960 and 271/3960 counted from the observed rates).
  // 2,000 resamples land within a step or two of them (the lattice's steps are 1/900 here).
  it('thirty unchanged items, 10/10 -> 3/3 each: an interval around 0 that holds it, within noise', () => {
    const item = { before: 1, now: 1, tallies: { before: { passed: 10, total: 10 }, now: { passed: 3, total: 3 } } };
    const r = pairedBootstrap(Array.from({ length: 30 }, () => item), 'unchanged');
    expect(r?.diff).toBe(0);
    const [lo, hi] = r?.ci ?? [NaN, NaN];
    expect(lo).toBeLessThan(0);
    expect(hi).toBeGreaterThan(0);
    expect(Math.abs(lo - -301 / 3960)).toBeLessThan(0.01);
    expect(Math.abs(hi - 271 / 3960)).toBeLessThan(0.01);
  });

  // A bound that is 0 must read 0: the resample means are sums of rates such as 1/5 - 5/12, whose
  // rounding left this lower bound at 1.85e-17 instead of 0, and "0 to +100" was called beyond noise.
  // The same resamples in exact fractions (the documented generator, SciPy 1.17 for the binomial CDF):
  //   python3 -c "
  //   import numpy as np; from fractions import Fraction as F; from scipy.stats import binom
  //   def fnv(s):
  //     h = 0x811c9dc5
  //     for b in s.encode(): h = ((h ^ b) * 0x01000193) & 0xffffffff
  //     return h
  //   M = 0xffffffff; st = [fnv('t1101')]
  //   def u():
  //     st[0] = (st[0] + 0x6d2b79f5) & M; t = st[0]; t = ((t ^ (t >> 15)) * (t | 1)) & M
  //     t = (t ^ ((t + ((t ^ (t >> 7)) * (t | 61) & M)) & M)) & M; return ((t ^ (t >> 14)) & M) / 2**32
  //   def draw(k, n):
  //     c = F(2*k+1, 2*(n+1)); cdf = binom.cdf(np.arange(n+1), n, float(c)); cdf[-1] = 1
  //     return F(k, n) + (int(np.searchsorted(cdf, u(), side='right')) - n*c) / n
  //   items = [(0,1,1,5), (0,1,4,5), None]; means = []
  //   for _ in range(2000):
  //     s = F(0)
  //     for _ in range(3):
  //       i = items[int(u()*3)]; s += 1 if i is None else draw(i[2], i[3]) - draw(i[0], i[1])
  //     means.append(s / 3)
  //   means.sort(); h = F(1999*25, 1000); print(means[49] + (h - 49) * (means[50] - means[49]))"
  // prints 0.
  it('a bound that is 0 in exact arithmetic is 0, not a rounding error on either side of it', () => {
    const r = pairedBootstrap(
      [
        { before: 0, now: 0.2, tallies: { before: { passed: 0, total: 1 }, now: { passed: 1, total: 5 } } },
        { before: 0, now: 0.8, tallies: { before: { passed: 0, total: 1 }, now: { passed: 4, total: 5 } } },
        { before: 0, now: 1 },
      ],
      't1101',
    );
    expect(r?.ci[0]).toBe(0);
    expect(r?.ci[1]).toBe(1);
  });

  // docs/statistics.md's coverage table measures an independent Python copy of this function
  // (scripts/bootstrap-coverage.py, numpy 2.4.6, SciPy 1.17.1): `python3 scripts/bootstrap-coverage.py
  // mirror` runs the documented generator exactly and prints, among the cases above,
  //   one item 1/1 -> 0/3                           seed 'one-drop'   diff -1.000000 ci [-1.0, -0.041666666666666685]
  //   five items 3/3 -> 1/3, 3/3, 2/3, 3/3, 3/3     seed 'five'       diff -0.200000 ci [-0.5833333333333334, 0.13333333333333336]
  //   six items 1/1 -> 3/3                          seed 'held'       diff +0.000000 ci [-0.3472222222222223, 0.37638888888888133]
  // (-1/24 and -7/12, 2/15 on the lattice; -25/72 and 271/720 for the six, both sides at 100%, whose
  // interval leans up: a 1-attempt baseline drawn failing moves a resample 75 points up). The same
  // intervals here tie the table to this code.
  it('gives the intervals the independent Python copy gives (the one behind the coverage table)', () => {
    const pair = (kb: number, nb: number, kn: number, nn: number): RatePair => ({
      before: kb / nb,
      now: kn / nn,
      tallies: { before: { passed: kb, total: nb }, now: { passed: kn, total: nn } },
    });
    expect(pairedBootstrap([pair(1, 1, 0, 3)], 'one-drop')?.ci).toEqual([-1, -0.041666666666666685]);
    const five = [pair(3, 3, 1, 3), pair(3, 3, 3, 3), pair(3, 3, 2, 3), pair(3, 3, 3, 3), pair(3, 3, 3, 3)];
    expect(pairedBootstrap(five, 'five')?.ci).toEqual([-0.5833333333333334, 0.13333333333333336]);
    close(-0.041666666666666685, -1 / 24, 1e-12);
    close(-0.5833333333333334, -7 / 12, 1e-12);
    const held = pairedBootstrap(Array.from({ length: 6 }, () => pair(1, 1, 3, 3)), 'held');
    expect(held?.diff).toBe(0);
    close(held?.ci[0] ?? NaN, -0.3472222222222223, 1e-12);
    close(held?.ci[1] ?? NaN, 0.37638888888888133, 1e-12);
    close(-0.3472222222222223, -25 / 72, 1e-12);
    close(0.37638888888888133, 271 / 720, 1e-12);
  });

  it('is null with no item, and counts a given number of resamples', () => {
    expect(pairedBootstrap([], 'x')).toBeNull();
    // One resample of one item: the interval is that item's difference.
    expect(pairedBootstrap([{ before: 1, now: 0 }], 'x', 1)?.ci).toEqual([-1, -1]);
  });
});
