// An agent that exports its spans but does not continue the incoming traceparent (docs/traces.md,
// "When spans do not arrive"): each turn's spans reach the receiver under a trace id of the agent's
// own, which no request carried. The real CLI, its receiver on port 0, and a loopback agent that
// exports with the OpenTelemetry SDK's OTLP/HTTP exporter: the turn's tool check is not evaluated,
// and the cause says that spans came, of other traces, and asks about the traceparent, instead of
// asking whether the agent exports at all.
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { sentContext } from '../support/otel-spans.js';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';
import { join } from 'node:path';
import { docsUrl } from '../../src/version.js';

useCleanup();
const providers: BasicTracerProvider[] = [];
afterEach(async () => {
  for (const p of providers.splice(0)) await p.shutdown();
});

describe('spans that came under trace ids no request carried', () => {
  it('leave the tool check not evaluated, the cause naming the traceparent, not the export', async () => {
    let provider: BasicTracerProvider | null = null;
    const agent = await serve(async (req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (provider !== null) {
        // Started as roots: the SDK gives them a fresh trace id, not the traceparent's.
        const tracer = provider.getTracer('agent');
        const top = tracer.startSpan('POST /chat', {}, ROOT_CONTEXT);
        if (body.start !== true) tracer.startSpan('execute_tool find_order', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'find_order' } }, trace.setSpan(ROOT_CONTEXT, top)).end();
        top.end();
        await provider.forceFlush();
      }
      return { json: { reply: body.start === true ? 'Welcome!' : 'Order 1234 is on its way.' } };
    });
    const cwd = await makeProject({
      config: agentConfig(agent.url, 'traces:\n  receive: { port: 0 }\n  waitMs: 0\n'),
      fixtures: { 'order.yml': 'label: order\nmessage: Where is order 1234?\nassert: { toolCalled: { tool: find_order } }\n' },
    });
    let endpoint = '';
    const run = await cli(['run', '--confirm-cost'], cwd, {}, {
      stderr: (t) => {
        const at = /receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+)/.exec(t);
        if (at) {
          endpoint = at[1]!;
          provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
          providers.push(provider);
        }
      },
    });
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    const f = record.fixtures[0]!;
    expect(f.verdict).toBe('not_evaluated');
    // The welcome turn's span and the message turn's two came, each under a trace id of the agent's own.
    expect(f.detail).toMatch(new RegExp(`^no spans for trace ${f.traceId} within 0 s: \\d+ spans of traces agent-replay did not send came to ${endpoint}/v1/traces; does the agent start its spans under the incoming traceparent\\?$`));
    expect(run.stdout).toContain("no spans of the run's traces arrived within 0 s, though spans of other traces did");
    expect(run.stdout).toContain(`start the agent's spans under the incoming traceparent, as HTTP instrumentation does (${docsUrl('traces.md', 'Set-up')}, point 2)`);
  });

  it('a welcome turn the agent makes no span for, while its other turns have theirs: the cause asks for a span per request, not for the export', async () => {
    let provider: BasicTracerProvider | null = null;
    const agent = await serve(async (req) => {
      const body = (req.json ?? {}) as { start?: boolean };
      if (body.start === true) return { json: { reply: 'Welcome!' } };
      const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-/.exec(String(req.headers.traceparent)) ?? [];
      if (provider !== null && traceId !== undefined && spanId !== undefined) {
        // Under the incoming traceparent, as HTTP instrumentation starts them, but only for message turns.
        const tracer = provider.getTracer('agent');
        const parent = sentContext(traceId, spanId);
        const top = tracer.startSpan('POST /chat', {}, parent);
        tracer.startSpan('execute_tool find_order', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'find_order' } }, trace.setSpan(parent, top)).end();
        top.end();
        await provider.forceFlush();
      }
      return { json: { reply: 'Order 1234 is on its way.' } };
    });
    const cwd = await makeProject({
      config: agentConfig(agent.url, 'traces:\n  receive: { port: 0 }\n  waitMs: 0\n'),
      fixtures: {},
      personas: { 'p.yml': 'label: order-chat\nopening: Where is order 1234?\nexpect:\n  toolNotCalled: [ { tool: issue_refund } ]\n' },
    });
    let receiver = '';
    const run = await cli(['run', '--confirm-cost'], cwd, {}, {
      stderr: (t) => {
        const at = /receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+)/.exec(t);
        if (at) {
          receiver = at[1]!;
          provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${at[1]!}/v1/traces` }))] });
          providers.push(provider);
        }
      },
    });
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    const p = record.personas![0]!;
    expect(p.verdict).toBe('not_evaluated');
    expect(p.turns.map((t) => t.spans?.count ?? 0)).toEqual([0, 2]);
    // The check's detail, decided when the welcome turn was read (before the next turn's spans came),
    // agrees with the run's cause: it does not ask whether the agent exports at all.
    expect(p.checks[0]?.detail).toBe(`turn 0: no spans for trace ${p.turns[0]!.traceId!} within 0 s: none came to ${receiver}/v1/traces for this request; does the agent export there, with a span for each request it answers?`);
    expect(run.stdout).toContain('no spans arrived within 0 s for some turns, though other turns of the run had theirs');
    expect(run.stdout).toContain(`give every request of the agent a span of its own, the welcome turn's too: a server span around the handler, as HTTP instrumentation makes (${docsUrl('traces.md', 'When spans do not arrive')})`);
    expect(run.stdout).not.toContain('OTEL_EXPORTER_OTLP_ENDPOINT');
  });
});
