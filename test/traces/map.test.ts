// Span mapping (docs/traces.md, "What is read from spans") over hand-written spans: one table per rule.

import { describe, expect, it } from 'vitest';
import { mergeCalls, readTurnSpans, spanKind, spansOfAttempt, toolNameOf } from '../../src/traces/map.js';
import type { Span, ToolCall } from '../../src/types.js';

const TRACE = 'a'.repeat(32);
const OTHER_TRACE = 'b'.repeat(32);
let next = 0;

/** A span of the turn's trace, 0 ms to 10 ms after t0, no parent, unless told otherwise. */
function span(over: Partial<Span> & { attributes?: Span['attributes'] }): Span {
  next += 1;
  return {
    traceId: TRACE,
    spanId: next.toString(16).padStart(16, '0'),
    parentSpanId: null,
    name: 'span',
    startMs: 1000,
    endMs: 1010,
    status: 'unset',
    statusMessage: null,
    attributes: {},
    service: 'agent',
    ...over,
  };
}

const genaiTool = (name: string, args: unknown, result: unknown, over: Partial<Span> = {}): Span =>
  span({ name: `execute_tool ${name}`, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.arguments': JSON.stringify(args), 'gen_ai.tool.call.result': JSON.stringify(result) }, ...over });
const chat = (over: Partial<Span> = {}, tokens?: [number, number]): Span =>
  span({ name: 'chat gpt', attributes: { 'gen_ai.operation.name': 'chat', ...(tokens ? { 'gen_ai.usage.input_tokens': tokens[0], 'gen_ai.usage.output_tokens': tokens[1] } : {}) }, ...over });

const turn = (latencyMs: number | null = 100) => ({ traceId: TRACE, latencyMs });
const none = { toolCalls: null, usage: null };

describe('span kinds', () => {
  it.each<[string, Partial<Span>, 'model' | 'tool' | null]>([
    ['GenAI execute_tool', { attributes: { 'gen_ai.operation.name': 'execute_tool' } }, 'tool'],
    ['GenAI chat', { attributes: { 'gen_ai.operation.name': 'chat' } }, 'model'],
    ['GenAI text_completion', { attributes: { 'gen_ai.operation.name': 'text_completion' } }, 'model'],
    ['GenAI generate_content', { attributes: { 'gen_ai.operation.name': 'generate_content' } }, 'model'],
    ['GenAI invoke_agent (agent level)', { attributes: { 'gen_ai.operation.name': 'invoke_agent' } }, null],
    ['AI SDK ai.toolCall', { name: 'ai.toolCall' }, 'tool'],
    ['AI SDK doGenerate', { name: 'ai.generateText.doGenerate' }, 'model'],
    ['AI SDK doStream', { name: 'ai.streamText.doStream' }, 'model'],
    ['AI SDK renamed span, read by ai.operationId', { name: 'my step', attributes: { 'ai.operationId': 'ai.generateObject.doGenerate' } }, 'model'],
    ['AI SDK generateText (agent level)', { name: 'ai.generateText' }, null],
    ['OpenInference TOOL', { attributes: { 'openinference.span.kind': 'TOOL' } }, 'tool'],
    ['OpenInference LLM', { attributes: { 'openinference.span.kind': 'LLM' } }, 'model'],
    ['OpenInference CHAIN', { attributes: { 'openinference.span.kind': 'CHAIN' } }, null],
    ['an HTTP span', { name: 'POST /api/chat', attributes: { 'http.method': 'POST' } }, null],
  ])('%s', (_, over, kind) => {
    expect(spanKind(span(over))).toBe(kind);
  });

  it.each<[string, Partial<Span>, string]>([
    ['gen_ai.tool.name', { name: 'execute_tool x', attributes: { 'gen_ai.tool.name': 'find_order' } }, 'find_order'],
    ['ai.toolCall.name', { name: 'ai.toolCall', attributes: { 'ai.toolCall.name': 'find_order' } }, 'find_order'],
    ['OpenInference tool.name', { name: 'find_order', attributes: { 'tool.name': 'lookup' } }, 'lookup'],
    ['the GenAI span name when the attribute is missing', { name: 'execute_tool find_order', attributes: {} }, 'find_order'],
    ['a very long name clipped to 200 characters', { attributes: { 'gen_ai.tool.name': 'x'.repeat(300) } }, 'x'.repeat(200)],
  ])('tool name from %s', (_, over, name) => {
    expect(toolNameOf(span(over))).toBe(name);
  });
});

describe('tool calls from spans', () => {
  it('reads each convention: arguments and results parsed when they are JSON, kept as text otherwise', () => {
    const spans = [
      genaiTool('find_order', { orderId: '1234' }, { status: 'delivered' }, { startMs: 1000 }),
      span({ name: 'ai.toolCall', startMs: 1001, attributes: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'issue_refund', 'ai.toolCall.args': '{"orderId":"1234"}', 'ai.toolCall.result': '{"refundId":"R1"}' } }),
      span({ name: 'lookup', startMs: 1002, attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'lookup', 'input.value': 'plain words', 'output.value': '[1,2]' } }),
      span({ name: 'execute_tool bare', startMs: 1003, attributes: { 'gen_ai.operation.name': 'execute_tool' } }),
    ];
    expect(readTurnSpans(spans, turn(), none).toolCalls).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false, source: 'trace' },
      { tool: 'issue_refund', input: { orderId: '1234' }, output: { refundId: 'R1' }, mocked: false, source: 'trace' },
      { tool: 'lookup', input: 'plain words', output: [1, 2], mocked: false, source: 'trace' },
      { tool: 'bare', input: null, output: null, mocked: false, source: 'trace' },
    ]);
  });

  it('an OpenInference LangChain result (the ToolMessage serialized under "output") is read as the message content', () => {
    const message = (content: unknown, cls = 'ToolMessage') => JSON.stringify({ output: { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs: { status: 'success', content, tool_call_id: 'c1', name: 'find_order' } } });
    const tool = (output: string, startMs: number) => span({ name: 'find_order', startMs, attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'find_order', 'input.value': '1234', 'output.value': output } });
    const spans = [tool(message('{"status":"delivered"}'), 1000), tool(message('plain words'), 1001), tool(message('{"a":1}', 'AIMessage'), 1002), tool(message([{ type: 'text', text: 'x' }]), 1003), tool('{"output":"done"}', 1004)];
    expect(readTurnSpans(spans, turn(), none).toolCalls?.map((c) => c.output)).toEqual([
      { status: 'delivered' },
      'plain words',
      JSON.parse(message('{"a":1}', 'AIMessage')), // not a ToolMessage: kept
      JSON.parse(message([{ type: 'text', text: 'x' }])), // content blocks, not text: kept
      { output: 'done' },
    ]);
  });

  it('a failed tool with no recorded result has its status message as the output error', () => {
    const spans = [span({ name: 'ai.toolCall', status: 'error', statusMessage: 'db down', attributes: { 'ai.toolCall.name': 'find_order', 'ai.toolCall.args': '{}' } })];
    expect(readTurnSpans(spans, turn(), none).toolCalls).toEqual([{ tool: 'find_order', input: {}, output: { error: 'db down' }, mocked: false, source: 'trace' }]);
  });

  it('two instrumentations of one tool (an OpenInference TOOL span around a GenAI span of the same tool) are one call', () => {
    const outer = span({ name: 'find_order', attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'find_order', 'input.value': '{"orderId":"1"}' } });
    const inner = genaiTool('find_order', { orderId: '1' }, { ok: true }, { parentSpanId: outer.spanId });
    expect(readTurnSpans([outer, inner], turn(), none).toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1' }, output: { ok: true }, mocked: false, source: 'trace' }]);
  });

  it('a tool span that calls another tool is two calls', () => {
    const outer = genaiTool('plan', {}, null);
    const inner = genaiTool('find_order', { orderId: '1' }, null, { parentSpanId: outer.spanId, startMs: 1002 });
    expect(readTurnSpans([outer, inner], turn(), none).toolCalls?.map((c) => c.tool)).toEqual(['plan', 'find_order']);
  });

  it('spans of another trace are not the turn\'s: not read, not counted', () => {
    const spans = [genaiTool('find_order', {}, null, { traceId: OTHER_TRACE }), span({ traceId: OTHER_TRACE, status: 'error', statusMessage: 'boom' })];
    expect(readTurnSpans(spans, turn(), none)).toEqual({ toolCalls: null, errors: [], usage: null, time: null, counts: { count: 0, ignored: 0 } });
  });

  it('no span of the turn leaves the response as it was (null stays null, calls keep no source)', () => {
    const calls: ToolCall[] = [{ tool: 'a', input: null, output: null, mocked: true }];
    expect(readTurnSpans([], turn(), { toolCalls: calls, usage: { inputTokens: 1, outputTokens: 2 } })).toEqual({ toolCalls: calls, errors: [], usage: { inputTokens: 1, outputTokens: 2 }, time: null, counts: { count: 0, ignored: 0 } });
  });

  it('spans with no tool span say no tool was called: [] where the response reported nothing', () => {
    expect(readTurnSpans([chat()], turn(), none).toolCalls).toEqual([]);
  });
});

