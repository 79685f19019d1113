// An HTTP date as servers write it, read strictly: a Retry-After's (http/retry.ts), a Date header's
// (serverNow: the server's now, which a Retry-After date and GitHub's epoch reset are times of), a GitHub answer's.

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** An HTTP date as servers write it (`Thu, 01 Jan 2026 00:00:03 GMT`), and its older form with a two-digit year, in GMT. */
const GMT_DATE = [new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`, 'i'), new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`, 'i')];
/** The third form (`Thu Jan  1 00:00:03 2026`), which names no zone: GMT all the same. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`, 'i');

/**
 * An HTTP date (a Retry-After's), in ms since the epoch; null for anything else. Date.parse alone
 * is not the test: V8 reads "-1", "1 2" or "7 soon" as days of 2001, a wait of 0 that would retry
 * at once instead of waiting the backoff (docs/configuration.md, "Adaptive concurrency").
 */
export function httpDate(value: string): number | null {
  const text = GMT_DATE.some((form) => form.test(value)) ? value : ASCTIME.test(value) ? `${value} GMT` : null;
  const at = text === null ? Number.NaN : Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

/**
 * The server's now, which a time it names (a Retry-After date, an epoch X-RateLimit-Reset) is a time
 * of: the answer's `Date` (an HTTP date, given once), else `now`, ours. Read against our clock, a
 * wait moved by our clock's error: one a minute behind the server's waited a minute more
 * (docs/configuration.md, "Adaptive concurrency").
 */
export function serverNow(headers: Record<string, string | string[] | undefined>, now: number): number {
  const date = headers.date;
  return (typeof date === 'string' ? httpDate(date.trim()) : null) ?? now;
}
