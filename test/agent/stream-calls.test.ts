// Tool calls of a streamed answer recorded once each (docs/presets.md, "Streamed replies"): an
// OpenAI Responses stream's calls whether the server sends output_item.done, only the item's
// added and argument events, or only response.completed's output; a list of calls re-sent whole
// on each event (a snapshot) of the agent's own JSON; a refused entry of such a list named by the
// event or line and the path as configured; keep-alives as common servers send them. The config is
// loaded from a real config.yml, the agent is a real server on 127.0.0.1 sending the vendors' shapes
// (openai ResponseStreamEvent: ResponseOutputItemAddedEvent, ResponseFunctionCallArgumentsDeltaEvent
// and DoneEvent, ResponseCustomToolCallInputDeltaEvent and DoneEvent, ResponseCompletedEvent).
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallsHint } from '../../src/agent/response.js';
import { DECODED_MAPPING } from '../../src/config.js';
import { configClients } from './config-client.js';

const { clientFor, closeAll } = configClients();
afterEach(closeAll);

const request = { session: 's', message: 'hi', persona: null };
const sse = (events: unknown[]): string => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
const named = (events: Record<string, unknown>[]): string => events.map((e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
const ndjson = (events: unknown[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');
const stream = (body: string) => () => ({ headers: { 'content-type': 'text/event-stream' }, body });

describe('an OpenAI Responses stream records each call once, whichever of its events came', () => {
  const RESPONSES = '  preset: openai-responses\n  model: gpt-test\n  stream: true\n';
  const response = (status: string, output: unknown[]) => ({ id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-test', output, usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } });
  const fc = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'track_order', arguments: '{"id":"A1"}', status: 'completed' };
  const custom = { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_2', name: 'run_sql', input: 'SELECT 1' };
  const begun = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { ...fc, arguments: '', status: 'in_progress' } },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"id":' },
    { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '"A1"}' },
    { type: 'response.output_item.added', output_index: 1, item: { ...custom, input: '' } },
    { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 1, delta: 'SELECT ' },
    { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_1', output_index: 1, delta: '1' },
  ];
  const CALLS = [
    { tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true },
    { tool: 'run_sql', input: 'SELECT 1', output: null, mocked: true },
  ];
  const calls = (turn: unknown): unknown => (turn as { toolCalls?: unknown }).toolCalls;

  it('output_item.added and the argument deltas without output_item.done, then response.completed without the output: each call with its whole arguments', async () => {
    const client = await clientFor(RESPONSES, stream(named([...begun, { type: 'response.completed', response: response('completed', []) }])));
    const turn = await client.converse(request);
    expect(turn).toMatchObject({ kind: 'replied', reply: '' });
    expect(calls(turn)).toEqual(CALLS);
  });

  it('the arguments done events alone (no item events), or every event and the output on response.completed too: each call once', async () => {
    const argsDone = [
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, name: 'track_order', arguments: '{"id":"A1"}' },
      { type: 'response.custom_tool_call_input.done', item_id: 'ctc_1', output_index: 1, name: 'run_sql', input: 'SELECT 1' },
    ];
    const only = await clientFor(RESPONSES, stream(named([...argsDone, { type: 'response.completed', response: response('completed', []) }])));
    expect(calls(await only.converse(request))).toEqual(CALLS);
    const every = [
      ...begun,
      ...argsDone,
      { type: 'response.output_item.done', output_index: 0, item: fc },
      { type: 'response.output_item.done', output_index: 1, item: custom },
      { type: 'response.completed', response: response('completed', [fc, custom]) },
    ];
    const all = await clientFor(RESPONSES, stream(named(every)));
    expect(calls(await all.converse(request))).toEqual(CALLS);
  });

  it('only response.completed with the output list: its calls, read as a whole response\'s', async () => {
    const client = await clientFor(RESPONSES, stream(named([{ type: 'response.completed', response: response('completed', [{ type: 'reasoning', id: 'rs_1', summary: [] }, fc, custom]) }])));
    expect(calls(await client.converse(request))).toEqual(CALLS);
  });

  it('a stream relaying two responses, each with an item without an id at output index 0: two calls', async () => {
    const item = (id: string) => ({ type: 'function_call', callId: id, name: 'track_order', arguments: `{"id":"${id}"}` });
    const run = (id: string) => [
      { type: 'response.created', response: response('in_progress', []) },
      { type: 'response.output_item.done', output_index: 0, item: item(id) },
      { type: 'response.completed', response: response('completed', [item(id)]) },
    ];
    const client = await clientFor(RESPONSES, stream(named([...run('A1'), ...run('B2')])));
    expect(calls(await client.converse(request))).toEqual([
      { tool: 'track_order', input: { id: 'A1' }, output: null, mocked: true },
      { tool: 'track_order', input: { id: 'B2' }, output: null, mocked: true },
    ]);
  });

  it('a stream cut after the deltas ended early, names the calls it had begun and keeps them as received', async () => {
    const client = await clientFor(RESPONSES, stream(named(begun)));
    expect(await client.converse(request)).toEqual({ kind: 'errored', errorKind: 'http', error: 'message turn: the stream ended early: no response.completed event (openai-responses stream, no text received, 2 tool calls begun: track_order, run_sql)', toolCalls: CALLS });
  });
});

describe('a list of calls sent again on each event is recorded once', () => {
  const OWN = '  request: { body: { input: "{{message}}" } }\n  response: { reply: text, toolCalls: tool_calls }\n';
  const lookup = (id: string) => ({ type: 'function', function: { name: 'lookup', arguments: `{"id":"${id}"}` } });
  const refund = { type: 'function', function: { name: 'refund', arguments: '{"amount":5}' } };

  it('snapshots without ids (the list so far on every event, its last call grown), as SSE events and as NDJSON lines', async () => {
    const grown = { type: 'function', function: { name: 'refund', arguments: '{"amo' } };
    const events = [
      { text: 'Checking. ', tool_calls: [lookup('A1')] },
      { text: '', tool_calls: [lookup('A1')] },
      { text: '', tool_calls: [lookup('A1'), grown] },
      { text: 'Done.', tool_calls: [lookup('A1'), refund] },
    ];
    const CALLS = [
      { tool: 'lookup', input: { id: 'A1' }, output: null, mocked: true },
      { tool: 'refund', input: { amount: 5 }, output: null, mocked: true },
    ];
    const overSse = await clientFor(OWN, stream(sse(events)));
    expect(await overSse.converse(request)).toMatchObject({ kind: 'replied', reply: 'Checking. Done.', toolCalls: CALLS });
    const overLines = await clientFor(OWN, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(events) }));
    expect(await overLines.converse(request)).toMatchObject({ kind: 'replied', reply: 'Checking. Done.', toolCalls: CALLS });
  });

  it('a snapshot of calls without ids whose output comes on a later event: one call with its output, as SSE events and as NDJSON lines', async () => {
    const asked = { tool: 'lookup', input: { q: 'A1' }, output: null, mocked: true };
    const answered = { ...asked, output: { status: 'shipped' }, mocked: false };
    const events = [{ text: 'a', tool_calls: [asked] }, { text: 'b', tool_calls: [answered] }, { text: 'c', tool_calls: [answered, { ...asked, input: { q: 'B2' } }] }];
    const CALLS = [
      { tool: 'lookup', input: { q: 'A1' }, output: { status: 'shipped' }, mocked: false },
      { tool: 'lookup', input: { q: 'B2' }, output: null, mocked: true },
    ];
    const overSse = await clientFor(OWN, stream(sse(events)));
    expect((await overSse.converse(request) as { toolCalls: unknown[] }).toolCalls).toEqual(CALLS);
    const overLines = await clientFor(OWN, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(events) }));
    expect((await overLines.converse(request) as { toolCalls: unknown[] }).toolCalls).toEqual(CALLS);
  });

  it('calls with ids merge by id, the last form kept (its output come); calls sent one per event stay each its own', async () => {
    const asked = { id: 'c1', tool: 'lookup', input: { id: 'A1' }, output: null, mocked: true };
    const answered = { ...asked, output: { status: 'shipped' }, mocked: false };
    const byId = await clientFor(OWN, stream(sse([{ text: 'a', tool_calls: [asked] }, { text: 'b', tool_calls: [answered] }])));
    expect(await byId.converse(request)).toMatchObject({ kind: 'replied', reply: 'ab', toolCalls: [{ tool: 'lookup', input: { id: 'A1' }, output: { status: 'shipped' }, mocked: false }] });
    expect((await byId.converse(request) as { toolCalls: unknown[] }).toolCalls).toHaveLength(1);
    // One call per event, the second to the same tool: two calls, not a snapshot.
    const each = await clientFor(OWN, stream(sse([{ text: 'a', tool_calls: [lookup('A1')] }, { text: 'b', tool_calls: [lookup('B2')] }, { text: 'c', tool_calls: [refund] }])));
    expect((await each.converse(request) as { toolCalls: unknown[] }).toolCalls).toEqual([
      { tool: 'lookup', input: { id: 'A1' }, output: null, mocked: true },
      { tool: 'lookup', input: { id: 'B2' }, output: null, mocked: true },
      { tool: 'refund', input: { amount: 5 }, output: null, mocked: true },
    ]);
  });
});

