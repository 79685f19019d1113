// Persona scripts in the runner: one slot per script for its whole conversation, shared with the
// fixtures under one concurrency bound; turns in order within a script; records in suite order.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay, type Progress } from '../../src/replay/index.js';
import type { AgentClient, Fixture, PersonaScript } from '../../src/types.js';
import { startAgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';
import { renderHtml } from '../../src/report/html.js';
import { renderComment, renderJUnit, renderTerminal } from '../../src/report/index.js';
import { ctx } from '../report/fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions();

function script(label: string, turns: number): PersonaScript {
  return {
    label,
    file: '.agent-replay/personas/p.yml',
    line: 1,
    persona: null,
    opening: `${label}-1`,
    followUps: Array.from({ length: turns - 1 }, (_, i) => `${label}-${i + 2}`),
    maxTurns: 20,
    threshold: 0.7,
    mocks: [],
    expect: { conversations: ['c'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
  };
}

function fixture(label: string): Fixture {
  return { label, message: `${label}-1`, persona: null, assertion: null, file: '.agent-replay/fixtures/f.yml', line: 1 };
}

/**
 * Holds every request; whenever as many are held as items can be in flight (the concurrency, or
 * the items not finished yet when fewer), releases the newest. An item's last request is known
 * from its message, so the test knows when an item finishes.
 */
async function gatedAgent(items: { lastMessage: string }[], concurrency: number) {
  const last = new Set(items.map((i) => i.lastMessage));
  let remaining = items.length;
  const held: { message: string; release: () => void }[] = [];
  let maxInFlight = 0;
  const snapshots: string[][] = [];
  const releaseIfFull = (): void => {
    if (held.length > 0 && held.length === Math.min(concurrency, remaining)) {
      snapshots.push(held.map((h) => h.message));
      const newest = held.pop() as (typeof held)[number];
      if (last.has(newest.message)) remaining -= 1;
      newest.release();
    }
  };
  const server = await startAgentServer(async (req) => {
    const body = req.json as { message: string; session: string };
    await new Promise<void>((release) => {
      held.push({ message: body.message, release });
      maxInFlight = Math.max(maxInFlight, held.length);
      releaseIfFull();
    });
    queueMicrotask(releaseIfFull);
    return { json: { reply: `echo: ${body.message}`, route: { conversation: 'c', stage: body.message }, toolCalls: [], outcome: null } };
  });
  cleanups.push(() => server.close());
  return {
    server,
    snapshots,
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

describe('replay with persona scripts', () => {
  it('scripts and fixtures share one concurrency bound; each script holds one slot and sends its turns in order', async () => {
    const scripts = [script('p1', 3), script('p2', 4), script('p3', 2)];
    const fixtures = ['f1', 'f2', 'f3', 'f4'].map(fixture);
    const items = [...scripts.map((s) => ({ lastMessage: s.followUps.at(-1) ?? s.opening ?? '' })), ...fixtures.map((f) => ({ lastMessage: f.message }))];
    const gate = await gatedAgent(items, 3);
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: gate.server.url, start: null, concurrency: 8, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const progress: Progress[] = [];
    const record = await replay({ fixtures: fixtures, personas: scripts, baselines: NO_BASELINES }, { agent: client, regex, judge: null, onProgress: (p) => progress.push(p) }, OPTIONS);

    expect(gate.maxInFlight).toBe(3);
    // At some moment a script's turn and a fixture were in flight together.
    expect(gate.snapshots.some((s) => s.some((m) => m.startsWith('p')) && s.some((m) => m.startsWith('f')))).toBe(true);
    // Turns in order within each session.
    const bySession = new Map<string, string[]>();
    for (const r of gate.server.requests) {
      const b = r.json as { session: string; message: string };
      bySession.set(b.session, [...(bySession.get(b.session) ?? []), b.message]);
    }
    for (const s of scripts) {
      const sent = [...bySession.values()].find((m) => m[0] === s.opening);
      expect(sent).toEqual([s.opening, ...s.followUps]);
    }
    expect(record.personas.map((p) => [p.label, p.verdict, p.turns.length])).toEqual([
      ['p1', 'pass', 3],
      ['p2', 'pass', 4],
      ['p3', 'pass', 2],
    ]);
    expect(record.fixtures.map((f) => f.label)).toEqual(['f1', 'f2', 'f3', 'f4']);
    expect(record.tallies).toEqual({ passed: 7, failed: 0, notEvaluated: 0, errored: 0 });
    expect(progress.at(-1)).toMatchObject({ done: 7, total: 7 });
    expect(record.interrupted).toBe(false);
  });

  it('an interrupted run records only the scripts that finished, marked interrupted', async () => {
    const controller = new AbortController();
    const server = await startAgentServer((req) => {
      const b = req.json as { message: string };
      // The second script's first turn stops the run: it never finishes.
      if (b.message === 'p2-1') {
        controller.abort();
        return 'hang';
      }
      return { json: { reply: 'ok', route: { conversation: 'c', stage: 's' } } };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 }, { signal: controller.signal });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const record = await replay({ fixtures: [], personas: [script('p1', 2), script('p2', 2), script('p3', 1)], baselines: NO_BASELINES }, { agent: client, regex, judge: null, signal: controller.signal }, { ...OPTIONS, concurrency: 1 });
    expect(record.interrupted).toBe(true);
    expect(record.personas.map((p) => p.label)).toEqual(['p1']);
  });

  it('a conversation that ends in its welcome turn is errored with every message unsent; an errors entry errors the script', async () => {
    const server = await startAgentServer((req) => {
      const b = req.json as { start?: boolean; persona: string | null };
      if (b.start && b.persona === 'welcome-error') return { json: { reply: 'Hello!', route: { conversation: 'main', stage: 'welcome' }, errors: [{ kind: 'crm_down', message: 'CRM unreachable' }] } };
      if (b.start) return { json: { reply: 'Closed today.', route: { conversation: 'closed', stage: 'bye' }, ended: b.persona === 'closed' } };
      return { json: { reply: 'ok', route: { conversation: 'c', stage: 's' }, toolCalls: [], errors: [{ kind: 'crm_down', message: 'CRM unreachable' }] } };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const closed = { ...script('closed', 2), persona: 'closed' };
    const welcomeError = { ...script('welcome-error', 1), persona: 'welcome-error' };
    const record = await replay({ fixtures: [], personas: [closed, script('open', 1), welcomeError], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const [a, b, w] = record.personas;
    expect(a).toMatchObject({ errored: true, errorKind: 'ended_in_welcome', verdict: null, unsent: ['closed-1', 'closed-2'], visited: ['closed'] });
    expect(a!.turns.map((t) => [t.index, t.message, t.reply])).toEqual([[0, null, 'Closed today.']]);
    expect(b).toMatchObject({ errored: true, errorKind: 'agent_error', error: 'turn 1: the agent reported an error (crm_down): CRM unreachable', unsent: [] });
    expect(b!.checks.map((c) => c.status)).toEqual(['pass']);
    // The welcome turn's error names that turn as every surface does ("Turn 0 (welcome)"), not "turn 0".
    expect(w).toMatchObject({ errored: true, errorKind: 'agent_error', error: 'turn 0 (welcome): the agent reported an error (crm_down): CRM unreachable' });
    // Under their shared error, each script's line gives its turn: the terminal, the comment, JUnit.
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toMatch(/welcome-error[^\n]*turn 0 \(welcome\)/);
    expect(terminal).not.toMatch(/turn 0(?! \(welcome\))/);
    const comment = renderComment(record, ctx);
    expect(comment).toMatch(/welcome-error[^\n]*turn 0 \(welcome\)/);
    expect(comment).not.toMatch(/turn 0(?! \\?\(welcome\\?\))/); // its markdown escapes the parentheses
    expect(renderJUnit(record)).toContain('turn 0 (welcome): the agent reported an error (crm_down): CRM unreachable');
    expect(renderHtml(record, {})).toContain('turn 0 (welcome): the agent reported an error (crm_down): CRM unreachable');
  });

  it("a script whose welcome turn the agent refused names that turn as every surface does, beside one refused on turn 1", async () => {
    const server = await startAgentServer((req) => {
      const b = req.json as { start?: boolean; persona: string | null };
      if (b.start && b.persona === 'greets') return { json: { reply: 'Hello!', route: { conversation: 'c', stage: 's' } } };
      return { status: 503, body: 'busy' };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const personas = [{ ...script('refused-welcome', 1), persona: 'refuses' }, { ...script('refused-opening', 1), persona: 'greets' }];
    const record = await replay({ fixtures: [], personas, baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const [w, o] = record.personas;
    // The welcome turn's HTTP error names it "turn 0 (welcome)", as an errors entry on it does, not "welcome turn".
    expect(w!.error).toMatch(/^turn 0 \(welcome\): agent returned HTTP 503/);
    expect(o!.error).toMatch(/^turn 1: agent returned HTTP 503/);
    // Under their shared cause, each script's line gives its turn: the terminal, the comment; JUnit and report.html the error whole.
    const terminal = renderTerminal(record, { color: false });
    expect(terminal).toMatch(/refused-welcome[^\n]*turn 0 \(welcome\)/);
    expect(terminal).toMatch(/refused-opening[^\n]*turn 1/);
    const comment = renderComment(record, ctx);
    expect(comment).toMatch(/refused-welcome[^\n]*turn 0 \\?\(welcome\\?\)/);
    for (const out of [terminal, comment, renderJUnit(record), renderHtml(record, {})]) expect(out).not.toContain('welcome turn:');
  });

  it('an AgentClient that throws errors that script only (internal)', async () => {
    const agent: AgentClient = {
      converse: () => Promise.reject(new Error('unused')),
      session: (req) => {
        if (req.session.endsWith('-boom')) throw new Error('socket exploded');
        return { welcome: async () => null, send: async (message) => ({ kind: 'replied', reply: message, route: { conversation: 'c', stage: 's' }, offTrack: [], ended: false, toolCalls: null, outcome: null, outcomeReported: false, errors: [] }) };
      },
      close: async () => undefined,
    };
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const record = await replay({ fixtures: [], personas: [script('boom', 2), script('fine', 2)], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    expect(record.personas.map((p) => [p.label, p.errored, p.errorKind])).toEqual([
      ['boom', true, 'internal'],
      ['fine', false, null],
    ]);
    expect(record.personas[0]).toMatchObject({ error: 'internal error replaying the script: socket exploded', unsent: ['boom-1', 'boom-2'], turns: [] });
  });

  it('mocked and live mode: a server-run tool is checked live without mocks, answered by a mock through its output, errored when no mock answers it', async () => {
    // A Vercel-AI-style agent whose tools run on the server: it answers find_order from the request's
    // mocks when it has one, else runs the real tool; the reported calls say nothing of mocking.
    const server = await startAgentServer((req) => {
      const b = req.json as { mocks?: { tool: string; output: unknown }[] };
      const mock = (b.mocks ?? []).find((m) => m.tool === 'find_order');
      const output = mock ? mock.output : { status: 'in transit' };
      return { json: { reply: 'Checked.', route: null, toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output }], outcome: null } };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const expect_ = { conversations: [], terminal: null, toolCalled: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset' as const }], toolNotCalled: [], criteria: [] };
    const live = { ...script('live', 1), expect: expect_ };
    const mocked = { ...live, label: 'mocked', mocks: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset' as const, output: { status: 'delivered' } }] };
    const wrong = { ...live, label: 'wrong', mocks: [{ tool: 'issue_refund', match: 'subset' as const, output: null }] };
    const strict = { ...live, label: 'strict', unmockedTools: 'error' as const };
    const lax = { ...wrong, label: 'lax', unmockedTools: 'allow' as const };
    const record = await replay({ fixtures: [], personas: [live, mocked, wrong, strict, lax], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const [l, m, w, st, lx] = record.personas;
    expect(l).toMatchObject({ errored: false, verdict: 'pass' });
    expect(l!.turns[0]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'in transit' }, mocked: false }]);
    expect(m).toMatchObject({ errored: false, verdict: 'pass' });
    expect(m!.turns[0]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: true }]);
    expect(w).toMatchObject({ errored: true, errorKind: 'unmocked_tool', verdict: null });
    expect(w!.error).toBe(
      "turn 1: the agent reported a call to find_order {\"orderId\": \"1234\"} that no mock answered (no mock is declared for it; mocked: false); the script declares mocks, so it runs in mocked mode and every tool call must be answered by a mock: declare a mock for find_order in mocks (or make the agent answer find_order from the request's mocks), or remove the script's mocks to test the agent's tools live",
    );
    // Its deterministic checks still ran on the turns that completed.
    expect(w!.checks.map((c) => c.status)).toEqual(['pass']);
    expect(st).toMatchObject({ errored: true, errorKind: 'unmocked_tool' });
    expect(lx).toMatchObject({ errored: false, verdict: 'pass' });
    // The mode is in the record: mocked when an unanswered call errors the script, live otherwise.
    expect(record.personas.map((p) => [p.label, p.toolMode])).toEqual([['live', 'live'], ['mocked', 'mocked'], ['wrong', 'mocked'], ['strict', 'mocked'], ['lax', 'live']]);
    expect(parseRecord(serializeRecord(record), 'results.json').personas.map((p) => p.toolMode)).toEqual(['live', 'mocked', 'mocked', 'mocked', 'live']);
    // config.yml's personas.unmockedTools applies to the scripts without their own.
    const configured = await replay({ fixtures: [], personas: [live, lax], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, { ...OPTIONS, unmockedTools: 'error' });
    expect(configured.personas.map((p) => p.errored)).toEqual([true, false]);
    expect(configured.personas.map((p) => p.toolMode)).toEqual(['mocked', 'live']);
    expect(configured.personas[0]!.error).toContain('config.yml sets personas.unmockedTools: error');
  });

  it('a tool output is recorded in one shape, the value, whether the agent carried it as an object, as JSON text or in a chat tool message', async () => {
    const items = (output: unknown) => [
      { role: 'assistant', content: null, tool_calls: [{ id: 'k1', type: 'function', function: { name: 'find_order', arguments: '{"orderId":"1234"}' } }] },
      { role: 'tool', tool_call_id: 'k1', content: output },
    ];
    const answers: Record<string, unknown> = {
      object: { reply: 'ok', route: null, toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'delivered' } }], outcome: null },
      text: { reply: 'ok', route: null, toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: '{"status": "delivered"}' }], outcome: null },
      chat: { reply: 'ok', route: null, toolCalls: items('{"status":"delivered"}'), outcome: null },
      sentence: { reply: 'ok', route: null, toolCalls: items('Delivered on Monday.'), outcome: null },
    };
    const server = await startAgentServer((req) => ({ json: answers[(req.json as { message: string }).message.replace(/-1$/, '')] }));
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const record = await replay({ fixtures: [], personas: Object.keys(answers).map((l) => script(l, 1)), baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const outputs = record.personas.map((p) => p.turns[0]?.toolCalls?.[0]?.output);
    expect(outputs).toEqual([{ status: 'delivered' }, { status: 'delivered' }, { status: 'delivered' }, 'Delivered on Monday.']);
  });

  it('expect.reply checks run on the replies, regexes in the worker pool, and are recorded with the other checks', async () => {
    const server = await startAgentServer((req) => {
      const b = req.json as { message: string };
      return { json: { reply: b.message === 'bye' ? 'Goodbye!' : `Refunds take 30 days (${b.message})`, ended: b.message === 'bye' } };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const reply = [
      { contains: '30 days', turn: 'any' as const },
      { regex: 'goodbye', flags: 'i', turn: 'last' as const },
      { regex: '(', flags: '', turn: 1 },
      { contains: 'x', turn: 3 },
    ];
    const s = { ...script('replies', 3), followUps: ['bye', 'still there?'], expect: { conversations: ['c'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [], reply } };
    const record = await replay({ fixtures: [], personas: [s], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const p = record.personas[0]!;
    expect(p).toMatchObject({ errored: false, verdict: 'fail', unsent: ['still there?'] });
    expect(p.checks.map((c) => [c.kind, c.status, c.detail])).toEqual([
      ['conversations', 'not_evaluated', 'the agent does not report routes'],
      ['reply', 'pass', 'turn 1: reply contains "30 days"'],
      ['reply', 'pass', 'turn 2: /goodbye/i matched "Goodbye"'],
      ['reply', 'not_evaluated', expect.stringMatching(/^turn 1: pattern does not compile: /)],
      ['reply', 'fail', 'turn 3 was not sent: the conversation ended at turn 2'],
    ]);
  });

  it('the record keeps who ended each scripted conversation: the agent with messages unsent, the agent on the last message, or the script; not an errored one', async () => {
    const server = await startAgentServer((req) => {
      const b = req.json as { message: string };
      if (b.message === 'broken-2') return { status: 500, body: 'down' };
      return { json: { reply: `echo: ${b.message}`, route: { conversation: 'c', stage: 's' }, ended: b.message === 'early-2' || b.message === 'last-3' } };
    });
    cleanups.push(() => server.close());
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 });
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const scripts = ['early', 'last', 'never', 'broken'].map((l) => script(l, 3));
    const record = await replay({ fixtures: [], personas: scripts, baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
    const ended = (r: typeof record): unknown[] => r.personas.map((p) => [p.label, p.turns.length, p.unsent.length, p.endedBy]);
    expect(ended(record)).toEqual([
      ['early', 2, 1, 'agent'],
      // The agent's stop signal on the script's last message: both ended it at that turn.
      ['last', 3, 0, 'both'],
      ['never', 3, 0, 'script'],
      ['broken', 1, 2, undefined],
    ]);
    // Kept through results.json.
    expect(ended(parseRecord(serializeRecord(record), 'results.json'))).toEqual(ended(record));
  });
});
