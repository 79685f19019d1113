// Every preset against a loopback server that speaks the vendor's wire format (shapes from the
// SDK types of npm `openai`, `@anthropic-ai/sdk`, `ai` 5, `@langchain/langgraph-sdk`, and Rasa's
// REST channel), non-streaming and streaming, with an error event and an early end.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, type AgentClientDeps } from '../../src/agent/index.js';
import { AGENT_PRESET_NAMES } from '../../src/config.js';
import { resolveConfigFile } from '../../src/suite/config-file.js';
import type { AgentClient, Clock } from '../../src/types.js';
import { bodyBegun, heldTimeout } from '../support/held-timeout.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  json: unknown;
}

/** `hold`: the body is never ended (a stream that stalls). */
type Reply = { status?: number; type: string; body: string | string[]; hold?: boolean };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A loopback server: records each request, answers with `respond` (chunks written one by one). */
async function serve(respond: (seen: Seen) => Reply): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { path: req.url ?? '', headers: req.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
      seen.push(s);
      const reply = respond(s);
      res.writeHead(reply.status ?? 200, { 'content-type': reply.type });
      const parts = Array.isArray(reply.body) ? reply.body : [reply.body];
      for (const part of parts) res.write(part);
      if (reply.hold === true) held.push(res);
      else res.end();
    });
  });
  const held: ServerResponse[] = [];
  cleanups.push(async () => {
    for (const res of held) res.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const clock: Clock = { now: () => 0, sleep: async () => undefined };

/** The agent section of a config.yml, resolved as `loadSuite` does, and a client for it. */
function clientFor(agent: Record<string, unknown>, deps: AgentClientDeps = {}): AgentClient {
  const resolved = resolveConfigFile(null, 'config.yml', { agent: { start: false, retries: 0, ...agent } }, {});
  expect(resolved.errors).toEqual([]);
  const c = createHttpAgentClient(resolved.config!.agent, { clock, random: () => 0, ...deps });
  cleanups.push(() => c.close());
  return c;
}

const sse = (events: unknown[]): string[] => events.map((e) => (typeof e === 'string' ? `data: ${e}\n\n` : `data: ${JSON.stringify(e)}\n\n`));
const named = (events: [string, unknown][]): string[] => events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

const request = { session: 's-1', message: 'Where is my order?', persona: null };

describe('preset names', () => {
  it('lists every preset, native first', () => {
    expect(AGENT_PRESET_NAMES).toEqual(['native', 'openai-chat', 'openai-responses', 'anthropic-messages', 'rasa-rest', 'vercel-ai', 'langgraph', 'mastra']);
  });
});

describe('a persona script against an API that keeps no history ({{messages}})', () => {
  it.each([
    ['openai-chat', (m: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content: m } }] }), (j: Record<string, unknown>) => j.messages],
    ['anthropic-messages', (m: string) => ({ content: [{ type: 'text', text: m }], stop_reason: 'end_turn' }), (j: Record<string, unknown>) => j.messages],
    ['openai-responses', (m: string) => ({ output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: m }] }] }), (j: Record<string, unknown>) => j.input],
  ] as const)('%s: each turn sends every earlier message and reply, then the new message', async (preset, answer, history) => {
    let n = 0;
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(answer(`reply ${++n}`)) }));
    const session = clientFor({ url: server.url, preset, model: 'm' }).session({ session: 's', persona: null, mocks: [] });
    expect(await session.welcome()).toBeNull();
    expect(await session.send('I want a refund', 1)).toMatchObject({ kind: 'replied', reply: 'reply 1' });
    expect(await session.send('Order 1234', 2)).toMatchObject({ kind: 'replied', reply: 'reply 2' });
    expect(await session.send('Thanks', 3)).toMatchObject({ kind: 'replied', reply: 'reply 3' });
    expect(server.seen.map((r) => history(r.json as Record<string, unknown>))).toEqual([
      [{ role: 'user', content: 'I want a refund' }],
      [
        { role: 'user', content: 'I want a refund' },
        { role: 'assistant', content: 'reply 1' },
        { role: 'user', content: 'Order 1234' },
      ],
      [
        { role: 'user', content: 'I want a refund' },
        { role: 'assistant', content: 'reply 1' },
        { role: 'user', content: 'Order 1234' },
        { role: 'assistant', content: 'reply 2' },
        { role: 'user', content: 'Thanks' },
      ],
    ]);
  });

  it('a turn answered with tool calls only adds no empty assistant message, which Anthropic refuses', async () => {
    // The Messages API's own check: "messages.1: all messages must have non-empty content except
    // for the optional final assistant message" (invalid_request_error, HTTP 400).
    const server = await serve((seen) => {
      const messages = (seen.json as { messages: { content: string }[] }).messages;
      const empty = messages.findIndex((m, i) => m.content === '' && i < messages.length - 1);
      if (empty !== -1) {
        return { status: 400, type: 'application/json', body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `messages.${empty}: all messages must have non-empty content except for the optional final assistant message` } }) };
      }
      const content = server.seen.length === 1 ? [{ type: 'tool_use', id: 'toolu_1', name: 'find_order', input: { id: '1234' } }] : [{ type: 'text', text: 'It shipped.' }];
      return { type: 'application/json', body: JSON.stringify({ type: 'message', role: 'assistant', content, stop_reason: server.seen.length === 1 ? 'tool_use' : 'end_turn' }) };
    });
    const session = clientFor({ url: server.url, preset: 'anthropic-messages', model: 'm' }).session({ session: 's', persona: null, mocks: [] });
    expect(await session.send('Where is order 1234?', 1)).toMatchObject({ kind: 'replied', reply: '', toolCalls: [{ tool: 'find_order' }] });
    expect(await session.send('Any news?', 2)).toMatchObject({ kind: 'replied', reply: 'It shipped.' });
    expect((server.seen[1]!.json as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Where is order 1234?' },
      { role: 'user', content: 'Any news?' },
    ]);
  });

  it('a welcome reply opens the history as the assistant\'s; "{{messages}}" inside a longer string is JSON text', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify({ reply: 'ok' }) }));
    const c = clientFor({
      url: server.url,
      request: { body: { history: '{{messages}}', text: 'h={{messages}}' } },
      response: { reply: 'reply' },
      start: { body: { history: '{{messages}}' }, response: { reply: 'reply' } },
    });
    const session = c.session({ session: 's', persona: null, mocks: [] });
    await session.welcome();
    await session.send('hi', 1);
    expect(server.seen.map((r) => r.json)).toEqual([
      { history: [] },
      {
        history: [
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'hi' },
        ],
        text: 'h=[{"role":"assistant","content":"ok"},{"role":"user","content":"hi"}]',
      },
    ]);
  });
});

