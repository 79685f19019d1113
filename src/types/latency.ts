// Timing and token usage (docs/latency.md).
import type { SlowerStep } from './trace.js';

/**
 * One answered turn's timing on the agent client's clock (docs/latency.md): request sent to the
 * last byte, and to the first non-empty text delta of a streamed reply (null otherwise).
 */
export interface TurnTiming {
  latencyMs: number;
  firstTokenMs: number | null;
}

/**
 * Tokens a response reported (docs/latency.md, "Usage"), read from the vendor's own field; never
 * estimated, never a bill. Summed per item and per run; null wherever nothing was reported.
 */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** p50 / p95 (nearest rank) of the message turns' latency, and how many turns they are over. */
export interface RunLatency {
  turns: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * An item slower than its baseline (docs/latency.md, "Slower than the baseline"): more than
 * `latency.slowerBy` and more than `latency.minDeltaMs` over the baseline's latency. `latencyMs` is
 * the item's (a repeated item's: the median of its attempts').
 */
export interface Slower {
  baselineMs: number;
  latencyMs: number;
  /** The step that grew most, when both the item and its baseline have a time split from traces (docs/traces.md); absent otherwise. */
  step?: SlowerStep | null;
}

/**
 * An item faster than its baseline (docs/latency.md, "Views"): the latency rule mirrored, its
 * baseline's latency more than `latency.slowerBy` and more than `latency.minDeltaMs` over the item's.
 */
export interface Faster {
  baselineMs: number;
  latencyMs: number;
}

/** config.yml `latency` (docs/latency.md): both thresholds strict ("more than"). */
export interface LatencyThresholds {
  /** A fraction of the baseline's latency: 0.5 is 50% slower. */
  slowerBy: number;
  minDeltaMs: number;
}
