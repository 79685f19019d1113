// The quota a server advertises in its rate limit headers, read as a pace of request starts
// (docs/configuration.md, "Adaptive concurrency"): a number of requests per window of seconds.
//
// Read from `RateLimit-Policy` (the IETF draft's: `"default";q=100;w=60` since draft 08, `100;w=60`
// before it) and from `RateLimit-Limit` or `X-RateLimit-Limit` when it names its window
// (`100, 100;w=60` or `100;window=60`, as the earlier drafts and some APIs write it). A limit
// without a window (GitHub's `X-RateLimit-Limit: 5000`, OpenAI's `x-ratelimit-limit-requests`) sets
// no pace: nothing says over how long it counts. The remaining count and the reset time are read
// only when nothing remains (spentQuota, below): the starts wait for the reset. OpenAI's tokens are
// read as its requests are: no request is served from a spent token budget.
//
// Strict: a member that is not an integer or a name followed by `;key=value` parameters, a quota or
// window that is not a whole number from 1 up, or a window over MAX_POLICY_WINDOW_S is passed over,
// and a field with nothing readable gives no pace. Of several policies, the slowest rate wins.

import { serverNow } from './http-date.js';

/** Starts allowed per window: `perWindow` evenly spaced in each `windowMs` (the limiter's pace, http/limiter.ts). */
export interface Pace {
  readonly perWindow: number;
  readonly windowMs: number;
}

/** The longest window read as a rate (a minute); longer ones (an hour's, a day's) are budgets a run spends at its own speed. */
export const MAX_POLICY_WINDOW_S = 60;

type Headers = Record<string, string | string[] | undefined>;

/** The pace a response's headers advertise, or null. A few lookups by name: no work for a response without them. */
export function advertisedPace(headers: Headers): Pace | null {
  const policy = headers['ratelimit-policy'];
  const limit = headers['ratelimit-limit'] ?? headers['x-ratelimit-limit'];
  if (policy === undefined && limit === undefined) return null;
  let best: Pace | null = null;
  for (const field of [policy, limit]) {
    if (field === undefined) continue;
    for (const member of members(Array.isArray(field) ? field.join(',') : field)) {
      const pace = paceOf(member);
      if (pace !== null && (best === null || pace.perWindow / pace.windowMs < best.perWindow / best.windowMs)) best = pace;
    }
  }
  return best;
}

