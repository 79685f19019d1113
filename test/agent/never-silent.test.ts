// Never a silent empty reply (docs/presets.md, "Presets" and "Tool calls"): what the frameworks
// teams use today send, over a loopback server, read as a reply and tool calls, or an error that
// names what arrived. The bodies are the frameworks' own output (Mastra 1.71's /generate and
// /stream, AI SDK model messages), trimmed of ids and timestamps.
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { decodeEventStream } from '../../src/agent/stream.js';
import { findToolCallPaths, toolCallsHint } from '../../src/agent/index.js';
import { defaultConfig, MASTRA_MAPPING, NATIVE_MAPPING, type AgentConfig } from '../../src/config.js';
import type { AgentClient } from '../../src/types.js';
import { startAgentServer, type AgentHandler, type AgentServer } from '../support/agent-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serve(handler: AgentHandler): Promise<AgentServer> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  return server;
}

function client(overrides: Partial<AgentConfig>): AgentClient {
  const c = createHttpAgentClient({ ...defaultConfig().agent, retries: 0, start: null, ...overrides }, { clock: { now: () => 0, sleep: async () => undefined } });
  cleanups.push(() => c.close());
  return c;
}

const sse = (events: unknown[]): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/event-stream' },
  body: events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''),
});

const chunk = (type: string, payload: unknown) => ({ type, runId: 'r1', from: 'AGENT', payload });

/** Mastra 1.71 `/api/agents/support/stream`, a turn that called find_order (answered by a mock) and then replied. */
const MASTRA_STREAM = [
  chunk('start', { id: 'support', messageId: 'm1' }),
  chunk('step-start', { warnings: [], messageId: 'm1', request: {} }),
  chunk('tool-call', { toolCallId: 'call-find_order-1', toolName: 'find_order', args: { orderId: '1234' } }),
  chunk('tool-result', { args: { orderId: '1234' }, toolCallId: 'call-find_order-1', toolName: 'find_order', result: { orderId: '1234', status: 'mocked' } }),
  chunk('step-finish', { stepResult: { reason: 'tool-calls', isContinued: true }, output: { text: '', toolCalls: [{ toolCallId: 'call-find_order-1', toolName: 'find_order', args: { orderId: '1234' } }] } }),
  chunk('text-start', { id: 't1' }),
  chunk('text-delta', { id: 't1', text: 'Order ' }),
  chunk('text-delta', { id: 't1', text: '1234 is mocked.' }),
  chunk('text-end', { type: 'text-end', id: 't1' }),
  chunk('finish', { stepResult: { reason: 'stop' }, output: { usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } } }),
  '[DONE]',
];

/** Mastra 1.71 `/generate` (FullOutput as the server sends it), the same turn. */
const MASTRA_GENERATE = {
  text: 'Order 1234 is delivered.',
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
  totalUsage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 },
  finishReason: 'stop',
  toolCalls: [chunk('tool-call', { toolCallId: 'call-find_order-2', toolName: 'find_order', args: { orderId: '1234' } })],
  toolResults: [chunk('tool-result', { args: { orderId: '1234' }, toolCallId: 'call-find_order-2', toolName: 'find_order', result: { orderId: '1234', status: 'delivered' } })],
  response: {
    messages: [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-find_order-2', toolName: 'find_order', input: { orderId: '1234' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-find_order-2', toolName: 'find_order', output: { type: 'json', value: { orderId: '1234', status: 'delivered' } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Order 1234 is delivered.' }] },
    ],
  },
  runId: 'r1',
};

