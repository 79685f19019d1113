// Streamed replies, their names and records (docs/presets.md, "Streamed replies"): a tool call of a
// vendor's body or stream that the reader refuses is named where the vendor sent it, never by its
// place in the decoded list ("toolCalls.N", in no body); a stream cut early keeps the calls it had
// begun (a fixture's errored record holds them, results.json reads them back); a plain `data: ping`
// among a stream's other events is a keep-alive, and a stream of nothing else is that text. The
// config is loaded from a real config.yml and the agent is a real server on 127.0.0.1 sending the
// vendors' shapes (openai ChatCompletionChunk and Response / ResponseStreamEvent, @anthropic-ai/sdk
// RawMessageStreamEvent and Message).
import { afterEach, describe, expect, it } from 'vitest';
import { createRegexPool } from '../../src/assertions/index.js';
import { Interrupted } from '../../src/interrupt.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { Fixture, PersonaScript } from '../../src/types.js';
import { bodyBegun, heldTimeout } from '../support/held-timeout.js';
import { replayOptions } from '../support/replay-options.js';
import { configClients } from './config-client.js';

const { clientFor, closeAll } = configClients();
afterEach(closeAll);

const request = { session: 's', message: 'hi', persona: null };
const sse = (events: unknown[]): string => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
const named = (events: Record<string, unknown>[]): string => events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
const stream = (body: string) => () => ({ headers: { 'content-type': 'text/event-stream' }, body });
const problem = (turn: unknown): string => (turn as { toolCallsProblem?: string }).toolCallsProblem ?? '';

const CHAT = '  preset: openai-chat\n  model: gpt-test\n  stream: true\n';
const RESPONSES = '  preset: openai-responses\n  model: gpt-test\n  stream: true\n';
const ANTHROPIC = '  preset: anthropic-messages\n  model: claude-test\n  stream: true\n';
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } };
const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-test', output });
const robot = { type: 'robot_arm_call', id: 'ra_1', call_id: 'call_r', move: 'left' };

