// A scripted multi-turn agent for persona tests, speaking the native protocol with the additions of
// docs/personas.md ("The protocol additions") over a real loopback server (see agent-server.ts). It
// keeps a turn count per session, calls tools from keywords in the message and answers them from
// the request's mocks, the way an agent under test should:
//
//   "money back"  -> conversations:refunds / start
//   "Order <n>"   -> calls find_order { orderId: "<n>", fields: ["status", "items"], meta: { channel: chat, depth: 2 } }
//   "broken"      -> handoff / human, outcome handoff, ended
//   "refund now"  -> calls issue_refund { orderId: "<last order>", amount: 1 }, outcome finish, ended
//   "bye"         -> goodbye / end, outcome finish, ended
//   anything else -> smalltalk / chat
//
// A tool call with no matching mock is reported `mocked: false` (the agent "called the real
// tool"); options, chosen by the request's persona tag, make it report errors, fail a turn with
// HTTP 500, end early, word its replies differently, or leave keys out.

import { startAgentServer, type AgentHandler, type AgentServer, type ReceivedRequest } from './agent-server.js';

export interface ShopAgentOptions {
  /** Message turn (1-based, per session) answered with HTTP 500. */
  failOnTurn?: number;
  /** Message turn that ends the conversation (`ended: true`, outcome finish). */
  endOnTurn?: number;
  /** Leave the `toolCalls` key out of every response. */
  hideToolCalls?: boolean;
  /** Leave the `outcome` key out of every response. */
  hideOutcome?: boolean;
  /** Also report an `errors` entry for a tool called without a mock. */
  reportErrors?: boolean;
  /** Appended to every message reply (a changed agent, for drift). */
  suffix?: string;
}

interface MockLike {
  tool: string;
  input?: unknown;
  match?: 'exact' | 'subset';
  output?: unknown;
}

/** Written independently of src/evaluate: the agent's side of mock matching. */
function subset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    const used = new Set<number>();
    // Greedy is enough for the small inputs this agent sees.
    return expected.every((e) => {
      const j = actual.findIndex((a, k) => !used.has(k) && subset(e, a));
      if (j === -1) return false;
      used.add(j);
      return true;
    });
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && subset(v, (actual as Record<string, unknown>)[k]));
  }
  return expected === actual;
}

function findMock(mocks: MockLike[], tool: string, input: unknown): MockLike | undefined {
  return mocks.find((m) => {
    if (m.tool !== tool) return false;
    if (m.input === undefined) return true;
    return m.match === 'exact' ? JSON.stringify(m.input) === JSON.stringify(input) : subset(m.input, input);
  });
}

/** `byPersona` chooses the options of a session by its persona tag (`persona: breaks-on-3`). */
export async function startShopAgent(byPersona: Record<string, ShopAgentOptions> = {}): Promise<AgentServer> {
  return startAgentServer(shopAgentHandler(byPersona));
}

/** The shop agent's handler, for a server started elsewhere. */
export function shopAgentHandler(byPersona: Record<string, ShopAgentOptions> = {}): AgentHandler {
  const turns = new Map<string, number>();
  const orders = new Map<string, string>();
  return (req: ReceivedRequest) => {
    const body = (req.json ?? {}) as { session?: string; message?: string; persona?: string | null; start?: boolean; mocks?: MockLike[] };
    const options = byPersona[String(body.persona)] ?? {};
    const session = String(body.session);
    const mocks = Array.isArray(body.mocks) ? body.mocks : [];
    const extras = (toolCalls: unknown[], outcome: string | null, errors: unknown[] = []): Record<string, unknown> => ({
      ...(options.hideToolCalls ? {} : { toolCalls }),
      ...(options.hideOutcome ? {} : { outcome }),
      ...(errors.length > 0 ? { errors } : {}),
    });
    if (body.start === true) {
      return { json: { reply: 'Welcome to the shop!', route: { conversation: 'conversations:welcome', stage: 'greeting' }, offTrack: [], ended: false, ...extras([], null) } };
    }
    const n = (turns.get(session) ?? 0) + 1;
    turns.set(session, n);
    if (n === options.failOnTurn) return { status: 500, json: { error: `turn ${n} broke` } };
    const message = String(body.message);
    const calls: unknown[] = [];
    const errors: unknown[] = [];
    const call = (tool: string, input: unknown): unknown => {
      const mock = findMock(mocks, tool, input);
      calls.push({ tool, input, output: mock ? (mock.output ?? null) : { real: true }, mocked: mock !== undefined });
      if (!mock && options.reportErrors) errors.push({ kind: 'unmocked_tool', tool, message: `no mock for ${tool}` });
      return mock?.output;
    };
    let reply = `You said: ${message}`;
    let route = { conversation: 'smalltalk', stage: 'chat' };
    let outcome: string | null = null;
    let ended = false;
    const order = /Order (\w+)/i.exec(message);
    if (/money back/i.test(message)) {
      reply = 'Sorry to hear that. What is your order number?';
      route = { conversation: 'conversations:refunds', stage: 'start' };
    } else if (order) {
      const id = order[1] as string;
      orders.set(session, id);
      const found = call('find_order', { orderId: id, fields: ['status', 'items'], meta: { channel: 'chat', depth: 2 } }) as { status?: string } | undefined;
      reply = `Order ${id} is ${found?.status ?? 'unknown'}. What went wrong?`;
      route = { conversation: 'refunds', stage: 'lookup' };
    } else if (/broken/i.test(message)) {
      reply = 'I am handing you to a colleague who can help.';
      route = { conversation: 'handoff', stage: 'human' };
      outcome = 'handoff';
      ended = true;
    } else if (/refund now/i.test(message)) {
      call('issue_refund', { orderId: orders.get(session) ?? null, amount: 1 });
      reply = 'Your refund is on its way.';
      route = { conversation: 'refunds', stage: 'done' };
      outcome = 'finish';
      ended = true;
    } else if (/bye/i.test(message)) {
      reply = 'Goodbye!';
      route = { conversation: 'goodbye', stage: 'end' };
      outcome = 'finish';
      ended = true;
    }
    if (n === options.endOnTurn) {
      outcome = 'finish';
      ended = true;
    }
    return { json: { reply: reply + (options.suffix ?? ''), route, offTrack: [], ended, ...extras(calls, outcome, errors) } };
  };
}