describe('Mastra', () => {
  it('the mastra preset reads /generate: text, the run\'s toolCalls paired with their toolResults (real calls), totalUsage', async () => {
    const server = await serve(() => ({ json: MASTRA_GENERATE }));
    const s = client({ url: server.url, preset: 'mastra', mapping: MASTRA_MAPPING }).session({ session: 'S', persona: null, mocks: [{ tool: 'find_order', input: null, match: 'subset', output: { status: 'x' } }] });
    expect(await s.send('Order 1234', 1)).toMatchObject({
      kind: 'replied',
      reply: 'Order 1234 is delivered.',
      toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered' }, mocked: false }],
      usage: { inputTokens: 20, outputTokens: 10 },
    });
    // The whole conversation as messages, the mocks in requestContext.mocks.
    expect(server.requests[0]!.json).toEqual({ messages: [{ role: 'user', content: 'Order 1234' }], requestContext: { mocks: [{ tool: 'find_order', input: null, match: 'subset', output: { status: 'x' } }] } });
  });

  it('/generate: a tool that threw is missing from toolResults; its error-text result in the steps makes it a real call that failed, not a request', async () => {
    const threw = {
      text: 'Refund ? is on its way.',
      toolCalls: [chunk('tool-call', { toolCallId: 'c1', toolName: 'issue_refund', args: { orderId: '1234' } })],
      toolResults: [],
      steps: [
        { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'issue_refund', input: { orderId: '1234' } }, { type: 'tool-result', toolCallId: 'c1', toolName: 'issue_refund', output: { type: 'error-text', value: 'agent-replay: no mock answers issue_refund' } }] },
        { content: [{ type: 'text', text: 'Refund ? is on its way.' }] },
      ],
    };
    const server = await serve(() => ({ json: threw }));
    const s = client({ url: server.url, preset: 'mastra', mapping: MASTRA_MAPPING }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('It arrived broken', 3)).toMatchObject({
      kind: 'replied',
      toolCalls: [{ tool: 'issue_refund', input: { orderId: '1234' }, output: { error: 'agent-replay: no mock answers issue_refund' }, mocked: false }],
    });
  });

  it('the stream decoder reads Mastra chunks: payload text, tool payloads, finish usage; an error chunk names its message', () => {
    const ok = decodeEventStream(sse(MASTRA_STREAM).body);
    expect(ok).toEqual({
      ok: true,
      value: { reply: 'Order 1234 is mocked.', toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'mocked' }, mocked: false }], toolCallItems: ['"payload" on stream event 3 (tool-call)'], usage: { kind: 'usage', usage: { inputTokens: 20, outputTokens: 10 } } },
    });
    // A reply before the tool call and one after it are two steps: joined with a blank line, as
    // @mastra/react and a chatRoute's chat show them apart (and the vercel-ai preset reads that route);
    // the text of one step runs on as sent. A step-finish alone (no step-start after it) ends the step.
    const said = decodeEventStream(
      sse([
        chunk('start', { id: 'support', messageId: 'm1' }),
        chunk('step-start', { warnings: [], messageId: 'm1', request: {} }),
        chunk('text-delta', { id: 't0', text: 'Let me ' }),
        chunk('text-delta', { id: 't0', text: 'look that up.' }),
        ...MASTRA_STREAM.slice(2, 5),
        chunk('text-delta', { id: 't1', text: 'Order ' }),
        chunk('text-delta', { id: 't1', text: '1234 is mocked.' }),
        chunk('step-finish', { stepResult: { reason: 'tool-calls', isContinued: true }, output: {} }),
        chunk('step-start', { warnings: [], messageId: 'm1', request: {} }),
        chunk('text-delta', { id: 't2', text: 'Anything else?' }),
        ...MASTRA_STREAM.slice(-2),
      ]).body,
    );
    expect(said).toMatchObject({ ok: true, value: { reply: 'Let me look that up.\n\nOrder 1234 is mocked.\n\nAnything else?' } });
    const failed = decodeEventStream(sse([chunk('start', {}), chunk('error', { type: 'error', error: { message: 'the scripted model crashed (asked to)', name: 'Error' } }), '[DONE]']).body);
    expect(failed).toEqual({ ok: false, error: 'the stream sent an error event: the scripted model crashed (asked to)' });
  });

  it('a Mastra stream read through the vercel-ai preset is not "": it is Mastra\'s format, whatever the preset', async () => {
    const server = await serve(() => sse(MASTRA_STREAM));
    const s = client({ url: server.url, preset: 'vercel-ai', stream: true }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('Order 1234', 1)).toMatchObject({ kind: 'replied', reply: 'Order 1234 is mocked.', toolCalls: [{ tool: 'find_order', mocked: false }] });
  });

  it('a custom mapping on Mastra\'s toolCalls key reads its chunks; the AI SDK response.messages read the same calls', async () => {
    const server = await serve(() => ({ json: MASTRA_GENERATE }));
    const own = { ...NATIVE_MAPPING, body: { messages: '{{messages}}' }, reply: 'text', toolCalls: 'toolCalls', outcome: null, errors: null, conversation: null, stage: null };
    const s = client({ url: server.url, mapping: own }).session({ session: 'S', persona: null, mocks: [] });
    // toolCalls alone holds no results: requests, nothing ran as far as this list says.
    expect(await s.send('Order 1234', 1)).toMatchObject({ kind: 'replied', toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: null, mocked: true }] });
    const viaMessages = client({ url: server.url, mapping: { ...own, toolCalls: 'response.messages' } }).session({ session: 'S', persona: null, mocks: [] });
    expect(await viaMessages.send('Order 1234', 1)).toMatchObject({ kind: 'replied', toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered' }, mocked: false }] });
  });
});

