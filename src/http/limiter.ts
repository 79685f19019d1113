// The adaptive concurrency limit of one HTTP client (docs/configuration.md, "Adaptive
// concurrency"): it gates every request (every attempt, not every item, so a persona script's turns
// and a retried request each take a slot only while on the wire, and a Retry-After wait holds
// none). A 429 for too many in flight halves the limit (not below 1); a window of `limit`
// consecutive successes grows it back by one, up to the configured maximum. A 429 from a request
// sent before the last decrease does not halve again: it answers the load of the old limit, which
// is already gone. No clock: the limit moves on answers, not on time.
//
// No sawtooth: the limit a 429 answered is remembered as the ceiling. Below ceiling - 1 the limit
// grows back as above; the step up to the ceiling (a probe of the server's capacity) waits
// `patience` windows. A refused probe only steps back to ceiling - 1, the limit that held (the
// halving is for overloads, and a probe is not one), and doubles the patience (up to
// MAX_PATIENCE). A probe that holds through its windows forgets the ceiling: capacity grew.
//
// A rate limit is not an overload: a 429 that says the server counts requests over time (a wait
// of a second or more, or RateLimit headers: http/retry.ts, rateLimitOf) leaves the limit as it
// is. Fewer requests in flight would not open the server's window sooner, and at a latency L they
// carry at most limit / L a second, which can fall below the rate allowed; the refused request
// waits the Retry-After, holding no slot (docs/configuration.md, "Adaptive concurrency").
//
// It paces instead: once a rate limit's 429 comes after answers were counted, the limiter spaces
// request starts (every attempt's, a retry's too) evenly at the rate the server just accepted, the
// successes of the last window (the Retry-After asked, 1 s at least, 60 s at most), so that the
// requests it would refuse are not sent: starts `windowMs / perWindow` apart fall at most
// `perWindow` into any window of that length. More successes in a window than the pace raise it
// to their count (a 429 may come before the answers sent with it); a window of successes at the
// pace raises it by one. A 429 at the pace sets it to the successes measured again (half the pace
// when none) and remembers the pace it answered as the ceiling, which a raise reaches only after
// `patience` windows, as the limit's. A 429 sent at an older pace changes nothing. The pace lasts
// the client's life; it reads the client's clock.
//
// A quota the server's headers name (http/ratelimit-policy.ts: `RateLimit-Policy`, a windowed
// `X-RateLimit-Limit`) sets the pace from the first answer that carries it, before any 429; no
// window of successes raises the pace above it. A 429 at it with nothing answered in its window
// was sent into a window spent before the pace (by a first burst still on the wire): the quota
// stands, and the next start waits a window.
//
// A quota the headers say is spent (no request remaining, and when it resets: ratelimit-policy.ts,
// spentQuota) holds every start until the reset, said on a success or on a 429. A retry whose time
// budget ends before the reset is not held: it is given up at once, as a Retry-After beyond the
// budget is (acquire's deadline; http/retry.ts, withRetries). So is one whose paced start would
// come after its deadline (a pace of up to 60 s between starts), and one still waiting for a free
// slot when its deadline comes: it leaves the queue then, unsent.
//
// A 429 without a wait reads as an overload, unless it answers a request sent alone while others
// waited for its slot, or a second lone request in a row (nothing answered since the first: the
// other requests were waiting out their backoffs, holding no slot), from a server that answered
// before: no limit on requests in flight refuses that, so the server counts requests over time. From then on every 429 reads as a rate limit's,
// and the limit goes back to the maximum (the halvings misread the earlier ones). Per request,
// all of this is a few comparisons until a rate limit is seen.

import type { Clock } from '../types.js';
import type { Pace, Spent } from './ratelimit-policy.js';

export type { Pace } from './ratelimit-policy.js';
import { sleepUnlessAborted, systemClock } from './retry.js';

