// Tools from traces with Mastra (docs/traces.md, "Set-up: Mastra"): the example agent of
// mastra/index.ts (Mastra's own fake model, the real tools) in the Mastra instance of
// mastra/traced.ts (the code docs/traces.md shows), whose observability exports with
// @mastra/otel-exporter (OTLP/HTTP protobuf) to agent-replay's receiver (`traces.receive.port: 0`,
// its URL read from the run's log line as a workflow would). The route answers with text alone
// (`{reply}`, no tool calls in the body): the tool calls can only come from the spans. The incoming
// `traceparent` is extracted with @opentelemetry/core's W3CTraceContextPropagator and handed to
// Mastra as `tracingOptions` (`traceId`, `parentSpanId`), Mastra's way of continuing a trace it did
// not start.

import type { Mastra } from '@mastra/core';
import { afterAll, describe, expect, it } from 'vitest';
import { answer, tracedMastra } from './mastra/traced.js';
import { removeProjects, runTraced, serveReplies } from './support.js';

/** The route: `{message}` in, `{reply}` out; the Mastra instance is made on the first request, once the receiver's URL is known. */
function startRoute(endpoint: () => string): Promise<string> {
  let mastra: Mastra | null = null;
  return serveReplies(async (body, headers) => {
    mastra ??= tracedMastra(endpoint());
    return body.start === true ? 'Welcome!' : answer(mastra, headers, String(body.message));
  });
}

afterAll(async () => {
  await removeProjects();
});

describe('a Mastra agent that answers with text alone, its spans exported by @mastra/otel-exporter to the receiver', () => {
  it('passes toolCalled from the spans, the calls recorded with source trace, the usage summed from the model-call spans', async () => {
    const { fixtures } = await runTraced(startRoute, {
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]\n',
      },
    });
    const status = fixtures.find((f) => f.label === 'order-status')!;
    expect(status.verdict, JSON.stringify(status)).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false, source: 'trace' }]);
    // The usage is the sum over Mastra's two model-call spans (`chat`, 10 in and 5 out each: mastra/model.ts), the response having none.
    expect(status.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(Object.keys(status.time?.tools ?? {})).toEqual(['find_order']);
  });
});
