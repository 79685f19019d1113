// Where a turn's tool calls come from (docs/traces.md, "Where tool calls come from"): the turn
// observer applied to a real HTTP client's sessions. The response-only default changes nothing; an
// observer that finds calls elsewhere (as a span reader does) keeps a turn whose body held neither
// a reply nor a call, instead of the turn failing before its spans were read.
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, observeTurns, responseOnly } from '../../src/agent/index.js';
import { ANTHROPIC_MESSAGES_MAPPING, defaultConfig, type AgentConfig } from '../../src/config.js';
import type { AgentClient, SessionTurn, ToolCall, TurnObserver, TurnReport } from '../../src/types.js';
import { startAgentServer, type AgentHandler } from '../support/agent-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function client(handler: AgentHandler, overrides: Partial<AgentConfig> = {}): Promise<AgentClient> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  const c = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, retries: 0, start: null, ...overrides }, { clock: { now: () => 0, sleep: async () => undefined } });
  cleanups.push(() => c.close());
  return c;
}

const LOOKUP: ToolCall = { tool: 'lookup_order', input: { orderId: '1' }, output: { status: 'delivered' }, mocked: false, source: 'trace' };

/** An observer that finds one call outside the response, as a span reader would; it records what it was handed. */
function findsCall(): TurnObserver & { seen: TurnReport[] } {
  const seen: TurnReport[] = [];
  return {
    seen,
    beforeSend: () => undefined,
    afterReply: async (_trace, fromResponse) => {
      seen.push(fromResponse);
      return { ...fromResponse, toolCalls: [...(fromResponse.toolCalls ?? []), LOOKUP], usage: { inputTokens: 7, outputTokens: 3 } };
    },
  };
}

describe('turn observers', () => {
  it('the response-only default answers as the client does: replies, calls and a missing reply alike', async () => {
    const answers: Record<string, unknown> = { calls: { reply: 'hi', toolCalls: [{ tool: 'a', input: {}, output: null, mocked: true }] }, none: { reply: null } };
    const raw = await client((req) => ({ json: answers[String((req.json as { message: string }).message)] }));
    const plain = raw.session({ session: 'S', persona: null, mocks: [] });
    const observed = observeTurns(raw, responseOnly).session({ session: 'S', persona: null, mocks: [] });
    // Each turn has its own trace: compared without it.
    const untraced = (t: SessionTurn): unknown => JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'trace' ? undefined : v)));
    expect(untraced(await observed.send('calls', 1))).toEqual(untraced(await plain.send('calls', 1)));
    const missing = await observed.send('none', 2);
    expect(untraced(missing)).toEqual(untraced(await plain.send('none', 2)));
    expect(missing).toMatchObject({ kind: 'errored', errorKind: 'missing_reply', error: 'turn 2: response has no string at "reply" (found null; the response is an object (keys: reply))' });
  });

  it('a body with no reply and no call is kept as a calls-only turn when the observer finds calls', async () => {
    const observer = findsCall();
    const agent = observeTurns(await client(() => ({ json: { reply: null, outcome: 'finish' } })), observer);
    const turn = await agent.session({ session: 'S', persona: null, mocks: [] }).send('m', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: '', toolCalls: [LOOKUP], outcome: 'finish', outcomeReported: true, usage: { inputTokens: 7, outputTokens: 3 } });
    // The observer was handed what the response reported: no calls, no errors, no usage.
    expect(observer.seen).toEqual([{ toolCalls: null, errors: [], usage: null, latencyMs: 0 }]);
  });

  it('a decoded preset whose answer has no text and no tool call is kept the same way (anthropic-messages)', async () => {
    const body = { type: 'message', role: 'assistant', content: [], stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 0 } };
    const raw = await client(() => ({ json: body }), { mapping: ANTHROPIC_MESSAGES_MAPPING });
    expect(await raw.session({ session: 'S', persona: null, mocks: [] }).send('m', 1)).toMatchObject({
      kind: 'errored',
      errorKind: 'missing_reply',
      error: expect.stringMatching(/^turn 1: no reply text and no tool call could be read from the response/),
    });
    const turn = await observeTurns(raw, findsCall()).session({ session: 'S', persona: null, mocks: [] }).send('m', 2);
    expect(turn).toMatchObject({ kind: 'replied', reply: '', toolCalls: [LOOKUP] });
  });

  it('an observer that finds no call leaves the error as it was', async () => {
    const none: TurnObserver = { beforeSend: () => undefined, afterReply: async (_t, r) => ({ ...r, toolCalls: [] }) };
    const turn = await observeTurns(await client(() => ({ json: { reply: null } })), none).session({ session: 'S', persona: null, mocks: [] }).send('m', 1);
    expect(turn).toMatchObject({ kind: 'errored', errorKind: 'missing_reply' });
  });

  it('a replied turn gets the observer\'s calls beside the response\'s; fixtures pass through unchanged', async () => {
    const agent = observeTurns(await client(() => ({ json: { reply: 'ok', toolCalls: [{ tool: 'a', input: {}, output: null, mocked: true }] } })), findsCall());
    const turn = await agent.session({ session: 'S', persona: null, mocks: [] }).send('m', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'ok', toolCalls: [{ tool: 'a', input: {}, output: null, mocked: true }, LOOKUP] });
    expect(await agent.converse({ session: 'F', message: 'm', persona: null })).toMatchObject({ kind: 'replied', reply: 'ok', turns: 1 });
  });
});