describe('merging with the response\'s calls (attribution)', () => {
  const r = (tool: string, input: ToolCall['input'], output: ToolCall['output'] = null, mocked = false): ToolCall => ({ tool, input, output, mocked });
  const t = (tool: string, input: ToolCall['input'], output: ToolCall['output'] = null): ToolCall => ({ tool, input, output, mocked: false, source: 'trace' });

  it.each<[string, ToolCall[] | null, ToolCall[], ToolCall[]]>([
    ['same tool, deep-equal input (key order aside): one call, both, as the response reported it', [r('find', { a: 1, b: [1, { c: 2 }] }, 'resp', true)], [t('find', { b: [1, { c: 2 }], a: 1 }, 'span')], [{ ...r('find', { a: 1, b: [1, { c: 2 }] }, 'resp', true), source: 'both' }]],
    ['different input: two calls', [r('find', { a: 1 })], [t('find', { a: '1' })], [{ ...r('find', { a: 1 }), source: 'response' }, t('find', { a: '1' })]],
    ['different tool: two calls', [r('find', {})], [t('lookup', {})], [{ ...r('find', {}), source: 'response' }, t('lookup', {})]],
    ['the same call twice in both: two calls, both', [r('find', {}), r('find', {})], [t('find', {}), t('find', {})], [{ ...r('find', {}), source: 'both' }, { ...r('find', {}), source: 'both' }]],
    ['twice in the response, once in spans: one both, one response', [r('find', {}), r('find', {})], [t('find', {})], [{ ...r('find', {}), source: 'both' }, { ...r('find', {}), source: 'response' }]],
    ['once in the response, twice in spans: one both, one trace', [r('find', {})], [t('find', {}), t('find', {})], [{ ...r('find', {}), source: 'both' }, t('find', {})]],
    ['the response reports no calls: the spans\' calls', null, [t('find', {})], [t('find', {})]],
    ['no spans\' calls: the response\'s, marked response', [r('find', {})], [], [{ ...r('find', {}), source: 'response' }]],
    // OpenInference's LangChain instrumentation writes a tool of one text argument as that text alone (`input.value: 1234`).
    ['a span whose input is the text of the response call\'s one argument: one call, both', [r('find', { input: '1234' })], [t('find', '1234')], [{ ...r('find', { input: '1234' }), source: 'both' }]],
    ['the text of another value, or of a call of two arguments: two calls', [r('find', { input: '1234' }), r('find', { id: '1', q: '1' })], [t('find', '99'), t('find', '1')], [{ ...r('find', { input: '1234' }), source: 'response' }, { ...r('find', { id: '1', q: '1' }), source: 'response' }, t('find', '99'), t('find', '1')]],
    ['a span with the call\'s input pairs first: the text span is another call', [r('find', { input: 'a' })], [t('find', 'a'), t('find', { input: 'a' })], [{ ...r('find', { input: 'a' }), source: 'both' }, t('find', 'a')]],
  ])('%s', (_, response, trace, merged) => {
    expect(mergeCalls(response, trace)).toEqual(merged);
  });

  it('readTurnSpans merges a reported call with its span', () => {
    const reading = readTurnSpans([genaiTool('find_order', { orderId: '1' }, { s: 1 })], turn(), { toolCalls: [r('find_order', { orderId: '1' }, { s: 1 })], usage: null });
    expect(reading.toolCalls).toEqual([{ ...r('find_order', { orderId: '1' }, { s: 1 }), source: 'both' }]);
  });
});