describe('openai-chat', () => {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });

  it('streams with agent.stream: asks for stream: true and event-stream, joins the deltas, accumulates tool calls by index', async () => {
    const server = await serve(() => ({
      type: 'text/event-stream; charset=utf-8',
      body: sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Your order ' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'track_', arguments: '{"id":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: 'order', arguments: '"A1"}' } }] }),
        chunk({ content: 'ships today.' }, 'stop'),
        '[DONE]',
      ]),
    }));
    const outcome = await clientFor({ url: server.url, preset: 'openai-chat', model: 'gpt-4o-mini', stream: true }).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'Your order ships today.' });
    expect(server.seen[0]!.json).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Where is my order?' }], temperature: 0, stream: true, stream_options: { include_usage: true } });
    expect(server.seen[0]!.headers.accept).toBe('text/event-stream');
    const turn = await clientFor({ url: server.url, preset: 'openai-chat', model: 'gpt-4o-mini', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Your order ships today.', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }] });
  });

  it('a tool call whose name comes again in every delta (MiniMax through NVIDIA NIM, Fireworks) keeps its name, not a doubled one', async () => {
    const server = await serve(() => ({
      type: 'text/event-stream',
      body: sse([
        chunk({ role: 'assistant', content: null }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'track_order', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'track_order', arguments: '{"id":' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'track_order', arguments: '"A1"}' } }] }),
        chunk({}, 'tool_calls'),
        '[DONE]',
      ]),
    }));
    const turn = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: '', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }] });
  });

  it("parallel tool calls without an index (Gemini's OpenAI-compatible API: each call whole, its own id) stay apart", async () => {
    const server = await serve(() => ({
      type: 'text/event-stream',
      body: sse([
        { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Sydney"}' } }] } }], model: 'gemini-2.5-flash', object: 'chat.completion.chunk' },
        { choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ id: 'function-call-2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } }] } }], model: 'gemini-2.5-flash', object: 'chat.completion.chunk' },
        { choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: 'stop' }], model: 'gemini-2.5-flash', object: 'chat.completion.chunk' },
        '[DONE]',
      ]),
    }));
    const turn = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({
      kind: 'replied',
      toolCalls: [
        { tool: 'get_weather', input: { city: 'Sydney' }, mocked: true },
        { tool: 'get_time', input: { tz: 'UTC' }, mocked: true },
      ],
    });
  });

  // A server that numbers every parallel call 0 (a proxy in front of Gemini), or relays an agent's two
  // model calls in one completion, each numbering its calls from 0: a new id at an index already used
  // is the next call, not more of the last (its name and arguments glued to the last's).
  it('a new call id at an index already used starts the next call, not glued to the last', async () => {
    const server = await serve(() => ({
      type: 'text/event-stream',
      body: sse([
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'Checking. ', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'find_order', arguments: '' } }] } }] },
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"orderId":"1234"}' } }] } }] },
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'issue_refund', arguments: '{"orderId":' } }] } }] },
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"1234"}' } }] } }] },
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_3', type: 'function', function: { name: 'notify', arguments: '{}' } }] } }] },
        { object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        '[DONE]',
      ]),
    }));
    const turn = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Checking. ' });
    expect(turn.kind === 'replied' ? turn.toolCalls : null).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: null, mocked: true },
      { tool: 'issue_refund', input: { orderId: '1234' }, output: null, mocked: true },
      { tool: 'notify', input: {}, output: null, mocked: true },
    ]);
  });

  it('a stream cut before [DONE] and without a finish_reason is errored, naming the missing end', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: sse([chunk({ content: 'Your order' })]) }));
    const outcome = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm', stream: true }).converse(request);
    expect(outcome).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream ended early: no data: [DONE] or a finish_reason event (openai-chat stream, 10 characters received)',
    });
  });

  // ChatCompletionMessage and the chunk's delta carry a refusal beside content (npm openai 7.59,
  // resources/chat/completions): the refusal is what the user reads, so it is the reply.
  it('a refusal (content null, refusal the text) is the reply, answered whole or streamed; a reply path of ones own reads no refusal', async () => {
    const refusal = "I'm sorry, I can't help with that.";
    const whole = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        id: 'chatcmpl-2',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: null, refusal, annotations: [] }, finish_reason: 'stop', logprobs: null }],
      }),
    }));
    expect(await clientFor({ url: whole.url, preset: 'openai-chat', model: 'm' }).converse(request)).toMatchObject({ kind: 'replied', reply: refusal });
    const turn = await clientFor({ url: whole.url, preset: 'openai-chat', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: refusal, toolCalls: [] });
    const own = await clientFor({ url: whole.url, preset: 'openai-chat', model: 'm', response: { reply: 'choices.0.message.text' } }).converse(request);
    expect(own).toMatchObject({ kind: 'errored', errorKind: 'missing_reply' });
    const streamed = await serve(() => ({
      type: 'text/event-stream',
      body: sse([chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: "I'm sorry, " }), chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), '[DONE]']),
    }));
    expect(await clientFor({ url: streamed.url, preset: 'openai-chat', model: 'm', stream: true }).converse(request)).toMatchObject({ kind: 'replied', reply: refusal });
  });

  it('an error object in the stream errors the turn with its message', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: sse([chunk({ content: 'Yo' }), { error: { message: 'The server had an error', type: 'server_error' } }]) }));
    const outcome = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm', stream: true }).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'http', error: 'message turn: the stream sent an error event: server_error: The server had an error' });
  });
});

