// Streamed answers whose parts come over several events (docs/presets.md, "Streamed replies"): a
// tool call sent in pieces is one call with its whole arguments (OpenAI chat deltas forwarded in the
// agent's own JSON or NDJSON lines, the AI SDK's tool-input-delta parts, Mastra's tool-call-delta
// chunks); text read by config.yml's reply path is kept when an event that looks like a known
// format's comes after it; a stream of only keep-alives says it carried no events. The config is
// loaded from a real config.yml, the agent is a real server on 127.0.0.1 sending the vendors' shapes
// (openai ChatCompletionChunk tool_calls deltas, ai UIMessageChunk, @mastra/core ChunkType, Ollama /api/chat).
import { afterEach, describe, expect, it } from 'vitest';
import { configClients } from './config-client.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const { clientFor, closeAll } = configClients();
afterEach(closeAll);

const request = { session: 's', message: 'hi', persona: null };
const sse = (events: unknown[]): string => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
const ndjson = (events: unknown[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');
const stream = (body: string) => () => ({ headers: { 'content-type': 'text/event-stream' }, body });

describe('a tool call sent in pieces is one call with its whole arguments', () => {
  // An agent that forwards the model's chat deltas in its own envelope: id and name in the first
  // piece, the arguments in the next ones; a second model call of the same answer numbers its call 0 again.
  const OWN = '  request: { body: { input: "{{message}}" } }\n  response: { reply: delta.content, toolCalls: delta.tool_calls, ended: done }\n';
  const piece = (call: unknown) => ({ delta: { tool_calls: [call] } });
  const EVENTS = [
    { delta: { content: 'Let me check. ' } },
    piece({ index: 0, id: 'call_1', type: 'function', function: { name: 'track_order', arguments: '' } }),
    piece({ index: 0, function: { arguments: '{"id":' } }),
    piece({ index: 0, function: { arguments: '"A1"}' } }),
    piece({ index: 0, id: 'call_2', type: 'function', function: { name: 'refund', arguments: '{"amount"' } }),
    piece({ index: 0, function: { arguments: ':5}' } }),
    { delta: { content: 'Done.' } },
    { done: true },
  ];
  const CALLS = [
    { tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true },
    { tool: 'refund', input: { amount: 5 }, output: null, mocked: true },
  ];

  it('OpenAI chat deltas over the events of the agent\'s own JSON stream, and over NDJSON lines', async () => {
    const events = await clientFor(OWN, stream(`${sse(EVENTS)}data: [DONE]\n\n`));
    expect(await events.converse(request)).toMatchObject({ kind: 'replied', reply: 'Let me check. Done.', ended: true, toolCalls: CALLS });
    const lines = await clientFor(OWN, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(EVENTS) }));
    expect(await lines.converse(request)).toMatchObject({ kind: 'replied', reply: 'Let me check. Done.', toolCalls: CALLS });
  });

  it('Ollama /api/chat NDJSON: the calls come whole on a line before the last, and are read', async () => {
    const line = (message: unknown, done: boolean) => ({ model: 'llama3.2', created_at: '2026-12-05T19:00:00Z', message, done, ...(done ? { done_reason: 'stop', eval_count: 9 } : {}) });
    const body = ndjson([
      line({ role: 'assistant', content: '', tool_calls: [{ id: 'call_a', function: { index: 0, name: 'get_weather', arguments: { city: 'Paris' } } }] }, false),
      line({ role: 'assistant', content: '' }, true),
    ]);
    const client = await clientFor('  request: { body: { messages: [{ role: user, content: "{{message}}" }] } }\n  response: { reply: message.content, toolCalls: message.tool_calls }\n', () => ({ headers: { 'content-type': 'application/x-ndjson' }, body }));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: '', toolCalls: [{ tool: 'get_weather', input: { city: 'Paris' }, output: null, mocked: true }] });
  });

  it('AI SDK UI message stream: tool-input-start and tool-input-delta parts with no tool-input-available are the one call, with its output', async () => {
    const body = sse([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'trackOrder' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"id":' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"A1"}' },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c2', toolName: 'note', inputEncoding: 'text' },
      { type: 'tool-input-delta', toolCallId: 'c2', inputTextDelta: 'ship' },
      { type: 'tool-input-delta', toolCallId: 'c2', inputTextDelta: 'ped' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'length' },
      '[DONE]',
    ]);
    const client = await clientFor('  preset: vercel-ai\n', stream(body));
    expect(await client.converse(request)).toMatchObject({
      kind: 'replied',
      reply: '',
      toolCalls: [
        { tool: 'trackOrder', input: { id: 'A1' }, output: { status: 'shipped' }, mocked: false },
        { tool: 'note', input: 'shipped', output: null, mocked: true },
      ],
    });
  });

  it('Mastra agent stream: tool-call-input-streaming-start and tool-call-delta chunks with no tool-call chunk are the one call, with its result', async () => {
    const chunk = (type: string, payload: unknown) => ({ type, runId: 'r1', from: 'AGENT', payload });
    const body = sse([
      chunk('start', { id: 'support', messageId: 'm1' }),
      chunk('tool-call-input-streaming-start', { toolCallId: 'call-1', toolName: 'find_order' }),
      chunk('tool-call-delta', { toolCallId: 'call-1', toolName: 'find_order', argsTextDelta: '{"orderId":' }),
      chunk('tool-call-delta', { toolCallId: 'call-1', toolName: 'find_order', argsTextDelta: '"1234"}' }),
      chunk('tool-call-input-streaming-end', { toolCallId: 'call-1' }),
      chunk('tool-result', { toolCallId: 'call-1', toolName: 'find_order', result: { status: 'delivered' } }),
      chunk('text-delta', { id: 't1', text: 'Delivered.' }),
      chunk('finish', { stepResult: { reason: 'stop' }, output: {} }),
      '[DONE]',
    ]);
    const client = await clientFor('  preset: mastra\n', stream(body));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Delivered.', toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false }] });
  });
});

