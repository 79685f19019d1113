// The run's span reader (src/traces/observer.ts; docs/traces.md, "When spans do not arrive", "In the record").

import { describe, expect, it } from 'vitest';
import { TraceStoreError, traceObserver, waterfallOf } from '../../src/traces/index.js';
import type { Span, SpanSource, TurnSpans } from '../../src/types.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SENT = '00f067aa0ba902b7';

function span(id: number, parent: string | null, startMs: number, endMs: number, extra: Partial<Span> = {}): Span {
  return { traceId: TRACE, spanId: id.toString(16).padStart(16, '0'), parentSpanId: parent, name: `s${id}`, startMs, endMs, status: 'unset', statusMessage: null, attributes: {}, service: null, ...extra };
}

function source(collect: () => Promise<TurnSpans>): SpanSource {
  return { register: () => undefined, collect, late: () => 0, close: async () => undefined };
}

const response = { toolCalls: [], errors: [], usage: null, latencyMs: 100 };

describe('traceObserver', () => {
  it('a turn without spans: calls unknown with the cause, the response kept otherwise', async () => {
    const observer = traceObserver(source(async () => ({ spans: [], complete: false })), { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 5000 });
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, { ...response, usage: { inputTokens: 1, outputTokens: 2 } });
    expect(report).toMatchObject({ toolCalls: null, usage: { inputTokens: 1, outputTokens: 2 }, spans: { count: 0, ignored: 0, late: 0 }, time: null, waterfall: null });
    expect(report.toolCallsProblem).toBe(`no spans for trace ${TRACE} within 5 s: none came to http://127.0.0.1:4318/v1/traces for this request; does the agent export there, with a span for each request it answers?`);
  });

  it('spans that came without the span they hang from, at waitMs: the calls unknown, never "none called" from part of the turn', async () => {
    // The top span (under the sent span id) never came: the model span that did hangs from it; the tool span may be on its way.
    const spans = [span(2, '00000000000000aa', 1020, 1050, { name: 'chat', attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 } }), span(3, '00000000000000aa', 1060, 1070, { status: 'error', statusMessage: 'boom' })];
    const observer = traceObserver(source(async () => ({ spans, complete: false })), { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 5000 });
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, { ...response, toolCalls: [{ tool: 'find', input: null, output: null, mocked: true }] });
    expect(report).toMatchObject({ toolCalls: null, usage: null, spans: { count: 2, ignored: 0, late: 0 }, time: null, waterfall: null });
    expect(report.errors.map((e) => e.message)).toEqual(['span s3 failed: boom']);
    expect(report.toolCallsProblem).toBe(
      `spans for trace ${TRACE} incomplete within 5 s: 2 spans came, but not the span 00000000000000aa they hang from; does the agent flush its spans before it replies (forceFlush), and export them to http://127.0.0.1:4318/v1/traces?`,
    );
    // Complete (the top span came) or with nothing missing (root spans, as an agent that does not continue the traceparent makes them): read as before.
    const whole = traceObserver(source(async () => ({ spans: [span(2, null, 1020, 1050)], complete: false })), { endpoint: 'x', receiving: true, waitMs: 5000 });
    expect((await whole.afterReply({ traceId: TRACE, spanId: SENT }, response)).toolCalls).toEqual([]);
  });

  it("a store's failure is the turn's cause, not the run's", async () => {
    const observer = traceObserver(
      source(async () => {
        throw new TraceStoreError('tempo answered HTTP 401 for GET https://tempo.example.com/api/v2/traces/x: check traces.query.apiKey');
      }),
      { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 5000 },
    );
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, response);
    expect(report.toolCallsProblem).toBe('tempo answered HTTP 401 for GET https://tempo.example.com/api/v2/traces/x: check traces.query.apiKey');
    expect(report.toolCalls).toBeNull();
  });

  it('spans: errors appended to the response\'s, counts, and a waterfall timed from the send', async () => {
    let now = 1000;
    const spans = [
      span(1, SENT, 1010, 1090),
      span(2, '0000000000000001', 1020, 1050, { name: 'execute_tool lookup_order', status: 'error', statusMessage: 'boom', attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order' } }),
    ];
    const observer = traceObserver(source(async () => ({ spans, complete: true })), { endpoint: 'x', receiving: true, waitMs: 5000, now: () => now });
    observer.beforeSend({ traceId: TRACE, spanId: SENT });
    now = 2000;
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, { ...response, errors: [{ kind: 'http', tool: null, message: 'from the body' }] });
    expect(report.errors.map((e) => e.message)).toEqual(['from the body', 'span execute_tool lookup_order failed: boom']);
    expect(report.spans).toEqual({ count: 2, ignored: 1, late: 0 });
    expect(report.toolCalls).toEqual([expect.objectContaining({ tool: 'lookup_order', source: 'trace' })]);
    expect(report.waterfall).toEqual([
      { name: 's1', kind: 'other', tool: null, startMs: 10, durationMs: 80, depth: 0, status: 'unset' },
      { name: 'execute_tool lookup_order', kind: 'tool', tool: 'lookup_order', startMs: 20, durationMs: 30, depth: 1, status: 'error' },
    ]);
  });
});

