import { describe, expect, it } from 'vitest';
import { decodeEventStream, parseEventStream, streamSoFar, watchFirstText } from '../../src/agent/stream.js';
import { decodeToolCalls } from '../../src/agent/tool-calls.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

describe('decodeEventStream: Anthropic usage from the agent', () => {
  it('a message_delta usage key named __proto__ is a key, never the prototype whose counts would be read as sent', () => {
    const events = [
      '{"type":"message_start","message":{"type":"message","content":[],"usage":{"input_tokens":25}}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"__proto__":{"output_tokens":99}}}',
      '{"type":"message_stop"}',
    ];
    const read = decodeEventStream(events.map((e) => `data: ${e}\n\n`).join(''));
    expect(read).toMatchObject({ ok: true, value: { reply: 'hi' } });
    // No output count was sent: the usage is malformed (warned), not 99 output tokens read through the prototype.
    expect(read.ok && read.value.usage).toMatchObject({ kind: 'malformed' });
  });
});

describe('parseEventStream', () => {
  it('splits on CRLF, LF and CR; joins data lines with LF; drops comments, one leading space and data-less events', () => {
    const text = ': hello\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nevent: empty\n\nid: 3\rdata:  three\r\rdata: last';
    expect(parseEventStream(text)).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: null, data: ' three' },
      { event: null, data: 'last' },
    ]);
  });
});