describe('a refused entry of a joined list is named by its event or line and the path as configured', () => {
  const OWN = '  request: { body: { input: "{{message}}" } }\n  response: { reply: delta.text, toolCalls: delta.tool_calls }\n';
  const call = { type: 'function', function: { name: 'lookup', arguments: '{}' } };
  const events = [{ delta: { text: 'a', tool_calls: [call] } }, { delta: { text: 'b' } }, { delta: { text: 'c', tool_calls: [{ ...call, function: { ...call.function, name: 'refund' } }, { type: 'robot_arm_call', call_id: 'call_r', move: 'left' }] } }];

  it('SSE: "delta.tool_calls.1" on stream event 3; NDJSON: on NDJSON line 3; a value that is no list, on its event', async () => {
    const problem = async (client: Awaited<ReturnType<typeof clientFor>>): Promise<string> => (await client.converse(request) as { toolCallsProblem?: string }).toolCallsProblem ?? '';
    const overSse = await clientFor(OWN, stream(sse(events)));
    expect(await problem(overSse)).toContain('"delta.tool_calls.1" on stream event 3 is not a tool call');
    expect(await problem(overSse)).not.toContain('"toolCalls');
    const overLines = await clientFor(OWN, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(events) }));
    expect(await problem(overLines)).toContain('"delta.tool_calls.1" on NDJSON line 3 is not a tool call');
    const notList = await clientFor(OWN, stream(sse([{ delta: { text: 'a' } }, { delta: { text: 'b', tool_calls: 'lookup' } }])));
    expect(await problem(notList)).toContain('"delta.tool_calls" on stream event 2 must be an array of tool calls (found a string');
  });
});

