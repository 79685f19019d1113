#!/usr/bin/env python3
"""The run's paired bootstrap (docs/statistics.md, "The run: the paired bootstrap and McNemar"),
written again independently of src/evaluate/stats.ts, and the coverage of its 95% interval.

    python3 scripts/bootstrap-coverage.py mirror   # the TS function's intervals for fixed seeds
    ITEMS=1,2 python3 scripts/bootstrap-coverage.py coverage [reps] [methods]   # the coverage table
    python3 scripts/bootstrap-coverage.py width    # median widths, binomial against betabinomial

(docs/statistics.md, "How often the interval holds the true change"; the runs behind it and their
output are at the end of this file.)

`mirror` runs the documented generator (mulberry32 from the FNV-1a hash of the seed) exactly as
the TS does, one u per item index and one per drawn rate, so its intervals are the ones the TS
gives for the same pairs and seed (the tests in test/evaluate/stats.test.ts assert them).

`coverage` draws, for items with known true pass rates before and now, their attempts (k ~ Bin(n,
q) on each side), computes the interval by each second stage below, and counts how often it holds
the true mean difference mean(q_now - q_before) over the items. numpy's generator stands in for
mulberry32 there (the statistics do not depend on which uniform numbers are used).

Second stages (an item's k of n on one side; c = (k + 1/2) / (n + 1), the mean of the Jeffreys
posterior Beta(k + 1/2, n - k + 1/2)):
  binomial      k' ~ Bin(n, c): the rate c taken as known (the method of src/evaluate/stats.ts).
  betabinomial  p ~ Beta(k + 1/2, n - k + 1/2), then k' ~ Bin(n, p): k' ~ BetaBin(n, k + 1/2, n - k + 1/2).
Both count the drawn rate from the observed one: k/n + (k' - n c) / n (E[k'] = n c for both).
  beta          the posterior's rate itself, no attempts drawn: k/n + (p - c), p ~ Beta(k + 1/2, n - k + 1/2)
                (coverage only; `mirror` runs the first two).
Items of one attempt on both sides have no tallies and keep their 0/1 difference (no second stage).
"""

import os
import sys

import numpy as np
from scipy.stats import betabinom, binom

RESAMPLES = 2000
M32 = 0xFFFFFFFF


# ---------------------------------------------------------------------------------------------
# The exact mirror of src/evaluate/stats.ts pairedBootstrap.


def fnv(s):
    h = 0x811C9DC5
    for b in s.encode('utf-8'):
        h = ((h ^ b) * 0x01000193) & M32
    return h


