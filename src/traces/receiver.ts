// The OTLP/HTTP receiver (docs/traces.md, "Receive: an OTLP/HTTP receiver"): `POST /v1/traces` on
// 127.0.0.1 only, protobuf and JSON bodies, gzip, a 16 MB limit after decompression (413, and the
// receiver keeps serving), answers as the OTLP specification says (200 with an
// ExportTraceServiceResponse in the request's encoding, 400 for a body that is no OTLP trace data,
// 415 for another content type or encoding). It keeps only the spans of trace ids registered by the
// run, and is a `SpanSource`: a turn's spans are complete when the span whose parent is the span id
// its answered attempt sent has arrived (spans are exported when they end; each attempt of a turn
// registers its own span id: docs/traces.md, "Retried requests"), or at `waitMs`; spans of a turn
// that arrive after its spans were handed over change nothing for it and are counted (`late`).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGunzip } from 'node:zlib';
import { UserError } from '../errors.js';
import type { RefusedExports, Span, SpanSource, TurnSpans } from '../types.js';
import { exportResponse, OtlpFormatError, spansOfOtlp, spansOfProtobuf, statusBody, type SpansRead } from './otlp.js';
import { MAX_TURN_SPANS, spansOfAttempt } from './map.js';
import { thousands } from '../words.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

/** The largest body accepted, after decompression (docs/traces.md, "Receive: an OTLP/HTTP receiver"). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Timers, injected so that tests control `waitMs` without sleeping. `after` returns a cancel function. */
export interface Timers {
  after(ms: number, fire: () => void): () => void;
}