describe('openai-responses', () => {
  const response = {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    error: null,
    model: 'gpt-4.1-mini',
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'track_order', arguments: '{"id":"A1"}', status: 'completed' },
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It ships ', annotations: [] }, { type: 'output_text', text: 'today.', annotations: [] }] },
    ],
  };

  it('sends model and input, reads the output_text parts and the function calls', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(response) }));
    const c = clientFor({ url: `${server.url}/v1/responses`, preset: 'openai-responses', model: 'gpt-4.1-mini', headers: { Authorization: 'Bearer k' } });
    expect(await c.converse(request)).toMatchObject({ kind: 'replied', reply: 'It ships today.' });
    expect(server.seen[0]).toMatchObject({ path: '/v1/responses', json: { model: 'gpt-4.1-mini', input: [{ role: 'user', content: 'Where is my order?' }], store: false } });
    expect(server.seen[0]!.headers.authorization).toBe('Bearer k');
    const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }] });
  });

  it('a function call the agent ran itself, its result beside it (function_call_output, or the Agents SDK function_call_result), is a real call with that output', async () => {
    const ran = {
      output: [
        { type: 'function_call', call_id: 'call_1', name: 'track_order', arguments: '{"id":"A1"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"status":"shipped"}' },
        { type: 'function_call', callId: 'call_2', name: 'note', arguments: '{}' },
        { type: 'function_call_result', callId: 'call_2', name: 'note', status: 'completed', output: { type: 'text', text: 'noted' } },
        { type: 'function_call', call_id: 'call_3', name: 'ask_user', arguments: '{}' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Shipped.' }] },
      ],
    };
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(ran) }));
    const turn = await clientFor({ url: server.url, preset: 'openai-responses', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({
      reply: 'Shipped.',
      toolCalls: [
        // outputs as the agent sent them (JSON text stays text; a matching mock's output still compares equal)
        { tool: 'track_order', input: { id: 'A1' }, output: '{"status":"shipped"}', mocked: false },
        { tool: 'note', input: {}, output: 'noted', mocked: false },
        { tool: 'ask_user', input: {}, output: null, mocked: true },
      ],
    });
  });

  // @openai/agents-core 0.17 (tool.ts defaultToolErrorFunction, runner/toolExecution.ts
  // getToolCallOutputItem): a tool that threw is caught, and its result item is the one of a tool
  // that returned: status "completed", the error function's text as its output; the run item says
  // executionStatus "executed" either way. No field marks the failure (only the tool's span does),
  // so the call is recorded with that text, as docs/frameworks/openai-agents.md says.
  it("an Agents SDK tool that threw: its function_call_result carries no error marker, so the call is recorded with the SDK's error text as its output", async () => {
    const text = 'An error occurred while running the tool. Please try again. Error: Error: orders service unavailable';
    const threw = {
      output: [
        { type: 'function_call', callId: 'call_1', name: 'find_order', arguments: '{"id":"A1"}', status: 'completed' },
        { type: 'function_call_result', callId: 'call_1', name: 'find_order', status: 'completed', output: { type: 'text', text } },
        { type: 'function_call', callId: 'call_2', name: 'track_order', arguments: '{}', status: 'completed' },
        { type: 'tool_call_output_item', rawItem: { type: 'function_call_result', callId: 'call_2', name: 'track_order', status: 'completed', output: { type: 'text', text } }, output: text, executionStatus: 'executed' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sorry, I cannot look that up.' }] },
      ],
    };
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(threw) }));
    const turn = await clientFor({ url: server.url, preset: 'openai-responses', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({
      kind: 'replied',
      errors: [],
      toolCalls: [
        { tool: 'find_order', input: { id: 'A1' }, output: text, mocked: false },
        { tool: 'track_order', input: {}, output: text, mocked: false },
      ],
    });
  });
  // The OpenAI Agents SDK's items (@openai/agents-core 0.20 protocol: ShellCallItem, HostedToolCallItem
  // with the Responses item as providerData), as docs/frameworks/openai-agents.md's route answers them.
  it("the Agents SDK's other tool calls are read, not dropped: a shell command it ran, a hosted MCP tool; tools run in OpenAI's sandbox (web search, code interpreter) are skipped", async () => {
    const items = {
      output: [
        { type: 'shell_call', callId: 'call_s', status: 'completed', action: { commands: ['rm -rf /srv/cache'] } },
        { type: 'shell_call_output', callId: 'call_s', output: [{ stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
        { type: 'hosted_tool_call', id: 'mcp_1', name: 'mcp_call', status: 'completed', output: '{"refunded":true}', providerData: { type: 'mcp_call', id: 'mcp_1', name: 'issue_refund', arguments: '{"orderId":"1234"}', server_label: 'billing' } },
        { type: 'hosted_tool_call', id: 'ws_1', name: 'web_search_call', status: 'completed', providerData: { type: 'web_search_call', id: 'ws_1', action: { type: 'search', query: 'refund policy' } } },
        { type: 'hosted_tool_call', id: 'ci_1', name: 'code_interpreter_call', status: 'completed', providerData: { type: 'code_interpreter_call', id: 'ci_1', code: 'print(1)', container_id: 'c', outputs: null } },
        { type: 'apply_patch_call', callId: 'call_p', status: 'completed', operation: { type: 'delete_file', path: 'notes.md' } },
        { type: 'computer_call', callId: 'call_k', status: 'completed', action: { type: 'click', button: 'left', x: 10, y: 20 } },
        { type: 'computer_call_result', callId: 'call_k', output: { type: 'computer_screenshot', data: 'iVBORw0KGgo' } },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Refunded.' }] },
      ],
    };
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(items) }));
    const turn = await clientFor({ url: server.url, preset: 'openai-responses', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({
      reply: 'Refunded.',
      toolCalls: [
        { tool: 'shell', input: { commands: ['rm -rf /srv/cache'] }, output: [{ stdout: '', stderr: '', outcome: { type: 'exit', exitCode: 0 } }], mocked: false },
        { tool: 'issue_refund', input: { orderId: '1234' }, output: '{"refunded":true}', mocked: false },
        // No output item: the caller was asked to apply it (nothing ran).
        { tool: 'apply_patch', input: { type: 'delete_file', path: 'notes.md' }, output: null, mocked: true },
        // The screenshot it answered with, without the image.
        { tool: 'computer', input: { type: 'click', button: 'left', x: 10, y: 20 }, output: { type: 'computer_screenshot' }, mocked: false },
      ],
    });
    expect((turn as { toolCalls: unknown[] }).toolCalls).toHaveLength(4);
    expect((turn as { toolCalls: unknown[] }).toolCalls[3]).toEqual({ tool: 'computer', input: { type: 'click', button: 'left', x: 10, y: 20 }, output: { type: 'computer_screenshot' }, mocked: false });
  });

  // npm openai 7.59 ResponseOutputItem: ResponseCustomToolCall, McpCall; an item type it does not list.
  it('streamed Responses items: a custom tool call and an MCP call are tool calls; an item of no known kind is reported, not dropped', async () => {
    const events = (items: unknown[]): string[] =>
      named([
        ...items.map((item, i): [string, unknown] => ['response.output_item.done', { type: 'response.output_item.done', sequence_number: i, output_index: i, item }]),
        ['response.completed', { type: 'response.completed', sequence_number: 9, response: { ...response, output: items } }],
      ]);
    const known = await serve(() => ({
      type: 'text/event-stream',
      body: events([
        { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_c', name: 'run_sql', input: 'DELETE FROM carts' },
        { type: 'mcp_call', id: 'mcp_2', name: 'lookup', arguments: '{"q":"A1"}', server_label: 'crm', output: null, error: 'not found', status: 'failed' },
      ]),
    }));
    expect(await clientFor({ url: known.url, preset: 'openai-responses', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1)).toMatchObject({
      reply: '',
      toolCalls: [
        { tool: 'run_sql', input: 'DELETE FROM carts', output: null, mocked: true },
        { tool: 'lookup', input: { q: 'A1' }, output: { error: 'not found' }, mocked: false },
      ],
    });
    const unknown = await serve(() => ({ type: 'text/event-stream', body: events([{ type: 'robot_arm_call', id: 'ra_1', call_id: 'call_r', move: 'left' }]) }));
    const turn = await clientFor({ url: unknown.url, preset: 'openai-responses', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'errored', errorKind: 'invalid_response', error: expect.stringContaining('(found an object of type "robot_arm_call" (keys: type, id, call_id, move))') as unknown });
  });

  // An Agents SDK run's items hold a message for each model call; the parts of one message run on.
  it('the messages of a run (one before a tool call, one after) are joined with a blank line, whole or streamed', async () => {
    const before = { type: 'message', id: 'msg_a', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me check that order.', annotations: [] }] };
    const after = { type: 'message', id: 'msg_b', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It ships ', annotations: [] }, { type: 'output_text', text: 'today.', annotations: [] }] };
    const items = [before, { type: 'function_call', callId: 'call_1', name: 'track_order', arguments: '{"id":"A1"}' }, { type: 'function_call_result', callId: 'call_1', name: 'track_order', status: 'completed', output: { type: 'text', text: 'shipped' } }, after];
    const whole = await serve(() => ({ type: 'application/json', body: JSON.stringify({ output: items }) }));
    expect(await clientFor({ url: whole.url, preset: 'openai-responses', model: 'm' }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Let me check that order.\n\nIt ships today.' });
    const delta = (n: number, item: string, text: string): [string, unknown] => ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: n, item_id: item, output_index: 0, content_index: 0, delta: text, logprobs: [] }];
    const streamed = await serve(() => ({
      type: 'text/event-stream',
      body: named([delta(1, 'msg_a', 'Let me check that order.'), delta(2, 'msg_b', 'It ships '), delta(3, 'msg_b', 'today.'), ['response.completed', { type: 'response.completed', sequence_number: 4, response: { ...response, output: [before, after] } }]]),
    }));
    expect(await clientFor({ url: streamed.url, preset: 'openai-responses', model: 'm', stream: true }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Let me check that order.\n\nIt ships today.' });
  });

  it('streams: output_text deltas up to response.completed, function calls from output_item.done', async () => {
    const server = await serve(() => ({
      type: 'text/event-stream',
      body: named([
        ['response.created', { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [] } }],
        ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 1, output_index: 0, item: response.output[1] }],
        ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'It ships ', logprobs: [] }],
        ['response.output_text.delta', { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_1', output_index: 1, content_index: 0, delta: 'today.', logprobs: [] }],
        ['response.completed', { type: 'response.completed', sequence_number: 4, response }],
      ]),
    }));
    const c = clientFor({ url: server.url, preset: 'openai-responses', model: 'gpt-4.1-mini', stream: true });
    const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'It ships today.', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, mocked: true }] });
    expect(server.seen[0]!.json).toMatchObject({ stream: true });
  });

  // ResponseOutputRefusal and the response.refusal.delta event (npm openai 7.59, resources/responses).
  it('a refusal part is the reply, answered whole or streamed', async () => {
    const refusal = "I'm sorry, I can't help with that.";
    const refused = { ...response, output: [{ type: 'message', id: 'msg_2', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal }] }] };
    const whole = await serve(() => ({ type: 'application/json', body: JSON.stringify(refused) }));
    expect(await clientFor({ url: whole.url, preset: 'openai-responses', model: 'm' }).converse(request)).toMatchObject({ kind: 'replied', reply: refusal });
    const streamed = await serve(() => ({
      type: 'text/event-stream',
      body: named([
        ['response.created', { type: 'response.created', sequence_number: 0, response: { ...refused, status: 'in_progress', output: [] } }],
        ['response.refusal.delta', { type: 'response.refusal.delta', sequence_number: 1, item_id: 'msg_2', output_index: 0, content_index: 0, delta: "I'm sorry, " }],
        ['response.refusal.delta', { type: 'response.refusal.delta', sequence_number: 2, item_id: 'msg_2', output_index: 0, content_index: 0, delta: "I can't help with that." }],
        ['response.refusal.done', { type: 'response.refusal.done', sequence_number: 3, item_id: 'msg_2', output_index: 0, content_index: 0, refusal }],
        ['response.completed', { type: 'response.completed', sequence_number: 4, response: refused }],
      ]),
    }));
    expect(await clientFor({ url: streamed.url, preset: 'openai-responses', model: 'm', stream: true }).converse(request)).toMatchObject({ kind: 'replied', reply: refusal });
  });

  it('an incomplete response errors the turn with its reason, as response.incomplete does when streamed', async () => {
    const truncated = { ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [response.output[0], { ...response.output[2], status: 'incomplete', content: [{ type: 'output_text', text: 'It ships', annotations: [] }] }] };
    const whole = await serve(() => ({ type: 'application/json', body: JSON.stringify(truncated) }));
    expect(await clientFor({ url: whole.url, preset: 'openai-responses', model: 'm' }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: 'message turn: the response is incomplete (max_output_tokens): the model was stopped before it finished',
    });
    // Its reasoning took every token: the error says so instead of naming the response's keys.
    const thoughtOnly = await serve(() => ({ type: 'application/json', body: JSON.stringify({ ...truncated, output: [response.output[0]] }) }));
    expect(await clientFor({ url: thoughtOnly.url, preset: 'openai-responses', model: 'm' }).converse(request)).toMatchObject({
      error: 'message turn: the response is incomplete (max_output_tokens): the model was stopped before it finished',
    });
  });

  it('an error event errors the turn; a stream without response.completed ended early', async () => {
    const failing = await serve(() => ({
      type: 'text/event-stream',
      body: named([['error', { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down', param: null, sequence_number: 1 }]]),
    }));
    expect(await clientFor({ url: failing.url, preset: 'openai-responses', model: 'm', stream: true }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream sent an error event: rate_limit_exceeded: Slow down',
    });
    const cut = await serve(() => ({ type: 'text/event-stream', body: named([['response.output_text.delta', { type: 'response.output_text.delta', delta: 'It', sequence_number: 1 }]]) }));
    expect(await clientFor({ url: cut.url, preset: 'openai-responses', model: 'm', stream: true }).converse(request)).toMatchObject({
      kind: 'errored',
      error: expect.stringContaining('no response.completed event') as unknown,
    });
  });
});

describe('anthropic-messages', () => {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [
      { type: 'text', text: 'Let me check. ', citations: null },
      { type: 'tool_use', id: 'toolu_1', name: 'track_order', input: { id: 'A1' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };

  it('sends model, max_tokens (1024 by default) and messages; reads text blocks and tool_use blocks', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(message) }));
    const c = clientFor({ url: server.url, preset: 'anthropic-messages', model: 'claude-haiku-4-5', headers: { 'x-api-key': 'k' } });
    const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('Where is my order?', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Let me check. ', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }] });
    expect(server.seen[0]!.json).toEqual({ model: 'claude-haiku-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Where is my order?' }] });
    expect(server.seen[0]!.headers['x-api-key']).toBe('k');
  });

  it('agent.maxTokens is sent as a number; anthropic-version defaults to 2023-06-01 when headers do not name it', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify(message) }));
    await clientFor({ url: server.url, preset: 'anthropic-messages', model: 'm', maxTokens: 300 }).converse(request);
    expect(server.seen[0]!.json).toMatchObject({ max_tokens: 300 });
    expect(server.seen[0]!.headers['anthropic-version']).toBe('2023-06-01');
    await clientFor({ url: server.url, preset: 'anthropic-messages', model: 'm', headers: { 'Anthropic-Version': '2024-01-01' } }).converse(request);
    expect(server.seen[1]!.headers['anthropic-version']).toBe('2024-01-01');
  });

  const stream: [string, unknown][] = [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } }],
    ['ping', { type: 'ping' }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'check.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'track_order', input: {} } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"id": ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"A1"}' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }],
    ['message_stop', { type: 'message_stop' }],
  ];

  it('streams: text_delta into the reply, tool_use input from input_json_delta, up to message_stop', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: named(stream) }));
    const c = clientFor({ url: server.url, preset: 'anthropic-messages', model: 'm', stream: true });
    const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Let me check.', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, mocked: true }] });
    expect(server.seen[0]!.json).toMatchObject({ stream: true, max_tokens: 1024 });
  });

  // BetaMCPToolUseBlock / BetaMCPToolResultBlock, BetaServerToolUseBlock and its result blocks (anthropic-sdk-typescript
  // src/resources/beta/messages/messages.ts): tools Anthropic ran during the message, through the MCP connector or its own.
  it("an MCP server's tool Anthropic called is read with its result, whole or streamed; its sandboxed tools (web search, code execution) are skipped; an unknown block is reported", async () => {
    const ran = {
      ...message,
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'refund policy' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://shop.example.com/refunds', title: 'Refunds' }] },
        { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'issue_refund', server_name: 'billing', input: { orderId: '1234' } },
        { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', is_error: false, content: [{ type: 'text', text: 'R-77' }] },
        { type: 'server_tool_use', id: 'srvtoolu_2', name: 'code_execution', input: { code: 'print(2+2)' } },
        { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'code_execution_result', stdout: '4', stderr: '', return_code: 0, content: [] } },
        { type: 'text', text: 'Refund R-77 issued.', citations: null },
      ],
      stop_reason: 'end_turn',
    };
    const expected = {
      kind: 'replied',
      reply: 'Refund R-77 issued.',
      toolCalls: [
        { tool: 'issue_refund', input: { orderId: '1234' }, output: 'R-77', mocked: false },
      ],
    };
    const whole = await serve(() => ({ type: 'application/json', body: JSON.stringify(ran) }));
    const wholeTurn = await clientFor({ url: whole.url, preset: 'anthropic-messages', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(wholeTurn).toMatchObject(expected);
    expect((wholeTurn as { toolCalls: unknown[] }).toolCalls).toHaveLength(1);
    // Streamed: a tool-use block's input comes in input_json_delta events, a result block whole in its content_block_start.
    const events: [string, unknown][] = [['message_start', { type: 'message_start', message: { ...ran, content: [], stop_reason: null } }]];
    ran.content.forEach((block, index) => {
      const started = block.type.endsWith('_tool_use') ? { ...block, input: {} } : block.type === 'text' ? { ...block, text: '' } : block;
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: started }]);
      if (block.type.endsWith('_tool_use')) events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify((block as { input: unknown }).input) } }]);
      if (block.type === 'text') events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: (block as { text: string }).text } }]);
      events.push(['content_block_stop', { type: 'content_block_stop', index }]);
    });
    events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }], ['message_stop', { type: 'message_stop' }]);
    const streamed = await serve(() => ({ type: 'text/event-stream', body: named(events) }));
    expect(await clientFor({ url: streamed.url, preset: 'anthropic-messages', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1)).toMatchObject(expected);
    // A block of a kind the reader does not know errors the turn naming it, rather than a call being left out.
    const unknown = await serve(() => ({ type: 'application/json', body: JSON.stringify({ ...message, content: [{ type: 'robot_arm_use', id: 'r1', move: 'left' }, { type: 'text', text: 'Done.' }] }) }));
    expect(await clientFor({ url: unknown.url, preset: 'anthropic-messages', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1)).toMatchObject({
      kind: 'errored',
      error: expect.stringContaining('(found an object of type "robot_arm_use" (keys: type, id, move))') as unknown,
    });
  });

  // StopReason 'refusal' and RefusalStopDetails (npm @anthropic-ai/sdk 1.16.0, resources/messages/messages.d.ts):
  // the streaming classifiers stopped the model. No text: an error that says so; text before it: the reply.
  it('a refusal with no text errors the turn naming the refusal, answered whole or streamed; text before a refusal is the reply', async () => {
    const details = { type: 'refusal', category: 'cyber', explanation: 'The request could enable cyber harm.' };
    const refused = { ...message, content: [], stop_reason: 'refusal', stop_details: details };
    const whole = await serve(() => ({ type: 'application/json', body: JSON.stringify(refused) }));
    const said = 'message turn: the model refused to answer (stop_reason "refusal", category cyber) and sent no text: The request could enable cyber harm.';
    expect(await clientFor({ url: whole.url, preset: 'anthropic-messages', model: 'm' }).converse(request)).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', error: said });
    const streamed = await serve(() => ({
      type: 'text/event-stream',
      body: named([
        stream[0]!,
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: details }, usage: { output_tokens: 0 } }],
        ['message_stop', { type: 'message_stop' }],
      ]),
    }));
    expect(await clientFor({ url: streamed.url, preset: 'anthropic-messages', model: 'm', stream: true }).converse(request)).toMatchObject({ kind: 'errored', error: said });
    const bare = await serve(() => ({ type: 'application/json', body: JSON.stringify({ ...refused, stop_details: null }) }));
    expect(await clientFor({ url: bare.url, preset: 'anthropic-messages', model: 'm' }).converse(request)).toMatchObject({
      kind: 'errored',
      error: 'message turn: the model refused to answer (stop_reason "refusal") and sent no text',
    });
    const partial = await serve(() => ({ type: 'application/json', body: JSON.stringify({ ...refused, content: [{ type: 'text', text: 'Sure, first ', citations: null }] }) }));
    expect(await clientFor({ url: partial.url, preset: 'anthropic-messages', model: 'm' }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Sure, first ' });
  });

  it('an error event errors the turn; a stream without message_stop ended early', async () => {
    const failing = await serve(() => ({
      type: 'text/event-stream',
      body: named([stream[0]!, ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]]),
    }));
    expect(await clientFor({ url: failing.url, preset: 'anthropic-messages', model: 'm', stream: true }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream sent an error event: overloaded_error: Overloaded',
    });
    const cut = await serve(() => ({ type: 'text/event-stream', body: named(stream.slice(0, 5)) }));
    const ended = await clientFor({ url: cut.url, preset: 'anthropic-messages', model: 'm', stream: true }).converse(request);
    expect(ended).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream ended early: no message_stop event (anthropic stream, 13 characters received)',
    });
    quotedAndSaid(ended.kind === 'errored' ? ended.error : '', 'the stream ended early: no message_stop event (...)');
  });
});

