// The adaptive limit's arithmetic: a 429 halves it (not below 1, once per overload; a rate limit's
// not at all), a window of `limit` consecutive successes grows it by one up to the maximum, the step
// back up to a limit the server refused waits longer each time it is refused again, and acquire
// waits for a slot.

import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter, INITIAL_PATIENCE, MAX_PATIENCE, type Outcome } from '../../src/http/limiter.js';

/** One request through the limiter, answered at once. */
async function answer(l: AdaptiveLimiter, outcome: Outcome): Promise<void> {
  l.release(await l.acquire(), outcome);
}

describe('AdaptiveLimiter', () => {
  it('halves on a 429, never below 1', async () => {
    const l = new AdaptiveLimiter(16);
    for (const expected of [8, 4, 2, 1, 1]) {
      await answer(l, 'throttled');
      expect(l.limit).toBe(expected);
    }
    expect(l.history).toEqual([16, 8, 4, 2, 1]);
  });

  it("a rate limit's 429 leaves the limit, the ceiling and the window of successes as they are", async () => {
    const l = new AdaptiveLimiter(16);
    for (let i = 0; i < 5; i++) await answer(l, 'rate-limited');
    expect(l.history).toEqual([16]);
    await answer(l, 'throttled'); // an overload still halves: 8
    for (let i = 0; i < 7; i++) await answer(l, 'success');
    await answer(l, 'rate-limited'); // not a success, not a break of the window
    await answer(l, 'success'); // the eighth success at 8 -> 9
    expect(l.history).toEqual([16, 8, 9]);
  });

  it('grows by one after `limit` consecutive successes, up to the maximum', async () => {
    const l = new AdaptiveLimiter(4);
    for (let i = 0; i < 4; i++) await answer(l, 'success'); // at the maximum: nothing to grow
    const t = await l.acquire();
    l.release(t, 'throttled'); // 4 refused: 4 is the ceiling, 2 the limit
    await answer(l, 'success');
    expect(l.limit).toBe(2);
    await answer(l, 'success'); // 2 at limit 2 -> 3 (the last one below the ceiling)
    expect(l.limit).toBe(3);
    expect(l.history).toEqual([4, 2, 3]);
  });

  it('does not saw: the step up to a limit the server refused waits `patience` windows, and a refused probe steps back by one', async () => {
    const l = new AdaptiveLimiter(8);
    const successes = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await answer(l, 'success');
    };
    await answer(l, 'throttled'); // 8 refused -> 4
    await successes(4); // 4 -> 5, below the ceiling: one window
    await successes(5); // 5 -> 6
    await successes(6); // 6 -> 7
    expect(l.limit).toBe(7);
    await answer(l, 'throttled'); // 7 refused: an overload below the old ceiling, halved -> 3; the ceiling is 7 now
    await successes(3 + 4 + 5); // 3 -> 4 -> 5 -> 6
    expect(l.limit).toBe(6);
    await successes(6 * INITIAL_PATIENCE - 1);
    expect(l.limit).toBe(6); // no probe yet
    await successes(1);
    expect(l.limit).toBe(7); // the probe
    await answer(l, 'throttled'); // refused: back to 6 (not halved), patience doubled
    expect(l.limit).toBe(6);
    await successes(6 * INITIAL_PATIENCE * 2 - 1);
    expect(l.limit).toBe(6);
    await successes(1);
    expect(l.limit).toBe(7);
    // The probe holds for its whole patient window: the ceiling is forgotten, growth is plain again.
    await successes(7 * INITIAL_PATIENCE * 2);
    expect(l.limit).toBe(8);
    expect(l.history).toEqual([8, 4, 5, 6, 7, 3, 4, 5, 6, 7, 6, 7, 8]);
  });

  it('an overload below the ceiling halves again: the capacity fell', async () => {
    const l = new AdaptiveLimiter(8);
    await answer(l, 'throttled'); // ceiling 8 -> 4
    await answer(l, 'throttled'); // refused at 4 < 8: -> 2, ceiling 4
    expect(l.limit).toBe(2);
    await answer(l, 'success');
    await answer(l, 'success'); // 2 -> 3
    expect(l.limit).toBe(3);
    expect(l.history).toEqual([8, 4, 2, 3]);
  });

  it('the patience stops doubling at MAX_PATIENCE', async () => {
    const l = new AdaptiveLimiter(2);
    await answer(l, 'throttled'); // 2 refused -> 1
    for (let probe = 0; probe < 12; probe++) {
      let n = 0;
      while (l.limit === 1) {
        await answer(l, 'success');
        n += 1;
      }
      expect(n).toBe(Math.min(MAX_PATIENCE, INITIAL_PATIENCE * 2 ** probe));
      await answer(l, 'throttled'); // the probe at 2 is refused: back to 1
      expect(l.limit).toBe(1);
    }
  });

  it('a 429 or another failure breaks the window of successes only as the rules say', async () => {
    const l = new AdaptiveLimiter(8);
    await answer(l, 'throttled'); // 4
    for (let i = 0; i < 3; i++) await answer(l, 'success');
    await answer(l, 'other'); // a 500 or a timeout neither grows nor shrinks, and keeps the count
    expect(l.limit).toBe(4);
    await answer(l, 'success'); // fourth success -> 5
    expect(l.limit).toBe(5);
    for (let i = 0; i < 4; i++) await answer(l, 'success');
    await answer(l, 'throttled'); // the window restarts: 5 -> 2
    expect(l.limit).toBe(2);
    await answer(l, 'success');
    expect(l.limit).toBe(2);
  });

  it('halves once for the 429s of one overload: requests sent before the decrease do not count again', async () => {
    const l = new AdaptiveLimiter(16);
    const tickets = await Promise.all(Array.from({ length: 10 }, () => l.acquire()));
    for (const t of tickets) l.release(t, 'throttled');
    expect(l.history).toEqual([16, 8]);
    await answer(l, 'throttled'); // sent after the decrease: halves again
    expect(l.limit).toBe(4);
  });

  it('keeps at most `limit` requests in flight and lets the waiting ones in as slots free', async () => {
    const l = new AdaptiveLimiter(2);
    const a = await l.acquire();
    const b = await l.acquire();
    let third = false;
    const pending = l.acquire().then((t) => {
      third = true;
      return t;
    });
    await Promise.resolve();
    expect(third).toBe(false);
    expect(l.active).toBe(2);
    l.release(a, 'throttled'); // limit 1, still 1 in flight: the third waits
    await Promise.resolve();
    expect(third).toBe(false);
    l.release(b, 'success');
    const c = await pending;
    expect(third).toBe(true);
    expect(l.active).toBe(1);
    expect(l.peakInFlight).toBe(2);
    l.release(c, 'success');
    expect(l.active).toBe(0);
  });

  it('run() classifies the result and frees the slot when the function throws', async () => {
    const l = new AdaptiveLimiter(2);
    expect(await l.run(async () => 429, (s) => (s === 429 ? 'throttled' : 'success'))).toBe(429);
    expect(l.limit).toBe(1);
    await expect(l.run(() => Promise.reject(new Error('boom')), () => 'success')).rejects.toThrow('boom');
    expect(l.active).toBe(0);
    expect(l.limit).toBe(1);
  });

  it('an interrupt frees a request waiting for a slot: it is not run, takes no slot, and the queue goes on', async () => {
    const l = new AdaptiveLimiter(1);
    const held = await l.acquire();
    const interrupt = new AbortController();
    let ran = false;
    const waiting = l.run(
      async () => {
        ran = true;
        return 'sent';
      },
      () => 'success',
      { signal: interrupt.signal, aborted: () => 'not sent' },
    );
    const other = l.acquire(); // a second waiter without a signal
    interrupt.abort();
    expect(await waiting).toBe('not sent');
    expect(ran).toBe(false);
    expect(l.active).toBe(1);
    l.release(held, 'success');
    l.release(await other, 'success'); // the other waiter got the freed slot
    expect(l.active).toBe(0);
    // Already aborted: nothing is run, not even with a free slot.
    expect(await l.run(async () => 'sent', () => 'success', { signal: interrupt.signal, aborted: () => 'not sent' })).toBe('not sent');
    expect(l.active).toBe(0);
  });

  it('many requests waiting under one interrupt signal share one listener: no listener warning, and the interrupt frees them all', async () => {
    const l = new AdaptiveLimiter(2);
    const held = [await l.acquire(), await l.acquire()];
    const interrupt = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const waiting = Array.from({ length: 30 }, () => l.acquire(interrupt.signal));
      // A listener warning is emitted on the next tick; give it one.
      await new Promise((resolve) => setImmediate(resolve));
      interrupt.abort();
      expect(await Promise.all(waiting)).toEqual(Array.from({ length: 30 }, () => null));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      expect(l.active).toBe(2);
      for (const t of held) l.release(t, 'success');
      expect(l.active).toBe(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
