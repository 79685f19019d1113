// Finishing an item (docs/architecture.md, "Finishing an item") and the statistics it records
// (docs/statistics.md, "The figures", "The run").
import { describe, expect, it } from 'vitest';
import { finishFixture, policyOf } from '../../src/evaluate/finish.js';
import { runStatsOf, statsSeed } from '../../src/evaluate/run-stats.js';
import { mcnemarExact, pairedBootstrap } from '../../src/evaluate/stats.js';
import type { Baseline, FixtureRecord, Verdict } from '../../src/types.js';
import { fixtureRecord } from '../support/fixture-record.js';

const baseline = (over: Partial<Baseline> = {}): Baseline => ({ label: 'f', reply: 'r', route: null, verdict: 'pass', acceptedAt: '2026-01-01T00:00:00.000Z', ...over }) as Baseline;
const attempt = (verdict: Verdict, over: Partial<FixtureRecord> = {}): FixtureRecord => fixtureRecord(over, { verdict } as Partial<FixtureRecord>);
const attempts = (verdicts: readonly Verdict[]): FixtureRecord[] => verdicts.map((v) => attempt(v));

describe('finishFixture', () => {
  const policy = policyOf({});

  it('combines a repeated item and records its stats against a 10-attempt baseline: 10/10 -> 0/3 is regressed (p = 1/286)', () => {
    const r = finishFixture({ repeat: { count: 3, minPass: 3 } }, attempts(['fail', 'fail', 'fail']), baseline({ attempts: { passed: 10, total: 10 } }), policy);
    expect(r.verdict).toBe('fail');
    expect(r.repeat).toMatchObject({ count: 3, passed: 0 });
    expect(r.stats).toMatchObject({ passed: 0, total: 3, rate: 0, baseline: { passed: 10, total: 10 }, tier: 'regressed', attemptsNeeded: null, looks: 1, maxLooks: 1 });
    expect(r.stats?.pDrop).toBeCloseTo(1 / 286, 12);
    expect(r.stats?.pRise).toBe(1);
    expect(r.stats?.ci[0]).toBe(0);
    // Wilson at 0 of n with z = 1.96: the upper bound is z² / (n + z²).
    expect(r.stats?.ci[1]).toBeCloseTo(1.96 ** 2 / (3 + 1.96 ** 2), 12);
  });

  it('5/5 -> 4/5 is steady; a repeated item without a baseline is measured against 0 of 0 (too_few, nothing would call it)', () => {
    const steady = finishFixture({ repeat: { count: 5, minPass: 4 } }, attempts(['pass', 'fail', 'pass', 'pass', 'pass']), baseline({ attempts: { passed: 5, total: 5 } }), policy);
    expect(steady.stats).toMatchObject({ passed: 4, total: 5, tier: 'steady' });
    expect(steady.stats?.pDrop).toBeCloseTo(0.5, 12);
    const fresh = finishFixture({ repeat: { count: 2, minPass: 2 } }, attempts(['pass', 'pass']), null, policy);
    expect(fresh.stats).toMatchObject({ baseline: { passed: 0, total: 0 }, pDrop: 1, pRise: 1, tier: 'too_few', attemptsNeeded: null });
  });

  it('an item run once gets stats only against a baseline of more than one attempt, and then counts as 1 of 1 or 0 of 1', () => {
    expect(finishFixture({}, [attempt('fail')], baseline(), policy).stats).toBeUndefined();
    expect(finishFixture({}, [attempt('fail')], null, policy).stats).toBeUndefined();
    const once = finishFixture({}, [attempt('fail')], baseline({ attempts: { passed: 4, total: 5 } }), policy);
    // 0/1 against 4/5: the drop's p is 1/5, too few attempts; 4 attempts at rate 0 would call it.
    expect(once.stats).toMatchObject({ passed: 0, total: 1, tier: 'too_few', attemptsNeeded: 4 });
    // An attempt that was not checked (errored, or not evaluated) measured nothing: no stats.
    const errored = finishFixture({}, [attempt('pass', { errored: true, verdict: null, drift: null } as Partial<FixtureRecord>)], baseline({ attempts: { passed: 4, total: 5 } }), policy);
    expect(errored.stats).toBeUndefined();
    const unjudged = finishFixture({}, [attempt('not_evaluated')], baseline({ attempts: { passed: 4, total: 5 } }), policy);
    expect(unjudged.stats).toBeUndefined();
  });

  it('a fail made by errored attempts names the first errored attempt and its error, never a passing attempt (docs/fixtures.md, "What the item shows")', () => {
    // 3 of 5 attempts got HTTP 503, 2 passed: fail 2/5 (minPass 3). The detail said "attempt 4: reply contains ..." (a pass) and nothing of the 503s.
    const error = 'message turn: agent returned HTTP 503 after 1 attempt: down';
    // An errored attempt's detail is its error, as the runner records it.
    const down = (): FixtureRecord => attempt('pass', { errored: true, verdict: null, reply: null, drift: null, detail: error, error, errorKind: 'http' } as Partial<FixtureRecord>);
    const ok = (): FixtureRecord => attempt('pass', { detail: 'reply contains "9 to 17"' });
    const r = finishFixture({ repeat: { count: 5, minPass: 3 } }, [down(), down(), down(), ok(), ok()], baseline({ attempts: { passed: 8, total: 10 } }), policy);
    expect(r.verdict).toBe('fail');
    expect(r.detail).toBe('2/5 attempts passed (minPass 3), 3 errored, flaky; attempt 1: message turn: agent returned HTTP 503 after 1 attempt: down');
    // An attempt that failed is still the one named when there is one, before an error.
    const mixed = finishFixture({ repeat: { count: 3, minPass: 3 } }, [down(), ok(), attempt('fail', { detail: 'reply does not contain "9 to 17"' })], null, policy);
    expect(mixed.detail).toBe('1/3 attempts passed (minPass 3), 1 errored, flaky; attempt 3: reply does not contain "9 to 17"');
    // The count says how many attempts errored (each counted as not passed, as the pass rate and its tier count them),
    // so that a drop an outage made is read as one; an item all of whose attempts errored is the Errored section's.
    const allDown = finishFixture({ repeat: { count: 2, minPass: 2 } }, [down(), down()], null, policy);
    expect(allDown.detail).toBe(`0/2 attempts passed (minPass 2); attempt 1: ${error}`);
    // A pass is said by its first passing attempt, errors or not.
    const passed = finishFixture({ repeat: { count: 3, minPass: 2 } }, [down(), ok(), ok()], null, policy);
    expect(passed.detail).toBe('2/3 attempts passed (minPass 2), 1 errored, flaky; attempt 2: reply contains "9 to 17"');
  });

  it('keeps slower beside the stats (docs/latency.md)', () => {
    const r = finishFixture({ repeat: { count: 2, minPass: 2 } }, attempts(['pass', 'pass']).map((a) => ({ ...a, latencyMs: 3000 })), baseline({ latencyMs: 1000, attempts: { passed: 2, total: 2 } }), policy);
    expect(r.slower).toEqual({ baselineMs: 1000, latencyMs: 3000 });
    expect(r.stats?.tier).toBe('too_few');
  });

  it('records faster by the latency rule mirrored: a millisecond less is not faster (docs/latency.md, "Views")', () => {
    const timedAt = (ms: number): FixtureRecord => ({ ...attempt('pass'), latencyMs: ms });
    expect(finishFixture({}, [timedAt(209)], baseline({ latencyMs: 210 }), policy).faster).toBeUndefined();
    const faster = finishFixture({}, [timedAt(900)], baseline({ latencyMs: 1500 }), policy);
    expect(faster.faster).toEqual({ baselineMs: 1500, latencyMs: 900 });
    expect(faster.slower).toBeUndefined();
    // By config.yml's thresholds: 1500 -> 1300 is faster with slowerBy 0.1 and minDeltaMs 100.
    expect(finishFixture({}, [timedAt(1300)], baseline({ latencyMs: 1500 }), policyOf({ latency: { slowerBy: 0.1, minDeltaMs: 100 } })).faster).toEqual({ baselineMs: 1500, latencyMs: 1300 });
  });
});

