// The OTLP/HTTP receiver (docs/traces.md, "Receive: an OTLP/HTTP receiver"), fed by the real
// OpenTelemetry SDK and its OTLP exporters (protobuf and JSON, with and without gzip) on 127.0.0.1,
// and by hand-made requests for what the exporters never send (garbage, other types, 16 MB).
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { gzipSync } from 'node:zlib';
import { context, SpanStatusCode, trace, TraceFlags, type Span as OtelSpan } from '@opentelemetry/api';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import protobuf from 'protobufjs/light.js';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { causeOf } from '../../src/evaluate/causes.js';
import { noSpansCause, traceObserver } from '../../src/traces/index.js';
import { docsUrl } from '../../src/version.js';
import { sentContext } from '../support/otel-spans.js';
import { OTLP_DESCRIPTOR } from '../../src/traces/proto/descriptor.js';
import { MAX_SPANS_PER_TRACE, startReceiver, type Receiver, type Timers } from '../../src/traces/receiver.js';

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const RpcStatus = root.lookupType('google.rpc.Status');
const ExportResponse = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse');

/** Timers fired by the test: `fire()` runs every pending one (the turn's waitMs has passed). */
function manualTimers(): Timers & { pending: number; fire(): void } {
  const pending = new Set<() => void>();
  return {
    after(_ms, fire) {
      pending.add(fire);
      return () => pending.delete(fire);
    },
    get pending() {
      return pending.size;
    },
    fire() {
      for (const f of [...pending]) {
        pending.delete(f);
        f();
      }
    },
  };
}

const open: Receiver[] = [];
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const r of open.splice(0)) await r.close();
});

async function receiver(timers = manualTimers()): Promise<{ r: Receiver; timers: ReturnType<typeof manualTimers> }> {
  const r = await startReceiver({ port: 0, waitMs: 5000, timers });
  open.push(r);
  return { r, timers };
}

/** A tracer exporting every span as it ends through `exporter`, as an agent's SDK set-up does. */
function tracerWith(exporter: SpanExporter): { tracer: ReturnType<BasicTracerProvider['getTracer']>; flush: () => Promise<void> } {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'support-agent' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  providers.push(provider);
  return { tracer: provider.getTracer('agent'), flush: () => provider.forceFlush() };
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
let next = 1;
/** A fresh trace id and sent span id, as agent-replay's traceparent carries them. */
function turnIds(): { traceId: string; sentSpanId: string } {
  next += 1;
  return { traceId: `4bf92f3577b34da6a3ce929d${hex(next, 8)}`, sentSpanId: `00f067aa${hex(next, 8)}` };
}

/** The agent's work for a turn: a top span (child of the sent span), a model call and a tool call that fails. */
function agentTurn(tracer: ReturnType<BasicTracerProvider['getTracer']>, ids: { traceId: string; sentSpanId: string }, opts: { top?: boolean } = {}): void {
  const parent = trace.setSpanContext(context.active(), { traceId: ids.traceId, spanId: ids.sentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  const top: OtelSpan = tracer.startSpan('POST /api/chat', { startTime: 1_700_000_000_000 }, parent);
  const inTop = trace.setSpan(parent, top);
  const model = tracer.startSpan('chat gpt-4o-mini', { startTime: 1_700_000_000_010, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 30 } }, inTop);
  model.end(1_700_000_000_500);
  const tool = tracer.startSpan('execute_tool lookup_order', { startTime: 1_700_000_000_510, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'tags': ['a', 'b'] } }, inTop);
  tool.recordException(new Error('order service unavailable'));
  tool.setStatus({ code: SpanStatusCode.ERROR });
  tool.end(1_700_000_001_200);
  if (opts.top !== false) top.end(1_700_000_001_250);
}

interface Answer {
  status: number;
  type: string | undefined;
  body: Buffer;
}

function post(url: string, headers: Record<string, string>, body: Buffer | string, path = '/v1/traces', method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const OTLP_JSON = (traceId: string, spanId: string, parentSpanId: string): string =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'json-agent' } }] },
        scopeSpans: [{ spans: [{ traceId, spanId, parentSpanId, name: 'top', kind: 2, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000250000000', attributes: [{ key: 'n', value: { intValue: '7' } }], status: {} }] }],
      },
    ],
  });

