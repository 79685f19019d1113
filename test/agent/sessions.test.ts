// Persona sessions over HTTP (docs/personas.md, "The protocol additions"): mocks on every turn,
// tool calls, outcome and errors read with the mapping, the openai-chat preset's tool_calls, and
// responses of the wrong shape.
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, renderTemplate } from '../../src/agent/index.js';
import { defaultConfig, NATIVE_MAPPING, OPENAI_CHAT_MAPPING, type AgentConfig } from '../../src/config.js';
import type { AgentClient, Mock } from '../../src/types.js';
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
  const c = createHttpAgentClient({ ...defaultConfig().agent, retries: 0, ...overrides }, { clock: { now: () => 0, sleep: async () => undefined } });
  cleanups.push(() => c.close());
  return c;
}

/** The trace context every turn's request carried (docs/traces.md, "traceparent"). */
const TRACE = { traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) };

const MOCKS: Mock[] = [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } }];

describe('native protocol sessions', () => {
  it('sends session, persona and mocks with every turn, welcome included; a fixture request has no mocks key', async () => {
    const server = await serve((req) => {
      const body = req.json as Record<string, unknown>;
      return { json: { reply: body.start ? 'Welcome' : `echo ${String(body.message)}`, route: { conversation: 'c', stage: 's' }, ended: false, toolCalls: [], outcome: null } };
    });
    const c = client({ url: server.url });
    const s = c.session({ session: 'S', persona: 'p', mocks: MOCKS });
    expect(await s.welcome()).toMatchObject({ kind: 'replied', reply: 'Welcome', toolCalls: [], outcome: null, outcomeReported: true, errors: [] });
    expect(await s.send('hi', 1)).toMatchObject({ kind: 'replied', reply: 'echo hi' });
    expect(server.requests.map((r) => r.json)).toEqual([
      { session: 'S', persona: 'p', start: true, mocks: MOCKS },
      { session: 'S', message: 'hi', persona: 'p', mocks: MOCKS },
    ]);
    await c.converse({ session: 'F', message: 'm', persona: null });
    expect(server.requests.slice(2).map((r) => r.json)).toEqual([
      { session: 'F', persona: null, start: true },
      { session: 'F', message: 'm', persona: null },
    ]);
  });

  it('reads toolCalls, outcome and errors; a missing key is "not reported"; a call without mocked: true is a real call', async () => {
    const answers: unknown[] = [
      { reply: 'a' },
      { reply: 'b', toolCalls: [{ tool: 'find_order', input: { orderId: '1' }, output: { status: 'x' }, mocked: true }, { tool: 'issue_refund', input: { amount: 1 } }], outcome: 'finish', errors: [{ kind: 'unmocked_tool', tool: 'issue_refund', message: 'no mock' }, 'plain text'] },
    ];
    const server = await serve((req) => ({ json: answers[req.index] }));
    const s = client({ url: server.url, start: null }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('one', 1)).toEqual({ trace: TRACE, kind: 'replied', reply: 'a', route: null, offTrack: [], ended: false, toolCalls: null, outcome: null, outcomeReported: false, errors: [], timing: expect.any(Object) });
    expect(await s.send('two', 2)).toEqual({ trace: TRACE,
      kind: 'replied',
      timing: expect.any(Object),
      reply: 'b',
      route: null,
      offTrack: [],
      ended: false,
      toolCalls: [
        { tool: 'find_order', input: { orderId: '1' }, output: { status: 'x' }, mocked: true },
        { tool: 'issue_refund', input: { amount: 1 }, output: null, mocked: false },
      ],
      outcome: 'finish',
      outcomeReported: true,
      errors: [
        { kind: 'unmocked_tool', tool: 'issue_refund', message: 'no mock' },
        { kind: 'error', tool: null, message: 'plain text' },
      ],
    });
  });

  it('a response of the wrong shape errors the turn, naming the turn and the path', async () => {
    const answers: unknown[] = [{ reply: 'a', toolCalls: { tool: 'x' } }, { reply: 'b', toolCalls: [{ name: 'x' }] }, { reply: 'c', outcome: 3 }, { reply: 'd', errors: 'bad' }, { nope: 1 }];
    const server = await serve((req) => ({ json: answers[req.index] }));
    const s = client({ url: server.url, start: null }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('m', 1)).toEqual({ trace: TRACE, kind: 'errored', answered: true, errorKind: 'invalid_response', error: 'turn 1: "toolCalls" must be an array of tool calls (found an object)' });
    expect(await s.send('m', 2)).toMatchObject({ kind: 'errored', errorKind: 'invalid_response', error: expect.stringMatching(/^turn 2: "toolCalls\.0" is not a tool call/) });
    expect(await s.send('m', 3)).toEqual({ trace: TRACE, kind: 'errored', answered: true, errorKind: 'invalid_response', error: 'turn 3: "outcome" must be "finish", "handoff", "switch" or null (found number 3)' });
    expect(await s.send('m', 4)).toEqual({ trace: TRACE, kind: 'errored', answered: true, errorKind: 'invalid_response', error: 'turn 4: "errors" must be an array of errors (found a string)' });
    // No reply and no call: errored, with the turn as a calls-only turn kept for a span reader (docs/traces.md).
    expect(await s.send('m', 5)).toEqual({ trace: TRACE,
      kind: 'errored',
      answered: true,
      errorKind: 'missing_reply',
      error: 'turn 5: response has no string at "reply" (found nothing; the response is an object (keys: nope))',
      withoutReply: { kind: 'replied', reply: '', route: null, offTrack: [], ended: false, toolCalls: null, outcome: null, outcomeReported: false, errors: [], timing: expect.any(Object), trace: TRACE },
    });
  });

  it('an HTTP failure names the turn', async () => {
    const server = await serve(() => ({ status: 500, json: { error: 'down' } }));
    const s = client({ url: server.url, start: null }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('m', 3)).toEqual({ trace: TRACE, kind: 'errored', errorKind: 'http', error: 'turn 3: agent returned HTTP 500 after 1 attempt: {"error":"down"}' });
  });
});

