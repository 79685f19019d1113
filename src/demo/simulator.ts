// The demo simulator: plays a simulated user (docs/personas.md, "Simulated users") by rules, not
// a model, on the demo judge's endpoint. A request is the simulator's when it asks for the
// `simulated_user` schema (or carries the simulator's plain prompt). Deterministic: it answers
// from the goal and from the user turns so far, so an accepted demo baseline replays word for word.
//   no user turn yet      -> "I want my money back" (the goal asks for a refund)
//   one                   -> "Order <the order number in the goal>"
//   two                   -> "It arrived broken" (the goal says so)
//   after the agent said "refunded", or three turns -> done, with the reason

/** Is this chat completions request the simulator's? */
export function isSimulatorRequest(body: Record<string, unknown>): boolean {
  const format = body.response_format as { json_schema?: { name?: unknown } } | undefined;
  if (format?.json_schema?.name === 'simulated_user') return true;
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return typeof messages[0]?.content === 'string' && messages[0].content.startsWith('You play the user of a chatbot');
}

/** The next user message, or done with a reason, for what the prompt says. */
function simulatedUserAnswer(prompt: string): { done: boolean; message: string | null; reason: string | null } {
  const goal = /Goal:\n([^\n]*)/.exec(prompt)?.[1] ?? '';
  const userTurns = (prompt.match(/\] User: /g) ?? []).length;
  const lastReply = [...prompt.matchAll(/\] Chatbot(?: \(welcome\))?: ([^\n]*)/g)].at(-1)?.[1] ?? '';
  if (/\brefunded\b/i.test(lastReply)) return { done: true, message: null, reason: 'goal reached: the agent refunded the order' };
  if (userTurns >= 3) return { done: true, message: null, reason: 'gave up: no refund after three messages' };
  if (userTurns === 0) return { done: false, message: /refund|money back/i.test(goal) ? 'I want my money back' : 'Hello', reason: null };
  if (userTurns === 1) {
    const order = /\border (\d{3,})\b/i.exec(goal)?.[1];
    return order !== undefined ? { done: false, message: `Order ${order}`, reason: null } : { done: true, message: null, reason: 'gave up: the goal names no order number' };
  }
  return { done: false, message: /broken|damaged/i.test(goal) ? 'It arrived broken' : 'It is not what I ordered', reason: null };
}

/** The chat completions response for one simulator request. */
export function simulatorTurn(body: Record<string, unknown>): unknown {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const content = JSON.stringify(simulatedUserAnswer(prompt));
  return { id: 'demo', object: 'chat.completion', model: 'demo-simulator', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}