describe('rasa-rest', () => {
  it('sends sender and message; joins the messages with a blank line, each text followed by its buttons, and skips images', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify([
        { recipient_id: 's-1', text: 'Your order A1 ships today.' },
        { recipient_id: 's-1', image: 'https://example.com/map.png' },
        { recipient_id: 's-1', text: 'Anything else?', buttons: [{ title: 'No', payload: '/deny' }] },
      ]),
    }));
    const outcome = await clientFor({ url: `${server.url}/webhooks/rest/webhook`, preset: 'rasa-rest' }).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'Your order A1 ships today.\n\nAnything else?\n1: No (/deny)' });
    expect(server.seen[0]).toMatchObject({ path: '/webhooks/rest/webhook', json: { sender: 's-1', message: 'Where is my order?' } });
  });

  // The expected lines are what Rasa's own button_to_string (its CLI utilities, which `rasa shell`
  // prints buttons with) gives for these buttons, run under Python 3.
  it("shows buttons and quick replies as Rasa's shell prints them, other attributes as JSON with sorted keys; a message of buttons alone is a reply", async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify([
        {
          recipient_id: 's-1',
          text: 'Shall I cancel order A1?',
          buttons: [
            { title: 'Yes', payload: '/affirm' },
            { title: 'No, keep it', payload: '/deny{"order": "A1"}' },
          ],
        },
        { recipient_id: 's-1', buttons: [{ title: 'Track it', type: 'web_url', url: 'https://shop.example.com/t/A1', extra: { b: [1, 2], a: null } }, { payload: '/help' }, 'not a button'] },
      ]),
    }));
    const outcome = await clientFor({ url: server.url, preset: 'rasa-rest' }).converse(request);
    expect(outcome).toMatchObject({
      kind: 'replied',
      reply: [
        'Shall I cancel order A1?',
        '1: Yes (/affirm)',
        '2: No, keep it (/deny{"order": "A1"})',
        '',
        '1: Track it - {"extra": {"a": null, "b": [1, 2]}, "type": "web_url", "url": "https://shop.example.com/t/A1"}',
        '2:  (/help)',
      ].join('\n'),
    });
  });

  it('reports no tool calls: a script turn has toolCalls null (not reported), not an empty list', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify([{ recipient_id: 's', text: 'Hi' }]) }));
    const turn = await clientFor({ url: server.url, preset: 'rasa-rest' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Hi', toolCalls: null });
  });

  it('an empty list (the bot said nothing, or Rasa failed and answered [] anyway) is a missing reply that says where to look', async () => {
    const server = await serve(() => ({ type: 'application/json', body: '[]' }));
    const outcome = await clientFor({ url: server.url, preset: 'rasa-rest' }).converse(request);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'missing_reply' });
    expect((outcome as { error: string }).error).toContain('Rasa answered an empty list: the bot said nothing, or Rasa failed to handle the message (it answers [] after an exception, a lock timeout or with no model loaded): see the Rasa server log');
  });

  it('messages without any text (a custom payload, an image) are a missing reply that says what Rasa sent', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify([
        { recipient_id: 's-1', custom: { card: 'order', id: 'A1' } },
        { recipient_id: 's-1', image: 'https://shop.example.com/a1.png' },
      ]),
    }));
    const outcome = await clientFor({ url: server.url, preset: 'rasa-rest' }).converse(request);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'missing_reply' });
    expect((outcome as { error: string }).error).toContain('Rasa answered 2 messages with no text (custom, image only): agent-replay reads the text and buttons of a Rasa reply');
  });

  it('agent.stream is a configuration error for a preset without a streaming form', () => {
    const resolved = resolveConfigFile(null, 'config.yml', { agent: { preset: 'rasa-rest', stream: true } }, {});
    expect(resolved.errors.map((e) => e.message)).toEqual([expect.stringContaining('agent.stream is true, but the rasa-rest preset has no streaming form') as unknown]);
  });
});

