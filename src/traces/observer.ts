// The span reader a run applies to its agent's turns (docs/traces.md, "What is read from spans"):
// `spanObserver` (agent/observe.ts) over the run's span source, reading each turn's spans with
// `readTurnSpans`, plus what only a run knows: which attempts of a turn were sent, under which
// parent span ids and when (a retried turn reads only the answered attempt's spans, its waterfall
// timed from that attempt's send: docs/traces.md, "Retried requests"), and why a turn's spans could
// not be read (docs/traces.md, "When spans do not arrive"), so that the checks that need them are
// not evaluated with that cause instead of failing.

import { spanObserver } from '../agent/observe.js';
import type { FixtureRecord, PersonaRecord, RefusedExports, SentTrace, Span, SpanCounts, SpanSource, TurnObserver, TurnReport, TurnSpans, WaterfallSpan } from '../types.js';
import { readTurnSpans, spanKind, spansOfAttempt, toolNameOf } from './map.js';
import { TraceStoreError } from './store-error.js';
import { plural } from '../words.js';

/** Most spans kept in a turn's waterfall (docs/traces.md, "In the reports"): the earliest first. */
export const MAX_WATERFALL = 50;

export interface TraceObserverOptions {
  /** Where the agent should send its spans, or where they are read from, for the not-evaluated cause: "http://127.0.0.1:4318/v1/traces". */
  endpoint: string;
  /** True for a receiver (the agent exports to it), false for a store queried by trace id. */
  receiving: boolean;
  waitMs: number;
  /** Wall-clock time in ms since the epoch, as span times are; injected by tests. */
  now?: () => number;
}

/** The run's turn observer over `source` (docs/traces.md). */
export function traceObserver(source: SpanSource, opts: TraceObserverOptions): TurnObserver {
  const now = opts.now ?? Date.now;
  // Each attempt of a turn, by trace id: the parent span id it sent and when it was sent (the last
  // registration of an id wins: a traceparent fixed in agent.headers sends one id on every attempt).
  const sent = new Map<string, { spanId: string; atMs: number }[]>();
  // A store's failure (TraceStoreError) is this turn's cause, not the run's: its spans are unknown.
  const failures = new Map<string, string>();
  const guarded: SpanSource = {
    register: (traceId, spanId) => {
      const attempt = { spanId, atMs: now() };
      const attempts = sent.get(traceId);
      if (attempts === undefined) sent.set(traceId, [attempt]);
      else {
        const i = attempts.findIndex((a) => a.spanId === spanId);
        if (i >= 0) attempts[i] = attempt;
        else attempts.push(attempt);
      }
      source.register(traceId, spanId);
    },
    collect: async (traceId, spanId, signal) => {
      try {
        return await source.collect(traceId, spanId, signal);
      } catch (e) {
        if (!(e instanceof TraceStoreError)) throw e;
        failures.set(traceId, e.message);
        return { spans: [], complete: false };
      }
    },
    late: (traceId, read) => source.late(traceId, read),
    close: () => source.close(),
  };
  const read = (fromResponse: TurnReport, got: TurnSpans, trace: SentTrace): TurnReport => {
    const failure = failures.get(trace.traceId);
    failures.delete(trace.traceId);
    const attempts = sent.get(trace.traceId) ?? [];
    const ofTrace = got.spans.filter((s) => s.traceId === trace.traceId);
    // A retried turn is what its answered attempt did: the failed attempts' spans are not read.
    const retried = attempts.length > 1;
    const spans = spansOfAttempt(ofTrace, trace.spanId, retried);
    if (spans.length === 0) {
      // No span at all: the agent did not export, or the store has nothing. What the response
      // reported still stands; the calls it could not report are unknown, and said so.
      const problem = failure ?? (retried && ofTrace.length > 0 ? notUnderAttemptCause(trace.traceId, ofTrace.length, opts) : noSpansCause(trace.traceId, opts, source.foreign?.() ?? 0, source.refused?.() ?? null));
      return { ...fromResponse, toolCalls: null, toolCallsProblem: problem, spans: countsOf({ count: 0, ignored: 0 }, got), time: null, waterfall: null };
    }
    const reading = readTurnSpans(spans, { traceId: trace.traceId, latencyMs: fromResponse.latencyMs ?? null }, { toolCalls: fromResponse.toolCalls, usage: fromResponse.usage, errors: fromResponse.errors });
    // At waitMs without the top span, spans that hang from a span that never came are part of the
    // turn: a tool span may be on its way, so "no tool called" would be read from half a turn. Its
    // calls are unknown, as with no span at all; the errors that came stand (docs/traces.md, "When
    // a turn's spans are complete"). Root spans (an agent that does not continue the traceparent) miss nothing.
    const missing = got.complete ? null : missingParent(spans, trace.spanId);
    if (missing !== null) {
      return { ...fromResponse, toolCalls: null, toolCallsProblem: incompleteCause(trace.traceId, spans.length, missing, opts), errors: [...fromResponse.errors, ...reading.errors], spans: countsOf(reading.counts, got), time: null, waterfall: null };
    }
    // The waterfall's 0 is when the answered attempt was sent, after any backoff or wait for a slot.
    const sentAtMs = attempts.find((a) => a.spanId === trace.spanId)?.atMs ?? earliestStart(spans);
    return {
      toolCalls: reading.toolCalls,
      errors: [...fromResponse.errors, ...reading.errors],
      usage: reading.usage,
      spans: countsOf(reading.counts, got),
      time: reading.time,
      waterfall: waterfallOf(spans, trace.spanId, sentAtMs),
    };
  };
  return spanObserver(guarded, read);
}

