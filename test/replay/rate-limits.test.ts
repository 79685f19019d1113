// Rate limits against real loopback servers, with the default retry budget (2 retries): an agent and
// a judge that answer 429 above 4 requests in flight, or above N requests per second, with
// "Retry-After: 0" or "Retry-After: N". A 429 spends no retry, so nothing errors; a server that
// answers only 429 without a wait ends the item errored once the free 429s (the limiter's halvings
// down to 1, and a lone refusal) and the retries are spent.
// A 429 with "Retry-After: 1" reads as a rate limit and leaves the concurrency as it is, so a server
// that takes 400 ms a request is still sent 5 a second; one without halves it, as an overload.
//
// Time is virtual and in order (virtualClock below): the client's clock and the per-second server
// read the same clock, waits end in the order of their wake times, and the jitter is seeded, so no
// test sleeps for real seconds and every run of a test sees the same times.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { defaultConfig } from '../../src/config.js';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import { createJudge } from '../../src/judge/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { Clock, Fixture, RegexEvaluator } from '../../src/types.js';
import { nativeEcho, startAgentServer, type AgentReply } from '../support/agent-server.js';
import type { ServerResponse } from 'node:http';
import { json, startServer, type Responder } from '../judge/server.js';
import { replayOptions } from '../support/replay-options.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/**
 * Virtual time, in order: `sleep(ms)` sets a timer at now + ms; the earliest timer (first set
 * first, on a tie) fires only when no request is on the wire (`idle`), and moves the clock to its
 * time. So a wait never ends before a shorter one set earlier, and the server reads the time the
 * requests were sent at, however the event loop interleaves the real sockets. `work(ms)` is the
 * server's latency: a timer like the others, whose request is `parked` while it runs (on the wire,
 * and waiting for the clock all the same: `idle` counts it out).
 */
function virtualClock(idle: () => boolean = () => true): Clock & { sleeps: number[]; parked: number; work: (ms: number) => Promise<void>; paced: Clock } {
  let t = 0;
  let seq = 0;
  let pumping = false;
  const sleeps: number[] = [];
  const timers: { wake: number; seq: number; fire: () => void }[] = [];
  const timer = (ms: number, fire: () => void): void => {
    timers.push({ wake: t + ms, seq: seq++, fire });
    if (!pumping) {
      pumping = true;
      setImmediate(step);
    }
  };
  const step = (): void => {
    if (timers.length === 0) {
      pumping = false;
      return;
    }
    if (idle()) {
      timers.sort((a, b) => a.wake - b.wake || a.seq - b.seq);
      const next = timers.shift() as (typeof timers)[number];
      if (next.wake > t) t = next.wake;
      next.fire();
    }
    setImmediate(step);
  };
  const clock = {
    sleeps,
    /** Requests the server is working on (`work`): on the wire, and waiting for the clock all the same. */
    parked: 0,
    now: () => t,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        sleeps.push(ms);
        timer(ms, resolve);
      }),
    /** The limiter's clock: its pacing waits are timers like the others, not counted among the retry loop's sleeps. */
    paced: { now: () => t, sleep: (ms: number) => new Promise<void>((resolve) => timer(ms, resolve)) },
    /** The server's latency: `ms` of virtual time, not counted among the client's sleeps. */
    work: (ms: number) =>
      new Promise<void>((resolve) => {
        clock.parked += 1;
        timer(ms, () => {
          clock.parked -= 1;
          resolve();
        });
      }),
  };
  return clock;
}

/** A seeded jitter source (mulberry32): the same backoffs on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const noRegex: RegexEvaluator = { test: () => Promise.reject(new Error('unused')), close: async () => undefined };

const OPTIONS = replayOptions({ concurrency: 16 });
type VirtualClock = ReturnType<typeof virtualClock>;

type Limit = { kind: 'in-flight'; max: number } | { kind: 'per-second'; max: number };

/**
 * A server's admission rule: 429 (with `retryAfter`) above `limit`; else the request is worked on a
 * moment (`latencyMs` of virtual time when given) and served.
 */
function gate(limit: Limit, clock: VirtualClock, retryAfter: string | null, latencyMs = 0) {
  let inFlight = 0;
  const perSecond = new Map<number, number>();
  const counts = { served: 0, throttled: 0, peakInFlight: 0, peakPerSecond: 0 };
  return {
    counts,
    retryAfter,
    async admit<T>(serve: () => T, throttle: () => T): Promise<T> {
      if (limit.kind === 'in-flight') {
        if (inFlight + 1 > limit.max) {
          counts.throttled += 1;
          return throttle();
        }
      } else {
        const second = Math.floor(clock.now() / 1000);
        const n = (perSecond.get(second) ?? 0) + 1;
        if (n > limit.max) {
          counts.throttled += 1;
          return throttle();
        }
        perSecond.set(second, n);
        counts.peakPerSecond = Math.max(counts.peakPerSecond, n);
      }
      inFlight += 1;
      counts.peakInFlight = Math.max(counts.peakInFlight, inFlight);
      if (latencyMs > 0) await clock.work(latencyMs);
      else {
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
      }
      inFlight -= 1;
      counts.served += 1;
      return serve();
    },
  };
}

