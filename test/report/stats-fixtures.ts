// Runs with pass-rate statistics (docs/statistics.md) for the report tests and goldens: one item per
// tier. The record's `stats` are made by the statistics module itself (evaluate/stats.ts,
// run-stats.ts), as the run's finishing step makes them; the renderers only read them.

import { itemStats, runStatsOf, statsSeed } from '../../src/evaluate/index.js';
import type { FixtureRecord, RunRecord, Tally } from '../../src/types.js';
import { baseline, fixture, resetLines, run } from './fixtures.js';

const ALPHA = { alpha: 0.05, maxLooks: 1 };

/**
 * A fixture repeated `now.total` times with `now.passed` passes (minPass decides its verdict)
 * against a baseline of `base` attempts (null: no baseline).
 */
export function repeated(label: string, base: Tally | null, now: Tally, minPass: number, over: Partial<FixtureRecord> = {}): FixtureRecord {
  const verdict = now.passed >= minPass ? 'pass' : 'fail';
  const reply = `Reply for ${label}.`;
  const before = base === null ? null : base.passed * 2 >= base.total ? 'pass' : 'fail';
  const drift =
    before === null
      ? { reply: null, route: null, verdict: 'no_baseline' }
      : { reply: 'same', route: 'same', verdict: before === 'pass' ? (verdict === 'pass' ? 'still_passing' : 'newly_failing') : verdict === 'pass' ? 'newly_passing' : 'still_failing' };
  const stats = itemStats(base ?? { passed: 0, total: 0 }, now, ALPHA);
  return fixture(label, {
    reply,
    verdict,
    detail: `${now.passed}/${now.total} attempts passed (minPass ${minPass})${now.passed > 0 && now.passed < now.total ? ', flaky' : ''}`,
    repeat: { count: now.total, minPass, passed: now.passed, flaky: now.passed > 0 && now.passed < now.total },
    baseline: base === null ? null : { ...baseline(label, reply, before ?? 'pass'), ...(base.total > 1 ? { attempts: base } : {}) },
    drift,
    ...(stats === null ? {} : { stats }),
    ...over,
  } as Partial<FixtureRecord>);
}

/** A record around the fixtures with the run's `stats` as the run computes them. */
export function withRunStats(fixtures: FixtureRecord[]): RunRecord {
  const r = run(fixtures);
  const stats = runStatsOf(r.fixtures, [], statsSeed(r.fixtures));
  return stats === null ? r : { ...r, stats };
}

/** One item per tier: regressed (newly failing and still passing), likely regressed, improved, steady, too few, and one without a baseline. */
export function statsRun(): RunRecord {
  resetLines();
  return withRunStats([
    repeated('refund-window', { passed: 10, total: 10 }, { passed: 0, total: 3 }, 2),
    repeated('greeting', { passed: 10, total: 10 }, { passed: 6, total: 10 }, 5),
    repeated('order-status', { passed: 9, total: 10 }, { passed: 1, total: 3 }, 2),
    repeated('shipping-times', { passed: 0, total: 10 }, { passed: 3, total: 3 }, 2),
    repeated('opening-hours', { passed: 5, total: 5 }, { passed: 4, total: 5 }, 3),
    repeated('store-locations', { passed: 1, total: 1 }, { passed: 0, total: 2 }, 1),
    repeated('gift-cards', null, { passed: 2, total: 3 }, 2),
  ]);
}

/** Three items repeated 5 times (3 passes each) against baselines of one attempt (1/1). */
export function oneAttemptBaselines(): RunRecord {
  resetLines();
  return withRunStats(['a', 'b', 'c'].map((l) => repeated(l, { passed: 1, total: 1 }, { passed: 3, total: 5 }, 5)));
}

/** Items run once against 1-attempt baselines: no item `stats`, the run's McNemar test. */
export function flipsRun(): RunRecord {
  resetLines();
  const once = (label: string, before: 'pass' | 'fail', now: 'pass' | 'fail'): FixtureRecord => {
    const verdict = before === 'pass' ? (now === 'pass' ? 'still_passing' : 'newly_failing') : now === 'pass' ? 'newly_passing' : 'still_failing';
    return fixture(label, { verdict: now, baseline: baseline(label, `Reply for ${label}.`, before), drift: { reply: 'same', route: 'same', verdict } } as Partial<FixtureRecord>);
  };
  return withRunStats([once('a', 'pass', 'fail'), once('b', 'pass', 'fail'), once('c', 'pass', 'fail'), once('d', 'fail', 'pass'), once('e', 'pass', 'pass'), once('f', 'pass', 'pass')]);
}

/** `n` repeated items, mostly steady, every tenth regressed: the comment must stay small. */
export function manyStats(n: number): RunRecord {
  resetLines();
  const items: FixtureRecord[] = [];
  for (let i = 0; i < n; i++) {
    const label = `item-${String(i).padStart(4, '0')}`;
    items.push(i % 10 === 0 ? repeated(label, { passed: 10, total: 10 }, { passed: 6, total: 10 }, 5) : repeated(label, { passed: 10, total: 10 }, { passed: 3, total: 3 }, 2));
  }
  return withRunStats(items);
}
