// Tools from traces with Mastra (docs/traces.md, "Set-up: Mastra"): the example agent of
// mastra/index.ts (Mastra's own fake model, the real tools) in the Mastra instance of
// mastra/traced.ts (the code docs/traces.md shows), whose observability exports with
// @mastra/otel-exporter (OTLP/HTTP protobuf) to agent-replay's receiver (`traces.receive.port: 0`,
// its URL read from the run's log line as a workflow would). The route answers with text alone
// (`{reply}`, no tool calls in the body): the tool calls can only come from the spans. The incoming
// `traceparent` is extracted with @opentelemetry/core's W3CTraceContextPropagator and handed to
// Mastra as `tracingOptions` (`traceId`, `parentSpanId`), Mastra's way of continuing a trace it did
// not start.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mastra } from '@mastra/core';
import { afterAll, describe, expect, it } from 'vitest';
import { answer, tracedMastra } from './mastra/traced.js';
import { makeProject, readJson, receiverConfig, removeProjects, type Results, runStreaming } from './support.js';

/** The route: `{message}` in, `{reply}` out; the Mastra instance is made on the first request, once the receiver's URL is known. */
async function startRoute(endpoint: () => string): Promise<{ server: Server; url: string }> {
  let mastra: Mastra | null = null;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      mastra ??= tracedMastra(endpoint());
      if (body.start === true) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: 'Welcome!' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: await answer(mastra, req.headers, String(body.message)) }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let route: { server: Server; url: string } | null = null;
afterAll(async () => {
  await new Promise<void>((resolve) => (route ? route.server.close(() => resolve()) : resolve()));
  await removeProjects();
});

describe('a Mastra agent that answers with text alone, its spans exported by @mastra/otel-exporter to the receiver', () => {
  it('passes toolCalled from the spans, the calls recorded with source trace, the usage summed from the model-call spans', async () => {
    let receiver = '';
    route = await startRoute(() => receiver);
    const cwd = await makeProject({
      config: receiverConfig(route.url),
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]\n',
      },
    });
    const r = await runStreaming(cwd, (url) => (receiver = url));
    expect(r.code, r.stderr).toBe(0);
    expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    type Fixture = Results['fixtures'][number] & { checks?: { status: string }[]; toolCalls?: unknown[]; usage?: unknown; time?: { tools: Record<string, number> } | null };
    const results = JSON.parse(await readFile(join(cwd, 'results.json'), 'utf8')) as Results;
    const status = (results.fixtures as Fixture[]).find((f) => f.label === 'order-status')!;
    expect(status.verdict, JSON.stringify(status)).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false, source: 'trace' }]);
    // The usage is the sum over Mastra's two model-call spans (`chat`, 10 in and 5 out each: mastra/model.ts), the response having none.
    expect(status.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(Object.keys(status.time?.tools ?? {})).toEqual(['find_order']);
  });
});
