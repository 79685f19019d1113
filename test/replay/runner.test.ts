// The runner: bounded concurrency against a real loopback agent, fixture order kept whatever the
// completion order, progress to the total, and every failure isolated to its fixture.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { defaultConfig } from '../../src/config.js';
import { NO_BASELINES, replay, type Progress } from '../../src/replay/index.js';
import type { AgentClient, Baseline, Fixture, RegexEvaluator } from '../../src/types.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { noSessions } from '../support/fakes.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function fixture(label: string, message = label, assertion: Fixture['assertion'] = { kind: 'contains', value: `echo: ${message}` }): Fixture {
  return { label, message, persona: null, assertion, file: '.agent-replay/fixtures/f.yml', line: 1 };
}

const OPTIONS = replayOptions();

function regexPool(): RegexEvaluator {
  const pool = createRegexPool({ size: 1, timeoutMs: 1000 });
  cleanups.push(() => pool.close());
  return pool;
}

function httpAgent(server: AgentServer, concurrency: number, signal?: AbortSignal): AgentClient {
  const client = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, concurrency, retries: 0 }, { signal });
  cleanups.push(() => client.close());
  return client;
}

/**
 * An agent that holds every request until the test releases it. Whenever all requests that can be
 * in flight have arrived, it releases the newest one, so that completion order is the reverse of
 * arrival order within each window (never the fixture order).
 */
async function gatedAgent(total: number, concurrency: number) {
  const held: { message: string; release: () => void }[] = [];
  const completed: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let released = 0;
  const releaseIfFull = (): void => {
    const pending = total - released;
    if (held.length > 0 && held.length === Math.min(concurrency, pending)) {
      const newest = held.pop() as (typeof held)[number];
      released += 1;
      completed.push(newest.message);
      newest.release();
    }
  };
  const server = await startAgentServer(async (req) => {
    const message = String((req.json as { message: unknown }).message);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise<void>((release) => {
      held.push({ message, release });
      releaseIfFull();
    });
    inFlight -= 1;
    // The next request may not come (the last window): release again when it cannot.
    queueMicrotask(releaseIfFull);
    return { json: { reply: `echo: ${message}`, route: { conversation: 'c', stage: message } } };
  });
  cleanups.push(() => server.close());
  return { server, completed, get maxInFlight() { return maxInFlight; } };
}

describe('replay', () => {
  it('keeps at most `concurrency` requests in flight, and exactly that many at its peak', async () => {
    const labels = Array.from({ length: 10 }, (_, i) => `f${i}`);
    const gate = await gatedAgent(labels.length, 3);
    const progress: Progress[] = [];
    const record = await replay(
      { fixtures: labels.map((l) => fixture(l)), personas: [], baselines: NO_BASELINES },
      { agent: httpAgent(gate.server, 8), regex: regexPool(), judge: null, onProgress: (p) => progress.push(p) },
      { ...OPTIONS, concurrency: 3 },
    );
    expect(gate.maxInFlight).toBe(3);
    expect(gate.server.requests).toHaveLength(10);
    // Results keep fixture order although the agent answered in another order.
    expect(gate.completed).not.toEqual(labels);
    expect([...gate.completed].sort()).toEqual([...labels].sort());
    expect(record.fixtures.map((f) => f.label)).toEqual(labels);
    expect(record.fixtures.every((f) => f.verdict === 'pass' && f.reply === `echo: ${f.label}`)).toBe(true);
    // Progress counts every fixture once, up to the total.
    expect(progress.map((p) => p.done)).toEqual(labels.map((_, i) => i + 1));
    expect(progress.every((p) => p.total === 10)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ done: 10, passed: 10, failed: 0, notEvaluated: 0, errored: 0 });
    expect(record.tallies).toEqual({ passed: 10, failed: 0, notEvaluated: 0, errored: 0 });
  });

  it('runs one at a time with concurrency 1, in fixture order', async () => {
    const labels = ['a', 'b', 'c', 'd'];
    const gate = await gatedAgent(labels.length, 1);
    const record = await replay({ fixtures: labels.map((l) => fixture(l)), personas: [], baselines: NO_BASELINES }, { agent: httpAgent(gate.server, 4), regex: regexPool(), judge: null }, { ...OPTIONS, concurrency: 1 });
    expect(gate.maxInFlight).toBe(1);
    expect(gate.completed).toEqual(labels);
    expect(record.fixtures.map((f) => f.label)).toEqual(labels);
  });

  it('an AgentClient that throws makes that fixture errored (internal) and no other', async () => {
    const agent: AgentClient = {
      converse: async (req) => {
        if (req.message === 'boom') throw new Error('socket exploded');
        return { kind: 'replied', reply: `echo: ${req.message}`, route: { conversation: 'c', stage: 's' }, offTrack: [], ended: false, turns: 2 };
      },
      session: noSessions,
      close: async () => undefined,
    };
    const stored: Baseline = { label: 'b', reply: 'old', route: null, verdict: 'pass', acceptedAt: 'x', commit: null };
    const progress: Progress[] = [];
    const record = await replay(
      { fixtures: [fixture('a'), fixture('b', 'boom'), fixture('c', 'c', { kind: 'regex', pattern: '^echo', flags: '' }), fixture('d', 'd', null)], personas: [], baselines: { fixtures: new Map([['b', stored]]), personas: new Map() } },
      { agent, regex: regexPool(), judge: null, onProgress: (p) => progress.push(p) },
      OPTIONS,
    );
    const [a, b, c, d] = record.fixtures;
    expect(b).toMatchObject({ label: 'b', errored: true, errorKind: 'internal', verdict: null, drift: null, reply: null, route: null, baseline: stored });
    expect(b?.error).toBe('internal error calling the agent: socket exploded');
    expect(b?.detail).toBe(b?.error);
    expect(a).toMatchObject({ errored: false, verdict: 'pass' });
    expect(c).toMatchObject({ errored: false, verdict: 'pass' });
    expect(d).toMatchObject({ errored: false, verdict: 'pass', detail: 'probe: nothing to check' });
    expect(record.tallies).toEqual({ passed: 3, failed: 0, notEvaluated: 0, errored: 1 });
    expect(progress.at(-1)).toMatchObject({ done: 4, total: 4, errored: 1, passed: 3 });
  });

  it('a failing progress callback or session id never loses the run', async () => {
    const agent: AgentClient = {
      converse: async (req) => ({ kind: 'replied', reply: req.message, route: null, offTrack: [], ended: false, turns: 1 }),
      session: noSessions,
      close: async () => undefined,
    };
    const record = await replay(
      { fixtures: [fixture('a', 'a', null), fixture('b', 'b', null)], personas: [], baselines: NO_BASELINES },
      {
        agent,
        regex: regexPool(),
        judge: null,
        onProgress: () => {
          throw new Error('stderr closed');
        },
        sessionId: (f) => {
          if (f.label === 'b') throw new Error('no session for b');
          return `s-${f.label}`;
        },
      },
      OPTIONS,
    );
    expect(record.fixtures.map((f) => [f.label, f.errored, f.errorKind])).toEqual([
      ['a', false, null],
      ['b', true, 'internal'],
    ]);
    expect(record.fixtures[1]?.error).toContain('no session for b');
  });

  it('a RegexEvaluator that throws makes the check not evaluated, not the replay errored', async () => {
    const agent: AgentClient = {
      converse: async (req) => ({ kind: 'replied', reply: req.message, route: null, offTrack: [], ended: false, turns: 1 }),
      session: noSessions,
      close: async () => undefined,
    };
    const regex: RegexEvaluator = {
      test: () => Promise.reject(new Error('pool is gone')),
      close: async () => undefined,
    };
    const record = await replay({ fixtures: [fixture('a', 'a', { kind: 'regex', pattern: 'a', flags: '' })], personas: [], baselines: NO_BASELINES }, { agent, regex, judge: null }, OPTIONS);
    expect(record.fixtures[0]).toMatchObject({ errored: false, verdict: 'not_evaluated', reply: 'a', drift: { verdict: 'no_baseline' } });
    expect(record.fixtures[0]?.detail).toMatch(/pool is gone/);
  });

  it('an empty suite is an empty record', async () => {
    const agent: AgentClient = { converse: () => Promise.reject(new Error('never called')), session: noSessions, close: async () => undefined };
    const record = await replay({ fixtures: [], personas: [], baselines: NO_BASELINES }, { agent, regex: regexPool(), judge: null }, OPTIONS);
    expect(record.fixtures).toEqual([]);
    expect(record.tallies).toEqual({ passed: 0, failed: 0, notEvaluated: 0, errored: 0 });
  });
});

