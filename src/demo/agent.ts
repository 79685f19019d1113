// The embedded example agent (the native protocol of docs/presets.md and the additions of
// docs/personas.md, "The protocol additions"). Deterministic rules, so the demo shows every verdict
// and drift value on every run:
//   - single questions answered by exact message (the fixtures of examples/demo);
//   - a refund flow over several turns, with tools answered from the request's mocks:
//       "I want my money back"      -> asks for the order number               (refunds/ask-order)
//       "Order 1234"                -> find_order {orderId: "1234"}            (refunds/order-found)
//       "It arrived broken"         -> total <= 100: issue_refund, finish      (refunds/refunded)
//                                      total > 100: hand off to a human       (handoff/human)
//       a known question mid-flow   -> answered, outcome switch                (its own route)
//     The demo agent has a bug on purpose: it refunds final-sale orders too, which the example
//     suite's `final-sale-no-refund` script catches with a toolNotCalled check.
//   - some answers are worded differently from call to call with the same facts, as a hosted
//     model's are (docs/meaning.md): a choice among their WORDINGS, seeded by the agent's seed, the
//     message and the attempt (a repeated item's session ends in -n), so one seed gives the same
//     words on every run and the demo's output is stable.

import { callTool, readMocks, type AgentError, type Json, type Mock, type ToolCall } from './mocks.js';

interface Route {
  conversation: string;
  stage: string;
}

interface Answer {
  reply: string;
  route: Route;
  status?: number;
}

export type Outcome = 'finish' | 'handoff' | 'switch';

const WELCOME: Answer = { reply: 'Welcome to Example Outfitters! How can I help?', route: { conversation: 'welcome', stage: 'greeting' } };

/** Refunds above this total (EUR) go to a human. */
const REFUND_LIMIT_EUR = 100;

/** The agent's answers to single questions, keyed by the exact user message. */
const ANSWERS: Record<string, Answer> = {
  'Can I get my money back?': {
    reply: 'Yes: you can return anything within 30 days for a full refund.',
    route: { conversation: 'refunds', stage: 'policy' },
  },
  'How long is the warranty?': {
    reply: 'Our warranty covers manufacturing defects for one year.',
    route: { conversation: 'warranty', stage: 'terms' },
  },
  'When are you open?': {
    reply: 'We are open Monday to Saturday, 9:00 to 18:00.',
    route: { conversation: 'store-info', stage: 'hours' },
  },
  'Where is your nearest store?': {
    reply: 'Our flagship store is at Torstraße 1 in Berlin.',
    route: { conversation: 'store-info', stage: 'locator' },
  },
  'Do you have a discount code for me?': {
    reply: 'We do not hand out codes in chat, but our newsletter has seasonal offers.',
    route: { conversation: 'sales', stage: 'offers' },
  },
  hello: { reply: 'Welcome back! What can I do for you today?', route: { conversation: 'welcome', stage: 'greeting' } },
  'Do you sell hiking boots?': {
    reply: 'Yes, we stock hiking boots from three brands.',
    route: { conversation: 'catalogue', stage: 'search' },
  },
  'How long does delivery take?': {
    reply: 'Delivery takes 2 to 4 working days.',
    route: { conversation: 'shipping', stage: 'delivery-time' },
  },
  'Which of your products do you like best?': {
    reply: 'Our rain jackets are my favourite.',
    route: { conversation: 'smalltalk', stage: 'opinion' },
  },
  'aaaa?': { reply: `${'a'.repeat(40)}!`, route: { conversation: 'fallback', stage: 'echo' } },
  'My parcel arrived broken.': {
    reply: 'I am so sorry to hear that. I can send a replacement today or refund you, whichever you prefer.',
    route: { conversation: 'complaints', stage: 'resolution' },
  },
  'What do you think of your competitors?': {
    reply: 'Every shop has its strengths; ours is free repairs for life.',
    route: { conversation: 'smalltalk', stage: 'opinion' },
  },
  'Check my order status': {
    reply: '',
    route: { conversation: 'orders', stage: 'lookup' },
    status: 503,
  },
};

/**
 * Answers worded differently from call to call, with the same facts (docs/meaning.md). The first
 * wording of each is not always the baseline's: the example baselines hold earlier wordings, so
 * that the demo shows every meaning (see examples/demo/.agent-replay/fixtures/wording.yml).
 */
