// Latency figures over the recorded turns (docs/latency.md): an item's sums and a run's p50 / p95.
// Pure: it reads records and returns numbers. A turn without a measured latency (an older record,
// a client that does not measure) counts for nothing, and none at all gives null, never 0.

import type { FixtureRecord, PersonaRecord, RunLatency, Turn } from '../types.js';

/** A persona script's sums over its completed turns, welcome included. */
export function scriptLatency(turns: readonly Turn[]): { latencyMs: number | null; firstTokenMs: number | null } {
  return { latencyMs: sumOf(turns.map((t) => t.latencyMs)), firstTokenMs: sumOf(turns.map((t) => t.firstTokenMs)) };
}

/**
 * p50 / p95 of the run's message-turn latencies, nearest rank: a fixture's message turn and every
 * persona turn but the welcome. Null when no turn was measured.
 */
export function runLatency(fixtures: readonly FixtureRecord[], personas: readonly PersonaRecord[]): RunLatency | null {
  const values: number[] = [];
  for (const f of fixtures) if (typeof f.latencyMs === 'number') values.push(f.latencyMs);
  for (const p of personas) for (const t of p.turns) if (t.index > 0 && typeof t.latencyMs === 'number') values.push(t.latencyMs);
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  return { turns: values.length, p50Ms: nearestRank(values, 50), p95Ms: nearestRank(values, 95) };
}

/** The nearest-rank percentile of sorted values: the value at rank ceil(p/100 x n). */
export function nearestRank(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

function sumOf(values: readonly (number | null | undefined)[]): number | null {
  let sum: number | null = null;
  for (const v of values) if (typeof v === 'number') sum = (sum ?? 0) + v;
  return sum;
}
