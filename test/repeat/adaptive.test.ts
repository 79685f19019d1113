// Adaptive attempts, done when (docs/statistics.md, "Adaptive attempts"): through the real CLI
// against a loopback agent whose pass or fail per item and attempt is drawn from a seeded
// generator. 60 items with 10-attempt baselines drawn at a pass probability of 0.9; 40 items are
// unchanged (still 0.9), 20 dropped to 0.2; the run is `repeat: {count: 3, minPass: 2, max: 10}`.
// Every item's tier, p-values (to 1e-9), looks and attempts equal the rules computed again here,
// straightforwardly, from the same outcomes (not by calling src/evaluate); at most 1 unchanged item
// is called regressed and at least 14 dropped ones are; the unchanged items average at most 4.5
// attempts; `fail-on: regressed` exits 1 exactly when some item is regressed.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/types.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';

useCleanup();

// ---- a seeded generator, written here (mulberry32 over an FNV-1a hash of the seed string) ----
function uniform(seed: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(seed)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  let t = (h + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const SEED = 'adaptive-done-when';
const UNCHANGED = Array.from({ length: 40 }, (_, i) => `u${String(i + 1).padStart(2, '0')}`);
const DROPPED = Array.from({ length: 20 }, (_, i) => `d${String(i + 1).padStart(2, '0')}`);
const LABELS = [...UNCHANGED, ...DROPPED];
const probabilityNow = (label: string): number => (label.startsWith('d') ? 0.2 : 0.9);
/** Attempt k (1-based) of the PR run. */
const passesNow = (label: string, k: number): boolean => uniform(`${SEED}/now/${label}/${k}`) < probabilityNow(label);
/** The baseline's 10 attempts, at 0.9 for every item. */
const baselinePasses = (label: string): number => Array.from({ length: 10 }, (_, k) => uniform(`${SEED}/baseline/${label}/${k + 1}`) < 0.9).filter(Boolean).length;

// ---- the spec's rules, computed again ----
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
/** One-sided Fisher: X = passes now ~ hypergeometric(all attempts, all passes, attempts now). */
function fisher(bPassed: number, bTotal: number, passed: number, total: number): { drop: number; rise: number } {
  const all = bTotal + total;
  const passes = bPassed + passed;
  const pmf = (x: number): number => (choose(passes, x) * choose(all - passes, total - x)) / choose(all, total);
  let drop = 0;
  let rise = 0;
  for (let x = 0; x <= total; x++) {
    if (x <= passed) drop += pmf(x);
    if (x >= passed) rise += pmf(x);
  }
  return { drop: Math.min(1, drop), rise: Math.min(1, rise) };
}

const COUNT = 3;
const MAX = 10;
const ALPHA = 0.05;

interface Expected {
  attempts: number;
  passed: number;
  looks: number;
  maxLooks: number;
  pDrop: number;
  pRise: number;
  tier: string;
  verdict: 'pass' | 'fail';
}

function expectedOf(label: string, bPassed: number): Expected {
  const maxLooks = Math.ceil(MAX / COUNT); // looks at 3, 6, 9 and 10
  const a = ALPHA / maxLooks;
  const passedIn = (n: number): number => Array.from({ length: n }, (_, k) => passesNow(label, k + 1)).filter(Boolean).length;
  // Rate fell by at least 15 points: bPassed/10 - k/n >= 0.15, in whole numbers.
  const fell15 = (k: number, n: number): boolean => (bPassed * n - k * 10) * 100 >= 15 * 10 * n;
  let n = COUNT;
  for (;;) {
    const k = passedIn(n);
    if (n >= MAX || fisher(bPassed, 10, k, n).drop < a || !fell15(k, n)) break;
    n += Math.min(COUNT, MAX - n);
  }
  const k = passedIn(n);
  const p = fisher(bPassed, 10, k, n);
  const tier = p.drop < a ? 'regressed' : p.drop < 0.2 && fell15(k, n) ? 'likely_regressed' : p.rise < a ? 'improved' : 'steady';
  // minPass 2 of 3, as a fraction of the attempts made: at least two thirds.
  const verdict = 3 * k >= 2 * n ? 'pass' : 'fail';
  return { attempts: n, passed: k, looks: Math.ceil(n / COUNT), maxLooks, pDrop: p.drop, pRise: p.rise, tier, verdict };
}

function baselineOf(label: string): Baseline {
  const passed = baselinePasses(label);
  return {
    label,
    reply: 'yes',
    route: null,
    verdict: 3 * passed >= 2 * 10 ? 'pass' : 'fail',
    attempts: { passed, total: 10 },
    acceptedAt: '2026-11-01T10:00:00.000Z',
    commit: 'a'.repeat(40),
  };
}

const FIXTURES = { 'f.yml': 'fixtures:\n' + LABELS.map((l) => `  - { label: ${l}, message: "${l}", assert: { contains: "yes" } }\n`).join('') };
const CONFIG = 'repeat:\n  count: 3\n  minPass: 2\n  max: 10\n';

describe('adaptive attempts: done when', () => {
  it('the independent Fisher agrees with SciPy', () => {
    // python3 -c "from scipy.stats import fisher_exact as f; print(f([[0, 3], [9, 1]], alternative='less')[1])"  -> 0.013986013986013986
    expect(fisher(9, 10, 0, 3).drop).toBeCloseTo(0.013986013986013986, 12);
    // ... f([[3, 6], [9, 1]], alternative='less') -> 0.017385091688497264
    expect(fisher(9, 10, 3, 9).drop).toBeCloseTo(0.017385091688497264, 12);
    // ... f([[5, 4], [9, 1]], alternative='less') -> 0.1191950464396285
    expect(fisher(9, 10, 5, 9).drop).toBeCloseTo(0.1191950464396285, 12);
  });

  it('tiers, p-values, looks and attempts equal the rules; false alarms, power, attempts spent and the gate', async () => {
    const server = await serve((req) => {
      const body = req.json as { message: string; session: string; start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
      const k = Number(/-(\d+)$/.exec(body.session)?.[1]);
      return { json: { reply: passesNow(body.message, k) ? 'yes' : 'no', route: null } };
    });
    const cwd = await makeProject({ config: agentConfig(server.url, '  concurrency: 8\n') + CONFIG, fixtures: FIXTURES, baselines: LABELS.map(baselineOf) });
    const r = await cli(['run', '--confirm-cost', '--fail-on', 'regressed', '--out', 'all.json'], cwd);
    expect(r.stderr).not.toMatch(/error|not run/);
    const record = await readResults(join(cwd, 'all.json'));
    expect(record.fixtures.map((f) => f.label).sort()).toEqual([...LABELS].sort());

    const tiers = new Map<string, string>();
    for (const f of record.fixtures) {
      const want = expectedOf(f.label, baselinePasses(f.label));
      const got = {
        attempts: f.attempts?.length ?? 1,
        passed: f.stats?.passed,
        looks: f.stats?.looks,
        maxLooks: f.stats?.maxLooks,
        tier: f.stats?.tier,
        verdict: f.verdict,
      };
      expect({ label: f.label, ...got }).toEqual({ label: f.label, attempts: want.attempts, passed: want.passed, looks: want.looks, maxLooks: want.maxLooks, tier: want.tier, verdict: want.verdict });
      expect(f.repeat?.count).toBe(want.attempts);
      expect(f.stats?.total).toBe(want.attempts);
      expect(f.stats?.pDrop).toBeCloseTo(want.pDrop, 9);
      expect(f.stats?.pRise).toBeCloseTo(want.pRise, 9);
      tiers.set(f.label, want.tier);
    }
    // Every request the agent saw is an attempt the record keeps: nothing spent on settled items.
    expect(server.requests.filter((q) => (q.json as { start?: boolean }).start !== true).length).toBe(record.fixtures.reduce((n, f) => n + (f.attempts?.length ?? 1), 0));

    const regressed = (labels: readonly string[]): number => labels.filter((l) => tiers.get(l) === 'regressed').length;
    expect(regressed(UNCHANGED)).toBeLessThanOrEqual(1);
    expect(regressed(DROPPED)).toBeGreaterThanOrEqual(14);
    const unchangedAttempts = record.fixtures.filter((f) => UNCHANGED.includes(f.label)).reduce((n, f) => n + (f.attempts?.length ?? 1), 0);
    expect(unchangedAttempts / UNCHANGED.length).toBeLessThanOrEqual(4.5);
    // Some items did get extra attempts, and none more than max.
    expect(record.fixtures.some((f) => (f.attempts?.length ?? 1) > COUNT)).toBe(true);
    expect(record.fixtures.every((f) => (f.attempts?.length ?? 1) <= MAX)).toBe(true);

    // The estimate counts max attempts for every item (each has a 10-attempt baseline): an upper bound, with its low end.
    expect(record.estimate.adaptive?.items).toBe(60);
    expect(record.estimate.adaptive?.lowUsd).toBeCloseTo((record.estimate.usd * COUNT) / MAX, 9);

    // fail-on: regressed exits 1 exactly when some item is regressed.
    expect(r.code).toBe(regressed(LABELS) > 0 ? 1 : 0);
    expect(r.code).toBe(1);
    const unchangedOnly = await cli(['run', '--confirm-cost', '--fail-on', 'regressed', '--only', 'u*', '--out', 'unchanged.json'], cwd);
    expect(unchangedOnly.code).toBe(regressed(UNCHANGED) > 0 ? 1 : 0);
    const again = await readResults(join(cwd, 'unchanged.json'));
    expect(again.fixtures.filter((f) => f.stats?.tier === 'regressed').length).toBe(regressed(UNCHANGED));
  }, 120_000);
});
