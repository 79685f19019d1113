// The "database" the example agents' tools read: what ran for real (live mode runs the tools,
// mocked mode must not). Shared by the docs' example routes and agents under test/frameworks/.
// Order 0 makes find_order throw (a tool that fails: docs/traces.md, "Errors").

export const ranForReal: { tool: string; input: unknown }[] = [];

export const db = {
  orders: {
    find: async (orderId: string) => {
      ranForReal.push({ tool: 'find_order', input: { orderId } });
      if (orderId === '0') throw new Error('the orders service is unavailable');
      return { orderId, status: 'delivered', source: 'orders-db' };
    },
  },
  refunds: {
    issue: async (input: { orderId: string; reason: string }) => (ranForReal.push({ tool: 'issue_refund', input }), { refundId: `R-LIVE-${input.orderId}` }),
  },
};
