import { Agent, run, tool, type AgentInputItem } from '@openai/agents';
import { mockAgentsTool } from '../../../src/mocks/index.js';
import { z } from 'zod';
import { db } from './db.js';
import { model } from './model.js';

const findOrder = tool(
  mockAgentsTool({
    name: 'find_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }: { orderId: string }) => JSON.stringify(await db.orders.find(orderId)),
  }),
);
const issueRefund = tool(
  mockAgentsTool({
    name: 'issue_refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input: { orderId: string; reason: string }) => JSON.stringify(await db.refunds.issue(input)),
  }),
);
const agent = new Agent({ name: 'support', instructions: 'Help with orders.', model, tools: [findOrder, issueRefund] });

// POST /api/agent  { input: [{role, content}], mocks? }
export async function POST(req: Request): Promise<Response> {
  const { input, mocks } = (await req.json()) as { input: { role: string; content: string }[]; mocks?: unknown };
  const items = input.map((m): AgentInputItem =>
    m.role === 'assistant' ? { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] } : { role: 'user', content: m.content },
  );
  const result = await run(agent, items, { context: { mocks } });
  return Response.json({ output: result.newItems.map((item) => item.rawItem) });
}
