// The one retry loop of the HTTP clients (agent, judge), and its timing: the real clock, the
// server's Retry-After, and a full-jitter exponential backoff. Each client decides what one
// attempt is and which failures are worth another; this loop decides when to try again.

import type { Clock } from '../types.js';

/** Real time; tests inject their own Clock and never sleep. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Longest wait we accept from a Retry-After header. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Longest computed backoff between two attempts. */
export const MAX_BACKOFF_MS = 30_000;

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
      /** The server's Retry-After, when it gave one: waited instead of the backoff. */
      retryAfterMs: number | null;
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
  /** Told before each attempt after the first (SPEC 12 spend: retries counted apart from turns). */
  onRetry?: () => void;
}

/**
 * Runs `attempt` until it succeeds, fails in a way not worth retrying, or `retries` more attempts
 * were made; between two attempts it waits the server's Retry-After, else a full-jitter backoff.
 * `attempt` is told whether it is the last one (so it can keep the body to quote in an error).
 */
export async function withRetries<T, F>(
  attempt: (isLast: boolean) => Promise<AttemptResult<T, F>>,
  options: RetryOptions,
): Promise<{ ok: true; value: T } | { ok: false; failure: F; attempts: number }> {
  const retries = Math.max(0, Math.floor(options.retries));
  for (let n = 0; ; n++) {
    const isLast = n >= retries;
    const result = await attempt(isLast);
    if (result.ok) return result;
    if (!result.retryable || isLast || options.signal?.aborted === true) return { ok: false, failure: result.failure, attempts: n + 1 };
    const waited = await sleepUnlessAborted(options.clock, result.retryAfterMs ?? backoffDelay(n, options.backoffMs, options.random), options.signal);
    if (!waited) return { ok: false, failure: result.failure, attempts: n + 1 };
    options.onRetry?.();
  }
}

/** Waits `ms` on the clock; false as soon as `signal` is aborted (the wait is abandoned). */
async function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
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
    return await Promise.race([clock.sleep(ms).then(() => !signal.aborted), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Parses a Retry-After header (delta seconds or an HTTP date) into milliseconds from `now`,
 * capped at MAX_RETRY_AFTER_MS. Returns null when absent or unparseable.
 */
export function parseRetryAfter(header: string | string[] | null | undefined, now: number): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return null;
    ms = date - now;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms)));
}
