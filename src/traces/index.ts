// Where a run's spans come from (docs/traces.md): the receiver or a store's query client, from
// config.yml's `traces:`. The wiring into runs starts one source per run and closes it at the end.

import type { Network } from '../http/network.js';
import type { SpanSource, TracesConfig } from '../types.js';
import type { PollClock } from './query.js';
import type { Timers } from './receiver.js';

// The receiver and the query client (with protobufjs and the OTLP decoding) are imported when a
// run starts its span source, never by a run without `traces:` (docs/performance.md, "2026-12-02
// (late morning): the cold start again"): they are a chunk of their own in dist/.
export type { Receiver, Timers } from './receiver.js';
export type { PollClock } from './query.js';
import { TraceStoreError } from './store-error.js';
export { TraceStoreError };

/** A started span source and the line that says where it reads spans (for the run's log). */
export interface StartedSource {
  source: SpanSource;
  /** The run's log line (docs/traces.md, "Set-up"): "traces: receiving OTLP/HTTP on http://127.0.0.1:4318 (set OTEL_EXPORTER_OTLP_ENDPOINT to it)" or "traces: reading spans from tempo at https://...". */
  where: string;
  /**
   * Where spans go or come from, for the not-evaluated cause: the receiver's `/v1/traces` URL, or the
   * store's kind and URL without secrets, "tempo (https://...)", which the cause says "at" before.
   */
  endpoint: string;
  receiving: boolean;
}

/** Starts the source `traces:` names; a receiver's port in use is a UserError. */
export async function startSpanSource(config: TracesConfig, deps: { timers?: Timers; clock?: PollClock; network?: Network } = {}): Promise<StartedSource> {
  if (config.receive) {
    const { startReceiver } = await import('./receiver.js');
    const receiver = await startReceiver({ port: config.receive.port, ...(config.receive.portAt === undefined ? {} : { portAt: config.receive.portAt }), ...(config.receive.configName === undefined ? {} : { configName: config.receive.configName }), waitMs: config.waitMs, ...(deps.timers ? { timers: deps.timers } : {}) });
    return {
      source: receiver,
      where: `traces: receiving OTLP/HTTP on ${receiver.endpoint} (set OTEL_EXPORTER_OTLP_ENDPOINT to it)`,
      endpoint: `${receiver.endpoint}/v1/traces`,
      receiving: true,
    };
  }
  if (!config.query) throw new Error('traces has neither receive nor query');
  const { createQuerySource } = await import('./query.js');
  const { at, ...query } = config.query;
  const asked = createQuerySource({ ...query, waitMs: config.waitMs, ...(deps.clock ? { clock: deps.clock } : {}), ...(deps.network ? { network: deps.network } : {}) });
  const source: SpanSource = at === undefined ? asked : { ...asked, collect: (traceId, spanId, signal) => asked.collect(traceId, spanId, signal).catch((e: unknown) => Promise.reject(e instanceof TraceStoreError ? new TraceStoreError(settingsAt(e.message, at)) : e)) };
  const shown = config.query.url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  return { source, where: `traces: reading spans from ${config.query.kind} at ${shown}`, endpoint: `${config.query.kind} (${shown})`, receiving: false };
}

/**
 * A store's error with config.yml's line beside each setting it names ("check traces.query.url
 * (.agent-replay/config.yml:7)"), the first time it names it (docs/traces.md, "Query: a trace store").
 */
export function settingsAt(message: string, at: Partial<Record<'kind' | 'url' | 'apiKey' | 'headers', string>>): string {
  const named = new Set<string>();
  return message.replace(/\btraces\.query\.(kind|url|apiKey|headers)\b/g, (whole, key: 'kind' | 'url' | 'apiKey' | 'headers') => {
    const line = at[key];
    if (line === undefined || named.has(key)) return whole;
    named.add(key);
    return `${whole} (${line})`;
  });
}
export { fillLateSpans, lateCause, noSpansCause, traceObserver, waterfallOf } from './observer.js';
