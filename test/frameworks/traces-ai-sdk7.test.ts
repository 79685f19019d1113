// The span mapping (docs/traces.md, "What is read from spans") over the spans AI SDK 7 (`ai` 7.0.173)
// really emits through its OpenTelemetry integration, `@ai-sdk/otel` 1.0.173 (`OpenTelemetry`, given
// per call as `telemetry: { integrations }`; docs/traces.md "Set-up" registers it once with
// `registerTelemetry`, the same integration), on the SDK's fake model (MockLanguageModelV4 from
// `ai/test`) with server tools, one of which throws. The span names and attributes are asserted as
// emitted before the mapping reads them: GenAI semantic conventions (`invoke_agent <model>`,
// `step <n>` with `agent_step`, `chat <model>`, `execute_tool <tool>`). Also: `recordOutputs: false`
// (no tool result recorded) and the package's `LegacyOpenTelemetry` (AI SDK 5's `ai.*` span names).

import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { context } from '@opentelemetry/api';
import { generateText, isStepCount, streamText, tool, type TelemetryOptions } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { markMockedCalls, reportedError } from '../../src/evaluate/personas.js';
import { mockTools } from '../../src/mocks/index.js';
import { readTurnSpans } from '../../src/traces/map.js';
import type { Mock, Span, Turn } from '../../src/types.js';
import { memoryTracing, sentContext, toSpan } from '../support/otel-spans.js';

const { provider, exporter } = memoryTracing();
const telemetry = { integrations: new OpenTelemetry({ tracer: provider.getTracer('shop') }) };
afterAll(async () => {
  await provider.shutdown();
});
beforeEach(() => {
  exporter.reset();
});

const tools = {
  find_order: tool({
    description: 'Look up an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => ({ orderId, status: 'delivered' }),
  }),
  issue_refund: tool({
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }): Promise<{ refundId: string }> => {
      if (orderId === 'broken') throw new Error('refunds service unavailable');
      return { refundId: `R-${orderId}` };
    },
  }),
};

type Call = { tool: string; input: Record<string, string> };

