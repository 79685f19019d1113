// The previous LangGraph agent API, createReactAgent from @langchain/langgraph/prebuilt (deprecated
// in 1.7 for langchain's createAgent, agent.ts), served by the same dev server as graph "react":
// tools answer from `config.configurable.mocks` with the mocks helper.

import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { mockLangGraphTool } from '../../../src/mocks/index.js';
import { model } from './model.js';

const findOrder = tool(
  mockLangGraphTool('find_order', async ({ orderId }: { orderId: string }) => ({ orderId, status: 'delivered', source: 'orders-db' })),
  { name: 'find_order', description: 'Look up an order', schema: z.object({ orderId: z.string() }) },
);
const issueRefund = tool(
  mockLangGraphTool('issue_refund', async ({ orderId }: { orderId: string; reason: string }) => ({ refundId: `R-LIVE-${orderId}` })),
  { name: 'issue_refund', description: 'Refund an order', schema: z.object({ orderId: z.string(), reason: z.string() }) },
);
const escalate = tool(async () => ({ ticket: 'T-1' }), { name: 'escalate', description: 'Hand over to a human', schema: z.object({}) });

export const graph = createReactAgent({ llm: model, tools: [findOrder, issueRefund, escalate] });