export const realTimers: Timers = {
  after(ms, fire) {
    const t = setTimeout(fire, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

export interface ReceiverOptions {
  /** The port on 127.0.0.1; 0 picks a free one (read it from `port` / `endpoint`). */
  port: number;
  /** Where config.yml sets the port ("config.yml:12"), named when it is in use; absent: the default port. */
  portAt?: string;
  /** The suite's config file (config.yml, or config.yaml), where a default port in use is told to set another; absent: config.yml. */
  configName?: string;
  waitMs: number;
  timers?: Timers;
  /** The body limit after decompression (tests lower it); default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

export interface Receiver extends SpanSource {
  readonly port: number;
  /** `http://127.0.0.1:<port>`: what OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly endpoint: string;
}

interface TraceState {
  /** The parent span id each attempt of the turn sent (one per attempt; a fixed traceparent's one). */
  sentSpanIds: Set<string>;
  /** Every span of the trace received so far (kept for a later turn of the same trace). */
  spans: Span[];
  /** The sent span ids whose top span (a span with that parent) has arrived since the turn was registered. */
  topsEnded: Set<string>;
  /** collect has handed the spans over: later spans only count as late. */
  collected: boolean;
  /** The span id of the attempt whose spans were handed over (the answered one). */
  collectedSpanId: string | null;
  /** How many times the trace's spans were handed over: one per turn of a trace a fixed traceparent shares. */
  reads: number;
  /**
   * Late spans kept (they count when they are the answered attempt's), and late spans past the bound
   * (counted, not kept), each with the read it came after: a turn's late spans are its own, not its
   * trace's (docs/traces.md, "Counts").
   */
  lateKept: { span: Span; read: number }[];
  lateDropped: Map<number, number>;
  /** The waiting collect: the span id it waits under, and how to wake it. */
  wake: { spanId: string; fire: () => void } | null;
}

type Encoding = 'protobuf' | 'json';

/**
 * The most spans kept for one trace (docs/traces.md, "Limits on what a turn's spans can hold"): five
 * times what a turn is read from, room for the turns of a trace a fixed traceparent shares.
 */
export const MAX_SPANS_PER_TRACE = 5 * MAX_TURN_SPANS;

/** Starts the receiver on 127.0.0.1; a port in use is a user error naming the setting to change. */
export async function startReceiver(opts: ReceiverOptions): Promise<Receiver> {
  const timers = opts.timers ?? realTimers;
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const traces = new Map<string, TraceState>();
  // Spans of trace ids this run never sent: an agent that does not continue the incoming
  // traceparent exports every turn's spans under a trace of its own (docs/traces.md, "When spans do
  // not arrive"). Once a span of a sent trace has come, the agent does continue it: other traces are
  // its health checks and the like, and say nothing about a turn whose spans did not come.
  let foreign = 0;
  let matched = false;
  // Exports refused for their path or content type: an endpoint that already ends in /v1/traces
  // (the SDK adds it again), or a protocol the receiver does not speak. Said in a turn's cause while
  // no span of the run's traces has come (docs/traces.md, "When spans do not arrive").
  let refused: RefusedExports | null = null;
  const refuse = (path: string | null, contentType: string | null): void => {
    refused = { count: (refused?.count ?? 0) + 1, path, contentType };
  };

  const accept = (spans: Span[]): void => {
    // Turns are woken once the whole body is in: one export may list the top span before its
    // children, and those children belong to the turn, not to its late spans.
    const ended: TraceState[] = [];
    for (const span of spans) {
      const state = traces.get(span.traceId);
      if (!state) {
        foreign += 1;
        continue;
      }
      matched = true;
      // Kept up to a bound: an exporter that floods one trace does not grow the run's memory without end.
      const kept = state.spans.length < MAX_SPANS_PER_TRACE;
      if (kept) state.spans.push(span);
      // A span after the turn's spans were handed over changes nothing for that turn; it is kept
      // for a later turn of the same trace (a traceparent fixed in agent.headers).
      if (state.collected) {
        if (kept) state.lateKept.push({ span, read: state.reads });
        else state.lateDropped.set(state.reads, (state.lateDropped.get(state.reads) ?? 0) + 1);
        continue;
      }
      if (span.parentSpanId !== null && state.sentSpanIds.has(span.parentSpanId)) {
        state.topsEnded.add(span.parentSpanId);
        if (state.wake?.spanId === span.parentSpanId) ended.push(state);
      }
    }
    for (const state of ended) state.wake?.fire();
  };

  const server = createServer((req, res) => handle(req, res, maxBody, accept, refuse));
  // A slow or stalled exporter must not hold a socket for ever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await listen(server, opts.port, opts.portAt ?? null, opts.configName ?? NEW_CONFIG_NAME);
  const port = (server.address() as AddressInfo).port;

  const stateOf = (traceId: string, sentSpanId: string): TraceState => {
    let state = traces.get(traceId);
    if (!state) {
      state = { sentSpanIds: new Set([sentSpanId]), spans: [], topsEnded: new Set(), collected: false, collectedSpanId: null, reads: 0, lateKept: [], lateDropped: new Map(), wake: null };
      traces.set(traceId, state);
    }
    return state;
  };

  return {
    port,
    endpoint: `http://127.0.0.1:${String(port)}`,
    register(traceId, sentSpanId) {
      const state = stateOf(traceId, sentSpanId);
      // A trace id registered again after its spans were handed over is a new turn in the same
      // trace (a traceparent fixed in agent.headers): it reads every span of the trace so far, and
      // is complete when a span under the sent span id arrives after it was registered. Before
      // then, it is another attempt of the same turn, under a span id of its own.
      if (state.collected) Object.assign(state, { sentSpanIds: new Set([sentSpanId]), topsEnded: new Set(), collected: false, collectedSpanId: null });
      else state.sentSpanIds.add(sentSpanId);
    },
    collect(traceId, sentSpanId, signal) {
      const state = stateOf(traceId, sentSpanId);
      return new Promise<TurnSpans>((resolve) => {
        const finish = (): void => {
          cancel();
          signal?.removeEventListener('abort', finish);
          state.wake = null;
          state.collected = true;
          state.collectedSpanId = sentSpanId;
          state.reads += 1;
          const spans = [...state.spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
          resolve({ spans, complete: state.topsEnded.has(sentSpanId), read: state.reads });
        };
        let cancel: () => void = () => undefined;
        if (state.topsEnded.has(sentSpanId) || signal?.aborted) return finish();
        state.wake = { spanId: sentSpanId, fire: finish };
        cancel = timers.after(opts.waitMs, finish);
        signal?.addEventListener('abort', finish, { once: true });
      });
    },
    foreign: () => (matched ? 0 : foreign),
    refused: () => (matched ? null : refused),
    late(traceId, read) {
      const state = traces.get(traceId);
      if (state === undefined) return 0;
      // The spans that came after this turn's read and before the next turn of the trace was sent.
      const kept = state.lateKept.filter((l) => read === undefined || l.read === read).map((l) => l.span);
      let dropped = 0;
      for (const [r, n] of state.lateDropped) if (read === undefined || r === read) dropped += n;
      // A retried turn's late spans are those of its answered attempt (docs/traces.md, "Retried
      // requests"), told apart now that the spans they hang from have had time to arrive.
      if (state.sentSpanIds.size <= 1 || state.collectedSpanId === null || kept.length === 0) return kept.length + dropped;
      const turns = new Set(spansOfAttempt(state.spans, state.collectedSpanId, true));
      return kept.filter((s) => turns.has(s)).length + dropped;
    },
    close() {
      for (const state of traces.values()) state.wake?.fire();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * Listens on 127.0.0.1:`port`; a port in use or refused is a UserError that names config.yml's line
 * when it sets the port (`portAt`), else says the default port is taken and how to set another
 * (docs/traces.md, "Set-up").
 */
function listen(server: Server, port: number, portAt: string | null, configName: string): Promise<void> {
  const setting = portAt === null ? `the default traces port ${String(port)}` : `traces.receive.port ${String(port)} (${portAt})`;
  const change = portAt === null ? `set another in ${configName} with traces: { receive: { port: N } }` : `choose another port at ${portAt}`;
  return new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException): void => {
      if (e.code === 'EADDRINUSE') {
        reject(new UserError(`${setting} is in use on 127.0.0.1: another process (perhaps another OTLP receiver or collector) listens there; ${change}, or port: 0 for any free one`));
      } else if (e.code === 'EACCES') {
        reject(new UserError(`${setting} may not be opened by this user: ${portAt === null ? 'set' : 'choose'} a port above 1023${portAt === null ? ` in ${configName} with traces: { receive: { port: N } }` : ` at ${portAt}`}, or port: 0 for any free one`));
      } else reject(e);
    };
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** One request: route, content type and encoding, the body within its limit, then the answer. */
function handle(req: IncomingMessage, res: ServerResponse, maxBody: number, accept: (spans: Span[]) => void, refuse: (path: string | null, contentType: string | null) => void): void {
  const path = (req.url ?? '').split('?')[0];
  const encoding = encodingOf(req.headers['content-type']);
  if (path !== '/v1/traces') {
    if (req.method === 'POST') refuse(path ?? '', null);
    return answer(req, res, 404, encoding ?? 'json', `no such path ${path ?? ''}: spans are received at POST /v1/traces`);
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return answer(req, res, 405, encoding ?? 'json', 'spans are received with POST /v1/traces');
  }
  if (encoding === null) {
    refuse(null, req.headers['content-type'] ?? '(none)');
    return answer(req, res, 415, 'json', `content type ${req.headers['content-type'] ?? '(none)'} is not supported: send application/x-protobuf or application/json`);
  }
  const contentEncoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  if (contentEncoding !== 'gzip' && contentEncoding !== 'identity' && contentEncoding !== '') {
    return answer(req, res, 415, encoding, `content encoding ${contentEncoding} is not supported: send gzip or no encoding`);
  }
  readBody(req, contentEncoding === 'gzip', maxBody).then(
    (body) => {
      if (body === 'too large') return answer(req, res, 413, encoding, `the body is over ${thousands(maxBody)} bytes after decompression: export smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE)`);
      if (body === 'bad gzip') return answer(req, res, 400, encoding, 'the body is not valid gzip');
      let read: SpansRead;
      try {
        read = encoding === 'protobuf' ? spansOfProtobuf(body) : spansOfOtlp(JSON.parse(body.toString('utf8')));
      } catch (e) {
        const message = e instanceof OtlpFormatError ? e.message : `not JSON: ${e instanceof Error ? e.message : String(e)}`;
        return answer(req, res, 400, encoding, message);
      }
      accept(read.spans);
      const { body: out } = exportResponse(encoding, read);
      send(res, 200, encoding, out);
    },
    () => answer(req, res, 400, encoding, 'the body could not be read'),
  );
}

function encodingOf(contentType: string | undefined): Encoding | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

/**
 * The body, decompressed as it streams in, or 'too large' as soon as it passes `max` bytes (nothing
 * more is read or kept: a gzip bomb stops at the limit), or 'bad gzip'.
 */
function readBody(req: IncomingMessage, gzip: boolean, max: number): Promise<Buffer | 'too large' | 'bad gzip'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const source = gzip ? req.pipe(createGunzip()) : req;
    const finish = (v: Buffer | 'too large' | 'bad gzip'): void => {
      if (done) return;
      done = true;
      resolve(v);
    };
    source.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        if (gzip) {
          req.unpipe();
          (source as ReturnType<typeof createGunzip>).destroy();
        }
        source.pause();
        finish('too large');
        return;
      }
      chunks.push(chunk);
    });
    source.on('end', () => finish(Buffer.concat(chunks, size)));
    source.on('error', (e) => (gzip && !done ? finish('bad gzip') : done ? undefined : reject(e)));
    if (gzip) req.on('error', (e) => (done ? undefined : reject(e)));
  });
}

/** An error answer: a google.rpc.Status in the request's encoding; the connection is closed when the body was not read whole. */
function answer(req: IncomingMessage, res: ServerResponse, status: number, encoding: Encoding, message: string): void {
  if (!req.complete) {
    // The rest of the body is not read: close the connection once the answer is out.
    res.setHeader('connection', 'close');
    res.on('finish', () => req.destroy());
  }
  send(res, status, encoding, statusBody(encoding, status === 413 ? 8 : 3, message));
}

function send(res: ServerResponse, status: number, encoding: Encoding, body: Uint8Array | string): void {
  res.statusCode = status;
  res.setHeader('content-type', encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json');
  res.end(body);
}