/** V4 usage: 10 in, 5 out on every step. */
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** The model calls `calls` (one step each), then answers with text. */
function scriptedModel(calls: Call[]): MockLanguageModelV4 {
  let step = 0;
  const next = (): Call | undefined => calls[step++];
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const call = next();
      if (call) return { content: [{ type: 'tool-call', toolCallId: `call-${step}`, toolName: call.tool, input: JSON.stringify(call.input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      return { content: [{ type: 'text', text: 'Done.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
    doStream: async () => {
      const call = next();
      const parts: unknown[] = call
        ? [{ type: 'stream-start', warnings: [] }, { type: 'tool-call', toolCallId: `call-${step}`, toolName: call.tool, input: JSON.stringify(call.input) }, { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }]
        : [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Done.' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }];
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p as never)), c.close()) }) };
    },
  });
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SENT = '00f067aa0ba902b7';

/** One turn of an agent route: generateText under the context a traceparent header starts. */
async function generateTurn(calls: Call[], mocks: Mock[] = [], options: { telemetry: TelemetryOptions } = { telemetry }): Promise<{ spans: Span[]; text: string }> {
  const result = await context.with(sentContext(TRACE, SENT), () =>
    generateText({ model: scriptedModel(calls), tools: mockTools(tools, mocks), prompt: 'Refund order 1234', stopWhen: isStepCount(5), telemetry: options.telemetry }),
  );
  return { spans: exporter.getFinishedSpans().map(toSpan), text: result.text };
}

const named = (spans: Span[], name: string): Span[] => spans.filter((s) => s.name === name);

describe('the spans AI SDK 7 emits through @ai-sdk/otel (what the mapping relies on)', () => {
  it('generateText: invoke_agent (usage totalled), one step span per step with a chat span (its usage), execute_tool with the tool name, arguments and result', async () => {
    const { spans } = await generateTurn([{ tool: 'find_order', input: { orderId: '1234' } }]);
    expect(spans.map((s) => s.name).sort()).toEqual(['chat mock-model-id', 'chat mock-model-id', 'execute_tool find_order', 'invoke_agent mock-model-id', 'step 1', 'step 2']);
    expect(spans.every((s) => s.traceId === TRACE)).toBe(true);
    const [root] = named(spans, 'invoke_agent mock-model-id');
    expect(root?.parentSpanId).toBe(SENT);
    // The agent-level span totals its steps' usage: read, it would count every token twice.
    expect(root?.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.usage.input_tokens': 20, 'gen_ai.usage.output_tokens': 10 });
    const steps = spans.filter((s) => /^step \d$/.test(s.name));
    for (const s of steps) expect(s).toMatchObject({ parentSpanId: root?.spanId, attributes: { 'gen_ai.operation.name': 'agent_step' } });
    const chats = named(spans, 'chat mock-model-id');
    for (const s of chats) expect(s.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 5 });
    expect(chats.map((s) => s.parentSpanId).sort()).toEqual(steps.map((s) => s.spanId).sort());
    const [call] = named(spans, 'execute_tool find_order');
    // The tool runs beside the model call, under the step: not inside the chat span.
    expect(call?.parentSpanId).toBe(steps.find((s) => s.name === 'step 1')?.spanId);
    expect(call?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'find_order',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': '{"orderId":"1234"}',
      'gen_ai.tool.call.result': '{"orderId":"1234","status":"delivered"}',
    });
  });

  it('a tool that throws: its execute_tool span has status ERROR with the message and no result; the step and agent spans do not fail', async () => {
    const { spans, text } = await generateTurn([{ tool: 'issue_refund', input: { orderId: 'broken' } }]);
    expect(text).toBe('Done.'); // the SDK hands the error to the model, which answers
    const [call] = named(spans, 'execute_tool issue_refund');
    expect(call).toMatchObject({ status: 'error', statusMessage: 'refunds service unavailable' });
    expect(call?.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(spans.filter((s) => s.status === 'error')).toHaveLength(1);
  });
});

describe('a turn of an AI SDK 7 agent read from its @ai-sdk/otel spans', () => {
  it('generateText: the tool calls from their spans, usage from the chat spans only (not invoke_agent again), model and tool time', async () => {
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
    // invoke_agent and the three step spans are of no kind.
    expect(reading.counts).toEqual({ count: 9, ignored: 4 });
    expect(Object.keys(reading.time?.tools ?? {})).toEqual(['find_order', 'issue_refund']);
    const time = reading.time!;
    expect(time.modelMs + time.toolMs + time.otherMs).toBe(Math.round(latencyMs));
  });

  it('streamText: the same spans, read the same', async () => {
    const text = await context.with(sentContext(TRACE, SENT), () =>
      streamText({ model: scriptedModel([{ tool: 'find_order', input: { orderId: '7' } }]), tools, prompt: 'Where is order 7?', stopWhen: isStepCount(5), telemetry }).text,
    );
    expect(text).toBe('Done.');
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans().map(toSpan);
    expect(spans.map((s) => s.name).sort()).toEqual(['chat mock-model-id', 'chat mock-model-id', 'execute_tool find_order', 'invoke_agent mock-model-id', 'step 1', 'step 2']);
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: null }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '7' }, output: { orderId: '7', status: 'delivered' }, mocked: false, source: 'trace' }]);
    expect(reading.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
  });

  it('a tool that throws: an errors entry naming the span and the message, so the script is errored', async () => {
    const { spans } = await generateTurn([{ tool: 'issue_refund', input: { orderId: 'broken' } }]);
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: 100 }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: 'broken' }, output: { error: 'refunds service unavailable' }, mocked: false, source: 'trace' }]);
    expect(reading.errors).toEqual([{ kind: 'span_error', tool: 'issue_refund', message: 'span execute_tool issue_refund failed: refunds service unavailable' }]);
    const turn = { index: 1, toolCalls: reading.toolCalls, errors: reading.errors } as Turn;
    expect(reportedError([turn])).toEqual({ errorKind: 'agent_error', error: 'turn 1: the agent reported an error (span_error, tool issue_refund): span execute_tool issue_refund failed: refunds service unavailable' });
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
    expect(turn?.toolCalls?.map((c) => [c.tool, c.mocked, c.output])).toEqual([
      ['find_order', true, { orderId: '1234', status: 'in-transit-mock' }],
      ['issue_refund', false, { error: expect.stringContaining('agent-replay: no mock answers') }],
    ]);
    expect(reading.errors).toEqual([expect.objectContaining({ kind: 'unmocked_tool', tool: 'issue_refund' })]);
    const error = reportedError([turn!], { mocks });
    expect(error?.errorKind).toBe('unmocked_tool');
    expect(error?.error).toContain('issue_refund');
  });

  it('recordOutputs: false records no tool result: the output is null, and in mocked mode a call a mock answered is unmocked', async () => {
    const mocks: Mock[] = [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { orderId: '1234', status: 'in-transit-mock' } }];
    const { spans } = await generateTurn([{ tool: 'find_order', input: { orderId: '1234' } }], mocks, { telemetry: { ...telemetry, recordOutputs: false } });
    const [call] = named(spans, 'execute_tool find_order');
    expect(call?.attributes['gen_ai.tool.call.arguments']).toBe('{"orderId":"1234"}');
    expect(call?.attributes['gen_ai.tool.call.result']).toBeUndefined();
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: 100 }, { toolCalls: null, usage: null });
    const [turn] = markMockedCalls([{ index: 1, toolCalls: reading.toolCalls, errors: reading.errors } as Turn], mocks);
    expect(turn?.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: null, mocked: false, source: 'trace' }]);
  });
});

describe("@ai-sdk/otel's LegacyOpenTelemetry (AI SDK 5's span names on AI SDK 7)", () => {
  it('ai.generateText, ai.generateText.doGenerate per step, ai.toolCall: read as the AI SDK 5 spans are', async () => {
    const legacy = { integrations: new LegacyOpenTelemetry({ tracer: provider.getTracer('shop') }) };
    const { spans } = await generateTurn([{ tool: 'find_order', input: { orderId: '1234' } }, { tool: 'issue_refund', input: { orderId: 'broken' } }], [], { telemetry: legacy });
    expect(spans.map((s) => s.name).sort()).toEqual(['ai.generateText', 'ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.generateText.doGenerate', 'ai.toolCall', 'ai.toolCall']);
    const reading = readTurnSpans(spans, { traceId: TRACE, latencyMs: 100 }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([
      { tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered' }, mocked: false, source: 'trace' },
      { tool: 'issue_refund', input: { orderId: 'broken' }, output: { error: 'refunds service unavailable' }, mocked: false, source: 'trace' },
    ]);
    expect(reading.errors).toEqual([{ kind: 'span_error', tool: 'issue_refund', message: 'span ai.toolCall failed: refunds service unavailable' }]);
    expect(reading.usage).toEqual({ inputTokens: 30, outputTokens: 15 });
  });
});
