import type { Outcome } from '../types.js';
import { msWords } from '../words.js';

/** A latency in ms for a detail line, as the persona check writes it: digits grouped, tenths when the value has them. */
function msText(ms: number): string {
  return `${msWords(ms)} ms`;
}

/**
 * `assert: {maxLatencyMs: N}` (docs/latency.md): the fixture's message turn took at most N ms
 * (more than N fails, strictly). Not evaluated when the agent client measured no latency.
 */
export function evaluateMaxLatency(budgetMs: number, latencyMs: number | null): Outcome {
  if (latencyMs === null) return { verdict: 'not_evaluated', detail: `latency not measured: the agent client reported no time for the message turn (budget ${msText(budgetMs)})` };
  return latencyMs > budgetMs
    ? { verdict: 'fail', detail: `latency ${msText(latencyMs)}, over the budget of ${msText(budgetMs)}` }
    : { verdict: 'pass', detail: `latency ${msText(latencyMs)}, within ${msText(budgetMs)}` };
}
