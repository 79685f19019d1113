// A traceparent of your own in agent.headers (docs/traces.md, "What is read from spans") puts every
// turn in one trace, and each turn reads every span of that trace so far. With agent.concurrency
// above 1, two fixtures in flight at once read each other's tool calls: the real CLI, with its
// receiver on port 0, against a loopback agent that exports its spans to it with the OpenTelemetry
// SDK's OTLP/HTTP exporter, says so when the run starts.
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, serve, useCleanup } from '../cli/helpers.js';

useCleanup();
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
});

const FIXED = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** An agent that runs its tool under the incoming traceparent and exports the spans before it answers. */
async function tracedAgent(): Promise<{ url: string; pointAt: (endpoint: string) => void }> {
  let tracer: ReturnType<BasicTracerProvider['getTracer']> | null = null;
  let provider: BasicTracerProvider | null = null;
  const server = await serve(async (req) => {
    const body = (req.json ?? {}) as { start?: boolean; message?: string };
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(req.headers.traceparent));
    if (tracer !== null && provider !== null && m !== null) {
      const parent = trace.setSpanContext(context.active(), { traceId: m[1]!, spanId: m[2]!, traceFlags: TraceFlags.SAMPLED, isRemote: true });
      const top = tracer.startSpan('POST /chat', {}, parent);
      if (body.start !== true) {
        const tool = body.message === 'order' ? 'find_order' : 'lookup_stock';
        tracer.startSpan(`execute_tool ${tool}`, { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool } }, trace.setSpan(parent, top)).end();
      }
      top.end();
      await provider.forceFlush();
    }
    return { json: { reply: body.start === true ? 'Welcome!' : `done: ${String(body.message)}` } };
  });
  return {
    url: server.url,
    pointAt: (endpoint) => {
      provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
      providers.push(provider);
      tracer = provider.getTracer('agent');
    },
  };
}

async function runWith(concurrency: number): Promise<{ stderr: string; code: number }> {
  const agent = await tracedAgent();
  const cwd = await makeProject({
    config: agentConfig(agent.url, `  concurrency: ${String(concurrency)}\n  headers: { traceparent: "${FIXED}" }\ntraces:\n  receive: { port: 0 }\n  waitMs: 0\n`),
    fixtures: {
      'shop.yml': 'fixtures:\n  - { label: order, message: order, assert: { toolNotCalled: { tool: lookup_stock } } }\n  - { label: stock, message: stock, assert: { toolNotCalled: { tool: find_order } } }\n',
    },
  });
  const logs: string[] = [];
  const run = await cli(['run', '--confirm-cost'], cwd, {}, {
    stderr: (t) => {
      logs.push(t);
      // The receiver's port is in the run's log line; the agent exports there.
      const at = /receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+)/.exec(t);
      if (at) agent.pointAt(at[1]!);
    },
  });
  return { stderr: logs.join(''), code: run.code };
}

describe('a traceparent of your own with turns in flight at once', () => {
  it('warns that concurrent turns read each other\'s spans, naming agent.concurrency', async () => {
    const { stderr } = await runWith(2);
    expect(stderr).toContain(
      "warning: traces: agent.headers sets its own traceparent, so every turn goes out in one trace, and with agent.concurrency 2 the turns in flight at once read each other's spans (tool calls, errors, time) as their own: set agent.concurrency: 1 (or --concurrency 1), or remove the traceparent header so that each turn gets a trace of its own",
    );
  });

  it('says nothing with one turn at a time', async () => {
    const { stderr } = await runWith(1);
    expect(stderr).toContain('traces: receiving OTLP/HTTP on');
    expect(stderr).not.toContain('warning: traces:');
  });
});