describe('never silent', () => {
  it('a stream with no reply text and no tool call is an error naming the events that came, not ""', async () => {
    const server = await serve((req) =>
      req.index === 0
        ? sse([{ type: 'start' }, { type: 'start-step' }, { type: 'finish-step' }, { type: 'finish' }, '[DONE]'])
        : sse([chunk('start', {}), chunk('step-start', {}), chunk('finish', { output: { usage: {} } }), '[DONE]']),
    );
    const s = client({ url: server.url, preset: 'vercel-ai', stream: true }).session({ session: 'S', persona: null, mocks: [] });
    // A stream that ended with nothing to read is a missing reply, answered all the same, kept for a span reader.
    expect(await s.send('hi', 1)).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', answered: true, withoutReply: { reply: '' }, error: 'turn 1: no reply text and no tool call could be read from the stream (a vercel-ai stream, 4 events: start, start-step, finish-step, finish)' });
    expect(await s.send('hi', 2)).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', answered: true, error: 'turn 2: no reply text and no tool call could be read from the stream (a mastra stream, 3 events: start, step-start, finish)' });
  });

  it('a welcome turn whose stream ended with nothing to read is a welcome with no greeting, as a welcome whose body holds none', async () => {
    const server = await serve(() => sse([{ type: 'start' }, { type: 'start-step' }, { type: 'finish-step' }, { type: 'finish' }, '[DONE]']));
    const s = client({ url: server.url, mapping: NATIVE_MAPPING, start: { ...NATIVE_MAPPING, body: { start: true } } }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.welcome()).toMatchObject({ kind: 'replied', reply: '' });
  });

  it('a decoded JSON answer with no text and no tool call names its keys', async () => {
    const server = await serve(() => ({ json: { text: '', toolCalls: [], finishReason: 'stop', runId: 'r' } }));
    const s = client({ url: server.url, preset: 'mastra', mapping: MASTRA_MAPPING }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('hi', 1)).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', error: 'turn 1: no reply text and no tool call could be read from the response (an object (keys: text, toolCalls, finishReason, runId))' });
  });

  it('AI SDK model messages: tool-call parts are calls, answered by tool-result parts; a tool part of an unknown shape is an error, not "not called"', async () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Order 1234' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'find_order', input: { orderId: '1234' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'find_order', output: { type: 'json', value: { status: 'delivered' } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Delivered.' }, { type: 'tool-call', toolCallId: 'c2', toolName: 'escalate', input: {} }] },
    ];
    const unknown = [{ role: 'assistant', content: [{ type: 'tool-invocation', toolInvocation: { toolName: 'find_order' } }] }];
    const server = await serve((req) => ({ json: { text: 'Delivered.', messages: req.index === 0 ? messages : unknown } }));
    const mapping = { ...NATIVE_MAPPING, body: { q: '{{message}}' }, reply: 'text', toolCalls: 'messages', outcome: null, errors: null };
    const s = client({ url: server.url, mapping }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('Order 1234', 1)).toMatchObject({
      kind: 'replied',
      toolCalls: [
        { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false },
        { tool: 'escalate', input: {}, output: null, mocked: true },
      ],
    });
    const refused = await s.send('Order 1234', 2);
    expect(refused).toMatchObject({ kind: 'errored', errorKind: 'invalid_response' });
    expect((refused as { error: string }).error).toContain('"messages.0" is not a tool call');
    expect((refused as { error: string }).error).toContain('a message whose part an object of type "tool-invocation" (keys: type, toolInvocation) speaks of a tool in a shape not known');
  });
});