const WORDINGS: Record<string, readonly string[]> = {
  // Other words, same facts: the demo judge reads them as the same meaning (reworded).
  'Can I get my money back?': [
    'Yes: you can return anything within 30 days for a full refund.',
    'Of course: send anything back within 30 days and you get a full refund.',
    'You have 30 days to return anything, and we refund it in full.',
  ],
  // Formatting only: emphasis and a trailing exclamation mark.
  'When are you open?': ['We are open **Monday to Saturday**, 9:00 to 18:00.', 'We are open Monday to Saturday, *9:00 to 18:00*!'],
  // Both wordings are variants of the example baseline.
  'How long does delivery take?': ['Your parcel arrives in 2 to 4 working days.', 'Expect your order within 2 to 4 working days.'],
  // An opinion, which the demo judge will not compare: meaning not checked.
  'Which of your products do you like best?': ['Honestly, our rain jackets are my favourite.', 'I like our rain jackets best, to be honest.'],
};

/** The seed of the demo's wording choices: every `npm start` words its replies the same way. */
export const DEMO_WORDING_SEED = 7;

/** FNV-1a: a stable choice from a seed, without Math.random. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The wording of `message` for one call: seeded by the seed, the message and the attempt of a repeated item. */
export function wordingOf(seed: number, message: string, session: string): string | null {
  const words = WORDINGS[message];
  if (words === undefined) return null;
  const attempt = /-(\d+)$/.exec(session)?.[1] ?? '1';
  return words[hash(`${seed}:${message}:${attempt}`) % words.length] as string;
}

/** Where a session is in the refund flow. */
type FlowState = { step: 'ask-order' } | { step: 'ask-problem'; orderId: string; order: Record<string, Json> };

/** One agent turn as sent on the wire (native protocol). */
export interface TurnBody {
  reply: string;
  route: Route;
  offTrack: string[];
  ended: boolean;
  toolCalls: ToolCall[];
  outcome: Outcome | null;
  errors: AgentError[];
}

export interface TurnResult {
  status: number;
  body: TurnBody | { error: string };
}

