// A fixture's assertion as a list of checks (docs/fixtures.md, "Assertions"): one check, or
// `assert: [...]` whose checks must all pass. At most one of them is a judge assertion, so the
// record's score, threshold and rationale, the judge fingerprint and judge reuse stay one judge's.

import type { Assertion, AssertionCheck, SingleAssertion, Verdict } from '../types.js';

export type JudgeAssertion = Extract<SingleAssertion, { kind: 'judge' }>;

/** The checks of an assertion in order: none for a probe, the list's for a list, else the one. */
export function checksOf(assertion: Assertion | null): readonly SingleAssertion[] {
  if (assertion === null) return [];
  return assertion.kind === 'all' ? assertion.assertions : [assertion];
}

/** The judge check of an assertion (alone or in a list), or null. */
export function judgeAssertionOf(assertion: Assertion | null): JudgeAssertion | null {
  // Without checksOf's array for one check: asked of every fixture of a suite as it loads.
  if (assertion === null || assertion.kind !== 'all') return assertion?.kind === 'judge' ? assertion : null;
  return assertion.assertions.find((a): a is JudgeAssertion => a.kind === 'judge') ?? null;
}

/**
 * A list's verdict: fail when any check failed (a check that ran to the end and failed is an
 * answer, whatever the others did), else not evaluated when any did not run, else pass.
 */
export function listVerdict(checks: readonly Pick<AssertionCheck, 'status'>[]): Verdict {
  if (checks.some((c) => c.status === 'fail')) return 'fail';
  if (checks.some((c) => c.status === 'not_evaluated')) return 'not_evaluated';
  return 'pass';
}

/** A list's detail line: how many checks gave its verdict, and theirs ("1 of 2 checks failed: ..."). */
export function listDetail(checks: readonly Pick<AssertionCheck, 'status' | 'detail'>[]): string {
  const verdict = listVerdict(checks);
  const n = checks.length;
  if (verdict === 'pass') return `all ${n} checks passed: ${checks.map((c) => c.detail).join('; ')}`;
  const named = checks.filter((c) => c.status === verdict);
  const words = verdict === 'fail' ? 'failed' : 'not evaluated';
  // Checks that did not run for one reason (the turn's spans never came: docs/traces.md) say it once.
  const details = verdict === 'fail' ? named.map((c) => c.detail) : [...new Set(named.map((c) => c.detail))];
  return `${named.length} of ${n} checks ${words}: ${details.join('; ')}`;
}