describe('runStatsOf', () => {
  const flip = (label: string, verdict: FixtureRecord['drift'] extends infer D ? (D extends { verdict: infer V } ? V : never) : never): FixtureRecord =>
    fixtureRecord({ label, definitionHash: `h-${label}`, drift: { reply: 'same', route: null, verdict } });

  it('without repeated items: every item with a baseline verdict pairs 0/1 rates, and McNemar weighs the flips', () => {
    const items = [flip('a', 'newly_failing'), flip('b', 'newly_failing'), flip('c', 'newly_failing'), flip('d', 'newly_passing'), flip('e', 'still_passing'), flip('f', 'no_baseline')];
    const seed = statsSeed(items);
    const s = runStatsOf(items, [], seed);
    expect(s).toMatchObject({ items: 5, before: 0.8, now: 0.4, mcnemar: { newlyFailing: 3, newlyPassing: 1 } });
    expect(s?.diff).toBeCloseTo(-0.4, 12);
    expect(s?.mcnemar?.p).toBeCloseTo(0.625, 12);
    // The interval is the bootstrap's over the same pairs and the same seed: one record, one interval.
    const pairs = [
      { before: 1, now: 0 },
      { before: 1, now: 0 },
      { before: 1, now: 0 },
      { before: 0, now: 1 },
      { before: 1, now: 1 },
    ];
    expect(s?.ci).toEqual(pairedBootstrap(pairs, seed)?.ci);
    expect(runStatsOf(items, [], seed)).toEqual(s);
    expect(mcnemarExact(3, 1)).toBeCloseTo(0.625, 12);
  });

  it('with a repeated item: its rates come from its stats and McNemar is left out; no baseline anywhere: no stats', () => {
    const repeated = fixtureRecord({ label: 'r', stats: { passed: 1, total: 4, rate: 0.25, ci: [0, 1], baseline: { passed: 9, total: 10 }, pDrop: 0.01, pRise: 1, tier: 'regressed', attemptsNeeded: null, looks: 1, maxLooks: 1 } });
    const s = runStatsOf([repeated, flip('a', 'still_passing')], [], 'seed');
    expect(s).toMatchObject({ items: 2, before: 0.95, now: 0.625 });
    expect(s?.mcnemar).toBeUndefined();
    expect(runStatsOf([flip('a', 'no_baseline')], [], 'seed')).toBeNull();
  });

  it('McNemar weighs the flips when no item with a baseline is repeated, whatever a new repeated item without one has', () => {
    // 4 newly failing of 30 single-attempt items: McNemar p = 2 / 2^4 = 0.125 (SciPy 1.17:
    // python3 -c "from scipy.stats import binomtest; print(binomtest(0, 4, 0.5).pvalue)" -> 0.125).
    // A new fixture repeated 3 times has stats against 0 of 0 but is not compared; it left McNemar out,
    // and the interval over the 30 flips (-27 to -3), which cannot see any attempt's noise, said beyond noise.
    const items = [...Array.from({ length: 4 }, (_, i) => flip(`nf${i}`, 'newly_failing')), ...Array.from({ length: 26 }, (_, i) => flip(`sp${i}`, 'still_passing'))];
    const fresh = fixtureRecord({
      label: 'new-repeated',
      definitionHash: 'h-new',
      drift: { reply: 'same', route: null, verdict: 'no_baseline' },
      stats: { passed: 3, total: 3, rate: 1, ci: [0.44, 1], baseline: { passed: 0, total: 0 }, pDrop: 1, pRise: 1, tier: 'too_few', attemptsNeeded: null, looks: 1, maxLooks: 1 },
    });
    const all = [...items, fresh];
    const s = runStatsOf(all, [], statsSeed(all));
    expect(s?.items).toBe(30);
    expect(s?.mcnemar).toEqual({ newlyFailing: 4, newlyPassing: 0, p: 0.125 });
  });

  it('leaves out an errored or not-evaluated item even when it has stats: an outage says nothing of the pass rate', () => {
    const stats = { passed: 0, total: 3, rate: 0, ci: [0, 0.56] as [number, number], baseline: { passed: 10, total: 10 }, pDrop: 0.003, pRise: 1, tier: 'regressed' as const, attemptsNeeded: null, looks: 1, maxLooks: 1 };
    const outage = fixtureRecord({ label: 'down', errored: true, verdict: null, stats });
    const unjudged = fixtureRecord({ label: 'unjudged', verdict: 'not_evaluated', stats });
    const s = runStatsOf([outage, unjudged, flip('a', 'still_passing')], [], 'seed');
    expect(s).toMatchObject({ items: 1, before: 1, now: 1, diff: 0 });
  });

  it("a repeated item's attempts are drawn again: the interval is the two-stage bootstrap's over its tallies", () => {
    const stats = { passed: 9, total: 10, rate: 0.9, ci: [0.6, 0.98] as [number, number], baseline: { passed: 10, total: 10 }, pDrop: 0.5, pRise: 1, tier: 'steady' as const, attemptsNeeded: null, looks: 1, maxLooks: 1 };
    const s = runStatsOf([fixtureRecord({ label: 'r', stats })], [], 'seed');
    expect(s?.ci).toEqual(pairedBootstrap([{ before: 1, now: 0.9, tallies: { before: { passed: 10, total: 10 }, now: { passed: 9, total: 10 } } }], 'seed')?.ci);
    // It holds 0: one item's 10/10 -> 9/10 is within the noise of ten attempts.
    expect((s?.ci[0] ?? 0) < 0 && (s?.ci[1] ?? -1) >= 0).toBe(true);
  });

  it('is seeded by the suite hash: the same items in another order give the same seed, a shard names the whole suite', () => {
    const a = [flip('a', 'still_passing'), flip('b', 'newly_failing')];
    expect(statsSeed(a)).toBe(statsSeed([...a].reverse()));
    expect(statsSeed(a)).not.toBe(statsSeed([a[0] as FixtureRecord]));
    expect(statsSeed(a, { suiteHash: 'whole' })).toBe('whole');
  });
});