/**
 * How the server answered an attempt: a success, a 429 that asks for fewer requests in flight
 * ('throttled'), a 429 that asks for fewer requests a second ('rate-limited'), or neither.
 */
export type Outcome = 'success' | 'throttled' | 'rate-limited' | 'other';

/** An outcome, with the wait a rate limit's 429 asked for (its window for counting successes). */
export interface Answered {
  outcome: Outcome;
  waitMs: number | null;
  /** The pace the answer's rate limit headers advertise (http/ratelimit-policy.ts), when they do. */
  advertised?: Pace | null;
  /** The wait until the server's quota resets and the header that said it, when its headers say no request remains (http/ratelimit-policy.ts, spentQuota). */
  spent?: Spent | null;
}

/** A start held past the caller's deadline: how long from now, and the header that named the reset (a spent quota's), or null when the pace holds it (`pace`) or every slot did (`slot`). */
export interface Held {
  /** How long from now the start is held; for `slot`, how long it waited for one until its deadline (its waits for a slot alone, not a paced wait between them). */
  heldMs: number;
  header: string | null;
  /** The pace that holds it, when no header does. */
  pace?: Pace;
  /** The limit on requests in flight, every slot of it taken until the deadline. */
  slot?: number;
}

/** A start held past its deadline as the retry loop reads it: an attempt not sent (http/retry.ts, AttemptResult's `unsent`). */
export function heldAttempt(hold: Held): { retryable: true; retryAfterMs: number; throttled: true; unsent: true; resetBy?: string; pace?: Pace; slot?: number } {
  return {
    retryable: true,
    retryAfterMs: hold.heldMs,
    throttled: true,
    unsent: true,
    ...(hold.header === null ? {} : { resetBy: hold.header }),
    ...(hold.pace === undefined ? {} : { pace: hold.pace }),
    ...(hold.slot === undefined ? {} : { slot: hold.slot }),
  };
}

export interface Ticket {
  /** The decrease count when the request was sent. */
  readonly epoch: number;
  /** The limit when the request was sent: the load a 429 answers. */
  readonly limit: number;
  /** The pace count when the request was sent. */
  readonly paceEpoch: number;
  /** Nothing else of this client's was in flight when it was sent. */
  readonly alone: boolean;
}


/** The shortest and longest windows in which successes are counted for a pace. */
export const MIN_PACE_WINDOW_MS = 1000;
export const MAX_PACE_WINDOW_MS = 60_000;

/** Windows of successes before the first probe of a known ceiling. */
export const INITIAL_PATIENCE = 8;
/** The most windows a probe waits for, however often the server refused it. */
export const MAX_PATIENCE = 64;

/** A request waiting for a slot: resolved true when woken, false when its signal aborts. */
interface Waiter {
  resolve: (woken: boolean) => void;
  signal: AbortSignal | undefined;
}

export class AdaptiveLimiter {
  readonly max: number;
  private current: number;
  private inFlight = 0;
  private epoch = 0;
  private successes = 0;
  /** The lowest limit a 429 answered, while it holds; null when none is known. */
  private ceiling: number | null = null;
  private patience = INITIAL_PATIENCE;
  private readonly waiting: Waiter[] = [];
  private readonly watched = new WeakSet<AbortSignal>();
  /** Every change of the limit, starting with the maximum: what tests and benches look at. */
  readonly history: number[];
  /** The most requests in flight at once. */
  peakInFlight = 0;
  private readonly clock: Clock;
  /** When the successes answered, those of the last MAX_PACE_WINDOW_MS at least (older ones are dropped in batches). */
  private readonly successTimes: number[] = [];
  private paceNow: Pace | null = null;
  private paceEpoch = 0;
  private paceSuccesses = 0;
  /** The lowest pace (per window) a rate limit's 429 answered, while it holds. */
  private paceCeiling: number | null = null;
  private pacePatience = INITIAL_PATIENCE;
  /** When the last request started: the next waits a pace's interval from it. */
  private lastStartAt = Number.NEGATIVE_INFINITY;
  /** The pace the server's headers last advertised: the pace is set to it, and not raised above it. */
  private advertisedPace: Pace | null = null;
  /** A 429 without a wait came to a request sent alone (countsOverTime): every 429 reads as a rate limit's. */
  private perWindow = false;
  /** The last 429 came to a request sent alone, from a server that answered before, and no success since. */
  private loneRefused = false;
  /** No request starts before this time: the server said its quota is spent until then. */
  private heldUntil = Number.NEGATIVE_INFINITY;
  /** The header that named the reset the starts are held until (`X-RateLimit-Reset`). */
  private heldBy = '';
  /** Every change of the pace (starts per window), for tests and benches. */
  readonly paceHistory: Pace[] = [];

