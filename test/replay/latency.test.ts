// Latency through the whole replay (docs/latency.md): a real HTTP agent on 127.0.0.1 moves the
// client's injected clock by the time each message names, so the record's figures are exact.

import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay, type ReplayOptions } from '../../src/replay/index.js';
import type { Clock, Fixture, PersonaScript } from '../../src/types.js';
import { nativeEcho, startAgentServer } from '../support/agent-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS: ReplayOptions = {
  concurrency: 1,
  estimate: { usd: 0, capUsd: 0.1, aboveCap: false, confirmed: false },
  commit: null,
  tool: { name: 'agent-replay', version: 'test' },
  agentHost: null,
  judgeName: null,
};

function fixture(label: string, message: string): Fixture {
  return { label, message, persona: null, assertion: { kind: 'contains', value: 'echo' }, file: '.agent-replay/fixtures/f.yml', line: 1 };
}

const SCRIPT: PersonaScript = {
  label: 'script',
  file: '.agent-replay/personas/p.yml',
  line: 1,
  persona: null,
  opening: 'takes 50',
  followUps: ['takes 400'],
  maxTurns: 20,
  threshold: 0.7,
  mocks: [],
  expect: { conversations: ['echo'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
};

/** Welcome turns take 1000 ms; a message turn takes the ms its message names ("takes 120"). */
async function timedAgent() {
  const clock: Clock & { t: number } = { t: 0, now: () => clock.t, sleep: async () => undefined };
  const server = await startAgentServer((req) => {
    const body = req.json as { start?: boolean; message?: string };
    clock.t += body.start === true ? 1000 : Number(/takes (\d+)/.exec(body.message ?? '')?.[1] ?? 0);
    return nativeEcho(req);
  });
  cleanups.push(() => server.close());
  const agent = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, concurrency: 1, retries: 0 }, { clock });
  cleanups.push(() => agent.close());
  const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
  cleanups.push(() => regex.close());
  return { agent, regex };
}

describe('latency in the record', () => {
  it('records each turn, sums per item and the run p50 / p95 over message turns (welcome turns apart)', async () => {
    const { agent, regex } = await timedAgent();
    const fixtures = [fixture('a', 'takes 100'), fixture('b', 'takes 300'), fixture('c', 'takes 200')];
    const record = await replay({ fixtures, personas: [SCRIPT], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);

    expect(record.fixtures.map((f) => [f.label, f.latencyMs, f.firstTokenMs, f.welcomeLatencyMs])).toEqual([
      ['a', 100, null, 1000],
      ['b', 300, null, 1000],
      ['c', 200, null, 1000],
    ]);
    const script = record.personas[0]!;
    expect(script.turns.map((t) => [t.index, t.latencyMs, t.firstTokenMs])).toEqual([
      [0, 1000, null],
      [1, 50, null],
      [2, 400, null],
    ]);
    expect([script.latencyMs, script.firstTokenMs]).toEqual([1450, null]);
    // Message turns 50, 100, 200, 300, 400: nearest rank p50 is the 3rd, p95 the 5th.
    expect(record.latency).toEqual({ turns: 5, p50Ms: 200, p95Ms: 400 });
    // Latency is recorded, never judged: every fixture passes its contains check.
    expect(record.fixtures.map((f) => f.verdict)).toEqual(['pass', 'pass', 'pass']);
    // The fields are part of results.json: written and read back unchanged.
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
  });

  it('expect.maxTurnLatencyMs is one check over the message turns: it names the slowest and fails every turn over budget', async () => {
    const { agent, regex } = await timedAgent();
    const scripts: PersonaScript[] = [
      // The welcome turn (1000 ms) is not a message turn: within 500 ms a turn, this one passes.
      { ...SCRIPT, label: 'within', expect: { ...SCRIPT.expect, maxTurnLatencyMs: 500 } },
      { ...SCRIPT, label: 'over', opening: 'takes 350', expect: { ...SCRIPT.expect, maxTurnLatencyMs: 300 } },
      // Strictly more than the budget fails: 400 ms against 400 passes.
      { ...SCRIPT, label: 'edge', expect: { ...SCRIPT.expect, maxTurnLatencyMs: 400 } },
    ];
    const record = await replay({ fixtures: [], personas: scripts, baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    const latencyChecks = record.personas.map((p) => [p.label, p.verdict, p.checks.find((c) => c.kind === 'maxTurnLatency')]);
    expect(latencyChecks).toEqual([
      ['within', 'pass', { kind: 'maxTurnLatency', expected: 500, observed: 400, turn: 2, status: 'pass', detail: 'slowest turn 2: 400 ms, within 500 ms (2 turns)' }],
      ['over', 'fail', { kind: 'maxTurnLatency', expected: 300, observed: 400, turn: 2, status: 'fail', detail: '2 turns over 300 ms: turn 1 350 ms, turn 2 400 ms' }],
      ['edge', 'pass', { kind: 'maxTurnLatency', expected: 400, observed: 400, turn: 2, status: 'pass', detail: 'slowest turn 2: 400 ms, within 400 ms (2 turns)' }],
    ]);
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
  });

  it('records no latency for an errored fixture and leaves the run figure out when nothing was measured', async () => {
    const { regex } = await timedAgent();
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: 'http://127.0.0.1:9/chat', start: null, retries: 0, timeoutMs: 2000 });
    cleanups.push(() => agent.close());
    const record = await replay({ fixtures: [fixture('down', 'takes 5')], personas: [], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    expect(record.fixtures[0]).toMatchObject({ errored: true });
    expect(record.fixtures[0]?.latencyMs).toBeUndefined();
    expect(record.latency).toBeUndefined();
  });

  it('makes every fixture record, answered or errored, with one hidden class and in-object properties', async () => {
    // The peak memory of a large run depends on it (docs/performance.md): a record built key by key
    // past a dozen keys is a hash table in V8, about 1 KB more per fixture.
    setFlagsFromString('--allow-natives-syntax');
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const fast = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;
    const { agent, regex } = await timedAgent();
    const answered = await replay({ fixtures: [fixture('a', 'takes 100'), fixture('b', 'takes 300')], personas: [], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    const down = createHttpAgentClient({ ...defaultConfig().agent, url: 'http://127.0.0.1:9/chat', start: null, retries: 0, timeoutMs: 2000 });
    cleanups.push(() => down.close());
    const errored = await replay({ fixtures: [fixture('down', 'takes 5')], personas: [], baselines: NO_BASELINES }, { agent: down, regex, judge: null }, OPTIONS);
    const records = [...answered.fixtures, ...errored.fixtures];
    expect(records.map((r) => [r.label, r.errored, fast(r)])).toEqual([
      ['a', false, true],
      ['b', false, true],
      ['down', true, true],
    ]);
    expect(records.map((r) => sameMap(r, records[0]!))).toEqual([true, true, true]);
    // A key the record does not have is left out of results.json, as before.
    expect(Object.keys(JSON.parse(JSON.stringify(errored.fixtures[0])) as object)).not.toContain('latencyMs');
  });
});