describe('what probe says of a joined list\'s calls names the path as configured', () => {
  it('read on each event or line, or in none of them; never the joined list\'s own "toolCalls"', () => {
    const mapping = { ...DECODED_MAPPING, toolCalls: 'toolCalls', absentToolCallsAreNone: false, replyPerLine: 'delta.text', replyPerEvent: true as const, toolCallsPerLine: { path: 'delta.tool_calls', from: { items: [{ unit: 'stream event 2', index: 0 }] } } };
    expect(toolCallsHint({ reply: 'a', last: {}, toolCalls: [{ tool: 'lookup', input: {}, output: null, mocked: true }] }, mapping)).toBe('lookup (read at "delta.tool_calls" on each event)');
    const { replyPerEvent: _event, ...perLine } = mapping;
    expect(toolCallsHint({ reply: 'a', last: {} }, perLine)).toBe('not reported ("delta.tool_calls" is in none of its NDJSON lines); nothing in the response is a list of tool calls, so no path would read one');
  });
});

describe('keep-alives as servers send them carry no event', () => {
  it('Dify\'s `event: ping` with no data, a JSON {"event": "ping"} and a {"type": "keep_alive"}: only keep-alives, counted', async () => {
    const client = await clientFor('  request: { body: { input: "{{message}}" } }\n  response: { reply: answer }\n', stream('event: ping\n\nevent: ping\n\ndata: {"event": "ping"}\n\ndata: {"type": "keep_alive"}\n\n: keep-alive\n\n'));
    const turn = await client.converse(request);
    expect(turn).toMatchObject({ kind: 'errored', errorKind: 'missing_reply' });
    expect((turn as { error: string }).error).toContain('it carried no events (only keep-alives: 1 comment, 4 pings)');
  });
});
