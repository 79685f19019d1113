// The conversation every framework's fake model plays, from the prompt it receives (so the tests see
// what history the route got): the refund script of the persona tests.
//
//   "I want my money back"  -> "Which order is it about?"
//   "Order 1234"            -> calls find_order {orderId: "1234"}, then "Order 1234 is <status>."
//   "It arrived broken"     -> only when the FIRST user message asked for money back: calls
//                              issue_refund {orderId (from the history), reason: that first message},
//                              then "Refund <refundId> is on its way."; without history: "Which order?"
//   a message with "crash"  -> the model throws (an agent error)

export interface PromptMessage {
  role: string;
  text: string;
  toolResult: { tool: string; output: unknown } | null;
}

export type Answer = { kind: 'text'; text: string } | { kind: 'tool'; tool: string; input: Record<string, string> };

/** A field of a tool's output (an object, or its JSON text); '?' when the tool failed. */
const field = (output: unknown, key: string): string => {
  let value = output;
  if (typeof output === 'string') {
    try {
      value = JSON.parse(output);
    } catch {
      value = null;
    }
  }
  return value !== null && typeof value === 'object' ? String((value as Record<string, unknown>)[key] ?? '?') : '?';
};

export function scriptedAnswer(prompt: readonly PromptMessage[]): Answer {
  const last = prompt.at(-1);
  if (last?.toolResult) {
    const { tool, output } = last.toolResult;
    if (tool === 'find_order') return { kind: 'text', text: `Order ${field(output, 'orderId')} is ${field(output, 'status')}.` };
    return { kind: 'text', text: `Refund ${field(output, 'refundId')} is on its way.` };
  }
  const users = prompt.filter((m) => m.role === 'user' || m.role === 'human').map((m) => m.text);
  const text = users.at(-1) ?? '';
  if (/crash/i.test(text)) throw new Error('the scripted model crashed (asked to)');
  const order = /order (\d+)/i.exec(text);
  if (order) return { kind: 'tool', tool: 'find_order', input: { orderId: order[1]! } };
  if (/broken/i.test(text)) {
    const orderId = users.map((u) => /order (\d+)/i.exec(u)?.[1]).find((x) => x !== undefined);
    const first = users[0] ?? '';
    if (orderId !== undefined && /money back/i.test(first)) return { kind: 'tool', tool: 'issue_refund', input: { orderId, reason: first } };
    return { kind: 'text', text: 'Sorry to hear that. Which order is it?' };
  }
  return { kind: 'text', text: 'Which order is it about?' };
}
