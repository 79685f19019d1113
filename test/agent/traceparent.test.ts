// A W3C trace context on every agent request (docs/traces.md, "traceparent"): a fresh trace id and
// span id per turn (the welcome turn included), a fresh span id per retried attempt, version 00,
// sampled; a user's own traceparent sent unchanged; the record keeps the trace id that went out.
// Checked on a real loopback server that records headers, for fixtures, scripted and simulated
// scripts, streaming and JSON presets.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, observeTurns, spanObserver } from '../../src/agent/index.js';
import { parseTraceparent, traceContext } from '../../src/agent/trace-context.js';
import { runCheck } from '../../src/engine.js';
import { defaultConfig, PRESETS, type AgentConfig, type AgentPreset } from '../../src/config.js';
import type { AgentClient, Clock, SentTrace, SpanSource } from '../../src/types.js';
import { nativeEcho, startAgentServer, type AgentHandler, type AgentServer } from '../support/agent-server.js';
import { startSimulatorServer } from '../simulator/server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const clock: Clock = { now: () => 0, sleep: async () => undefined };
const HEADER = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

async function serve(handler: AgentHandler = nativeEcho): Promise<AgentServer> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  return server;
}

/** Deterministic bytes: the n-th call returns `size` bytes of value n (1, 2, ...). */
function countingBytes(): (size: number) => Uint8Array {
  let n = 0;
  return (size) => new Uint8Array(size).fill(++n);
}

function client(overrides: Partial<AgentConfig>, deps: Parameters<typeof createHttpAgentClient>[1] = {}): AgentClient {
  const c = createHttpAgentClient({ ...defaultConfig().agent, retries: 0, ...overrides }, { clock, randomBytes: countingBytes(), ...deps });
  cleanups.push(() => c.close());
  return c;
}

const sentIds = (server: AgentServer): (SentTrace | null)[] => server.requests.map((r) => parseTraceparent(String(r.headers.traceparent)));

