import { convertToModelMessages, createUIMessageStreamResponse, isStepCount, streamText, tool, toUIMessageStream, type UIMessage } from 'ai';
import { mockTools } from '../../../src/mocks/index.js';
import { z } from 'zod';
import { db } from './db.js';
import { model } from './model.js';

const tools = {
  find_order: tool({
    description: 'Look up an order',
    inputSchema: z.object({ orderId: z.string() }),
    execute: async ({ orderId }) => db.orders.find(orderId),
  }),
  issue_refund: tool({
    description: 'Refund an order',
    inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input) => db.refunds.issue(input),
  }),
};

export async function POST(req: Request): Promise<Response> {
  const { messages, mocks } = (await req.json()) as { messages: UIMessage[]; mocks?: unknown };
  const result = streamText({
    model,
    messages: await convertToModelMessages(messages),
    tools: mockTools(tools, mocks), // mocks in, tools answer from them
    stopWhen: isStepCount(5),
  });
  return createUIMessageStreamResponse({
    stream: toUIMessageStream({
      stream: result.stream,
      // the tokens of every step, for agent-replay's usage (optional)
      messageMetadata: ({ part }) => (part.type === 'finish' ? { usage: part.totalUsage } : undefined),
    }),
  });
}
