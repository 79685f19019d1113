// The span mapping (docs/traces.md, "What is read from spans") over the spans the real Vercel AI SDK
// emits with telemetry on (`experimental_telemetry: {isEnabled: true, tracer}`), AI SDK 5 (`ai-v5`)
// on its fake model (MockLanguageModelV2) with server tools: the span names and attributes read are
// the ones the SDK actually emits, asserted here before the mapping reads them. AI SDK 7 emits spans
// only through the separate `@ai-sdk/otel` integration: traces-ai-sdk7.test.ts.

import { context } from '@opentelemetry/api';
import { generateText, stepCountIs, streamText } from 'ai-v5';
import { MockLanguageModelV2, simulateReadableStream } from 'ai-v5/test';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { markMockedCalls, reportedError } from '../../src/evaluate/personas.js';
import { mockTools } from '../../src/mocks/index.js';
import { readTurnSpans } from '../../src/traces/map.js';
import type { Mock, Span, Turn } from '../../src/types.js';
import { memoryTracing, sentContext, toSpan } from '../support/otel-spans.js';
import { tools } from './vercel-ai/v5-tools.js';

const { provider, exporter } = memoryTracing();
const tracer = provider.getTracer('ai');
afterAll(async () => {
  await provider.shutdown();
});
beforeEach(() => {
  exporter.reset();
});

/** A part of a LanguageModelV2 stream, as the mock model returns them. */
type StreamPart = Awaited<ReturnType<MockLanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer T> ? T : never;

/** The model calls `calls` (one step each), then answers with text; every step reports 10 in, 5 out. */
function scriptedModel(calls: { tool: string; input: Record<string, string> }[]): MockLanguageModelV2 {
  const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
  let step = 0;
  return new MockLanguageModelV2({
    doGenerate: async () => {
      const call = calls[step];
      step += 1;
      if (call) return { content: [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: call.tool, input: JSON.stringify(call.input) }], finishReason: 'tool-calls', usage, warnings: [] };
      return { content: [{ type: 'text', text: 'Done.' }], finishReason: 'stop', usage, warnings: [] };
    },
    doStream: async () => {
      const call = calls[step];
      step += 1;
      const chunks: StreamPart[] = call
        ? [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: `call-${step}`, toolName: call.tool, input: JSON.stringify(call.input) }, { type: 'finish', finishReason: 'tool-calls', usage }]
        : [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: 'stop', usage }];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) };
    },
  });
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SENT = '00f067aa0ba902b7';

/** One turn of an agent route: generateText under the context a traceparent header starts. */
async function generateTurn(calls: { tool: string; input: Record<string, string> }[], mocks: Mock[] = []): Promise<{ spans: Span[]; text: string }> {
  const result = await context.with(sentContext(TRACE, SENT), () =>
    generateText({ model: scriptedModel(calls), tools: mockTools(tools, mocks), prompt: 'Refund order 1234', stopWhen: stepCountIs(5), experimental_telemetry: { isEnabled: true, tracer } }),
  );
  return { spans: exporter.getFinishedSpans().map(toSpan), text: result.text };
}

describe('the spans the AI SDK emits (what the mapping relies on)', () => {
  it('generateText: ai.generateText (agent level, usage repeated), one ai.generateText.doGenerate per step with gen_ai.usage.*, ai.toolCall with ai.toolCall.name/args/result', async () => {
    const { spans } = await generateTurn([{ tool: 'find_order', input: { orderId: '1234' } }]);
    expect(spans.map((s) => s.name).sort()).toEqual(['ai.generateText', 'ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.toolCall']);
    expect(spans.every((s) => s.traceId === TRACE)).toBe(true);
    const root = spans.find((s) => s.name === 'ai.generateText');
    expect(root?.parentSpanId).toBe(SENT);
    // The agent-level span repeats usage (AI SDK 5: the last step's), so usage is never read from it.
    expect(root?.attributes['ai.usage.promptTokens']).toBe(10);
    const call = spans.find((s) => s.name === 'ai.toolCall');
    expect(call?.attributes).toMatchObject({ 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'find_order', 'ai.toolCall.args': '{"orderId":"1234"}', 'ai.toolCall.result': '{"orderId":"1234","status":"delivered"}' });
    const steps = spans.filter((s) => s.name === 'ai.generateText.doGenerate');
    for (const s of steps) expect(s.attributes).toMatchObject({ 'ai.operationId': 'ai.generateText.doGenerate', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 });
  });
});