describe('an interrupted replay', () => {
  it('starts nothing after the signal, abandons what is in flight, and records only what finished', async () => {
    // Answers the first three messages; the others hang until the server is closed.
    const server = await startAgentServer((req) => {
      const message = String((req.json as { message: unknown }).message);
      return ['a', 'b', 'c'].includes(message) ? { json: { reply: `echo: ${message}`, route: { conversation: 'c', stage: message } } } : 'hang';
    });
    cleanups.push(() => server.close());
    const interrupt = new AbortController();
    const labels = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const record = await replay(
      { fixtures: labels.map((l) => fixture(l)), personas: [], baselines: NO_BASELINES },
      {
        // The client cancels the request in flight when the run is interrupted.
        agent: httpAgent(server, 2, interrupt.signal),
        regex: regexPool(),
        judge: null,
        signal: interrupt.signal,
        onProgress: (p) => {
          if (p.done === 3) interrupt.abort(new Error('test'));
        },
      },
      { ...OPTIONS, concurrency: 2 },
    );
    expect(record.interrupted).toBe(true);
    expect(record.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c']);
    expect(record.tallies).toEqual({ passed: 3, failed: 0, notEvaluated: 0, errored: 0 });
    // At most d was in flight when the signal came (abandoned); nothing after it was sent.
    const sent = server.requests.map((r) => (r.json as { message: string }).message);
    expect(sent.filter((m) => !['a', 'b', 'c', 'd'].includes(m))).toEqual([]);
  });

  it('a signal before the first fixture records none, and a run that finished is not interrupted', async () => {
    const server = await startAgentServer();
    cleanups.push(() => server.close());
    const before = new AbortController();
    before.abort(new Error('test'));
    const none = await replay({ fixtures: [fixture('a')], personas: [], baselines: NO_BASELINES }, { agent: httpAgent(server, 1), regex: regexPool(), judge: null, signal: before.signal }, OPTIONS);
    expect(none).toMatchObject({ interrupted: true, fixtures: [], tallies: { passed: 0, failed: 0, notEvaluated: 0, errored: 0 } });
    expect(server.requests).toHaveLength(0);

    const complete = await replay({ fixtures: [fixture('a')], personas: [], baselines: NO_BASELINES }, { agent: httpAgent(server, 1), regex: regexPool(), judge: null, signal: new AbortController().signal }, OPTIONS);
    expect(complete.interrupted).toBe(false);
    expect(complete.fixtures).toHaveLength(1);
  });
});
