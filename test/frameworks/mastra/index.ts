import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { mockMastraTool } from '../../../src/mocks/index.js';
import { z } from 'zod';
import { db } from './db.js';
import { model } from './model.js';

const findOrder = createTool({
  id: 'find_order',
  description: 'Look up an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: mockMastraTool('find_order', async ({ orderId }: { orderId: string }) => db.orders.find(orderId)),
});

const issueRefund = createTool({
  id: 'issue_refund',
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), reason: z.string() }),
  execute: mockMastraTool('issue_refund', async (input: { orderId: string; reason: string }) => db.refunds.issue(input)),
});

export const support = new Agent({
  id: 'support',
  name: 'Support',
  instructions: 'You help customers with their orders.',
  model,
  tools: { find_order: findOrder, issue_refund: issueRefund },
});

export const mastra = new Mastra({ agents: { support } });
