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
// waits the Retry-After, holding no slot, and that wait is the pacing (docs/configuration.md,
// "Adaptive concurrency").

/**
 * How the server answered an attempt: a success, a 429 that asks for fewer requests in flight
 * ('throttled'), a 429 that asks for fewer requests a second ('rate-limited'), or neither.
 */
export type Outcome = 'success' | 'throttled' | 'rate-limited' | 'other';

export interface Ticket {
  /** The decrease count when the request was sent. */
  readonly epoch: number;
  /** The limit when the request was sent: the load a 429 answers. */
  readonly limit: number;
}

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

  constructor(max: number) {
    this.max = Math.max(1, Math.floor(max));
    this.current = this.max;
    this.history = [this.max];
  }

  get limit(): number {
    return this.current;
  }

  get active(): number {
    return this.inFlight;
  }

  /**
   * Resolves when a slot is free under the current limit; `release` must follow. With a signal
   * that is (or becomes) aborted while waiting, resolves null instead and takes no slot: an
   * interrupted run sends nothing more.
   */
  acquire(): Promise<Ticket>;
  acquire(signal: AbortSignal | undefined): Promise<Ticket | null>;
  async acquire(signal?: AbortSignal): Promise<Ticket | null> {
    while (this.inFlight >= this.current) {
      if (signal?.aborted) return null;
      if (signal !== undefined) this.watch(signal);
      const woken = await new Promise<boolean>((resolve) => this.waiting.push({ resolve, signal }));
      if (!woken) return null;
    }
    if (signal?.aborted) return null;
    this.inFlight += 1;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
    return { epoch: this.epoch, limit: this.current };
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

  /** Frees the slot; `outcome` says how the server answered (a rate limit's 429 changes nothing). */
  release(ticket: Ticket, outcome: Outcome): void {
    this.inFlight -= 1;
    if (outcome === 'throttled') this.throttled(ticket);
    else if (outcome === 'success') this.succeeded();
    this.wake();
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
   * the result.
   */
  async run<T>(
    fn: () => Promise<T>,
    classify: (value: T) => Outcome,
    interrupt?: { signal: AbortSignal | undefined; aborted: () => T },
  ): Promise<T> {
    const ticket = await this.acquire(interrupt?.signal);
    if (ticket === null) return (interrupt as NonNullable<typeof interrupt>).aborted();
    let outcome: Outcome = 'other';
    try {
      const value = await fn();
      outcome = classify(value);
      return value;
    } finally {
      this.release(ticket, outcome);
    }
  }
}