  constructor(max: number, clock: Clock = systemClock) {
    this.max = Math.max(1, Math.floor(max));
    this.clock = clock;
    this.current = this.max;
    this.history = [this.max];
  }

  get limit(): number {
    return this.current;
  }

  get active(): number {
    return this.inFlight;
  }

  /** How long from now no request starts (the server's quota is spent until then): 0 when none is held. */
  get heldMs(): number {
    return Math.max(0, this.heldUntil - this.clock.now());
  }

  /** The pace of request starts, or null while none is kept. */
  get pace(): Pace | null {
    return this.paceNow;
  }

  /**
   * The window of the quota the server's headers last named (an earlier answer's, a success's
   * too): the one a rate limit's 429 that names none is paced over (rateLimited), and the one it
   * spends no retry within (http/retry.ts, withRetries); null while none was named (1 s then).
   */
  get quotaWindowMs(): number | null {
    return this.advertisedPace?.windowMs ?? null;
  }

  /**
   * Resolves when a slot is free under the current limit; `release` must follow. With a signal
   * that is (or becomes) aborted while waiting, resolves null instead and takes no slot: an
   * interrupted run sends nothing more. With a `deadline` (on the clock) that the spent quota's hold
   * or the pace's next start passes, resolves the hold instead, at once, and takes no slot: the
   * caller gives the request up rather than wait past its time budget (http/retry.ts, withRetries).
   * One still waiting for a free slot at its deadline leaves the queue then, and resolves how long it waited for one (a paced wait between is not counted).
   */
  acquire(): Promise<Ticket>;
  acquire(signal: AbortSignal | undefined): Promise<Ticket | null>;
  acquire(signal: AbortSignal | undefined, deadline: number | undefined): Promise<Ticket | Held | null>;
  async acquire(signal?: AbortSignal, deadline?: number): Promise<Ticket | Held | null> {
    let stood: number | null = null;
    /** How long it has waited for a free slot: its paced waits between are the pace's, not counted. */
    let slotWaitMs = 0;
    // Looked at before each wait: a hold that a later answer set past the deadline ends the wait.
    const past = (): Held | null => (deadline !== undefined && this.heldUntil > deadline ? { heldMs: this.heldUntil - this.clock.now(), header: this.heldBy } : null);
    for (;;) {
      while (this.inFlight >= this.current) {
        if (signal?.aborted) return null;
        const held = past();
        if (held !== null) return held;
        if (signal !== undefined) this.watch(signal);
        const waitFrom = this.clock.now();
        const woken = await this.slotFreed(signal, deadline);
        slotWaitMs += this.clock.now() - waitFrom;
        if (woken === 'deadline') return { heldMs: slotWaitMs, header: null, slot: this.current };
        if (!woken) return null;
      }
      if (signal?.aborted) return null;
      // Paced: a start waits its turn, holding no slot, and looks again for one when it comes. A
      // clock that did not move while it waited (a test's that stands still) lets it go.
      const now = this.clock.now();
      const held = past();
      if (held !== null) return held;
      const paced = this.paceNow === null ? 0 : this.lastStartAt + this.paceNow.windowMs / this.paceNow.perWindow - now;
      const early = now === stood ? 0 : Math.max(paced, this.heldUntil - now);
      if (early <= 0) break;
      // A paced start that would come after the deadline is given up at once too, as a hold is.
      // (The hold is within the deadline here, past() said so: the pace is what puts it after.)
      if (deadline !== undefined && now + early > deadline) return { heldMs: early, header: null, pace: this.paceNow as Pace };
      stood = now;
      if (!(await sleepUnlessAborted(this.clock, early, signal))) return null;
    }
    this.lastStartAt = this.clock.now();
    this.inFlight += 1;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
    return { epoch: this.epoch, limit: this.current, paceEpoch: this.paceEpoch, alone: this.inFlight === 1 };
  }

