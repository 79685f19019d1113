// A Vercel AI SDK 5 chat route (the previous major, installed as `ai-v5`) as `useChat` talks to it (stateless: the whole UIMessage history on
// every request), on node:http: streamText over convertToModelMessages, server tools with execute,
// and the mocks helper. The model is the SDK's MockLanguageModelV2, playing the scripted conversation.

import { createServer, type Server } from 'node:http';
import { convertToModelMessages, stepCountIs, streamText, tool, type UIMessage } from 'ai-v5';
import { MockLanguageModelV2, simulateReadableStream } from 'ai-v5/test';
import { z } from 'zod';
import { mockTools } from '../../../src/mocks/index.js';
import { readJson } from '../support.js';
import { scriptedAnswer, v2PromptOf, v2StreamOf } from '../scripted-model.js';

/** What the real (server-run) tools did: live mode runs them, mocked mode must not. */
export const ranForReal: { tool: string; input: unknown }[] = [];

const tools = {
  find_order: tool({
    description: 'Look up an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => (ranForReal.push({ tool: 'find_order', input: { orderId } }), { orderId, status: 'delivered', source: 'orders-db' }),
  }),
  issue_refund: tool({
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input) => (ranForReal.push({ tool: 'issue_refund', input }), { refundId: `R-LIVE-${input.orderId}` }),
  }),
  escalate: tool({ description: 'Hand over to a human', inputSchema: z.object({}), execute: async () => ({ ticket: 'T-1' }) }),
};

/** A part of a LanguageModelV2 stream, as the mock model returns them. */
type StreamPart = Awaited<ReturnType<MockLanguageModelV2['doStream']>>['stream'] extends ReadableStream<infer T> ? T : never;

export const model = new MockLanguageModelV2({
  doStream: async ({ prompt }) => {
    const answer = scriptedAnswer(v2PromptOf(prompt as { role: string; content: unknown }[]));
    return { stream: simulateReadableStream({ chunks: v2StreamOf(answer) as StreamPart[], chunkDelayInMs: null }) };
  },
});

/** The route: POST { id, messages: UIMessage[], mocks? } -> the UI message stream. */
export function startRoute(): Promise<{ server: Server; url: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    void readJson(req).then(async (body) => {
      bodies.push(body);
      const { messages, mocks } = body as { messages: UIMessage[]; mocks?: unknown };
      const result = streamText({
        model,
        messages: convertToModelMessages(messages),
        tools: mockTools(tools, mocks),
        stopWhen: stepCountIs(5),
      });
      // The tokens of every step, on the finish part: what agent-replay reads as the turn's usage
      // (docs/frameworks/vercel-ai.md).
      result.pipeUIMessageStreamToResponse(res, { messageMetadata: ({ part }) => (part.type === 'finish' ? { usage: part.totalUsage } : undefined) });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    resolve({ server, url: `http://127.0.0.1:${address.port}/api/chat`, bodies });
  }));
}
