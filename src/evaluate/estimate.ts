// The cost estimate taken before anything is spent, and the cap (docs/semantics.md#cost). Pure.

import type { Assertion, Estimate, PersonaScript } from '../types.js';
import { DEFAULT_SIMULATOR_CALL_USD, type CostConfig } from '../config.js';
import { personaTurns, simulatorCallsOf } from './personas.js';
import { judgeAssertionOf } from '../assertions/list.js';

/** Rounds a dollar amount to a millionth of a dollar, avoiding float noise like 0.30000000000000004. */
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
 * Agent turns the estimate prices: `fixtures` (one per attempt) x turns per fixture, and every
 * turn of the persona scripts given (one per attempt), the welcome turn when the agent has one.
 */
export function agentTurnsOf(fixtures: number, cost: Pick<CostConfig, 'turnsPerFixture'>, welcomeTurn: boolean, personas: readonly Pick<PersonaScript, 'followUps' | 'user'>[]): number {
  return fixtures * turnsPerFixture(cost, welcomeTurn) + personas.reduce((n, p) => n + personaTurns(p, welcomeTurn), 0);
}

/**
 * Estimated cost, computed before anything is spent, from flat per-call guesses. A persona script
 * costs every turn (the welcome turn only when the agent has one) and one judge call per criterion.
 * `judgeCallsPerCriterion` is the size of a panel of judges (every member is called), else 1; 0
 * without a judge. `simulated` false: no simulator can be made (neither `simulator:` nor `judge:`),
 * so a simulated script's live turns are not evaluated and cost no simulator call.
 */
export function estimateCost(
  assertions: readonly (Assertion | null)[],
  cost: CostConfig,
  confirmed: boolean,
  agent: { welcomeTurn: boolean },
  personas: readonly Pick<PersonaScript, 'followUps' | 'expect' | 'user' | 'opening'>[] = [],
  judgeCallsPerCriterion = 1,
  meaningCalls = 0,
  simulated = true,
): Estimate {
  const agentUsd = agentTurnsOf(assertions.length, cost, agent.welcomeTurn, personas) * cost.agentTurnUsd;
  const judgeUsd = (judgeCalls(assertions) + criteriaCount(personas)) * judgeCallsPerCriterion * cost.judgeCallUsd;
  // A simulated script: a simulator call per message turn but the scripted opening, at most (docs/simulated-users.md, "Cost: estimate and spend").
  const simulatorUsd = (simulated ? simulatorCalls(personas) : 0) * (cost.simulatorCallUsd ?? DEFAULT_SIMULATOR_CALL_USD);
  // Meaning calls at most (docs/meaning.md, "Costs"), at the judge's price: an upper bound.
  const meaningUsd = meaningCalls * cost.judgeCallUsd;
  const usd = roundUsd(agentUsd + judgeUsd + simulatorUsd + meaningUsd);
  return { usd, capUsd: cost.capUsd, aboveCap: usd > cost.capUsd + 1e-12, confirmed, ...(meaningCalls > 0 ? { meaningCalls } : {}) };
}

/**
 * Adaptive attempts (docs/statistics.md, "The estimate"): `upper` counts max attempts for the
 * `items` that could get extra ones, an upper bound; `atCount` the same run with none, the range's
 * low end. No such item (atCount null): `upper` unchanged.
 */
export function withAdaptiveRange(upper: Estimate, atCount: Estimate | null, items: number): Estimate {
  if (atCount === null || items === 0) return upper;
  return { ...upper, adaptive: { items, lowUsd: atCount.usd } };
}

/** One item as the meaning estimate sees it: its replies per attempt, its attempts, whether it has a baseline. */
export interface MeaningEstimateItem {
  /** Replies one attempt compares: 1 for a fixture; a script's message turns. */
  replies: number;
  /** Repeat count. */
  attempts: number;
  baseline: boolean;
}

/**
 * Meaning calls a run makes at most with `meaning.check: judge` (docs/meaning.md, "Costs"): every
 * attempt's replies against the baseline's when the item has one, and every attempt after the
 * first against attempt 1's. Most are never made: an equal reply, normalize, a variant, the facts
 * or an earlier identical call decide without one.
 */
export function meaningCallsAtMost(items: readonly MeaningEstimateItem[]): number {
  return items.reduce((n, i) => n + i.replies * ((i.baseline ? i.attempts : 0) + (i.attempts - 1)), 0);
}

/** Judge calls persona scripts make: one per criterion. */
export function criteriaCount(personas: readonly Pick<PersonaScript, 'expect'>[]): number {
  return personas.reduce((n, p) => n + p.expect.criteria.length, 0);
}

/** Simulator calls simulated scripts may make at most. */
export function simulatorCalls(personas: readonly Pick<PersonaScript, 'user' | 'opening'>[]): number {
  return personas.reduce((n, p) => n + simulatorCallsOf(p), 0);
}

/** A run above the cap spends nothing unless confirmed. */
export function mayRun(estimate: Estimate): boolean {
  return !estimate.aboveCap || estimate.confirmed;
}
