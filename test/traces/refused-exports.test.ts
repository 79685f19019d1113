// An agent whose exports the receiver refuses (docs/traces.md, "When spans do not arrive"): an
// OTEL_EXPORTER_OTLP_ENDPOINT that already ends in /v1/traces, to which the SDK adds /v1/traces
// again (404), or a content type the receiver does not read (415). The receiver saw them: the
// turn's cause says where they went and which variable to set, not "does the agent export there?".
// The real receiver on 127.0.0.1, fed by the OpenTelemetry SDK's OTLP/HTTP exporter.
import { request } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { causeOf } from '../../src/evaluate/causes.js';
import { noSpansCause, traceObserver } from '../../src/traces/index.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';
import { docsUrl } from '../../src/version.js';
import { sentContext } from '../support/otel-spans.js';

const open: Receiver[] = [];
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const r of open.splice(0)) await r.close();
});

const SENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };

function post(url: string, contentType: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('exports the receiver refused', () => {
  it('at a path the SDK made of an endpoint that already ends in /v1/traces: the cause names it and the variable to set', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    // OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<port>/v1/traces: the SDK posts to .../v1/traces/v1/traces.
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
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
      key: 'traces:refused:404',
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
    expect(await post(endpoint, 'application/grpc')).toBe(415);
    expect(await post(endpoint, 'application/grpc')).toBe(415);
    expect(r.refused?.()).toEqual({ count: 2, path: null, contentType: 'application/grpc' });
    const cause = noSpansCause(SENT.traceId, { endpoint, receiving: true, waitMs: 5000 }, 0, r.refused?.() ?? null);
    expect(cause).toBe(`no spans for trace ${SENT.traceId} within 5 s: none came to ${endpoint}, and 2 exports came as application/grpc (refused, 415); set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json`);
    expect(causeOf({ label: 'x', errored: false, verdict: 'not_evaluated', detail: cause }, null)).toEqual({
      key: 'traces:refused:415',
      what: 'no spans arrived within 5 s: the agent exported them in an encoding the receiver does not read',
      hint: `set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json (${docsUrl('traces.md', 'Receive: an OTLP/HTTP receiver')})`,
    });
  });

  it('are not said once a span of a sent trace has come: the agent exports there', async () => {
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const endpoint = `${r.endpoint}/v1/traces`;
    expect(await post(`${endpoint}/v1/traces`, 'application/json')).toBe(404);
    expect(r.refused?.()).toEqual({ count: 1, path: '/v1/traces/v1/traces', contentType: null });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: endpoint }))] });
    providers.push(provider);
    r.register(SENT.traceId, SENT.spanId);
    provider.getTracer('agent').startSpan('POST /chat', {}, sentContext(SENT.traceId, SENT.spanId)).end();
    await provider.forceFlush();
    expect(r.refused?.()).toBeNull();
    // A query run has no receiver: nothing refused is said.
    expect(noSpansCause(SENT.traceId, { endpoint: 'tempo at https://tempo.example.com', receiving: false, waitMs: 5000 }, 0, { count: 1, path: '/x', contentType: null })).not.toContain('refused');
  });
});