describe('OTLP/HTTP receiver with the OpenTelemetry SDK exporters', () => {
  it.each([
    ['protobuf', (url: string) => new ProtoExporter({ url })],
    ['protobuf, gzip', (url: string) => new ProtoExporter({ url, compression: 'gzip' as never })],
    ['JSON', (url: string) => new JsonExporter({ url })],
    ['JSON, gzip', (url: string) => new JsonExporter({ url, compression: 'gzip' as never })],
  ])('reads %s exports into spans; the turn is complete when the span under the sent span has arrived', async (_name, makeExporter) => {
    const { r, timers } = await receiver();
    const { tracer, flush } = tracerWith(makeExporter(`${r.endpoint}/v1/traces`));
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    agentTurn(tracer, ids);
    await flush();
    const got = await r.collect(ids.traceId, ids.sentSpanId);
    expect(timers.pending).toBe(0);
    expect(got.complete).toBe(true);
    expect(got.spans.map((s) => s.name)).toEqual(['POST /api/chat', 'chat gpt-4o-mini', 'execute_tool lookup_order']);
    const [top, model, tool] = got.spans;
    expect(top).toMatchObject({ traceId: ids.traceId, parentSpanId: ids.sentSpanId, startMs: 1_700_000_000_000, endMs: 1_700_000_001_250, status: 'unset', statusMessage: null, service: 'support-agent' });
    expect(model).toMatchObject({ parentSpanId: top!.spanId, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 30 } });
    expect(tool).toMatchObject({ status: 'error', statusMessage: 'order service unavailable', attributes: { 'gen_ai.tool.name': 'lookup_order', tags: ['a', 'b'] } });
    expect(tool!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(r.late(ids.traceId)).toBe(0);
  });

  it('keeps only the spans of registered trace ids', async () => {
    const { r, timers } = await receiver();
    const { tracer, flush } = tracerWith(new ProtoExporter({ url: `${r.endpoint}/v1/traces` }));
    const other = turnIds();
    agentTurn(tracer, other);
    await flush();
    // Registered only after its spans arrived: they were dropped, so the turn waits and ends empty.
    const waiting = r.collect(other.traceId, other.sentSpanId);
    expect(timers.pending).toBe(1);
    timers.fire();
    expect(await waiting).toEqual({ spans: [], complete: false, read: 1 });
  });

  it('waits for the span under the sent span; at waitMs hands over what came, incomplete; later spans count as late', async () => {
    const { r, timers } = await receiver();
    const { tracer, flush } = tracerWith(new JsonExporter({ url: `${r.endpoint}/v1/traces` }));
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    agentTurn(tracer, ids, { top: false });
    await flush();
    const waiting = r.collect(ids.traceId, ids.sentSpanId);
    timers.fire();
    const got = await waiting;
    expect(got.complete).toBe(false);
    expect(got.spans.map((s) => s.name)).toEqual(['chat gpt-4o-mini', 'execute_tool lookup_order']);
    // The top span, and a span of another export, arrive after the turn was read.
    const top = await post(r.endpoint, { 'content-type': 'application/json' }, OTLP_JSON(ids.traceId, 'aaaaaaaaaaaaaaaa', ids.sentSpanId));
    expect(top.status).toBe(200);
    expect(r.late(ids.traceId)).toBe(1);
  });

  it('a trace flooded with late spans keeps at most MAX_SPANS_PER_TRACE of them, and counts every one', async () => {
    const { r, timers } = await receiver();
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    const waiting = r.collect(ids.traceId, ids.sentSpanId);
    timers.fire();
    await waiting;
    // 11,000 late spans in two bodies, each a child of the sent span.
    const body = (from: number, n: number): string =>
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: n }, (_, i) => ({ traceId: ids.traceId, spanId: hex(from + i + 1, 16), parentSpanId: ids.sentSpanId, name: 'late', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000000000001' })) }] }],
      });
    for (const [from, n] of [[0, 6000], [6000, 5000]] as const) expect((await post(r.endpoint, { 'content-type': 'application/json' }, body(from, n))).status).toBe(200);
    expect(r.late(ids.traceId)).toBe(11_000);
    // A later turn of the same trace (a traceparent fixed in agent.headers) reads what was kept.
    const again = r.collect(ids.traceId, ids.sentSpanId);
    timers.fire();
    expect((await again).spans).toHaveLength(MAX_SPANS_PER_TRACE);
  });

  it('a collect that is waiting resolves when the top span arrives, without its timer', async () => {
    const { r, timers } = await receiver();
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    const waiting = r.collect(ids.traceId, ids.sentSpanId);
    expect(timers.pending).toBe(1);
    const sent = await post(r.endpoint, { 'content-type': 'application/json' }, OTLP_JSON(ids.traceId, 'bbbbbbbbbbbbbbbb', ids.sentSpanId));
    expect(sent.status).toBe(200);
    expect(sent.type).toBe('application/json');
    expect(JSON.parse(sent.body.toString())).toEqual({});
    const got = await waiting;
    expect(timers.pending).toBe(0);
    expect(got).toEqual({
      complete: true,
      read: 1,
      spans: [
        { traceId: ids.traceId, spanId: 'bbbbbbbbbbbbbbbb', parentSpanId: ids.sentSpanId, name: 'top', startMs: 1_700_000_000_000, endMs: 1_700_000_000_250, status: 'unset', statusMessage: null, attributes: { n: 7 }, service: 'json-agent' },
      ],
    });
  });

  it('one body that lists the top span before its child: the child is the turn\'s, not late', async () => {
    const { r } = await receiver();
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    const waiting = r.collect(ids.traceId, ids.sentSpanId);
    const top = JSON.parse(OTLP_JSON(ids.traceId, 'bbbbbbbbbbbbbbbb', ids.sentSpanId));
    const child = JSON.parse(OTLP_JSON(ids.traceId, 'cccccccccccccccc', 'bbbbbbbbbbbbbbbb'));
    top.resourceSpans[0].scopeSpans[0].spans.push(child.resourceSpans[0].scopeSpans[0].spans[0]);
    expect((await post(r.endpoint, { 'content-type': 'application/json' }, JSON.stringify(top))).status).toBe(200);
    const got = await waiting;
    expect(got.complete).toBe(true);
    expect(got.spans.map((sp) => sp.spanId)).toEqual(['bbbbbbbbbbbbbbbb', 'cccccccccccccccc']);
    expect(r.late(ids.traceId)).toBe(0);
  });

  it('a trace id fixed for every turn (a traceparent in agent.headers): each turn reads the trace so far, complete by a top span that came after it was sent', async () => {
    const { r, timers } = await receiver();
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    await post(r.endpoint, { 'content-type': 'application/json' }, OTLP_JSON(ids.traceId, 'dddddddddddddddd', ids.sentSpanId));
    expect((await r.collect(ids.traceId, ids.sentSpanId)).spans.map((s) => s.spanId)).toEqual(['dddddddddddddddd']);
    // The second turn: the first turn's top span does not make it complete.
    r.register(ids.traceId, ids.sentSpanId);
    const waiting = r.collect(ids.traceId, ids.sentSpanId);
    expect(timers.pending).toBe(1);
    await post(r.endpoint, { 'content-type': 'application/json' }, OTLP_JSON(ids.traceId, 'eeeeeeeeeeeeeeee', ids.sentSpanId));
    const second = await waiting;
    expect(second.complete).toBe(true);
    expect(second.spans.map((s) => s.spanId).sort()).toEqual(['dddddddddddddddd', 'eeeeeeeeeeeeeeee']);
    expect(r.late(ids.traceId)).toBe(0);
  });

  it('a retried turn (docs/traces.md, "Retried requests"): each attempt registers its own span id; the turn is complete by the answered attempt\'s top span, and only its late spans count', async () => {
    const { r, timers } = await receiver();
    const ids = turnIds();
    const failed = 'f00000000000000f';
    const answered = 'a00000000000000a';
    const json = { 'content-type': 'application/json' };
    r.register(ids.traceId, failed);
    // The failed attempt's top span arrives before the retry is sent.
    await post(r.endpoint, json, OTLP_JSON(ids.traceId, '1111111111111111', failed));
    r.register(ids.traceId, answered);
    const waiting = r.collect(ids.traceId, answered);
    expect(timers.pending).toBe(1);
    await post(r.endpoint, json, OTLP_JSON(ids.traceId, '2222222222222222', answered));
    const got = await waiting;
    expect(timers.pending).toBe(0);
    expect(got.complete).toBe(true);
    // Every span of the trace is handed over; the reader keeps the answered attempt's (map.ts, spansOfAttempt).
    expect(got.spans.map((s) => s.spanId).sort()).toEqual(['1111111111111111', '2222222222222222']);
    // Late: a child of each attempt's top span, and a root; only the answered attempt's counts.
    for (const [id, parent] of [['3333333333333333', '1111111111111111'], ['4444444444444444', '2222222222222222']] as const) await post(r.endpoint, json, OTLP_JSON(ids.traceId, id, parent));
    const root = JSON.parse(OTLP_JSON(ids.traceId, '5555555555555555', 'x')) as { resourceSpans: [{ scopeSpans: [{ spans: [{ parentSpanId?: string }] }] }] };
    delete root.resourceSpans[0].scopeSpans[0].spans[0].parentSpanId;
    await post(r.endpoint, json, JSON.stringify(root));
    expect(r.late(ids.traceId)).toBe(1);
  });

  it('an aborted collect hands over what came, incomplete', async () => {
    const { r, timers } = await receiver();
    const ids = turnIds();
    const abort = new AbortController();
    const waiting = r.collect(ids.traceId, ids.sentSpanId, abort.signal);
    abort.abort();
    expect(await waiting).toEqual({ spans: [], complete: false, read: 1 });
    expect(timers.pending).toBe(0);
  });
});

