// Tools from traces with the OpenAI Agents SDK (docs/traces.md, "Set-up: OpenAI Agents SDK"): an
// Agent on the scripted model of openai-agents/route.ts (no network), its function tools wrapped by
// mockAgentsTool, behind a route that answers with text alone (`{reply}`, no tool calls in the body).
// Its spans come from OpenInference's instrumentation for the SDK, sent with the OTLP/HTTP protobuf
// exporter to agent-replay's receiver (`traces.receive.port: 0`, its URL read from the run's log
// line as a workflow would), each request in a server span under the incoming `traceparent`
// (openai-agents/traced.ts, the code the docs quote). The SDK's own export to OpenAI is replaced,
// so nothing leaves the machine.

import { Agent, run, tool, withGenerationSpan, type AgentInputItem, type ModelRequest, type ModelResponse } from '@openai/agents';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mockAgentsTool } from '../../src/mocks/index.js';
import { ScriptedModel } from './openai-agents/route.js';
import { inRequestSpan, traceAgents } from './openai-agents/traced.js';
import { removeProjects, runTraced, serveReplies } from './support.js';

const ranForReal: { tool: string; input: unknown }[] = [];

// Order 404's lookup fails, with the SDK's default error handling (the model is told "An error
// occurred while running the tool", the span's error details redacted); order 555's refund fails
// with a tool of its own `errorFunction`, under which the SDK writes the error into the span.
const findOrder = tool(
  mockAgentsTool({
    name: 'find_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }: { orderId: string }) => {
      ranForReal.push({ tool: 'find_order', input: { orderId } });
      if (orderId === '404') throw new Error('orders database unavailable');
      return JSON.stringify({ orderId, status: 'delivered', source: 'orders-db' });
    },
  }),
);
const issueRefund = tool(
  mockAgentsTool({
    name: 'issue_refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input: { orderId: string; reason: string }) => {
      ranForReal.push({ tool: 'issue_refund', input });
      if (input.orderId === '555') throw new Error('refunds service unavailable');
      return JSON.stringify({ refundId: `R-LIVE-${input.orderId}` });
    },
    errorFunction: (_context: unknown, error: unknown) => `The refund failed: ${String(error)}`,
  }),
);
/**
 * The scripted model with the span the SDK's own OpenAI models make around each call (a
 * `generation` span with the model and the usage, as its chat-completions model does): the scripted
 * model alone makes none, and the SDK adds none for a model.
 */
class SpannedModel extends ScriptedModel {
  override getResponse(request: ModelRequest): Promise<ModelResponse> {
    return withGenerationSpan(async (span) => {
      span.spanData.model = 'scripted';
      const response = await super.getResponse(request);
      span.spanData.usage = { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens };
      return response;
    });
  }
}
const agent = new Agent({ name: 'support', instructions: 'Help with orders.', model: new SpannedModel(), tools: [findOrder, issueRefund] });

/**
 * The route (the native protocol): `{session, message}` in, `{reply}` out, the conversation kept per
 * session; tracing is set up on the first request, once the receiver's URL is known.
 */
function startRoute(endpoint: () => string): Promise<string> {
  let provider: NodeTracerProvider | null = null;
  const sessions = new Map<string, AgentInputItem[]>();
  return serveReplies(async (body, headers) => {
    provider ??= traceAgents(endpoint());
    try {
      return await inRequestSpan(provider, headers, async () => {
        if (body.start === true) return 'Welcome!';
        const session = String(body.session);
        const input: AgentInputItem[] = [...(sessions.get(session) ?? []), { role: 'user', content: String(body.message) }];
        const result = await run(agent, input, { context: { mocks: body.mocks } });
        sessions.set(session, result.history);
        return String(result.finalOutput ?? '');
      });
    } catch (e) {
      return `Sorry: ${(e as Error).message}`;
    }
  });
}

afterAll(async () => {
  await removeProjects();
});

