// What a run writes, field by field, as docs/results-json.md says it: the real CLI in-process
// (`run`, `accept`, `run --shard`, `report`) against a loopback agent that rewords its replies with
// the same facts from one run to the next (but for the messages starting "same"), a judge and a
// simulator on 127.0.0.1, and real files. One suite holds the cases the page names: a judged item, an
// assertion list, a repeated item, an errored and a not evaluated fixture, a scripted, a simulated
// and an errored persona script, and an accepted baseline whose fixture is gone. Every record read
// back parses with the schema (readResults), and carries what the page says it carries in its case.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRecord, PersonaRecord, RunRecord } from '../../src/types.js';
import { startAgentServer, type AgentServer, type ReceivedRequest } from '../support/agent-server.js';
import { startServer, type TestServer } from '../judge/server.js';
import { startSimulatorServer, type SimulatorServer } from '../simulator/server.js';
import { cli, readResults } from '../cli/helpers.js';

/** The run being made: 1 before acceptance, 2 after; the wording of a reply changes with it. */
let runNumber = 1;

function agent(req: ReceivedRequest): { status?: number; json: unknown } {
  const body = (req.json ?? {}) as { start?: boolean; message?: string };
  if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false, usage: { inputTokens: 1, outputTokens: 2 } } };
  const message = String(body.message);
  if (message === 'boom' || message === 'script follow-up that fails') return { status: 500, json: { error: 'agent broke' } };
  const reworded = runNumber === 1 ? `About ${message}: refunds within 30 days.` : `For ${message}, return it within 30 days.`;
  const reply = message.startsWith('same') ? `Fixed answer to ${message}` : reworded;
  return { json: { reply, route: { conversation: 'shop', stage: 'answer' }, offTrack: [], ended: false, usage: { inputTokens: 10, outputTokens: 20 } } };
}

/** Judges every criterion 0.9 and every meaning "the same", but the criterion "unanswerable", answered with no score. */
function judge(): Promise<TestServer> {
  return startServer([
    (res, req) => {
      const body = req.body as { response_format?: { json_schema?: { name?: string } } };
      const meaning = body.response_format?.json_schema?.name === 'meaning_verdict';
      const content = JSON.stringify(req.body).includes('unanswerable') ? 'no score here' : meaning ? '{"difference": "", "score": 0.95}' : '{"rationale": "fine", "score": 0.9}';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    },
  ]);
}

const FIXTURES = `fixtures:
  - { label: contains, message: "q1", assert: { contains: "30 days" } }
  - { label: judged, message: "same q2", assert: { judge: "mentions the answer", threshold: 0.5 } }
  - { label: listed, message: "q3", assert: [ { contains: "30" }, { judge: "polite", threshold: 0.5 } ] }
  - { label: repeated, message: "q4", assert: { contains: "30" }, repeat: { count: 3 } }
  - { label: errored, message: "boom", assert: { contains: "x" } }
  - { label: unjudged, message: "q5", assert: { judge: "unanswerable", threshold: 0.5 } }
  - { label: deterministic, message: "same q6", assert: { contains: "Fixed" } }
`;

const PERSONAS = `personas:
  - label: scripted
    opening: "script opening"
    followUps: [ "script follow-up" ]
    expect: { conversations: [ shop ], criteria: [ "helpful" ] }
  - label: simulated
    opening: "simulated opening"
    user: { goal: "Get a refund", maxTurns: 4 }
    expect: { conversations: [ shop ] }
  - label: script-errored
    opening: "script opening that works"
    followUps: [ "script follow-up that fails" ]
    expect: { conversations: [ shop ], criteria: [ "helpful" ] }
`;

const HEX32 = /^[0-9a-f]{32}$/;

