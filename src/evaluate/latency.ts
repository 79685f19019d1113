// Latency figures over the recorded turns (docs/latency.md): an item's sums and a run's p50 / p95.
// Pure: it reads records and returns numbers. A turn without a measured latency (an older record,
// a client that does not measure) counts for nothing, and none at all gives null, never 0.

import type { Faster, FixtureRecord, LatencyThresholds, PersonaRecord, RunLatency, Slower, SlowerStep, TimeSplit, Turn } from '../types.js';
import { kindOf } from './kind.js';
import { durationText } from '../words.js';

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

/** A repeated item's attempt, fixture or script, as its latency is read. */
type TimedAttempt = { errored?: boolean } & ({ latencyMs?: number | null } | { turns: readonly Turn[] });

/**
 * The attempts a repeated item's latency is the median of, each with its latency, in attempt order:
 * those measured that did not error (a script's errored attempt stopped part-way, and its sum is not
 * a whole conversation's), or every measured one when all errored.
 */
function measuredAttempts<A extends TimedAttempt>(attempts: readonly A[]): { a: A; ms: number }[] {
  const measured: { a: A; ms: number }[] = [];
  for (const a of attempts) {
    const ms = kindOf(a) === 'script' ? scriptLatency((a as { turns: readonly Turn[] }).turns).latencyMs : (a as { latencyMs?: number | null }).latencyMs;
    if (typeof ms === 'number') measured.push({ a, ms });
  }
  const completed = measured.filter((m) => m.a.errored !== true);
  return completed.length > 0 ? completed : measured;
}

/**
 * An item's latency, the one compared with its baseline and kept by an acceptance: a fixture's
 * message turn, a script's sum over its turns; a repeated item's, the median of its attempts' that
 * did not error (docs/latency.md, "Slower than the baseline").
 * Undefined in an older record (nothing measured at all), null when the item was not measured.
 */
export function itemLatencyMs(record: Pick<FixtureRecord, 'latencyMs'> & { attempts?: readonly TimedAttempt[] }): number | null | undefined {
  if (record.attempts === undefined || record.attempts.length === 0) return record.latencyMs;
  const values = measuredAttempts(record.attempts).map((m) => m.ms);
  if (values.length === 0) return record.latencyMs === undefined ? undefined : null;
  return median(values);
}

/**
 * A repeated item's median attempt (docs/traces.md, "Slower"): the one whose latency is the item's,
 * of an even count the slower of the two middle ones (the first of equals), among the attempts the
 * latency is the median of; null when no attempt was measured, or the item ran once.
 */
export function medianAttempt<A extends TimedAttempt>(attempts: readonly A[] | undefined): A | null {
  if (attempts === undefined || attempts.length === 0) return null;
  const measured = measuredAttempts(attempts);
  if (measured.length === 0) return null;
  const ms = ([...measured].sort((x, y) => x.ms - y.ms)[Math.floor(measured.length / 2)] as { ms: number }).ms;
  // Of attempts that took the same time, the first in attempt order (`measured` keeps it).
  return (measured.find((m) => m.ms === ms) as { a: A }).a;
}

/**
 * An item's time split, the one the slower line names its step from and an acceptance keeps
 * (docs/traces.md, "Slower"): a fixture's message turn, a script's turns summed; a repeated item's,
 * its median attempt's, so that the split is of the attempt whose latency is compared.
 */
export function itemTimeSplit(record: { time?: TimeSplit | null; turns?: readonly Turn[]; attempts?: readonly (TimedAttempt & { time?: TimeSplit | null })[] }): TimeSplit | null {
  const median = medianAttempt(record.attempts);
  const source = median ?? record;
  if ('turns' in source && source.turns !== undefined) return sumTimeSplits(source.turns.map((t) => t.time));
  return (source as { time?: TimeSplit | null }).time ?? null;
}

/** The median: the middle value, or the mean of the two middle values of an even count. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Slower than the baseline (docs/latency.md): more than `slowerBy` of the baseline's latency and
 * more than `minDeltaMs` over it, both strictly. Null when either side was not measured.
 */
export function slowerThanBaseline(latencyMs: number | null | undefined, baselineMs: number | null | undefined, t: LatencyThresholds): Slower | null {
  if (typeof latencyMs !== 'number' || typeof baselineMs !== 'number') return null;
  const delta = latencyMs - baselineMs;
  // The fraction's product is rounded to binary (1500 x 0.29 is 434.99999999999994): within one part
  // in 10^12 of it is exactly that much over, not more. A latency is whole ms or a median's half.
  return delta > t.minDeltaMs && delta > baselineMs * t.slowerBy * (1 + 1e-12) ? { baselineMs, latencyMs } : null;
}

/**
 * Faster than the baseline (docs/latency.md, "Views"): the rule of slowerThanBaseline mirrored, the
 * baseline's latency more than `slowerBy` of the item's and more than `minDeltaMs` over it, so that
 * 210 ms → 209 ms is about the same, not faster. Null when either side was not measured.
 */
export function fasterThanBaseline(latencyMs: number | null | undefined, baselineMs: number | null | undefined, t: LatencyThresholds): Faster | null {
  const mirrored = slowerThanBaseline(baselineMs, latencyMs, t);
  return mirrored === null ? null : { baselineMs: mirrored.latencyMs, latencyMs: mirrored.baselineMs };
}

/**
 * "1.2 s → 2.9 s" (under a second: "450 ms → 900 ms"): how a slower item is shown in every surface;
 * with the step that grew most, when traces gave both sides a time split (docs/traces.md, "Slower"):
 * "1.2 s → 2.9 s (tool lookup_order 200 ms → 1.9 s)".
 */