describe('an OpenAI Agents SDK route that answers with text alone, its OpenInference spans sent to the receiver', () => {
  it('reads toolCalled from the spans in fixtures and scripts, errors an unmocked call in mocked mode, and errors a thrown tool error with the span message', async () => {
    const { results, fixtures } = await runTraced(startRoute, {
      fixtures: {
        'order-status.yaml': 'label: order-status\nmessage: Where is order 1234?\nassert: [ { toolCalled: { tool: find_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]\n',
        'order-broken.yaml': 'label: order-broken\nmessage: Where is order 404?\nassert: { contains: "Order" }\n',
      },
      personas: {
        'shop.yaml': `personas:
  - label: mocked-lookup
    opening: Where is order 1234?
    mocks: [ { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: in-transit-mock } } ]
    expect: { toolCalled: [ { tool: find_order, input: { orderId: "1234" } } ], toolNotCalled: [ { tool: issue_refund } ] }
  - label: mocked-unmocked
    opening: Where is order 1234?
    mocks: [ { tool: issue_refund, output: { refundId: R-MOCK } } ]
    expect: { toolCalled: [ { tool: find_order } ] }
  - label: allowed-unmocked
    opening: I want my money back
    followUps: [ "Order 1234", "It arrived broken" ]
    mocks: [ { tool: find_order, output: { orderId: "1234", status: delivered } } ]
    unmockedTools: allow
    expect: { toolCalled: [ { tool: issue_refund } ] }
  - label: refund-broken
    opening: I want my money back
    followUps: [ "Order 555", "It arrived broken" ]
    expect: { toolCalled: [ { tool: issue_refund, input: { orderId: "555" } } ] }
`,
      },
    });

    // A fixture: the calls come from the function span alone (OpenInference's TOOL span: tool.name,
    // input.value the arguments' JSON, output.value the tool's JSON text), marked source trace.
    const status = fixtures.find((f) => f.label === 'order-status')!;
    expect(status.reply).toBe('Order 1234 is delivered.');
    expect(status.verdict, JSON.stringify(status)).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false, source: 'trace' }]);
    // The usage is the sum over the two generation spans (OpenInference's LLM spans, llm.token_count.*), the response having none.
    expect(status.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    expect(Object.keys(status.time?.tools ?? {})).toEqual(['find_order']);

    // The SDK's default error handling: the run goes on, the function span is ERROR with the details redacted.
    const broken = fixtures.find((f) => f.label === 'order-broken')!;
    expect(broken.errored).toBe(true);
    expect(broken.error).toBe(
      'message turn: the agent reported an error (span_error, tool find_order): span find_order failed: Error running tool (non-fatal): {"tool_name":"find_order","error":"Tool execution failed. Error details are redacted."}',
    );

    // Mocked mode: the mock's output is the span's output, so the traced call is a mocked one.
    const lookup = results.personas.find((p) => p.label === 'mocked-lookup')!;
    expect(lookup.errored, lookup.error ?? '').toBe(false);
    expect(lookup.turns.map((t) => t.reply)).toEqual(['Welcome!', 'Order 1234 is in-transit-mock.']);
    expect(lookup.turns[0]?.toolCalls).toEqual([]); // the welcome turn's server span: no tool
    expect(lookup.turns[1]?.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'in-transit-mock' }, mocked: true, source: 'trace' }]);
    expect(lookup.checks.map((c) => `${c.kind} ${c.status}`)).toEqual(['toolCalled pass', 'toolNotCalled pass']);
    expect(lookup.verdict).toBe('pass');

    // A call no mock answers: the helper throws, the SDK answers the model with its error text, and
    // that output is no mock's: the script is errored, the real tool not run.
    const unmocked = results.personas.find((p) => p.label === 'mocked-unmocked')!;
    expect(unmocked.errored).toBe(true);
    expect(unmocked.errorKind).toBe('unmocked_tool');
    expect(unmocked.error).toContain('find_order');

    // unmockedTools: allow, a call no mock answers to a tool with its own errorFunction: the call is
    // no error, but the helper threw, and the span's message holds the helper's (kind unmocked_tool).
    const allowed = results.personas.find((p) => p.label === 'allowed-unmocked')!;
    expect(allowed.turns[3]?.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: expect.stringMatching(/^The refund failed: UnmockedToolError: agent-replay: no mock answers issue_refund/), mocked: false, source: 'trace' }]);
    expect(allowed.errored).toBe(true);
    expect(allowed.errorKind).toBe('unmocked_tool');
    expect(allowed.error).toMatch(/^turn 3: the agent reported an error \(unmocked_tool, tool issue_refund\): span issue_refund failed: Error running tool \(non-fatal\): \{"tool_name":"issue_refund","error":"UnmockedToolError: agent-replay: no mock answers issue_refund/);

    // A tool with its own errorFunction: the span's message carries the thrown error.
    const refund = results.personas.find((p) => p.label === 'refund-broken')!;
    expect(refund.turns.map((t) => t.reply)).toEqual(['Welcome!', 'Which order is it about?', 'Order 555 is delivered.', 'Refund ? is on its way.']);
    expect(refund.errored).toBe(true);
    expect(refund.errorKind).toBe('agent_error');
    expect(refund.error).toBe(
      'turn 3: the agent reported an error (span_error, tool issue_refund): span issue_refund failed: Error running tool (non-fatal): {"tool_name":"issue_refund","error":"Error: refunds service unavailable"}',
    );
    expect(refund.turns[3]?.toolCalls).toEqual([
      { tool: 'issue_refund', input: { orderId: '555', reason: 'I want my money back' }, output: 'The refund failed: Error: refunds service unavailable', mocked: false, source: 'trace' },
    ]);
    // The tools that ran for real (the unmocked call did not: the helper threw first), in whichever order the items ran.
    expect(ranForReal).toHaveLength(4);
    expect(ranForReal).toEqual(expect.arrayContaining([
      { tool: 'find_order', input: { orderId: '1234' } },
      { tool: 'find_order', input: { orderId: '404' } },
      { tool: 'find_order', input: { orderId: '555' } },
      { tool: 'issue_refund', input: { orderId: '555', reason: 'I want my money back' } },
    ]));
  });
});
