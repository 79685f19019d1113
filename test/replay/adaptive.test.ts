// Adaptive concurrency (docs/configuration.md, "Adaptive concurrency") against real loopback
// servers: an agent, and a judge, that answer 429 whenever more than 4 requests are in flight,
// driven at concurrency 16. Nothing errors, and the limit settles at 4-5: once down to 4 it never
// goes above 5 (the first value that overloads the server), and every request above 4 in flight was
// one the server turned away.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { defaultConfig } from '../../src/config.js';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import { createJudge } from '../../src/judge/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { Clock, Fixture, RegexEvaluator } from '../../src/types.js';
import { nativeEcho, startAgentServer, type AgentReply } from '../support/agent-server.js';
import { startServer } from '../judge/server.js';
import { replayOptions } from '../support/replay-options.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Backoff and Retry-After waits return at once: the test never sleeps. */
const instantClock: Clock = { now: () => 1_000_000, sleep: async () => undefined };
const noRegex: RegexEvaluator = { test: () => Promise.reject(new Error('unused')), close: async () => undefined };
const CAPACITY = 4;

/** The server's own count: requests it is working on, and the most it worked on at once. */
function overloadCounter() {
  let inFlight = 0;
  const counts = { served: 0, throttled: 0, peakServed: 0 };
  return {
    counts,
    /** Answers 429 above CAPACITY in flight; else holds the request one macrotask and serves it. */
    async admit<T>(serve: () => T | Promise<T>, throttle: () => T): Promise<T> {
      inFlight += 1;
      if (inFlight > CAPACITY) {
        inFlight -= 1;
        counts.throttled += 1;
        return throttle();
      }
      counts.peakServed = Math.max(counts.peakServed, inFlight);
      // Work that takes a little while, so that the client's requests overlap at the server.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      counts.served += 1;
      return serve();
    },
  };
}

/** The limit from the first time it came down to the server's capacity: where it settled. */
function settled(history: readonly number[]): number[] {
  const first = history.findIndex((limit) => limit <= CAPACITY);
  expect(first).toBeGreaterThan(0);
  return history.slice(first);
}

const OPTIONS = replayOptions({ concurrency: 16 });

describe('adaptive concurrency', () => {
  it('the agent: 200 fixtures at concurrency 16 against an agent that refuses above 4 in flight', async () => {
    const server = overloadCounter();
    const agent = await startAgentServer((req) => server.admit<AgentReply>(async () => nativeEcho(req), () => ({ status: 429, json: { error: 'slow down' } })));
    cleanups.push(() => agent.close());
    const limiter = new AdaptiveLimiter(16, instantClock); // the client's clock, as in a run: its deadlines are on it
    const client = createHttpAgentClient(
      { ...defaultConfig().agent, url: agent.url, start: null, concurrency: 16, retries: 50, backoffMs: 1 },
      { clock: instantClock, random: () => 0.5, limiter },
    );
    cleanups.push(() => client.close());
    const fixtures: Fixture[] = Array.from({ length: 200 }, (_, i) => ({
      label: `f${i}`,
      message: `m${i}`,
      persona: null,
      assertion: { kind: 'contains', value: `echo: m${i}` },
      file: '.agent-replay/fixtures/f.yml',
      line: i + 1,
    }));

    const record = await replay({ fixtures: fixtures, personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);

    expect(record.tallies).toMatchObject({ errored: 0, passed: 200 });
    expect(server.counts.served).toBe(200);
    expect(server.counts.throttled).toBeGreaterThan(0); // the burst of 16 did overload the agent
    expect(server.counts.peakServed).toBeLessThanOrEqual(CAPACITY);
    expect(limiter.history[0]).toBe(16);
    expect(Math.max(...settled(limiter.history))).toBeLessThanOrEqual(CAPACITY + 1);
    // Far fewer refusals than requests: the client stopped pushing above the agent's capacity.
    expect(server.counts.throttled).toBeLessThan(server.counts.served / 2);
  });

  it('the judge: 100 calls at once against a judge that refuses above 4 in flight', async () => {
    const server = overloadCounter();
    const ok = { choices: [{ index: 0, message: { role: 'assistant', content: '{"score": 0.9, "rationale": "fine"}' } }] };
    const judgeServer = await startServer([
      (res) => {
        void server.admit(
          () => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(ok));
          },
          () => {
            res.writeHead(429, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { message: 'rate limited' } }));
          },
        );
      },
    ]);
    cleanups.push(() => judgeServer.close());
    const limiter = new AdaptiveLimiter(16, instantClock); // the client's clock, as in a run: its deadlines are on it
    const judge = createJudge(
      { provider: 'openai', baseUrl: judgeServer.url, model: 'm', apiKey: 'k', timeoutMs: 5000, retries: 50, backoffMs: 1, concurrency: 16, label: null },
      { clock: instantClock, random: () => 0.5, limiter },
    );
    cleanups.push(() => judge.close());

    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => judge.score('polite', `reply ${i}`)));

    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.counts.served).toBe(100);
    expect(server.counts.throttled).toBeGreaterThan(0);
    expect(Math.max(...settled(limiter.history))).toBeLessThanOrEqual(CAPACITY + 1);
    expect(server.counts.throttled).toBeLessThan(server.counts.served / 2);
  });

  it('judge.concurrency is the judge limiter\'s maximum: 2 calls in flight at most', async () => {
    let inFlight = 0;
    let peak = 0;
    const ok = { choices: [{ index: 0, message: { role: 'assistant', content: '{"score": 1, "rationale": "ok"}' } }] };
    const judgeServer = await startServer([
      (res) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        setImmediate(() => {
          inFlight -= 1;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(ok));
        });
      },
    ]);
    cleanups.push(() => judgeServer.close());
    const judge = createJudge(
      { provider: 'openai', baseUrl: judgeServer.url, model: 'm', apiKey: 'k', timeoutMs: 5000, retries: 0, backoffMs: 1, concurrency: 2, label: null },
      { clock: instantClock },
    );
    cleanups.push(() => judge.close());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => judge.score('polite', `reply ${i}`)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(2);
  });
});