/** How a server says what is left of its quota and when it resets (whole seconds from now). */
const SAID = {
  'X-RateLimit': (left: number, reset: string): Record<string, string> => ({ 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': reset }),
  RateLimit: (left: number, reset: string): Record<string, string> => ({ ratelimit: `"default";r=${left};t=${reset}` }),
};

/**
 * A quota of `quota` requests in each fixed window of `windowMs`, said on every answer (`said`:
 * the remaining count, and whole seconds to the window's end, rounded up), and a 429 without a
 * Retry-After once the window's quota is spent.
 */
function windowQuota(quota: number, windowMs: number, said: (left: number, reset: string) => Record<string, string>) {
  const used = new Map<number, number>();
  const counts = { served: 0, refused: 0 };
  return {
    counts,
    answer(req: Parameters<typeof nativeEcho>[0], clock: VirtualClock): AgentReply {
      const w = Math.floor(clock.now() / windowMs);
      const n = used.get(w) ?? 0;
      const reset = String(Math.ceil(((w + 1) * windowMs - clock.now()) / 1000));
      if (n >= quota) {
        counts.refused += 1;
        return { status: 429, headers: said(0, reset), json: { error: 'slow down' } };
      }
      used.set(w, n + 1);
      counts.served += 1;
      return { ...(nativeEcho(req) as Exclude<AgentReply, string>), headers: said(quota - n - 1, reset) };
    },
  };
}

function fixtures(n: number): Fixture[] {
  return Array.from({ length: n }, (_, i) => ({
    label: `f${i}`,
    message: `m${i}`,
    persona: null,
    assertion: { kind: 'contains', value: `echo: m${i}` },
    file: '.agent-replay/fixtures/f.yml',
    line: i + 1,
  }));
}

/** The defaults users run with (2 retries, 250 ms backoff), a 10 s turn deadline: a 30 s budget per request. */
async function agentUnder(limit: Limit, retryAfter: string | null, handler?: (req: Parameters<typeof nativeEcho>[0], clock: VirtualClock) => AgentReply | Promise<AgentReply>, latencyMs = 0, advertised: Record<string, string> = {}, random = seeded(27)) {
  const clock: VirtualClock = virtualClock(() => limiter.active === clock.parked);
  const limiter = new AdaptiveLimiter(16, clock.paced);
  const server = gate(limit, clock, retryAfter, latencyMs);
  const agent = await startAgentServer((req) =>
    handler ? handler(req, clock) : server.admit<AgentReply>(
          () => ({ ...(nativeEcho(req) as Exclude<AgentReply, string>), headers: advertised }),
          () => ({ status: 429, headers: retryAfter === null ? advertised : { ...advertised, 'retry-after': retryAfter }, json: { error: 'slow down' } }),
        ),
  );
  cleanups.push(() => agent.close());
  let retried = 0;
  const client = createHttpAgentClient(
    { ...defaultConfig().agent, url: agent.url, start: null, concurrency: 16, timeoutMs: 10_000 },
    { clock, limiter, random, onRetry: () => void (retried += 1) },
  );
  cleanups.push(() => client.close());
  expect(defaultConfig().agent.retries).toBe(2);
  return { clock, server, agent, limiter, client, retried: () => retried };
}

describe('agent rate limits (default retries)', () => {
  it('429 above 4 in flight with Retry-After: 0: 200 fixtures at concurrency 16, none errored, and the limit settles instead of sawing', async () => {
    const { server, client, limiter } = await agentUnder({ kind: 'in-flight', max: 4 }, '0');
    const record = await replay({ fixtures: fixtures(200), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 200 });
    expect(server.counts.served).toBe(200);
    expect(server.counts.throttled).toBeGreaterThan(0);
    expect(server.counts.peakInFlight).toBeLessThanOrEqual(4);
    // Once down to the server's capacity the limit probes above it at most a few times, each
    // probe waiting longer than the one before: far fewer than one probe per window of successes.
    const settledAt = limiter.history.findIndex((l) => l <= 4);
    const probes = limiter.history.slice(settledAt).filter((l) => l > 4).length;
    expect(probes).toBeLessThanOrEqual(3);
  });

  it('429 above 5 per second with Retry-After: 0: none errored, never more than 5 served in one second', async () => {
    const { server, client, clock } = await agentUnder({ kind: 'per-second', max: 5 }, '0');
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    // Said when it fails: which fixture errored, why, and at what virtual time (a rare failure under load).
    const why = `${record.fixtures.filter((f) => f.errored).map((f) => `${f.label}: ${f.error ?? ''}`).join('; ')} (virtual time ${clock.now()} ms)`;
    expect(record.tallies, why).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.served).toBe(60);
    expect(server.counts.peakPerSecond).toBe(5);
    expect(server.counts.throttled).toBeGreaterThan(0);
    // 60 at 5 a second: 12 seconds of virtual time; refused requests come back soon after each
    // second opens (the capped backoff), so the run ends within 1.1 x that floor, not 3 x.
    expect(clock.now()).toBeGreaterThanOrEqual(11_000);
    expect(clock.now()).toBeLessThanOrEqual(13_200);
  });

  it('429 above 5 per second with Retry-After: 1: none errored, and every wait is at least the second asked for', async () => {
    const { server, client, clock } = await agentUnder({ kind: 'per-second', max: 5 }, '1');
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.served).toBe(60);
    expect(server.counts.peakPerSecond).toBe(5);
    expect(clock.sleeps.length).toBe(server.counts.throttled);
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(1000);
    // The Retry-After and a jitter, not a backoff growing on top of it: within 1.1 x the 12 s floor.
    expect(clock.now()).toBeLessThanOrEqual(13_200);
    // Paced to the 5 a second the agent accepted once its first 429 came: the first 16 sent at once
    // are 11 refused, and few after them (149 when every second opened to 16 requests, not 5).
    expect(server.counts.throttled).toBeLessThanOrEqual(20);
  });

  // A per-second limit is not an in-flight limit: at 400 ms a request, a limit halved to 1 carries
  // 2.5 requests a second of the 5 allowed (the run took 19.8 s of virtual time when every 429 halved).
  // Nor is it knocked on: the starts are paced to the 5 a second it accepts (135 refused when every
  // second's 16 were sent to be 11 refused).
  it('429 above 5 per second with Retry-After: 1, the agent answering in 400 ms: the limit stays at 16, starts are paced at 5 a second, and 60 fixtures end within 1.1 x the 12 s floor with few refused', async () => {
    const { server, client, clock, limiter } = await agentUnder({ kind: 'per-second', max: 5 }, '1', undefined, 400);
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.served).toBe(60);
    expect(server.counts.peakPerSecond).toBe(5);
    expect(server.counts.throttled).toBeGreaterThan(0);
    expect(clock.now()).toBeLessThanOrEqual(13_200);
    expect(limiter.history).toEqual([16]);
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(1000);
    expect(server.counts.throttled).toBeLessThanOrEqual(20);
    expect(limiter.pace).toEqual({ perWindow: 5, windowMs: 1000 });
  });

  // An agent limited in flight that answers with a wait of a second or more reads as a rate limit:
  // the limit stays, and the starts are paced at the successes of the last window, which at 400 ms
  // a request keep about 4 in flight. Unpaced, the run took 8.2 s (68 refused) with Retry-After: 1
  // and 11.1 s (46 refused) with Retry-After: 2; halved, 6.7 s and 6.4 s. The floor is 6 s.
  it.each([
    ['1', 7_800],
    ['2', 7_000],
  ])('429 above 4 in flight with Retry-After: %s, the agent answering in 400 ms: paced, 60 fixtures within %d ms of virtual time and few refused', async (retryAfter, bound) => {
    const { server, client, clock, limiter } = await agentUnder({ kind: 'in-flight', max: 4 }, retryAfter, undefined, 400);
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.peakInFlight).toBeLessThanOrEqual(4);
    expect(clock.now()).toBeLessThanOrEqual(bound);
    // The first 16 sent at once are 12 refused; few after them.
    expect(server.counts.throttled).toBeLessThanOrEqual(20);
    expect(limiter.history).toEqual([16]);
  });

  it('429 above 4 in flight without Retry-After, the agent answering in 400 ms: still halved, as an overload', async () => {
    const { server, client, limiter } = await agentUnder({ kind: 'in-flight', max: 4 }, null, undefined, 400);
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.peakInFlight).toBeLessThanOrEqual(4);
    expect(limiter.history.slice(0, 3)).toEqual([16, 8, 4]);
  });

  // A per-second limit that says nothing of a rate (`Retry-After: 0`, or none) reads as too many in
  // flight and halves the limit, until a 429 comes to a request sent alone while others waited for
  // its slot: no limit on requests in flight refuses a lone request from a server that served some.
  // From then on its 429s are a rate limit's: the limit is back at 16 and the starts are paced. The
  // run took 23.0 s of virtual time with 52 refused when every 429 halved. Against an agent that
  // answers at once, the refused requests wait out their backoff holding no slot, so none waits for
  // the slot of the lone request refused, and the limit sat at 1, unpaced: 12.5 s, but 163 refused.
  // Two lone requests refused in a row, nothing answered between, tell the same: 22 refused (17 of
  // them the first burst, nothing measured yet), in 11.8 s.
  it.each([
    ['0', 400],
    [null, 400],
    ['0', 0],
    [null, 0],
  ])('429 above 5 per second with Retry-After: %s, the agent answering in %d ms: read as a rate limit once a lone request is refused (others waiting, or twice in a row), 60 fixtures within 1.1 x the 12 s floor, few refused', async (retryAfter, latencyMs) => {
    const { server, client, clock, limiter } = await agentUnder({ kind: 'per-second', max: 5 }, retryAfter, undefined, latencyMs);
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.peakPerSecond).toBe(5);
    expect(clock.now()).toBeLessThanOrEqual(13_200);
    expect(server.counts.throttled).toBeLessThanOrEqual(25);
    expect(limiter.history.at(-1)).toBe(16);
    expect(limiter.pace).toEqual({ perWindow: 5, windowMs: 1000 });
  });

  // The agent names its quota (`RateLimit-Policy: "default";q=5;w=1`) on every answer: the pace is
  // set from the first, a 429 of the first burst, before any success could be measured. At 1.5 s a
  // request the 429s of the first burst come before any success, so the pace measured waited for a
  // later 429, and 20 were refused; read from the header, 11, all of the first burst.
  it('an agent that names its quota of 5 a second in RateLimit-Policy, answering in 1.5 s: paced from its first answer, only the first burst refused', async () => {
    const { server, client, clock, limiter } = await agentUnder({ kind: 'per-second', max: 5 }, '1', undefined, 1500, { 'ratelimit-policy': '"default";q=5;w=1' });
    const record = await replay({ fixtures: fixtures(60), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 60 });
    expect(server.counts.peakPerSecond).toBe(5);
    expect(server.counts.throttled).toBe(11);
    expect(clock.now()).toBeLessThanOrEqual(13_400);
    expect(limiter.paceHistory).toEqual([{ perWindow: 5, windowMs: 1000 }]);
    expect(limiter.history).toEqual([16]);
  });

  // The agent says what is left of its quota and when it resets (X-RateLimit-Remaining and
  // X-RateLimit-Reset in seconds from now, or the IETF draft's RateLimit r and t): the answer that
  // spends it holds every start until the reset. Unread, the 429s without a wait were each retried after a backoff, into the spent window:
  // 30 fixtures took 26.5 s with 22 refused; read, 12.2 s with 15 refused, 11 of them the first burst
  // (its 16 sent before any answer). The floor is 10 s; the rest is the reset rounded up to whole
  // seconds, as the server writes it.
  it.each(['X-RateLimit', 'RateLimit'] as const)('an agent that says in %s that its quota of 5 per 2 s is spent, and when it resets: no start until the reset, few refused', async (form) => {
    const quota = windowQuota(5, 2000, SAID[form]);
    const { client, clock } = await agentUnder({ kind: 'in-flight', max: 0 }, null, (req, c) => quota.answer(req, c));
    const record = await replay({ fixtures: fixtures(30), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 0, passed: 30 });
    expect(quota.counts.served).toBe(30);
    // 30 at 5 per 2 s: the sixth window opens at 10 s.
    expect(clock.now()).toBeLessThanOrEqual(13_000);
    expect(quota.counts.refused).toBeLessThanOrEqual(16);
  });

  it('a spent quota whose reset is further than the time budget: given up at once, naming the header, as a Retry-After beyond the budget is', async () => {
    const { client, agent, clock } = await agentUnder({ kind: 'in-flight', max: 0 }, null, () => ({ status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3600' }, json: { error: 'slow down' } }));
    const record = await replay({ fixtures: fixtures(1), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.fixtures[0]?.error).toBe(
      'message turn: agent returned HTTP 429 after 1 attempt (rate limited: the server\'s quota is spent until its X-RateLimit-Reset, 3,600,000 ms away, more than the 30,000 ms left of the time budget of 30,000 ms, timeoutMs x attempts; given up at once instead of waiting): {"error":"slow down"}',
    );
    quotedAndSaid(record.fixtures[0]?.error ?? '', "agent returned HTTP 429 after <n> attempts (rate limited: the server's quota is spent until its X-RateLimit-Reset, <ms> ms away, more than the <ms> ms left of the time budget ...)", { '<n> attempts': '1 attempt' });
    expect(agent.requests).toHaveLength(1);
    expect(clock.now()).toBe(0);
  });

  // Another turn's answer says the quota is spent until a reset past what is left of this turn's
  // budget: the retry is not held until the reset (it was, and sent at 44 s, 14 s past its budget),
  // it is given up at once, in the words of a Retry-After beyond the budget.
  it("a retry whose budget ends before the reset another turn's answer said: given up at once, naming the header, not sent", async () => {
    const { client, agent, clock } = await agentUnder({ kind: 'in-flight', max: 0 }, null, async (req, c) => {
      if (req.body.includes('"m0"')) return agent.requests.filter((r) => r.body.includes('"m0"')).length === 1 ? { status: 429, headers: { 'retry-after': '25' }, json: { error: 'slow down' } } : nativeEcho(req);
      await c.work(24_000);
      return { ...(nativeEcho(req) as Exclude<AgentReply, string>), headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' } };
    });
    const record = await replay({ fixtures: fixtures(2), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 1, passed: 1 });
    const m = /^message turn: agent returned HTTP 429 after 1 attempt \(rate limited: the server's quota is spent until its X-RateLimit-Reset, (\d{1,3}(?:,\d{3})*) ms away, more than the (\d{1,3}(?:,\d{3})*) ms left of the time budget of 30,000 ms, timeoutMs x attempts; given up at once instead of waiting\): \{"error":"slow down"\}$/.exec(record.fixtures[0]?.error ?? '');
    expect(m, record.fixtures[0]?.error ?? 'no error').not.toBeNull();
    // Retried after the 25 s asked and a jitter: the reset is at 44 s, the budget ends at 30 s.
    expect(Number(m?.[1]?.replace(/,/g, '') ?? NaN) + clock.now()).toBe(44_000);
    expect(Number(m?.[2]?.replace(/,/g, '') ?? NaN) + clock.now()).toBe(30_000);
    expect(agent.requests.filter((r) => r.body.includes('"m0"'))).toHaveLength(1);
    expect(clock.now()).toBeLessThan(30_000);
  });

  // The pace a rate limit's 429 set (starts 10 s apart) puts the retry's start past its budget: it
  // is not waited for (it was, and sent past the budget), it is given up at once, the pace named.
  // The figures hold for any jitter (0 to 249 ms of the 250 ms backoff): the paced start comes at
  // least 1 s after the budget ends, whichever jitter each retry drew.
  it.each([
    ['the least', () => 0],
    ['the most', () => 0.9999],
    ['a seeded', seeded(27)],
  ])("a retry whose paced start comes after its budget ends: given up at once, not sent, the pace and the wait said (%s jitter)", async (_, random) => {
    const { client, agent, clock, limiter } = await agentUnder({ kind: 'in-flight', max: 0 }, null, async (req, c) => {
      const tries = (m: string): number => agent.requests.filter((r) => r.body.includes(`"${m}"`)).length;
      // f1 answers at once; f2's 429 at 1 s (Retry-After: 20) then sets the pace at that one success
      // per 20 s; f0's 429 at 1.001 s (Retry-After: 21), sent before the pace, leaves it.
      if (req.body.includes('"m2"') && tries('m2') === 1) return c.work(1000).then(() => ({ status: 429, headers: { 'retry-after': '20' }, json: { error: 'slow down' } }));
      if (req.body.includes('"m0"') && tries('m0') === 1) return c.work(1001).then(() => ({ status: 429, headers: { 'retry-after': '21' }, json: { error: 'slow down' } }));
      return nativeEcho(req);
    }, 0, {}, random);
    const record = await replay({ fixtures: fixtures(3), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 1, passed: 2 });
    const m = /^message turn: agent returned HTTP 429 after 1 attempt \(rate limited: the requests are paced at 2 starts per 20,000 ms since the server's rate limit, so the next attempt would start (\d{1,3}(?:,\d{3})*) ms from now, more than the (\d{1,3}(?:,\d{3})*) ms left of the time budget of 30,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait\): \{"error":"slow down"\}$/.exec(record.fixtures[0]?.error ?? '');
    expect(m, record.fixtures[0]?.error ?? 'no error').not.toBeNull();
    quotedAndSaid(
      record.fixtures[0]?.error ?? '',
      "agent returned HTTP 429 after <n> attempts (rate limited: the requests are paced at <n> starts per <ms> ms since the server's rate limit, so the next attempt would start <ms> ms from now, more than the <ms> ms left of the time budget ...)",
      { '<n> attempts': '1 attempt' },
    );
    // f2's retry (at 21 s and its jitter j2) made two successes in the window: 2 per 20 s, so f0's
    // start would be 10 s after it, at 31 s + j2, 1 s + j2 past the 30 s the budget ends at.
    expect(limiter.pace).toEqual({ perWindow: 2, windowMs: 20_000 });
    const past = Number(m?.[1]?.replace(/,/g, '') ?? NaN) - Number(m?.[2]?.replace(/,/g, '') ?? NaN);
    expect(past).toBeGreaterThanOrEqual(1000);
    expect(past).toBeLessThan(1250);
    // Given up when f0's retry came, at 22.001 s + its jitter: before the budget ends, not after.
    expect(Number(m?.[2]?.replace(/,/g, '') ?? NaN) + clock.now()).toBe(30_000);
    expect(agent.requests.filter((r) => r.body.includes('"m0"'))).toHaveLength(1);
    expect(clock.now()).toBeLessThan(30_000);
  });

  // 429s that ask for no wait spend no retry only while the limit can come down: at concurrency 16,
  // 4 halvings to 1 and a lone refusal (5), then the 2 retries: 8 requests a fixture, not one every
  // backoff until the 30 s budget is spent.
  it('an agent that answers only 429 (Retry-After: 0): each fixture ends errored after 5 free 429s and its 2 retries, 8 requests', async () => {
    const { client, agent } = await agentUnder({ kind: 'in-flight', max: 0 }, '0', () => ({ status: 429, headers: { 'retry-after': '0' }, json: { error: 'slow down' } }));
    const record = await replay({ fixtures: fixtures(3), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.tallies).toMatchObject({ errored: 3 });
    expect(agent.requests).toHaveLength(3 * 8);
    quotedAndSaid(record.fixtures[0]?.error ?? '', 'agent returned HTTP 429 after <n> attempts (429s that asked for no wait: the first <k> spent no retry while the limit on requests in flight came down, ...)');
    for (const f of record.fixtures) {
      expect(f.error).toBe(
        'message turn: agent returned HTTP 429 after 8 attempts (429s that asked for no wait: the first 5 spent no retry while the limit on requests in flight came down, the next spent the 2 retries; given up rather than send more: lower the concurrency, or raise retries and backoffMs): {"error":"slow down"}',
      );
    }
  });

  // A spent quota whose reset is due now (OpenAI's tokens, 0s) is a hold, not a 429 that asked for no
  // wait: 9 of them are waited for past the 5 free 429s and the 2 retries; a rate limit's 429 that
  // names no spent quota is capped, said without a limit on requests in flight that came down.
  it('an agent whose 429s say its token quota is spent until 0s: 9 holds waited for, then answered; remaining 3: capped, said as a rate limit', async () => {
    let n = 0;
    const held = await agentUnder({ kind: 'in-flight', max: 16 }, null, (req) =>
      ++n <= 9 ? { status: 429, headers: { 'x-ratelimit-remaining-requests': '12', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '0s' }, json: { error: 'slow down' } } : nativeEcho(req),
    );
    const ok = await replay({ fixtures: fixtures(1), personas: [], baselines: NO_BASELINES }, { agent: held.client, regex: noRegex, judge: null }, OPTIONS);
    expect(ok.fixtures[0]?.error ?? null).toBeNull();
    expect(held.agent.requests).toHaveLength(10);
    const capped = await agentUnder({ kind: 'in-flight', max: 16 }, null, () => ({ status: 429, headers: { 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1s' }, json: { error: 'slow down' } }));
    const record = await replay({ fixtures: fixtures(1), personas: [], baselines: NO_BASELINES }, { agent: capped.client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.fixtures[0]?.error).toBe(
      'message turn: agent returned HTTP 429 after 8 attempts (429s that asked for no wait, their rate limit headers naming no spent quota: the first 5 spent no retry within 1,000 ms of the first (the rate limit\'s window), the next spent the 2 retries; given up rather than send more: lower the concurrency, or raise retries and backoffMs): {"error":"slow down"}',
    );
    expect(capped.agent.requests).toHaveLength(8);
  });

  // Reported: the window was taken only from the refused answer's own headers: after answers that named
  // a 2 s quota (RateLimit-Policy: 10 per 2 s), 429s that name none (RateLimit-Remaining: 3) were free
  // within 1 s only, though the limiter paces over 2 s: a turn refused 6 times spent its 2 retries on
  // the 429s at 1.2 s and 1.9 s from the first, and was given up (`the first 3 spent no retry within 1000 ms`).
  it('a rate limit\'s 429 naming no window, after answers that named a 2 s one: free within 2 s of the first, as the limiter paces over it', async () => {
    let n = 0;
    const refusedAt: number[] = [];
    const { client, agent } = await agentUnder({ kind: 'in-flight', max: 16 }, null, (req, clock): AgentReply => {
      n += 1;
      if (n <= 5 || n > 11) return { ...(nativeEcho(req) as Exclude<AgentReply, string>), headers: { 'ratelimit-policy': '"default";q=10;w=2' } };
      refusedAt.push(clock.now());
      return { status: 429, headers: { 'ratelimit-remaining': '3' }, json: { error: 'slow down' } };
    });
    const record = await replay({ fixtures: fixtures(6), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, replayOptions({ concurrency: 1 }));
    expect(record.fixtures.map((f) => f.error ?? null)).toEqual(Array<null>(6).fill(null));
    expect(agent.requests).toHaveLength(12);
    // The first five within the 2 s window spent no retry; the sixth, past it, spent one.
    const from = refusedAt.map((t) => Math.round(t - (refusedAt[0] as number)));
    expect(from.slice(0, 5)).toEqual([0, 400, 800, 1200, 1867]);
    expect(from[5]).toBeGreaterThan(2000);
  });

  it('a 500 still spends the retries: 3 attempts, then errored', async () => {
    const { client, agent } = await agentUnder({ kind: 'in-flight', max: 0 }, '0', () => ({ status: 500, json: { error: 'boom' } }));
    const record = await replay({ fixtures: fixtures(1), personas: [], baselines: NO_BASELINES }, { agent: client, regex: noRegex, judge: null }, OPTIONS);
    expect(record.fixtures[0]?.error).toBe('message turn: agent returned HTTP 500 after 3 attempts: {"error":"boom"}');
    expect(agent.requests).toHaveLength(3);
  });
});

const OK = { choices: [{ index: 0, message: { role: 'assistant', content: '{"rationale": "fine", "score": 0.9}' } }] };

/** An OpenAI judge at `server` with the defaults users run with (2 retries, 250 ms backoff) and a 10 s deadline: a 30 s budget per call. */
function judgeAt(server: { url: string; close: () => Promise<void> }, clock: VirtualClock, limiter: AdaptiveLimiter) {
  cleanups.push(() => server.close());
  const judge = createJudge(
    { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'k', timeoutMs: 10_000, retries: 2, backoffMs: 250, concurrency: 16, label: null },
    { clock, limiter, random: seeded(27) },
  );
  cleanups.push(() => judge.close());
  return judge;
}

async function judgeUnder(limit: Limit | 'only-429', retryAfter: string, latencyMs = 0, advertised: Record<string, string> = {}) {
  const clock: VirtualClock = virtualClock(() => limiter.active === clock.parked);
  const limiter = new AdaptiveLimiter(16, clock.paced);
  const server = gate(limit === 'only-429' ? { kind: 'in-flight', max: 0 } : limit, clock, retryAfter, latencyMs);
  const judgeServer = await startServer([
    (res) => {
      void server.admit(
        () => {
          res.writeHead(200, { 'content-type': 'application/json', ...advertised });
          res.end(JSON.stringify(OK));
        },
        () => {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter, ...advertised });
          res.end(JSON.stringify({ error: { message: 'rate limited' } }));
        },
      );
    },
  ]);
  const judge = judgeAt(judgeServer, clock, limiter);
  return { clock, server, judge, judgeServer, limiter };
}

describe('judge rate limits (2 retries)', () => {
  it('429 above 4 in flight with Retry-After: 0: 100 calls at once, none failed', async () => {
    const { server, judge } = await judgeUnder({ kind: 'in-flight', max: 4 }, '0');
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => judge.score('polite', `reply ${i}`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.counts.served).toBe(100);
    expect(server.counts.throttled).toBeGreaterThan(0);
    expect(server.counts.peakInFlight).toBeLessThanOrEqual(4);
  });

  it.each(['0', '2'])('429 above 5 per second with Retry-After: %s: 40 calls at once, none failed', async (retryAfter) => {
    const { server, judge, clock } = await judgeUnder({ kind: 'per-second', max: 5 }, retryAfter);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => judge.score('polite', `reply ${i}`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.counts.served).toBe(40);
    expect(server.counts.peakPerSecond).toBe(5);
    if (retryAfter === '2') expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(2000);
  });

  // The judge's client reads a 429 as the agent's does (the calls took 15.0 s of virtual time when
  // every 429 halved) and paces as it does (140 refused unpaced).
  it('429 above 5 per second with Retry-After: 1, the judge answering in 400 ms: the limit stays at 16, starts are paced, and 40 calls end within 1.1 x the 8 s floor with few refused', async () => {
    const { server, judge, clock, limiter } = await judgeUnder({ kind: 'per-second', max: 5 }, '1', 400);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => judge.score('polite', `reply ${i}`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.counts.served).toBe(40);
    expect(server.counts.peakPerSecond).toBe(5);
    expect(clock.now()).toBeLessThanOrEqual(8_800);
    expect(limiter.history).toEqual([16]);
    // The 40 sent at once are 35 refused (a refusal frees its slot at once); few after them.
    expect(server.counts.throttled).toBeLessThanOrEqual(45);
    expect(limiter.pace?.perWindow).toBe(5);
  });

  // The judge names its quota in a windowed X-RateLimit-Limit: paced from the first 429 of the 40
  // sent at once. A paced start refused in the second the first burst spent waits for the next
  // second instead of halving the pace (19.2 s when it halved). Measured after the 429s instead,
  // 70 were refused in 9.4 s.
  it('a judge that names its quota of 5 a second in X-RateLimit-Limit, answering in 1.5 s: paced from its first answer, few refused after the first burst', async () => {
    const { server, judge, clock, limiter } = await judgeUnder({ kind: 'per-second', max: 5 }, '1', 1500, { 'x-ratelimit-limit': '5;window=1' });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => judge.score('polite', `reply ${i}`)));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(server.counts.peakPerSecond).toBe(5);
    // The first 429 sets the pace before the other calls are sent: 12 refused, not the 35 of a
    // burst of 40 (a refusal frees its slot at once).
    expect(server.counts.throttled).toBeLessThanOrEqual(15);
    expect(clock.now()).toBeLessThanOrEqual(9_600);
    expect(limiter.paceHistory).toEqual([{ perWindow: 5, windowMs: 1000 }]);
  });

  // OpenAI's headers: x-ratelimit-remaining-requests: 0 and x-ratelimit-reset-requests as a duration.
  // The 429 names no Retry-After: unread, the call was retried after a backoff of at most 250 ms.
  it("a judge whose 429 says OpenAI's request quota is spent until x-ratelimit-reset-requests: 2s: the call waits the 2 s, then is answered", async () => {
    const clock = virtualClock();
    const limiter = new AdaptiveLimiter(16, clock.paced);
    const spent = { 'content-type': 'application/json', 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s' };
    const judgeServer = await startServer([
      (res) => {
        res.writeHead(429, spent);
        res.end(JSON.stringify({ error: { message: 'rate limited' } }));
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(OK));
      },
    ]);
    const judge = judgeAt(judgeServer, clock, limiter);
    const result = await judge.score('polite', 'reply');
    expect(result.ok).toBe(true);
    expect(judgeServer.received).toHaveLength(2);
    expect(clock.now()).toBeGreaterThanOrEqual(2000);
    expect(Math.min(...clock.sleeps)).toBeGreaterThanOrEqual(2000);
  });

  it("a judge's retry whose budget ends before the reset another call's answer said: given up at once, naming the header, not sent", async () => {
    const clock: VirtualClock = virtualClock(() => limiter.active === clock.parked);
    const limiter = new AdaptiveLimiter(16, clock.paced);
    let refused = 0;
    const judgeServer = await startServer([
      (res, req) => {
        if (JSON.stringify(req.body).includes('reply A')) {
          refused += 1;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '25' });
          res.end(JSON.stringify({ error: { message: 'rate limited' } }));
          return;
        }
        void clock.work(24_000).then(() => {
          res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' });
          res.end(JSON.stringify(OK));
        });
      },
    ]);
    const judge = judgeAt(judgeServer, clock, limiter);
    const [a, b] = await Promise.all([judge.score('polite', 'reply A'), judge.score('polite', 'reply B')]);
    expect(b.ok).toBe(true);
    const m = /^HTTP 429 after 1 attempt \(rate limited: the server's quota is spent until its X-RateLimit-Reset, (\d{1,3}(?:,\d{3})*) ms away, more than the (\d{1,3}(?:,\d{3})*) ms left of the time budget of 30,000 ms, timeoutMs x attempts; given up at once instead of waiting\): rate limited$/.exec(a.ok ? '' : a.reason);
    expect(m, a.ok ? 'answered' : a.reason).not.toBeNull();
    expect(Number(m?.[1]?.replace(/,/g, '') ?? NaN) + clock.now()).toBe(44_000);
    expect(Number(m?.[2]?.replace(/,/g, '') ?? NaN) + clock.now()).toBe(30_000);
    expect(refused).toBe(1);
  });

  it('a judge that answers only 429: the call fails after 5 free 429s and its 2 retries, with the reason', async () => {
    const { judge, judgeServer } = await judgeUnder('only-429', '0');
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe(
      'HTTP 429 after 8 attempts (429s that asked for no wait: the first 5 spent no retry while the limit on requests in flight came down, the next spent the 2 retries; given up rather than send more: lower the concurrency, or raise retries and backoffMs): rate limited',
    );
    expect(judgeServer.received).toHaveLength(8);
  });

  /** A clock that moves by each wait (1 ms at least), and the waits. */
  function steppingClock(start: number): { clock: Clock; sleeps: number[] } {
    let t = start;
    const sleeps: number[] = [];
    return {
      sleeps,
      clock: {
        now: () => t,
        sleep: async (ms) => {
          sleeps.push(ms);
          t += Math.max(1, ms);
        },
      },
    };
  }

  /** A judge (retries: 0, backoffMs: 0, concurrency 4) at a server that answers 429 with `headers` `times` times, then the answer. */
  async function judgeRefusing(times: number, headers: (now: number) => Record<string, string>, clock: Clock) {
    let n = 0;
    const server = await startServer([
      (res) => {
        n += 1;
        if (n > times) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(OK));
          return;
        }
        // The answer's Date is the server's clock (the test's), which a GitHub reset is read against.
        res.writeHead(429, { 'content-type': 'application/json', date: new Date(clock.now()).toUTCString(), ...headers(clock.now()) });
        res.end(JSON.stringify({ error: { message: 'rate limited' } }));
      },
    ]);
    cleanups.push(() => server.close());
    const judge = createJudge(
      { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'k', timeoutMs: 10_000, retries: 0, backoffMs: 0, concurrency: 4, label: null },
      { clock, limiter: new AdaptiveLimiter(4, clock), random: seeded(27) },
    );
    cleanups.push(() => judge.close());
    return { judge, server };
  }

  // Reported: retries: 0 and backoffMs: 0 against a judge answering 429 without a Retry-After sent one
  // call 360 times in 2 s, every wait 0 ms, until the time budget was spent. A clock that moves 1 ms
  // a wait stands for the real one (one that stands still never spends the budget: the loop hangs).
  it('retries: 0 and backoffMs: 0 against a judge answering only 429 without a Retry-After: 3 free 429s at concurrency 4, then given up, each wait at least 100 ms', async () => {
    const { clock, sleeps } = steppingClock(0);
    const { judge, server } = await judgeRefusing(Infinity, () => ({}), clock);
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe(
      'HTTP 429 after 4 attempts (429s that asked for no wait: the first 3 spent no retry while the limit on requests in flight came down, retries: 0 left none for the next; given up rather than send more: lower the concurrency, or raise retries and backoffMs): rate limited',
    );
    expect(server.received).toHaveLength(4);
    expect(sleeps).toEqual([100, 100, 100]);
  });

  // 429s that ask for no wait are capped (above); one whose rate limit headers say the quota is spent
  // until a reset is a hold, waited for however many come, its reset due now included (GitHub's
  // whole-second reset of the current second, the IETF draft's t=0); one whose headers name no spent
  // quota is capped, and the error does not say the limit on requests in flight came down: a rate
  // limit's 429 leaves it as it is (the limiter paces instead).
  const second = (now: number): number => Math.floor(now / 1000);
  it.each<[string, (now: number) => Record<string, string>]>([
    ['GitHub (reset the next second)', (now) => ({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(second(now) + 1), 'x-ratelimit-used': '5000' })],
    ['GitHub (reset the current second, due now)', (now) => ({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(second(now)), 'x-ratelimit-used': '5000' })],
    ['OpenAI (requests, 1s)', () => ({ 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' })],
    ['OpenAI (tokens, 0s)', () => ({ 'x-ratelimit-remaining-requests': '12', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '0s' })],
    ['IETF (t=0)', () => ({ ratelimit: '"default";r=0;t=0' })],
  ])('a %s quota hold is waited for past the free 429s, retries: 0: 6 holds, then the answer', async (_, headers) => {
    const { clock } = steppingClock(1_700_000_000_250);
    const { judge, server } = await judgeRefusing(6, headers, clock);
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe('');
    expect(server.received).toHaveLength(7);
  });

  it.each<[string, (now: number) => Record<string, string>]>([
    ['GitHub', (now) => ({ 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': String(second(now) + 1) })],
    ['OpenAI', () => ({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1s' })],
    ['IETF', () => ({ ratelimit: '"default";r=3;t=1' })],
  ])('a %s 429 whose quota is not spent (remaining 3), no Retry-After: free within the rate limit\'s 1 s window from the first, not 3 (no halving to count), said without a limit that came down', async (_, headers) => {
    const { clock, sleeps } = steppingClock(1_700_000_000_250);
    const { judge, server } = await judgeRefusing(100, headers, clock);
    const result = await judge.score('polite', 'reply');
    // 429s at 0, 100, ..., 900 ms from the first spend no retry; the one at 1000 ms is past the window.
    expect(result.ok ? '' : result.reason).toBe(
      "HTTP 429 after 11 attempts (429s that asked for no wait, their rate limit headers naming no spent quota: the first 10 spent no retry within 1,000 ms of the first (the rate limit's window), retries: 0 left none for the next; given up rather than send more: lower the concurrency, or raise retries and backoffMs): rate limited",
    );
    expect(server.received).toHaveLength(11);
    expect(sleeps).toEqual(Array<number>(10).fill(100));
  });

  // Reported: a rate limit's 429 without a wait was capped at throttleAllowance (the limit's halvings
  // down to 1, 3 at concurrency 4), though it halves nothing: a call refused 5 times within the 1 s
  // window it counts over was given up after 400 ms, before the window opened again.
  it('a rate limit\'s 429 without a wait, 5 in a row within its 1 s window, retries: 0: answered, not given up after 3', async () => {
    const { clock } = steppingClock(1_700_000_000_250);
    const { judge, server } = await judgeRefusing(5, () => ({ 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '1s' }), clock);
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe('');
    expect(server.received).toHaveLength(6);
  });

  // The window is the quota's, when the headers name it (RateLimit-Policy: 10 per 2 s): the pace holds
  // the start after the second 429 (nothing answered in the window) until the window opens again, 2 s
  // after the first; refused then too, it is refused for more than the window, and spends the retry.
  it('a rate limit\'s 429 without a wait whose headers name a 2 s window: free within 2 s of the first, the one after spends a retry', async () => {
    const { clock } = steppingClock(1_700_000_000_250);
    const { judge, server } = await judgeRefusing(100, () => ({ 'ratelimit-policy': '"default";q=10;w=2' }), clock);
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe(
      "HTTP 429 after 3 attempts (429s that asked for no wait, their rate limit headers naming no spent quota: the first 2 spent no retry within 2,000 ms of the first (the rate limit's window), retries: 0 left none for the next; given up rather than send more: lower the concurrency, or raise retries and backoffMs): rate limited",
    );
    expect(server.received).toHaveLength(3);
    expect(clock.now() - 1_700_000_000_250).toBeGreaterThanOrEqual(2000);
  });

  // Reported: the window was taken only from the refused answer's own headers. Successes that named a
  // 2 s quota (RateLimit-Policy: 10 per 2 s), then 429s that name none (RateLimit-Remaining: 3): the
  // limiter paces over 2 s, but the loop allowed 1 s, and a call refused at the pace for 1.2 s was
  // given up (`the first 3 spent no retry within 1000 ms of the first`) before the server's window opened.
  it('a rate limit\'s 429 naming no window, after successes that named a 2 s one: free within 2 s of the first, as the limiter paces over it', async () => {
    const { clock } = steppingClock(1_700_000_000_250);
    const policy = { 'ratelimit-policy': '"default";q=10;w=2' };
    const refusedAt: number[] = [];
    const refused = (res: ServerResponse): void => {
      refusedAt.push(clock.now());
      res.writeHead(429, { 'content-type': 'application/json', 'ratelimit-remaining': '3' });
      res.end(JSON.stringify({ error: { message: 'rate limited' } }));
    };
    const server = await startServer([...Array<Responder>(5).fill(json(200, OK, policy)), ...Array<Responder>(4).fill(refused), json(200, OK, policy)]);
    cleanups.push(() => server.close());
    const limiter = new AdaptiveLimiter(4, clock);
    const judge = createJudge(
      { provider: 'openai', baseUrl: server.url, model: 'm', apiKey: 'k', timeoutMs: 10_000, retries: 0, backoffMs: 0, concurrency: 4, label: null },
      { clock, limiter, random: seeded(27) },
    );
    cleanups.push(() => judge.close());
    for (let i = 0; i < 5; i++) expect((await judge.score('polite', `reply ${i}`)).ok).toBe(true);
    const result = await judge.score('polite', 'reply');
    expect(result.ok ? '' : result.reason).toBe('');
    expect(server.received).toHaveLength(10);
    // Refused at the pace (5 per 2 s after the first 429) for more than a second, less than the window.
    expect(refusedAt.map((t) => t - (refusedAt[0] as number))).toEqual([0, 400, 800, 1200]);
    expect(limiter.pace?.windowMs).toBe(2000);
  });
});