describe('a turn of an AI SDK agent read from its spans', () => {
  it('generateText: the tool call from its span, usage from the steps only (not the agent-level total twice), model and tool time', async () => {
    const { spans, text } = await generateTurn([
      { tool: 'find_order', input: { orderId: '1234' } },
      { tool: 'issue_refund', input: { orderId: '1234' } },
    ]);
    expect(text).toBe('Done.');
    const latencyMs = Math.max(...spans.map((s) => s.endMs)) - Math.min(...spans.map((s) => s.startMs));
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered' }, mocked: false, source: 'trace' },
      { tool: 'issue_refund', input: { orderId: '1234' }, output: { refundId: 'R-1234' }, mocked: false, source: 'trace' },
    ]);
    expect(reading.usage).toEqual({ inputTokens: 30, outputTokens: 15 });
    expect(reading.errors).toEqual([]);
    expect(reading.counts).toEqual({ count: 6, ignored: 1 });
    expect(Object.keys(reading.time?.tools ?? {})).toEqual(['find_order', 'issue_refund']);
    const time = reading.time!;
    expect(time.modelMs + time.toolMs + time.otherMs).toBe(Math.round(latencyMs));
  });

  it('streamText: doStream steps are the model calls', async () => {
    const result = await context.with(sentContext(TRACE, SENT), () => {
      const r = streamText({ model: scriptedModel([{ tool: 'find_order', input: { orderId: '7' } }]), tools, prompt: 'Where is order 7?', stopWhen: stepCountIs(5), experimental_telemetry: { isEnabled: true, tracer } });
      return r.text;
    });
    expect(result).toBe('Done.');
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans().map(toSpan);
    expect(spans.filter((s) => s.name === 'ai.streamText.doStream')).toHaveLength(2);
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: null }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '7' }, output: { orderId: '7', status: 'delivered' }, mocked: false, source: 'trace' }]);
    expect(reading.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
  });

  it('a tool that throws: an errors entry naming the span and the message, so the script is errored', async () => {
    const { spans } = await generateTurn([{ tool: 'issue_refund', input: { orderId: 'broken' } }]);
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: 100 }, { toolCalls: null, usage: null });
    expect(reading.errors).toEqual([{ kind: 'span_error', tool: 'issue_refund', message: 'span ai.toolCall failed: refunds service unavailable' }]);
    const turn = { index: 1, toolCalls: reading.toolCalls, errors: reading.errors } as Turn;
    expect(reportedError([turn])).toEqual({ errorKind: 'agent_error', error: 'turn 1: the agent reported an error (span_error, tool issue_refund): span ai.toolCall failed: refunds service unavailable' });
  });

  it('mocked mode with the mocks helper: a call a mock answered is mocked, a call no mock answers errors the script as unmocked', async () => {
    const mocks: Mock[] = [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { orderId: '1234', status: 'in-transit-mock' } }];
    const { spans } = await generateTurn(
      [
        { tool: 'find_order', input: { orderId: '1234' } },
        { tool: 'issue_refund', input: { orderId: '1234' } },
      ],
      mocks,
    );
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: 100 }, { toolCalls: null, usage: null });
    const [turn] = markMockedCalls([{ index: 1, toolCalls: reading.toolCalls, errors: reading.errors } as Turn], mocks);
    expect(turn?.toolCalls?.map((c) => [c.tool, c.mocked])).toEqual([
      ['find_order', true],
      ['issue_refund', false],
    ]);
    expect(reading.errors).toEqual([expect.objectContaining({ kind: 'unmocked_tool', tool: 'issue_refund' })]);
    const error = reportedError([turn!], { mocks });
    expect(error?.errorKind).toBe('unmocked_tool');
    expect(error?.error).toContain('issue_refund');
  });
});
