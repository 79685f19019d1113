// The conversation every framework's fake model plays, from the prompt it receives (so the tests see
// what history the route got): the refund script of the persona tests.
//
//   "I want my money back"  -> "Which order is it about?"
//   "Order 1234"            -> calls find_order {orderId: "1234"}, then "Order 1234 is <status>."
//   "Please look up order 1234"
//                           -> says "Let me look that up." and calls find_order in the same step (as
//                              hosted models often do), then "Order 1234 is <status>."
//   "It arrived broken"     -> only when the FIRST user message asked for money back: calls
//                              issue_refund {orderId (from the history), reason: that first message},
//                              then "Refund <refundId> is on its way."; without history: "Which order?"
//   a message with "crash"  -> the model throws (an agent error)

export interface PromptMessage {
  role: string;
  text: string;
  toolResult: { tool: string; output: unknown } | null;
}

/** `say`: the text the model sends before its tool call, in the same step; absent: the call alone. */
export type Answer = { kind: 'text'; text: string } | { kind: 'tool'; tool: string; input: Record<string, string>; say?: string };

/** What the model says before its tool call when the user asked it to "look up" something. */
export const LOOK_UP_SAY = 'Let me look that up.';

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
  if (order) return { kind: 'tool', tool: 'find_order', input: { orderId: order[1]! }, ...(/look (it )?up/i.test(text) ? { say: LOOK_UP_SAY } : {}) };
  if (/broken/i.test(text)) {
    const orderId = users.map((u) => /order (\d+)/i.exec(u)?.[1]).find((x) => x !== undefined);
    const first = users[0] ?? '';
    if (orderId !== undefined && /money back/i.test(first)) return { kind: 'tool', tool: 'issue_refund', input: { orderId, reason: first } };
    return { kind: 'text', text: 'Sorry to hear that. Which order is it?' };
  }
  return { kind: 'text', text: 'Which order is it about?' };
}

// ---- AI SDK LanguageModelV2 (the fake models of AI SDK 5 and Mastra) --------------------------------

/** An AI SDK (V2+) prompt as the scripted model reads it. */
export function v2PromptOf(prompt: readonly { role: string; content: unknown }[]): PromptMessage[] {
  return prompt.map((m) => {
    if (typeof m.content === 'string') return { role: m.role, text: m.content, toolResult: null };
    const parts = m.content as { type: string; text?: string; toolName?: string; output?: { type: string; value: unknown } }[];
    const result = parts.find((p) => p.type === 'tool-result');
    return {
      role: m.role,
      text: parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join(''),
      toolResult: result ? { tool: result.toolName ?? '', output: result.output?.value ?? null } : null,
    };
  });
}

let calls = 0;

/** A text as stream parts: its start, several deltas (a real stream's reply is their concatenation), its end. */
function textParts(text: string): Record<string, unknown>[] {
  const words = text.split(/(?<= )/);
  return [{ type: 'text-start', id: 't1' }, ...words.map((delta) => ({ type: 'text-delta', id: 't1', delta })), { type: 'text-end', id: 't1' }];
}

/** The stream parts (V2 to V4 share these) of an answer: a tool call (after its `say` text), or the text in several deltas. */
export function v2StreamOf(answer: Answer): Record<string, unknown>[] {
  const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
  if (answer.kind === 'tool') {
    calls += 1;
    return [
      { type: 'stream-start', warnings: [] },
      ...(answer.say === undefined ? [] : textParts(answer.say)),
      { type: 'tool-call', toolCallId: `call-${answer.tool}-${calls}`, toolName: answer.tool, input: JSON.stringify(answer.input) },
      { type: 'finish', finishReason: 'tool-calls', usage },
    ];
  }
  return [{ type: 'stream-start', warnings: [] }, ...textParts(answer.text), { type: 'finish', finishReason: 'stop', usage }];
}

/** The content of a generated (not streamed) answer. */
export function v2ContentOf(answer: Answer): { content: Record<string, unknown>[]; finishReason: 'stop' | 'tool-calls' } {
  if (answer.kind === 'tool') {
    calls += 1;
    const call = { type: 'tool-call', toolCallId: `call-${answer.tool}-${calls}`, toolName: answer.tool, input: JSON.stringify(answer.input) };
    return { content: [...(answer.say === undefined ? [] : [{ type: 'text', text: answer.say }]), call], finishReason: 'tool-calls' };
  }
  return { content: [{ type: 'text', text: answer.text }], finishReason: 'stop' };
}
