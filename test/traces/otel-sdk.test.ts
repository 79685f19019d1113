// The span mapping (docs/traces.md, "What is read from spans") over spans made by the real
// OpenTelemetry SDK: an agent instrumented by hand with the GenAI semantic conventions and with
// OpenInference's attributes, under the parent a `traceparent` header starts. Span times are given
// to the SDK (no clock, no sleep).

import { SpanStatusCode, context, type Tracer } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { readTurnSpans } from '../../src/traces/map.js';
import { markMockedCalls } from '../../src/evaluate/personas.js';
import type { Turn } from '../../src/types.js';
import { memoryTracing, sentContext, toSpan } from '../support/otel-spans.js';

const { provider, exporter } = memoryTracing();
const tracer = provider.getTracer('agent');
afterAll(async () => {
  await provider.shutdown();
});

const T0 = 1_800_000_000_000;
const at = (ms: number): number => T0 + ms;

/** A span from `start` to `end` ms after T0, under the active context; `fn` runs inside it. */
function step(t: Tracer, name: string, start: number, end: number, attributes: Record<string, string | number>, fn?: () => void, error?: string): void {
  t.startActiveSpan(name, { startTime: at(start), attributes }, (span) => {
    fn?.();
    if (error !== undefined) {
      span.recordException(new Error(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(at(end));
  });
}

/** One agent turn as a GenAI-instrumented agent exports it: agent, model, tool, model. */
function genaiTurn(traceId: string, sentSpanId: string, toolError?: string): void {
  context.with(sentContext(traceId, sentSpanId), () =>
    step(tracer, 'invoke_agent shop-bot', 0, 1500, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 300, 'gen_ai.usage.output_tokens': 40 }, () => {
      step(tracer, 'chat gpt-4o', 10, 400, { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20 });
      step(tracer, 'execute_tool lookup_order', 400, 1300, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.arguments': '{"orderId":"1234"}', ...(toolError ? {} : { 'gen_ai.tool.call.result': '{"status":"delivered"}' }) }, undefined, toolError);
      step(tracer, 'chat gpt-4o', 1300, 1450, { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 200, 'gen_ai.usage.output_tokens': 20 });
    }),
  );
}

describe('spans from the real OpenTelemetry SDK', () => {
  it('a GenAI-instrumented turn: its tool call, usage from the model calls only, the time split; another turn\'s spans left out', () => {
    exporter.reset();
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    genaiTurn(traceId, 'b7ad6b7169203331');
    genaiTurn('11111111111111111111111111111111', '2222222222222222', 'db down'); // another turn, same exporter
    const spans = exporter.getFinishedSpans().map(toSpan);
    expect(spans).toHaveLength(8);
    const root = spans.find((s) => s.traceId === traceId && s.name === 'invoke_agent shop-bot');
    expect(root?.parentSpanId).toBe('b7ad6b7169203331');

    const reading = readTurnSpans(spans, { traceId, latencyMs: 1600 }, { toolCalls: null, usage: null });
    expect(reading).toEqual({
      toolCalls: [{ tool: 'lookup_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false, source: 'trace' }],
      errors: [],
      usage: { inputTokens: 300, outputTokens: 40 },
      time: { modelMs: 540, toolMs: 900, otherMs: 160, tools: { lookup_order: 900 } },
      counts: { count: 4, ignored: 1 },
    });
  });

  it('a tool that throws: an errors entry with the span\'s name and the exception\'s message, and its call with the error as output', () => {
    exporter.reset();
    const traceId = '33333333333333333333333333333333';
    genaiTurn(traceId, '4444444444444444', 'connection refused: orders-db');
    const reading = readTurnSpans(exporter.getFinishedSpans().map(toSpan), { traceId, latencyMs: 1600 }, { toolCalls: null, usage: null });
    expect(reading.errors).toEqual([{ kind: 'span_error', tool: 'lookup_order', message: 'span execute_tool lookup_order failed: connection refused: orders-db' }]);
    expect(reading.toolCalls).toEqual([{ tool: 'lookup_order', input: { orderId: '1234' }, output: { error: 'connection refused: orders-db' }, mocked: false, source: 'trace' }]);
  });

  it('OpenInference attributes; a call the response reports too is one call (both); a mock\'s output marks it mocked as on the wire', () => {
    exporter.reset();
    const traceId = '55555555555555555555555555555555';
    context.with(sentContext(traceId, '6666666666666666'), () =>
      step(tracer, 'AgentExecutor', 0, 1000, { 'openinference.span.kind': 'CHAIN' }, () => {
        step(tracer, 'ChatOpenAI', 0, 300, { 'openinference.span.kind': 'LLM', 'llm.token_count.prompt': 50, 'llm.token_count.completion': 7 });
        step(tracer, 'find_order', 300, 500, { 'openinference.span.kind': 'TOOL', 'tool.name': 'find_order', 'input.value': '{"orderId":"1234"}', 'output.value': '{"status":"in-transit-mock"}' });
        step(tracer, 'escalate', 500, 600, { 'openinference.span.kind': 'TOOL', 'tool.name': 'escalate', 'input.value': '{}', 'output.value': '{"ticket":"T-1"}' });
      }),
    );
    const reading = readTurnSpans(exporter.getFinishedSpans().map(toSpan), { traceId, latencyMs: 1000 }, {
      toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'in-transit-mock' }, mocked: false }],
      usage: null,
    });
    expect(reading.usage).toEqual({ inputTokens: 50, outputTokens: 7 });
    expect(reading.toolCalls).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { status: 'in-transit-mock' }, mocked: false, source: 'both' },
      { tool: 'escalate', input: {}, output: { ticket: 'T-1' }, mocked: false, source: 'trace' },
    ]);
    // Mocked mode reads trace calls as it reads the response's (docs/traces.md, "Mocked or real").
    const turn = { index: 1, toolCalls: reading.toolCalls } as Turn;
    const [marked] = markMockedCalls([turn], [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'in-transit-mock' } }]);
    expect(marked?.toolCalls?.map((c) => [c.tool, c.mocked])).toEqual([
      ['find_order', true],
      ['escalate', false],
    ]);
  });
});