describe('traceparent from the HTTP client', () => {
  it('a fixture with a welcome turn: two requests, each its own trace; the outcome keeps the message turn\'s', async () => {
    const server = await serve();
    const outcome = await client({ url: server.url }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual([
      `00-${'01'.repeat(16)}-${'02'.repeat(8)}-01`,
      `00-${'03'.repeat(16)}-${'04'.repeat(8)}-01`,
    ]);
    expect(outcome).toMatchObject({ kind: 'replied', traceId: '03'.repeat(16) });
  });

  it('a session: the welcome turn and every message turn get a fresh trace, told before the request is sent and kept on the turn', async () => {
    const server = await serve();
    const told: { trace: SentTrace; requestsBefore: number }[] = [];
    const s = client({ url: server.url }, { onTraceSent: (trace) => told.push({ trace, requestsBefore: server.requests.length }) }).session({ session: 'S', persona: null, mocks: [] });
    const turns = [await s.welcome(), await s.send('one', 1), await s.send('two', 2)];
    const sent = sentIds(server);
    expect(new Set(sent.map((t) => t?.traceId)).size).toBe(3);
    expect(turns.map((t) => t?.trace)).toEqual(sent);
    expect(told).toEqual(sent.map((trace, i) => ({ trace, requestsBefore: i })));
  });

  it('a retried attempt is the same turn, in the same trace, under a parent span id of its own, told just before it is sent; the turn keeps the answered one', async () => {
    const server = await serve((req) => (req.index === 0 ? { status: 503, json: { error: 'busy' } } : { json: { reply: 'ok' } }));
    const told: { trace: SentTrace; requestsBefore: number }[] = [];
    const outcome = await client({ url: server.url, start: null, retries: 1, backoffMs: 1 }, { onTraceSent: (trace) => told.push({ trace, requestsBefore: server.requests.length }) }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual([`00-${'01'.repeat(16)}-${'02'.repeat(8)}-01`, `00-${'01'.repeat(16)}-${'03'.repeat(8)}-01`]);
    expect(told).toEqual(sentIds(server).map((trace, i) => ({ trace, requestsBefore: i })));
    expect(outcome).toMatchObject({ kind: 'replied', traceId: '01'.repeat(16), trace: { traceId: '01'.repeat(16), spanId: '03'.repeat(8) } });
  });

  it('a traceparent in agent.headers goes out unchanged on a retried attempt too', async () => {
    const own = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const server = await serve((req) => (req.index === 0 ? { status: 503, json: { error: 'busy' } } : { json: { reply: 'ok' } }));
    const outcome = await client({ url: server.url, start: null, retries: 1, backoffMs: 1, headers: { traceparent: own } }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual([own, own]);
    expect(outcome).toMatchObject({ kind: 'replied', trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' } });
  });

  it('a traceparent in agent.headers is sent unchanged on every turn (any case), and its trace id is the one recorded', async () => {
    const own = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const server = await serve();
    const c = client({ url: server.url, headers: { TraceParent: own, tracestate: 'vendor=abc' } });
    const s = c.session({ session: 'S', persona: null, mocks: [] });
    const turns = [await s.welcome(), await s.send('one', 1)];
    const outcome = await c.converse({ session: 'F', message: 'hi', persona: null });
    for (const r of server.requests) {
      expect(r.headers.traceparent).toBe(own);
      expect(r.headers.tracestate).toBe('vendor=abc');
    }
    expect(turns.map((t) => t?.trace)).toEqual([
      { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' },
      { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' },
    ]);
    expect(outcome).toMatchObject({ kind: 'replied', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
  });

  it('a tracestate alone goes out unchanged beside a fresh traceparent; a user traceparent we cannot read is sent and nothing is recorded', async () => {
    const server = await serve();
    await client({ url: server.url, start: null, headers: { tracestate: 'k=v' } }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests[0]?.headers).toMatchObject({ tracestate: 'k=v', traceparent: expect.stringMatching(HEADER) });
    const bad = await client({ url: server.url, start: null, headers: { traceparent: 'not-a-trace' } }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests[1]?.headers.traceparent).toBe('not-a-trace');
    expect(bad.kind === 'replied' && 'traceId' in bad).toBe(false);
  });

  it('the default random source: 2,000 turns, over many refills of its pool, get 2,000 different valid trace ids and span ids', () => {
    const maker = traceContext({});
    const traces = new Set<string>();
    const spans = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const { trace, header } = maker.next();
      expect(header).toMatch(HEADER);
      expect(header).toBe(`00-${trace?.traceId}-${trace?.spanId}-01`);
      traces.add(trace?.traceId ?? '');
      spans.add(trace?.spanId ?? '');
    }
    expect(traces.size).toBe(2000);
    expect(spans.size).toBe(2000);
  });

  it('all-zero ids are invalid: drawn again', async () => {
    const server = await serve();
    const draws = [0, 0, 7, 9];
    await client({ url: server.url, start: null }, { randomBytes: (size) => new Uint8Array(size).fill(draws.shift() ?? 1) }).converse({ session: 'F', message: 'hi', persona: null });
    expect(server.requests[0]?.headers.traceparent).toBe(`00-${'07'.repeat(16)}-${'09'.repeat(8)}-01`);
  });

  it('a span observer registers the trace that went out before the request, and collects it after the reply', async () => {
    const server = await serve();
    const calls: string[] = [];
    const source: SpanSource = {
      register: (traceId) => void calls.push(`register ${traceId} at ${server.requests.length}`),
      collect: async (traceId) => {
        calls.push(`collect ${traceId} at ${server.requests.length}`);
        return { spans: [], complete: true };
      },
      late: () => 0,
      close: async () => undefined,
    };
    const observer = spanObserver(source, (fromResponse) => fromResponse);
    const agent = observeTurns(client({ url: server.url, start: null }, { onTraceSent: (t) => observer.beforeSend(t) }), observer);
    await agent.session({ session: 'S', persona: null, mocks: [] }).send('one', 1);
    const id = sentIds(server)[0]?.traceId;
    expect(calls).toEqual([`register ${id} at 0`, `collect ${id} at 1`]);
  });
});

describe('traceparent on every preset', () => {
  const replies: Record<AgentPreset, unknown> = {
    native: { reply: 'ok' },
    'openai-chat': { choices: [{ message: { role: 'assistant', content: 'ok' } }] },
    'openai-responses': { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }] },
    'anthropic-messages': { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    'rasa-rest': [{ recipient_id: 'S', text: 'ok' }],
    'vercel-ai': null,
    langgraph: { messages: [{ type: 'ai', content: 'ok' }] },
    mastra: { text: 'ok' },
  };
  const SSE = ['data: {"type":"start"}', 'data: {"type":"text-start","id":"t"}', 'data: {"type":"text-delta","id":"t","delta":"ok"}', 'data: {"type":"text-end","id":"t"}', 'data: {"type":"finish"}', 'data: [DONE]', ''].join('\n\n');

  for (const preset of Object.keys(PRESETS) as AgentPreset[]) {
    it(`${preset}: a fixture and a session turn each carry their own traceparent`, async () => {
      const server = await serve(() => (preset === 'vercel-ai' ? { headers: { 'content-type': 'text/event-stream' }, body: SSE } : { json: replies[preset] }));
      const info = PRESETS[preset];
      const c = client({ url: server.url, preset, mapping: info.mapping, start: null, stream: info.alwaysStreams, headers: info.headers ?? {}, model: 'm' });
      const outcome = await c.converse({ session: 'F', message: 'hi', persona: null });
      const turn = await c.session({ session: 'S', persona: null, mocks: [] }).send('hi', 1);
      expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok' });
      expect(turn).toMatchObject({ kind: 'replied', reply: 'ok' });
      const sent = sentIds(server);
      expect(server.requests.map((r) => r.headers.traceparent)).toEqual([expect.stringMatching(HEADER), expect.stringMatching(HEADER)]);
      expect(outcome.kind === 'replied' ? outcome.traceId : null).toBe(sent[0]?.traceId);
      expect(turn.trace).toEqual(sent[1]);
    });
  }
});

describe('the record keeps each turn\'s trace id (engine, fixtures, scripted and simulated)', () => {
  it('fixtures, a scripted and a simulated script: every turn, welcome included, has the trace id its request carried', async () => {
    const agent = await serve();
    const sim = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: 'and then?' } : { done: true, reason: 'enough' }));
    cleanups.push(() => sim.close());
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-trace-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'personas'), { recursive: true });
    await writeFile(
      join(dir, 'config.yml'),
      `agent:\n  url: ${agent.url}\n  retries: 0\n  concurrency: 1\nsimulator: { baseUrl: "${sim.url}", model: sim-model, apiKey: k }\ncost: { capUsd: 5 }\n`,
    );
    await writeFile(join(dir, 'fixtures', 'f.yml'), 'fixtures:\n  - { label: hello, message: hello, assert: { contains: echo } }\n');
    await writeFile(
      join(dir, 'personas', 'p.yml'),
      'personas:\n  - { label: scripted, opening: one, followUps: [two], expect: { conversations: [echo] } }\n' +
        '  - { label: simulated, opening: start, user: { goal: chat, maxTurns: 3 }, expect: { conversations: [echo] } }\n',
    );
    const result = await runCheck({ dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null }, { clock: { now: () => 1_000_000, sleep: async () => undefined } });
    if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}: ${JSON.stringify(result.kind === 'config_errors' ? result.errors : null)}`);
    // Each request's trace id, by what it sent: the session and the message (a welcome turn has none).
    const byRequest = new Map(agent.requests.map((r) => {
      const body = r.json as { session: string; message?: string };
      return [`${body.session} ${body.message ?? '(welcome)'}`, parseTraceparent(String(r.headers.traceparent))?.traceId];
    }));
    const ids = [...byRequest.values()];
    expect(ids.every((id) => id !== undefined && /^[0-9a-f]{32}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(agent.requests.length);
    const fixture = result.record.fixtures[0];
    expect(fixture?.traceId).toBe(agent.requests.filter((r) => (r.json as { message?: string }).message === 'hello').map((r) => parseTraceparent(String(r.headers.traceparent))?.traceId)[0]);
    const scripts = Object.fromEntries(result.record.personas.map((p) => [p.label, p]));
    expect(scripts.scripted?.turns.map((t) => t.message)).toEqual([null, 'one', 'two']);
    expect(scripts.simulated?.turns.map((t) => t.message)).toEqual([null, 'start', 'and then?']);
    for (const script of result.record.personas) {
      for (const t of script.turns) {
        const match = agent.requests.find((r) => {
          const body = r.json as { session: string; message?: string; start?: boolean };
          return parseTraceparent(String(r.headers.traceparent))?.traceId === t.traceId && (t.message === null ? body.start === true : body.message === t.message);
        });
        expect(match, `${script.label} turn ${t.index}`).toBeDefined();
      }
    }
  });
});