describe('errors', () => {
  it('one entry per ERROR span of the turn, in start order, with the span\'s name and message; the tool named for a tool span', () => {
    const spans = [
      span({ name: 'POST /refund', startMs: 1005, status: 'error', statusMessage: 'HTTP 500' }),
      genaiTool('find_order', {}, null, { startMs: 1001, status: 'error', statusMessage: 'db down' }),
      span({ name: 'quiet', startMs: 1002, status: 'error', statusMessage: null }),
      span({ name: 'fine', status: 'ok' }),
      span({ traceId: OTHER_TRACE, name: 'elsewhere', status: 'error', statusMessage: 'not this turn' }),
    ];
    expect(readTurnSpans(spans, turn(), none).errors).toEqual([
      { kind: 'span_error', tool: 'find_order', message: 'span execute_tool find_order failed: db down' },
      { kind: 'span_error', tool: null, message: 'span quiet failed (status ERROR, no message)' },
      { kind: 'span_error', tool: null, message: 'span POST /refund failed: HTTP 500' },
    ]);
  });

  it('an error its ancestors repeat with the same message is the innermost span\'s alone; a different message is its own entry', () => {
    const root = span({ name: 'ai.generateText', status: 'error', statusMessage: 'db down' });
    const step = span({ name: 'ai.generateText.doGenerate', parentSpanId: root.spanId, status: 'error', statusMessage: 'wrapped: db down' });
    const tool = span({ name: 'ai.toolCall', parentSpanId: step.spanId, status: 'error', statusMessage: 'db down', attributes: { 'ai.toolCall.name': 'find_order' } });
    expect(readTurnSpans([root, step, tool], turn(), none).errors.map((e) => e.message)).toEqual(['span ai.generateText.doGenerate failed: wrapped: db down', 'span ai.toolCall failed: db down']);
  });

  // The spans the AI SDK 5 emits when its own retry recovers from a provider's 529 (generateText,
  // maxRetries at its default, MockLanguageModelV2 throwing a retryable APICallError once): the
  // failed attempt is an ERROR doGenerate span, then a second doGenerate under the same parent
  // succeeds and the call answers. A model call retried until it answered is not an agent error.
  it('a model call that failed and was tried again under the same parent, and answered, is no error; one never answered is', () => {
    const root = span({ name: 'ai.generateText', startMs: 1000, endMs: 3040 });
    const failed = span({ name: 'ai.generateText.doGenerate', parentSpanId: root.spanId, startMs: 1001, endMs: 1002, status: 'error', statusMessage: 'Overloaded' });
    const retried = span({ name: 'ai.generateText.doGenerate', parentSpanId: root.spanId, startMs: 3030, endMs: 3039 });
    expect(readTurnSpans([failed, retried, root], turn(), none).errors).toEqual([]);
    // Every attempt failed: the error stands (once: the parent repeats it).
    const last = { ...retried, status: 'error' as const, statusMessage: 'Overloaded' };
    const failedRoot = { ...root, status: 'error' as const, statusMessage: 'Overloaded' };
    expect(readTurnSpans([failed, last, failedRoot], turn(), none).errors.map((e) => e.message)).toEqual(['span ai.generateText.doGenerate failed: Overloaded', 'span ai.generateText.doGenerate failed: Overloaded']);
    // A tool that failed and was called again is still an error: the agent may have told the user.
    const tool1 = span({ name: 'ai.toolCall', parentSpanId: root.spanId, startMs: 1001, status: 'error', statusMessage: 'db down', attributes: { 'ai.toolCall.name': 'find_order' } });
    const tool2 = span({ name: 'ai.toolCall', parentSpanId: root.spanId, startMs: 1005, attributes: { 'ai.toolCall.name': 'find_order' } });
    expect(readTurnSpans([tool1, tool2, root], turn(), none).errors.map((e) => e.message)).toEqual(['span ai.toolCall failed: db down']);
    // A later model call of another name (or under another parent) does not answer for the failed one.
    const other = span({ name: 'chat gpt', parentSpanId: root.spanId, startMs: 3030, attributes: { 'gen_ai.operation.name': 'chat' } });
    expect(readTurnSpans([failed, other, root], turn(), none).errors).toHaveLength(1);
  });

  it('the unmocked-tool error of agent-replay/mocks is kind unmocked_tool', () => {
    const msg = 'agent-replay: no mock answers issue_refund({"orderId":"1"}); add a mock for it';
    const spans = [span({ name: 'ai.toolCall', status: 'error', statusMessage: msg, attributes: { 'ai.toolCall.name': 'issue_refund' } })];
    expect(readTurnSpans(spans, turn(), none).errors).toEqual([{ kind: 'unmocked_tool', tool: 'issue_refund', message: `span ai.toolCall failed: ${msg}` }]);
  });

  it('a message that holds it, as the OpenAI Agents SDK wraps a tool\'s error, is kind unmocked_tool too', () => {
    const msg = `Error running tool (non-fatal): ${JSON.stringify({ tool_name: 'issue_refund', error: 'UnmockedToolError: agent-replay: no mock answers issue_refund({"orderId":"1"}); add a mock for it' })}`;
    const spans = [span({ name: 'issue_refund', status: 'error', statusMessage: msg, attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'issue_refund' } })];
    expect(readTurnSpans(spans, turn(), none).errors).toEqual([{ kind: 'unmocked_tool', tool: 'issue_refund', message: `span issue_refund failed: ${msg}` }]);
    // The SDK's default (its errorFunction) redacts the error: nothing says a mock was missing.
    const redacted = 'Error running tool (non-fatal): {"tool_name":"issue_refund","error":"Tool execution failed. Error details are redacted."}';
    expect(readTurnSpans([span({ name: 'issue_refund', status: 'error', statusMessage: redacted, attributes: { 'openinference.span.kind': 'TOOL', 'tool.name': 'issue_refund' } })], turn(), none).errors[0]?.kind).toBe('span_error');
  });

  it('a tool\'s error the response reported with the same message is the response\'s entry alone; another message or tool stands', () => {
    const failed = (name: string, message: string, startMs: number) => genaiTool(name, {}, null, { startMs, status: 'error', statusMessage: message });
    const spans = [failed('find_order', 'db down', 1001), failed('find_order', 'timeout', 1002), failed('issue_refund', 'db down', 1003), span({ name: 'POST /x', startMs: 1004, status: 'error', statusMessage: 'db down' })];
    const reported = [{ kind: 'tool_error', tool: 'find_order', message: 'db down ' }];
    expect(readTurnSpans(spans, turn(), { ...none, errors: reported }).errors.map((e) => e.message)).toEqual([
      'span execute_tool find_order failed: timeout',
      'span execute_tool issue_refund failed: db down',
      'span POST /x failed: db down',
    ]);
  });

  it('a long message is clipped to 500 characters', () => {
    const [e] = readTurnSpans([span({ name: 'x', status: 'error', statusMessage: 'm'.repeat(2000) })], turn(), none).errors;
    expect(e?.message).toBe(`span x failed: ${'m'.repeat(500)}`);
  });
});

