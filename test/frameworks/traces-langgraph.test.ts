// Tools from traces with LangGraph (docs/traces.md "Set-up: LangGraph / LangChain"): the createAgent
// graph (langgraph/agent.ts, the fake chat model) behind a route that answers with text alone (the
// native protocol's `reply`, no tool calls in the body), instrumented with OpenInference's LangChain
// instrumentation and exporting with the real OTLP/HTTP exporter to agent-replay's receiver
// (`traces.receive.port: 0`, its URL read from the run's log line as a workflow would). The incoming
// `traceparent` is propagated with @opentelemetry/core's W3CTraceContextPropagator
// (langgraph/traced-route.ts, the code the docs quote).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useAsyncContext } from '../support/otel-spans.js';
import { tracedChat, type Chat } from './langgraph/traced-route.js';
import { removeProjects, ROOT, runTraced, serveReplies } from './support.js';

/** The route: the traced chat made on the first request, once the receiver's URL is known. */
function startRoute(endpoint: () => string): Promise<string> {
  useAsyncContext();
  let chat: Chat | null = null;
  return serveReplies(async (body, headers) => {
    chat ??= tracedChat(endpoint());
    try {
      return await chat(headers, { message: typeof body.message === 'string' ? body.message : undefined, start: body.start === true, mocks: body.mocks });
    } catch (e) {
      return `Sorry: ${(e as Error).message}`;
    }
  });
}

afterAll(async () => {
  await removeProjects();
});

describe('a LangGraph route that answers with text alone, its OpenInference spans sent to the receiver', () => {
  it('toolCalled passes from the TOOL spans, the calls recorded with source trace, in a fixture and in a mocked script', async () => {
    const { results, fixtures } = await runTraced(startRoute, {
      personas: {
        'shop.yaml': `personas:
  - label: mocked-lookup
    opening: Where is order 1234?
    mocks: [ { tool: find_order, output: { orderId: "1234", status: in-transit-mock } } ]
    expect: { toolCalled: [ { tool: find_order } ], toolNotCalled: [ { tool: issue_refund } ] }
`,
      },
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order } }, { toolNotCalled: { tool: issue_refund } } ]\n',
      },
    });
    const status = fixtures.find((f) => f.label === 'order-status')!;
    expect(status.reply).toBe('Order 1234 is delivered.');
    expect(status.verdict).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    // What OpenInference records (docs/traces.md "Set-up: LangGraph / LangChain"): a tool taking one
    // string argument has that value as its input.value ("1234", read as JSON: 1234); the output is
    // the tool's ToolMessage serialized, read as its content.
    expect(status.toolCalls).toEqual([
      {
        tool: 'find_order',
        input: 1234,
        output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, // the ToolMessage's content
        mocked: false,
        source: 'trace',
      },
    ]);

    // Mocked mode: the graph's tool answered from the mock (mockLangGraphTool), its span's output equal
    // to the mock's output, so the traced call is a mocked one and the script passes.
    const lookup = results.personas.find((p) => p.label === 'mocked-lookup')!;
    expect(lookup.errored, lookup.error ?? '').toBe(false);
    expect(lookup.turns[1]?.reply).toBe('Order 1234 is in-transit-mock.');
    expect(lookup.turns[1]?.toolCalls).toEqual([{ tool: 'find_order', input: 1234, output: { orderId: '1234', status: 'in-transit-mock' }, mocked: true, source: 'trace' }]);
    expect(lookup.verdict, JSON.stringify(lookup, null, 1)).toBe('pass');
  });

  it('docs/traces.md quotes the route as langgraph/traced-route.ts has it', async () => {
    const between = (text: string, start: string, end: string): string => text.slice(text.indexOf(start) + start.length, text.indexOf(end, text.indexOf(start))).trim();
    const code = between(await readFile(join(ROOT, 'test', 'frameworks', 'langgraph', 'traced-route.ts'), 'utf8'), '// --- docs/traces.md: Set-up: LangGraph / LangChain ---', '// --- end ---');
    const docs = between(await readFile(join(ROOT, 'docs', 'traces.md'), 'utf8'), '### Set-up: LangGraph / LangChain', '\n##');
    expect(code.length).toBeGreaterThan(0);
    expect(docs).toContain('```ts\n' + code + '\n```');
  });
});
