import type { Outcome } from '../types.js';

/** A latency in ms for a detail line: whole ms, or tenths when the value has them. */
function msText(ms: number): string {
  return `${Number(ms.toFixed(1))} ms`;
}

/**
 * `assert: {maxLatencyMs: N}` (docs/latency.md): the fixture's message turn took at most N ms
 * (more than N fails, strictly). Not evaluated when the agent client measured no latency.
 */
export function evaluateMaxLatency(budgetMs: number, latencyMs: number | null): Outcome {
  if (latencyMs === null) return { verdict: 'not_evaluated', detail: `latency not measured: the agent client reported no time for the message turn (budget ${budgetMs} ms)` };
  return latencyMs > budgetMs
    ? { verdict: 'fail', detail: `latency ${msText(latencyMs)}, over the budget of ${budgetMs} ms` }
    : { verdict: 'pass', detail: `latency ${msText(latencyMs)}, within ${budgetMs} ms` };
}