describe('OTLP/HTTP receiver: answers as the OTLP specification says', () => {
  it('refuses a body over 16 MB after decompression with 413, and keeps working', async () => {
    const { r } = await receiver();
    // 17 MB of JSON whitespace, a few kB gzipped: only the decompressed size counts.
    const bomb = gzipSync(Buffer.from(`{"resourceSpans": []${' '.repeat(17 * 1024 * 1024)}}`));
    expect(bomb.length).toBeLessThan(100_000);
    const refused = await post(r.endpoint, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body.toString())).toMatchObject({ message: expect.stringContaining('over 16,777,216 bytes after decompression') });
    const ids = turnIds();
    r.register(ids.traceId, ids.sentSpanId);
    const { tracer, flush } = tracerWith(new ProtoExporter({ url: `${r.endpoint}/v1/traces`, compression: 'gzip' as never }));
    agentTurn(tracer, ids);
    await flush();
    expect((await r.collect(ids.traceId, ids.sentSpanId)).spans).toHaveLength(3);
  });

  it('a body of exactly 16 MB is read', async () => {
    const { r } = await receiver();
    const body = `{"resourceSpans": []}`;
    const exact = body + ' '.repeat(16 * 1024 * 1024 - body.length);
    const ok = await post(r.endpoint, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(Buffer.from(exact)));
    expect(ok.status).toBe(200);
  });

  it('400 for garbage in either encoding, answered with a google.rpc.Status in that encoding', async () => {
    const { r } = await receiver();
    const proto = await post(r.endpoint, { 'content-type': 'application/x-protobuf' }, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(proto.status).toBe(400);
    expect(proto.type).toBe('application/x-protobuf');
    expect(RpcStatus.toObject(RpcStatus.decode(proto.body))).toMatchObject({ code: 3, message: expect.stringContaining('not an OTLP ExportTraceServiceRequest in protobuf') });
    const json = await post(r.endpoint, { 'content-type': 'application/json' }, '{"resourceSpans": ');
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body.toString()).message).toMatch(/^not JSON: /);
    const shape = await post(r.endpoint, { 'content-type': 'application/json' }, '{"resourceSpans": 3}');
    expect(shape.status).toBe(400);
    const gzip = await post(r.endpoint, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip');
    expect(gzip.status).toBe(400);
  });

  it('415 for another content type or encoding; 404 and 405 off the route', async () => {
    const { r } = await receiver();
    expect((await post(r.endpoint, { 'content-type': 'text/plain' }, 'x')).status).toBe(415);
    expect((await post(r.endpoint, { 'content-type': 'application/json', 'content-encoding': 'br' }, '{}')).status).toBe(415);
    expect((await post(r.endpoint, { 'content-type': 'application/json' }, '{}', '/v1/metrics')).status).toBe(404);
    expect((await post(r.endpoint, { 'content-type': 'application/json' }, '', '/v1/traces', 'GET')).status).toBe(405);
    // charset parameters are fine.
    expect((await post(r.endpoint, { 'content-type': 'application/json; charset=utf-8' }, '{}')).status).toBe(200);
  });

  it('answers an empty protobuf ExportTraceServiceResponse, and a partial success for spans without valid ids', async () => {
    const { r } = await receiver();
    const empty = await post(r.endpoint, { 'content-type': 'application/x-protobuf' }, Buffer.alloc(0));
    expect(empty.status).toBe(200);
    expect(empty.type).toBe('application/x-protobuf');
    expect(empty.body.length).toBe(0);
    const bad = await post(r.endpoint, { 'content-type': 'application/json' }, OTLP_JSON('00000000000000000000000000000000', 'cccccccccccccccc', ''));
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body.toString())).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: 'a span has no valid trace id (16 bytes)' } });
    expect(ExportResponse.toObject(ExportResponse.decode(Buffer.alloc(0)))).toEqual({});
  });

  it('listens on 127.0.0.1 only', async () => {
    const { r } = await receiver();
    expect(r.endpoint).toBe(`http://127.0.0.1:${String(r.port)}`);
    const outside = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address ?? '::1';
    const refused = await new Promise<string>((resolve) => {
      const socket = connect({ host: outside, port: r.port });
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(refused).not.toBe('connected');
  });

  it('a port in use is a user error naming the setting and config.yml\'s line, or the default port and how to set another', async () => {
    const { r } = await receiver();
    await expect(startReceiver({ port: r.port, waitMs: 10 })).rejects.toThrow(UserError);
    await expect(startReceiver({ port: r.port, portAt: '.agent-replay/config.yml:7', waitMs: 10 })).rejects.toThrow(
      `traces.receive.port ${String(r.port)} (.agent-replay/config.yml:7) is in use on 127.0.0.1: another process (perhaps another OTLP receiver or collector) listens there; choose another port at .agent-replay/config.yml:7, or port: 0 for any free one`,
    );
    await expect(startReceiver({ port: r.port, waitMs: 10 })).rejects.toThrow(
      `the default traces port ${String(r.port)} is in use on 127.0.0.1: another process (perhaps another OTLP receiver or collector) listens there; set another in config.yml with traces: { receive: { port: N } }, or port: 0 for any free one`,
    );
  });
});

