// The demo agent over real HTTP on 127.0.0.1: the refund flow turn by turn, tools answered from the
// request's mocks (subset and exact as each mock says), unmocked calls reported as errors, the
// handoff and switch outcomes, and sessions kept apart. Plus the demo judge's transcript rules.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import { DEMO_WORDING_SEED, DemoAgent, wordingOf } from '../../src/demo/agent.js';
import { judgeAnswer, readJudgePrompt } from '../../src/demo/judge.js';
import { mockMatches, type Json } from '../../src/demo/mocks.js';
import { judgeUserMessage, transcriptUserMessage } from '../../src/judge/index.js';
import type { Turn } from '../../src/types.js';

let server: DemoServer;
beforeAll(async () => {
  server = await startDemoServer();
});
afterAll(async () => {
  await server.close();
});

interface Wire {
  reply: string;
  route: { conversation: string; stage: string };
  offTrack: string[];
  ended: boolean;
  toolCalls: { tool: string; input: Json; output: Json; mocked: boolean }[];
  outcome: string | null;
  errors: { kind: string; tool: string; message: string }[];
}

async function post(body: Record<string, unknown>): Promise<{ status: number; json: Wire }> {
  const res = await fetch(server.agentUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Wire };
}

const FIND_1234 = { tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered', item: 'hiking boots', total: 40 } };
const REFUND_1234 = { tool: 'issue_refund', input: { orderId: '1234' }, output: { refundId: 'R-77' } };

/** Plays a whole conversation in one session: the welcome turn, then each message, mocks every turn. */
async function conversation(session: string, messages: string[], mocks: unknown[]): Promise<Wire[]> {
  const turns = [(await post({ session, persona: null, start: true, mocks })).json];
  for (const message of messages) {
    const { status, json } = await post({ session, message, persona: 'impatient-refund-seeker', mocks });
    expect(status).toBe(200);
    turns.push(json);
  }
  return turns;
}

describe('demo agent: refund flow over HTTP', () => {
  it('asks for the order, looks it up from the mock, refunds from the mock and finishes', async () => {
    const [welcome, opening, order, broken] = await conversation('s-pass', ['I want my money back', 'Order 1234', 'It arrived broken'], [FIND_1234, REFUND_1234]);
    expect(welcome).toEqual({ reply: 'Welcome to Example Outfitters! How can I help?', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false, toolCalls: [], outcome: null, errors: [] });
    expect(opening).toMatchObject({ route: { conversation: 'refunds', stage: 'ask-order' }, toolCalls: [], outcome: null, ended: false, errors: [] });
    expect(opening!.reply).toContain('order number');
    expect(order).toMatchObject({
      route: { conversation: 'refunds', stage: 'order-found' },
      toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: FIND_1234.output, mocked: true }],
      outcome: null,
      errors: [],
    });
    expect(order!.reply).toBe('Thanks: order 1234 (hiking boots) is delivered. What went wrong with it?');
    expect(broken).toEqual({
      reply: 'I am sorry it arrived broken. I have refunded 40 EUR for order 1234 (refund R-77).',
      route: { conversation: 'refunds', stage: 'refunded' },
      offTrack: [],
      ended: true,
      toolCalls: [{ tool: 'issue_refund', input: { orderId: '1234', amount: 40, reason: 'arrived broken' }, output: { refundId: 'R-77' }, mocked: true }],
      outcome: 'finish',
      errors: [],
    });
  });

  it('hands off to a human when the mocked order is above the refund limit, calling no refund tool', async () => {
    const mocks = [{ ...FIND_1234, output: { status: 'delivered', item: 'tent', total: 250 } }];
    const turns = await conversation('s-handoff', ['I want my money back', 'Order 1234', 'It arrived broken'], mocks);
    const last = turns.at(-1)!;
    expect(last).toMatchObject({ route: { conversation: 'handoff', stage: 'human' }, ended: true, outcome: 'handoff', toolCalls: [], errors: [] });
    expect(last.reply).toContain('support team');
  });

  it('reports a tool no mock answers with mocked: false and an unmocked_tool error, and goes on', async () => {
    const turns = await conversation('s-unmocked', ['I want my money back', 'Order 1234', 'It arrived broken'], [FIND_1234]);
    const last = turns.at(-1)!;
    expect(last.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', amount: 40, reason: 'arrived broken' }, output: null, mocked: false }]);
    expect(last.errors).toHaveLength(1);
    expect(last.errors[0]).toMatchObject({ kind: 'unmocked_tool', tool: 'issue_refund' });
    expect(last.errors[0]!.message).toContain('no mock answers issue_refund');
    expect(last).toMatchObject({ outcome: 'finish', ended: true, reply: 'I am sorry it arrived broken. I have refunded 40 EUR for order 1234.' });
  });

  it('honours each mock match mode: exact refuses extra keys and "1234" vs 1234, subset accepts extra keys', async () => {
    const exactExtra = { tool: 'find_order', input: { orderId: '1234', region: 'eu' }, match: 'exact', output: { status: 'delivered' } };
    const exactNumber = { tool: 'find_order', input: { orderId: 1234 }, match: 'exact', output: { status: 'delivered' } };
    const [, , unmatched] = await conversation('s-exact-miss', ['I want my money back', 'Order 1234'], [exactExtra, exactNumber]);
    expect(unmatched!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: null, mocked: false }]);
    expect(unmatched!.errors.map((e) => e.kind)).toEqual(['unmocked_tool']);
    expect(unmatched!.route.stage).toBe('ask-order');

    const exactHit = { tool: 'find_order', input: { orderId: '1234' }, match: 'exact', output: { status: 'shipped' } };
    const [, , hit] = await conversation('s-exact-hit', ['I want my money back', 'Order 1234'], [exactExtra, exactHit]);
    expect(hit!.toolCalls[0]).toMatchObject({ mocked: true, output: { status: 'shipped' } });

    // A mock with no input answers any call of its tool.
    const anyInput = { tool: 'find_order', output: { status: 'lost' } };
    const [, , any] = await conversation('s-any', ['I want my money back', 'Order 98765'], [anyInput]);
    expect(any!.toolCalls[0]).toMatchObject({ input: { orderId: '98765' }, mocked: true, output: { status: 'lost' } });
  });

  it('keeps sessions apart and answers a known question mid-flow with outcome switch', async () => {
    await post({ session: 'a', message: 'I want my money back', mocks: [] });
    const other = await post({ session: 'b', message: 'Order 1234', mocks: [FIND_1234] });
    expect(other.json).toMatchObject({ route: { conversation: 'fallback', stage: 'unknown' }, toolCalls: [] });
    const switched = await post({ session: 'a', message: 'When are you open?', mocks: [] });
    expect(switched.json).toMatchObject({ route: { conversation: 'store-info', stage: 'hours' }, outcome: 'switch', ended: false });
    const after = await post({ session: 'a', message: 'Order 1234', mocks: [FIND_1234] });
    expect(after.json.route.conversation).toBe('fallback');
  });

  it('keeps every single-message answer of the fixtures, with empty tool calls and no outcome', async () => {
    const refund = await post({ session: 'f', message: 'Can I get my money back?' });
    expect(refund.json).toMatchObject({ reply: 'You have 30 days to return anything, and we refund it in full.', route: { conversation: 'refunds', stage: 'policy' }, toolCalls: [], outcome: null });
    const outage = await post({ session: 'g', message: 'Check my order status' });
    expect(outage.status).toBe(503);
    const blocked = await post({ session: 'h', persona: 'blocked-customer', start: true });
    expect(blocked.json).toMatchObject({ ended: true, route: { stage: 'closed' } });
  });

  it('asks again for a message with no order number or no known problem, and finishes a change of mind without a refund', async () => {
    const turns = await conversation('s-mind', ['I want my money back', 'I lost it', 'Order 1234', 'Hmm', 'I changed my mind'], [FIND_1234, REFUND_1234]);
    expect(turns.slice(1).map((t) => t.route.stage)).toEqual(['ask-order', 'ask-order', 'order-found', 'ask-problem', 'return-label']);
    expect(turns[2]!.toolCalls).toEqual([]);
    expect(turns.at(-1)).toMatchObject({ ended: true, outcome: 'finish', toolCalls: [], reply: 'No problem: send order 1234 back unused within 30 days and you get a full refund.' });
  });

  it('says so when the mocked lookup finds no order, and stays at the order question', async () => {
    const [, , missing] = await conversation('s-missing', ['I want my money back', 'Order 4040'], [{ tool: 'find_order', output: { found: false } }]);
    expect(missing).toMatchObject({ reply: 'I could not find order 4040. Could you check the number?', route: { stage: 'ask-order' }, toolCalls: [{ tool: 'find_order', mocked: true }], errors: [] });
  });

  it('words some answers differently from call to call, seeded: one seed gives the same words on every run (docs/meaning.md)', () => {
    const refund = (seed: number, session: string) => (new DemoAgent(10, seed).handle({ session, message: 'Can I get my money back?' }).body as Wire).reply;
    // The same seed, message and attempt: the same words, whatever the session (its run id).
    expect(refund(DEMO_WORDING_SEED, 'agent-replay-run-a-refund-policy')).toBe(refund(DEMO_WORDING_SEED, 'agent-replay-run-b-refund-policy'));
    // Another seed, or another attempt of a repeated item: other words, the same facts.
    const words = [refund(DEMO_WORDING_SEED, 's'), refund(8, 's'), refund(DEMO_WORDING_SEED, 's-3')];
    expect(new Set(words).size).toBe(3);
    for (const w of words) expect(w).toContain('30 days');
    // The demo's repeated item says one variant of its baseline in attempts 1 and 3, the other in attempt 2.
    expect([1, 2, 3].map((n) => wordingOf(DEMO_WORDING_SEED, 'How long does delivery take?', `x-${n}`))).toEqual([
      'Your parcel arrives in 2 to 4 working days.',
      'Expect your order within 2 to 4 working days.',
      'Your parcel arrives in 2 to 4 working days.',
    ]);
    // A message without wordings keeps its one answer.
    expect(wordingOf(DEMO_WORDING_SEED, 'Do you sell hiking boots?', 's')).toBeNull();
  });

  it('forgets the oldest flow beyond its session limit', () => {
    const agent = new DemoAgent(2);
    for (const s of ['x', 'y', 'z']) agent.handle({ session: s, message: 'I want my money back' });
    expect(agent.openFlows).toBe(2);
    expect(agent.handle({ session: 'x', message: 'Order 1234', mocks: [FIND_1234] }).body).toMatchObject({ route: { conversation: 'fallback' } });
    expect(agent.handle({ session: 'z', message: 'Order 1234', mocks: [FIND_1234] }).body).toMatchObject({ route: { stage: 'order-found' } });
  });
});

