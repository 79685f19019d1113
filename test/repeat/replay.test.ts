// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it") in the runner:
// every attempt its own session against a real loopback agent, attempts side by side under the
// concurrency bound, the verdict rules, flaky, errored only when every attempt errored, every
// attempt recorded, and an item that runs once recorded as before.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { combineAttempts, type AttemptOutcome } from '../../src/evaluate/repeat.js';
import { gateRun } from '../../src/evaluate/index.js';
import { policyOf } from '../../src/evaluate/finish.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { NO_BASELINES, replay, type Progress } from '../../src/replay/index.js';
import type { AgentClient, Fixture, PersonaScript, RegexEvaluator, Repeat } from '../../src/types.js';
import { startAgentServer, type AgentHandler, type AgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions({ concurrency: 4 });

function fixture(label: string, repeat?: Repeat, assertion: Fixture['assertion'] = { kind: 'contains', value: 'yes' }): Fixture {
  return { label, message: label, persona: null, assertion, file: '.agent-replay/fixtures/f.yml', line: 1, ...(repeat ? { repeat } : {}) };
}

function regexPool(): RegexEvaluator {
  const pool = createRegexPool({ size: 1, timeoutMs: 1000 });
  cleanups.push(() => pool.close());
  return pool;
}

async function agentServer(handler: AgentHandler): Promise<{ server: AgentServer; client: AgentClient }> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, concurrency: 8, retries: 0 });
  cleanups.push(() => client.close());
  return { server, client };
}

const sessionOf = (req: { json: unknown }): string => String((req.json as { session: unknown }).session);
/** The attempt number at the end of a repeated item's session id ("...-label-2" -> 2). */
const attemptOf = (req: { json: unknown }): number => Number(/-(\d+)$/.exec(sessionOf(req))?.[1] ?? '0');

describe('combineAttempts: the verdict rules', () => {
  const P = 'pass', F = 'fail', N = 'not_evaluated', E = 'errored';
  const cases: [number, AttemptOutcome[], string | null, number, boolean][] = [
    // minPass, outcomes, verdict (null: errored), passed, flaky
    [3, [P, P, P], 'pass', 3, false],
    [2, [P, F, P], 'pass', 2, true],
    [3, [P, F, P], 'fail', 2, true],
    [1, [F, F, F], 'fail', 0, false],
    [2, [P, N, F], 'not_evaluated', 1, true], // the not evaluated attempt could have made 2
    [3, [P, N, F], 'fail', 1, true], // even if it had passed: 2 < 3
    [1, [N, N, N], 'not_evaluated', 0, false],
    [1, [E, P, E], 'pass', 1, true], // an errored attempt counts as not passed
    [2, [E, P, E], 'fail', 1, true],
    [2, [E, P, N], 'not_evaluated', 1, true],
    [1, [E, E, E], null, 0, false], // errored only when every attempt errored
    [5, [P, P, P, P, E], 'fail', 4, true],
  ];
  it.each(cases)('minPass %i over %j -> %s', (minPass, outcomes, verdict, passed, flaky) => {
    const r = combineAttempts(outcomes, { count: outcomes.length, minPass });
    expect(r.verdict).toBe(verdict);
    expect(r.summary).toEqual({ count: outcomes.length, minPass, passed, flaky });
  });
});

