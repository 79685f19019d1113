// The adaptive limit's arithmetic: a 429 halves it (not below 1, once per overload; a rate limit's
// not at all), a window of `limit` consecutive successes grows it by one up to the maximum, the step
import { systemClock } from '../../src/http/retry.js';
// back up to a limit the server refused waits longer each time it is refused again, and acquire
// waits for a slot.

import { describe, expect, it } from 'vitest';
import { AdaptiveLimiter, INITIAL_PATIENCE, MAX_PATIENCE, type Outcome, type Ticket } from '../../src/http/limiter.js';

/** One request through the limiter, answered at once. */
async function answer(l: AdaptiveLimiter, outcome: Outcome): Promise<void> {
  l.release(await l.acquire(), outcome);
}

/** A clock that moves only when told, or when a paced start sleeps (by the time it sleeps). */
function manualClock(): { now: () => number; sleep: (ms: number) => Promise<void>; at: (t: number) => void; sleeps: number[] } {
  let t = 0;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
    at: (to) => void (t = to),
    sleeps,
  };
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
    const l = new AdaptiveLimiter(16, manualClock()); // it sets a pace: see below
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

describe('AdaptiveLimiter pacing after a rate limit', () => {
  it('a quota the headers advertise sets the pace from the first answer, before any 429; said again it changes nothing, and no raise passes it', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    l.release(await l.acquire(), 'success', null, { perWindow: 5, windowMs: 1000 });
    expect(l.pace).toEqual({ perWindow: 5, windowMs: 1000 });
    // Many successes in the window at the advertised pace: more would be refused, so no raise.
    for (let i = 0; i < 40; i++) l.release(await l.acquire(), 'success', null, { perWindow: 5, windowMs: 1000 });
    expect(l.paceHistory).toEqual([{ perWindow: 5, windowMs: 1000 }]);
    // A 429 at it measures again (the window the headers name); the same quota said again keeps that.
    clock.at(clock.now() + 10_000);
    for (let i = 0; i < 3; i++) await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 5000, { perWindow: 5, windowMs: 1000 });
    expect(l.pace).toEqual({ perWindow: 3, windowMs: 1000 });
    l.release(await l.acquire(), 'success', null, { perWindow: 5, windowMs: 1000 });
    expect(l.pace?.perWindow).toBeLessThan(5);
    // Another quota sets the pace anew.
    l.release(await l.acquire(), 'success', null, { perWindow: 2, windowMs: 1000 });
    expect(l.pace).toEqual({ perWindow: 2, windowMs: 1000 });
    expect(l.history).toEqual([16]);
  });

  it('a 429 without a wait to a request sent alone while others wait for its slot reads as a rate limit: the halvings undone, the starts paced', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(4, clock);
    for (let i = 0; i < 3; i++) await answer(l, 'success');
    const tickets = await Promise.all([l.acquire(), l.acquire(), l.acquire(), l.acquire()]);
    l.release(tickets[0] as Ticket, 'throttled'); // 4 in flight: an overload, halved -> 2
    expect(l.limit).toBe(2);
    for (const t of tickets.slice(1)) l.release(t, 'throttled'); // the same overload: not again
    const alone = await l.acquire();
    const waiting = [l.acquire(), l.acquire()]; // the first takes the other slot of 2, the second waits
    l.release(alone, 'throttled'); // alone when sent, one waiting: no in-flight limit refuses that
    expect(l.history).toEqual([4, 2, 4]);
    expect(l.pace).toEqual({ perWindow: 3, windowMs: 1000 }); // the 3 successes of the last second
    for (const t of await Promise.all(waiting)) l.release(t, 'throttled'); // every 429 a rate limit's now
    expect(l.limit).toBe(4);
  });

  it('a lone request refused before any success, or with nothing waiting, is an overload as before', async () => {
    const l = new AdaptiveLimiter(4, manualClock());
    const first = await l.acquire();
    const waiting = [l.acquire(), l.acquire(), l.acquire(), l.acquire()];
    l.release(first, 'throttled'); // nothing served yet: the capacity may be below one
    expect(l.limit).toBe(2);
    for (const t of await Promise.all(waiting.slice(0, 2))) l.release(t, 'success');
    for (const t of await Promise.all(waiting.slice(2))) l.release(t, 'success');
    await answer(l, 'throttled'); // alone, but nothing waiting: sequential requests tell nothing
    expect(l.history).toEqual([4, 2, 3, 1]);
    expect(l.pace).toBeNull();
  });

  it('two lone requests refused in a row, nothing answered between, read as a rate limit even with nothing waiting; a success between, not', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(4, clock);
    for (let i = 0; i < 3; i++) await answer(l, 'success');
    await answer(l, 'throttled'); // alone, nothing waiting: an overload, halved
    await answer(l, 'success'); // the server answered between: the next lone 429 starts again
    await answer(l, 'throttled');
    expect(l.history).toEqual([4, 2, 1]);
    expect(l.pace).toBeNull();
    await answer(l, 'throttled'); // the second in a row: no in-flight limit refuses a lone request twice
    expect(l.history).toEqual([4, 2, 1, 4]);
    expect(l.pace).toEqual({ perWindow: 4, windowMs: 1000 }); // the 4 successes of the last second
  });

  it("a rate limit's 429 before any success sets no pace: nothing measured yet", async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    l.release(await l.acquire(), 'rate-limited', 1000);
    expect(l.pace).toBeNull();
    await answer(l, 'success');
    expect(clock.sleeps).toEqual([]);
  });

  it('paces starts at the successes of the last window (the Retry-After asked, 1 s at least), spaced evenly', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    for (let i = 0; i < 5; i++) await answer(l, 'success'); // 5 at t = 0
    clock.at(400);
    l.release(await l.acquire(), 'rate-limited', 0); // a wait under 1 s counts over 1 s
    expect(l.pace).toEqual({ perWindow: 5, windowMs: 1000 });
    // The refused request started at 400: the next start waits 200 ms, and each one after it.
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await l.acquire();
      starts.push(clock.now());
      l.release(t, 'other');
    }
    expect(starts).toEqual([600, 800, 1000, 1200, 1400]);
    expect(l.limit).toBe(16);
  });

  it('the window is the Retry-After asked, up to 60 s; successes older than it are not counted', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    for (let i = 0; i < 3; i++) await answer(l, 'success'); // at 0
    clock.at(5000);
    for (let i = 0; i < 4; i++) await answer(l, 'success'); // at 5000
    clock.at(6000);
    l.release(await l.acquire(), 'rate-limited', 2000);
    expect(l.pace).toEqual({ perWindow: 4, windowMs: 2000 });
    const late = new AdaptiveLimiter(16, clock);
    await answer(late, 'success');
    late.release(await late.acquire(), 'rate-limited', 3_600_000);
    expect(late.pace).toEqual({ perWindow: 1, windowMs: 60_000 });
  });

  it('a 429 sent at an older pace changes nothing; one sent at the pace measures again and sets the ceiling', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    for (let i = 0; i < 6; i++) await answer(l, 'success');
    const before = await Promise.all([l.acquire(), l.acquire()]);
    l.release(before[0] as Ticket, 'rate-limited', 1000); // pace 6
    l.release(before[1] as Ticket, 'rate-limited', 1000); // sent before it: nothing
    expect(l.paceHistory).toEqual([{ perWindow: 6, windowMs: 1000 }]);
    clock.at(5000); // the six successes are out of the window
    for (let i = 0; i < 3; i++) await answer(l, 'success'); // paced: at 5000, 5167, 5333
    l.release(await l.acquire(), 'rate-limited', 1000); // refused at 6: measured 3, ceiling 6
    expect(l.pace).toEqual({ perWindow: 3, windowMs: 1000 });
    // Starts now 333 ms apart: each window (the last second) holds 3 successes, the pace's own, and
    // a window of them raises it by one, below the ceiling.
    clock.at(10_000);
    for (let i = 0; i < 3; i++) await answer(l, 'success');
    expect(l.pace?.perWindow).toBe(4);
    for (let i = 0; i < 4; i++) await answer(l, 'success');
    expect(l.pace?.perWindow).toBe(5);
    // 5 + 1 reaches the ceiling: that step waits INITIAL_PATIENCE windows.
    for (let i = 0; i < 5 * INITIAL_PATIENCE - 1; i++) await answer(l, 'success');
    expect(l.pace?.perWindow).toBe(5);
    await answer(l, 'success');
    expect(l.pace?.perWindow).toBe(6);
    expect(clock.sleeps.every((ms) => ms > 0)).toBe(true);
  });

  it('a 429 at the pace with nothing answered in the window halves the pace', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    for (let i = 0; i < 8; i++) await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 1000);
    expect(l.pace?.perWindow).toBe(8);
    clock.at(10_000);
    l.release(await l.acquire(), 'rate-limited', 1000);
    expect(l.pace?.perWindow).toBe(4);
  });

  it('a 429 at the quota the headers name with nothing answered in its window: the quota stands, and the next start waits a window', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    const quota = { perWindow: 5, windowMs: 1000 };
    l.release(await l.acquire(), 'success', null, quota);
    clock.at(5000); // the success is out of the window: the window was spent by requests sent before the pace
    l.release(await l.acquire(), 'rate-limited', 1000, quota);
    expect(l.paceHistory).toEqual([quota]); // not halved, no ceiling
    await l.acquire();
    expect(clock.sleeps).toEqual([1000]); // a window from the 429, not the pace's 200 ms
    expect(clock.now()).toBe(6000);
  });

  it('a quota the headers say is spent holds every start until its reset, on a success or a 429; a later reset said after it holds longer', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(4, clock);
    const last = await l.acquire();
    const other = await l.acquire();
    l.release(last, 'success', null, null, { waitMs: 3000, header: 'X-RateLimit-Reset' }); // the last request of the quota answered: it resets in 3 s
    expect(l.heldMs).toBe(3000);
    l.release(other, 'rate-limited', 1000, null, { waitMs: 5000, header: 'RateLimit' }); // a 429 says 5 s: the later of the two
    await l.acquire();
    expect(clock.sleeps).toEqual([5000]);
    expect(l.heldMs).toBe(0);
    await l.acquire(); // the reset has come: only the pace the 429 set (1 success a second) spaces it
    expect(clock.sleeps).toEqual([5000, 1000]);
  });

  // A retry's time budget ends before the reset: it is not held, the hold is said (how long, which
  // header) so that the retry loop gives the request up at once (http/retry.ts, withRetries).
  it('a start whose deadline the hold passes is not held: the hold and its header are said at once, no slot taken; one within the deadline waits', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(4, clock);
    l.release(await l.acquire(), 'success', null, null, { waitMs: 20_000, header: 'X-RateLimit-Reset' });
    expect(await l.acquire(undefined, 5000)).toEqual({ heldMs: 20_000, header: 'X-RateLimit-Reset' });
    expect(clock.sleeps).toEqual([]);
    expect(l.active).toBe(0);
    // A later answer says a later reset, by another header: that one is said.
    l.release((await l.acquire(undefined, 20_000)) as Ticket, 'rate-limited', 1000, null, { waitMs: 30_000, header: 'RateLimit' });
    expect(clock.sleeps).toEqual([20_000]);
    expect(await l.acquire(undefined, 40_000)).toEqual({ heldMs: 30_000, header: 'RateLimit' });
    // Without a deadline (a first attempt) the start waits the hold, as before.
    await l.acquire();
    expect(clock.sleeps).toEqual([20_000, 30_000]);
  });

  // A pace of up to 60 s between starts (a rate limit's 429 with a long Retry-After) is not waited
  // past a retry's deadline either: the start is given up at once, as a held one is.
  it('a paced start that would come after its deadline is given up at once, no slot taken; one within the deadline waits', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(4, clock);
    await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 60_000); // 1 a minute, the last start at 0
    expect(l.pace).toEqual({ perWindow: 1, windowMs: 60_000 });
    clock.at(10_000);
    expect(await l.acquire(undefined, 30_000)).toEqual({ heldMs: 50_000, header: null, pace: { perWindow: 1, windowMs: 60_000 } });
    expect(clock.sleeps).toEqual([]);
    expect(l.active).toBe(0);
    // Its deadline at the paced start or later: it waits its turn.
    const ticket = await l.acquire(undefined, 60_000);
    expect('epoch' in (ticket as Ticket)).toBe(true);
    expect(clock.sleeps).toEqual([50_000]);
    expect(l.active).toBe(1);
  });

  // Two retries wait for the same paced start: the first takes it, and the second, looking again,
  // finds the next start past its deadline: given up then, not waited for (a pace wait is at most
  // 60 s, yet each one is held against the deadline, however many come in a row).
  it('a paced start another request took: the next one, past the deadline, is given up when the wait ends, not waited for', async () => {
    let t = 0;
    const timers: { at: number; fire: () => void }[] = [];
    const clock = { now: () => t, sleep: (ms: number) => new Promise<void>((resolve) => void timers.push({ at: t + ms, fire: resolve })) };
    const l = new AdaptiveLimiter(4, clock);
    await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 10_000); // 1 per 10 s, the last start at 0
    t = 1000;
    const a = l.acquire(undefined, 20_000);
    const b = l.acquire(undefined, 15_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.map((x) => x.at)).toEqual([10_000, 10_000]); // both within their deadlines: both wait
    t = 10_000;
    for (const x of timers.splice(0)) x.fire();
    expect('epoch' in ((await a) as Ticket)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.map((x) => x.at)).toEqual([]); // not a second wait, to 20 s
    expect(await b).toEqual({ heldMs: 10_000, header: null, pace: { perWindow: 1, windowMs: 10_000 } });
    expect(l.active).toBe(1);
  });

  // A retry waiting for a free slot (every one taken) was held against a spent quota's hold only,
  // never its own deadline: it waited past its time budget and was sent after it. It leaves the
  // queue at its deadline now, unsent, saying how long it waited and the limit (http/retry.ts words).
  it('a retry still waiting for a free slot at its deadline leaves the queue then, unsent; one woken first takes the slot and ends its timer', async () => {
    let t = 0;
    const timers: { at: number; fire: () => void; signal: AbortSignal | undefined }[] = [];
    const clock = { now: () => t, sleep: (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => void timers.push({ at: t + ms, fire: resolve, signal })) };
    const l = new AdaptiveLimiter(1, clock);
    const busy = (await l.acquire()) as Ticket;
    t = 1000;
    const late = l.acquire(undefined, 6000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.map((x) => x.at)).toEqual([6000]);
    t = 6000;
    timers.splice(0)[0]?.fire();
    expect(await late).toEqual({ heldMs: 5000, header: null, slot: 1 });
    // Out of the queue: the slot freed later goes to no one, and nothing more is in flight.
    l.release(busy, 'success');
    expect(l.active).toBe(0);
    // Woken before its deadline: the slot is its, and its deadline's timer is ended with the wait.
    const other = (await l.acquire()) as Ticket;
    const soon = l.acquire(undefined, 20_000);
    await new Promise((resolve) => setImmediate(resolve));
    const [timer] = timers;
    expect(timer?.signal?.aborted).toBe(false);
    l.release(other, 'success');
    expect('epoch' in ((await soon) as Ticket)).toBe(true);
    expect(timer?.signal?.aborted).toBe(true);
    expect(l.active).toBe(1);
  });

  // Its wait for a free slot counts the waits for one alone: a paced wait between two of them is
  // the pace's, not the slot's ("waited 29,000 ms for a free slot" where 7,000 ms of it was the pace).
  it('a retry that waited for a slot, then its paced start, then a slot again says only its waits for a slot', async () => {
    let t = 0;
    // A timer ended by its signal (a wait for a slot that was woken) is gone, as the real clock's is.
    let timers: { at: number; fire: () => void; signal: AbortSignal | undefined }[] = [];
    const clock = { now: () => t, sleep: (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => void timers.push({ at: t + ms, fire: resolve, signal })) };
    const settle = async (): Promise<void> => {
      await new Promise((resolve) => setImmediate(resolve));
      timers = timers.filter((x) => x.signal?.aborted !== true);
    };
    const l = new AdaptiveLimiter(1, clock);
    await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 10_000); // 1 per 10 s, the last start at 0
    t = 10_000;
    const busy = (await l.acquire()) as Ticket;
    t = 11_000;
    const late = l.acquire(undefined, 40_000);
    await settle();
    t = 13_000;
    l.release(busy, 'other'); // a slot free after 2000 ms; its paced start at 20000
    await settle();
    expect(timers.map((x) => x.at)).toEqual([20_000]);
    t = 20_000;
    const other = (await l.acquire()) as Ticket; // takes the start, and the slot
    timers.splice(0)[0]?.fire();
    await settle();
    expect(timers.map((x) => x.at)).toEqual([40_000]); // a slot again, until its deadline
    t = 40_000;
    timers.splice(0)[0]?.fire();
    expect(await late).toEqual({ heldMs: 2000 + 20_000, header: null, slot: 1 });
    l.release(other, 'success');
  });

  it("the real clock's sleep ends with its signal: no timer outlives a wait that ended another way", async () => {
    const stop = new AbortController();
    const sleeping = systemClock.sleep(600_000, stop.signal);
    stop.abort();
    await sleeping; // at once, not in 10 minutes
  });

  it('a clock that stands still (a test double) does not hold a paced start forever: one wait, then it goes', async () => {
    const sleeps: number[] = [];
    const l = new AdaptiveLimiter(16, { now: () => 0, sleep: async (ms) => void sleeps.push(ms) });
    for (let i = 0; i < 4; i++) await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 1000); // 4 a second, the last start at 0
    await answer(l, 'success'); // waits 250 ms once; 5 successes in the window now: 5 a second
    await answer(l, 'success'); // waits 200 ms once
    expect(sleeps).toEqual([250, 200]);
  });

  it('an interrupt frees a request waiting for its paced start', async () => {
    let wake = (): void => undefined;
    const clock = { now: () => 0, sleep: () => new Promise<void>((resolve) => (wake = resolve)) };
    const l = new AdaptiveLimiter(16, clock);
    await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 1000); // 1 a second, the last start at 0
    const interrupt = new AbortController();
    const waiting = l.acquire(interrupt.signal);
    await new Promise((resolve) => setImmediate(resolve));
    interrupt.abort();
    expect(await waiting).toBeNull();
    expect(l.active).toBe(0);
    wake();
  });
});

describe('AdaptiveLimiter success times', () => {
  it('counts only the successes of the window after many older ones are dropped', async () => {
    const clock = manualClock();
    const l = new AdaptiveLimiter(16, clock);
    for (let i = 0; i < 3000; i++) await answer(l, 'success'); // at 0
    clock.at(61_000);
    for (let i = 0; i < 2; i++) await answer(l, 'success');
    l.release(await l.acquire(), 'rate-limited', 60_000);
    expect(l.pace).toEqual({ perWindow: 2, windowMs: 60_000 });
  });
});