/** The earliest start among `spans` (not empty). A loop: a turn may have any number of spans, more than a spread's arguments can take. */
function earliestStart(spans: readonly Span[]): number {
  let min = Infinity;
  for (const s of spans) if (s.startMs < min) min = s.startMs;
  return min;
}

/**
 * "no spans for trace <id> within 5 s: none came to http://127.0.0.1:4318/v1/traces for this request; does
 * the agent export there, with a span for each request it answers?";
 * when the receiver got spans of traces the run never sent (`foreign`), the agent does export, under
 * trace ids of its own: the cause says so and asks about the traceparent instead.
 */
export function noSpansCause(traceId: string, opts: Pick<TraceObserverOptions, 'endpoint' | 'receiving' | 'waitMs'>, foreign = 0, refused: RefusedExports | null = null): string {
  const within = `within ${secondsOf(opts.waitMs)}`;
  if (opts.receiving && refused !== null) return refusedCause(traceId, within, opts.endpoint, refused);
  if (opts.receiving && foreign > 0) {
    return `no spans for trace ${traceId} ${within}: ${plural(foreign, 'span', 'spans')} of traces agent-replay did not send came to ${opts.endpoint}; does the agent start its spans under the incoming traceparent?`;
  }
  // Worded true whether the agent exports nothing or only no span for this request: the turn is read
  // before later turns' spans arrive, so whether other turns had theirs is not known here (the run's
  // cause says which, src/evaluate/causes.ts).
  return opts.receiving
    ? `no spans for trace ${traceId} ${within}: none came to ${opts.endpoint} for this request; does the agent export there, with a span for each request it answers?`
    : `no spans for trace ${traceId} ${within} at ${opts.endpoint}: does the agent export to this store, and is traces.waitMs long enough for it to index them?`;
}

/**
 * "no spans for trace <id> within 5 s: none came to http://127.0.0.1:4318/v1/traces, and 6 exports
 * came to /v1/traces/v1/traces instead (refused, 404); set OTEL_EXPORTER_OTLP_ENDPOINT to
 * http://127.0.0.1:4318 (the SDK adds /v1/traces)": the agent exports to the receiver, refused for
 * its path or its content type, which the receiver saw and says (docs/traces.md, "When spans do not arrive").
 */
function refusedCause(traceId: string, within: string, endpoint: string, refused: RefusedExports): string {
  const base = endpoint.replace(/\/v1\/traces$/, '');
  const exports = plural(refused.count, 'export', 'exports');
  const head = `no spans for trace ${traceId} ${within}: none came to ${endpoint}, and ${exports}`;
  if (refused.path !== null) {
    return `${head} came to ${refused.path} instead (refused, 404); set OTEL_EXPORTER_OTLP_ENDPOINT to ${base} (the SDK adds /v1/traces), or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT to ${endpoint}`;
  }
  return `${head} came as ${refused.contentType ?? '(none)'} (refused, 415); set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json`;
}

/** The first parent a span names that is neither among the spans nor the sent span id, or null: nothing is missing. */
function missingParent(spans: readonly Span[], sentSpanId: string): string | null {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.find((s) => s.parentSpanId !== null && s.parentSpanId !== sentSpanId && !ids.has(s.parentSpanId))?.parentSpanId ?? null;
}