describe('the time split of a turn whose model call was retried and whose tools ran in parallel (docs/traces.md, "Time")', () => {
  it('counts each stretch of time once: the failed attempt is model time, the backoff other, parallel tools their union', () => {
    exporter.reset();
    const traceId = '77777777777777777777777777777777';
    // As the AI SDK 5 exports it: each attempt of a model call is a doGenerate span under the same
    // ai.generateText; the first is answered 529 and tried again 2 s later. Then two tools at once.
    context.with(sentContext(traceId, '8888888888888888'), () =>
      step(tracer, 'ai.generateText', 0, 3500, { 'ai.operationId': 'ai.generateText' }, () => {
        step(tracer, 'ai.generateText.doGenerate', 10, 510, { 'ai.operationId': 'ai.generateText.doGenerate' }, undefined, 'Overloaded');
        step(tracer, 'ai.generateText.doGenerate', 2510, 2800, { 'ai.operationId': 'ai.generateText.doGenerate' });
        step(tracer, 'ai.toolCall', 2800, 3300, { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'lookup_order', 'ai.toolCall.args': '{}' });
        step(tracer, 'ai.toolCall', 2850, 3200, { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'lookup_stock', 'ai.toolCall.args': '{}' });
        step(tracer, 'ai.generateText.doGenerate', 3300, 3500, { 'ai.operationId': 'ai.generateText.doGenerate' });
      }),
    );
    const reading = readTurnSpans(exporter.getFinishedSpans().map(toSpan), { traceId, latencyMs: 3600 }, { toolCalls: null, usage: null });
    expect(reading.errors).toEqual([]);
    expect(reading.time).toEqual({ modelMs: 500 + 290 + 200, toolMs: 500, otherMs: 3600 - 990 - 500, tools: { lookup_order: 500, lookup_stock: 350 } });
  });
});

describe('model calls of the same name made at once (docs/traces.md, "Errors")', () => {
  it('a failed one stands beside one that answered: it was not tried again, the two ran side by side', () => {
    exporter.reset();
    const traceId = '99999999999999999999999999999999';
    // An agent asks the model two things at once (Promise.all), both GenAI chat spans under its
    // request span, started in the same millisecond (the JS SDK stamps starts in whole ms); one fails.
    context.with(sentContext(traceId, 'aaaaaaaaaaaaaaaa'), () =>
      step(tracer, 'POST /chat', 0, 600, {}, () => {
        const parent = context.active();
        tracer.startSpan('chat gpt-4o', { startTime: at(10), attributes: { 'gen_ai.operation.name': 'chat' } }, parent).end(at(400));
        const failed = tracer.startSpan('chat gpt-4o', { startTime: at(10), attributes: { 'gen_ai.operation.name': 'chat' } }, parent);
        failed.setStatus({ code: SpanStatusCode.ERROR, message: 'context length exceeded' });
        failed.end(at(510));
      }),
    );
    const reading = readTurnSpans(exporter.getFinishedSpans().map(toSpan), { traceId, latencyMs: 600 }, { toolCalls: null, usage: null });
    expect(reading.errors).toEqual([{ kind: 'span_error', tool: null, message: 'span chat gpt-4o failed: context length exceeded' }]);
  });

  it('one tried again after it failed, within the millisecond the SDK stamps its start in, is no error', () => {
    exporter.reset();
    const traceId = '88888888888888888888888888888888';
    context.with(sentContext(traceId, 'bbbbbbbbbbbbbbbb'), () =>
      step(tracer, 'POST /chat', 0, 900, {}, () => {
        const parent = context.active();
        const failed = tracer.startSpan('chat gpt-4o', { startTime: at(10), attributes: { 'gen_ai.operation.name': 'chat' } }, parent);
        failed.setStatus({ code: SpanStatusCode.ERROR, message: 'Overloaded' });
        failed.end(at(500.6));
        // Tried again at once: its start, in whole milliseconds, is before the failed call's fractional end.
        tracer.startSpan('chat gpt-4o', { startTime: at(500), attributes: { 'gen_ai.operation.name': 'chat' } }, parent).end(at(800));
      }),
    );
    const reading = readTurnSpans(exporter.getFinishedSpans().map(toSpan), { traceId, latencyMs: 900 }, { toolCalls: null, usage: null });
    expect(reading.errors).toEqual([]);
  });
});