describe('a refused tool call of a vendor\'s body or stream is named where the vendor sent it', () => {
  it('OpenAI chat stream: "choices.0.delta.tool_calls.1" on the event that began the call', async () => {
    // A call whose arguments nest deeper than any reader after this one could walk.
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    const events = [
      chunk({ role: 'assistant', content: null }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }, { index: 1, id: 'call_2', type: 'function', function: { name: 'dig', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: deep } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ];
    const turn = await (await clientFor(CHAT, stream(sse(events)))).converse(request);
    expect(problem(turn)).toContain('"choices.0.delta.tool_calls.1" on stream event 2 is not a tool call');
    expect(problem(turn)).toContain('found a call of "dig" whose input nests deeper than 256 levels');
    expect(problem(turn)).not.toContain('"toolCalls');
  });

  it('OpenAI Responses: "output.1" of a whole response; "response.output.1" of response.completed, or "item" of an output_item event, with the event', async () => {
    const whole = await clientFor('  preset: openai-responses\n  model: gpt-test\n', () => ({ json: { ...response('completed', [{ type: 'message', id: 'm1', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }, robot]) } }));
    expect(problem(await whole.converse(request))).toContain('"output.1" is not a tool call: expected');
    const completed = await clientFor(RESPONSES, stream(named([{ type: 'response.created', response: response('in_progress', []) }, { type: 'response.output_text.delta', item_id: 'm1', output_index: 0, delta: 'Done.' }, { type: 'response.completed', response: response('completed', [{ type: 'message', id: 'm1' }, robot]) }])));
    expect(problem(await completed.converse(request))).toContain('"response.output.1" on stream event 3 (response.completed) is not a tool call');
    const added = await clientFor(RESPONSES, stream(named([{ type: 'response.output_text.delta', item_id: 'm1', output_index: 0, delta: 'Done.' }, { type: 'response.output_item.added', output_index: 1, item: robot }, { type: 'response.completed', response: response('completed', []) }])));
    expect(problem(await added.converse(request))).toContain('"item" on stream event 2 (response.output_item.added) is not a tool call');
  });

  it('Anthropic: "content.0" of a whole message (a script\'s turn errors with it); "content_block" on its content_block_start streamed', async () => {
    const block = { type: 'robot_arm_use', id: 'r1', move: 'left' };
    const whole = await clientFor('  preset: anthropic-messages\n  model: claude-test\n', () => ({ json: { ...message, content: [block, { type: 'text', text: 'Done.' }], stop_reason: 'end_turn' } }));
    const turn = await whole.session({ session: 's', persona: null, mocks: [] }).send('hi', 1);
    expect(turn).toMatchObject({ kind: 'errored', errorKind: 'invalid_response' });
    expect((turn as { error: string }).error).toContain('turn 1: "content.0" is not a tool call');
    const events = [
      { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: block },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ];
    const streamed = await (await clientFor(ANTHROPIC, stream(named(events)))).converse(request);
    expect(problem(streamed)).toContain('"content_block" on stream event 5 (content_block_start) is not a tool call');
    expect(problem(streamed)).not.toContain('"toolCalls');
  });
});

const SCRIPT: PersonaScript = {
  label: 'script',
  file: '.agent-replay/personas/p.yml',
  line: 1,
  persona: null,
  opening: 'hello',
  followUps: [],
  maxTurns: 20,
  threshold: 0.7,
  mocks: [],
  expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
};
/** A whole Anthropic stream: "Done." and message_stop. */
const whole = [
  { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
  { type: 'message_stop' },
];
/** An Anthropic stream cut inside its second tool call's arguments, and the calls it had begun. */
const events = [
  { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'track_order', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"id": "A1"}' } },
  { type: 'content_block_stop', index: 1 },
  // Cut in the second call's arguments: its input is the text as far as it came.
  { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_2', name: 'refund', input: {} } },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"amount": 1' } },
];
const BEGUN = [
  { tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true },
  { tool: 'refund', input: '{"amount": 1', output: null, mocked: true },
];

describe('a stream cut early keeps the tool calls it had begun', () => {
  const ERROR = 'message turn: the stream ended early: no message_stop event (anthropic stream, 9 characters received, 2 tool calls begun: track_order, refund)';

  it('the errored turn names them and holds them as received, the one still open among them', async () => {
    const client = await clientFor(ANTHROPIC, stream(named(events)));
    expect(await client.converse(request)).toEqual({ kind: 'errored', errorKind: 'http', error: ERROR, toolCalls: BEGUN });
    // A script's turn names and holds them the same way: its script's errored record keeps them.
    expect(await client.session({ session: 's', persona: null, mocks: [] }).send('hi', 1)).toMatchObject({ kind: 'errored', error: ERROR.replace('message turn', 'turn 1'), toolCalls: BEGUN });
  });

  it('a call the reader refuses is named by where it was sent, and the others kept', async () => {
    const robot = { type: 'content_block_start', index: 3, content_block: { type: 'robot_arm_use', id: 'r1', move: 'left' } };
    const client = await clientFor(ANTHROPIC, stream(named([...events.slice(0, 7), robot, ...events.slice(7)])));
    expect(await client.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: expect.stringMatching(/^message turn: the stream ended early: no message_stop event \(anthropic stream, 9 characters received, 3 tool calls begun: track_order, refund, 1 unreadable; "content_block" on stream event 8 \(content_block_start\) is not a tool call: expected .* \(found an object of type "robot_arm_use" \(keys: type, id, move\)\)\)$/),
      toolCalls: BEGUN,
    });
  });

  it('a stream whose connection is cut, or whose deadline comes, keeps them and names them too', async () => {
    const cut = await clientFor(ANTHROPIC, () => ({ headers: { 'content-type': 'text/event-stream' }, body: named(events), breakOff: true }));
    expect(await cut.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'network',
      error: "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; anthropic stream, 9 characters received, 2 tool calls begun: track_order, refund)",
      toolCalls: BEGUN,
    });
    // The deadline, well after the events are sent: the stream is still open when it comes.
    // Fired once the client has every event's bytes: a real 400 ms could come before they did on a loaded machine.
    const { timer, fire } = heldTimeout();
    const held = await clientFor(`${ANTHROPIC}  timeoutMs: 5000\n`, () => ({ headers: { 'content-type': 'text/event-stream' }, body: named(events), hold: true }), { timer, network: bodyBegun(fire, Buffer.byteLength(named(events))) });
    expect(await held.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'timeout',
      error: expect.stringMatching(/^message turn: .* \(agent\.timeoutMs bounds the whole answer, a stream to its end; anthropic stream, 9 characters received, 2 tool calls begun: track_order, refund\)$/),
      toolCalls: BEGUN,
    });
  });

  it("a stream the run's interrupt cuts keeps them and names them too", async () => {
    const interrupt = new AbortController();
    let sent = false;
    // The client reads the clock as the stream's first text comes (its first token): the events are all in by then, and the run is interrupted.
    const clock = { now: () => (sent && !interrupt.signal.aborted ? (interrupt.abort(new Interrupted('SIGINT')), 0) : 0), sleep: async () => undefined };
    const client = await clientFor(ANTHROPIC, () => ((sent = true), { headers: { 'content-type': 'text/event-stream' }, body: named(events), hold: true }), { clock, signal: interrupt.signal });
    expect(await client.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'internal',
      error: "message turn: interrupted by SIGINT while the agent's answer (HTTP 200) was coming (anthropic stream, 9 characters received, 2 tool calls begun: track_order, refund)",
      toolCalls: BEGUN,
    });
  });

  it("a welcome turn's stream cut early keeps them, for a fixture as for a script", async () => {
    // The welcome's stream breaks off inside the refund call; the message turn is never sent.
    const client = await clientFor(`${ANTHROPIC}  start: { body: { start: true } }\n`, () => ({ headers: { 'content-type': 'text/event-stream' }, body: named(events), breakOff: true }));
    const error = "welcome turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; anthropic stream, 9 characters received, 2 tool calls begun: track_order, refund)";
    expect(await client.converse(request)).toEqual({ kind: 'errored', errorKind: 'network', error, toolCalls: BEGUN });
    // A script's error names the turn as its other errors do: "turn 0 (welcome)".
    expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'errored', error: error.replace(/^welcome turn/, 'turn 0 (welcome)'), toolCalls: BEGUN });
  });

  it("the fixture's errored record keeps them, and results.json reads them back", async () => {
    const client = await clientFor(ANTHROPIC, stream(named(events)));
    const fixture: Fixture = { label: 'refund', message: 'refund?', persona: null, assertion: { kind: 'contains', value: 'refund' }, file: '.agent-replay/fixtures/f.yml', line: 1 };
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    try {
      const record = await replay({ fixtures: [fixture], personas: [], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, replayOptions({ concurrency: 1 }));
      expect(record.fixtures[0]).toMatchObject({ errored: true, errorKind: 'http', error: ERROR, toolCalls: BEGUN });
      expect(parseRecord(serializeRecord(record), 'results.json').fixtures[0]?.toolCalls).toEqual(BEGUN);
    } finally {
      await regex.close();
    }
  });
});