/** A list member: an item (an integer, a quoted string or a token) and its `;key=value` parameters. */
const MEMBER = /^(\d{1,15}|"(?:[^"\\]|\\["\\])*"|[A-Za-z*][A-Za-z0-9_.:%*/!#$&'^`|~+-]*)((?:\s*;\s*[a-z*][a-z0-9_.*-]*=(?:\d{1,15}|"(?:[^"\\]|\\["\\])*"|[A-Za-z*][A-Za-z0-9_.:%*/!#$&'^`|~+-]*))*)$/;
const PARAM = /;\s*([a-z*][a-z0-9_.*-]*)=("(?:[^"\\]|\\["\\])*"|[^;\s]+)/g;

/** Splits a field's value at the commas outside quoted strings; members trimmed. */
function members(value: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\') i += 1;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out;
}

function paceOf(member: string): Pace | null {
  const m = MEMBER.exec(member);
  if (m === null) return null;
  const item = m[1] as string;
  const params = new Map<string, string>();
  for (const p of (m[2] as string).matchAll(PARAM)) {
    if (params.has(p[1] as string)) return null;
    params.set(p[1] as string, p[2] as string);
  }
  // Draft 08 on: the item names the policy, `q` is the quota. Before: the item is the quota.
  const quota = /^\d/.test(item) ? (params.has('q') ? null : item) : params.get('q');
  const window = params.get('w') ?? params.get('window');
  if (quota === undefined || quota === null || window === undefined) return null;
  if (params.has('w') && params.has('window')) return null;
  const q = wholeFromOne(quota);
  const w = wholeFromOne(window);
  if (q === null || w === null || w > MAX_POLICY_WINDOW_S) return null;
  return { perWindow: q, windowMs: w * 1000 };
}

function wholeFromOne(text: string): number | null {
  if (!/^\d{1,15}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 ? n : null;
}

/** The wait until a quota spent to its last request opens again, and the header that said when. */
export interface Spent {
  waitMs: number;
  /** The header that named the reset, as it is written in its docs (`X-RateLimit-Reset`). */
  header: string;
}

/** A reset from X-RateLimit-Reset at or above this is a time (epoch seconds, GitHub's); below, seconds from now. */
export const EPOCH_RESET_FROM_S = 1_000_000_000;
/** The furthest reset read (a day): one further is in a unit we cannot tell (milliseconds, most likely). */
export const MAX_RESET_S = 86_400;

/**
 * When the answer says no request remains of its quota, the wait until it resets, in ms from `now`;
 * null when it does not say so, or says it in a form we cannot read (docs/configuration.md,
 * "Adaptive concurrency"). Read: the IETF draft's `RateLimit: "default";r=0;t=3` (draft 08 on: the
 * longest `t` of the policies with `r=0`), the earlier drafts' `RateLimit-Remaining: 0` with
 * `RateLimit-Reset` (seconds from now), OpenAI's `x-ratelimit-remaining-requests: 0` with
 * `x-ratelimit-reset-requests` (a duration: `1s`, `6m0s`, `20ms`, `1m30.5s`) and its
 * `x-ratelimit-remaining-tokens: 0` with `x-ratelimit-reset-tokens` (the same form: a request needs
 * tokens too, so a spent token budget refuses it as a spent request count does), and
 * `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset`, whole seconds: from EPOCH_RESET_FROM_S up a
 * time in epoch seconds (GitHub's, read from the answer's `Date` when it has one: http-date.ts, serverNow), below
 * it seconds from now. Strict: a remaining count that is
 * not a whole number, a reset in another form (a date, a fraction of a second where whole seconds
 * are due, a header given twice) or more than MAX_RESET_S away gives nothing. Of several spent
 * (OpenAI's requests and tokens both), the latest reset.
 */
export function spentQuota(headers: Headers, now: number): Spent | null {
  const draft = headers.ratelimit;
  if (draft !== undefined) {
    const wait = typeof draft === 'string' ? draftReset(draft) : null;
    if (wait !== null) return { waitMs: wait, header: 'RateLimit' };
  }
  const pairs: [string, string, string, (v: string) => number | null][] = [
    ['ratelimit-remaining', 'ratelimit-reset', 'RateLimit-Reset', (v) => seconds(v)],
    ['x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-requests', duration],
    ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens', 'x-ratelimit-reset-tokens', duration],
    ['x-ratelimit-remaining', 'x-ratelimit-reset', 'X-RateLimit-Reset', (v) => epochOrSeconds(v, serverNow(headers, now))],
  ];
  let latest: Spent | null = null;
  for (const [remaining, reset, header, read] of pairs) {
    const left = headers[remaining];
    const at = headers[reset];
    if (typeof left !== 'string' || typeof at !== 'string' || !/^\s*0+\s*$/.test(left)) continue;
    const wait = read(at.trim());
    if (wait !== null && (latest === null || wait > latest.waitMs)) latest = { waitMs: wait, header };
  }
  return latest;
}

/** The longest `t` (seconds) of the draft's policies with `r=0`, in ms; null when none is spent. */
function draftReset(value: string): number | null {
  let most: number | null = null;
  for (const member of members(value)) {
    const m = MEMBER.exec(member);
    if (m === null || /^\d/.test(m[1] as string)) continue;
    const params = new Map<string, string>();
    let twice = false;
    for (const p of (m[2] as string).matchAll(PARAM)) {
      if (params.has(p[1] as string)) twice = true;
      params.set(p[1] as string, p[2] as string);
    }
    if (twice || params.get('r') === undefined || !/^\d{1,15}$/.test(params.get('r') as string) || Number(params.get('r')) !== 0) continue;
    const t = seconds(params.get('t') ?? '');
    if (t !== null && (most === null || t > most)) most = t;
  }
  return most;
}

/** Whole seconds from now, up to MAX_RESET_S, in ms. */
function seconds(text: string): number | null {
  if (!/^\d{1,15}$/.test(text)) return null;
  const s = Number(text);
  return s <= MAX_RESET_S ? s * 1000 : null;
}

/** X-RateLimit-Reset: epoch seconds from EPOCH_RESET_FROM_S up (a time past is a wait of 0), else seconds from now. */
function epochOrSeconds(text: string, now: number): number | null {
  if (!/^\d{1,15}$/.test(text)) return null;
  const s = Number(text);
  if (s < EPOCH_RESET_FROM_S) return seconds(text);
  const wait = Math.max(0, s * 1000 - now);
  return wait <= MAX_RESET_S * 1000 ? wait : null;
}

/** A Go-style duration as OpenAI writes its resets (`6m0s`, `1s`, `20ms`, `1m30.5s`): hours, minutes, seconds, ms, in that order, each once. */
const DURATION = /^(?:(\d{1,6})h)?(?:(\d{1,6})m(?!s))?(?:(\d{1,9}(?:\.\d{1,9})?)s)?(?:(\d{1,9}(?:\.\d{1,9})?)ms)?$/;

function duration(text: string): number | null {
  const m = DURATION.exec(text);
  if (m === null || text === '') return null;
  const ms = Number(m[1] ?? 0) * 3_600_000 + Number(m[2] ?? 0) * 60_000 + Number(m[3] ?? 0) * 1000 + Number(m[4] ?? 0);
  return ms <= MAX_RESET_S * 1000 ? Math.ceil(ms) : null;
}