describe('text read by agent.response.reply is kept when an event of a known format\'s look follows it', () => {
  it('a {"type": "finish"} and a {"choices": []} after the agent\'s own events leave the reply read by the path', async () => {
    const body = sse([{ delta: { content: 'Within ' } }, { delta: { content: '30 days.' } }, { type: 'finish' }, { choices: [] }, '[DONE]']);
    const client = await clientFor('  response: { reply: delta.content }\n', stream(body));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
  });
});

describe('a stream of only keep-alives carried no events', () => {
  it('comments or ping events alone: said so, with no advice about agent.response.reply', async () => {
    const comments = await clientFor('  response: { reply: delta.content }\n', stream(': ping\n\n: ping\n\n: ping\n\n'));
    // The native preset's welcome turn streams the same: a welcome with no greeting, then the message turn.
    const kept = await comments.converse(request);
    expect(kept).toEqual({
      kind: 'errored',
      errorKind: 'missing_reply',
      answered: 2,
      error: 'message turn: no reply text and no tool call could be read from the stream: it carried no events (only keep-alives: 3 comments); the agent ended the stream without answering',
    });
    quotedAndSaid(kept.kind === 'errored' ? kept.error : '', 'no reply text and no tool call could be read from the stream: it carried no events (only keep-alives: 3 comments); ...');
    const pings = await clientFor('', stream('event: ping\ndata: {}\n\n: keep-alive\n\nevent: ping\ndata: {}\n\ndata: [DONE]\n\n'));
    expect(await pings.converse(request)).toMatchObject({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: 'message turn: no reply text and no tool call could be read from the stream: it carried no events (only keep-alives: 1 comment, 2 pings; data: [DONE]); the agent ended the stream without answering',
    });
  });
});