describe('traceObserver: a retried turn (docs/traces.md, "Retried requests")', () => {
  const FAILED = 'f00000000000000f';
  const store = { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 5000 };

  it('spans under the failed attempt only: none is the turn\'s, and the cause says the turn was retried', async () => {
    const observer = traceObserver(source(async () => ({ spans: [span(1, FAILED, 1010, 1090), span(2, '0000000000000001', 1020, 1050)], complete: false })), store);
    observer.beforeSend({ traceId: TRACE, spanId: FAILED });
    observer.beforeSend({ traceId: TRACE, spanId: SENT });
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, response);
    expect(report).toMatchObject({ toolCalls: null, spans: { count: 0, ignored: 0, late: 0 }, time: null, waterfall: null });
    expect(report.toolCallsProblem).toBe(
      `no spans of the answered attempt for trace ${TRACE} within 5 s at tempo (https://tempo.example.com): the turn was retried, and none of the trace's 2 spans is under the traceparent of the attempt that answered (a failed attempt's spans are not the turn's); does the agent start its spans under the incoming traceparent, and is traces.waitMs long enough for the store to index them?`,
    );
  });

  it('one span id sent on every attempt (a traceparent in agent.headers) is one attempt: every span is read, timed from the last send', async () => {
    let now = 1000;
    const observer = traceObserver(source(async () => ({ spans: [span(1, null, 1510, 1590)], complete: false })), { ...store, now: () => now });
    observer.beforeSend({ traceId: TRACE, spanId: SENT });
    now = 1500;
    observer.beforeSend({ traceId: TRACE, spanId: SENT });
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, response);
    expect(report.spans).toEqual({ count: 1, ignored: 1, late: 0 });
    expect(report.waterfall).toEqual([{ name: 's1', kind: 'other', tool: null, startMs: 10, durationMs: 80, depth: 0, status: 'unset' }]);
  });
});

describe('traceObserver: a large turn', () => {
  it('130,000 spans and no send registered for the answered attempt: timed from the earliest span, no RangeError', async () => {
    // Math.min(...spans) took one argument a span and threw past ~120,000 of them.
    const many = Array.from({ length: 130_000 }, (_, i) => span(i + 1, i === 0 ? SENT : '0000000000000001', 2000 - (i % 1000), 3000));
    const observer = traceObserver(source(async () => ({ spans: many, complete: true })), { endpoint: 'x', receiving: true, waitMs: 5000 });
    const report = await observer.afterReply({ traceId: TRACE, spanId: SENT }, response);
    expect(report.spans).toMatchObject({ count: 130_000 });
    // The earliest span starts at 1001: the waterfall's 0.
    expect(report.waterfall?.[0]).toMatchObject({ startMs: 0 });
  });
});

describe('waterfallOf', () => {
  it('keeps the earliest 50 spans; a parent outside the turn counts as the sent span', () => {
    const many = Array.from({ length: 60 }, (_, i) => span(i + 1, i === 0 ? 'ffffffffffffffff' : '0000000000000001', 100 + i, 200 + i));
    const w = waterfallOf(many, SENT, 100);
    expect(w).toHaveLength(50);
    expect(w[0]).toMatchObject({ name: 's1', depth: 0, startMs: 0 });
    expect(w[49]).toMatchObject({ name: 's50', depth: 1, startMs: 49 });
  });

  it('spans nesting 100,000 deep (each the child of the one before, the deepest earliest): depths counted without recursion', () => {
    const N = 100_000;
    const chain = Array.from({ length: N }, (_, i) => span(i + 1, i === 0 ? SENT : (i).toString(16).padStart(16, '0'), 1_000_000 - i, 2_000_000));
    const w = waterfallOf(chain, SENT, 0);
    expect(w.map((x) => x.depth)).toEqual(Array.from({ length: 50 }, (_, i) => N - 1 - i));
    // A cycle of parents ends at the span seen twice, as before.
    const a = span(1, '0000000000000002', 10, 20);
    const b = span(2, '0000000000000001', 11, 20);
    expect(waterfallOf([a, b], SENT, 0).map((x) => [x.name, x.depth])).toEqual([['s1', 1], ['s2', 0]]);
  });
});