describe('vercel-ai', () => {
  const parts = [
    { type: 'start', messageId: 'm1' },
    { type: 'start-step' },
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'trackOrder' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"id":"A1"}' },
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'trackOrder', input: { id: 'A1' } },
    { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'It has ' },
    { type: 'text-delta', id: 't1', delta: 'shipped.' },
    { type: 'text-end', id: 't1' },
    { type: 'data-weather', data: { city: 'x' } },
    { type: 'finish-step' },
    { type: 'finish' },
  ];

  it('posts a useChat request and reads the UI message stream: text deltas and server-run tools', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: [...sse(parts), 'data: [DONE]\n\n'] }));
    const c = clientFor({ url: `${server.url}/api/chat`, preset: 'vercel-ai' });
    const turn = await c.session({ session: 'chat-1', persona: null, mocks: [] }).send('Where is my order?', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'It has shipped.', toolCalls: [{ tool: 'trackOrder', input: { id: 'A1' }, output: { status: 'shipped' }, mocked: false }] });
    expect(server.seen[0]!.json).toEqual({
      id: 'chat-1',
      messages: [{ id: 'chat-1-1', role: 'user', parts: [{ type: 'text', text: 'Where is my order?' }] }],
      trigger: 'submit-message',
      mocks: [],
    });
    expect(server.seen[0]!.headers.accept).toBe('text/event-stream');
  });

  // What an AI SDK 7 route (`streamText`, `stopWhen`, toUIMessageStreamResponse) sends when the model
  // says something, calls a tool, then answers: each step's text is its own part of the message.
  it("a reply in several steps keeps each step's text apart, with a blank line, as the chat shows its parts; parts of one step run on", async () => {
    const stepped = [
      { type: 'start' },
      { type: 'start-step' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Let me check that order.' },
      { type: 'text-end', id: 'a' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'find_order', input: { orderId: '1234' } },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'Your order ' },
      { type: 'text-delta', id: 'b', delta: 'has shipped' },
      { type: 'text-end', id: 'b' },
      { type: 'text-start', id: 'c' },
      { type: 'text-delta', id: 'c', delta: ' (tracking: Z1).' },
      { type: 'text-end', id: 'c' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ];
    const server = await serve(() => ({ type: 'text/event-stream', body: [...sse(stepped), 'data: [DONE]\n\n'] }));
    const turn = await clientFor({ url: server.url, preset: 'vercel-ai' }).session({ session: 'chat-1', persona: null, mocks: [] }).send('Where is order 1234?', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Let me check that order.\n\nYour order has shipped (tracking: Z1).', toolCalls: [{ tool: 'find_order', mocked: false }] });
  });

  it('a server tool whose execute threw (tool-output-error) is a real call with its error, not a client-side request', async () => {
    const failed = [
      { type: 'start' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'issueRefund', input: { id: 'A1' } },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'no mock answers issueRefund' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Sorry.' },
      { type: 'text-end', id: 't1' },
      { type: 'finish' },
    ];
    const server = await serve(() => ({ type: 'text/event-stream', body: [...sse(failed), 'data: [DONE]\n\n'] }));
    const c = clientFor({ url: `${server.url}/api/chat`, preset: 'vercel-ai' });
    const turn = await c.session({ session: 'chat-1', persona: null, mocks: [] }).send('Refund A1', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Sorry.', toolCalls: [{ tool: 'issueRefund', input: { id: 'A1' }, output: { error: 'no mock answers issueRefund' }, mocked: false }] });
  });

  it('an invalid tool call (tool-input-error: input the schema refused, or an unknown tool) is a call that ran nothing, with its error', async () => {
    // What AI SDK 7's toUIMessageStream sends for a tool call whose input failed the tool's schema.
    const invalid = [
      { type: 'start' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'issueRefund' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"amount":"all"}' },
      { type: 'tool-input-error', toolCallId: 'c1', toolName: 'issueRefund', input: { amount: 'all' }, errorText: 'Invalid input for tool issueRefund: amount must be a number' },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Refund issued.' },
      { type: 'text-end', id: 't1' },
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    const server = await serve(() => ({ type: 'text/event-stream', body: [...sse(invalid), 'data: [DONE]\n\n'] }));
    const turn = await clientFor({ url: server.url, preset: 'vercel-ai' }).session({ session: 'chat-1', persona: null, mocks: [] }).send('Refund everything', 1);
    expect(turn).toMatchObject({
      kind: 'replied',
      reply: 'Refund issued.',
      toolCalls: [{ tool: 'issueRefund', input: { amount: 'all' }, output: { error: 'Invalid input for tool issueRefund: amount must be a number' }, mocked: true }],
    });
  });

  it("sends the whole UI message history on every turn, as useChat's DefaultChatTransport does, with the mocks beside messages", async () => {
    let n = 0;
    const server = await serve(() => {
      n++;
      const text = [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: `reply ${n}` }, { type: 'text-end', id: 't' }];
      return { type: 'text/event-stream', body: [...sse([{ type: 'start' }, ...text, { type: 'finish' }]), 'data: [DONE]\n\n'] };
    });
    const mocks = [{ tool: 'trackOrder', input: { id: 'A1' }, match: 'subset' as const, output: { status: 'shipped' } }];
    const session = clientFor({ url: server.url, preset: 'vercel-ai' }).session({ session: 'chat-9', persona: null, mocks });
    expect(await session.welcome()).toBeNull();
    expect(await session.send('Where is my order?', 1)).toMatchObject({ kind: 'replied', reply: 'reply 1' });
    expect(await session.send('Order A1', 2)).toMatchObject({ kind: 'replied', reply: 'reply 2' });
    const text = (t: string) => [{ type: 'text', text: t }];
    expect(server.seen[1]!.json).toEqual({
      id: 'chat-9',
      messages: [
        { id: 'chat-9-1', role: 'user', parts: text('Where is my order?') },
        { id: 'chat-9-2', role: 'assistant', parts: text('reply 1') },
        { id: 'chat-9-3', role: 'user', parts: text('Order A1') },
      ],
      trigger: 'submit-message',
      mocks,
    });
    // A fixture has no mocks: the key is left out.
    await clientFor({ url: server.url, preset: 'vercel-ai' }).converse(request);
    expect(server.seen[2]!.json).toEqual({ id: 's-1', messages: [{ id: 's-1-1', role: 'user', parts: text('Where is my order?') }], trigger: 'submit-message' });
  });

  it('an error part errors the turn; a stream without finish ended early', async () => {
    const failing = await serve(() => ({ type: 'text/event-stream', body: sse([parts[0], { type: 'error', errorText: 'Model unavailable' }]) }));
    expect(await clientFor({ url: failing.url, preset: 'vercel-ai' }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream sent an error event: Model unavailable',
    });
    const cut = await serve(() => ({ type: 'text/event-stream', body: sse(parts.slice(0, 11)) }));
    expect(await clientFor({ url: cut.url, preset: 'vercel-ai' }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream ended early: no finish event (vercel-ai stream, 15 characters received, 1 tool call begun: trackOrder)',
      // The call it had begun, as received (docs/presets.md, "Streamed replies").
      toolCalls: [{ tool: 'trackOrder', input: { id: 'A1' }, output: { status: 'shipped' }, mocked: false }],
    });
  });
});

describe('a stream with nothing to read names why the model stopped, when it says', () => {
  // What an AI SDK 7 route sends when the provider's content filter stopped the model before any text
  // (streamText on MockLanguageModelV4 finishing with finishReason content-filter).
  it('vercel-ai: a finish part with finishReason content-filter', async () => {
    const filtered = [{ type: 'start' }, { type: 'start-step' }, { type: 'finish-step' }, { type: 'finish', finishReason: 'content-filter', messageMetadata: { usage: { inputTokens: 10, outputTokens: 0 } } }];
    const server = await serve(() => ({ type: 'text/event-stream', body: [...sse(filtered), 'data: [DONE]\n\n'] }));
    const filteredOut = await clientFor({ url: server.url, preset: 'vercel-ai' }).converse(request);
    expect(filteredOut).toMatchObject({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: 'message turn: no reply text and no tool call could be read from the stream (a vercel-ai stream that stopped with reason "content-filter" (a content filter), 4 events: start, start-step, finish-step, finish)',
    });
    const unread = filteredOut.kind === 'errored' ? filteredOut.error : '';
    quotedAndSaid(unread, 'no reply text and no tool call could be read from the stream (a <format> stream, <n> events: ...)', { '<format> stream, <n> events': 'vercel-ai stream that stopped with reason "content-filter" (a content filter), 4 events' });
    quotedAndSaid(unread, 'stopped with reason "content-filter"');
  });

  it('openai-chat: a reasoning model that spent its output tokens before any text (finish_reason length); a usual stop is not named', async () => {
    const chunk = (delta: unknown, finish: string | null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    const cut = await serve(() => ({ type: 'text/event-stream', body: sse([chunk({ role: 'assistant', content: '' }, null), chunk({}, 'length'), '[DONE]']) }));
    expect(await clientFor({ url: cut.url, preset: 'openai-chat', model: 'm', stream: true }).converse(request)).toMatchObject({
      errorKind: 'missing_reply',
      error: 'message turn: no reply text and no tool call could be read from the stream (a openai-chat stream that stopped with reason "length" (the output token limit), 2 events: {id, object, choices})',
    });
    const empty = await serve(() => ({ type: 'text/event-stream', body: sse([chunk({ role: 'assistant', content: '' }, null), chunk({}, 'stop'), '[DONE]']) }));
    expect(await clientFor({ url: empty.url, preset: 'openai-chat', model: 'm', stream: true }).converse(request)).toMatchObject({
      error: 'message turn: no reply text and no tool call could be read from the stream (a openai-chat stream, 2 events: {id, object, choices})',
    });
  });
});

describe('langgraph', () => {
  it('posts assistant_id and input to /runs/wait; the reply is the AI message after the tool call, tools with their outputs', async () => {
    const server = await serve((seen) => {
      const input = (seen.json as { input: { messages: { content: string }[] } }).input.messages[0]!.content;
      return {
        type: 'application/json',
        body: JSON.stringify({
          messages: [
            { type: 'human', content: 'earlier', id: 'h0' },
            { type: 'ai', content: 'earlier answer', id: 'a0' },
            { type: 'human', content: input, id: 'h1' },
            { type: 'ai', content: '', id: 'a1', tool_calls: [{ name: 'track_order', args: { id: 'A1' }, id: 'call_1', type: 'tool_call' }] },
            { type: 'tool', content: 'shipped', tool_call_id: 'call_1', name: 'track_order', id: 't1' },
            { type: 'ai', content: [{ type: 'text', text: 'It has shipped.' }], id: 'a2', tool_calls: [] },
          ],
        }),
      };
    });
    const c = clientFor({ url: `${server.url}/runs/wait`, preset: 'langgraph', assistantId: 'agent' });
    const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('Where is my order?', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'It has shipped.', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: 'shipped', mocked: false }] });
    expect(server.seen[0]).toMatchObject({ path: '/runs/wait', json: { assistant_id: 'agent', input: { messages: [{ role: 'user', content: 'Where is my order?' }] } } });
  });

  // A model that speaks before its tool call (`AIMessage` with content and tool_calls), then answers:
  // the chat (useStream, Agent Chat UI) shows both AI messages, so the reply holds both, a blank line
  // between them as the Responses preset joins an Agents SDK run's messages; none dropped, none run together.
  it('the turn\'s AI messages with text are the reply, joined with a blank line: the text before a tool call is not dropped', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        messages: [
          { type: 'human', content: 'earlier', id: 'h0' },
          { type: 'ai', content: 'earlier answer', id: 'a0' },
          { type: 'human', content: 'Where is order 1234?', id: 'h1' },
          { type: 'ai', content: [{ type: 'reasoning', reasoning: 'look it up' }, { type: 'text', text: 'Let me look that up.' }], id: 'a1', tool_calls: [{ name: 'find_order', args: { orderId: '1234' }, id: 'call_1', type: 'tool_call' }] },
          { type: 'tool', content: '{"status":"shipped"}', tool_call_id: 'call_1', name: 'find_order', id: 't1' },
          { type: 'ai', content: '', id: 'a2', tool_calls: [{ name: 'find_order', args: { orderId: '1235' }, id: 'call_2', type: 'tool_call' }] },
          { type: 'tool', content: '{"status":"lost"}', tool_call_id: 'call_2', name: 'find_order', id: 't2' },
          { type: 'ai', content: 'Order 1234 has shipped; ', id: 'a3', tool_calls: [] },
        ],
      }),
    }));
    const turn = await clientFor({ url: `${server.url}/runs/wait`, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks: [] }).send('Where is order 1234?', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Let me look that up.\n\nOrder 1234 has shipped; ' });
    expect(turn.kind === 'replied' ? turn.toolCalls : null).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'shipped' }, mocked: false },
      { tool: 'find_order', input: { orderId: '1235' }, output: { status: 'lost' }, mocked: false },
    ]);
  });

  // langchain 1.5's ToolNode (agents/nodes/ToolNode.js, defaultHandleToolErrors): a tool that threw is answered by
  // a ToolMessage with status "error" and content "<error>\n Please fix your mistakes.", for the model to see.
  it('a tool that threw (its tool message has status error) is a real call whose output is {error}, not a result', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        messages: [
          { type: 'human', content: 'Where is order 0?', id: 'h1' },
          { type: 'ai', content: '', id: 'a1', tool_calls: [{ name: 'find_order', args: { orderId: '0' }, id: 'call_1', type: 'tool_call' }] },
          { type: 'tool', content: 'Error: no such order\n Please fix your mistakes.', tool_call_id: 'call_1', name: 'find_order', id: 't1', status: 'error' },
          { type: 'ai', content: 'I could not find that order.', id: 'a2', tool_calls: [] },
        ],
      }),
    }));
    const turn = await clientFor({ url: `${server.url}/runs/wait`, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks: [] }).send('Where is order 0?', 1);
    expect(turn).toMatchObject({ kind: 'replied', toolCalls: [{ tool: 'find_order', input: { orderId: '0' }, output: { error: 'Error: no such order\n Please fix your mistakes.' }, mocked: false }] });
  });

  // @langchain/core 1.4 InvalidToolCall ({name, args: string, id, error, type: 'invalid_tool_call'}): arguments
  // the model sent that LangChain could not parse; createAgent's tool node does not run such a call.
  it('a call LangChain could not parse (invalid_tool_calls) is a call that ran nothing, with its error, not dropped', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        messages: [
          { type: 'human', content: 'Refund order 1234', id: 'h1' },
          {
            type: 'ai',
            content: 'Refunding it now.',
            id: 'a1',
            tool_calls: [],
            invalid_tool_calls: [{ type: 'invalid_tool_call', name: 'issue_refund', args: '{"orderId": "1234", ', id: 'call_9', error: 'Malformed args.' }],
          },
        ],
      }),
    }));
    const turn = await clientFor({ url: `${server.url}/runs/wait`, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks: [] }).send('Refund order 1234', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Refunding it now.', toolCalls: [{ tool: 'issue_refund', input: '{"orderId": "1234", ', output: { error: 'Malformed args.' }, mocked: true }] });
  });

  it('reads a tool message holding JSON text (how LangChain serializes an object result) as the object', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        messages: [
          { type: 'human', content: 'Order 1', id: 'h1' },
          { type: 'ai', content: '', id: 'a1', tool_calls: [{ name: 'find_order', args: { id: '1' }, id: 'c1' }, { name: 'note', args: {}, id: 'c2' }] },
          { type: 'tool', content: '{"status":"delivered"}', tool_call_id: 'c1', id: 't1' },
          { type: 'tool', content: '{not json', tool_call_id: 'c2', id: 't2' },
          { type: 'ai', content: 'Delivered.', id: 'a2' },
        ],
      }),
    }));
    const turn = await clientFor({ url: server.url, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks: [] }).send('Order 1', 1);
    expect(turn).toMatchObject({
      reply: 'Delivered.',
      toolCalls: [
        { tool: 'find_order', output: { status: 'delivered' }, mocked: false },
        { tool: 'note', output: '{not json', mocked: false },
      ],
    });
  });

  // @langchain/core 1.x _formatToolOutput keeps a tool's list of typed blocks as the tool message's
  // content (an MCP server's tool through @langchain/mcp-adapters answers [{type: 'text', text}]): its
  // text is the output, read as a chat tool message's blocks are, and its JSON text read back; a list of
  // the tool's own records (typed, no text) is the value it returned.
  it('reads a tool message whose content is text blocks (an MCP tool) as their text, not as the blocks', async () => {
    const server = await serve(() => ({
      type: 'application/json',
      body: JSON.stringify({
        messages: [
          { type: 'human', content: 'Order 1', id: 'h1' },
          { type: 'ai', content: '', id: 'a1', tool_calls: [{ name: 'find_order', args: { id: '1' }, id: 'c1' }, { name: 'note', args: {}, id: 'c2' }, { name: 'events', args: {}, id: 'c3' }, { name: 'refund', args: {}, id: 'c4' }] },
          { type: 'tool', content: [{ type: 'text', text: '{"status":"delivered"}' }], tool_call_id: 'c1', id: 't1' },
          { type: 'tool', content: [{ type: 'text', text: 'Noted ' }, { type: 'text', text: 'for order 1.' }], tool_call_id: 'c2', id: 't2' },
          { type: 'tool', content: [{ type: 'shipped', at: '2026-01-02' }], tool_call_id: 'c3', id: 't3' },
          { type: 'tool', content: [{ type: 'text', text: 'no such order' }], tool_call_id: 'c4', id: 't4', status: 'error' },
          { type: 'ai', content: 'Delivered.', id: 'a2' },
        ],
      }),
    }));
    const turn = await clientFor({ url: server.url, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks: [] }).send('Order 1', 1);
    expect(turn.kind === 'replied' ? turn.toolCalls?.map((c) => c.output) : null).toEqual([{ status: 'delivered' }, 'Noted for order 1.', [{ type: 'shipped', at: '2026-01-02' }], { error: 'no such order' }]);
  });

  it("sends a persona script's mocks in config.configurable.mocks, where a graph's tools read them", async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify({ messages: [{ type: 'ai', content: 'ok', id: 'a' }] }) }));
    const mocks = [{ tool: 'track_order', match: 'subset' as const, output: 'shipped' }];
    await clientFor({ url: server.url, preset: 'langgraph', assistantId: 'agent' }).session({ session: 's', persona: null, mocks }).send('hi', 1);
    expect(server.seen[0]!.json).toEqual({ assistant_id: 'agent', input: { messages: [{ role: 'user', content: 'hi' }] }, config: { configurable: { mocks } } });
  });

  it('a failed run (__error__) is errored with its message', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify({ __error__: { error: 'ValueError', message: 'bad input' } }) }));
    expect(await clientFor({ url: server.url, preset: 'langgraph', assistantId: 'agent' }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: 'message turn: the run failed: ValueError: bad input',
    });
  });

  it('streams from /runs/stream with stream_mode values: the last values event is the state read', async () => {
    const human = { type: 'human', content: 'Where is my order?', id: 'h1' };
    const server = await serve(() => ({
      type: 'text/event-stream',
      body: named([
        ['metadata', { run_id: 'run-1', attempt: 1 }],
        ['values', { messages: [human] }],
        ['values', { messages: [human, { type: 'ai', content: 'It has shipped.', id: 'a1' }] }],
      ]),
    }));
    const c = clientFor({ url: `${server.url}/runs/stream`, preset: 'langgraph', assistantId: 'agent', stream: true });
    expect(await c.converse(request)).toMatchObject({ kind: 'replied', reply: 'It has shipped.' });
    expect(server.seen[0]).toMatchObject({ path: '/runs/stream', json: { assistant_id: 'agent', stream_mode: 'values' } });
  });

  it('a stream error event errors the turn; a stream without values has nothing to read', async () => {
    const failing = await serve(() => ({ type: 'text/event-stream', body: named([['metadata', { run_id: 'r' }], ['error', { error: 'GraphRecursionError', message: 'Recursion limit reached' }]]) }));
    expect(await clientFor({ url: failing.url, preset: 'langgraph', assistantId: 'a', stream: true }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the stream sent an error event: GraphRecursionError: Recursion limit reached',
    });
    const empty = await serve(() => ({ type: 'text/event-stream', body: named([['metadata', { run_id: 'r' }]]) }));
    expect(await clientFor({ url: empty.url, preset: 'langgraph', assistantId: 'a', stream: true }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the LangGraph stream sent no values event (stream it with stream_mode "values")',
    });
  });

  it('warns when agent.assistantId is not set', () => {
    const resolved = resolveConfigFile(null, 'config.yml', { agent: { preset: 'langgraph' } }, {});
    expect(resolved.warnings.map((w) => w.message)).toEqual([expect.stringContaining('agent.assistantId is not set') as unknown]);
  });
});

