// Tools from traces with AI SDK 7 (docs/traces.md, "Set-up: Vercel AI SDK"): the route of
// vercel-ai/traced-route.ts (the code docs/traces.md shows: NodeTracerProvider with the OTLP/HTTP
// exporter, `registerTelemetry(new OpenTelemetry())` from @ai-sdk/otel, a server span continuing the
// incoming traceparent) on the example model and tools (vercel-ai/model.ts, MockLanguageModelV4
// playing the scripted conversation; db.ts, where order 0 makes find_order throw), served on
// node:http by vercel-ai/serve-fetch.ts. Its spans go to agent-replay's receiver (`traces.receive.port:
// 0`, its URL read from the run's log line as a workflow would); the route answers `{reply}` with text
// alone, so the tool calls can only come from the spans. The real CLI runs the suite.

import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { removeProjects, runTraced } from './support.js';
import { ranForReal } from './vercel-ai/db.js';
import { serveFetch } from './vercel-ai/serve-fetch.js';
import { tracedRoute } from './vercel-ai/traced-route.js';

let route: { server: Server; url: string } | null = null;
afterAll(async () => {
  await new Promise<void>((resolve) => (route ? route.server.close(() => resolve()) : resolve()));
  await removeProjects();
});

describe('an AI SDK 7 route that answers with text alone, its @ai-sdk/otel spans sent to the receiver', () => {
  it('gets toolCalled and mocked-mode errors right in persona scripts and fixtures; a thrown tool error errors the script with its message', async () => {
    // The route is set up on the first request, once the receiver's URL is known.
    let handler: ((req: Request) => Promise<Response>) | null = null;
    const start = async (receiver: () => string): Promise<string> => {
      route = await serveFetch((req) => (handler ??= tracedRoute(receiver()))(req), '/api/agent');
      return route.url;
    };
    // The requests carried no tool calls back: every reply is the text alone.
    const { results, fixtures } = await runTraced(start, {
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]\n',
        'order-broken.yaml': 'label: order-broken\nmessage: Where is order 0?\nassert: { contains: "Order" }\n',
      },
      personas: {
        'shop.yaml': `personas:
  - label: mocked-lookup
    opening: Where is order 1234?
    mocks: [ { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: mocked } } ]
    expect: { toolCalled: [ { tool: find_order, input: { orderId: "1234" } } ], toolNotCalled: [ { tool: issue_refund } ] }
  - label: unmocked-lookup
    opening: Where is order 5678?
    mocks: [ { tool: issue_refund, output: { refundId: R-MOCK } } ]
    expect: { toolNotCalled: [ { tool: issue_refund } ] }
  - label: broken-script
    opening: Where is order 0?
    unmockedTools: allow
    expect: { toolCalled: [ { tool: find_order } ] }
`,
      },
    });

    const status = fixtures.find((f) => f.label === 'order-status')!;
    expect(status.verdict, JSON.stringify(status)).toBe('pass');
    expect(status.reply).toBe('Order 1234 is delivered.');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false, source: 'trace' }]);
    // Usage: the two chat spans (10 in, 5 out each: vercel-ai/model.ts), the response having none.
    expect(status.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(Object.keys(status.time?.tools ?? {})).toEqual(['find_order']);
    // The server span, invoke_agent, two steps, two chats and the tool; all there before the turn was read.
    expect(status.spans).toEqual({ count: 7, ignored: 4, late: 0 });
    const brokenFixture = fixtures.find((f) => f.label === 'order-broken')!;
    expect(brokenFixture.errored).toBe(true);
    expect(brokenFixture.error).toContain('span execute_tool find_order failed: the orders service is unavailable');

    const lookup = results.personas.find((p) => p.label === 'mocked-lookup')!;
    expect(lookup.verdict, JSON.stringify(lookup)).toBe('pass');
    expect(lookup.turns.find((t) => t.index === 1)?.toolCalls).toEqual([expect.objectContaining({ tool: 'find_order', mocked: true, output: { orderId: '1234', status: 'mocked' } })]);
    const unmocked = results.personas.find((p) => p.label === 'unmocked-lookup')!;
    expect(unmocked.errored).toBe(true);
    expect(unmocked.errorKind).toBe('unmocked_tool');
    expect(unmocked.error).toContain('find_order');
    const broken = results.personas.find((p) => p.label === 'broken-script')!;
    expect(broken.errored).toBe(true);
    expect(broken.error).toBe('turn 1: the agent reported an error (span_error, tool find_order): span execute_tool find_order failed: the orders service is unavailable');
    // Mocked mode ran no real tool: only the live fixtures' and the broken script's lookups did.
    expect(ranForReal.map((c) => (c.input as { orderId: string }).orderId).sort()).toEqual(['0', '0', '1234']);
  });
});
