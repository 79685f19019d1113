// Latency through the whole replay (docs/latency.md): a real HTTP agent on 127.0.0.1 moves the
// client's injected clock by the time each message names, so the record's figures are exact.

import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { Clock, Fixture, Judge, PersonaScript } from '../../src/types.js';
import { decideAcceptance } from '../../src/evaluate/index.js';
import { turnLatencyCheck } from '../../src/evaluate/personas.js';
import { evaluateMaxLatency } from '../../src/assertions/latency.js';
import { nativeEcho, startAgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions({ concurrency: 1 });

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

  it('expect.maxTurnLatencyMs writes its milliseconds as the report writes the budget (3,000 ms), tenths kept', () => {
    const turns = [
      { index: 1, latencyMs: 2500 },
      { index: 2, latencyMs: 3250.5 },
    ] as unknown as Parameters<typeof turnLatencyCheck>[1];
    expect(turnLatencyCheck(3000, turns).detail).toBe('1 turn over 3,000 ms: turn 2 3,250.5 ms');
    expect(turnLatencyCheck(4000, turns).detail).toBe('slowest turn 2: 3,250.5 ms, within 4,000 ms (2 turns)');
    // A fixture's maxLatencyMs writes its numbers the same way.
    expect(evaluateMaxLatency(2000, 2450)).toEqual({ verdict: 'fail', detail: 'latency 2,450 ms, over the budget of 2,000 ms' });
    expect(evaluateMaxLatency(3000, 1250.25)).toEqual({ verdict: 'pass', detail: 'latency 1,250.3 ms, within 3,000 ms' });
    expect(evaluateMaxLatency(2000, null).detail).toBe('latency not measured: the agent client reported no time for the message turn (budget 2,000 ms)');
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

  it('assert maxLatencyMs compares the message turn (strictly more fails); a list needs every check and records each', async () => {
    const { agent, regex } = await timedAgent();
    const at = (label: string, message: string, assertion: Fixture['assertion']): Fixture => ({ ...fixture(label, message), assertion });
    const fixtures = [
      // The welcome turn (1000 ms) is not the message turn: 300 against 300 passes.
      at('edge', 'takes 300', { kind: 'maxLatency', ms: 300 }),
      at('over', 'takes 301', { kind: 'maxLatency', ms: 300 }),
      at('all-pass', 'takes 100', { kind: 'all', assertions: [{ kind: 'contains', value: 'echo' }, { kind: 'maxLatency', ms: 200 }] }),
      at('text-fails', 'takes 100', { kind: 'all', assertions: [{ kind: 'contains', value: 'nope' }, { kind: 'maxLatency', ms: 200 }] }),
      at('slow-fails', 'takes 250', { kind: 'all', assertions: [{ kind: 'contains', value: 'echo' }, { kind: 'maxLatency', ms: 200 }] }),
      // Without a latency check a slow reply passes: latency changes no verdict unless asked.
      at('unasked', 'takes 5000', { kind: 'contains', value: 'echo' }),
    ];
    const record = await replay({ fixtures, personas: [], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    expect(record.fixtures.map((f) => [f.label, f.verdict, f.detail])).toEqual([
      ['edge', 'pass', 'latency 300 ms, within 300 ms'],
      ['over', 'fail', 'latency 301 ms, over the budget of 300 ms'],
      ['all-pass', 'pass', 'all 2 checks passed: reply contains "echo"; latency 100 ms, within 200 ms'],
      ['text-fails', 'fail', '1 of 2 checks failed: reply does not contain "nope"'],
      ['slow-fails', 'fail', '1 of 2 checks failed: latency 250 ms, over the budget of 200 ms'],
      ['unasked', 'pass', 'reply contains "echo"'],
    ]);
    expect(record.fixtures.map((f) => f.checks?.map((c) => [c.assertion.kind, c.status]) ?? null)).toEqual([
      null,
      null,
      [['contains', 'pass'], ['maxLatency', 'pass']],
      [['contains', 'fail'], ['maxLatency', 'pass']],
      [['contains', 'pass'], ['maxLatency', 'fail']],
      null,
    ]);
    expect(record.tallies).toEqual({ passed: 3, failed: 3, notEvaluated: 0, errored: 0 });
    expect(parseRecord(serializeRecord(record), 'results.json')).toEqual(record);
  });

  it('a list with a judge check: one judge call, its score in the record, reused from the baseline when the reply is the same', async () => {
    const { agent, regex } = await timedAgent();
    const criteria: string[] = [];
    const judge: Judge = {
      name: 'counting judge',
      score: async (criterion) => (criteria.push(criterion), { ok: true, score: 0.9, rationale: 'polite enough' }),
      scoreTranscript: async () => ({ ok: false, reason: 'not used' }),
      close: async () => undefined,
    };
    const listed: Fixture = {
      ...fixture('listed', 'takes 100'),
      assertion: { kind: 'all', assertions: [{ kind: 'maxLatency', ms: 500 }, { kind: 'judge', criterion: 'polite', threshold: 0.7 }] },
    };
    const options = { ...OPTIONS, judgeName: judge.name, judgeModel: 'openai/m' };
    const first = await replay({ fixtures: [listed], personas: [], baselines: NO_BASELINES }, { agent, regex, judge }, options);
    const r = first.fixtures[0]!;
    expect([r.verdict, r.score, r.threshold, r.rationale, r.judgeFingerprint?.criteria]).toEqual(['pass', 0.9, 0.7, 'polite enough', [{ criterion: 'polite', threshold: 0.7 }]]);
    expect(r.checks?.map((c) => [c.status, c.score, c.threshold])).toEqual([
      ['pass', null, null],
      ['pass', 0.9, 0.7],
    ]);
    expect(criteria).toEqual(['polite']);
    // Accept it, and replay: the same reply reuses the judge result; the latency check runs again.
    const decision = decideAcceptance(r, '2026-12-01T00:00:00.000Z', 'abcdef0123456789');
    if (decision.kind !== 'accept') throw new Error(`not accepted: ${decision.kind}`);
    const baselines = { fixtures: new Map([['listed', decision.baseline]]), personas: new Map() };
    const again = await replay({ fixtures: [{ ...listed, message: 'takes 600' }], personas: [], baselines }, { agent, regex, judge }, options);
    const a = again.fixtures[0]!;
    // The message changed its latency only: the reply echoes it, so it differs and the judge runs.
    expect(criteria).toEqual(['polite', 'polite']);
    expect([a.verdict, a.checks?.map((c) => c.status)]).toEqual(['fail', ['fail', 'pass']]);
    const same = await replay({ fixtures: [listed], personas: [], baselines }, { agent, regex, judge }, options);
    expect(criteria).toEqual(['polite', 'polite']);
    expect([same.fixtures[0]!.verdict, same.fixtures[0]!.judgeReused, same.fixtures[0]!.score]).toEqual(['pass', { commit: 'abcdef0123456789', acceptedAt: '2026-12-01T00:00:00.000Z' }, 0.9]);
  });
});
