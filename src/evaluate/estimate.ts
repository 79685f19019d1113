// The cost estimate taken before anything is spent, and the cap (docs/semantics.md#cost). Pure.

import type { Assertion, Estimate, PersonaScript } from '../types.js';
import { DEFAULT_SIMULATOR_CALL_USD, type CostConfig } from '../config.js';
import { personaTurns, simulatorCallsOf } from './personas.js';

/** Rounds a dollar amount to a tenth of a cent, avoiding float noise like 0.30000000000000004. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

export function judgeCalls(assertions: readonly (Assertion | null)[]): number {
  return assertions.filter((a) => a?.kind === 'judge').length;
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
 * `judgeCallsPerCriterion` is the size of a panel of judges (every member is called), else 1.
 */
export function estimateCost(
  assertions: readonly (Assertion | null)[],
  cost: CostConfig,
  confirmed: boolean,
  agent: { welcomeTurn: boolean },
  personas: readonly Pick<PersonaScript, 'followUps' | 'expect' | 'user'>[] = [],
  judgeCallsPerCriterion = 1,
): Estimate {
  const scriptTurns = personas.reduce((n, p) => n + personaTurns(p, agent.welcomeTurn), 0);
  const agentUsd = (assertions.length * turnsPerFixture(cost, agent.welcomeTurn) + scriptTurns) * cost.agentTurnUsd;
  const judgeUsd = (judgeCalls(assertions) + criteriaCount(personas)) * judgeCallsPerCriterion * cost.judgeCallUsd;
  // A simulated script: maxTurns simulator calls at most (docs/personas.md, "Simulated users").
  const simulatorUsd = simulatorCalls(personas) * (cost.simulatorCallUsd ?? DEFAULT_SIMULATOR_CALL_USD);
  const usd = roundUsd(agentUsd + judgeUsd + simulatorUsd);
  return { usd, capUsd: cost.capUsd, aboveCap: usd > cost.capUsd + 1e-12, confirmed };
}

/** Judge calls persona scripts make: one per criterion. */
export function criteriaCount(personas: readonly Pick<PersonaScript, 'expect'>[]): number {
  return personas.reduce((n, p) => n + p.expect.criteria.length, 0);
}

/** Simulator calls simulated scripts may make at most. */
export function simulatorCalls(personas: readonly Pick<PersonaScript, 'user'>[]): number {
  return personas.reduce((n, p) => n + simulatorCallsOf(p), 0);
}

/** A run above the cap spends nothing unless confirmed. */
export function mayRun(estimate: Estimate): boolean {
  return !estimate.aboveCap || estimate.confirmed;
}