describe('a tool span whose arguments nest deeper than a tool call may (docs/traces.md)', () => {
  it('keeps them as the text they are; 256 levels are read as JSON', () => {
    const text = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    const tool = (args: string): Span => span({ name: 'execute_tool lookup', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.arguments': args } });
    const deep = readTurnSpans([tool(text(100_000))], turn(), none).toolCalls;
    expect(deep?.map((c) => [c.tool, c.input === text(100_000)])).toEqual([['lookup', true]]);
    expect(readTurnSpans([tool(text(256))], turn(), none).toolCalls?.[0]?.input).toEqual(JSON.parse(text(256)));
  });
});

describe('usage', () => {
  const agent = (over: Partial<Span> = {}) => span({ name: 'invoke_agent', attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 999, 'gen_ai.usage.output_tokens': 999 }, ...over });

  it.each<[string, () => Span[], { inputTokens: number; outputTokens: number } | null]>([
    ['summed over model-call spans', () => [chat({}, [10, 2]), chat({}, [5, 1])], { inputTokens: 15, outputTokens: 3 }],
    ['never over the agent-level span that repeats them', () => { const a = agent(); return [a, chat({ parentSpanId: a.spanId }, [10, 2]), chat({ parentSpanId: a.spanId }, [5, 1])]; }, { inputTokens: 15, outputTokens: 3 }],
    ['never over the AI SDK\'s generateText span', () => [span({ name: 'ai.generateText', attributes: { 'gen_ai.usage.input_tokens': 50, 'gen_ai.usage.output_tokens': 50 } }), span({ name: 'ai.generateText.doGenerate', attributes: { 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.output_tokens': 3 } })], { inputTokens: 7, outputTokens: 3 }],
    ['two instrumentations of one call count once (the inner one)', () => { const o = span({ attributes: { 'openinference.span.kind': 'LLM', 'llm.token_count.prompt': 10, 'llm.token_count.completion': 2 } }); return [o, chat({ parentSpanId: o.spanId }, [10, 2])]; }, { inputTokens: 10, outputTokens: 2 }],
    ['OpenInference token counts', () => [span({ attributes: { 'openinference.span.kind': 'LLM', 'llm.token_count.prompt': 4, 'llm.token_count.completion': 6 } })], { inputTokens: 4, outputTokens: 6 }],
    ['older GenAI names (prompt_tokens, completion_tokens)', () => [span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.prompt_tokens': 3, 'gen_ai.usage.completion_tokens': 4 } })], { inputTokens: 3, outputTokens: 4 }],
    ['only input reported: output 0', () => [span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 3 } })], { inputTokens: 3, outputTokens: 0 }],
    ['counts written as text are read; nonsense is not', () => [span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': '12', 'gen_ai.usage.output_tokens': 'lots' } })], { inputTokens: 12, outputTokens: 0 }],
    // Counts JavaScript could not sum exactly, or results.json read back as whole numbers, are not read.
    ['a count that is not whole, or above a billion, is not read', () => [span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 1e308, 'gen_ai.usage.output_tokens': 1.5 } }), span({ attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': '9007199254740993', 'gen_ai.usage.output_tokens': 1_000_000_000 } })], { inputTokens: 0, outputTokens: 1_000_000_000 }],
    ['no model-call span reports tokens: null', () => [chat(), agent()], null],
  ])('%s', (_, spans, usage) => {
    expect(readTurnSpans(spans(), turn(), none).usage).toEqual(usage);
  });

  it('the response\'s own usage wins', () => {
    expect(readTurnSpans([chat({}, [10, 2])], turn(), { toolCalls: null, usage: { inputTokens: 1, outputTokens: 1 } }).usage).toEqual({ inputTokens: 1, outputTokens: 1 });
  });
});

describe('time split', () => {
  const at = (start: number, end: number) => ({ startMs: 1000 + start, endMs: 1000 + end });

  it.each<[string, () => Span[], number | null, { modelMs: number; toolMs: number; otherMs: number; tools?: Record<string, number> }]>([
    ['model and tool in sequence; other is the rest of the latency', () => [chat(at(0, 300)), genaiTool('find', {}, null, at(300, 500)), chat(at(500, 700))], 1000, { modelMs: 500, toolMs: 200, otherMs: 300, tools: { find: 200 } }],
    ['overlapping model spans are counted once (their union)', () => [chat(at(0, 300)), chat(at(200, 400)), chat(at(600, 700))], 1000, { modelMs: 500, toolMs: 0, otherMs: 500 }],
    ['parallel tools: tool time is their union, each tool its own', () => [genaiTool('a', {}, null, at(0, 400)), genaiTool('b', {}, null, at(100, 300)), genaiTool('a', {}, null, at(350, 600))], 1000, { modelMs: 0, toolMs: 600, otherMs: 400, tools: { a: 600, b: 200 } }],
    ['a tool inside a model span is tool time, not model time too', () => [chat(at(0, 1000)), genaiTool('find', {}, null, at(200, 500))], 1000, { modelMs: 700, toolMs: 300, otherMs: 0, tools: { find: 300 } }],
    ['spans longer than the latency (clocks apart): other is 0, never below', () => [chat(at(0, 800)), genaiTool('find', {}, null, at(800, 1500))], 1000, { modelMs: 800, toolMs: 700, otherMs: 0, tools: { find: 700 } }],
    ['agent-level and unknown spans are not model time', () => [span({ name: 'ai.generateText', ...at(0, 900) }), span({ name: 'POST', ...at(0, 950) }), chat(at(100, 200))], 1000, { modelMs: 100, toolMs: 0, otherMs: 900 }],
    ['a span whose end is before its start takes no time', () => [chat({ startMs: 1500, endMs: 1000 })], 1000, { modelMs: 0, toolMs: 0, otherMs: 1000 }],
    ['fractional milliseconds are rounded', () => [chat({ startMs: 1000.2, endMs: 1100.7 })], 300.4, { modelMs: 101, toolMs: 0, otherMs: 199 }],
    ['latency not measured: other is 0', () => [chat(at(0, 100))], null, { modelMs: 100, toolMs: 0, otherMs: 0 }],
  ])('%s', (_, spans, latency, time) => {
    expect(readTurnSpans(spans(), turn(latency), none).time).toEqual(time);
  });
});

describe('counts', () => {
  it('counts the turn\'s spans; ignored are those of no kind read here (an ERROR span is read)', () => {
    const spans = [chat(), genaiTool('a', {}, null), span({ name: 'POST /api/chat' }), span({ name: 'ai.generateText' }), span({ name: 'db', status: 'error', statusMessage: 'x' }), span({ traceId: OTHER_TRACE })];
    expect(readTurnSpans(spans, turn(), none).counts).toEqual({ count: 5, ignored: 2 });
  });
});

describe('a hostile or runaway trace (an agent that sends far more spans than a turn has)', () => {
  it('a chain 20,000 spans deep is read without running out of stack', () => {
    const chain: Span[] = [];
    for (let i = 0; i < 20_000; i++) chain.push(span({ parentSpanId: i === 0 ? null : (chain[i - 1] as Span).spanId, startMs: 1000 + i, endMs: 100_000 }));
    chain.push(genaiTool('find_order', { id: 1 }, { ok: true }, { parentSpanId: (chain[1] as Span).spanId, startMs: 1001, endMs: 1002 }));
    const r = readTurnSpans(chain, turn(), none);
    expect(r.counts.count).toBe(20_001);
    expect(r.errors).toEqual([]);
  });

  it('40,000 tool spans: the first 2,000 by start are read, the rest counted as ignored', () => {
    const top = span({ startMs: 0, endMs: 50_000 });
    const tools = Array.from({ length: 40_000 }, (_, i) => genaiTool('lookup', { i }, { ok: true }, { parentSpanId: top.spanId, startMs: 1 + i, endMs: 2 + i }));
    const r = readTurnSpans([top, ...tools], turn(), none);
    expect(r.toolCalls).toHaveLength(1999);
    // The 38,001 beyond the limit, and the top span, which is of no kind read.
    expect(r.counts).toEqual({ count: 40_001, ignored: 38_002 });
  });
});

describe('a retried turn\'s spans (docs/traces.md, "Retried requests")', () => {
  const FAILED = 'f'.repeat(16);
  const ANSWERED = 'e'.repeat(16);
  it('only the spans whose chain of parents reaches the answered attempt\'s span id; a turn sent once reads every span', () => {
    const top = span({ parentSpanId: ANSWERED });
    const child = span({ parentSpanId: top.spanId });
    const grandchild = span({ parentSpanId: child.spanId });
    const failedTop = span({ parentSpanId: FAILED });
    const failedChild = span({ parentSpanId: failedTop.spanId });
    const orphan = span({ parentSpanId: '0123456789abcdef' }); // its parent never arrived
    const root = span({ parentSpanId: null });
    const loopA = span({ spanId: 'cccccccccccccccc', parentSpanId: 'dddddddddddddddd' });
    const loopB = span({ spanId: 'dddddddddddddddd', parentSpanId: 'cccccccccccccccc' });
    const all = [grandchild, failedChild, top, orphan, child, failedTop, root, loopA, loopB];
    expect(spansOfAttempt(all, ANSWERED, true)).toEqual([grandchild, top, child]);
    expect(spansOfAttempt(all, FAILED, true)).toEqual([failedChild, failedTop]);
    expect(spansOfAttempt(all, ANSWERED, false)).toBe(all);
  });

  it('a chain thousands of spans deep is read without recursion', () => {
    const chain: Span[] = [span({ parentSpanId: ANSWERED })];
    for (let i = 0; i < 20_000; i++) chain.push(span({ parentSpanId: chain[chain.length - 1]!.spanId }));
    expect(spansOfAttempt([...chain].reverse(), ANSWERED, true)).toHaveLength(chain.length);
  });
});
