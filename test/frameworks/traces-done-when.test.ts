// Tools from traces, done when (docs/traces.md): a Vercel AI SDK 5 route that answers with text
// alone (the native protocol's `reply`, no tool calls in the body) and exports its telemetry with the
// real OTLP/HTTP exporter to agent-replay's receiver (`traces.receive.port: 0`, its URL read from
// the run's log line as a workflow would). The incoming `traceparent` is propagated with
// @opentelemetry/core's W3CTraceContextPropagator. The model is the SDK's MockLanguageModelV2, which
// answers at once: nothing waits.

import { ROOT_CONTEXT, SpanKind, defaultTextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, stepCountIs } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { afterAll, describe, expect, it } from 'vitest';
import { mockTools } from '../../src/mocks/index.js';
import { useAsyncContext } from '../support/otel-spans.js';
import { removeProjects, runTraced, serveReplies } from './support.js';
import { tools } from './vercel-ai/v5-tools.js';

/** The model calls the tool the message asks for (one step), then answers with text. */
function modelFor(message: string): MockLanguageModelV2 {
  const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
  const orderId = /order (\w+)/.exec(message)?.[1] ?? '0';
  const call = /refund/i.test(message) ? { tool: 'issue_refund', input: { orderId } } : /where is/i.test(message) ? { tool: 'find_order', input: { orderId } } : null;
  let step = 0;
  return new MockLanguageModelV2({
    doGenerate: async () => {
      step += 1;
      if (call !== null && step === 1) return { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: call.tool, input: JSON.stringify(call.input) }], finishReason: 'tool-calls', usage, warnings: [] };
      return { content: [{ type: 'text', text: `Order ${orderId} is taken care of.` }], finishReason: 'stop', usage, warnings: [] };
    },
  });
}

const propagator = new W3CTraceContextPropagator();

/** The route: its spans go to `endpoint()` (the receiver's), each request under the incoming traceparent. */
function startRoute(endpoint: () => string): Promise<string> {
  useAsyncContext();
  return serveReplies(async (body, headers) => {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'shop-route' }),
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${endpoint()}/v1/traces` }))],
    });
    const tracer = provider.getTracer('shop-route');
    const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    // The route's own server span (what HTTP instrumentation would make): the turn's top span.
    const reply = await tracer.startActiveSpan('POST /chat', { kind: SpanKind.SERVER }, parent, async (span) => {
      try {
        if (body.start === true) return 'Welcome!';
        const message = String(body.message);
        const result = await generateText({
          model: modelFor(message),
          tools: mockTools(tools, body.mocks),
          prompt: message,
          stopWhen: stepCountIs(3),
          experimental_telemetry: { isEnabled: true, tracer },
        });
        return result.text;
      } catch (e) {
        return `Sorry: ${(e as Error).message}`;
      } finally {
        span.end();
      }
    });
    await provider.forceFlush();
    await provider.shutdown();
    return reply;
  });
}

afterAll(async () => {
  await removeProjects();
});

describe('a Vercel AI SDK route that answers with text alone, its spans sent to the receiver', () => {
  it('gets toolCalled and mocked-mode errors right in persona scripts and fixtures; a thrown tool error errors the script with its message', async () => {
    const { results, fixtures } = await runTraced(startRoute, {
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]\n',
        'refund-broken.yaml': 'label: refund-broken\nmessage: Refund order broken\nassert: { contains: "Order" }\n',
      },
      personas: {
        'shop.yaml': `personas:
  - label: mocked-lookup
    opening: Where is order 1234?
    mocks: [ { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: mocked } } ]
    expect: { toolCalled: [ { tool: find_order, input: { orderId: "1234" } } ], toolNotCalled: [ { tool: issue_refund } ] }
  - label: mocked-refund
    opening: Please refund order 1234
    mocks: [ { tool: find_order, output: { status: mocked } } ]
    expect: { toolNotCalled: [ { tool: find_order } ] }
  - label: refund-broken-script
    opening: Refund order broken
    unmockedTools: allow
    expect: { toolCalled: [ { tool: issue_refund } ] }
`,
      },
    });

    const status = fixtures.find((f) => f.label === 'order-status')!;
    expect(status.verdict).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered' }, mocked: false, source: 'trace' }]);
    const brokenFixture = fixtures.find((f) => f.label === 'refund-broken')!;
    expect(brokenFixture.errored).toBe(true);
    expect(brokenFixture.error).toContain('refunds service unavailable');

    const lookup = results.personas.find((p) => p.label === 'mocked-lookup')!;
    expect(lookup.verdict).toBe('pass');
    expect(lookup.turns[1]?.toolCalls).toEqual([expect.objectContaining({ tool: 'find_order', mocked: true, output: { orderId: '1234', status: 'mocked' } })]);
    const refund = results.personas.find((p) => p.label === 'mocked-refund')!;
    expect(refund.errored).toBe(true);
    expect(refund.errorKind).toBe('unmocked_tool');
    expect(refund.error).toContain('issue_refund');
    const broken = results.personas.find((p) => p.label === 'refund-broken-script')!;
    expect(broken.errored).toBe(true);
    expect(broken.error).toBe('turn 1: the agent reported an error (span_error, tool issue_refund): span ai.toolCall failed: refunds service unavailable');
  });
});