  /**
   * Waits in the queue until woken for a slot (true) or its signal aborts (false). With a deadline,
   * a wait still queued when the clock reaches it leaves the queue: 'deadline'. The deadline's timer
   * ends with the wait (a clock that did not reach the deadline, a test's that stands still, waits
   * to be woken as without one).
   */
  private async slotFreed(signal: AbortSignal | undefined, deadline: number | undefined): Promise<boolean | 'deadline'> {
    let resolve: (woken: boolean) => void = () => undefined;
    const woken = new Promise<boolean>((r) => {
      resolve = r;
    });
    const waiter: Waiter = { resolve, signal };
    this.waiting.push(waiter);
    if (deadline === undefined) return woken;
    const ms = deadline - this.clock.now();
    const timer = new AbortController();
    const first = ms <= 0 ? 'deadline' : await Promise.race([woken, this.clock.sleep(ms, timer.signal).then(() => 'deadline' as const)]);
    timer.abort();
    const i = this.waiting.indexOf(waiter);
    // Woken (or aborted) first, or in the same turn: the slot is its; a clock short of the deadline: wait on.
    if (first !== 'deadline' || i < 0 || this.clock.now() < deadline) return woken;
    this.waiting.splice(i, 1);
    return 'deadline';
  }

  /**
   * One abort listener per signal for all the requests waiting under it (a run keeps up to twice
   * its concurrency waiting: one listener each would pass Node's listener warning at 11).
   */
  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    this.watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        const kept: Waiter[] = [];
        for (const w of this.waiting) {
          if (w.signal === signal) w.resolve(false);
          else kept.push(w);
        }
        this.waiting.splice(0, this.waiting.length, ...kept);
      },
      { once: true },
    );
  }

  /**
   * Frees the slot; `outcome` says how the server answered (a rate limit's 429 leaves the limit and
   * sets the pace), `waitMs` the wait a rate limit's 429 asked for.
   */
  release(ticket: Ticket, outcome: Outcome, waitMs: number | null = null, advertised: Pace | null = null, spent: Spent | null = null): void {
    this.inFlight -= 1;
    // The server's quota is spent: no start until it resets (a later answer may say later still).
    if (spent !== null && this.clock.now() + spent.waitMs > this.heldUntil) {
      this.heldUntil = this.clock.now() + spent.waitMs;
      this.heldBy = spent.header;
    }
    if (advertised !== null) this.advertise(advertised);
    // A lone request refused by a server that answered before (countsOverTime): told so when others
    // waited for its slot, or when the last 429 was to a lone request too, nothing answered between.
    const lone = outcome === 'throttled' && ticket.alone && this.successTimes.length > 0;
    if (outcome === 'throttled' && !this.perWindow && !(lone && (this.waiting.length > 0 || this.loneRefused))) this.throttled(ticket);
    else if (outcome === 'throttled' || outcome === 'rate-limited') {
      if (outcome === 'throttled') this.countsOverTime();
      this.rateLimited(ticket, waitMs);
    }
    else if (outcome === 'success') {
      this.succeeded();
      this.paced();
    }
    if (outcome === 'success') this.loneRefused = false;
    else if (lone) this.loneRefused = true;
    this.wake();
  }

  /**
   * A 429 without a wait to a request sent alone, from a server that answered before: no limit on
   * requests in flight refuses one request when it served any, so the server counts requests over
   * time. From then on every 429 of this client reads as a rate limit's, and the halvings that
   * misread the earlier ones are undone: back to the maximum, which only the pace holds back.
   */
  private countsOverTime(): void {
    if (this.perWindow) return;
    this.perWindow = true;
    this.epoch += 1;
    this.ceiling = null;
    this.patience = INITIAL_PATIENCE;
    this.set(this.max);
  }

  /** A rate limit's 429: pace starts at the successes of the last window, or keep the pace it answered. */
  private rateLimited(ticket: Ticket, waitMs: number | null): void {
    if (ticket.paceEpoch !== this.paceEpoch) return;
    // The window the server's headers name, else the wait it asked for.
    const windowMs = this.advertisedPace?.windowMs ?? Math.min(MAX_PACE_WINDOW_MS, Math.max(MIN_PACE_WINDOW_MS, waitMs ?? 0));
    const measured = this.measure(windowMs);
    const old = this.paceNow;
    // Nothing answered yet, nothing to measure: the refused request waits its Retry-After.
    if (measured === 0 && old === null) return;
    // The server named its quota and nothing answered in its window: the window was spent by the
    // requests sent before the pace (a first burst answered later). The quota stands; the next
    // start waits for the window to open again, a window from now.
    if (measured === 0 && this.advertisedPace !== null && old !== null && old.perWindow >= this.advertisedPace.perWindow) {
      this.lastStartAt = Math.max(this.lastStartAt, this.clock.now() + windowMs - windowMs / old.perWindow);
      return;
    }
    if (old !== null) {
      if (this.paceCeiling !== null && old.perWindow >= this.paceCeiling) this.pacePatience = Math.min(MAX_PATIENCE, this.pacePatience * 2);
      this.paceCeiling = old.perWindow;
    }
    const perWindow = measured > 0 ? measured : Math.max(1, Math.floor((old as Pace).perWindow / 2));
    this.setPace({ perWindow, windowMs });
  }

  /**
   * The server's headers name its quota: the pace is set to it from the first answer that says so,
   * before any 429. The same quota said again changes nothing (a 429 at it may have lowered the pace
   * since); another one sets the pace anew.
   */
  private advertise(pace: Pace): void {
    const old = this.advertisedPace;
    if (old !== null && old.perWindow === pace.perWindow && old.windowMs === pace.windowMs) return;
    this.advertisedPace = pace;
    this.paceCeiling = null;
    this.pacePatience = INITIAL_PATIENCE;
    this.setPace(pace);
  }

  /** A success: counted for the next measure, and a window of them at the pace raises it by one. */
  private paced(): void {
    const now = this.clock.now();
    this.successTimes.push(now);
    // Forget the successes older than the longest window, a batch at a time (not one shift each).
    if (this.successTimes.length > 1024 && (this.successTimes[512] as number) <= now - MAX_PACE_WINDOW_MS) {
      this.successTimes.splice(0, this.successTimes.findIndex((t) => t > now - MAX_PACE_WINDOW_MS));
    }
    const pace = this.paceNow;
    if (pace === null) return;
    // The measure taken at the 429 may have come before the answers sent with it: more successes
    // in a window than the pace raise it to their count (up to below a ceiling).
    const measured = this.measure(pace.windowMs);
    const most = this.advertisedPace !== null && this.advertisedPace.windowMs === pace.windowMs ? this.advertisedPace.perWindow : Number.POSITIVE_INFINITY;
    const below = Math.min(most, this.paceCeiling === null ? measured : Math.min(measured, this.paceCeiling - 1));
    if (below > pace.perWindow) {
      this.setPace({ perWindow: below, windowMs: pace.windowMs });
      return;
    }
    if (pace.perWindow >= most) return;
    this.paceSuccesses += 1;
    const probing = this.paceCeiling !== null && pace.perWindow + 1 >= this.paceCeiling;
    if (this.paceSuccesses < (probing ? pace.perWindow * this.pacePatience : pace.perWindow)) return;
    if (this.paceCeiling !== null && pace.perWindow >= this.paceCeiling) {
      this.paceCeiling = null;
      this.pacePatience = INITIAL_PATIENCE;
    }
    this.setPace({ perWindow: pace.perWindow + 1, windowMs: pace.windowMs });
  }

  /** The successes of the last `windowMs`. */
  private measure(windowMs: number): number {
    const since = this.clock.now() - windowMs;
    let n = 0;
    for (let i = this.successTimes.length - 1; i >= 0 && (this.successTimes[i] as number) > since; i--) n += 1;
    return n;
  }

  private setPace(pace: Pace): void {
    this.paceSuccesses = 0;
    this.paceEpoch += 1;
    this.paceNow = pace;
    this.paceHistory.push(pace);
  }

  private throttled(ticket: Ticket): void {
    this.successes = 0;
    if (ticket.epoch !== this.epoch) return;
    this.epoch += 1;
    if (this.ceiling !== null && ticket.limit >= this.ceiling) {
      // A refused probe: the capacity is still below the ceiling; back to the limit that held,
      // and wait longer before the next probe.
      this.patience = Math.min(MAX_PATIENCE, this.patience * 2);
      this.set(Math.max(1, this.ceiling - 1));
      return;
    }
    this.ceiling = ticket.limit;
    this.set(Math.max(1, Math.floor(this.current / 2)));
  }

  private succeeded(): void {
    if (this.current >= this.max) return;
    this.successes += 1;
    const probing = this.ceiling !== null && this.current + 1 >= this.ceiling;
    if (this.successes < (probing ? this.current * this.patience : this.current)) return;
    this.successes = 0;
    if (this.ceiling !== null && this.current >= this.ceiling) {
      // The limit the server once refused held for a whole patient window: capacity grew.
      this.ceiling = null;
      this.patience = INITIAL_PATIENCE;
    }
    this.set(this.current + 1);
  }

  private set(limit: number): void {
    if (limit === this.current) return;
    this.current = limit;
    this.history.push(limit);
  }

  private wake(): void {
    let free = this.current - this.inFlight;
    while (free > 0 && this.waiting.length > 0) {
      this.waiting.shift()?.resolve(true);
      free -= 1;
    }
  }

  /**
   * Runs `fn` in a slot; `classify` reads its result as a success, a 429 of either kind or
   * neither. When `signal` is aborted before a slot is free, `fn` is not run and `aborted()` is
   * the result; when the spent quota's hold passes `deadline` (acquire), `fn` is not run and
   * `held(hold)` is.
   */
  async run<T>(
    fn: () => Promise<T>,
    classify: (value: T) => Outcome | Answered,
    interrupt?: { signal: AbortSignal | undefined; aborted: () => T; deadline?: number | undefined; held?: (hold: Held) => T },
  ): Promise<T> {
    const held = interrupt?.held;
    const ticket = await this.acquire(interrupt?.signal, held === undefined ? undefined : interrupt?.deadline);
    if (ticket === null) return (interrupt as NonNullable<typeof interrupt>).aborted();
    if ('heldMs' in ticket) return (held as (hold: Held) => T)(ticket);
    let answered: Outcome | Answered = 'other';
    try {
      const value = await fn();
      answered = classify(value);
      return value;
    } finally {
      if (typeof answered === 'string') this.release(ticket, answered);
      else this.release(ticket, answered.outcome, answered.waitMs, answered.advertised ?? null, answered.spent ?? null);
    }
  }
}