describe('demo agent: mock matching', () => {
  it.each<[Json, Json, boolean]>([
    [{ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 }, true],
    [{ a: { b: 1 } }, { a: { b: '1' } }, false],
    [{ a: 1 }, {}, false],
    [[{ id: 2 }, { id: 1 }], [{ id: 1, x: 0 }, { id: 2 }], true],
    [[{ id: 1 }, { id: 1 }], [{ id: 1 }, { id: 2 }], false],
    [[1], 1, false],
    [null, null, true],
  ])('subset %j in %j: %s', (expected, actual, result) => {
    expect(mockMatches({ tool: 't', input: expected }, 't', actual)).toBe(result);
    expect(mockMatches({ tool: 't', input: expected, match: 'subset' }, 't', actual)).toBe(result);
  });

  it.each<[Json, Json, boolean]>([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [[1, 2], [2, 1], false],
    [1, '1', false],
  ])('exact %j vs %j: %s', (a, b, result) => {
    expect(mockMatches({ tool: 't', input: a, match: 'exact' }, 't', b)).toBe(result);
  });

  it('answers only calls of its own tool; a mock without input answers any call of it', () => {
    expect(mockMatches({ tool: 'find_order', input: { orderId: '1' } }, 'issue_refund', { orderId: '1' })).toBe(false);
    expect(mockMatches({ tool: 'find_order' }, 'find_order', { anything: [1, 2] })).toBe(true);
    expect(mockMatches({ tool: 'find_order', match: 'exact' }, 'find_order', null)).toBe(true);
  });
});

