// Attribution (docs/traces.md, "Attribution") when the tool span records no arguments, as the GenAI
// conventions leave them opt-in: the call the response reported and its span are one call, not two.
// The real receiver, fed by the OpenTelemetry SDK's OTLP/HTTP exporter, read through the run's span
// observer.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { traceObserver } from '../../src/traces/index.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';
import type { ToolCall } from '../../src/types.js';

const open: Receiver[] = [];
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
  for (const r of open.splice(0)) await r.close();
});

const SENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

async function turn(spans: { tool: string; args?: string }[], reported: ToolCall[]): Promise<ToolCall[] | null> {
  const r = await startReceiver({ port: 0, waitMs: 5000 });
  open.push(r);
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${r.endpoint}/v1/traces` }))] });
  providers.push(provider);
  const tracer = provider.getTracer('agent');
  const observer = traceObserver(r, { endpoint: `${r.endpoint}/v1/traces`, receiving: true, waitMs: 5000 });
  observer.beforeSend(SENT);
  const parent = trace.setSpanContext(context.active(), { ...SENT, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  const top = tracer.startSpan('POST /chat', {}, parent);
  for (const s of spans) {
    const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': s.tool, ...(s.args !== undefined ? { 'gen_ai.tool.call.arguments': s.args } : {}) };
    tracer.startSpan(`execute_tool ${s.tool}`, { attributes }, trace.setSpan(parent, top)).end();
  }
  top.end();
  await provider.forceFlush();
  return (await observer.afterReply(SENT, { toolCalls: reported, errors: [], usage: null, latencyMs: 10 })).toolCalls;
}

const find = (orderId: string): ToolCall => ({ tool: 'find_order', input: { orderId }, output: { status: 'shipped' }, mocked: true });

describe('a tool span without its arguments', () => {
  it('is the call of that tool the response reported: one call, source both, as the response gave it', async () => {
    expect(await turn([{ tool: 'find_order' }], [find('1234')])).toEqual([{ ...find('1234'), source: 'both' }]);
  });

  it('pairs after the spans that did record their input, and a span of another tool stays a call of its own', async () => {
    const calls = await turn([{ tool: 'find_order' }, { tool: 'find_order', args: '{"orderId":"2"}' }, { tool: 'issue_refund' }], [find('1'), find('2')]);
    expect(calls).toEqual([
      { ...find('1'), source: 'both' },
      { ...find('2'), source: 'both' },
      { tool: 'issue_refund', input: null, output: null, mocked: false, source: 'trace' },
    ]);
  });
});
