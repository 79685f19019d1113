// A turn's waterfall (docs/traces.md, "In the reports") over spans the real OpenTelemetry JS SDK
// made and exported with its OTLP/HTTP protobuf exporter to the receiver on 127.0.0.1. The SDK stamps
// a span's start in whole milliseconds (Date.now()), so a span and the spans it starts at once share a
// start: the waterfall draws them parent first, each row under the one it is indented from.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { readTurnSpans } from '../../src/traces/map.js';
import { waterfallOf } from '../../src/traces/observer.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';

const open: { r: Receiver; p: BasicTracerProvider }[] = [];
afterEach(async () => {
  for (const { r, p } of open.splice(0)) {
    await p.shutdown();
    await r.close();
  }
});

describe('the waterfall of spans that start in the same millisecond', () => {
  it('draws each span after the span it hangs from, whatever their random span ids', async () => {
    const r = await startReceiver({ port: 0, waitMs: 5000 });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    open.push({ r, p: provider });
    const tracer = provider.getTracer('agent');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const sent = '00f067aa0ba902b7';
    r.register(traceId, sent);
    // The request's span, the agent's, its step and a model call, each started by the one above it
    // in the same millisecond (eight levels: the chance that random ids put them in order is 1 in 40,320).
    const T0 = 1_800_000_000_000;
    let ctx = trace.setSpanContext(context.active(), { traceId, spanId: sent, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const names = ['POST /chat', 'invoke_agent shop', 'agent_step 1', 'chain', 'retriever', 'router', 'planner', 'chat gpt-x'];
    const started = names.map((name) => {
      const span = tracer.startSpan(name, { startTime: T0 }, ctx);
      ctx = trace.setSpan(ctx, span);
      return span;
    });
    for (const [i, span] of [...started].reverse().entries()) span.end(T0 + 100 + i);
    await provider.forceFlush();
    const got = await r.collect(traceId, sent);
    expect(got.complete).toBe(true);
    const w = waterfallOf(got.spans, sent, T0);
    expect(w.map((s) => [s.name, s.depth, s.startMs])).toEqual(names.map((name, depth) => [name, depth, 0]));
  });

  it('lists tools started in the same millisecond in the order of the turn\'s tool calls', async () => {
    const r = await startReceiver({ port: 0, waitMs: 5000 });
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
    open.push({ r, p: provider });
    const tracer = provider.getTracer('agent');
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4736';
    const sent = '10f067aa0ba902b7';
    r.register(traceId, sent);
    const T0 = 1_800_000_000_000;
    const parent = trace.setSpanContext(context.active(), { traceId, spanId: sent, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const top = tracer.startSpan('POST /chat', { startTime: T0 }, parent);
    const inTop = trace.setSpan(parent, top);
    // Eight tools run in parallel, started in one millisecond, each ending a millisecond before the one started before it.
    const tools = Array.from({ length: 8 }, (_, i) =>
      tracer.startSpan(`execute_tool t${String(i)}`, { startTime: T0 + 1, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `t${String(i)}` } }, inTop),
    );
    for (const [i, span] of tools.entries()) span.end(T0 + 100 - i);
    top.end(T0 + 200);
    await provider.forceFlush();
    const got = await r.collect(traceId, sent);
    const calls = readTurnSpans(got.spans, { traceId, latencyMs: 200 }, { toolCalls: null, usage: null }).toolCalls ?? [];
    const bars = waterfallOf(got.spans, sent, T0).filter((s) => s.kind === 'tool');
    expect(bars.map((s) => s.tool)).toEqual(calls.map((c) => c.tool));
    expect(calls.map((c) => c.tool)).toEqual(['t7', 't6', 't5', 't4', 't3', 't2', 't1', 't0']);
  });
});
