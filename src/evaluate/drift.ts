// Drift: the verdict comparison against the baseline and whether the reply and route changed
// (docs/semantics.md#drift). Pure.

import type { Baseline, Drift, DriftVerdict, FixtureRecord, PersonaDrift, PersonaRecord, Route, Verdict } from '../types.js';

/** The verdict comparison (docs/semantics.md#drift): exactly six values. */
export function driftVerdict(current: Verdict, baseline: Pick<Baseline, 'verdict'> | null): DriftVerdict {
  // Precedence: no baseline wins, even when the check was not evaluated this time.
  if (baseline === null) return 'no_baseline';
  if (current === 'not_evaluated') return 'not_evaluated';
  if (baseline.verdict === 'pass') return current === 'pass' ? 'still_passing' : 'newly_failing';
  return current === 'fail' ? 'still_failing' : 'newly_passing';
}

export function sameRoute(a: Route | null, b: Route | null): boolean {
  if (a === null || b === null) return a === b;
  return a.conversation === b.conversation && a.stage === b.stage;
}

/**
 * Drift of a replay that produced a reply. Errored replays have no drift at all (null),
 * which is the caller's business: this function is only called when a reply exists.
 */
export function computeDrift(
  current: Verdict,
  reply: string,
  route: Route | null,
  baseline: Baseline | null,
): Drift {
  const verdict = driftVerdict(current, baseline);
  if (baseline === null) return { reply: null, route: null, verdict };
  return {
    reply: baseline.reply === reply ? 'same' : 'different',
    route: sameRoute(baseline.route, route) ? 'same' : 'different',
    verdict,
  };
}

/** Did the reply (a fixture) or the transcript (a persona script) change? No drift (errored): no. */
export function replyChanged(drift: Drift | PersonaDrift | null): boolean {
  if (drift === null) return false;
  return 'reply' in drift ? drift.reply === 'different' : drift.transcript === 'different';
}

/** Drifted: the reply (transcript), the route or the verdict differs from the baseline. */
export function isDrifted(drift: Drift | PersonaDrift | null): boolean {
  if (drift === null) return false;
  return replyChanged(drift) || drift.route === 'different' || drift.verdict === 'newly_failing' || drift.verdict === 'newly_passing';
}

/** How many fixtures and persona scripts of a run drifted (the Action's `drifted` output). */
export function driftedCount(run: { fixtures: readonly Pick<FixtureRecord, 'drift'>[]; personas: readonly Pick<PersonaRecord, 'drift'>[] }): number {
  return run.fixtures.filter((f) => isDrifted(f.drift)).length + run.personas.filter((p) => isDrifted(p.drift)).length;
}
