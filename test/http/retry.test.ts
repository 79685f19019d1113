// The one retry loop shared by the agent and judge clients.

import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import { askedRetryAfterOf, attemptsText, MAX_RETRY_AFTER_MS, rateLimitOf, retryAfterOf, systemClock, throttleAllowance, withRetries, type AttemptResult } from '../../src/http/retry.js';
import type { Clock } from '../../src/types.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

function fakeClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
}

/** Attempts that answer from a script, in turn. */
function scripted(results: AttemptResult<string, string>[]) {
  let n = 0;
  const attempt = async () => results[n++] as AttemptResult<string, string>;
  return { attempt };
}

const retryable = (failure: string, retryAfterMs: number | null = null): AttemptResult<string, string> => ({ ok: false, failure, retryable: true, retryAfterMs });
const throttled = (retryAfterMs: number | null): AttemptResult<string, string> => ({ ok: false, failure: '429', retryable: true, retryAfterMs, throttled: true });

describe('withRetries', () => {
  it('retries retryable failures with backoff, or the server\'s Retry-After, until one succeeds', async () => {
    const clock = fakeClock();
    const { attempt } = scripted([retryable('503'), retryable('429', 7000), { ok: true, value: 'done' }]);
    const r = await withRetries(attempt, { retries: 3, backoffMs: 100, clock, random: () => 0.5 });
    expect(r).toEqual({ ok: true, value: 'done' });
    expect(clock.sleeps).toEqual([50, 7000]);
  });

  it('stops at once on a failure not worth retrying, and after `retries` more attempts otherwise', async () => {
    const clock = fakeClock();
    const fatal = scripted([{ ok: false, failure: 'bad json', retryable: false, retryAfterMs: null }]);
    expect(await withRetries(fatal.attempt, { retries: 3, backoffMs: 100, clock, random: () => 0 })).toEqual({ ok: false, failure: 'bad json', attempts: 1 });
    const always = scripted([retryable('a'), retryable('b'), retryable('c'), retryable('d')]);
    expect(await withRetries(always.attempt, { retries: 2, backoffMs: 100, clock, random: () => 0 })).toEqual({ ok: false, failure: 'c', attempts: 3 });
  });

  it('makes no further attempt once the run is interrupted', async () => {
    const clock = fakeClock();
    const interrupt = new AbortController();
    interrupt.abort();
    const s = scripted([retryable('503'), { ok: true, value: 'never' }]);
    expect(await withRetries(s.attempt, { retries: 3, backoffMs: 100, clock, random: () => 0, signal: interrupt.signal })).toEqual({ ok: false, failure: '503', attempts: 1 });
    expect(clock.sleeps).toEqual([]);
  });

  it("an interrupt during a backoff on the real clock clears the backoff's timer: none outlives it", async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const interrupt = new AbortController();
    const s = scripted([retryable('503', 50_000), { ok: true, value: 'never' }]);
    const run = withRetries(s.attempt, { retries: 3, backoffMs: 100, clock: systemClock, random: () => 0, signal: interrupt.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBe(before + 1); // the 50 s wait the 503 asked for
    interrupt.abort();
    expect(await run).toEqual({ ok: false, failure: '503', attempts: 1 });
    expect(timers()).toBe(before);
  });

  it('a throttled failure spends no retry: it waits its Retry-After and a jitter, or a growing backoff, until it succeeds', async () => {
    const clock = fakeClock();
    const results = [throttled(0), throttled(0), throttled(5000), retryable('503'), throttled(0), { ok: true as const, value: 'done' }];
    const { attempt } = scripted(results);
    let retried = 0;
    const r = await withRetries(attempt, { retries: 1, backoffMs: 100, clock, random: () => 0.5, budgetMs: 60_000, onRetry: () => void (retried += 1) });
    expect(r).toEqual({ ok: true, value: 'done' });
    // Throttles: backoff(0) = 50, raised to the floor of 100, backoff(1) = 100, 5000 + backoff(0) = 5050, backoff(3) = 400; the 503: backoff(0) = 50.
    expect(clock.sleeps).toEqual([100, 100, 5050, 50, 400]);
    expect(retried).toBe(5);
  });

  it('throttled until the time budget is spent: the failure says how long, and the wait that did not fit', async () => {
    const clock = fakeClock();
    const always = { attempt: async () => throttled(0) };
    const r = await withRetries(always.attempt, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 10_000 });
    // Waits 500, 1000, 2000, 4000 (7500 ms); the next, 8000, would pass 10000.
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(r).toEqual({ ok: false, failure: '429', attempts: 5, throttled: { elapsedMs: 7500, waitMs: 8000, budgetMs: 10_000 } });
    expect(attemptsText(r as { attempts: number })).toBe('5 attempts (rate limited: 7,500 ms spent, waiting 8,000 ms more would pass the time budget of 10,000 ms, timeoutMs x attempts)');
    // As the agent's client says it (src/agent/http-client.ts: `agent returned HTTP <status> after <attemptsText>`).
    quotedAndSaid(`agent returned HTTP 429 after ${attemptsText(r as { attempts: number })}`, 'agent returned HTTP 429 after <n> attempts (rate limited: ... would pass the time budget of <ms> ms, timeoutMs x attempts)');
  });

  it('429s that ask for no wait spend no retry only up to freeThrottles, then spend retries; never a wait under 100 ms, even at backoffMs 0', async () => {
    const clock = fakeClock();
    const s = scripted([throttled(null), throttled(2000), throttled(0), throttled(null), throttled(0), { ok: true, value: 'never' }]);
    const r = await withRetries(s.attempt, { retries: 1, backoffMs: 0, clock, random: () => 0.5, budgetMs: 60_000, freeThrottles: 2 });
    // The 429 that asked for 2 s is not one of the two free ones; the 4th spends the 1 retry, the 5th is the last.
    expect(r).toEqual({ ok: false, failure: '429', attempts: 5, unwaited: { free: 2, retries: 1 } });
    expect(clock.sleeps).toEqual([100, 2000, 100, 100]);
    expect(attemptsText(r as { attempts: number })).toBe(
      '5 attempts (429s that asked for no wait: the first 2 spent no retry while the limit on requests in flight came down, the next spent the 1 retry; given up rather than send more: lower the concurrency, or raise retries and backoffMs)',
    );
  });

  it('a 5xx that ends the retries after the free 429s are spent says its own attempts, not the 429s', async () => {
    const clock = fakeClock();
    const s = scripted([throttled(null), throttled(null), retryable('503')]);
    const r = await withRetries(s.attempt, { retries: 1, backoffMs: 0, clock, random: () => 0.5, budgetMs: 60_000, freeThrottles: 1 });
    expect(r).toEqual({ ok: false, failure: '503', attempts: 3 });
  });

  it.each([1, 2, 3, 4, 5, 16, 255, 256])('throttleAllowance(%i) is the halvings of the limiter from it down to 1, and one more for a lone refusal', async (max) => {
    const limiter = new AdaptiveLimiter(max);
    let halvings = 0;
    while (limiter.limit > 1 && halvings <= 9) {
      limiter.release(await limiter.acquire(), 'throttled');
      halvings += 1;
    }
    expect(limiter.limit).toBe(1);
    expect(throttleAllowance(max)).toBe(halvings + 1);
  });

  it('without a Retry-After the backoff of a throttled request stops growing at backoffMs x 2^4', async () => {
    const clock = fakeClock();
    const s = scripted([...Array.from({ length: 7 }, () => throttled(null)), { ok: true as const, value: 'done' }]);
    expect(await withRetries(s.attempt, { retries: 0, backoffMs: 100, clock, random: () => 0.5, budgetMs: 60_000 })).toEqual({ ok: true, value: 'done' });
    // The first, backoff(0) = 50, is raised to the floor of 100 ms (MIN_THROTTLE_WAIT_MS).
    expect(clock.sleeps).toEqual([100, 100, 200, 400, 800, 800, 800]);
  });

  it('a Retry-After longer than the budget left is not waited for: the failure names the Retry-After and the budget', async () => {
    const clock = fakeClock();
    const s = scripted([throttled(0), throttled(30_000), { ok: true, value: 'never' }]);
    const r = await withRetries(s.attempt, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 6000 });
    // The first throttle waits its backoff (500 ms); the 30 s asked for next do not fit the 5,500 ms left.
    expect(clock.sleeps).toEqual([500]);
    expect(r).toEqual({ ok: false, failure: '429', attempts: 2, throttled: { elapsedMs: 500, waitMs: 30_000, budgetMs: 6000, retryAfterMs: 30_000 } });
    expect(attemptsText(r as { attempts: number })).toBe(
      "2 attempts (rate limited: the server's Retry-After asks for 30,000 ms, more than the 5,500 ms left of the time budget of 6,000 ms, timeoutMs x attempts; given up at once instead of waiting)",
    );
  });

  // The limiter's pace (up to 60 s between starts) would start the retry after its deadline: not
  // sent, given up at once with the failure before it, naming the pace, its figure, the wait, what
  // was left of the budget and the fix (it was said as a wait past the budget, the pace unnamed).
  it('a retry the pace would start past its deadline: given up at once, the pace, the wait, the budget and the fix said', async () => {
    const clock = fakeClock();
    const unsent: AttemptResult<string, string> = { ok: false, failure: 'not sent', retryable: true, retryAfterMs: 58_000, throttled: true, unsent: true, pace: { perWindow: 1, windowMs: 60_000 } };
    const s = scripted([throttled(2000), unsent, { ok: true, value: 'never' }]);
    const r = await withRetries(s.attempt, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 30_000 });
    expect(clock.sleeps).toEqual([2500]);
    expect(r).toEqual({ ok: false, failure: '429', attempts: 1, throttled: { elapsedMs: 2500, waitMs: 58_000, budgetMs: 30_000, pace: { perWindow: 1, windowMs: 60_000 } } });
    expect(attemptsText(r as { attempts: number })).toBe(
      "1 attempt (rate limited: the requests are paced at 1 start per 60,000 ms since the server's rate limit, so the next attempt would start 58,000 ms from now, more than the 27,500 ms left of the time budget of 30,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait)",
    );
    expect(attemptsText({ attempts: 2, throttled: { elapsedMs: 1000, waitMs: 9000, budgetMs: 6000, pace: { perWindow: 2, windowMs: 20_000 } } })).toContain('2 attempts (rate limited: the requests are paced at 2 starts per 20,000 ms since');
  });

  // The budget is the request's, from when it was first sent: a first attempt that waited 25 s for a
  // slot (the queue's time) left its retries 5 s of a 30 s budget, and a Retry-After of 10 s gave it up.
  it('the time budget counts from when the first attempt was sent, not from its wait for a slot', async () => {
    let t = 0;
    const clock: Clock = { now: () => t, sleep: async (ms) => void (t += ms) };
    const results = [throttled(10_000), { ok: true as const, value: 'done' }];
    let n = 0;
    const attempt = async (deadline: number | undefined, sending: () => void): Promise<AttemptResult<string, string>> => {
      if (n === 0) t += 25_000; // waited for a slot
      else expect(deadline).toBe(25_000 + 30_000);
      sending();
      return results[n++] as AttemptResult<string, string>;
    };
    expect(await withRetries(attempt, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 30_000 })).toEqual({ ok: true, value: 'done' });
    expect(t).toBe(25_000 + 10_500);
    // An attempt that never says it was sent: the budget counts from the first attempt, as before.
    t = 0;
    n = 0;
    const unsaid = async (): Promise<AttemptResult<string, string>> => {
      if (n === 0) t += 25_000;
      return results[n++] as AttemptResult<string, string>;
    };
    const r = await withRetries(unsaid, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 30_000 });
    expect(r).toEqual({ ok: false, failure: '429', attempts: 1, throttled: { elapsedMs: 25_000, waitMs: 10_000, budgetMs: 30_000, retryAfterMs: 10_000 } });
  });

  it('a retry still waiting for a free slot at its deadline: given up unsent, how long it waited, the limit, the budget and the fix said', async () => {
    const clock = fakeClock();
    const unsent: AttemptResult<string, string> = { ok: false, failure: 'not sent', retryable: true, retryAfterMs: 29_000, throttled: true, unsent: true, slot: 4 };
    const s = scripted([retryable('503'), unsent, { ok: true, value: 'never' }]);
    const r = await withRetries(s.attempt, { retries: 2, backoffMs: 1000, clock, random: () => 0.5, budgetMs: 30_000 });
    // The 503's backoff (500 ms) counts as time spent on a clock that stands still.
    expect(r).toEqual({ ok: false, failure: '503', attempts: 1, throttled: { elapsedMs: 500, waitMs: 29_000, budgetMs: 30_000, slot: 4 } });
    expect(attemptsText(r as { attempts: number })).toBe(
      '1 attempt (the next attempt waited 29,000 ms for a free slot (at most 4 requests in flight, all taken) until the time budget of 30,000 ms, timeoutMs x attempts, was spent; given up unsent: raise timeoutMs or retries to cover the wait)',
    );
    expect(attemptsText({ attempts: 2, throttled: { elapsedMs: 6000, waitMs: 5000, budgetMs: 6000, slot: 1 } })).toContain('(at most 1 request in flight, taken)');
    quotedAndSaid(
      `agent returned HTTP 503 after ${attemptsText({ attempts: 3, throttled: { elapsedMs: 0, waitMs: 29_000, budgetMs: 30_000, slot: 4 } })}`,
      'agent returned HTTP <status> after <n> attempts (the next attempt waited <ms> ms for a free slot (at most <n> requests in flight, all taken) until the time budget of <ms> ms ...)',
    );
  });

  // A failure that spends a retry (a 5xx, a network error) was never held to the budget: a 503 asking
  // for 60 s had it waited and the retry sent past a budget of 15 s (docs/configuration.md, "Adaptive concurrency").
  it('a 5xx whose Retry-After, as asked, would pass the time budget: its retry is not sent, the wait and the budget said', async () => {
    const clock = fakeClock();
    const s = scripted([retryable('503', 4000), retryable('503', 60_000), { ok: true, value: 'never' }]);
    const r = await withRetries(s.attempt, { retries: 2, backoffMs: 100, clock, random: () => 0.5, budgetMs: 15_000 });
    // The first Retry-After fits (4 s of 15 s); the second would end at 64 s.
    expect(clock.sleeps).toEqual([4000]);
    expect(r).toEqual({ ok: false, failure: '503', attempts: 2, budget: { elapsedMs: 4000, budgetMs: 15_000, retryAfterMs: 60_000 } });
    expect(attemptsText(r as { attempts: number })).toBe(
      "2 attempts (the server's Retry-After asks for 60,000 ms, more than the 11,000 ms left of the time budget of 15,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait)",
    );
    // One of an hour is held as asked, not as the 60 s cap: given up at once, the retries unspent.
    const hour = scripted([retryable('502', 3_600_000), { ok: true, value: 'never' }]);
    expect(await withRetries(hour.attempt, { retries: 2, backoffMs: 100, clock, random: () => 0.5, budgetMs: 90_000 })).toEqual({ ok: false, failure: '502', attempts: 1, budget: { elapsedMs: 0, budgetMs: 90_000, retryAfterMs: 3_600_000 } });
    quotedAndSaid(
      `agent returned HTTP 502 after ${attemptsText({ attempts: 1, budget: { elapsedMs: 0, budgetMs: 90_000, retryAfterMs: 3_600_000 } })}: down for maintenance`,
      "agent returned HTTP <status> after <n> attempts (the server's Retry-After asks for <ms> ms, more than the <ms> ms left of the time budget ...)",
      { '<n> attempts': '1 attempt' },
    );
  });

  it("a 5xx or network error's backoff is cut to what is left of the budget; past it, no retry is sent and the time spent is said", async () => {
    let t = 0;
    const clock: Clock & { sleeps: number[] } = { sleeps: [], now: () => t, sleep: async (ms) => void (clock.sleeps.push(ms), (t += ms)) };
    // Each attempt takes its whole 5 s timeout (timeoutMs 5000, retries 3: a budget of 20 s); backoffs at
    // random 0.5 of 4000 x 2^n: 2000, 4000, then 8000, which would start the fourth past it.
    const attempt = async (_deadline: number | undefined, sending: () => void): Promise<AttemptResult<string, string>> => {
      sending();
      t += 5000;
      return retryable('ECONNRESET');
    };
    const r = await withRetries(attempt, { retries: 3, backoffMs: 4000, clock, random: () => 0.5, budgetMs: 20_000 });
    expect(clock.sleeps).toEqual([2000, 4000]);
    // The third attempt, sent at 16,000 ms, ended at 21,000 ms: no fourth, though a retry was left.
    expect(r).toEqual({ ok: false, failure: 'ECONNRESET', attempts: 3, budget: { elapsedMs: 21_000, budgetMs: 20_000, leftAtSendMs: 4000 } });
    expect(attemptsText(r as { attempts: number })).toBe(
      '3 attempts (21,000 ms spent, past the time budget of 20,000 ms, timeoutMs x attempts, which the last attempt ran past: sent with 4,000 ms of it left, it had its whole timeoutMs; given up rather than send another: raise timeoutMs or retries)',
    );
    // A backoff longer than what is left is cut to it: the retry is still sent within the budget.
    t = 0;
    clock.sleeps.length = 0;
    const cut = scripted([retryable('503'), retryable('503'), { ok: true, value: 'done' }]);
    expect(await withRetries(cut.attempt, { retries: 3, backoffMs: 4000, clock, random: () => 0.5, budgetMs: 3000 })).toEqual({ ok: true, value: 'done' });
    expect(clock.sleeps).toEqual([2000, 1000]);
    quotedAndSaid(`could not reach the agent after ${attemptsText(r as { attempts: number })}`, '(<ms> ms spent, past the time budget of <ms> ms, timeoutMs x attempts ...; given up rather than send another: raise timeoutMs or retries)');
    // Without a budget (a caller that gives none) the retries alone bound it, as before.
    t = 0;
    clock.sleeps.length = 0;
    expect(await withRetries(attempt, { retries: 3, backoffMs: 4000, clock, random: () => 0.5 })).toMatchObject({ ok: false, attempts: 4 });
    expect(clock.sleeps).toEqual([2000, 4000, 8000]);
  });

  it('without a budget a throttled failure spends a retry like any other', async () => {
    const clock = fakeClock();
    const s = scripted([throttled(0), throttled(0), throttled(0)]);
    expect(await withRetries(s.attempt, { retries: 1, backoffMs: 100, clock, random: () => 0 })).toEqual({ ok: false, failure: '429', attempts: 2 });
  });
});

