// Late spans under a traceparent of your own (docs/traces.md, "Counts"): every turn of the run goes
// out in one trace, and each turn's `spans.late` counts the spans that came after its own spans were
// read and before the next turn was sent, not the whole trace's. The real receiver, fed by the
// OpenTelemetry SDK's OTLP/HTTP exporter, read through the run's span observer.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { fillLateSpans, traceObserver } from '../../src/traces/index.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';
import type { FixtureRecord, SpanCounts } from '../../src/types.js';

const open: Receiver[] = [];
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const r of open.splice(0)) await r.close();
});

// The traceparent fixed in agent.headers: every turn sends this trace id and span id.
const SENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

describe('late spans of turns that share one trace', () => {
  it("counts each turn's own late spans", async () => {
    const r = await startReceiver({ port: 0, waitMs: 5000 });
    open.push(r);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    providers.push(provider);
    const tracer = provider.getTracer('agent');
    const parent = trace.setSpanContext(context.active(), { ...SENT, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    /** `n` spans under the sent span, exported. */
    const spans = async (name: string, n: number): Promise<void> => {
      for (let i = 0; i < n; i++) tracer.startSpan(name, {}, parent).end();
      await provider.forceFlush();
    };
    const observer = traceObserver(r, { endpoint: `${r.endpoint}/v1/traces`, receiving: true, waitMs: 5000 });
    const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };
    const turn = async (): Promise<SpanCounts> => {
      observer.beforeSend(SENT);
      await spans('POST /chat', 1);
      const read = await observer.afterReply(SENT, report);
      return read.spans as SpanCounts;
    };

    const first = await turn();
    await spans('background write', 2); // after the first turn was read, before the second was sent
    const second = await turn();
    await spans('background write', 1); // after the second turn was read
    expect([first.count, second.count]).toEqual([1, 4]);

    const record = { fixtures: [{ traceId: SENT.traceId, spans: first }, { traceId: SENT.traceId, spans: second }] as unknown as FixtureRecord[], personas: [] };
    fillLateSpans(record, r);
    expect(record.fixtures.map((f) => f.spans?.late)).toEqual([2, 1]);
  });

  it('a turn none of whose spans came counts its own late spans too', async () => {
    // waitMs 0: the first turn's spans are read at once, before any came.
    const r = await startReceiver({ port: 0, waitMs: 0 });
    open.push(r);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    providers.push(provider);
    const tracer = provider.getTracer('agent');
    const parent = trace.setSpanContext(context.active(), { ...SENT, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const spans = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) tracer.startSpan('POST /chat', {}, parent).end();
      await provider.forceFlush();
    };
    const observer = traceObserver(r, { endpoint: `${r.endpoint}/v1/traces`, receiving: true, waitMs: 0 });
    const report = { toolCalls: null, errors: [], usage: null, latencyMs: 10 };
    observer.beforeSend(SENT);
    const first = (await observer.afterReply(SENT, report)).spans as SpanCounts;
    expect(first.count).toBe(0);
    await spans(2); // late for the first turn
    observer.beforeSend(SENT);
    await spans(1);
    const second = (await observer.afterReply(SENT, report)).spans as SpanCounts;
    expect(second.count).toBe(3);
    await spans(1); // late for the second turn

    const record = { fixtures: [{ traceId: SENT.traceId, spans: first }, { traceId: SENT.traceId, spans: second }] as unknown as FixtureRecord[], personas: [] };
    fillLateSpans(record, r);
    expect(record.fixtures.map((f) => f.spans?.late)).toEqual([2, 1]);
  });
});
