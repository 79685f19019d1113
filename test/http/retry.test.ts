// The one retry loop shared by the agent and judge clients.

import { describe, expect, it } from 'vitest';
import { withRetries, type AttemptResult } from '../../src/http/retry.js';
import type { Clock } from '../../src/types.js';

function fakeClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
}

/** Attempts that answer from a script, recording whether each was told it is the last. */
function scripted(results: AttemptResult<string, string>[]) {
  const lastFlags: boolean[] = [];
  const attempt = async (isLast: boolean) => {
    lastFlags.push(isLast);
    return results[lastFlags.length - 1] as AttemptResult<string, string>;
  };
  return { attempt, lastFlags };
}

const retryable = (failure: string, retryAfterMs: number | null = null): AttemptResult<string, string> => ({ ok: false, failure, retryable: true, retryAfterMs });

describe('withRetries', () => {
  it('retries retryable failures with backoff, or the server\'s Retry-After, until one succeeds', async () => {
    const clock = fakeClock();
    const { attempt, lastFlags } = scripted([retryable('503'), retryable('429', 7000), { ok: true, value: 'done' }]);
    const r = await withRetries(attempt, { retries: 3, backoffMs: 100, clock, random: () => 0.5 });
    expect(r).toEqual({ ok: true, value: 'done' });
    expect(clock.sleeps).toEqual([50, 7000]);
    expect(lastFlags).toEqual([false, false, false]);
  });

  it('stops at once on a failure not worth retrying, and after `retries` more attempts otherwise', async () => {
    const clock = fakeClock();
    const fatal = scripted([{ ok: false, failure: 'bad json', retryable: false, retryAfterMs: null }]);
    expect(await withRetries(fatal.attempt, { retries: 3, backoffMs: 100, clock, random: () => 0 })).toEqual({ ok: false, failure: 'bad json', attempts: 1 });
    const always = scripted([retryable('a'), retryable('b'), retryable('c'), retryable('d')]);
    expect(await withRetries(always.attempt, { retries: 2, backoffMs: 100, clock, random: () => 0 })).toEqual({ ok: false, failure: 'c', attempts: 3 });
    expect(always.lastFlags).toEqual([false, false, true]);
  });

  it('makes no further attempt once the run is interrupted', async () => {
    const clock = fakeClock();
    const interrupt = new AbortController();
    interrupt.abort();
    const s = scripted([retryable('503'), { ok: true, value: 'never' }]);
    expect(await withRetries(s.attempt, { retries: 3, backoffMs: 100, clock, random: () => 0, signal: interrupt.signal })).toEqual({ ok: false, failure: '503', attempts: 1 });
    expect(clock.sleeps).toEqual([]);
  });
});
