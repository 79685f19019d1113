// The cost estimate taken before anything is spent, and the cap (docs/semantics.md#cost). Pure.

import type { Assertion, Estimate, PersonaScript } from '../types.js';
import type { CostConfig } from '../config.js';
import { personaTurns } from './personas.js';
import { judgeAssertionOf } from '../assertions/list.js';

/** Rounds a dollar amount to a tenth of a cent, avoiding float noise like 0.30000000000000004. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

export function judgeCalls(assertions: readonly (Assertion | null)[]): number {
  return assertions.filter((a) => judgeAssertionOf(a) !== null).length;
}

/**
 * Agent turns one fixture costs: the configured `turnsPerFixture` when the user set it, else the
 * turns actually sent: the welcome turn (only when the agent has one) and the message.
 */
export function turnsPerFixture(cost: Pick<CostConfig, 'turnsPerFixture'>, welcomeTurn: boolean): number {
  return cost.turnsPerFixture ?? (welcomeTurn ? 2 : 1);
}

/**
 * Estimated cost, computed before anything is spent, from flat per-call guesses. A persona script
 * costs every turn (the welcome turn only when the agent has one) and one judge call per criterion.
 */
export function estimateCost(
  assertions: readonly (Assertion | null)[],
  cost: CostConfig,
  confirmed: boolean,
  agent: { welcomeTurn: boolean },
  personas: readonly Pick<PersonaScript, 'followUps' | 'expect'>[] = [],
): Estimate {
  const scriptTurns = personas.reduce((n, p) => n + personaTurns(p, agent.welcomeTurn), 0);
  const agentUsd = (assertions.length * turnsPerFixture(cost, agent.welcomeTurn) + scriptTurns) * cost.agentTurnUsd;
  const judgeUsd = (judgeCalls(assertions) + criteriaCount(personas)) * cost.judgeCallUsd;
  const usd = roundUsd(agentUsd + judgeUsd);
  return { usd, capUsd: cost.capUsd, aboveCap: usd > cost.capUsd + 1e-12, confirmed };
}

/** Judge calls persona scripts make: one per criterion. */
export function criteriaCount(personas: readonly Pick<PersonaScript, 'expect'>[]): number {
  return personas.reduce((n, p) => n + p.expect.criteria.length, 0);
}

/** A run above the cap spends nothing unless confirmed. */
export function mayRun(estimate: Estimate): boolean {
  return !estimate.aboveCap || estimate.confirmed;
}