describe('a repeated fixture whose shown reply is its baseline\'s (docs/meaning.md, "Repeats")', () => {
  const policy = policyOf({});
  const repeat = { repeat: { count: 3, minPass: 1 } };
  const replies = (...r: string[]): FixtureRecord[] => r.map((reply) => attempt('pass', { reply }));
  const unchecked = { value: 'unchecked' as const, by: null, detail: 'meaning judge unreachable: HTTP 503' };
  const changed = { value: 'changed' as const, by: 'facts' as const, detail: 'numbers 30 → 14' };
  const reworded = { value: 'reworded' as const, by: 'judge' as const, detail: null, score: 0.93 };

  it('takes the worst attempt not the same in meaning, named; attempts only reworded leave it with none', () => {
    const b = baseline({ reply: 'a' });
    expect(finishFixture(repeat, replies('a', 'b', 'c'), b, policy, [null, unchecked, changed]).drift?.meaning).toEqual({ ...changed, detail: 'attempt 3: numbers 30 → 14' });
    expect(finishFixture(repeat, replies('a', 'b', 'c'), b, policy, [null, reworded, unchecked]).drift?.meaning).toEqual({ ...unchecked, detail: 'attempt 3: meaning judge unreachable: HTTP 503' });
    expect(finishFixture(repeat, replies('a', 'b', 'c'), b, policy, [null, reworded, reworded]).drift?.meaning).toBeUndefined();
  });

  it('says nothing of attempts without a baseline: the item is new, attempt 1 no earlier reply', () => {
    expect(finishFixture(repeat, replies('a', 'b', 'c'), null, policy, [null, null, changed]).drift?.meaning).toBeUndefined();
  });
});
