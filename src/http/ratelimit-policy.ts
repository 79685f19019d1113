// The quota a server advertises in its rate limit headers, read as a pace of request starts
// (docs/configuration.md, "Adaptive concurrency"): a number of requests per window of seconds.
//
// Read from `RateLimit-Policy` (the IETF draft's: `"default";q=100;w=60` since draft 08, `100;w=60`
// before it) and from `RateLimit-Limit` or `X-RateLimit-Limit` when it names its window
// (`100, 100;w=60` or `100;window=60`, as the earlier drafts and some APIs write it). A limit
// without a window (GitHub's `X-RateLimit-Limit: 5000`, OpenAI's `x-ratelimit-limit-requests`), the
// remaining count and the reset time are not read: nothing says over how long the limit counts,
// and a reset counts from when the server counted, a latency before the answer came (GitHub writes
// it in epoch seconds, the drafts in seconds from now, others as dates or in milliseconds).
//
// Strict: a member that is not an integer or a name followed by `;key=value` parameters, a quota or
// window that is not a whole number from 1 up, or a window over MAX_POLICY_WINDOW_S is passed over,
// and a field with nothing readable gives no pace. Of several policies, the slowest rate wins.

import type { Pace } from './limiter.js';

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