describe('retryAfterOf: the wait a 429 or 5xx asks for (docs/configuration.md, "Adaptive concurrency")', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads retry-after-ms first, as the OpenAI SDK does, with the cap of Retry-After', () => {
    expect(retryAfterOf({ 'retry-after-ms': '1500', 'retry-after': '2' }, now)).toBe(1500);
    expect(retryAfterOf({ 'retry-after-ms': '20.4' }, now)).toBe(20);
    expect(retryAfterOf({ 'retry-after-ms': '0' }, now)).toBe(0);
    expect(retryAfterOf({ 'retry-after-ms': ['250'] }, now)).toBe(250);
    expect(retryAfterOf({ 'retry-after-ms': '3600000' }, now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('a retry-after-ms that is not a number of milliseconds is passed over for Retry-After', () => {
    expect(retryAfterOf({ 'retry-after-ms': 'soon', 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterOf({ 'retry-after-ms': '-5', 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterOf({ 'retry-after-ms': '' }, now)).toBeNull();
    expect(retryAfterOf({}, now)).toBeNull();
  });

  it('a Retry-After that is neither seconds nor an HTTP date is no Retry-After: a negative number, a bare number V8 would read as a date, garbage', () => {
    // V8's Date.parse reads "-1", "1 2" and "7 soon" as dates in 2001: a wait of 0, a retry at once with no backoff.
    for (const value of ['-1', '-5', '1 2', '2 days', '7 soon', 'soon', 'Thursday']) expect(retryAfterOf({ 'retry-after': value }, now), value).toBeNull();
    // The three forms of an HTTP date, in GMT whatever the machine's zone.
    expect(retryAfterOf({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterOf({ 'retry-after': 'Thursday, 01-Jan-26 00:00:04 GMT' }, now)).toBe(4000);
    expect(retryAfterOf({ 'retry-after': 'Thu Jan  1 00:00:05 2026' }, now)).toBe(5000);
    expect(retryAfterOf({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
  });
  // A Retry-After date is a time of the server's clock: read against the answer's Date, a runner's
  // clock 90 s behind the server's does not add 90 s to the wait (it asked 3 s and was waited 60 s, the cap).
  it("a Retry-After date is read against the answer's Date when it has one: a server clock 90 s ahead asks 3 s, not 93 s", () => {
    const serverDate = new Date(now + 90_000).toUTCString();
    const asked = new Date(now + 93_000).toUTCString();
    expect(askedRetryAfterOf({ 'retry-after': asked, date: serverDate }, now)).toBe(3000);
    // A server clock behind ours, the same; a date its clock has passed, no wait.
    expect(askedRetryAfterOf({ 'retry-after': new Date(now - 87_000).toUTCString(), date: new Date(now - 90_000).toUTCString() }, now)).toBe(3000);
    expect(askedRetryAfterOf({ 'retry-after': new Date(now + 89_000).toUTCString(), date: serverDate }, now)).toBe(0);
    // No Date, or one that is not an HTTP date or given twice: our clock, as before.
    for (const date of [undefined, 'soon', [serverDate, serverDate]]) {
      expect(askedRetryAfterOf({ 'retry-after': asked, ...(date === undefined ? {} : { date }) }, now)).toBe(93_000);
    }
    // Seconds are the server's own wait: its Date changes nothing.
    expect(askedRetryAfterOf({ 'retry-after': '7', date: serverDate }, now)).toBe(7000);
  });
});

describe('rateLimitOf: a 429 for too many requests a second, not too many in flight (docs/configuration.md, "Adaptive concurrency")', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const read = (headers: Record<string, string | undefined>): boolean => rateLimitOf(headers, askedRetryAfterOf(headers, now));
  it('a wait of a second or more, however it is written, is a rate limit', () => {
    for (const headers of [{ 'retry-after': '1' }, { 'retry-after': '120' }, { 'retry-after-ms': '1000' }, { 'retry-after-ms': '1000', 'retry-after': '0' }, { 'retry-after': 'Thu, 01 Jan 2026 00:00:02 GMT' }]) {
      expect(read(headers), JSON.stringify(headers)).toBe(true);
    }
  });

  it("a rate limit's own headers say so without a wait: the IETF RateLimit fields (the earlier drafts' too), X-RateLimit-*", () => {
    for (const headers of [{ ratelimit: 'limit=5, remaining=0, reset=1' }, { 'ratelimit-policy': '5;w=1' }, { 'ratelimit-reset': '1' }, { 'ratelimit-limit': '10, 10;w=1' }, { 'ratelimit-remaining': '0' }, { 'x-ratelimit-remaining-requests': '0' }, { 'x-ratelimit-reset': '1767225601', 'retry-after': '0' }]) {
      expect(read(headers), JSON.stringify(headers)).toBe(true);
    }
  });

  it('no wait, a wait under a second, or no word of a rate: too many in flight', () => {
    for (const headers of [{}, { 'retry-after': '0' }, { 'retry-after-ms': '999' }, { 'retry-after': 'soon' }, { 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, { 'x-request-id': 'r1', ratelimited: 'yes' }]) {
      expect(read(headers), JSON.stringify(headers)).toBe(false);
    }
  });
});
