// Traces: the spans an agent exports for a turn, and what is read from them (docs/traces.md).
// Plain data, as every file under types/; the receiver, the query clients and the span mapping
// all speak these shapes, so a span from an OTLP/HTTP body, from Tempo or Jaeger, or from Langfuse
// is one `Span` before anything reads it.

/** An attribute value as OTLP carries it, flattened: arrays of scalars stay arrays. */
export type SpanAttributeValue = string | number | boolean | null | Array<string | number | boolean | null>;

/** One span, normalised from whichever wire or store it came from. */
export interface Span {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits. */
  spanId: string;
  /** 16 lower-case hex digits, or null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** Milliseconds since the Unix epoch (fractional: nanosecond times divided by 1e6). */
  startMs: number;
  /** Milliseconds since the Unix epoch; equal to startMs for a span that reported no end. */
  endMs: number;
  /** ERROR carries the span's status message (or its exception event's message) in `statusMessage`. */
  status: 'unset' | 'ok' | 'error';
  statusMessage: string | null;
  attributes: Record<string, SpanAttributeValue>;
  /** The exporting service's `service.name` resource attribute, or null. */
  service: string | null;
}

/** Where a tool call was seen (docs/traces.md, "Attribution"): absent means the response, as before traces. */
export type ToolCallSource = 'response' | 'trace' | 'both';

/** How many spans a turn had (docs/traces.md): `ignored` are of no kind read here; `late` arrived after the turn's spans were read. */
export interface SpanCounts {
  count: number;
  ignored: number;
  late: number;
}

/** Where a turn's time went, from its spans (docs/traces.md, "Time"): model and tool as unions of their spans' intervals. */
export interface TimeSplit {
  modelMs: number;
  toolMs: number;
  otherMs: number;
  /** Each tool's time (the union of its spans' intervals) by tool name, so slower can name the tool that grew; absent when no tool ran. */
  tools?: Record<string, number>;
}

/**
 * The step that grew most in a slower item (docs/traces.md, "Slower"): "tool lookup_order 0.2 s → 1.9 s".
 * `kind` is model or tool (a named tool span) or other.
 */
export interface SlowerStep {
  kind: 'model' | 'tool' | 'other';
  /** The tool's name for a tool step; null for model and other. */
  name: string | null;
  baselineMs: number;
  latencyMs: number;
}

/**
 * One span of a turn as report.html draws it in the turn's waterfall (docs/traces.md, "In the reports"):
 * times in ms from the moment the request that answered was sent (a retried turn's answered attempt);
 * at most 50 per turn, the earliest first.
 */
export interface WaterfallSpan {
  name: string;
  /** model and tool as the span mapping reads them; other for every other span. */
  kind: 'model' | 'tool' | 'other';
  /** The tool's name for a tool span, else null. */
  tool: string | null;
  startMs: number;
  durationMs: number;
  /** The span's depth under the turn's root (0: a child of the span id the answered attempt sent). */
  depth: number;
  status: 'unset' | 'ok' | 'error';
}

/** config.yml `traces:` (docs/traces.md). Exactly one of receive and query is set. */
export interface TracesConfig {
  /** An OTLP/HTTP receiver on 127.0.0.1 for the run; port 0 picks a free port. */
  receive: {
    port: number;
    /** Where config.yml sets the port ("config.yml:12"), for its errors; absent: the default. */
    portAt?: string;
    /** The suite's config file when it is not config.yml (config.yaml), where its errors say to set another port. */
    configName?: string;
  } | null;
  /** A trace store queried by trace id after each turn; `headers` are sent with every request (a Tempo tenant's X-Scope-OrgID). */
  query: {
    kind: 'tempo' | 'jaeger' | 'langfuse';
    url: string;
    apiKey: string | null;
    headers?: Record<string, string>;
    /** Where config.yml sets each key ("config.yml:12"), named beside it in the store's errors; absent in a config built without a file. */
    at?: Partial<Record<'kind' | 'url' | 'apiKey' | 'headers', string>>;
  } | null;
  /** How long to wait for a turn's spans, in ms (default 5,000). */
  waitMs: number;
}

/** A turn's spans as a source hands them over (the receiver or a store). */
export interface TurnSpans {
  /** The trace's spans, every attempt's: the reader keeps those of the attempt that answered (docs/traces.md, "Retried requests"). */
  spans: Span[];
  /** True when the span whose parent is the span id collected for (the answered attempt's top span, which ends last) is among them, received or in the store's answer; false at `waitMs`. */
  complete: boolean;
  /**
   * Which read of its trace this is (1 for the first): a traceparent fixed in agent.headers puts every
   * turn in one trace, and each turn's late spans are those that came after its own read (the
   * receiver's; absent from a store, which has no late spans).
   */
  read?: number;
}

/**
 * Where spans come from for a run: the receiver or a store's query client (docs/traces.md).
 * `register` is called before each attempt of a turn is sent (a retried attempt: the same trace id,
 * its own span id), `collect` after the reply arrived, with the span id of the attempt that answered.
 */
export interface SpanSource {
  /** Keep spans of this trace (the receiver drops spans of trace ids it was not told of); `sentSpanId` is this attempt's. */
  register(traceId: string, sentSpanId: string): void;
  /** The turn's spans, waiting until the answered attempt's (`sentSpanId`) are complete or `waitMs` has passed (the clock is injected by the source's maker). */
  collect(traceId: string, sentSpanId: string, signal?: AbortSignal): Promise<TurnSpans>;
  /** Spans of this trace that arrived after `collect` returned: after the given read of the trace (`TurnSpans.read`) and before the next one was sent, or after any read when none is given. */
  late(traceId: string, read?: number): number;
  /** Spans received so far of trace ids this run never sent, while none of a trace it sent has come (the receiver's; a store is asked by trace id and has none). */
  foreign?(): number;
  /**
   * Exports the receiver refused, while none of a trace the run sent has come: the count, and the
   * last refused one's path (another than /v1/traces: an OTEL_EXPORTER_OTLP_ENDPOINT that already
   * ends in it) or content type (no OTLP/HTTP encoding); null when none (docs/traces.md, "When spans do not arrive").
   */
  refused?(): RefusedExports | null;
  close(): Promise<void>;
}

/** Exports the receiver refused: `path` when it was not /v1/traces, else `contentType`. */
export interface RefusedExports {
  count: number;
  path: string | null;
  contentType: string | null;
}