describe("a LangGraph run stream and a stream of the agent's own JSON, cut short, keep the calls they had begun", () => {
  const LANGGRAPH = '  preset: langgraph\n  assistantId: agent\n  stream: true\n';
  const cutOff = (body: string) => () => ({ headers: { 'content-type': 'text/event-stream' }, body, breakOff: true as const });
  const lg = (events: [string, unknown][]): string => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  const human = { type: 'human', id: 'h1', content: 'refund A1?' };
  const asked = { type: 'ai', id: 'ai1', content: 'Checking.', tool_calls: [{ name: 'track_order', args: { id: 'A1' }, id: 'call_1' }] };
  const answered = { type: 'tool', id: 't1', tool_call_id: 'call_1', name: 'track_order', content: 'shipped' };

  it('LangGraph: the calls of the values state, the updates after it, and a message streamed in chunks (messages mode), each named where it was sent', async () => {
    const body = lg([
      ['metadata', { run_id: 'r1' }],
      ['values', { messages: [human] }],
      ['updates', { agent: { messages: [asked] } }],
      ['updates', { tools: { messages: [answered] } }],
      // The refund call's arguments stream in pieces, cut mid-way.
      ['messages', [{ type: 'AIMessageChunk', id: 'ai2', content: '', tool_call_chunks: [{ index: 0, id: 'call_2', name: 'refund', args: '' }] }, { langgraph_node: 'agent' }]],
      ['messages', [{ type: 'AIMessageChunk', id: 'ai2', content: '', tool_call_chunks: [{ index: 0, args: '{"amount": 1' }] }, { langgraph_node: 'agent' }]],
    ]);
    const client = await clientFor(LANGGRAPH, cutOff(body));
    const begun = [
      { tool: 'track_order', input: { id: 'A1' }, output: 'shipped', mocked: false },
      { tool: 'refund', input: '{"amount": 1', output: null, mocked: true },
    ];
    expect(await client.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'network',
      error: "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; langgraph stream, 9 characters received, 2 tool calls begun: track_order, refund)",
      toolCalls: begun,
    });
    // A values event after them holds the state whole: read as it is.
    const values = await clientFor(LANGGRAPH, cutOff(lg([['values', { messages: [human, asked] }]])));
    expect(await values.converse(request)).toMatchObject({ kind: 'errored', toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }] });
  });

  it('a refused call of a LangGraph stream is named by its path in the event that sent it', async () => {
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    const robot = { type: 'ai', id: 'ai1', content: '', tool_calls: [{ name: 'track_order', args: { id: 'A1' }, id: 'call_1' }, { name: 'dig', args: JSON.parse(deep) as unknown, id: 'call_2' }] };
    const client = await clientFor(LANGGRAPH, cutOff(lg([['values', { messages: [human] }], ['updates', { agent: { messages: [robot] } }]])));
    const turn = await client.converse(request);
    expect(turn).toMatchObject({ kind: 'errored', toolCalls: [{ tool: 'track_order' }] });
    expect((turn as { error: string }).error).toContain('2 tool calls begun: track_order, 1 unreadable; "agent.messages.0.tool_calls.1" on stream event 2 (updates) is not a tool call');
  });

  it("the agent's own JSON: the calls at config.yml's tool-call path on the events so far", async () => {
    const own = '  request: { body: { input: "{{message}}" } }\n  response: { reply: delta.content, toolCalls: delta.tool_calls }\n';
    const body = sse([{ delta: { content: 'Checking.' } }, { delta: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'track_order', arguments: '{"id": "A1"}' } }] } }]);
    const client = await clientFor(own, cutOff(body));
    expect(await client.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'network',
      error: "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn; a stream of the agent's own JSON, 9 characters received, 1 tool call begun: track_order)",
      toolCalls: [{ tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true }],
    });
  });

  it('plain text carries no tool calls: its cut says only how it broke off', async () => {
    const client = await clientFor('  request: { body: { input: "{{message}}" } }\n', cutOff(sse(['Within ', '30 days'])));
    expect(await client.converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'network',
      error: "message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn)",
    });
  });
});

