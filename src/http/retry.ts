// The one retry loop of the HTTP clients (agent, judge), and its timing: the real clock, the
// server's Retry-After, and a full-jitter exponential backoff. Each client decides what one
// attempt is and which failures are worth another; this loop decides when to try again.
//
// A rate limit (429) is not a failure of the request: the server asks it to come back later. A
// throttled attempt does not spend one of the `retries` (one that asks for no wait, only up to
// `freeThrottles`: the limiter's halvings down to 1 and a lone refusal; one that reads as a rate
// limit, which halves nothing, only within a window of the rate from the first; then it spends one); the request waits (the Retry-After and a
// small jitter; without one, a backoff growing up to a cap and never under MIN_THROTTLE_WAIT_MS, so a
// server that says "Retry-After: 0" is not hammered) holding no limiter slot, and goes again. It gives up when its own time budget is spent (or the retries, on 429s past freeThrottles): the time the
// attempts could have taken had each one timed out (timeoutMs x attempts), counted from when the first
// was sent: its wait for a slot or its paced start is the queue's, not the request's. The budget bounds when
// a retry is sent, not how long it runs: one sent within it has its whole timeoutMs, so the time spent can
// end past it (docs/configuration.md, "Adaptive concurrency"), and the error then says what was left at its send.
// A failure that spends a retry (a 5xx, a network error) is held to the same budget: its retry is sent
// within it or not at all, a Retry-After that would end past it given up at once, a backoff cut to what is left.

import type { Clock } from '../types.js';
import { httpDate, serverNow } from './http-date.js';
import type { Pace } from './ratelimit-policy.js';
import { plural, thousands } from '../words.js';

/** Real time; tests inject their own Clock and never sleep. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal === undefined) {
        setTimeout(resolve, ms);
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
};

/**
 * Starts a request's timeoutMs: `cut` is called when it has passed, unless the stop it returns is
 * called first. The clients' deps take one so that a test fires `cut` itself once its server holds
 * the request, and no short real timer races the server's handler (docs/architecture.md, "The shape").
 */
export type Timer = (ms: number, cut: () => void) => () => void;

/** timeoutMs on the real clock. */
export const realTimer: Timer = (ms, cut) => {
  const timer = setTimeout(cut, ms);
  return () => clearTimeout(timer);
};

/** Longest wait we accept from a Retry-After header. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Longest computed backoff between two attempts. */
const MAX_BACKOFF_MS = 30_000;
/** A 429 without a Retry-After waits a backoff that stops growing at backoffMs x 2^MAX_THROTTLE_STEPS (4 s at the default 250 ms). */
const MAX_THROTTLE_STEPS = 4;
/**
 * The least wait after a 429 that asked for none, whatever backoffMs (0 included): a refused
 * request is not sent again at once (docs/configuration.md, "Adaptive concurrency").
 */
export const MIN_THROTTLE_WAIT_MS = 100;
/** The 429s without a wait that spend no retry, when the caller does not say (throttleAllowance of the largest concurrency, 256). */
const MAX_FREE_THROTTLES = 9;

/**
 * How many 429s without a wait one request may get without spending a retry, under a limit on
 * requests in flight of at most `max`: one for each halving down to 1, and one for the refusal of a
 * request sent alone (docs/configuration.md, "Adaptive concurrency"). The next spends a retry.
 */
export function throttleAllowance(max: number): number {
  return Math.floor(Math.log2(Math.max(1, Math.floor(max)))) + 1;
}

