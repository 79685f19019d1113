// Retry timing shared by the HTTP clients (agent, judge): the real clock, the server's
// Retry-After, and the agent's full-jitter exponential backoff.

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