describe('native and any mapping', () => {
  it('plain data: events are appended as they come, and report no tool calls', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: ['data: Within \n\n', ': keep-alive\n\n', 'data: 30 days.\n\n'] }));
    expect(await clientFor({ url: server.url }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
    const turn = await clientFor({ url: server.url }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', toolCalls: null });
  });

  it('NDJSON: the reply path of each line concatenated, the other fields from the last line', async () => {
    const server = await serve(() => ({
      type: 'application/x-ndjson',
      body: ['{"reply":"Within "}\n', '{"reply":"30 days."}\n', '{"route":{"conversation":"refunds","stage":"policy"},"ended":true}\n'],
    }));
    expect(await clientFor({ url: server.url }).converse(request)).toMatchObject({
      kind: 'replied',
      reply: 'Within 30 days.',
      route: { conversation: 'refunds', stage: 'policy' },
      ended: true,
    });
  });

  it('NDJSON: the openai-chat refusal on the last line is the reply when no line has content', async () => {
    const refusal = "I'm sorry, I can't help with that.";
    const server = await serve(() => ({
      type: 'application/x-ndjson',
      body: ['{"choices":[{"index":0,"message":{"role":"assistant","content":null}}]}\n', `${JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: null, refusal }, finish_reason: 'stop' }] })}\n`],
    }));
    expect(await clientFor({ url: server.url, preset: 'openai-chat', model: 'm' }).converse(request)).toMatchObject({ kind: 'replied', reply: refusal });
    const turn = await clientFor({ url: server.url, preset: 'openai-chat', model: 'm' }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: refusal });
  });

  it('a stream event that is a JSON object of no known format (a heartbeat) is skipped, never text of the reply', async () => {
    const plain = await serve(() => ({ type: 'text/event-stream', body: ['data: {"type":"heartbeat"}\n\n', 'data: Within \n\n', 'data: {"status":"working","elapsedMs":120}\n\n', 'data: 30 days.\n\n'] }));
    expect(await clientFor({ url: plain.url }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
    // A heartbeat before OpenAI chunks leaves the stream OpenAI's: its tool calls are read and its end is checked.
    const chunk = (delta: unknown, finish: string | null = null) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
    const chat = await serve(() => ({ type: 'text/event-stream', body: sse([{ type: 'heartbeat' }, chunk({ role: 'assistant', content: 'Hi' }), { type: 'heartbeat' }, chunk({}, 'stop'), '[DONE]']) }));
    const turn = await clientFor({ url: chat.url, preset: 'openai-chat', model: 'm', stream: true }).session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Hi', toolCalls: [] });
    // Only heartbeats: the stream carried no events, said as such (no path to set would read anything).
    const beats = await serve(() => ({ type: 'text/event-stream', body: sse([{ type: 'heartbeat' }, { type: 'heartbeat' }]) }));
    expect(await clientFor({ url: beats.url }).converse(request)).toMatchObject({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: 'message turn: no reply text and no tool call could be read from the stream: it carried no events (only keep-alives: 2 pings); the agent ended the stream without answering',
    });
  });

  it('an NDJSON line that is not JSON is errored with its line number', async () => {
    const server = await serve(() => ({ type: 'application/x-ndjson', body: '{"reply":"a"}\nnot json\n' }));
    expect(await clientFor({ url: server.url }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'invalid_json',
      error: 'message turn: NDJSON line 2 is not valid JSON: not json',
    });
  });

  it('a stream that stalls is cut at the turn deadline, not retried, said as an answer that did not end (the agent is up)', async () => {
    const server = await serve(() => ({ type: 'text/event-stream', body: 'data: Within\n\n', hold: true }));
    // The deadline fired once the client has the stream's first bytes: a real 300 ms could come before its headers on a loaded machine.
    const { timer, fire } = heldTimeout();
    expect(await clientFor({ url: server.url, timeoutMs: 5000, retries: 2 }, { timer, network: bodyBegun(fire) }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'timeout',
      error: "message turn: the agent's answer (HTTP 200) did not end within 5,000 ms (agent.timeoutMs bounds the whole answer, a stream to its end)",
    });
    expect(server.seen).toHaveLength(1);
  });

  it('a stream larger than the response limit is refused', async () => {
    const line = `data: ${'x'.repeat(1024 * 1024)}\n\n`;
    const server = await serve(() => ({ type: 'text/event-stream', body: Array.from({ length: 9 }, () => line) }));
    expect(await clientFor({ url: server.url }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: agent response is larger than 8 MiB, the most agent-replay reads of one answer (a fixed limit, not a setting)',
    });
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic-messages', 'rasa-rest'] as const)('%s sends no mocks: the vendor API has no such field', async (preset) => {
    const server = await serve(() => ({ type: 'application/json', body: '{}' }));
    await clientFor({ url: server.url, preset, model: 'm' }).session({ session: 's', persona: null, mocks: [{ tool: 't', match: 'subset', output: 1 }] }).send('hi', 1);
    expect(JSON.stringify(server.seen[0]!.json)).not.toContain('mocks');
  });

  it('a request body of ones own sends no welcome turn unless agent.start asks for one', async () => {
    const server = await serve(() => ({ type: 'application/json', body: JSON.stringify({ reply: 'ok' }) }));
    const resolve = (agent: Record<string, unknown>) => resolveConfigFile(null, 'config.yml', { agent: { url: server.url, retries: 0, ...agent } }, {}).config!.agent;
    const custom = resolve({ request: { body: { q: '{{message}}', mocks: '{{mocks}}' } } });
    expect(custom.start).toBeNull();
    const c = createHttpAgentClient(custom, { clock, random: () => 0 });
    cleanups.push(() => c.close());
    expect(await c.session({ session: 's', persona: null, mocks: [] }).welcome()).toBeNull();
    expect(await c.converse(request)).toMatchObject({ kind: 'replied', reply: 'ok', turns: 1 });
    expect(server.seen.map((r) => r.json)).toEqual([{ q: 'Where is my order?' }]);
    // The native preset keeps its welcome turn; a custom body with start: true gets the native welcome request.
    expect(resolve({}).start?.body).toEqual({ session: '{{session}}', persona: '{{persona}}', start: true, mocks: '{{mocks}}' });
    expect(resolve({ request: { body: { q: '{{message}}' } }, start: true }).start?.body).toEqual({ session: '{{session}}', persona: '{{persona}}', start: true, mocks: '{{mocks}}' });
  });

  it('every preset resolves without errors', () => {
    for (const preset of AGENT_PRESET_NAMES) {
      const resolved = resolveConfigFile(null, 'config.yml', { agent: { preset, model: 'm', assistantId: 'a' } }, {});
      expect([preset, resolved.errors]).toEqual([preset, []]);
    }
  });
});
