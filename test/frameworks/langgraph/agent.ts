import { createAgent, tool } from 'langchain';
import { mockLangGraphTool } from '../../../src/mocks/index.js';
import { z } from 'zod';
import { db } from './db.js';
import { model } from './model.js';

const findOrder = tool(
  mockLangGraphTool('find_order', async ({ orderId }: { orderId: string }) => db.orders.find(orderId)),
  { name: 'find_order', description: 'Look up an order', schema: z.object({ orderId: z.string() }) },
);

const issueRefund = tool(
  mockLangGraphTool('issue_refund', async (input: { orderId: string; reason: string }) => db.refunds.issue(input)),
  { name: 'issue_refund', description: 'Refund an order', schema: z.object({ orderId: z.string(), reason: z.string() }) },
);

export const graph = createAgent({ model, tools: [findOrder, issueRefund] });