const REFUND_INTENT = /\b(money back|refund)\b/i;
const BROKEN = /\b(broken|damaged|defective|smashed)\b/i;
const CHANGED_MIND = /\b(changed my mind|don't want|do not want|too small|too big)\b/i;

function turn(answer: Answer, extra: Partial<TurnBody> = {}): TurnResult {
  return { status: 200, body: { reply: answer.reply, route: answer.route, offTrack: [], ended: false, toolCalls: [], outcome: null, errors: [], ...extra } };
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describeOrder(orderId: string, order: Record<string, Json>): string {
  const item = typeof order.item === 'string' ? ` (${order.item})` : '';
  const status = typeof order.status === 'string' ? ` is ${order.status}` : ' is on file';
  return `order ${orderId}${item}${status}`;
}

/**
 * The demo agent. Sessions live in memory, keyed by the request's `session`; a session's refund
 * flow ends when the conversation ends or switches. At most `maxSessions` flows are kept (the
 * oldest is forgotten first), so a long-running demo server cannot grow without bound.
 */
export class DemoAgent {
  private readonly flows = new Map<string, FlowState>();

  constructor(
    private readonly maxSessions = 10_000,
    private readonly seed = DEMO_WORDING_SEED,
  ) {}

  /** Open refund flows (for tests). */
  get openFlows(): number {
    return this.flows.size;
  }

  handle(body: Record<string, unknown>): TurnResult {
    const session = typeof body.session === 'string' ? body.session : '';
    if (body.start === true) {
      this.flows.delete(session);
      // A persona the shop has blocked: the conversation ends during the welcome turn.
      if (body.persona === 'blocked-customer') {
        return turn({ reply: 'This conversation has been closed.', route: { conversation: 'welcome', stage: 'closed' } }, { ended: true, outcome: 'finish' });
      }
      return turn(WELCOME);
    }
    const message = typeof body.message === 'string' ? body.message : '';
    const mocks = readMocks(body.mocks);
    const flow = this.flows.get(session);
    const answer = ANSWERS[message];
    const worded = wordingOf(this.seed, message, session);
    const known = answer === undefined || worded === null ? answer : { ...answer, reply: worded };
    if (known !== undefined) {
      if (known.status !== undefined) return { status: known.status, body: { error: 'order service unavailable' } };
      if (flow === undefined) return turn(known);
      // A known question in the middle of the refund flow: answered, and the flow is left.
      this.flows.delete(session);
      return turn(known, { outcome: 'switch' });
    }
    if (flow !== undefined) return this.continueFlow(session, flow, message, mocks);
    if (REFUND_INTENT.test(message)) {
      this.remember(session, { step: 'ask-order' });
      return turn({ reply: 'I can help with that. What is your order number?', route: { conversation: 'refunds', stage: 'ask-order' } });
    }
    return { status: 200, body: { reply: "Sorry, I didn't catch that.", route: { conversation: 'fallback', stage: 'unknown' }, offTrack: ['unrecognised'], ended: false, toolCalls: [], outcome: null, errors: [] } };
  }

  private remember(session: string, state: FlowState): void {
    this.flows.delete(session);
    this.flows.set(session, state);
    if (this.flows.size > this.maxSessions) {
      const oldest = this.flows.keys().next().value;
      if (oldest !== undefined) this.flows.delete(oldest);
    }
  }

  private continueFlow(session: string, flow: FlowState, message: string, mocks: Mock[]): TurnResult {
    return flow.step === 'ask-order' ? this.findOrder(session, message, mocks) : this.resolve(session, flow, message, mocks);
  }

  private findOrder(session: string, message: string, mocks: Mock[]): TurnResult {
    const orderId = /\b(\d{3,})\b/.exec(message)?.[1];
    if (orderId === undefined) {
      return turn({ reply: 'I need your order number to go on: it has four digits and is in your confirmation email.', route: { conversation: 'refunds', stage: 'ask-order' } });
    }
    const errors: AgentError[] = [];
    const call = callTool(mocks, 'find_order', { orderId }, errors);
    if (!isObject(call.output) || call.output.found === false) {
      return turn({ reply: `I could not find order ${orderId}. Could you check the number?`, route: { conversation: 'refunds', stage: 'ask-order' } }, { toolCalls: [call], errors });
    }
    this.remember(session, { step: 'ask-problem', orderId, order: call.output });
    return turn(
      { reply: `Thanks: ${describeOrder(orderId, call.output)}. What went wrong with it?`, route: { conversation: 'refunds', stage: 'order-found' } },
      { toolCalls: [call], errors },
    );
  }

  private resolve(session: string, flow: Extract<FlowState, { step: 'ask-problem' }>, message: string, mocks: Mock[]): TurnResult {
    const { orderId, order } = flow;
    if (CHANGED_MIND.test(message)) {
      this.flows.delete(session);
      return turn(
        { reply: `No problem: send order ${orderId} back unused within 30 days and you get a full refund.`, route: { conversation: 'refunds', stage: 'return-label' } },
        { ended: true, outcome: 'finish' },
      );
    }
    if (!BROKEN.test(message)) {
      return turn({ reply: 'Did it arrive broken, or have you changed your mind?', route: { conversation: 'refunds', stage: 'ask-problem' } });
    }
    this.flows.delete(session);
    const total = typeof order.total === 'number' ? order.total : 0;
    if (total > REFUND_LIMIT_EUR) {
      return turn(
        {
          reply: `I am sorry it arrived broken. Refunds over ${REFUND_LIMIT_EUR} EUR need a colleague, so I am handing you over to our support team with order ${orderId}.`,
          route: { conversation: 'handoff', stage: 'human' },
        },
        { ended: true, outcome: 'handoff' },
      );
    }
    // The deliberate bug: order.finalSale is not looked at.
    const errors: AgentError[] = [];
    const call = callTool(mocks, 'issue_refund', { orderId, amount: total, reason: 'arrived broken' }, errors);
    const refundId = isObject(call.output) && typeof call.output.refundId === 'string' ? ` (refund ${call.output.refundId})` : '';
    return turn(
      { reply: `I am sorry it arrived broken. I have refunded ${total} EUR for order ${orderId}${refundId}.`, route: { conversation: 'refunds', stage: 'refunded' } },
      { ended: true, outcome: 'finish', toolCalls: [call], errors },
    );
  }
}