/** Full jitter: a uniform wait in [0, backoffMs * 2^attempt), attempt counted from 0. */
export function backoffDelay(attempt: number, backoffMs: number, random: () => number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** What one attempt came to: a value, or a failure that may be worth another attempt. */
export type AttemptResult<T, F> =
  | { ok: true; value: T }
  | {
      ok: false;
      failure: F;
      retryable: boolean;
      /**
       * The server's Retry-After as it asked (askedRetryAfterOf), when it gave one: waited instead of the
       * backoff, at most MAX_RETRY_AFTER_MS; a rate limit's is held against the time budget as asked.
       */
      retryAfterMs: number | null;
      /** A rate limit (429): retried within the time budget without spending a retry. */
      throttled?: boolean;
      /** The header that set `retryAfterMs` when it is not the Retry-After: a spent quota's reset (`X-RateLimit-Reset`). */
      resetBy?: string;
      /**
       * The 429's headers say the server's quota is spent until a reset (http/ratelimit-policy.ts,
       * spentQuota), one already due included: a hold, waited for within the time budget, never capped by `freeThrottles`.
       */
      quotaSpent?: boolean;
      /**
       * The 429 carries a rate limit's headers (rateLimitOf): one that asks for no wait spends no retry within
       * `windowMs` of the first, not up to `freeThrottles`, and is said with them, not with a limit on requests in flight that came down.
       */
      rateLimited?: boolean;
      /** The window the rate limit counts requests over, as the limiter paces over it (http/limiter.ts, rateLimited): the quota's its headers name, else the one an earlier answer named (quotaWindowMs), else 1 s (RATE_LIMIT_WAIT_MS, the shortest). */
      windowMs?: number;
      /**
       * Not sent: the server's spent quota (another request's answer said it), or the pace, holds the
       * start past the attempt's deadline; `retryAfterMs` is the hold, `resetBy` its header (none for the pace), and `failure` is not
       * read. The loop gives up at once with the failure before it, as for a Retry-After beyond the budget.
       */
      unsent?: boolean;
      /** The pace that held an `unsent` attempt, when no header did (http/limiter.ts). */
      pace?: Pace;
      /** The limit on requests in flight, all taken, that an `unsent` attempt waited for a slot under until its deadline (http/limiter.ts). */
      slot?: number;
    };

export interface RetryOptions {
  /** Attempts after the first. */
  retries: number;
  /** Base of the backoff, in ms. */
  backoffMs: number;
  clock: Clock;
  /** Jitter source in [0, 1). */
  random: () => number;
  /** When aborted (an interrupted run), no further attempt is made. */
  signal?: AbortSignal;
  /**
   * Told before each attempt after the first (`spend` counts retries apart from turns:
   * docs/semantics.md, "Cost").
   */
  onRetry?: () => void;
  /**
   * How long attempts may go on being sent, from when the first attempt was sent (timeoutMs x attempts):
   * one sent within it runs its whole timeoutMs; a throttled one spends no retry within it, and a retry
   * of any failure is sent within it or not at all. Without it a throttled attempt spends a retry like
   * any other failure, and no retry is bounded by time.
   */
  budgetMs?: number;
  /**
   * How many 429s without a wait (no Retry-After, or 0) spend no retry (throttleAllowance of the
   * client's concurrency; 9 when not said): the next ones spend retries, as any failure does. A rate
   * limit's (`rateLimited`) are not counted here: they spend none within its `windowMs` of the first.
   */
  freeThrottles?: number;
}

/** Why the loop stopped on a failure: the retries were spent, the time budget while rate limited, or the time budget before the next retry. */
export type RetryFailure<F> = { ok: false; failure: F; attempts: number; throttled?: ThrottledOut; unwaited?: UnwaitedOut; budget?: BudgetOut };

/**
 * A request given up on a failure that spends a retry (a 5xx, a network error, a 429 past the free
 * ones) with retries left: its next attempt would start past the time budget (docs/configuration.md, "Adaptive concurrency").
 */
export interface BudgetOut {
  elapsedMs: number;
  budgetMs: number;
  /** Present when the server's Retry-After, as asked, would end past the budget. */
  retryAfterMs?: number;
  /** Present when the budget was spent already: what was left of it when the last attempt was sent. */
  leftAtSendMs?: number;
}

/** A request given up on 429s that asked for no wait: the ones that spent no retry, and the retries spent after them. */
export interface UnwaitedOut {
  free: number;
  retries: number;
  /** The last of them carried a rate limit's headers that named no spent quota: the limiter paced, it did not lower the limit. */
  rateLimited?: boolean;
  /** Then, the rate limit's window, from the first of them, within which they spent no retry. */
  windowMs?: number;
}

/** A request given up while rate limited: the time it had spent, the wait it was asked for, its budget. */
export interface ThrottledOut {
  elapsedMs: number;
  waitMs: number;
  budgetMs: number;
  /** Present when the server's Retry-After set the wait (it asked for longer than the backoff). */
  retryAfterMs?: number;
  /** The header that set it when it is a spent quota's reset, not the Retry-After. */
  resetBy?: string;
  /** Present when the limiter's pace set the wait (the next attempt's start): its starts per window. */
  pace?: Pace;
  /** Present when the next attempt waited for a free slot until its deadline (`waitMs`, how long): the limit on requests in flight. */
  slot?: number;
  /**
   * What was left of the budget when the last attempt was sent: one sent within it has its whole
   * timeoutMs, so `elapsedMs` can be past the budget (docs/configuration.md, "Adaptive concurrency").
   */
  leftAtSendMs?: number;
}

/** How many attempts the loop made, in words, and why it stopped when a rate limit, or a retry's wait, outlasted the budget. */
export function attemptsText(result: { attempts: number; throttled?: ThrottledOut; unwaited?: UnwaitedOut; budget?: BudgetOut }): string {
  const n = plural(result.attempts, 'attempt', 'attempts');
  const b = result.budget;
  if (b !== undefined) {
    const budget = `the time budget of ${thousands(b.budgetMs)} ms, timeoutMs x attempts`;
    if (b.retryAfterMs !== undefined) {
      const left = Math.max(0, b.budgetMs - b.elapsedMs);
      return `${n} (the server's Retry-After asks for ${thousands(b.retryAfterMs)} ms, more than the ${thousands(left)} ms left of ${budget}; given up at once instead of waiting: raise timeoutMs or retries to cover the wait)`;
    }
    const sent = b.leftAtSendMs === undefined ? '' : `, which the last attempt ran past: sent with ${thousands(b.leftAtSendMs)} ms of it left, it had its whole timeoutMs`;
    return `${n} (${thousands(b.elapsedMs)} ms spent, past ${budget}${sent}; given up rather than send another: raise timeoutMs or retries)`;
  }
  const u = result.unwaited;
  if (u !== undefined) {
    const free = u.free === 1 ? 'the first spent' : `the first ${thousands(u.free)} spent`;
    const spent = u.retries === 0 ? 'retries: 0 left none for the next' : u.retries === 1 ? 'the next spent the 1 retry' : `the next spent the ${thousands(u.retries)} retries`;
    // A rate limit's 429 leaves the limit on requests in flight as it is (http/limiter.ts): not said to have lowered it.
    const why = u.rateLimited === true ? ', their rate limit headers naming no spent quota: ' : ': ';
    // A rate limit's were free within its window from the first, not while a limit came down.
    const lowered = u.rateLimited === true ? (u.windowMs === undefined ? '' : ` within ${thousands(u.windowMs)} ms of the first (the rate limit's window)`) : ' while the limit on requests in flight came down';
    return `${n} (429s that asked for no wait${why}${free} no retry${lowered}, ${spent}; given up rather than send more: lower the concurrency, or raise retries and backoffMs)`;
  }
  const t = result.throttled;
  if (t === undefined) return n;
  if (t.slot !== undefined) {
    const all = t.slot === 1 ? 'at most 1 request in flight, taken' : `at most ${thousands(t.slot)} requests in flight, all taken`;
    return `${n} (the next attempt waited ${thousands(t.waitMs)} ms for a free slot (${all}) until the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts, was spent; given up unsent: raise timeoutMs or retries to cover the wait)`;
  }
  if (t.pace !== undefined) {
    const left = Math.max(0, t.budgetMs - t.elapsedMs);
    const starts = plural(t.pace.perWindow, 'start', 'starts');
    return `${n} (rate limited: the requests are paced at ${starts} per ${thousands(t.pace.windowMs)} ms since the server's rate limit, so the next attempt would start ${thousands(t.waitMs)} ms from now, more than the ${thousands(left)} ms left of the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait)`;
  }
  if (t.retryAfterMs !== undefined) {
    const left = Math.max(0, t.budgetMs - t.elapsedMs);
    if (t.resetBy !== undefined) return `${n} (rate limited: the server's quota is spent until its ${t.resetBy}, ${thousands(t.retryAfterMs)} ms away, more than the ${thousands(left)} ms left of the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts; given up at once instead of waiting)`;
    return `${n} (rate limited: the server's Retry-After asks for ${thousands(t.retryAfterMs)} ms, more than the ${thousands(left)} ms left of the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts; given up at once instead of waiting)`;
  }
  // 429s slow to come (each near timeoutMs) may have spent the budget before any wait: said so, not that a wait would pass it.
  if (t.elapsedMs >= t.budgetMs) {
    // The budget bounds when a retry is sent, not how long it runs: the last one, sent within it, had its whole timeoutMs.
    const sent = t.leftAtSendMs === undefined ? '' : `, which the last attempt ran past: sent with ${thousands(t.leftAtSendMs)} ms of it left, it had its whole timeoutMs`;
    return `${n} (rate limited: ${thousands(t.elapsedMs)} ms spent, past the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts${sent})`;
  }
  return `${n} (rate limited: ${thousands(t.elapsedMs)} ms spent, waiting ${thousands(t.waitMs)} ms more would pass the time budget of ${thousands(t.budgetMs)} ms, timeoutMs x attempts)`;
}

/**
 * Runs `attempt` until it succeeds, fails in a way not worth retrying, or `retries` more attempts
 * were made; between two attempts it waits the server's Retry-After, else a full-jitter backoff.
 * A throttled failure (with `budgetMs`) spends no retry: it waits at least the Retry-After and
 * goes again until the budget is spent; a retry after any other failure is not sent past it either
 * (its Retry-After, as asked, would pass it, or the budget is spent). `attempt` is told, after the
 * first, when its time budget ends on the clock (`deadline`): an attempt the server's spent quota
 * holds past it is not sent (`unsent`), and the loop gives up as for a Retry-After beyond the budget.
 * `attempt` calls `sending` when its request goes on the wire (its slot taken): the budget counts from
 * the first one's, not from a wait for a slot before it (from the first attempt when none is told).
 */
export async function withRetries<T, F>(
  attempt: (deadline: number | undefined, sending: () => void) => Promise<AttemptResult<T, F>>,
  options: RetryOptions,
): Promise<{ ok: true; value: T } | RetryFailure<F>> {
  const retries = Math.max(0, Math.floor(options.retries));
  const freeThrottles = Math.max(0, Math.floor(options.freeThrottles ?? MAX_FREE_THROTTLES));
  /** The 429s without a wait that spent no retry. */
  let unwaited = 0;
  /** Of them, a rate limit's (no halving to count): free within its window from the first, when (time spent) that came. */
  let rateFree = 0;
  let rateFrom: number | null = null;
  const queued = options.clock.now();
  /** When the first attempt was sent: the budget's start (docs/configuration.md, "Adaptive concurrency"). */
  let sentAt: number | null = null;
  /** The time spent when the latest attempt was sent (the budget bounds when a retry is sent, not how long it runs). */
  let sentLast: number | null = null;
  const sending = (): void => {
    sentAt ??= options.clock.now();
    sentLast = Math.max(since(), waitedMs);
  };
  const since = (): number => options.clock.now() - (sentAt ?? queued);
  /** Failures that spent a retry, rate limits, and the waits asked for while rate limited. */
  let spent = 0;
  let throttles = 0;
  let waitedMs = 0;
  let last: F | null = null;
  for (let n = 1; ; n++) {
    const isLast = spent >= retries;
    // The clock may stand still (an injected one): the waits asked for count as time spent.
    const begun = Math.max(since(), waitedMs);
    const deadline = n === 1 || options.budgetMs === undefined ? undefined : options.clock.now() + options.budgetMs - begun;
    sentLast = null;
    const result = await attempt(deadline, sending);
    if (result.ok) return result;
    if (result.unsent === true && last !== null) {
      // Held past the budget by a spent quota another answer said: not sent, given up at once, the
      // attempts made and the failure before it said (docs/configuration.md, "Adaptive concurrency").
      const held = result.retryAfterMs ?? 0;
      const elapsed = Math.max(since(), waitedMs);
      // Held by the pace (no header named a reset): the pace is said, its figure and the wait; by
      // every slot taken until the deadline, the limit and how long it waited.
      const resetBy = result.resetBy !== undefined ? { retryAfterMs: held, resetBy: result.resetBy } : result.pace !== undefined ? { pace: result.pace } : result.slot !== undefined ? { slot: result.slot } : {};
      return { ok: false, failure: last, attempts: n - 1, throttled: { elapsedMs: elapsed, waitMs: held, budgetMs: options.budgetMs ?? 0, ...resetBy } };
    }
    last = result.failure;
    if (!result.retryable || options.signal?.aborted === true) return { ok: false, failure: result.failure, attempts: n };
    let wait: number;
    // A 429 that asked for no wait spends no retry only while the limit on requests in flight can
    // still come down (freeThrottles): then it spends one, so that a server refusing every request
    // is not sent hundreds in a second (docs/configuration.md, "Adaptive concurrency").
    // A spent quota whose reset is due (X-RateLimit-Remaining: 0 with a reset of now) is a hold: waited, never capped.
    const noWait = result.throttled === true && !((result.retryAfterMs ?? 0) > 0) && result.quotaSpent !== true;
    const capped = noWait && options.budgetMs !== undefined;
    // A rate limit's 429 halves no limit (it paces): free while its window has not passed since the
    // first, when the server counts anew; one refused still then is refused for more than its window.
    const rate = capped && result.rateLimited === true;
    if (rate) rateFrom ??= Math.max(since(), waitedMs);
    const free = !capped || (rate ? Math.max(since(), waitedMs) - (rateFrom as number) < (result.windowMs ?? RATE_LIMIT_WAIT_MS) : unwaited < freeThrottles);
    if (capped && free) {
      if (rate) rateFree += 1;
      else unwaited += 1;
    }
    if (result.throttled === true && options.budgetMs !== undefined && free) {
      // The server said when: that wait, and a jitter of up to backoffMs so that the requests it
      // refused together do not come back together. It did not (none, or Retry-After: 0): a backoff
      // that grows with each 429, up to backoffMs x 2^MAX_THROTTLE_STEPS, so it is not a busy loop
      // and a refused request is back soon after the server's window opens again.
      // A Retry-After longer than the budget fails at once as asked, not as capped: one of hours was
      // waited 60 s and the request sent hours early (docs/configuration.md, "Adaptive concurrency").
      const asked = result.retryAfterMs ?? 0;
      wait = asked > 0 ? Math.min(MAX_RETRY_AFTER_MS, asked) + backoffDelay(0, options.backoffMs, options.random) : Math.max(MIN_THROTTLE_WAIT_MS, backoffDelay(Math.min(throttles, MAX_THROTTLE_STEPS), options.backoffMs, options.random));
      throttles += 1;
      // The clock may stand still (an injected one): the waits asked for count as time spent.
      const elapsed = Math.max(since(), waitedMs);
      if (elapsed + (asked > 0 ? asked : wait) > options.budgetMs) {
        // A wait that does not fit is not begun: the request could only fail at the end of it
        // (docs/configuration.md, "Adaptive concurrency"). The failure names the Retry-After when it set the wait.
        const retryAfter = asked > 0 ? { retryAfterMs: asked, ...(result.resetBy === undefined ? {} : { resetBy: result.resetBy }) } : {};
        // Past the budget already: what was left of it when the last attempt was sent (one not told its send: when it was begun).
        const leftAtSend = elapsed >= options.budgetMs ? { leftAtSendMs: Math.max(0, options.budgetMs - (sentLast ?? begun)) } : {};
        return { ok: false, failure: result.failure, attempts: n, throttled: { elapsedMs: elapsed, waitMs: asked > 0 ? asked : wait, budgetMs: options.budgetMs, ...retryAfter, ...leftAtSend } };
      }
      wait = Math.min(wait, options.budgetMs - elapsed);
      waitedMs += wait;
    } else {
      // The last failure a 429 past the free ones: the error says why it was not sent again (a 5xx's does not).
      if (isLast) return { ok: false, failure: result.failure, attempts: n, ...(capped ? { unwaited: { free: unwaited + rateFree, retries, ...(result.rateLimited === true ? { rateLimited: true, windowMs: result.windowMs ?? RATE_LIMIT_WAIT_MS } : {}) } } : {}) };
      const asked = result.retryAfterMs;
      wait = asked === null ? backoffDelay(spent, options.backoffMs, options.random) : Math.min(MAX_RETRY_AFTER_MS, asked);
      if (noWait) wait = Math.max(MIN_THROTTLE_WAIT_MS, wait);
      if (options.budgetMs !== undefined) {
        // A retry that spends one is sent within the time budget too, or not at all: the server's
        // Retry-After is held against it as asked (a 503's of 60 s was waited and the retry sent
        // past a budget of 15 s), the backoff, ours, is cut to what is left (docs/configuration.md, "Adaptive concurrency").
        // The clock may stand still (an injected one): the waits count as time spent.
        const elapsed = Math.max(since(), waitedMs);
        if (asked !== null && asked > 0 && elapsed + asked > options.budgetMs) return { ok: false, failure: result.failure, attempts: n, budget: { elapsedMs: elapsed, budgetMs: options.budgetMs, retryAfterMs: asked } };
        if (elapsed > options.budgetMs) return { ok: false, failure: result.failure, attempts: n, budget: { elapsedMs: elapsed, budgetMs: options.budgetMs, leftAtSendMs: Math.max(0, options.budgetMs - (sentLast ?? begun)) } };
        wait = Math.min(wait, options.budgetMs - elapsed);
      }
      waitedMs += wait;
      spent += 1;
    }
    const waited = await sleepUnlessAborted(options.clock, wait, options.signal);
    if (!waited) return { ok: false, failure: result.failure, attempts: n };
    options.onRetry?.();
  }
}

/**
 * Waits `ms` on the clock; false as soon as `signal` is aborted. The clock is given the signal, so
 * the real one clears its timer then: no backoff's timer outlives an interrupt (a clock that does
 * not end its sleep on the signal is abandoned all the same).
 */
export async function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) {
    await clock.sleep(ms);
    return true;
  }
  if (signal.aborted) return false;
  let onAbort = (): void => undefined;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([clock.sleep(ms, signal).then(() => !signal.aborted), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The wait a 429 or 5xx answer asks for, in milliseconds from `now`: its `retry-after-ms` (a
 * number of milliseconds, which OpenAI's API sends and its SDK reads before Retry-After), else its
 * Retry-After; capped at MAX_RETRY_AFTER_MS either way (docs/configuration.md, "Adaptive
 * concurrency"). A `retry-after-ms` that is not such a number is passed over, as the SDK passes it
 * over. A Retry-After date is read against the answer's `Date` (serverNow). Null when neither gives a wait.
 */
export function retryAfterOf(headers: Record<string, string | string[] | undefined>, now: number): number | null {
  const asked = askedRetryAfterOf(headers, now);
  return asked === null ? null : Math.min(MAX_RETRY_AFTER_MS, asked);
}

/** retryAfterOf's wait as the server asked it, not capped (withRetries caps the wait, and holds a rate limit's against its budget as asked). */
export function askedRetryAfterOf(headers: Record<string, string | string[] | undefined>, now: number): number | null {
  const header = headers['retry-after-ms'];
  const ms = (Array.isArray(header) ? header[0] : header)?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.min(Number.MAX_SAFE_INTEGER, Math.round(Number(ms)));
  // A date is a time of the server's clock: read against the answer's Date when it has one, so
  // that a runner's clock off by a minute does not move the wait by a minute.
  return parseRetryAfter(headers['retry-after'], serverNow(headers, now), Number.MAX_SAFE_INTEGER);
}

/** A 429's wait (askedRetryAfterOf) from which it reads as a rate limit, not as too many requests in flight. */
export const RATE_LIMIT_WAIT_MS = 1000;

/**
 * Whether a 429 says the server counts requests over time (docs/configuration.md, "Adaptive
 * concurrency"): it asks for a wait of a second or more (`asked`, from askedRetryAfterOf), or it
 * carries a rate limit's own headers, the IETF's `RateLimit`, `RateLimit-Policy`, or the earlier
 * drafts' `RateLimit-Limit`, `RateLimit-Remaining` or `RateLimit-Reset`, or an `X-RateLimit-*`
 * (GitHub's, OpenAI's). Anything else, a 429 without a wait
 * or with `Retry-After: 0`, reads as too many requests in flight. `headers` as undici gives them
 * (names in lower case).
 */
export function rateLimitOf(headers: Record<string, string | string[] | undefined>, asked: number | null): boolean {
  if (asked !== null && asked >= RATE_LIMIT_WAIT_MS) return true;
  return Object.keys(headers).some((name) => RATE_LIMIT_HEADERS.has(name) || name.startsWith('x-ratelimit-'));
}

const RATE_LIMIT_HEADERS = new Set(['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);

/**
 * Parses a Retry-After header (delta seconds or an HTTP date) into milliseconds from `now`,
 * capped at `cap` (MAX_RETRY_AFTER_MS). Returns null when absent or neither (a negative number,
 * garbage): the backoff is waited then.
 */
export function parseRetryAfter(header: string | string[] | null | undefined, now: number, cap = MAX_RETRY_AFTER_MS): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const date = httpDate(value);
    if (date === null) return null;
    ms = date - now;
  }
  return Math.min(cap, Math.max(0, Math.round(ms)));
}
