// postJson's last words (src/judge/http.ts): every failure the network or the server causes carries
// a code and is said in our words; an error with none is a fault of ours (a body that could not be
// made), thrown as it came for the client that asked to say, never "network error: ..." nor retried.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, type PostOptions } from '../../src/judge/http.js';
import { fixStart } from '../../src/assertions/format.js';
import { judgeOutcome } from '../../src/assertions/judge.js';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import { Agent } from '../../src/http/undici.js';
import { heldTimeout } from '../support/held-timeout.js';

let server: Server | null = null;
const agents: Agent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

async function judgeServer(): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  server = createServer((req, res) => {
    n++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`, requests: () => n };
}

function options(url: string, body: unknown): PostOptions {
  const dispatcher = new Agent({});
  agents.push(dispatcher);
  // The limiter keeps the call's clock, as a run's does.
  const clock = { now: () => 0, sleep: async () => undefined };
  return { url, headers: {}, body, dispatcher, timeoutMs: 2000, retries: 2, backoffMs: 0, clock, random: () => 0.5, limiter: new AdaptiveLimiter(1, clock), peer: 'the judge' };
}

describe('postJson: an error with no code is not the network\'s', () => {
  it('a body that cannot be made is thrown as it came, once, nothing sent; never "network error: ..."', async () => {
    const s = await judgeServer();
    let made = 0;
    const failing = (): unknown => {
      made++;
      throw new TypeError('the prompt could not be built');
    };
    await expect(postJson(options(s.url, failing))).rejects.toThrow(new TypeError('the prompt could not be built'));
    expect([made, s.requests()]).toEqual([1, 0]);
    // The same call with a body: answered.
    expect(await postJson(options(s.url, () => ({ model: 'm' })))).toEqual({ ok: true, json: { ok: true } });
  });
});

describe('postJson: a timeout given up for a rate limit says why', () => {
  it('a timeout, then the retry held past its time budget by a quota another answer said is spent: the quota is named, not only the attempts', async () => {
    const clock = { now: () => 0, sleep: async () => undefined };
    const limiter = new AdaptiveLimiter(2, clock);
    let n = 0;
    // The attempt's timeout is fired by the server once it holds the request: no real 100 ms timer races its handler.
    const { timer, fire, started } = heldTimeout();
    // The first call is never answered; while it waits, another call's answer says the quota is spent for a minute.
    server = createServer((req) => {
      n++;
      req.resume();
      void limiter.acquire().then((t) => {
        limiter.release(t as Parameters<typeof limiter.release>[0], 'success', null, null, { waitMs: 60_000, header: 'x-ratelimit-reset-requests' });
        fire();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const r = await postJson({ ...options(url, () => ({ model: 'm' })), timeoutMs: 100, retries: 2, clock, limiter, timer });
    // The retry, held past its budget, was not sent: no second request, no second timeout begun.
    expect([n, started]).toEqual([1, [100]]);
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.reason).toMatch(
      /^no answer from the judge within 100 ms, given up after 1 attempt \(rate limited: the server's quota is spent until its x-ratelimit-reset-requests, 60,000 ms away, more than the 300 ms left of the time budget of 300 ms, timeoutMs x attempts; given up at once instead of waiting\)$/,
    );
  });
});

describe("postJson: a retry the limiter's pace would start past its time budget", () => {
  it('is not sent: given up at once, the pace, the wait, what was left of the budget and the fix said', async () => {
    let t = 0;
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
    const limiter = new AdaptiveLimiter(2, clock);
    let n = 0;
    // While the first call is on the wire, other calls' answers set a pace of 1 start a minute
    // (a success, then a rate limit's 429 asking for 60 s); the first call is refused, Retry-After: 1.
    server = createServer((req, res) => {
      n++;
      req.resume();
      void (async () => {
        limiter.release(await limiter.acquire(), 'success');
        limiter.release(await limiter.acquire(), 'rate-limited', 60_000);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":{"message":"slow down"}}');
      })();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const r = await postJson({ ...options(url, () => ({ model: 'm' })), timeoutMs: 2000, retries: 2, clock, limiter });
    expect(limiter.pace).toEqual({ perWindow: 1, windowMs: 60_000 });
    expect(n).toBe(1);
    expect(t).toBe(1000);
    expect(r.ok === false && r.reason).toBe(
      "HTTP 429 after 1 attempt (rate limited: the requests are paced at 1 start per 60,000 ms since the server's rate limit, so the next attempt would start 59,000 ms from now, more than the 5,000 ms left of the time budget of 6,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait): slow down",
    );
  });
});

describe("postJson: a 5xx's retry is held to the time budget too", () => {
  it('a 503 whose Retry-After, as asked, would end past the budget: not waited, not sent again, the wait, the budget and the fix said', async () => {
    let t = 0;
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
    let n = 0;
    server = createServer((req, res) => {
      n++;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"error":{"message":"overloaded"}}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    // Budget 2000 ms x 3 attempts; it waited 30 s twice and sent the call again each time.
    const r = await postJson({ ...options(url, () => ({ model: 'm' })), clock, limiter: new AdaptiveLimiter(1, clock) });
    expect([n, t]).toEqual([1, 0]);
    expect(r.ok === false && r.reason).toBe(
      "HTTP 503 after 1 attempt (the server's Retry-After asks for 30,000 ms, more than the 6,000 ms left of the time budget of 6,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait): overloaded",
    );
  });
});

describe("postJson: a server's \"; see\" after a parenthesis of ours is the server's, not our fix", () => {
  it("a 503 given up on its Retry-After quotes the server's message: an item's detail over its bound clips it with its mark, never drops its \"; see\" silently", async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' }).end('{"error":{"message":"Service overloaded; see https://status.example.com for updates"}}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const r = await postJson(options(url, () => ({ model: 'm' })));
    const reason = r.ok === false ? r.reason : '';
    expect(reason).toBe(
      "HTTP 503 after 1 attempt (the server's Retry-After asks for 3,600,000 ms, more than the 6,000 ms left of the time budget of 6,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait): \"Service overloaded; see https://status.example.com for updates\"",
    );
    // The "; " inside our parenthesis hid where the server's message begins: its "; see" was taken for
    // our fix, and the detail read "...cover the wait): Service overloaded", whole to the eye, the rest dropped.
    expect(fixStart(reason)).toBe(-1);
    const detail = judgeOutcome({ ok: false, reason }, 0.7).detail;
    expect(detail.endsWith('\u2026')).toBe(true);
    expect(detail).not.toMatch(/: Service overloaded$/);
  });
});

describe('postJson: the time budget counts from when the call was first sent', () => {
  it("a first attempt's wait for a slot does not spend its retries' budget: a Retry-After that fits after the send is waited", async () => {
    let t = 0;
    const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
    const limiter = new AdaptiveLimiter(1, clock);
    let n = 0;
    server = createServer((req, res) => {
      n++;
      req.resume();
      if (n === 1) res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '10' }).end('{"error":{"message":"slow down"}}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    // The one slot is another call's for 25 s of a 30 s budget (10000 ms x 3 attempts).
    const other = await limiter.acquire();
    const call = postJson({ ...options(url, () => ({ model: 'm' })), timeoutMs: 10_000, retries: 2, clock, limiter });
    await new Promise((resolve) => setImmediate(resolve));
    t += 25_000;
    limiter.release(other, 'success');
    expect(await call).toEqual({ ok: true, json: { ok: true } });
    expect(n).toBe(2);
  });
});

describe('postJson: a retry still waiting for a free slot when its time budget ends', () => {
  it('is given up then, unsent: how long it waited, the limit, the budget and the fix said, with the failure before it', async () => {
    let t = 0;
    const deadlines: { at: number; fire: () => void }[] = [];
    // The retry loop's sleeps pass at once; the limiter's wait for its deadline is a timer fired below.
    const clock = { now: () => t, sleep: (ms: number, signal?: AbortSignal) => (signal === undefined ? Promise.resolve(void (t += ms)) : new Promise<void>((resolve) => void deadlines.push({ at: t + ms, fire: resolve }))) };
    const limiter = new AdaptiveLimiter(1, clock);
    let n = 0;
    // The call's 503 frees the one slot for another call, which holds it: the retry waits for it.
    server = createServer((req, res) => {
      n++;
      req.resume();
      void limiter.acquire();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"busy"}}');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const call = postJson({ ...options(url, () => ({ model: 'm' })), timeoutMs: 2000, retries: 2, clock, limiter });
    while (deadlines.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(deadlines.map((d) => d.at)).toEqual([6000]);
    t = 6000;
    deadlines[0]?.fire();
    const r = await call;
    expect(n).toBe(1);
    expect(r.ok === false && r.reason).toBe(
      'HTTP 503 after 1 attempt (the next attempt waited 6,000 ms for a free slot (at most 1 request in flight, taken) until the time budget of 6,000 ms, timeoutMs x attempts, was spent; given up unsent: raise timeoutMs or retries to cover the wait): busy',
    );
    expect(limiter.active).toBe(1); // the other call's, not the retry's
  });
});