describe('demo judge: keyword rules over a reply or a transcript', () => {
  // As src/judge/prompt.ts writes it for a persona criterion.
  const turns: Turn[] = [
    { index: 0, message: null, reply: 'Welcome!', route: null, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: 1 },
    { index: 1, message: 'I want my money back', reply: 'What is your\norder number?', route: null, offTrack: [], toolCalls: [], outcome: null, errors: [], durationMs: 1 },
    { index: 2, message: 'Order 1234, I am sorry to ask', reply: 'I have refunded 40 EUR for order 1234.', route: null, offTrack: [], toolCalls: [{ tool: 'issue_refund', input: { note: 'sorry: order 999' }, output: null, mocked: true }], outcome: 'finish', errors: [], durationMs: 1 },
  ];
  const transcript = transcriptUserMessage('Stayed empathetic', turns);

  it('reads only the agent turns of a transcript (not the user, not the tool calls)', () => {
    const { criterion, agentText } = readJudgePrompt(transcript);
    expect(criterion).toBe('Stayed empathetic');
    expect(agentText).toBe('Welcome!\nWhat is your\norder number?\nI have refunded 40 EUR for order 1234.');
  });

  it('reads the reply of a fixture prompt', () => {
    expect(readJudgePrompt(judgeUserMessage('c', 'so sorry\ntwo lines'))).toEqual({ criterion: 'c', agentText: 'so sorry\ntwo lines' });
  });

  it('scores deterministically, rationale first, and answers prose for an opinion', () => {
    const agentText = readJudgePrompt(transcript).agentText;
    expect(JSON.parse(judgeAnswer('Mentioned the order number', agentText))).toEqual({ rationale: 'The agent repeats the order number back.', score: 0.9 });
    expect(Object.keys(JSON.parse(judgeAnswer('Stayed empathetic', agentText)) as object)).toEqual(['rationale', 'score']);
    expect(JSON.parse(judgeAnswer('Stayed empathetic', agentText))).toMatchObject({ score: 0.2 });
    expect(JSON.parse(judgeAnswer('Offered a replacement', agentText))).toMatchObject({ score: 0.2 });
    expect(() => JSON.parse(judgeAnswer('Gave an opinion on competitors', agentText))).toThrow();
    expect(JSON.parse(judgeAnswer('Handed over to a human', agentText))).toMatchObject({ score: 0.2 });
    expect(JSON.parse(judgeAnswer('Handed over to a human', 'I am handing you over to our support team.'))).toMatchObject({ score: 0.9 });
  });
});