describe('the tool-call path hint names only paths the response has', () => {
  const own = { ...NATIVE_MAPPING, body: { messages: '{{messages}}' }, reply: 'text', toolCalls: null, outcome: null, errors: null, conversation: null, stage: null };
  /** An AI SDK generateText result as a route of one's own returns it: text, steps, response.messages. */
  const AI_SDK_RESULT = {
    text: 'Order 1234 is delivered.',
    steps: [
      { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'find_order', input: { orderId: '1234' } }, { type: 'tool-result', toolCallId: 'c1', toolName: 'find_order', output: { type: 'json', value: { status: 'delivered' } } }] },
      { content: [{ type: 'text', text: 'Order 1234 is delivered.' }] },
    ],
    finishReason: 'stop',
  };

  it('finds the lists of tool calls in Mastra\'s /generate and in an AI SDK result, shallowest first', () => {
    expect(findToolCallPaths(MASTRA_GENERATE)).toEqual(['toolCalls', 'response.messages']);
    expect(findToolCallPaths(AI_SDK_RESULT)).toEqual(['steps.0.content']);
    expect(findToolCallPaths({ text: 'Hello', usage: { inputTokens: 1 }, messages: [{ role: 'assistant', content: 'Hello' }] })).toEqual([]);
  });

  it('names the real paths when the mapping reads none; says none exists, with no path, when the response has none', () => {
    expect(toolCallsHint(MASTRA_GENERATE, own)).toBe(
      'not reported (no agent.response.toolCalls path); the response holds tool calls at "toolCalls" or "response.messages": set agent.response.toolCalls to one of them',
    );
    expect(toolCallsHint(AI_SDK_RESULT, { ...own, toolCalls: 'toolCalls' })).toBe(
      'not reported ("toolCalls" is not in the response); the response holds tool calls at "steps.0.content": set agent.response.toolCalls to it',
    );
    const none = toolCallsHint({ text: 'Hello', finishReason: 'stop' }, own);
    expect(none).toBe('not reported (no agent.response.toolCalls path); nothing in the response is a list of tool calls, so no path would read one');
    expect(none).not.toContain('set agent.response.toolCalls');
  });

  it('a path that reads calls names them; a path found by the hint reads the calls it promised', () => {
    expect(toolCallsHint(MASTRA_GENERATE, { ...own, toolCalls: 'toolCalls' })).toBe('find_order (read at "toolCalls")');
    expect(toolCallsHint(AI_SDK_RESULT, { ...own, toolCalls: 'steps.0.content' })).toBe('find_order (read at "steps.0.content")');
    expect(toolCallsHint(MASTRA_GENERATE, { ...own, toolCalls: 'response.messages' })).toBe('find_order (read at "response.messages")');
  });
});