export function slowerText(s: Slower): string {
  const step = s.step == null ? '' : ` (${stepText(s.step)})`;
  return `${durationText(s.baselineMs)} → ${durationText(s.latencyMs)}${step}`;
}

/** "tool lookup_order 200 ms → 1.9 s", "model 800 ms → 2.1 s", "other 100 ms → 900 ms"; a tool step of no known name: "tools ...". */
export function stepText(step: SlowerStep): string {
  const what = step.kind === 'tool' ? (step.name === null ? 'tools' : `tool ${step.name}`) : step.kind;
  return `${what} ${durationText(step.baselineMs)} → ${durationText(step.latencyMs)}`;
}

/**
 * The step that grew most between a baseline's time split and now (docs/traces.md, "Slower"): each
 * tool by name (a tool absent on one side took 0 there), the model, and other. Null when no step
 * grew. A tie goes to a tool (by name), then the model, then other: a named step says most. When
 * neither side names its tools, their total is one step of no name.
 */
export function slowerStep(now: TimeSplit, baseline: TimeSplit): SlowerStep | null {
  const steps: SlowerStep[] = [];
  if (now.tools === undefined && baseline.tools === undefined) {
    steps.push({ kind: 'tool', name: null, baselineMs: baseline.toolMs, latencyMs: now.toolMs });
  } else {
    const names = [...new Set([...Object.keys(now.tools ?? {}), ...Object.keys(baseline.tools ?? {})])].sort();
    for (const name of names) steps.push({ kind: 'tool', name, baselineMs: toolMsOf(baseline, name), latencyMs: toolMsOf(now, name) });
  }
  steps.push({ kind: 'model', name: null, baselineMs: baseline.modelMs, latencyMs: now.modelMs });
  steps.push({ kind: 'other', name: null, baselineMs: baseline.otherMs, latencyMs: now.otherMs });
  let best: SlowerStep | null = null;
  for (const s of steps) if (s.latencyMs - s.baselineMs > 0 && (best === null || s.latencyMs - s.baselineMs > best.latencyMs - best.baselineMs)) best = s;
  return best;
}

/**
 * An item's time split: its turns' splits summed, each tool by name (docs/traces.md, "Time"). Null
 * when no turn has one (a turn without spans adds nothing).
 */
export function sumTimeSplits(splits: readonly (TimeSplit | null | undefined)[]): TimeSplit | null {
  const present = splits.filter((t): t is TimeSplit => t != null);
  if (present.length === 0) return null;
  const sum: TimeSplit = { modelMs: 0, toolMs: 0, otherMs: 0 };
  // By name in a Map: a tool's name is the agent's, and may be `constructor` or `__proto__`.
  let tools: Map<string, number> | null = null;
  for (const t of present) {
    sum.modelMs += t.modelMs;
    sum.toolMs += t.toolMs;
    sum.otherMs += t.otherMs;
    if (t.tools === undefined) continue;
    tools ??= new Map();
    for (const [name, ms] of Object.entries(t.tools)) tools.set(name, (tools.get(name) ?? 0) + ms);
  }
  if (tools !== null) sum.tools = Object.fromEntries(tools);
  return sum;
}

/** A tool's own time in a split, 0 when it did not run: only the split's own keys (a tool may be named `constructor`). */
function toolMsOf(split: TimeSplit, name: string): number {
  return split.tools !== undefined && Object.hasOwn(split.tools, name) ? (split.tools[name] as number) : 0;
}

/**
 * A persona script's time splits for naming the slower step (docs/traces.md, "Slower"), now and on
 * its baseline, over the same turns: turns are paired by number (the welcome turn, 0, with the
 * baseline's welcome turn, its message null; the opening, 1, with the baseline's opening, and so
 * on), and a turn whose time is split on one side only (its spans did not come on the other run, or
 * the baseline was accepted before they did) is left out of both, so that its whole time is not read
 * as a step that grew (or shrank). A turn on one side only (a longer or shorter conversation, a
 * welcome turn new since the baseline) took nothing on the other and counts as it is. Null on a side
 * with no split.
 */
export function scriptTimeSplits(
  turns: readonly { index: number; time?: TimeSplit | null }[],
  transcript: readonly { message: string | null; time?: TimeSplit | null }[],
): { now: TimeSplit | null; baseline: TimeSplit | null } {
  const stored = new Map<number, TimeSplit | null>();
  const welcome = transcript[0]?.message === null;
  transcript.forEach((b, i) => stored.set(welcome ? i : i + 1, b.time ?? null));
  const now: (TimeSplit | null)[] = [];
  const baseline: (TimeSplit | null)[] = [];
  for (const t of turns) {
    const time = t.time ?? null;
    const b = stored.get(t.index);
    stored.delete(t.index);
    if (b !== undefined && (time === null) !== (b === null)) continue;
    now.push(time);
    baseline.push(b ?? null);
  }
  // The baseline's turns that have none now, one at a time: a baseline file may hold more turns than push(...) takes arguments.
  for (const b of stored.values()) baseline.push(b);
  return { now: sumTimeSplits(now), baseline: sumTimeSplits(baseline) };
}

/**
 * The latency an acceptance writes into the baseline (docs/latency.md): the item's, null when it
 * was not measured; nothing from an older record that has no latency at all.
 */
export function baselineLatency(record: Parameters<typeof itemLatencyMs>[0]): { latencyMs?: number | null } {
  const ms = itemLatencyMs(record);
  return ms === undefined ? {} : { latencyMs: ms };
}