describe('decodeEventStream', () => {
  it('plain data is appended as it comes, JSON-looking or not; plain text has no end event to miss', () => {
    expect(decodeEventStream('data: Hello,\n\ndata:  world\n\ndata: [1]\n\ndata: {"a":\n\n')).toEqual({ ok: true, value: { reply: 'Hello, world[1]{"a":', toolCalls: null } });
    // A JSON object of no known format is an event, not text (docs/presets.md, "Streamed replies").
    expect(decodeEventStream('data: Hello,\n\ndata: {"a":1}\n\ndata:  world\n\n')).toEqual({ ok: true, value: { reply: 'Hello, world', toolCalls: null } });
  });

  // A route that writes `data: ${chunk}\n\n` for each chunk of a text stream (the OpenAI Agents SDK's
  // toTextStream()): a chunk holding a newline leaves its next lines without `data:`, lines every
  // reader drops. The reply would lack them (a list's items, a paragraph): said, not read short.
  it('plain data: a line of the text sent without its own data: errors the stream, naming it; each line as data: joins with a newline', () => {
    const stray = decodeEventStream('data: Order 1234:\n- shipped\n- paid\n\ndata:  Thanks.\n\n');
    quotedAndSaid(stray.ok ? 'read' : stray.error, 'stream event 1 holds a line that is no event-stream field ("- shipped"): a text chunk with a newline sent on one data: line, ...');
    expect(stray).toEqual({
      ok: false,
      error: 'stream event 1 holds a line that is no event-stream field ("- shipped"): a text chunk with a newline sent on one data: line, whose next lines every event-stream reader (agent-replay\'s, a browser\'s EventSource) drops, so the reply would lack them; send each line of a chunk as its own data: line',
    });
    expect(decodeEventStream('data: Hello.\n\ndata: \nSure: soon\n\n')).toMatchObject({ ok: false, error: expect.stringContaining('stream event 2 holds a line that is no event-stream field ("Sure: soon")') });
    expect(decodeEventStream('data: Order 1234:\ndata: - shipped\n\ndata: \ndata: \ndata: \n\ndata: Thanks.\nid: 4\nretry: 10\n\n')).toEqual({ ok: true, value: { reply: 'Order 1234:\n- shipped\n\nThanks.', toolCalls: null } });
  });

  it('events of a known format that carry no text are ignored, not appended', () => {
    const text = ['{"type":"start"}', '{"type":"text-delta","id":"t","delta":"Hi"}', '{"type":"message-metadata","messageMetadata":{}}', '{"type":"finish"}']
      .map((d) => `data: ${d}\n\n`)
      .join('');
    expect(decodeEventStream(text)).toEqual({ ok: true, value: { reply: 'Hi', toolCalls: [] } });
  });

  it('an error event whose data is text errors the stream: it is not text of the reply', () => {
    expect(decodeEventStream('data: Hello\n\nevent: error\ndata: Internal server error\n\n')).toEqual({ ok: false, error: 'the stream sent an error event: Internal server error' });
    // Mid-way through a vendor stream, the error is said rather than "the stream ended early".
    expect(decodeEventStream('data: {"choices":[{"delta":{"content":"A"}}]}\n\nevent: error\ndata: rate limited\n\n')).toEqual({ ok: false, error: 'the stream sent an error event: rate limited' });
    expect(decodeEventStream('event: error\ndata:\n\n')).toEqual({ ok: false, error: 'the stream sent an error event: (no message)' });
  });

  it('an abort part errors the stream', () => {
    expect(decodeEventStream('data: {"type":"start"}\n\ndata: {"type":"abort"}\n\n')).toEqual({ ok: false, error: 'the stream was aborted by the agent (an abort part)' });
    // AI SDK 7's abort part says why: the reason is named.
    expect(decodeEventStream('data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"t","delta":"Let me"}\n\ndata: {"type":"abort","reason":"timeout after 30000 ms"}\n\n')).toEqual({ ok: false, error: 'the stream was aborted by the agent (an abort part: timeout after 30000 ms)' });
  });

  it("vercel-ai: a reset-step drops what its step streamed, text and tool calls, as the AI SDK's client does", () => {
    const sse = (parts: unknown[]): string => parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('');
    expect(decodeEventStream(sse([{ type: 'start' }, { type: 'text-delta', id: 't', delta: 'one' }, { type: 'reset-step' }, { type: 'text-delta', id: 't', delta: 'two' }, { type: 'finish' }]))).toEqual({
      ok: true,
      value: { reply: 'two', toolCalls: [] },
    });
    // A step before the reset one keeps its text and calls (an output that came in the reset step for its call too).
    const stepped = sse([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Let me check. ' },
      { type: 'text-end', id: 'a' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'find_order', input: { id: 7 } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
      { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'b', delta: 'Refunding now' },
      { type: 'tool-input-available', toolCallId: 'c2', toolName: 'refund', input: { id: 7 } },
      { type: 'tool-output-available', toolCallId: 'c2', output: { ok: true } },
      { type: 'reset-step' },
      { type: 'text-start', id: 'c' },
      { type: 'text-delta', id: 'c', delta: 'It has shipped.' },
      { type: 'text-end', id: 'c' },
      { type: 'finish-step' },
      { type: 'finish' },
    ]);
    expect(decodeEventStream(stepped)).toEqual({
      ok: true,
      value: { reply: 'Let me check. \n\nIt has shipped.', toolCalls: [{ tool: 'find_order', input: { id: 7 }, output: { status: 'shipped' }, mocked: false }], toolCallItems: ['stream event 6 (tool-input-available)'] },
    });
  });

  // The part shapes of ai 7.0.173's UIMessageChunk (tool-approval-request, tool-approval-response,
  // tool-output-denied; providerExecuted on the tool parts, as ai 5.0.277's too).
  it('vercel-ai: a call whose approval was refused is a call that ran nothing, saying it was denied and why', () => {
    const sse = (parts: unknown[]): string => parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('');
    const denied = (response: Record<string, unknown>): string =>
      sse([
        { type: 'start' },
        { type: 'start-step' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'refund', input: { id: 7 } },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
        { type: 'tool-approval-response', approvalId: 'a1', ...response },
        { type: 'tool-output-denied', toolCallId: 'c1' },
        { type: 'finish-step' },
        { type: 'start-step' },
        { type: 'text-delta', id: 't', delta: 'I cannot refund that.' },
        { type: 'finish' },
      ]);
    expect(decodeEventStream(denied({ approved: false, reason: 'over the  limit' }))).toEqual({
      ok: true,
      value: {
        reply: 'I cannot refund that.',
        toolCalls: [{ tool: 'refund', input: { id: 7 }, output: { error: 'the call was denied (tool-output-denied): over the limit; it did not run' }, mocked: true }],
        toolCallItems: ['stream event 3 (tool-input-available)'],
      },
    });
    expect(decodeEventStream(denied({ approved: false }))).toMatchObject({ ok: true, value: { toolCalls: [{ tool: 'refund', output: { error: 'the call was denied (tool-output-denied); it did not run' }, mocked: true }] } });
  });

  it('vercel-ai: a tool the provider ran itself (providerExecuted) is skipped, as the other presets skip the vendor\'s own tools; the route\'s tools stay', () => {
    const sse = (parts: unknown[]): string => parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('');
    const text = sse([
      { type: 'start' },
      { type: 'tool-input-start', toolCallId: 'ws', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', toolCallId: 'ws', inputTextDelta: '{"query":"x"}' },
      { type: 'tool-input-available', toolCallId: 'ws', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true },
      { type: 'tool-output-available', toolCallId: 'ws', output: [{ url: 'https://example.com' }], providerExecuted: true },
      // Said only on the output: the call goes all the same.
      { type: 'tool-input-available', toolCallId: 'ce', toolName: 'code_execution', input: { code: '1+1' } },
      { type: 'tool-output-error', toolCallId: 'ce', errorText: 'sandbox', providerExecuted: true },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'find_order', input: { id: 7 } },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
      { type: 'text-delta', id: 't', delta: 'Shipped.' },
      { type: 'finish' },
    ]);
    expect(decodeEventStream(text)).toEqual({
      ok: true,
      value: { reply: 'Shipped.', toolCalls: [{ tool: 'find_order', input: { id: 7 }, output: { status: 'shipped' }, mocked: false }], toolCallItems: ['stream event 8 (tool-input-available)'] },
    });
  });

  // The same rule for a UI message's tool parts (ai 7.0.173's UIToolInvocation: state output-denied with approval.reason, providerExecuted).
  it('vercel-ai UI message tool parts: a denied call ran nothing and says why; a provider-executed one is skipped', () => {
    expect(
      decodeToolCalls([
        { type: 'tool-refund', toolCallId: 'c1', state: 'output-denied', input: { id: 7 }, approval: { id: 'a1', approved: false, reason: 'over the limit' } },
        { type: 'dynamic-tool', toolName: 'web_search', toolCallId: 'ws', state: 'output-available', input: { query: 'x' }, output: [], providerExecuted: true },
        { type: 'tool-find_order', toolCallId: 'c2', state: 'output-available', input: { id: 7 }, output: { status: 'shipped' } },
      ]),
    ).toMatchObject({
      ok: true,
      value: [
        { tool: 'refund', input: { id: 7 }, output: { error: 'the call was denied (output-denied): over the limit; it did not run' }, mocked: true },
        { tool: 'find_order', input: { id: 7 }, output: { status: 'shipped' }, mocked: false },
      ],
    });
  });

  it('langgraph: a stream cut short counts the text of an AI chunk whose content is blocks', () => {
    const lg = (events: [string, unknown][]): string => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
    const chunk = (content: unknown, more: Record<string, unknown> = {}): [string, unknown] => ['messages', [{ type: 'AIMessageChunk', id: 'ai1', content, ...more }, { langgraph_node: 'agent' }]];
    const body = lg([
      ['metadata', { run_id: 'r1' }],
      chunk([{ index: 0, type: 'text', text: 'Let me ' }]),
      chunk([{ index: 0, type: 'text_delta', text: 'check.' }]),
      // A tool call's block carries no text: its arguments come in tool_call_chunks.
      chunk([{ index: 1, type: 'tool_use', id: 'call_1', name: 'track_order', input: '' }], { tool_call_chunks: [{ index: 1, id: 'call_1', name: 'track_order', args: '' }] }),
      chunk([{ index: 1, type: 'input_json_delta', input: '{"id": "A1"}' }], { tool_call_chunks: [{ index: 1, args: '{"id": "A1"}' }] }),
    ]);
    expect(streamSoFar(body)?.said).toBe('langgraph stream, 13 characters received, 1 tool call begun: track_order');
  });

  it('a stream cut short counts its text grouped as every count (src/words.ts): "1,500 characters", and "1 character"', () => {
    const lg = (texts: string[]): string => [['metadata', { run_id: 'r1' }], ...texts.map((t) => ['messages', [{ type: 'AIMessageChunk', id: 'ai1', content: t }, { langgraph_node: 'agent' }]])].map(([event, data]) => `event: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
    expect(streamSoFar(lg(['x'.repeat(1000), 'y'.repeat(500)]))?.said).toBe('langgraph stream, 1,500 characters received');
    expect(streamSoFar(lg(['x']))?.said).toBe('langgraph stream, 1 character received');
  });

  it("mastra: a tool that threw keeps its message, as /generate records it (the MastraError's own is under cause)", () => {
    // @mastra/core 1.71's tool-error chunk: the thrown error wrapped in a MastraError, whose message is not serialized.
    const chunk = (type: string, payload: unknown): string => `data: ${JSON.stringify({ type, runId: 'r', from: 'AGENT', payload })}\n\n`;
    const error = { name: 'Error', cause: { message: 'tool boom', name: 'Error' }, id: 'TOOL_EXECUTION_FAILED', domain: 'TOOL', category: 'USER', details: { errorMessage: 'Error: tool boom', model: 'm' } };
    const text = [
      chunk('start', { id: 'a' }),
      chunk('tool-call', { toolCallId: 'c1', toolName: 'find', args: { id: 'boom' } }),
      chunk('tool-error', { error, args: { id: 'boom' }, toolCallId: 'c1', toolName: 'find' }),
      chunk('text-delta', { id: 'b', text: 'Sorry.' }),
      chunk('finish', {}),
    ].join('');
    expect(decodeEventStream(text)).toEqual({ ok: true, value: { reply: 'Sorry.', toolCalls: [{ tool: 'find', input: { id: 'boom' }, output: { error: 'tool boom' }, mocked: false }], toolCallItems: ['"payload" on stream event 2 (tool-call)'] } });
  });

  it('response.failed and response.incomplete are errors with their reason', () => {
    const failed = `data: ${JSON.stringify({ type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } })}\n\n`;
    expect(decodeEventStream(failed)).toEqual({ ok: false, error: 'the stream reported response.failed: server_error: boom' });
    const incomplete = `data: ${JSON.stringify({ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } })}\n\n`;
    expect(decodeEventStream(incomplete)).toEqual({ ok: false, error: 'the stream reported response.incomplete (max_output_tokens)' });
  });
});

describe('a chat stream of many parallel calls without an index (docs/presets.md, "Presets")', () => {
  it('reads 60,000 calls in one pass, each its own, in order', () => {
    // The most an 8 MiB answer holds of these. Each new call used to look for the highest index
    // among all so far (and to spread them all as arguments, which throws past about 120,000).
    const n = 60_000;
    const text = Array.from({ length: n }, (_, i) => `data: {"choices":[{"delta":{"tool_calls":[{"id":"c${i}","function":{"name":"t","arguments":"{}"}}]}}]}\n\n`).join('') + 'data: [DONE]\n\n';
    const decoded = decodeEventStream(text);
    if (!decoded.ok) throw new Error(decoded.error);
    const calls = decoded.value.toolCalls as { id: string }[];
    expect(calls).toHaveLength(n);
    expect([calls[0]!.id, calls[n - 1]!.id]).toEqual(['c0', `c${n - 1}`]);
  });
});

describe('watchFirstText', () => {
  it('waits for a complete event whose text is not empty (OpenAI chat chunks split across reads)', () => {
    const w = watchFirstText();
    expect(w.push('data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\n')).toBe(false);
    expect(w.push('data: {"choices":[{"delta":{"content":"Hel')).toBe(false);
    expect(w.push('lo"}}]}\r\n')).toBe(false);
    expect(w.push('\r\n')).toBe('text');
    expect(w.push('data: [DONE]\n\n')).toBe('text');
  });

  it('counts Vercel text deltas and plain text, not metadata or tool parts', () => {
    const v = watchFirstText();
    expect(v.push('data: {"type":"start"}\n\ndata: {"type":"tool-input-available","toolCallId":"1","toolName":"x","input":{}}\n\n')).toBe(false);
    expect(v.push('data: {"type":"text-delta","id":"t","delta":"Hi"}\n\n')).toBe('text');
    const plain = watchFirstText();
    expect(plain.push('data: Hello')).toBe(false);
    expect(plain.push('\n\n')).toBe('text');
  });

  it('a plain `data: ping` before the text is no token of it; a stream of nothing else is the reply "ping", its first token the first ping (docs/latency.md)', () => {
    const before = watchFirstText();
    expect(before.push(': keep-alive\n\ndata: ping\n\n')).toBe('ping');
    expect(before.push('data: ping\n\n')).toBe(false);
    expect(before.push('data: Within 30 days.\n\n')).toBe('text');
    expect(before.end()).toBeNull();
    const only = watchFirstText();
    expect(only.push('data: ping\n\n')).toBe('ping');
    expect(only.push('data: [DONE]\n\n')).toBe(false);
    expect(only.end()).toBe('pings');
    // Pings among another event (a server's progress note) are keep-alives: that stream has no reply text.
    const among = watchFirstText();
    expect(among.push('data: ping\n\ndata: {"status":"working"}\n\n')).toBe('ping');
    expect(among.end()).toBeNull();
  });

  it('reads the last event when the body ends without a blank line after it', () => {
    const w = watchFirstText();
    expect(w.push('data: {"type":"start"}\n\ndata: {"type":"text-delta","id":"t","delta":"Hi"}')).toBe(false);
    expect(w.end('\n')).toBe('text');
    expect(watchFirstText().end('data: Hello')).toBe('text');
  });

  it('never reports text for an error event or a LangGraph state stream', () => {
    expect(watchFirstText().push('data: {"type":"error","errorText":"boom"}\n\n')).toBe(false);
    expect(watchFirstText().push('event: values\ndata: {"messages":[{"type":"ai","content":"hi"}]}\n\n')).toBe(false);
  });
});
