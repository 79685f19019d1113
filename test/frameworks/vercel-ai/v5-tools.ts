// Two server tools on AI SDK 5 (`ai-v5`) for the span tests (traces-ai-sdk.test.ts, in-process;
// traces-done-when.test.ts, behind a route): find_order answers at once, issue_refund throws for
// order "broken".

import { tool } from 'ai-v5';
import { z } from 'zod';

export const tools = {
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