describe('replay with repeat (real HTTP)', () => {
  it('runs every attempt in its own session, records each, combines the verdict, marks flaky', async () => {
    // `flip` answers yes on odd attempts, no on even ones; `down` always fails; `half` fails its 1st attempt, then says yes.
    const { server, client } = await agentServer((req) => {
      const body = req.json as { message: string };
      const k = attemptOf(req);
      if (body.message === 'down' || (body.message === 'half' && k === 1)) return { status: 500, body: 'boom' };
      return { json: { reply: k % 2 === 1 || body.message === 'half' ? `yes ${body.message}` : `no ${body.message}`, route: { conversation: 'c', stage: String(k) } } };
    });
    const progress: Progress[] = [];
    const run = await replay(
      { fixtures: [fixture('flip', { count: 3, minPass: 2 }), fixture('strict', { count: 3, minPass: 3 }), fixture('down', { count: 2, minPass: 1 }), fixture('half', { count: 2, minPass: 1 }), fixture('once')], personas: [], baselines: NO_BASELINES },
      { agent: client, regex: regexPool(), judge: null, sessionId: (f) => `s-${f.label}`, onProgress: (p) => progress.push(p) },
      OPTIONS,
    );
    // The record is one results.json accepts as it is: the schema neither refuses nor drops a field.
    const written = JSON.parse(JSON.stringify(run)) as unknown;
    expect(runRecordSchema.parse(written)).toEqual(written);
    // 3 + 3 + 2 + 2 + 1 requests, each its own session; an item run once keeps its plain session.
    const sessions = server.requests.map(sessionOf).sort();
    expect(sessions).toEqual(['s-down-1', 's-down-2', 's-flip-1', 's-flip-2', 's-flip-3', 's-half-1', 's-half-2', 's-once', 's-strict-1', 's-strict-2', 's-strict-3']);

    const [flip, strict, down, half, once] = run.fixtures;
    expect(flip).toMatchObject({ verdict: 'pass', reply: 'yes flip', repeat: { count: 3, minPass: 2, passed: 2, flaky: true } });
    expect(flip!.attempts!.map((a) => [a.reply, a.verdict])).toEqual([['yes flip', 'pass'], ['no flip', 'fail'], ['yes flip', 'pass']]);
    expect(flip!.detail).toBe('2/3 attempts passed (minPass 2), flaky; attempt 1: reply contains "yes"');
    expect(strict).toMatchObject({ verdict: 'fail', repeat: { count: 3, minPass: 3, passed: 2, flaky: true }, drift: { verdict: 'no_baseline' } });
    // A fail whose shown reply (attempt 1's) passed: the detail names the attempt that failed, and why.
    expect(strict).toMatchObject({ reply: 'yes strict', detail: '2/3 attempts passed (minPass 3), flaky; attempt 2: reply does not contain "yes"' });
    // Every attempt errored: the item is errored, with both attempts recorded.
    expect(down).toMatchObject({ errored: true, errorKind: 'http', verdict: null, repeat: { count: 2, minPass: 1, passed: 0, flaky: false } });
    expect(down!.attempts!.map((a) => a.errorKind)).toEqual(['http', 'http']);
    // One attempt errored, the other passed: the item shows the attempt that replied.
    expect(half).toMatchObject({ errored: false, verdict: 'pass', reply: 'yes half', route: { stage: '2' }, repeat: { passed: 1, flaky: true } });
    expect(half!.attempts!.map((a) => a.errored)).toEqual([true, false]);
    // An item run once is recorded exactly as without repeat.
    expect(Object.keys(once!)).not.toContain('repeat');
    expect(Object.keys(once!)).not.toContain('attempts');
    // `once` has no attempt number: the agent answers it "no".
    expect(once).toMatchObject({ verdict: 'fail', reply: 'no once' });
    expect(run.tallies).toEqual({ passed: 2, failed: 2, notEvaluated: 0, errored: 1 });
    // Progress counts items, not attempts.
    expect(progress.at(-1)).toMatchObject({ done: 5, total: 5 });
    // --fail-on flaky names the items whose attempts disagreed (passing or not).
    const flakyGate = gateRun(run, ['flaky']);
    expect(flakyGate).toMatchObject({ failed: true, offenders: [{ condition: 'flaky', labels: ['flip', 'strict', 'half'] }] });
    expect(flakyGate.reason).toBe('3 fixtures whose attempts disagree (flip, strict, half)');
  });

  it('the global repeat applies to items without their own; an item\'s own replaces it', async () => {
    const { server, client } = await agentServer((req) => ({ json: { reply: `yes ${attemptOf(req)}` } }));
    const run = await replay({ fixtures: [fixture('a'), fixture('b', { count: 2, minPass: 1 })], personas: [], baselines: NO_BASELINES }, { agent: client, regex: regexPool(), judge: null }, { ...OPTIONS, policy: policyOf({ repeat: { count: 3, minPass: 3 } }) });
    expect(server.requests).toHaveLength(5);
    expect(run.fixtures.map((f) => f.repeat)).toEqual([{ count: 3, minPass: 3, passed: 3, flaky: false }, { count: 2, minPass: 1, passed: 2, flaky: false }]);
  });

  it('the attempts of one item run side by side under the concurrency bound', async () => {
    // Holds every request until four are in flight: attempts run one after the other would never get there.
    const held: (() => void)[] = [];
    let maxInFlight = 0;
    const { client } = await agentServer(async () => {
      await new Promise<void>((release) => {
        held.push(release);
        maxInFlight = Math.max(maxInFlight, held.length);
        if (held.length === 4) for (const r of held.splice(0)) r();
      });
      return { json: { reply: 'yes' } };
    });
    const run = await replay({ fixtures: [fixture('a', { count: 4, minPass: 4 })], personas: [], baselines: NO_BASELINES }, { agent: client, regex: regexPool(), judge: null }, { ...OPTIONS, concurrency: 4 });
    expect(maxInFlight).toBe(4);
    expect(run.fixtures[0]).toMatchObject({ verdict: 'pass', repeat: { passed: 4 } });
  });

  it('a repeated persona script records each attempt\'s transcript and checks', async () => {
    // Odd attempts visit "refunds", even ones "other".
    const { client } = await agentServer((req) => {
      const k = attemptOf(req);
      return { json: { reply: `turn of attempt ${k}`, route: { conversation: k % 2 === 1 ? 'refunds' : 'other', stage: 's' } } };
    });
    const script: PersonaScript = {
      label: 'refund',
      file: '.agent-replay/personas/p.yml',
      line: 1,
      repeat: { count: 2, minPass: 1 },
      persona: null,
      opening: 'I want a refund',
      followUps: ['now'],
      maxTurns: 20,
      threshold: 0.7,
      mocks: [],
      expect: { conversations: ['refunds'], terminal: null, toolCalled: [], toolNotCalled: [], criteria: [] },
    };
    const run = await replay({ fixtures: [], personas: [script], baselines: NO_BASELINES }, { agent: client, regex: regexPool(), judge: null, sessionId: (i) => `s-${i.label}` }, OPTIONS);
    // The record is one results.json accepts as it is: the schema neither refuses nor drops a field.
    const written = JSON.parse(JSON.stringify(run)) as unknown;
    expect(runRecordSchema.parse(written)).toEqual(written);
    const [p] = run.personas;
    expect(p).toMatchObject({ verdict: 'pass', repeat: { count: 2, minPass: 1, passed: 1, flaky: true }, visited: ['refunds'] });
    expect(p!.attempts!.map((a) => [a.verdict, a.visited, a.turns.map((t) => t.reply)])).toEqual([
      ['pass', ['refunds'], ['turn of attempt 1', 'turn of attempt 1']],
      ['fail', ['other'], ['turn of attempt 2', 'turn of attempt 2']],
    ]);
    expect(p!.attempts![1]!.checks[0]).toMatchObject({ kind: 'conversations', status: 'fail' });
  });
});

