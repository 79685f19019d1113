#!/usr/bin/env python3
"""The run's paired bootstrap (docs/statistics.md, "The run: the paired bootstrap and McNemar"),
written again independently of src/evaluate/stats.ts, and the coverage of its 95% interval.

    python3 scripts/bootstrap-coverage.py mirror   # the TS function's intervals for fixed seeds
    python3 scripts/bootstrap-coverage.py coverage [reps]   # the coverage table (docs/statistics.md)

`mirror` runs the documented generator (mulberry32 from the FNV-1a hash of the seed) exactly as
the TS does, one u per item index and one per drawn rate, so its intervals are the ones the TS
gives for the same pairs and seed (the tests in test/evaluate/stats.test.ts assert them).

`coverage` draws, for items with known true pass rates before and now, their attempts (k ~ Bin(n,
q) on each side), computes the interval by each second stage below, and counts how often it holds
the true mean difference mean(q_now - q_before) over the items. numpy's generator stands in for
mulberry32 there (the statistics do not depend on which uniform numbers are used).

Second stages (an item's k of n on one side; c = (k + 1/2) / (n + 1), the mean of the Jeffreys
posterior Beta(k + 1/2, n - k + 1/2)):
  binomial      k' ~ Bin(n, c): the rate c taken as known (the method before this script).
  betabinomial  p ~ Beta(k + 1/2, n - k + 1/2), then k' ~ Bin(n, p): k' ~ BetaBin(n, k + 1/2, n - k + 1/2).
Both count the drawn rate from the observed one: k/n + (k' - n c) / n (E[k'] = n c for both).
  beta          the posterior's rate itself, no attempts drawn: k/n + (p - c), p ~ Beta(k + 1/2, n - k + 1/2).
Items of one attempt on both sides have no tallies and keep their 0/1 difference (no second stage).
"""

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
ITEMS = [int(x) for x in __import__("os").environ.get("ITEMS", "1,3,5,10,30").split(",")]


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


if __name__ == '__main__':
    what = sys.argv[1] if len(sys.argv) > 1 else 'mirror'
    if what == 'mirror':
        run_mirror()
    else:
        reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
        methods = sys.argv[3].split(',') if len(sys.argv) > 3 else ['binomial', 'betabinomial']
        run_coverage(reps, methods)
