// Spend (docs/semantics.md, "Cost"): the record counts agent turns answered, retries separately,
// judge calls made and judge results reused, counted against the real loopback agent and judge
// (what the servers received is the truth); shards' spend is summed; the regex workers start with
// the run.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import { Worker as RealWorker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { runCheck, type CheckOptions } from '../../src/engine.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { mergeRecords } from '../../src/record/index.js';
import type { Clock, RunRecord } from '../../src/types.js';
import { nativeEcho, startAgentServer, type AgentServer } from '../support/agent-server.js';
import { json, startServer, type TestServer } from '../judge/server.js';
import { fixture, run } from '../report/fixtures.js';
import { AMPLE_MS } from '../support/regex-pool.js';

const { servers, dirs } = closedAfterEach();

/** No real waits between retries. */
const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };

const FIXTURES = `fixtures:
  - { label: judged, message: hello, assert: { judge: "polite", threshold: 0.5 } }
  - { label: matched, message: order 12, assert: { regex: "order \\\\d+", flags: "u" } }
  - { label: plain, message: plain }
`;

const SCRIPT = `personas:
  - label: refund
    opening: I want a refund
    followUps: [ "Order 1234" ]
    expect: { criteria: [ Stayed polite ] }
`;

async function project(agentUrl: string, judgeUrl: string): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-spend-'));
  dirs.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'personas'), { recursive: true });
  await writeFile(
    join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  retries: 2\n  backoffMs: 1\n` +
      `judge: { provider: openai, baseUrl: "${judgeUrl}", model: m, apiKey: k, retries: 2, backoffMs: 1 }\ncost: { capUsd: 5 }\n`,
  );
  await writeFile(join(dir, 'fixtures', 'f.yml'), FIXTURES);
  await writeFile(join(dir, 'personas', 'p.yml'), SCRIPT);
  return cwd;
}

function options(cwd: string): CheckOptions {
  return { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null };
}

const judgeAnswer = json(200, { choices: [{ message: { role: 'assistant', content: '{"rationale": "fine", "score": 0.9}' } }] });

async function servePair(): Promise<{ agent: AgentServer; judge: TestServer }> {
  // The agent's first request is answered 503 (retried), every other one echoes.
  const agent = await startAgentServer((req) => (req.index === 0 ? { status: 503, body: 'busy' } : nativeEcho(req)));
  // The judge's first call is answered 503 too, then every call scores.
  const judge = await startServer([json(503, { error: { message: 'overloaded' } }), judgeAnswer]);
  servers.push(agent, judge);
  return { agent, judge };
}

async function ran(cwd: string, deps: Parameters<typeof runCheck>[1] = {}): Promise<RunRecord> {
  const result = await runCheck(options(cwd), { clock, ...deps });
  if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}`);
  return result.record;
}