describe('an interrupted run with repeated items', () => {
  it('records the items whose attempts all finished; an item with an attempt still in flight is left out, as any unfinished item', async () => {
    const server = await startAgentServer(async (req) => {
      const body = req.json as { message: string };
      // `slow`'s second attempt never answers (until the interrupt aborts it); the rest answer at once.
      if (body.message === 'slow' && attemptOf(req) === 2) await new Promise(() => undefined);
      return { json: { reply: `yes ${body.message}`, route: null } };
    });
    cleanups.push(() => server.close());
    const interrupt = new AbortController();
    const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, concurrency: 8, retries: 0 }, { signal: interrupt.signal });
    cleanups.push(() => client.close());
    // Two workers: one is held by slow's second attempt, the other finishes `done` and `once`;
    // the interrupt comes when both of those are in.
    const run = await replay(
      { fixtures: [fixture('done', { count: 2, minPass: 2 }), fixture('slow', { count: 2, minPass: 2 }), fixture('once')], personas: [], baselines: NO_BASELINES },
      {
        agent: client,
        regex: regexPool(),
        judge: null,
        sessionId: (f) => `s-${f.label}`,
        signal: interrupt.signal,
        onProgress: (p) => {
          if (p.done === 2) interrupt.abort();
        },
      },
      { ...OPTIONS, concurrency: 2 },
    );
    expect(run.interrupted).toBe(true);
    expect(run.fixtures.map((f) => f.label)).toEqual(['done', 'once']);
    expect(run.fixtures[0]).toMatchObject({ verdict: 'pass', repeat: { count: 2, passed: 2 } });
    expect(run.tallies).toEqual({ passed: 2, failed: 0, notEvaluated: 0, errored: 0 });
  });
});
