// Tallies: the four counts of a run, derived from its records (docs/semantics.md#tallies). Pure.

import type { FixtureRecord, Tallies } from '../types.js';

/** Which tally a fixture counts in: errored has no verdict; a verdict is pass, fail or not evaluated. */
export function tallyOf(f: Pick<FixtureRecord, 'errored' | 'verdict'>): keyof Tallies {
  if (f.errored) return 'errored';
  if (f.verdict === 'pass') return 'passed';
  if (f.verdict === 'fail') return 'failed';
  return 'notEvaluated';
}

/** Totals are derived from the records, never kept as counters. */
export function tallies(fixtures: readonly Pick<FixtureRecord, 'errored' | 'verdict'>[]): Tallies {
  const t: Tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 0 };
  for (const f of fixtures) t[tallyOf(f)] += 1;
  return t;
}