describe('what a run writes in results.json (docs/results-json.md)', () => {
  let agentServer: AgentServer;
  let judgeServer: TestServer;
  let simulator: SimulatorServer;
  let cwd: string;
  /** The first run, the run after acceptance, its two shards, their merge, and shard 1 merged alone. */
  const records: Record<'first' | 'second' | 'shard1' | 'shard2' | 'merged' | 'incomplete', RunRecord> = {} as never;

  beforeAll(async () => {
    agentServer = await startAgentServer(agent);
    judgeServer = await judge();
    simulator = await startSimulatorServer((ask) => (ask.turn === 2 ? { message: 'my order 12' } : { done: true, reason: 'refund promised' }));
    cwd = await mkdtemp(join(tmpdir(), 'agent-replay-written-record-'));
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'personas'), { recursive: true });
    await writeFile(
      join(dir, 'config.yml'),
      `agent:\n  url: ${agentServer.url}\n  retries: 0\n  backoffMs: 0\n` +
        `judge: { provider: openai, baseUrl: "${judgeServer.url}", model: judge-model, apiKey: k, retries: 0, backoffMs: 0 }\n` +
        `simulator: { baseUrl: "${simulator.url}", model: sim-model }\n` +
        // Meaning, not speed: a turn slowed by a loaded machine must not make an item slower.
        `meaning: { check: judge }\ncost: { capUsd: 100 }\nlatency: { minDeltaMs: 600000 }\n`,
    );
    await writeFile(join(dir, 'fixtures', 'faq.yml'), FIXTURES);
    await writeFile(join(dir, 'personas', 'scripts.yml'), PERSONAS);
    const run = async (args: string[], out: string): Promise<RunRecord> => {
      const merge = args[0] === 'report' ? ['--allow-incomplete'] : [];
      await cli([...args, '--out', out, '--fail-on', 'none', ...merge], cwd);
      return readResults(join(cwd, out));
    };
    records.first = await run(['run'], 'first.json');
    await cli(['accept', '--results', 'first.json'], cwd);
    // An accepted baseline whose fixture is no longer in the suite.
    await writeFile(join(dir, 'baselines', 'gone.json'), `${JSON.stringify({ label: 'gone', reply: 'x', route: null, verdict: 'pass', acceptedAt: '2026-11-01T10:00:00.000Z', commit: null }, null, 2)}\n`);
    runNumber = 2;
    records.second = await run(['run'], 'second.json');
    records.shard1 = await run(['run', '--shard', '1/2'], 'shard1.json');
    records.shard2 = await run(['run', '--shard', '2/2'], 'shard2.json');
    records.merged = await run(['report', '--results', 'shard1.json', '--results', 'shard2.json'], 'merged.json');
    records.incomplete = await run(['report', '--results', 'shard1.json'], 'incomplete.json');
  }, 60_000);

  afterAll(async () => {
    await agentServer?.close();
    await judgeServer?.close();
    await simulator?.close();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  const fixture = (label: string, r = records.second): FixtureRecord => r.fixtures.find((f) => f.label === label) as FixtureRecord;
  const script = (label: string, r = records.second): PersonaRecord => r.personas.find((p) => p.label === label) as PersonaRecord;

  it('the run: its judge, meaning judge, estimate, spend, tokens, latency, pass-rate change and repeat; no shard, selection or merge fields', () => {
    const r = records.second;
    expect(r.agent).toEqual({ host: expect.stringMatching(/^127\.0\.0\.1:\d+$/), endpoint: agentServer.url });
    // The judge's free text for "unanswerable" is a structured output it did not keep to: said, with why.
    expect(r.judge).toEqual({ name: 'openai judge-model', structured: false, structuredFallback: expect.stringContaining('free text') });
    expect(r.simulator).toEqual({ name: 'openai sim-model', structured: true });
    expect(r.meaning).toEqual({ check: 'judge', model: 'judge-model', provider: 'openai', endpoint: judgeServer.url, promptVersion: expect.any(String) });
    expect(Object.keys(r.estimate).sort()).toEqual(['aboveCap', 'capUsd', 'confirmed', 'meaningCalls', 'usd']);
    expect(Object.keys(r.spend ?? {}).sort()).toEqual(
      ['agentRequests', 'agentRetries', 'agentTurns', 'baselineTurns', 'judgeCalls', 'judgeRetries', 'judgeReused', 'meaningAvoided', 'meaningCalls', 'meaningReused', 'simulatorCalls', 'simulatorRetries'].sort(),
    );
    expect(r.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(r.latency).toEqual({ turns: expect.any(Number), p50Ms: expect.any(Number), p95Ms: expect.any(Number) });
    // `pooled` when an item with a baseline has `stats` (the repeated one), `mcnemar` only when none has.
    expect(r.stats).toMatchObject({ items: expect.any(Number), seed: expect.any(String), pooled: expect.any(Object) });
    expect(r.stats?.mcnemar).toBeUndefined();
    expect(r.repeat).toEqual({ count: 1, minPass: 1 });
    expect(r.interrupted).toBe(false);
    for (const absent of ['shard', 'selection', 'incomplete', 'suitePath', 'configName', 'coverage', 'suiteEdits'] as const) expect(r[absent], absent).toBeUndefined();
    // The run's `stats` is absent when no item has a baseline.
    expect(records.first.stats).toBeUndefined();
  });

  it('an answered fixture: its trace id, timings and tokens; a reworded reply has its meaning, a deterministic one none', () => {
    const f = fixture('contains');
    expect(f).toMatchObject({ errored: false, error: null, errorKind: null, verdict: 'pass', route: { conversation: 'shop', stage: 'answer' }, assertion: { kind: 'contains', value: '30 days' } });
    expect(f.traceId).toMatch(HEX32);
    expect(f.latencyMs).toEqual(expect.any(Number));
    expect(f.welcomeLatencyMs).toEqual(expect.any(Number));
    expect(f.firstTokenMs).toBeNull();
    expect(f.usage).toEqual({ inputTokens: 11, outputTokens: 22 });
    expect(f.judgeFingerprint).toBeNull();
    expect(f.drift).toEqual({ reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'reworded', by: 'judge', detail: null, score: 0.95, reused: false } });
    expect(fixture('deterministic').drift).toEqual({ reply: 'same', route: 'same', verdict: 'still_passing' });
    for (const once of ['repeat', 'attempts', 'stats', 'judgeReused'] as const) expect(fixture('deterministic')[once], once).toBeUndefined();
  });

  it('a judged fixture: its fingerprint, and the judge result reused from its baseline when the reply is the same', () => {
    const f = fixture('judged');
    expect(f.judgeFingerprint).toEqual({ model: 'openai/judge-model', endpoint: judgeServer.url, promptVersion: expect.any(String), criteria: [{ criterion: 'mentions the answer', threshold: 0.5 }] });
    expect(f.judgeReused).toEqual({ commit: null, acceptedAt: expect.any(String) });
    expect(f.baseline?.judge).toEqual({ score: 0.9, rationale: 'fine', fingerprint: f.judgeFingerprint });
    expect(fixture('judged', records.first).judgeReused).toBeUndefined();
    expect(fixture('listed').assertion).toEqual({ kind: 'all', assertions: [{ kind: 'contains', value: '30' }, { kind: 'judge', criterion: 'polite', threshold: 0.5 }] });
    expect(fixture('listed').checks?.map((c) => [c.assertion.kind, c.status])).toEqual([['contains', 'pass'], ['judge', 'pass']]);
  });

  it('an errored fixture has no verdict, drift, reply, route or trace id; a not evaluated one has its reply and drift', () => {
    const f = fixture('errored');
    expect(f).toMatchObject({ errored: true, errorKind: 'http', verdict: null, drift: null, reply: null, route: null });
    expect(f.error).toMatch(/HTTP 500/);
    for (const absent of ['traceId', 'latencyMs', 'errorAddress'] as const) expect(f[absent], absent).toBeUndefined();
    const n = fixture('unjudged');
    expect(n).toMatchObject({ errored: false, verdict: 'not_evaluated', score: null, drift: { reply: null, route: null, verdict: 'no_baseline' } });
  });

  it('a repeated fixture: its repeat, every attempt, and its stats against a baseline of its attempts', () => {
    const f = fixture('repeated');
    expect(f.repeat).toEqual({ count: 3, minPass: 3, passed: 3, flaky: false });
    expect(f.attempts).toHaveLength(3);
    for (const a of f.attempts ?? []) expect(a).toMatchObject({ errored: false, verdict: 'pass', usage: { inputTokens: 11, outputTokens: 22 }, latencyMs: expect.any(Number) });
    expect(f.baseline?.attempts).toEqual({ passed: 3, total: 3 });
    expect(f.stats).toMatchObject({ passed: 3, total: 3, baseline: { passed: 3, total: 3 }, tier: expect.any(String), looks: 1, maxLooks: 1 });
  });

  it('a persona script: its turns from the welcome turn, who ended it, its transcript hash, its drift with meaning', () => {
    const p = script('scripted');
    expect(p.turns.map((t) => [t.index, t.message])).toEqual([
      [0, null],
      [1, 'script opening'],
      [2, 'script follow-up'],
    ]);
    for (const t of p.turns) expect(t.traceId).toMatch(HEX32);
    expect(p).toMatchObject({ endedBy: 'script', toolMode: 'live', transcriptHash: expect.any(String), unsent: [], verdict: 'pass' });
    expect(p.drift).toMatchObject({ transcript: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'reworded' } });
    expect(p.checks.map((c) => [c.kind, c.status])).toEqual([['conversations', 'pass'], ['criterion', 'pass']]);
    const simulated = script('simulated');
    expect(simulated.endedBy).toBeUndefined();
    // Run 2 replays the user's message of the accepted conversation: no message was written live.
    expect(script('simulated', records.first).simulation).toMatchObject({ goal: 'Get a refund', liveFromTurn: 2, endedBy: 'simulator', calls: 2 });
    expect(simulated.simulation).toMatchObject({ goal: 'Get a refund', liveFromTurn: null, endedBy: 'simulator', calls: 0 });
    expect(simulated.turns.map((t) => t.source)).toEqual([undefined, 'script', 'baseline']);
  });

  it('an errored persona script: the message of the turn that failed is unsent, no verdict, drift or ending, its criteria not judged', () => {
    const p = script('script-errored');
    expect(p).toMatchObject({ errored: true, errorKind: 'http', verdict: null, drift: null, unsent: ['script follow-up that fails'] });
    expect(p.endedBy).toBeUndefined();
    expect(p.transcriptHash).toBeUndefined();
    expect(p.checks.find((c) => c.kind === 'criterion')).toMatchObject({ status: 'not_evaluated', detail: 'the run did not complete' });
  });

  it('a removed baseline: named by every shard and once by their merge', () => {
    const gone = [{ label: 'gone', kind: 'fixture', file: '.agent-replay/baselines/gone.json' }];
    expect(records.second.removed).toEqual(gone);
    expect(records.shard1.removed).toEqual(gone);
    expect(records.shard2.removed).toEqual(gone);
    expect(records.merged.removed).toEqual(gone);
    expect(records.first.removed).toBeUndefined();
  });

  it('shards and their merge: each shard says which it is, the merge none, its estimate and spend summed; a merge lacking a shard says so', () => {
    for (const [k, r] of [[1, records.shard1], [2, records.shard2]] as const) {
      expect(r.shard).toEqual({ index: k, total: 2, suiteHash: expect.any(String), partition: expect.any(String) });
    }
    const m = records.merged;
    expect(m.shard).toBeUndefined();
    expect(m.incomplete).toBeUndefined();
    expect(m.judge.names).toBeUndefined();
    expect(m.agent.endpoint).toBe(records.second.agent.endpoint);
    expect(m.fixtures.length + m.personas.length).toBe(records.second.fixtures.length + records.second.personas.length);
    expect(m.estimate.capUsd).toBe(200);
    expect(m.spend?.agentTurns).toBe((records.shard1.spend?.agentTurns ?? 0) + (records.shard2.spend?.agentTurns ?? 0));
    expect(records.incomplete.incomplete).toEqual({ total: 2, suiteHash: records.shard1.shard?.suiteHash, missing: [2], foreign: [] });
  });
});