describe("a repeated item's errored attempt keeps the tool calls its cut stream had begun", () => {
  it('each errored attempt of a fixture and of a script keeps its own, as the item that ran once does, and results.json reads them back', async () => {
    // Odd requests are cut inside the refund call; even ones answer whole.
    let n = 0;
    const client = await clientFor(ANTHROPIC, () => (n++ % 2 === 0 ? { headers: { 'content-type': 'text/event-stream' }, body: named(events), breakOff: true } : stream(named(whole))()));
    const fixture: Fixture = { label: 'refund', message: 'refund?', persona: null, assertion: { kind: 'contains', value: 'Done' }, file: '.agent-replay/fixtures/f.yml', line: 1, repeat: { count: 2, minPass: 1 } };
    const script: PersonaScript = { ...SCRIPT, label: 'refund-chat', followUps: [], repeat: { count: 2, minPass: 1 } };
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    try {
      const options = replayOptions({ concurrency: 1 });
      const fixtures = await replay({ fixtures: [fixture], personas: [], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, options);
      const scripts = await replay({ fixtures: [], personas: [script], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, options);
      const f = fixtures.fixtures[0]!;
      const p = scripts.personas[0]!;
      expect(f).toMatchObject({ errored: false, verdict: 'pass', reply: 'Done.' });
      expect(f.attempts?.map((a) => [a.errored, a.toolCalls])).toEqual([[true, BEGUN], [false, undefined]]);
      expect(p).toMatchObject({ errored: false, verdict: 'pass' });
      expect(p.attempts?.map((a) => [a.errored, a.errorToolCalls])).toEqual([[true, BEGUN], [false, undefined]]);
      const read = parseRecord(serializeRecord({ ...fixtures, personas: scripts.personas }), 'results.json');
      expect([read.fixtures[0]?.attempts?.[0]?.toolCalls, read.personas[0]?.attempts?.[0]?.errorToolCalls]).toEqual([BEGUN, BEGUN]);
    } finally {
      await regex.close();
    }
  });
});

describe("a persona script's turn cut short keeps the tool calls it had begun", () => {
  const cutOff = [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'refund', input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"order": "A1", "amount": 1' } },
  ];
  const script: PersonaScript = {
    label: 'refund-chat',
    file: '.agent-replay/personas/p.yml',
    line: 1,
    persona: null,
    opening: 'hello',
    followUps: ['refund A1 please', 'thanks'],
    maxTurns: 20,
    threshold: 0.7,
    mocks: [],
    expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
  };

  it("the script's errored record keeps them, beside the turns that completed, and results.json reads them back", async () => {
    // The opening is answered; the follow-up's stream breaks off inside the refund call's arguments.
    const client = await clientFor(ANTHROPIC, (req) => {
      const messages = (req.json as { messages: { content: unknown }[] }).messages;
      const last = JSON.stringify(messages.at(-1)?.content);
      return last.includes('refund') ? { headers: { 'content-type': 'text/event-stream' }, body: named(cutOff), breakOff: true } : stream(named(whole))();
    });
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    try {
      const record = await replay({ fixtures: [], personas: [script], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, replayOptions({ concurrency: 1 }));
      const begun = [{ tool: 'refund', input: '{"order": "A1", "amount": 1', output: null, mocked: true }];
      expect(record.personas[0]).toMatchObject({ errored: true, errorKind: 'network', turns: [{ index: 1, reply: 'Done.' }], unsent: ['refund A1 please', 'thanks'], errorToolCalls: begun });
      expect(record.personas[0]?.error).toMatch(/^turn 2: the agent's answer \(HTTP 200\) broke off before its end, .* 1 tool call begun: refund\)$/);
      expect(parseRecord(serializeRecord(record), 'results.json').personas[0]?.errorToolCalls).toEqual(begun);
    } finally {
      await regex.close();
    }
  });
});

describe('a plain `data: ping` is a keep-alive among other events, and the reply when nothing else came', () => {
  it('plain text: pings between the text are no text of it', async () => {
    const client = await clientFor('', stream(sse(['ping', 'Within ', 'ping', '30 days.', 'heartbeat'])));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
  });

  it('an OpenAI chat stream led by a ping is still read as one: its tool calls are reported', async () => {
    const events = ['ping', chunk({ role: 'assistant', content: null }), chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id":"A1"}' } }] }), chunk({}, 'tool_calls'), '[DONE]'];
    const client = await clientFor(CHAT, stream(sse(events)));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: '', toolCalls: [{ tool: 'lookup', input: { id: 'A1' }, output: null, mocked: true }] });
  });

  it("a stream of the agent's own JSON led by a ping is still read by config.yml's reply path", async () => {
    const client = await clientFor('  request: { body: { input: "{{message}}" } }\n  response: { reply: delta.content }\n', stream(sse(['ping', { delta: { content: 'Within ' } }, 'ping', { delta: { content: '30 days.' } }])));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
  });

  it('a stream of nothing but `data: ping` (and comments) is the reply "ping": the agent may have answered just that', async () => {
    const client = await clientFor('', stream(`: keep-alive\n\n${sse(['ping', '[DONE]'])}`));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'ping' });
  });
});