def mulberry32(seed):
    state = [fnv(seed)]

    def u():
        state[0] = (state[0] + 0x6D2B79F5) & M32
        t = state[0]
        t = ((t ^ (t >> 15)) * (t | 1)) & M32
        t = (t ^ ((t + (((t ^ (t >> 7)) * (t | 61)) & M32)) & M32)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296

    return u


def cdf_of(k, n, method):
    """The N + 1 cumulative chances of k' for a tally of k of n (the last exactly 1), by SciPy."""
    a = k + 0.5
    b = n - k + 0.5
    if method == 'binomial':
        cdf = binom.cdf(np.arange(n + 1), n, a / (n + 1))
    else:
        cdf = betabinom.cdf(np.arange(n + 1), n, a, b)
    cdf = np.array(cdf, dtype=float)
    cdf[-1] = 1.0
    return cdf


def quantile_sorted(xs, q):
    h = (len(xs) - 1) * q
    i = int(np.floor(h))
    a = xs[i]
    b = xs[min(i + 1, len(xs) - 1)]
    return a + (h - i) * (b - a)


def clamp_diff(x):
    if abs(x) < 1e-9:
        return 0.0
    return min(1.0, max(-1.0, x))


def mirror(pairs, seed, method, resamples=RESAMPLES):
    """pairs: (before, now, None) or (before, now, (kb, nb, kn, nn)). Returns (before, now, diff, ci)."""
    n = len(pairs)
    u = mulberry32(seed)
    cdfs = {}

    def draw(k, tot, fixed):
        if tot == 0:
            return fixed
        key = (k, tot)
        if key not in cdfs:
            cdfs[key] = cdf_of(k, tot, method)
        cdf = cdfs[key]
        kk = int(np.searchsorted(cdf, u(), side='right'))  # the least k' with u < CDF(k')
        return fixed + kk / tot - (k + 0.5) / (tot + 1)

    means = []
    for _ in range(resamples):
        s = 0.0
        for _ in range(n):
            b, a, t = pairs[int(np.floor(u() * n))]
            if t is None:
                s += a - b
            else:
                kb, nb, kn, nn = t
                s += draw(kn, nn, a) - draw(kb, nb, b)
        means.append(s / n)
    means.sort()
    before = sum(p[0] for p in pairs) / n
    now = sum(p[1] for p in pairs) / n
    return before, now, now - before, (clamp_diff(quantile_sorted(means, 0.025)), clamp_diff(quantile_sorted(means, 0.975)))


def pair(kb, nb, kn, nn):
    return (kb / nb, kn / nn, (kb, nb, kn, nn))


MIRROR_CASES = [
    # (name, pairs, seed): the cases test/evaluate/stats.test.ts asserts.
    ('one item 5/5 -> 3/5', [pair(5, 5, 3, 5)], 'b'),
    ('three items 5/5 -> 4/5', [pair(5, 5, 4, 5)] * 3, 'three'),
    ('three items 5/5 -> 3/5', [pair(5, 5, 3, 5)] * 3, 'c'),
    ('one item 10/10 -> 0/10', [pair(10, 10, 0, 10)], 'edge'),
    ('three items 1/1 -> 3/5', [pair(1, 1, 3, 5)] * 3, 'a'),
    ('thirty items 10/10 -> 3/3', [pair(10, 10, 3, 3)] * 30, 'unchanged'),
    ('one item 1/1 -> 0/3', [pair(1, 1, 0, 3)], 'one-drop'),
    ('five items 3/3 -> 1/3, 3/3, 2/3, 3/3, 3/3', [pair(3, 3, 1, 3), pair(3, 3, 3, 3), pair(3, 3, 2, 3), pair(3, 3, 3, 3), pair(3, 3, 3, 3)], 'five'),
    ('t1101', [pair(0, 1, 1, 5), pair(0, 1, 4, 5), (0.0, 1.0, None)], 't1101'),
    ('six items 1/1 -> 3/3', [pair(1, 1, 3, 3)] * 6, 'held'),
]


def run_mirror():
    for method in ('binomial', 'betabinomial'):
        print(f'# {method}')
        for name, pairs, seed in MIRROR_CASES:
            _, _, diff, (lo, hi) = mirror(pairs, seed, method)
            print(f'{name:45s} seed {seed!r:12s} diff {diff:+.6f} ci [{lo!r}, {hi!r}]')


# ---------------------------------------------------------------------------------------------
# The coverage simulation (vectorised; numpy's generator).


def quantiles_linear(means, q):
    """numpy's default ('linear') quantile along the last axis, as quantileSorted."""
    return np.quantile(means, q, axis=-1)


def second_stage(rng, k, n, method, shape):
    """Drawn rate offsets (k' - n c) / n for tallies k of n (arrays broadcast to shape)."""
    c = (k + 0.5) / (n + 1)
    if method == 'binomial':
        kk = rng.binomial(n, np.broadcast_to(c, shape))
    elif method == 'beta':  # the posterior's rate itself, counted from the observed rate: k/n + (p - c)
        return rng.beta(np.broadcast_to(k + 0.5, shape), np.broadcast_to(n - k + 0.5, shape)) - c
    else:
        p = rng.beta(np.broadcast_to(k + 0.5, shape), np.broadcast_to(n - k + 0.5, shape))
        kk = rng.binomial(n, p)
    return (kk - n * c) / n


def intervals(rng, kb, kn, nb, nn, method, resamples=RESAMPLES):
    """Intervals for R runs at once: kb, kn of shape (R, m); returns lo, hi of shape (R,)."""
    R, m = kb.shape
    idx = rng.integers(0, m, size=(R, resamples, m))
    kb_d = np.take_along_axis(kb[:, None, :].repeat(resamples, 1), idx, axis=2)
    kn_d = np.take_along_axis(kn[:, None, :].repeat(resamples, 1), idx, axis=2)
    d = kn_d / nn - kb_d / nb
    if nb > 1 or nn > 1:  # items with stats: attempts drawn again on both sides
        d = d + second_stage(rng, kn_d, nn, method, d.shape) - second_stage(rng, kb_d, nb, method, d.shape)
    means = d.mean(axis=2)
    lo = quantiles_linear(means, 0.025)
    hi = quantiles_linear(means, 0.975)
    lo = np.where(np.abs(lo) < 1e-9, 0.0, np.clip(lo, -1, 1))
    hi = np.where(np.abs(hi) < 1e-9, 0.0, np.clip(hi, -1, 1))
    return lo, hi


SCENARIOS = {
    # name: function of (m, rng, runs) -> (q_before, q_now), each of shape (runs, m), and the true
    # mean difference. Fixed items: the same rates in every run, the truth their mean difference.
    # "population": every run draws its items' rates from a population, and the truth is the
    # population's mean difference (the reading the first stage, resampling items, is for).
    '0.9 -> 0.9': lambda m, rng, r: fixed(np.full(m, 0.9), np.full(m, 0.9), r),
    '0.97 -> 0.97': lambda m, rng, r: fixed(np.full(m, 0.97), np.full(m, 0.97), r),
    '0.6 -> 0.6': lambda m, rng, r: fixed(np.full(m, 0.6), np.full(m, 0.6), r),
    '0.5..1 unchanged': lambda m, rng, r: fixed(np.linspace(0.5, 1.0, m), np.linspace(0.5, 1.0, m), r),
    '0.9 -> 0.7': lambda m, rng, r: fixed(np.full(m, 0.9), np.full(m, 0.7), r),
    '0.9, a fifth -> 0.3': lambda m, rng, r: fixed(np.full(m, 0.9), np.where(np.arange(m) % 5 == 0, 0.3, 0.9), r),
    '0.5 -> 0.8': lambda m, rng, r: fixed(np.full(m, 0.5), np.full(m, 0.8), r),
    'population U(0.6,1) same': lambda m, rng, r: population(rng, m, r, 0.0),
    'population, 1 in 5 -0.3': lambda m, rng, r: population(rng, m, r, 0.3),
}


def fixed(qb, qn, r):
    return np.broadcast_to(qb, (r, len(qb))), np.broadcast_to(qn, (r, len(qn))), float(np.mean(qn - qb))


def population(rng, m, r, drop):
    qb = rng.uniform(0.6, 1.0, size=(r, m))
    qn = qb - drop * (rng.uniform(size=(r, m)) < 0.2)
    return qb, qn, -drop * 0.2


ATTEMPTS = [(1, 1), (1, 3), (3, 1), (3, 3), (5, 5), (10, 10), (10, 3)]
# The numbers of items: ITEMS=1,2 in the environment to run fewer.
ITEMS = [int(x) for x in os.environ.get('ITEMS', '1,2,3,5,10,30').split(',')]


def run_coverage(reps, methods):
    chunk = 25
    print(f'coverage of the 95% interval, {reps} runs per cell, {RESAMPLES} resamples each; columns: attempts before/now')
    header = 'scenario                  items ' + ' '.join(f'{f"{nb}/{nn}":>6s}' for nb, nn in ATTEMPTS)
    for method in methods:
        rng = np.random.default_rng(20261204)
        print(f'\n## {method}')
        print(header)
        lowest = {}
        for name, f in SCENARIOS.items():
            for m in ITEMS:
                cells = []
                for nb, nn in ATTEMPTS:
                    hits = 0
                    for start in range(0, reps, chunk):
                        r = min(chunk, reps - start)
                        qb, qn, true = f(m, rng, r)
                        kb = rng.binomial(nb, qb)
                        kn = rng.binomial(nn, qn)
                        lo, hi = intervals(rng, kb, kn, nb, nn, method)
                        hits += int(np.sum((lo <= true + 1e-12) & (true - 1e-12 <= hi)))
                    cells.append(hits / reps)
                lowest[m] = [min(a, b) for a, b in zip(lowest.get(m, cells), cells)]
                print(f'{name:25s} {m:5d} ' + ' '.join(f'{100 * c:5.1f}%' for c in cells), flush=True)
        for m, cells in lowest.items():
            print(f'{"lowest of the scenarios":25s} {m:5d} ' + ' '.join(f'{100 * c:5.1f}%' for c in cells))


def run_width():
    """The median width of the interval, binomial against betabinomial, on the same attempts."""
    rng = np.random.default_rng(7)
    print('median width of the interval (points), 0.9 -> 0.9 and 0.6 -> 0.6, 200 runs')
    for q in (0.9, 0.6):
        for m in (1, 5, 30):
            for nb, nn in ((3, 3), (10, 10), (10, 3)):
                kb = rng.binomial(nb, np.full((200, m), q))
                kn = rng.binomial(nn, np.full((200, m), q))
                w = {}
                for method in ('binomial', 'betabinomial'):
                    lo, hi = intervals(rng, kb, kn, nb, nn, method)
                    w[method] = np.median(hi - lo) * 100
                ratio = w['betabinomial'] / w['binomial']
                print(f'q {q} items {m:2d} {nb}/{nn}: binomial {w["binomial"]:5.1f}  betabinomial {w["betabinomial"]:5.1f}  ratio {ratio:.2f}', flush=True)


if __name__ == '__main__':
    what = sys.argv[1] if len(sys.argv) > 1 else 'mirror'
    if what == 'mirror':
        run_mirror()
    elif what == 'width':
        run_width()
    else:
        reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
        methods = sys.argv[3].split(',') if len(sys.argv) > 3 else ['binomial', 'betabinomial']
        run_coverage(reps, methods)


# ---------------------------------------------------------------------------------------------
# The runs behind docs/statistics.md, "How often the interval holds the true change" (numpy 2.4.6,
# SciPy 1.17.1), as printed. binomial is the method of src/evaluate/stats.ts.
#
# $ python3 scripts/bootstrap-coverage.py mirror
# # binomial
# one item 5/5 -> 3/5                           seed 'b'          diff -0.400000 ci [-0.8666666666666668, 0.13333333333333308]
# three items 5/5 -> 4/5                        seed 'three'      diff -0.200000 ci [-0.43333333333333357, 0.03333333333333329]
# three items 5/5 -> 3/5                        seed 'c'          diff -0.400000 ci [-0.6666666666666669, -0.13333333333333353]
# one item 10/10 -> 0/10                        seed 'edge'       diff -1.000000 ci [-1.0, -0.7909090909090908]
# three items 1/1 -> 3/5                        seed 'a'          diff -0.400000 ci [-0.8999999999999999, 0.2333333333333332]
# thirty items 10/10 -> 3/3                     seed 'unchanged'  diff +0.000000 ci [-0.07489898989898988, 0.06732323232323237]
# one item 1/1 -> 0/3                           seed 'one-drop'   diff -1.000000 ci [-1.0, -0.041666666666666685]
# five items 3/3 -> 1/3, 3/3, 2/3, 3/3, 3/3     seed 'five'       diff -0.200000 ci [-0.5833333333333334, 0.13333333333333336]
# t1101                                         seed 't1101'      diff +0.666667 ci [0.0, 1.0]
# six items 1/1 -> 3/3                          seed 'held'       diff +0.000000 ci [-0.3472222222222223, 0.37638888888888133]
# # betabinomial
# one item 5/5 -> 3/5                           seed 'b'          diff -0.400000 ci [-1.0, 0.1333333333333333]
# three items 5/5 -> 4/5                        seed 'three'      diff -0.200000 ci [-0.5666666666666668, 0.09999999999999994]
# three items 5/5 -> 3/5                        seed 'c'          diff -0.400000 ci [-0.7333333333333335, -0.0666666666666668]
# one item 10/10 -> 0/10                        seed 'edge'       diff -1.000000 ci [-1.0, -0.6909090909090908]
# three items 1/1 -> 3/5                        seed 'a'          diff -0.400000 ci [-0.9, 0.23333333333333328]
# thirty items 10/10 -> 3/3                     seed 'unchanged'  diff +0.000000 ci [-0.09045454545454547, 0.07843434343434348]
# one item 1/1 -> 0/3                           seed 'one-drop'   diff -1.000000 ci [-1.0, -0.041666666666666685]
# five items 3/3 -> 1/3, 3/3, 2/3, 3/3, 3/3     seed 'five'       diff -0.200000 ci [-0.6166666666666667, 0.1666666666666667]
# t1101                                         seed 't1101'      diff +0.666667 ci [-0.03333333333333327, 1.0]
# six items 1/1 -> 3/3                          seed 'held'       diff +0.000000 ci [-0.3472222222222223, 0.4305555555555555]
#
# $ ITEMS=1,2 python3 scripts/bootstrap-coverage.py coverage 2000 binomial,betabinomial   (run before the script printed its 'lowest of the scenarios' rows: the docs' rows for 1 and 2 items are read off these)
# coverage of the 95% interval, 2000 runs per cell, 2000 resamples each; columns: attempts before/now
#
# ## binomial
# scenario                  items    1/1    1/3    3/1    3/3    5/5  10/10   10/3
# 0.9 -> 0.9                    1  81.7%  92.3%  92.8%  99.6%  98.6%  94.9%  98.8%
# 0.9 -> 0.9                    2  98.7%  99.7%  99.5% 100.0%  99.5%  98.0%  99.5%
# 0.97 -> 0.97                  1  94.2%  97.2%  97.2% 100.0%  99.8%  99.5% 100.0%
# 0.97 -> 0.97                  2 100.0%  99.9%  99.9% 100.0% 100.0% 100.0%  99.9%
# 0.6 -> 0.6                    1  53.5%  88.2%  86.5%  95.4%  91.8%  91.7%  91.1%
# 0.6 -> 0.6                    2  87.4%  98.9%  98.9%  97.0%  96.0%  96.2%  95.2%
# 0.5..1 unchanged              1  51.4%  88.2%  86.0%  94.7%  88.8%  90.6%  90.8%
# 0.5..1 unchanged              2 100.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.9 -> 0.7                    1   0.0%  96.3% 100.0%  96.0%  91.1%  92.5%  97.9%
# 0.9 -> 0.7                    2  39.0%  99.6%  96.2%  98.2%  98.7%  98.0%  96.2%
# 0.9, a fifth -> 0.3           1   0.0%  97.6%  99.0%  98.5%  99.4%  96.7%  96.4%
# 0.9, a fifth -> 0.3           2  60.8%  99.2%  99.7%  99.0%  99.5%  99.9%  98.1%
# 0.5 -> 0.8                    1   0.0%  99.8%  96.9%  91.2%  89.0%  92.0%  97.7%
# 0.5 -> 0.8                    2  50.1%  98.4%  97.7%  94.5%  97.4%  97.6%  97.7%
# population U(0.6,1) same      1  69.9%  90.5%  90.6%  97.8%  95.0%  93.9%  97.4%
# population U(0.6,1) same      2  95.8%  99.2%  99.2%  99.1%  98.5%  97.6%  98.8%
# population, 1 in 5 -0.3       1   0.0%  93.5%  99.0%  95.8%  92.8%  93.0%  93.4%
# population, 1 in 5 -0.3       2  31.6%  97.5%  98.0%  97.5%  96.2%  95.7%  97.2%
#
# ## betabinomial
# scenario                  items    1/1    1/3    3/1    3/3    5/5  10/10   10/3
# 0.9 -> 0.9                    1  81.7%  92.3%  92.5%  99.8% 100.0%  99.6%  99.9%
# 0.9 -> 0.9                    2  98.6%  99.7%  99.4% 100.0% 100.0%  99.9%  99.9%
# 0.97 -> 0.97                  1  95.2%  96.2%  97.0% 100.0% 100.0% 100.0% 100.0%
# 0.97 -> 0.97                  2  99.9%  99.9%  99.9% 100.0% 100.0% 100.0% 100.0%
# 0.6 -> 0.6                    1  52.1%  88.8%  87.5%  97.2%  98.0%  98.7%  98.4%
# 0.6 -> 0.6                    2  88.0%  99.4%  99.1%  99.3%  99.2%  99.2%  98.1%
# 0.5..1 unchanged              1  48.9%  88.0%  89.0%  96.7%  97.9%  99.0%  98.5%
# 0.5..1 unchanged              2 100.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.9 -> 0.7                    1   0.0%  96.4%  99.9%  97.3%  98.9%  97.6%  98.8%
# 0.9 -> 0.7                    2  38.2%  99.7%  95.1%  99.6%  99.1%  99.1%  99.0%
# 0.9, a fifth -> 0.3           1   0.0%  99.1% 100.0%  98.8%  99.5%  99.3%  97.2%
# 0.9, a fifth -> 0.3           2  58.7%  99.4%  99.7%  99.5%  99.9%  99.9%  99.7%
# 0.5 -> 0.8                    1   0.0%  99.4%  97.2%  98.2%  98.0%  97.8%  98.8%
# 0.5 -> 0.8                    2  45.0%  98.4%  98.2%  98.5%  98.9%  99.4%  99.4%
# population U(0.6,1) same      1  72.4%  92.2%  91.7%  99.2%  99.2%  98.9%  99.3%
# population U(0.6,1) same      2  95.5%  99.2%  99.2%  99.6%  99.9%  99.7%  99.7%
# population, 1 in 5 -0.3       1   0.0%  92.0%  99.2%  98.2%  97.5%  97.8%  97.7%
# population, 1 in 5 -0.3       2  30.8%  98.6%  98.2%  99.3%  97.9%  99.2%  99.5%
#
# $ ITEMS=3,5,10,30 python3 scripts/bootstrap-coverage.py coverage 500 binomial
# coverage of the 95% interval, 500 runs per cell, 2000 resamples each; columns: attempts before/now
#
# ## binomial
# scenario                  items    1/1    1/3    3/1    3/3    5/5  10/10   10/3
# 0.9 -> 0.9                    3  99.8%  99.8% 100.0%  99.8%  99.6%  98.8%  99.8%
# 0.9 -> 0.9                    5  99.8% 100.0%  99.8% 100.0%  99.6%  99.0%  99.8%
# 0.9 -> 0.9                   10  98.8%  99.8% 100.0%  99.8%  99.8%  99.6%  99.8%
# 0.9 -> 0.9                   30  95.4% 100.0% 100.0% 100.0%  99.4% 100.0% 100.0%
# 0.97 -> 0.97                  3 100.0% 100.0% 100.0% 100.0% 100.0%  99.8% 100.0%
# 0.97 -> 0.97                  5 100.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.97 -> 0.97                 10 100.0% 100.0% 100.0% 100.0% 100.0%  99.8% 100.0%
# 0.97 -> 0.97                 30  98.6% 100.0% 100.0% 100.0% 100.0%  99.8% 100.0%
# 0.6 -> 0.6                    3  98.4%  97.0%  96.4%  98.4%  96.6%  97.8%  97.2%
# 0.6 -> 0.6                    5  91.2%  97.8%  97.0%  97.6%  97.6%  98.8%  97.8%
# 0.6 -> 0.6                   10  93.6%  97.8%  98.4%  97.6%  99.4%  98.8%  98.8%
# 0.6 -> 0.6                   30  95.0%  99.0%  99.4%  99.0%  99.4%  99.0%  98.8%
# 0.5..1 unchanged              3 100.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.5..1 unchanged              5  95.6%  99.6% 100.0%  99.4%  98.8%  98.2%  99.4%
# 0.5..1 unchanged             10  96.0%  99.4%  99.8%  99.2%  99.6%  99.2%  99.2%
# 0.5..1 unchanged             30  96.2%  99.6%  99.4% 100.0%  98.2%  99.2%  99.2%
# 0.9 -> 0.7                    3  60.8%  99.6%  98.4%  99.8%  97.8%  98.4%  96.6%
# 0.9 -> 0.7                    5  75.8%  99.8%  98.6%  98.2%  99.2%  99.2%  97.8%
# 0.9 -> 0.7                   10  94.6%  99.8%  98.0%  99.6%  98.8%  99.0%  99.4%
# 0.9 -> 0.7                   30  94.4%  99.8%  99.2% 100.0%  99.6%  99.4%  98.6%
# 0.9, a fifth -> 0.3           3  68.0% 100.0%  99.6%  99.2%  99.0% 100.0%  98.4%
# 0.9, a fifth -> 0.3           5  72.4%  99.8%  99.8%  99.8% 100.0%  99.4%  99.2%
# 0.9, a fifth -> 0.3          10  92.8% 100.0%  99.8%  99.8% 100.0% 100.0%  99.6%
# 0.9, a fifth -> 0.3          30  94.8% 100.0%  99.6% 100.0% 100.0% 100.0% 100.0%
# 0.5 -> 0.8                    3  70.0%  97.4%  98.2%  97.4%  97.8%  97.4%  98.4%
# 0.5 -> 0.8                    5  82.6%  96.4%  99.0%  98.6%  98.2%  98.2%  97.2%
# 0.5 -> 0.8                   10  92.4%  98.6%  99.0%  98.2%  98.8%  98.6%  98.8%
# 0.5 -> 0.8                   30  96.8%  99.4%  99.8%  99.0%  99.4%  99.8%  98.6%
# population U(0.6,1) same      3  99.6%  99.2%  99.8%  99.4%  99.0%  98.8%  98.8%
# population U(0.6,1) same      5  96.6%  99.4%  99.6% 100.0%  99.2%  99.0%  99.6%
# population U(0.6,1) same     10  96.0%  99.6%  99.8%  98.8%  99.4%  99.4%  99.4%
# population U(0.6,1) same     30  94.6% 100.0%  99.8%  99.6%  99.6%  99.4%  99.6%
# population, 1 in 5 -0.3       3  47.4%  99.2%  98.4%  98.0%  98.8%  96.4%  98.4%
# population, 1 in 5 -0.3       5  63.8%  99.6%  99.0%  98.6%  98.0%  97.2%  99.6%
# population, 1 in 5 -0.3      10  85.8%  98.8%  99.2%  99.4%  98.8%  97.8%  98.8%
# population, 1 in 5 -0.3      30  90.8%  99.8%  99.8%  99.4%  99.6%  97.6%  98.8%
# lowest of the scenarios       3  47.4%  97.0%  96.4%  97.4%  96.6%  96.4%  96.6%
# lowest of the scenarios       5  63.8%  96.4%  97.0%  97.6%  97.6%  97.2%  97.2%
# lowest of the scenarios      10  85.8%  97.8%  98.0%  97.6%  98.8%  97.8%  98.8%
# lowest of the scenarios      30  90.8%  99.0%  99.2%  99.0%  98.2%  97.6%  98.6%
#
# $ ITEMS=1 python3 scripts/bootstrap-coverage.py coverage 1000 beta
# coverage of the 95% interval, 1000 runs per cell, 2000 resamples each; columns: attempts before/now
#
# ## beta
# scenario                  items    1/1    1/3    3/1    3/3    5/5  10/10   10/3
# 0.9 -> 0.9                    1  80.9%  92.3%  92.1%  96.4%  97.3%  95.5%  98.0%
# 0.97 -> 0.97                  1  94.6%  96.8%  97.8%  99.7%  99.4%  99.9%  99.8%
# 0.6 -> 0.6                    1  50.7%  87.5%  87.5%  78.7%  89.9%  89.8%  86.7%
# 0.5..1 unchanged              1  51.2%  87.6%  86.8%  78.1%  89.1%  90.4%  83.7%
# 0.9 -> 0.7                    1   0.0%  90.1%  73.4%  91.9%  91.2%  93.0%  90.6%
# 0.9, a fifth -> 0.3           1   0.0%  91.8%  91.7%  92.6%  89.0%  92.2%  95.5%
# 0.5 -> 0.8                    1   0.0%  69.0%  81.5%  86.1%  86.4%  91.4%  92.4%
# population U(0.6,1) same      1  70.5%  89.3%  91.8%  90.1%  93.2%  92.3%  93.7%
# population, 1 in 5 -0.3       1   0.0%  84.0%  84.2%  85.2%  89.0%  85.3%  89.1%
# lowest of the scenarios       1   0.0%  69.0%  73.4%  78.1%  86.4%  85.3%  83.7%
#
# $ ITEMS=5,30 python3 scripts/bootstrap-coverage.py coverage 300 betabinomial
# coverage of the 95% interval, 300 runs per cell, 2000 resamples each; columns: attempts before/now
#
# ## betabinomial
# scenario                  items    1/1    1/3    3/1    3/3    5/5  10/10   10/3
# 0.9 -> 0.9                    5  99.0%  99.3% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.9 -> 0.9                   30  93.3%  99.7% 100.0% 100.0% 100.0% 100.0%  99.7%
# 0.97 -> 0.97                  5 100.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.97 -> 0.97                 30  98.7% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.6 -> 0.6                    5  88.3%  98.0%  98.0%  99.0% 100.0%  99.7%  99.0%
# 0.6 -> 0.6                   30  94.0%  98.7%  99.0%  98.7% 100.0%  99.7%  98.7%
# 0.5..1 unchanged              5  97.3% 100.0% 100.0% 100.0% 100.0%  99.7% 100.0%
# 0.5..1 unchanged             30  96.7%  99.7%  98.7%  99.7% 100.0% 100.0% 100.0%
# 0.9 -> 0.7                    5  77.3% 100.0%  99.7%  99.3%  99.3% 100.0%  98.7%
# 0.9 -> 0.7                   30  96.0% 100.0%  99.3% 100.0% 100.0%  99.3% 100.0%
# 0.9, a fifth -> 0.3           5  67.7% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.9, a fifth -> 0.3          30  96.0% 100.0% 100.0% 100.0% 100.0% 100.0% 100.0%
# 0.5 -> 0.8                    5  85.7%  97.3%  99.7%  99.7%  98.7%  99.3% 100.0%
# 0.5 -> 0.8                   30  94.3%  99.3%  99.7% 100.0%  99.7% 100.0%  99.7%
# population U(0.6,1) same      5  97.3%  99.3%  99.7%  99.3%  99.0%  99.7% 100.0%
# population U(0.6,1) same     30  96.0%  99.7%  99.7%  99.7% 100.0% 100.0% 100.0%
# population, 1 in 5 -0.3       5  61.0%  99.7%  99.7%  99.7%  99.7%  99.7%  99.7%
# population, 1 in 5 -0.3      30  94.7%  98.3% 100.0%  99.0% 100.0%  99.0%  99.3%
# lowest of the scenarios       5  61.0%  97.3%  98.0%  99.0%  98.7%  99.3%  98.7%
# lowest of the scenarios      30  93.3%  98.3%  98.7%  98.7%  99.7%  99.0%  98.7%
#
# $ python3 scripts/bootstrap-coverage.py width
# median width of the interval (points), 0.9 -> 0.9 and 0.6 -> 0.6, 200 runs
# q 0.9 items  1 3/3: binomial 125.0  betabinomial 133.3  ratio 1.07
# q 0.9 items  1 10/10: binomial  60.0  betabinomial  80.0  ratio 1.33
# q 0.9 items  1 10/3: binomial  86.9  betabinomial 116.7  ratio 1.34
# q 0.9 items  5 3/3: binomial  63.3  betabinomial  71.7  ratio 1.13
# q 0.9 items  5 10/10: binomial  32.5  betabinomial  39.8  ratio 1.22
# q 0.9 items  5 10/3: binomial  51.9  betabinomial  59.7  ratio 1.15
# q 0.9 items 30 3/3: binomial  27.5  betabinomial  31.1  ratio 1.13
# q 0.9 items 30 10/10: binomial  14.0  betabinomial  16.8  ratio 1.19
# q 0.9 items 30 10/3: binomial  22.1  betabinomial  24.9  ratio 1.13
# q 0.6 items  1 3/3: binomial 129.6  betabinomial 158.3  ratio 1.22
# q 0.6 items  1 10/10: binomial  80.0  betabinomial 110.0  ratio 1.38
# q 0.6 items  1 10/3: binomial 120.0  betabinomial 140.0  ratio 1.17
# q 0.6 items  5 3/3: binomial  86.7  betabinomial  95.0  ratio 1.10
# q 0.6 items  5 10/10: binomial  48.6  betabinomial  58.2  ratio 1.20
# q 0.6 items  5 10/3: binomial  71.0  betabinomial  79.0  ratio 1.11
# q 0.6 items 30 3/3: binomial  38.3  betabinomial  41.7  ratio 1.09
# q 0.6 items 30 10/10: binomial  21.3  betabinomial  24.9  ratio 1.17
# q 0.6 items 30 10/3: binomial  31.1  betabinomial  34.3  ratio 1.10
