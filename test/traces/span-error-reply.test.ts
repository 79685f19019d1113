// A fixture errored by an ERROR span of its message turn (docs/traces.md, "Fixtures") keeps the reply
// and route the agent answered with: the real CLI, with its receiver on port 0, against a loopback
// agent that answers a reply over HTTP and exports, with the OpenTelemetry SDK's OTLP/HTTP
// exporter, a tool span with status ERROR. The reply is in results.json and on every surface, shown
// beside the error and never compared.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { context, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, serve, useCleanup } from '../cli/helpers.js';

useCleanup();
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
});

const REPLY = 'Sorry, I could not refund order 1234 right now.';

/** An agent whose refund tool fails under the incoming traceparent; it exports its spans, then answers a reply. */
async function failingToolAgent(): Promise<{ url: string; pointAt: (endpoint: string) => void }> {
  let provider: BasicTracerProvider | null = null;
  const server = await serve(async (req) => {
    const body = (req.json ?? {}) as { start?: boolean };
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(req.headers.traceparent));
    if (provider !== null && m !== null) {
      const tracer = provider.getTracer('agent');
      const parent = trace.setSpanContext(context.active(), { traceId: m[1]!, spanId: m[2]!, traceFlags: TraceFlags.SAMPLED, isRemote: true });
      const top = tracer.startSpan('POST /chat', {}, parent);
      if (body.start !== true) {
        const tool = tracer.startSpan('execute_tool issue_refund', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'issue_refund' } }, trace.setSpan(parent, top));
        tool.setStatus({ code: SpanStatusCode.ERROR, message: 'refunds service unavailable' });
        tool.end();
      }
      top.end();
      await provider.forceFlush();
    }
    return { json: { reply: body.start === true ? 'Welcome!' : REPLY, route: { conversation: 'refunds', stage: 'apology' } } };
  });
  return {
    url: server.url,
    pointAt: (endpoint) => {
      provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
      providers.push(provider);
    },
  };
}

describe('a fixture errored by its spans', () => {
  it('keeps the reply the agent answered with, in the record and beside the error on every surface', async () => {
    const agent = await failingToolAgent();
    const cwd = await makeProject({
      config: agentConfig(agent.url, 'traces:\n  receive: { port: 0 }\n  waitMs: 5000\n'),
      fixtures: { 'shop.yml': 'fixtures:\n  - { label: refund, message: refund order 1234, assert: { contains: refund } }\n' },
    });
    const run = await cli(['run', '--confirm-cost', '--markdown', 'out.md', '--junit', 'junit.xml', '--html', 'report.html'], cwd, {}, {
      stderr: (t) => {
        const at = /receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+)/.exec(t);
        if (at) agent.pointAt(at[1]!);
      },
    });
    const record = JSON.parse(await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8')) as { fixtures: Record<string, unknown>[] };
    expect(record.fixtures[0]).toMatchObject({
      errored: true,
      errorKind: 'agent_error',
      error: 'message turn: the agent reported an error (span_error, tool issue_refund): span execute_tool issue_refund failed: refunds service unavailable',
      reply: REPLY,
      route: { conversation: 'refunds', stage: 'apology' },
      verdict: null,
      drift: null,
    });
    // The terminal: the error, then the reply; not "no reply".
    expect(run.stdout + run.stderr).toMatch(/refund · errored · not compared ·[^\n]*\n[^\n]*refunds service unavailable\n\s+reply:\n\s+Sorry, I could not refund order 1234 right now\./);
    expect(run.stdout + run.stderr).not.toContain('no reply');
    const markdown = await readFile(join(cwd, 'out.md'), 'utf8');
    expect(markdown).toContain(`**Reply** (not compared: the item errored) · route refunds / apology:\n\n\`\`\`text\n${REPLY}\n\`\`\``);
    expect(await readFile(join(cwd, 'junit.xml'), 'utf8')).toContain(`route: refunds / apology\n\nreply:\n${REPLY}`);
    expect(await readFile(join(cwd, 'report.html'), 'utf8')).toContain(REPLY);
  });
});