describe('spans of traces the run never sent (docs/traces.md, "When spans do not arrive")', () => {
  it('are counted while none of a sent trace has come, and no longer once one has', async () => {
    const { r } = await receiver();
    const { tracer, flush } = tracerWith(new ProtoExporter({ url: `${r.endpoint}/v1/traces` }));
    const sent = turnIds();
    r.register(sent.traceId, sent.sentSpanId);
    // The agent's turn under a trace id of its own: three spans no request carried.
    agentTurn(tracer, turnIds());
    await flush();
    expect(r.foreign?.()).toBe(3);
    // The agent continues the traceparent after all: the other traces are its own business.
    agentTurn(tracer, sent);
    await flush();
    expect(r.foreign?.()).toBe(0);
  });
});

// An agent whose exports the receiver refuses (docs/traces.md, "When spans do not arrive"): an
// OTEL_EXPORTER_OTLP_ENDPOINT that already ends in /v1/traces, to which the SDK adds /v1/traces
// again (404), or a content type the receiver does not read (415). The receiver saw them: the
// turn's cause says where they went and which variable to set, not "does the agent export there?".
const SENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };

describe('exports the receiver refused', () => {
  it('at a path the SDK made of an endpoint that already ends in /v1/traces: the cause names it and the variable to set', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    // OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<port>/v1/traces: the SDK posts to .../v1/traces/v1/traces.
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ProtoExporter({ url: `${endpoint}/v1/traces` }))] });
    providers.push(provider);
    const observer = traceObserver(r, { endpoint, receiving: true, waitMs: 0 });
    observer.beforeSend(SENT);
    provider.getTracer('agent').startSpan('POST /chat', {}, sentContext(SENT.traceId, SENT.spanId)).end();
    await provider.forceFlush().catch(() => undefined); // the exporter is answered 404
    expect(r.refused?.()).toEqual({ count: 1, path: '/v1/traces/v1/traces', contentType: null });

    const turn = await observer.afterReply(SENT, report);
    const fix = `set OTEL_EXPORTER_OTLP_ENDPOINT to ${r.endpoint} (the SDK adds /v1/traces), or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT to ${endpoint}`;
    expect(turn.toolCallsProblem).toBe(`no spans for trace ${SENT.traceId} within 0 s: none came to ${endpoint}, and 1 export came to /v1/traces/v1/traces instead (refused, 404); ${fix}`);
    const item = { label: 'order', errored: false, verdict: 'not_evaluated', detail: turn.toolCallsProblem as string };
    expect(causeOf(item, null)).toEqual({
      key: `traces:refused:404\n${fix}`,
      what: 'no spans arrived within 0 s: the agent exported them to /v1/traces/v1/traces, not /v1/traces',
      hint: `${fix} (${docsUrl('traces.md', 'Receive: an OTLP/HTTP receiver')})`,
    });
    // A script's turn in mocked mode adds its own words after the cause: the fix is the cause's alone.
    expect(causeOf({ ...item, detail: `turn 1: ${item.detail} (mocked mode: an unmocked call there could not be seen)` }, null)?.hint).toBe(`${fix} (${docsUrl('traces.md', 'Receive: an OTLP/HTTP receiver')})`);
  });

  it('of a content type the receiver does not read: the cause names it and the protocol to set', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    expect((await post(r.endpoint, { 'content-type': 'application/grpc' }, '{}')).status).toBe(415);
    expect((await post(r.endpoint, { 'content-type': 'application/grpc' }, '{}')).status).toBe(415);
    expect(r.refused?.()).toEqual({ count: 2, path: null, contentType: 'application/grpc' });
    const cause = noSpansCause(SENT.traceId, { endpoint, receiving: true, waitMs: 5000 }, 0, r.refused?.() ?? null);
    expect(cause).toBe(`no spans for trace ${SENT.traceId} within 5 s: none came to ${endpoint}, and 2 exports came as application/grpc (refused, 415); set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json`);
    expect(causeOf({ label: 'x', errored: false, verdict: 'not_evaluated', detail: cause }, null)).toEqual({
      key: 'traces:refused:415\nset OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json',
      what: 'no spans arrived within 5 s: the agent exported them in an encoding the receiver does not read',
      hint: `set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json (${docsUrl('traces.md', 'Receive: an OTLP/HTTP receiver')})`,
    });
  });

  it('are not said once a span of a sent trace has come: the agent exports there', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    expect((await post(r.endpoint, { 'content-type': 'application/json' }, '{}', '/v1/traces/v1/traces')).status).toBe(404);
    expect(r.refused?.()).toEqual({ count: 1, path: '/v1/traces/v1/traces', contentType: null });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ProtoExporter({ url: endpoint }))] });
    providers.push(provider);
    r.register(SENT.traceId, SENT.spanId);
    provider.getTracer('agent').startSpan('POST /chat', {}, sentContext(SENT.traceId, SENT.spanId)).end();
    await provider.forceFlush();
    expect(r.refused?.()).toBeNull();
    // A query run has no receiver: nothing refused is said.
    expect(noSpansCause(SENT.traceId, { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 5000 }, 0, { count: 1, path: '/x', contentType: null })).not.toContain('refused');
  });
});