describe('spend in the record', () => {
  it('counts what the agent and the judge servers received, retries apart, persona turns included', async () => {
    const { agent, judge } = await servePair();
    const record = await ran(await project(`${agent.url}/chat`, judge.url));
    // 3 fixtures x (welcome + message) + the script: welcome, opening, one follow-up.
    expect(record.spend).toEqual({ agentTurns: 9, agentRetries: 1, agentRequests: 10, judgeCalls: 2, judgeRetries: 1, judgeReused: 0, meaningCalls: 0, meaningReused: 0, meaningAvoided: 0 });
    expect(agent.requests.length).toBe(record.spend!.agentRequests);
    expect(agent.requests.length).toBe(record.spend!.agentTurns + record.spend!.agentRetries);
    expect(judge.received.length).toBe(record.spend!.judgeCalls + (record.spend!.judgeRetries ?? 0));
    expect(record.personas[0]?.label).toBe('refund');
    expect(record.fixtures.every((f) => !f.errored)).toBe(true);
  });

  it('does not count an agent turn that was never answered', async () => {
    const agent = await startAgentServer(() => ({ status: 500, body: 'down' }));
    const judge = await startServer([judgeAnswer]);
    servers.push(agent, judge);
    const record = await ran(await project(`${agent.url}/chat`, judge.url));
    // Every welcome turn fails after 3 attempts: nothing answered, nothing judged.
    expect(record.spend).toMatchObject({ agentTurns: 0, judgeCalls: 0 });
    expect(record.spend!.agentRetries).toBe(agent.requests.length - agent.requests.length / 3);
    expect(record.spend!.agentRequests).toBe(agent.requests.length);
    expect(judge.received.length).toBe(0);
  });

  it('counts the turns answered before a failure: a welcome turn, a reply without the mapped field', async () => {
    // Welcome turns are answered; each message turn is refused (400, not retried) or has no reply.
    const agent = await startAgentServer((req) => {
      const body = req.json as { start?: boolean; message?: string };
      if (body.start === true) return nativeEcho(req);
      return body.message === 'hello' ? { status: 400, body: 'bad request' } : { json: { route: null } };
    });
    const judge = await startServer([judgeAnswer]);
    servers.push(agent, judge);
    const cwd = await project(`${agent.url}/chat`, judge.url);
    await rm(join(cwd, '.agent-replay', 'personas'), { recursive: true });
    const record = await ran(cwd);
    expect(record.fixtures.map((f) => [f.label, f.errorKind])).toEqual([
      ['judged', 'http'],
      ['matched', 'missing_reply'],
      ['plain', 'missing_reply'],
    ]);
    // 3 welcome turns answered + 2 message turns answered without a reply; the 400 is not a turn answered.
    expect(record.spend).toMatchObject({ agentTurns: 5, agentRetries: 0, agentRequests: 6, judgeCalls: 0 });
    expect(agent.requests.length).toBe(6);
  });

  // Anthropic's answer when its classifiers stop the model (npm @anthropic-ai/sdk 1.16.0): no text, stop_reason refusal.
  const refusal = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'refusal', stop_sequence: null, stop_details: null, usage: { input_tokens: 3, output_tokens: 0 } };
  const sse = (events: [string, unknown][]): string => events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  const refusalStream = sse([
    ['message_start', { type: 'message_start', message: { ...refusal, stop_reason: null } }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: null }, usage: { output_tokens: 0 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);

  it.each([
    ['whole', false],
    ['streamed', true],
  ])('counts a turn answered without a reply through a preset that decodes (%s), for fixtures and persona scripts alike', async (_how, stream) => {
    const agent = await startAgentServer(() => (stream ? { headers: { 'content-type': 'text/event-stream' }, body: refusalStream } : { json: refusal }));
    servers.push(agent);
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-spend-'));
    dirs.push(cwd);
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await mkdir(join(dir, 'personas'), { recursive: true });
    await writeFile(join(dir, 'config.yml'), `agent:\n  url: ${agent.url}/v1/messages\n  preset: anthropic-messages\n  model: m\n  stream: ${String(stream)}\n  retries: 0\ncost: { capUsd: 5 }\n`);
    await writeFile(join(dir, 'fixtures', 'f.yml'), 'fixtures:\n  - { label: one, message: hello }\n  - { label: two, message: again }\n');
    await writeFile(join(dir, 'personas', 'p.yml'), 'personas:\n  - label: refund\n    opening: I want a refund\n    followUps: [ "Order 1234" ]\n    expect: { reply: [ { contains: refund } ] }\n');
    const record = await ran(cwd);
    const refused = 'the model refused to answer (stop_reason "refusal") and sent no text';
    expect(record.fixtures.map((f) => [f.label, f.errorKind, f.error])).toEqual([
      ['one', 'missing_reply', `message turn: ${refused}`],
      ['two', 'missing_reply', `message turn: ${refused}`],
    ]);
    expect(record.personas[0]).toMatchObject({ label: 'refund', errored: true });
    expect(record.personas[0]?.error).toContain(refused);
    // Every request was answered: two fixtures' message turns and the script's opening, where it stopped.
    expect(agent.requests.length).toBe(3);
    expect(record.spend).toMatchObject({ agentTurns: 3, agentRetries: 0 });
  });

  it('sums the shards of a run and keeps records without spend readable', () => {
    const shard = (label: string, spend?: RunRecord['spend']): RunRecord => run([fixture(label)], spend ? { spend } : {});
    const counted = [shard('a', { agentTurns: 10, agentRetries: 1, judgeCalls: 3, judgeRetries: 2, judgeReused: 4 }), shard('b', { agentTurns: 14, agentRetries: 0, judgeCalls: 0, judgeReused: 1 })];
    expect(mergeRecords(counted).spend).toEqual({ agentTurns: 24, agentRetries: 1, judgeCalls: 3, judgeRetries: 2, judgeReused: 5 });
    // A record without spend (written before it) counted nothing: a sum over the others would read as the run's, fewer than were made.
    expect(mergeRecords([...counted, shard('c')]).spend).toBeUndefined();
    expect(mergeRecords([shard('a'), shard('b')]).spend).toBeUndefined();
  });

  it("sums the agent's requests only when every shard counted them: a part of them would read as fewer than were sent", () => {
    const shard = (label: string, spend: RunRecord['spend']): RunRecord => run([fixture(label)], { spend });
    const a = shard('a', { agentTurns: 2, agentRetries: 1, agentRequests: 3, judgeCalls: 0, judgeReused: 0 });
    const b = shard('b', { agentTurns: 0, agentRetries: 2, agentRequests: 3, judgeCalls: 0, judgeReused: 0 });
    const older = shard('c', { agentTurns: 2, agentRetries: 0, judgeCalls: 0, judgeReused: 0 });
    expect(mergeRecords([a, b]).spend).toMatchObject({ agentTurns: 2, agentRetries: 3, agentRequests: 6 });
    expect(mergeRecords([a, b, older]).spend?.agentRequests).toBeUndefined();
  });
});

// The patterns that need the pool carry flag u: on Node 24, V8's linear-time engine would match them
// on the main thread otherwise (src/assertions/regex-inline.ts), and no worker would start.
// Their pools have an ample budget, not the config's 100 ms: every pattern here finishes, and its verdict is asserted.
describe('regex workers at the start of the run', () => {
  it('are started before the agent is first called', async () => {
    const agent = await startAgentServer(nativeEcho);
    const judge = await startServer([judgeAnswer]);
    servers.push(agent, judge);
    const events: string[] = [];
    const agentSeen = agent.requests;
    const record = await ran(await project(`${agent.url}/chat`, judge.url), {
      makeRegexPool: (config) =>
        createRegexPool({
          size: config.regex.workers,
          timeoutMs: AMPLE_MS,
          spawnWorker: (source: string, opts: WorkerOptions): Worker => {
            events.push(`spawn (agent requests so far: ${agentSeen.length})`);
            return new RealWorker(source, opts);
          },
        }),
    });
    expect(events[0]).toBe('spawn (agent requests so far: 0)');
    expect(events.length).toBe(1);
    expect(record.fixtures.find((f) => f.label === 'matched')?.verdict).toBe('pass');
  });

  it("a persona script's reply regex that needs the pool starts it early too; a suite whose patterns all run inline starts none", async () => {
    const agent = await startAgentServer(nativeEcho);
    const judge = await startServer([judgeAnswer]);
    servers.push(agent, judge);
    const spawns = async (fixtures: string, reply: string): Promise<{ events: string[]; record: RunRecord }> => {
      const cwd = await project(`${agent.url}/chat`, judge.url);
      await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), fixtures);
      await writeFile(join(cwd, '.agent-replay', 'personas', 'p.yml'), `personas:\n  - label: refund\n    opening: I want a refund\n    expect: { reply: [ ${reply} ] }\n`);
      const events: string[] = [];
      const seen = agent.requests.length;
      const record = await ran(cwd, {
        makeRegexPool: (config) =>
          createRegexPool({
            size: config.regex.workers,
            timeoutMs: AMPLE_MS,
            spawnWorker: (source: string, opts: WorkerOptions): Worker => {
              events.push(`spawn (agent requests so far: ${agent.requests.length - seen})`);
              return new RealWorker(source, opts);
            },
          }),
      });
      return { events, record };
    };
    // Two quantifiers: no bound, the pool matches it; the run warms it before the first agent request.
    const pooled = await spawns('label: plain\nmessage: plain\n', '{ regex: "(\\\\w+) (a\\\\w*)", flags: "u" }');
    expect(pooled.events[0]).toBe('spawn (agent requests so far: 0)');
    expect(pooled.record.personas[0]?.verdict).toBe('pass');
    // Patterns with a small bound, in a fixture and in a script: no worker at all.
    const inline = await spawns('label: matched\nmessage: order 12\nassert: { regex: "order 1[0-9]?" }\n', '{ regex: "refund(s)?" }');
    expect(inline.events).toEqual([]);
    expect(inline.record.fixtures[0]?.verdict).toBe('pass');
    expect(inline.record.personas[0]?.verdict).toBe('pass');
  });

  it('starts no worker for a suite without a regex assertion', async () => {
    const spawned: string[] = [];
    const pool = createRegexPool({ size: 2, timeoutMs: 1000, spawnWorker: (s, o) => (spawned.push('spawn'), new RealWorker(s, o)) });
    pool.warm?.(0);
    expect(spawned).toEqual([]);
    pool.warm?.(5);
    pool.warm?.(5);
    // At most the pool's size, and never twice for the same workers.
    expect(spawned).toEqual(['spawn', 'spawn']);
    expect(await pool.test('a+', '', 'caaat')).toEqual({ kind: 'matched', match: 'aaa' });
    expect(spawned.length).toBe(2);
    await pool.close();
  });
});