/** "spans for trace <id> incomplete within 5 s: 2 spans came, but not the span <id> they hang from; ..." */
export function incompleteCause(traceId: string, count: number, parent: string, opts: Pick<TraceObserverOptions, 'endpoint' | 'receiving' | 'waitMs'>): string {
  const head = `spans for trace ${traceId} incomplete within ${secondsOf(opts.waitMs)}${opts.receiving ? '' : ` at ${opts.endpoint}`}: ${plural(count, 'span', 'spans')} came, but not the span ${parent} they hang from`;
  return opts.receiving
    ? `${head}; does the agent flush its spans before it replies (forceFlush), and export them to ${opts.endpoint}?`
    : `${head}; is traces.waitMs long enough for the store to index them?`;
}

/**
 * A retried turn whose trace has spans, none of them under the parent span id its answered attempt
 * sent (docs/traces.md, "Retried requests"): the failed attempts' spans, or spans that do not
 * continue the incoming traceparent, which cannot be told apart by attempt.
 */
export function notUnderAttemptCause(traceId: string, count: number, opts: Pick<TraceObserverOptions, 'endpoint' | 'receiving' | 'waitMs'>): string {
  const within = `within ${secondsOf(opts.waitMs)}${opts.receiving ? '' : ` at ${opts.endpoint}`}`;
  const which = `the turn was retried, and none of the trace's ${plural(count, 'span', 'spans')} is under the traceparent of the attempt that answered (a failed attempt's spans are not the turn's)`;
  return opts.receiving
    ? `no spans of the answered attempt for trace ${traceId} ${within}: ${which}; does the agent start its spans under the incoming traceparent, and export them to ${opts.endpoint}?`
    : `no spans of the answered attempt for trace ${traceId} ${within}: ${which}; does the agent start its spans under the incoming traceparent, and is traces.waitMs long enough for the store to index them?`;
}