describe('mappings for other APIs', () => {
  it('{{mocks}} in a request template: the list as a value, JSON text inside a longer string, left out for a fixture', () => {
    const template = { input: '{{message}}', tools: { mocks: '{{mocks}}' }, note: 'mocks={{mocks}}' };
    expect(renderTemplate(template, { session: 's', message: 'm', persona: null, model: null, mocks: [{ tool: 't', match: 'subset', output: 1 }] })).toEqual({
      input: 'm',
      tools: { mocks: [{ tool: 't', match: 'subset', output: 1 }] },
      note: 'mocks=[{"tool":"t","match":"subset","output":1}]',
    });
    expect(renderTemplate(template, { session: 's', message: 'm', persona: null, model: null })).toEqual({ input: 'm', tools: {}, note: 'mocks=' });
  });

  it('custom response paths for toolCalls, outcome and errors; a null path is "not reported"', async () => {
    const server = await serve(() => ({ json: { data: { text: 'ok', calls: [{ tool: 't', input: 1, output: 2, mocked: true }], end: 'switch', problems: [] } } }));
    const mapping = { ...NATIVE_MAPPING, body: { q: '{{message}}', m: '{{mocks}}' }, reply: 'data.text', toolCalls: 'data.calls', outcome: 'data.end', errors: 'data.problems' };
    const s = client({ url: server.url, start: null, mapping }).session({ session: 'S', persona: null, mocks: MOCKS });
    expect(await s.send('m', 1)).toMatchObject({ kind: 'replied', reply: 'ok', toolCalls: [{ tool: 't', input: 1, output: 2, mocked: true }], outcome: 'switch', outcomeReported: true });
    expect(server.requests[0]?.json).toEqual({ q: 'm', m: MOCKS });
    const off = client({ url: server.url, start: null, mapping: { ...mapping, toolCalls: null, outcome: null } }).session({ session: 'S', persona: null, mocks: [] });
    expect(await off.send('m', 1)).toMatchObject({ kind: 'replied', toolCalls: null, outcome: null, outcomeReported: false });
  });

  it('openai-chat: the assistant message\'s tool_calls are tool calls (function name, JSON-parsed arguments); content null is an empty reply', async () => {
    const completions: unknown[] = [
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'find_order', arguments: '{"orderId":"1234","verbose":true}' } },
                { id: 'call_2', type: 'function', function: { name: 'broken_args', arguments: '{"orderId":' } },
                { id: 'call_3', type: 'custom', custom: { name: 'grep', input: 'refund' } },
              ],
            },
          },
        ],
      },
      { id: 'chatcmpl-2', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Done.', refusal: null } }] },
    ];
    const server = await serve((req) => ({ json: completions[req.index] }));
    const s = client({ url: server.url, start: null, preset: 'openai-chat', model: 'gpt-x', mapping: OPENAI_CHAT_MAPPING }).session({ session: 'S', persona: null, mocks: MOCKS });
    expect(await s.send('Where is my order?', 1)).toEqual({ trace: TRACE,
      kind: 'replied',
      timing: expect.any(Object),
      reply: '',
      route: null,
      offTrack: [],
      ended: false,
      toolCalls: [
        { tool: 'find_order', input: { orderId: '1234', verbose: true }, output: null, mocked: true },
        { tool: 'broken_args', input: '{"orderId":', output: null, mocked: true },
        { tool: 'grep', input: 'refund', output: null, mocked: true },
      ],
      outcome: null,
      outcomeReported: false,
      errors: [],
    });
    // No tool_calls key: OpenAI leaves it out when the model calls none, so "no calls", not "not reported".
    expect(await s.send('Thanks', 2)).toMatchObject({ kind: 'replied', reply: 'Done.', toolCalls: [] });
  });

  it('a mapped toolCalls path reads Responses function_call items (the OpenAI Agents SDK history) with their outputs', async () => {
    // What an Agents SDK route returns as `history`: the user message, the call, its result, the answer.
    const history = [
      { role: 'user', content: 'Where is order 1234?' },
      { type: 'function_call', callId: 'call_1', name: 'find_order', arguments: '{"orderId":"1234"}', status: 'completed' },
      { type: 'function_call_result', callId: 'call_1', name: 'find_order', status: 'completed', output: { type: 'text', text: '{"status":"delivered"}' } },
      { type: 'function_call', call_id: 'call_2', name: 'notify', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'sent' },
      { type: 'function_call', call_id: 'call_3', name: 'ask_user', arguments: '{"q":"which?"}' },
      { type: 'reasoning', id: 'r1', content: [] },
      { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Delivered.' }] },
    ];
    const server = await serve(() => ({ json: { text: 'Delivered.', history } }));
    const mapping = { ...NATIVE_MAPPING, body: { q: '{{message}}' }, reply: 'text', toolCalls: 'history' };
    const s = client({ url: server.url, start: null, mapping }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('m', 1)).toMatchObject({
      kind: 'replied',
      reply: 'Delivered.',
      toolCalls: [
        { tool: 'find_order', input: { orderId: '1234' }, output: '{"status":"delivered"}', mocked: false },
        { tool: 'notify', input: {}, output: 'sent', mocked: false },
        { tool: 'ask_user', input: { q: 'which?' }, output: null, mocked: true },
      ],
    });
  });

  it('a mapped toolCalls path reads Agents SDK run items, OpenAI chat messages and Anthropic tool_use blocks, with their answers', async () => {
    const answers: unknown[] = [
      {
        reply: 'a',
        items: [
          { type: 'tool_call_item', rawItem: { type: 'function_call', callId: 'c1', name: 'find_order', arguments: '{"orderId":"1"}' }, agent: { name: 'A' } },
          { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', callId: 'c1', name: 'find_order', output: { type: 'text', text: 'x' } }, output: { status: 'x' } },
          { type: 'message_output_item', rawItem: { type: 'message', role: 'assistant', content: [] } },
        ],
      },
      {
        reply: 'b',
        items: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'k1', type: 'function', function: { name: 'lookup', arguments: '{"id":2}' } }] },
          { role: 'tool', tool_call_id: 'k1', content: 'found' },
          { role: 'assistant', content: 'b' },
        ],
      },
      {
        reply: 'c',
        items: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'find_order', input: { orderId: '3' } },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'shipped' }] },
          { type: 'tool_use', id: 'toolu_2', name: 'refund', input: { amount: 5 } },
        ],
      },
      { reply: 'd', items: [{ type: 'surprise', name: 'x' }] },
    ];
    const server = await serve((req) => ({ json: answers[req.index] }));
    const mapping = { ...NATIVE_MAPPING, body: { q: '{{message}}' }, toolCalls: 'items' };
    const s = client({ url: server.url, start: null, mapping }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('m', 1)).toMatchObject({ toolCalls: [{ tool: 'find_order', input: { orderId: '1' }, output: { status: 'x' }, mocked: false }] });
    expect(await s.send('m', 2)).toMatchObject({ toolCalls: [{ tool: 'lookup', input: { id: 2 }, output: 'found', mocked: false }] });
    expect(await s.send('m', 3)).toMatchObject({
      toolCalls: [
        { tool: 'find_order', input: { orderId: '3' }, output: 'shipped', mocked: false },
        { tool: 'refund', input: { amount: 5 }, output: null, mocked: true },
      ],
    });
    expect(await s.send('m', 4)).toEqual({ trace: TRACE,
      kind: 'errored',
      answered: true,
      errorKind: 'invalid_response',
      error:
        'turn 4: "items.0" is not a tool call: expected {tool, input, output, mocked}, an OpenAI tool call {type, function: {name, arguments}}, a Responses function_call item {type, call_id, name, arguments}, an Anthropic tool_use block {type, id, name, input}, an AI SDK tool-call part {type, toolCallId, toolName, input} or a Mastra tool-call chunk {type, payload: {toolCallId, toolName, args}} (found an object of type "surprise" (keys: type, name))',
    });
  });

  // @anthropic-ai/sdk ToolResultBlockParam {tool_use_id, content, is_error}: a tool that threw is
  // answered with is_error true (the Anthropic SDK's tool runner, an agent loop of one's own), as a
  // LangGraph tool message of status "error" or an AI SDK error-text output is: its output is {error}.
  it('a mapped Anthropic tool_result with is_error is a real call whose output is {error}, not a result', async () => {
    const items = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'find_order', input: { orderId: '0' } }, { type: 'tool_use', id: 'toolu_2', name: 'find_order', input: { orderId: '1' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'no such order' }, { type: 'tool_result', tool_use_id: 'toolu_2', is_error: false, content: [{ type: 'text', text: 'shipped' }] }] },
    ];
    const server = await serve(() => ({ json: { text: 'Order 1 has shipped.', items } }));
    const mapping = { ...NATIVE_MAPPING, body: { q: '{{message}}' }, reply: 'text', toolCalls: 'items' };
    const s = client({ url: server.url, start: null, mapping }).session({ session: 'S', persona: null, mocks: [] });
    expect(await s.send('m', 1)).toMatchObject({
      toolCalls: [
        { tool: 'find_order', input: { orderId: '0' }, output: { error: 'no such order' }, mocked: false },
        { tool: 'find_order', input: { orderId: '1' }, output: 'shipped', mocked: false },
      ],
    });
  });

  it('an answer that is only a tool call is a reply "" with its calls, for a fixture too', async () => {
    const completion = {
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'find_order', arguments: '{}' } }] } }],
    };
    const server = await serve(() => ({ json: completion }));
    const c = client({ url: server.url, start: null, preset: 'openai-chat', model: 'm', mapping: OPENAI_CHAT_MAPPING });
    expect(await c.converse({ session: 'F', message: 'm', persona: null })).toMatchObject({ kind: 'replied', reply: '', turns: 1 });
    // Content null with no tool call is still a missing reply.
    const empty = await serve(() => ({ json: { choices: [{ index: 0, message: { role: 'assistant', content: null } }] } }));
    expect(await client({ url: empty.url, start: null, preset: 'openai-chat', model: 'm', mapping: OPENAI_CHAT_MAPPING }).converse({ session: 'F', message: 'm', persona: null })).toMatchObject({
      kind: 'errored',
      errorKind: 'missing_reply',
    });
  });
});
