// Coverage gaps (docs/evaluations.md#coverage): the conversations config.yml lists against those the run
// visited, over all items and all turns. Names match by the `conversations:` prefix rule of
// docs/personas.md. Pure.

import type { CoverageResult, RunRecord } from '../types.js';
import { conversationName } from './personas.js';

/** Every `route.conversation` of the run: each fixture's reply, every turn of every script (welcome included), first-seen order. */
export function runVisited(run: Pick<RunRecord, 'fixtures' | 'personas'>): string[] {
  const seen: string[] = [];
  const add = (name: string): void => {
    if (!seen.includes(name)) seen.push(name);
  };
  for (const f of run.fixtures) if (f.route !== null) add(f.route.conversation);
  for (const p of run.personas) for (const t of p.turns) if (t.route !== null) add(t.route.conversation);
  return seen;
}

/** Gaps (listed, never visited) and unknowns (visited, not listed) of a run. */
export function coverage(listed: readonly string[], visited: readonly string[]): CoverageResult {
  const visitedNames = new Set(visited.map(conversationName));
  const listedNames = new Set(listed.map(conversationName));
  return {
    listed: [...listed],
    visited: [...visited],
    gaps: listed.filter((c) => !visitedNames.has(conversationName(c))),
    unknown: visited.filter((c) => !listedNames.has(conversationName(c))),
  };
}

/** The run's coverage; null when config.yml lists no conversations. */
export function runCoverage(listed: readonly string[] | null, run: Pick<RunRecord, 'fixtures' | 'personas'>): CoverageResult | null {
  if (listed === null) return null;
  return coverage(listed, runVisited(run));
}

export interface CoverageChange {
  /** Gaps now that were not gaps before (by name, prefix rule). */
  newGaps: string[];
  /** Gaps before that are visited now (a gap taken off the list is not closed: docs/evaluations.md#coverage). */
  closedGaps: string[];
  newUnknown: string[];
  goneUnknown: string[];
}

function minus(a: readonly string[], b: readonly string[]): string[] {
  const names = new Set(b.map(conversationName));
  return a.filter((x) => !names.has(conversationName(x)));
}

/** What changed in coverage from one run to the next (for "since the previous run" and compare). */
export function coverageChange(before: CoverageResult, after: CoverageResult): CoverageChange {
  return {
    newGaps: minus(after.gaps, before.gaps),
    closedGaps: before.gaps.filter((g) => after.visited.some((v) => conversationName(v) === conversationName(g))),
    newUnknown: minus(after.unknown, before.unknown),
    goneUnknown: minus(before.unknown, after.unknown),
  };
}