function secondsOf(ms: number): string {
  return ms % 1000 === 0 ? `${String(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A turn's waterfall (docs/traces.md, "In the reports"): its spans by start, at most 50, times in ms
 * from the send of the request that answered (`sentSpanId` is the parent span id it sent), depth
 * under the sent span (0: its child; a span whose parent is not among the turn's spans counts as a
 * child of the sent span).
 */
export function waterfallOf(spans: readonly Span[], sentSpanId: string, sentAtMs: number): WaterfallSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s] as const));
  const depths = new Map<string, number>();
  // Up the parents with a loop, not by recursion: the agent decides how deep its spans nest.
  const depthOf = (s: Span): number => {
    const path: Span[] = [];
    const onPath = new Set<string>();
    // The depth of the span above the path's top: -1 when the top has no parent among the spans.
    let above = -1;
    for (let at: Span | undefined = s; at !== undefined; ) {
      const known = depths.get(at.spanId);
      if (known !== undefined) {
        above = known;
        break;
      }
      path.push(at);
      onPath.add(at.spanId);
      const parent: Span | undefined = at.parentSpanId === null || at.parentSpanId === sentSpanId ? undefined : byId.get(at.parentSpanId);
      // A cycle of parents (a malformed export) ends at the span seen twice.
      at = parent === undefined || onPath.has(parent.spanId) ? undefined : parent;
    }
    for (let i = path.length - 1, d = above + 1; i >= 0; i--, d++) depths.set((path[i] as Span).spanId, d);
    return depths.get(s.spanId) as number;
  };
  // Spans that start in the same millisecond are drawn parent first: the OpenTelemetry JS SDK
  // stamps a span's start in whole milliseconds, so a span and its first child often share one, and
  // a child drawn above its parent would sit indented under the wrong row (docs/traces.md, "In the reports").
  const depth = new Map(spans.map((s) => [s, depthOf(s)] as const));
  return [...spans]
    // Then, as the turn's tool calls are listed (traces/map.ts), the one that ended first.
    .sort((a, b) => a.startMs - b.startMs || (depth.get(a) as number) - (depth.get(b) as number) || a.endMs - b.endMs || a.spanId.localeCompare(b.spanId))
    .slice(0, MAX_WATERFALL)
    .map((s): WaterfallSpan => {
      const kind = spanKind(s);
      return {
        name: s.name,
        kind: kind ?? 'other',
        tool: kind === 'tool' ? toolNameOf(s) : null,
        startMs: round(s.startMs - sentAtMs),
        durationMs: round(Math.max(0, s.endMs - s.startMs)),
        depth: depth.get(s) as number,
        status: s.status,
      };
    });
}

const round = (ms: number): number => Math.round(ms * 10) / 10;

/**
 * Which read of its trace each turn's counts came from (`TurnSpans.read`), by the counts object the
 * record keeps: the turns of a trace a traceparent fixed in agent.headers shares each count their own
 * late spans (docs/traces.md, "Counts").
 */
const readOfCounts = new WeakMap<SpanCounts, number>();

function countsOf(counts: Omit<SpanCounts, 'late'>, got: TurnSpans): SpanCounts {
  const out: SpanCounts = { ...counts, late: 0 };
  if (got.read !== undefined) readOfCounts.set(out, got.read);
  return out;
}

/**
 * Each traced turn's `spans.late`, from the source at the end of the run (docs/traces.md): the record's turns are updated in place.
 * A turn none of whose spans came within `waitMs` and whose spans came after it was read is not a
 * turn the agent made no span for: its cause, wherever the record says it (a check's detail, the
 * item's, a script turn's `toolCallsProblem`), is reworded to say they came late, with that fix
 * (`lateCause`; docs/traces.md, "When a turn's spans are complete").
 */
export function fillLateSpans(record: { fixtures: readonly FixtureRecord[]; personas: readonly PersonaRecord[] }, source: Pick<SpanSource, 'late'>): void {
  const cameLate = new Map<string, number>();
  const fill = (item: { traceId?: string | null; spans?: SpanCounts | null }): void => {
    if (item.traceId == null || item.spans == null) return;
    const read = readOfCounts.get(item.spans);
    item.spans = { ...item.spans, late: source.late(item.traceId, read) };
    if (item.spans.count === 0 && item.spans.late > 0 && !cameLate.has(item.traceId)) cameLate.set(item.traceId, item.spans.late);
    // A turn listed twice (a repeated script's shown attempt and its turns) is filled twice, alike.
    if (read !== undefined) readOfCounts.set(item.spans, read);
  };
  for (const f of record.fixtures) {
    fill(f);
    for (const a of f.attempts ?? []) fill(a as { traceId?: string | null; spans?: SpanCounts | null });
  }
  for (const p of record.personas) {
    for (const t of p.turns) fill(t);
    for (const a of p.attempts ?? []) for (const t of a.turns) fill(t);
  }
  if (cameLate.size === 0) return;
  const reword = (text: string): string => text.replace(NONE_CAME, (whole: string, traceId: string, within: string, endpoint: string) => {
    const late = cameLate.get(traceId);
    return late === undefined ? whole : lateCause(traceId, within, endpoint, late);
  });
  type Texts = { detail?: string; checks?: readonly { detail: string }[]; turns?: readonly { toolCallsProblem?: string }[] };
  const rewrite = (item: Texts): void => {
    if (typeof item.detail === 'string') item.detail = reword(item.detail);
    for (const c of item.checks ?? []) (c as { detail: string }).detail = reword(c.detail);
    for (const t of item.turns ?? []) if (t.toolCallsProblem !== undefined) t.toolCallsProblem = reword(t.toolCallsProblem);
  };
  for (const item of [...record.fixtures, ...record.personas] as Texts[]) {
    rewrite(item);
    for (const a of (item as { attempts?: Texts[] }).attempts ?? []) rewrite(a);
  }
}

/** The receiver's no-spans cause (`noSpansCause`), with its trace id, wait and endpoint. */
const NONE_CAME = /no spans for trace ([0-9a-f]{32}) within ([^:]+): none came to (\S+) for this request; does the agent export there, with a span for each request it answers\?/g;

/**
 * "no spans for trace <id> within 5 s: 4 spans came to http://127.0.0.1:4318/v1/traces after it; have
 * the agent flush its spans before it replies (forceFlush), or raise traces.waitMs": the agent
 * exports, late (docs/traces.md, "When a turn's spans are complete").
 */
export function lateCause(traceId: string, within: string, endpoint: string, late: number): string {
  return `no spans for trace ${traceId} within ${within}: ${plural(late, 'span', 'spans')} came to ${endpoint} after it; have the agent flush its spans before it replies (forceFlush), or raise traces.waitMs`;
}
