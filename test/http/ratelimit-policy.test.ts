// The quota a server's rate limit headers advertise, read strictly: the IETF draft's RateLimit-Policy
// (draft 08 on, and before), a RateLimit-Limit or X-RateLimit-Limit that names its window, and
// nothing from a limit without one (GitHub's, OpenAI's) or from a value that is not well formed.

import { describe, expect, it } from 'vitest';
import { advertisedPace, spentQuota } from '../../src/http/ratelimit-policy.js';

describe('advertisedPace', () => {
  it.each([
    ['ratelimit-policy', '"default";q=100;w=60', { perWindow: 100, windowMs: 60_000 }],
    ['ratelimit-policy', 'default;q=5;w=1', { perWindow: 5, windowMs: 1000 }],
    ['ratelimit-policy', '100;w=10', { perWindow: 100, windowMs: 10_000 }],
    ['ratelimit-policy', '"burst";q=100;w=10, "day";q=1000;w=60', { perWindow: 100, windowMs: 10_000 }],
    ['ratelimit-policy', '"a,b";q=10;w=1, "c";q=5;w=1', { perWindow: 5, windowMs: 1000 }],
    ['ratelimit-limit', '10, 10;w=1', { perWindow: 10, windowMs: 1000 }],
    ['x-ratelimit-limit', '100, 100;window=60, 10000;window=86400', { perWindow: 100, windowMs: 60_000 }],
  ])('%s: %s', (name, value, pace) => {
    expect(advertisedPace({ [name]: value })).toEqual(pace);
  });

  it('reads the slowest of the policy and the limit', () => {
    expect(advertisedPace({ 'ratelimit-policy': '"a";q=10;w=1', 'x-ratelimit-limit': '30;w=60' })).toEqual({ perWindow: 30, windowMs: 60_000 });
  });

  it('a header given twice is read as one list', () => {
    expect(advertisedPace({ 'ratelimit-policy': ['"a";q=10;w=1', '"b";q=3;w=1'] })).toEqual({ perWindow: 3, windowMs: 1000 });
  });

  it.each([
    // No window: GitHub's limit, OpenAI's, a draft's bare number.
    ['x-ratelimit-limit', '5000'],
    ['ratelimit-limit', '100'],
    ['ratelimit-policy', '"default";q=100'],
    // Not whole numbers from 1 up, or not numbers.
    ['ratelimit-policy', '"default";q=0;w=1'],
    ['ratelimit-policy', '"default";q=5;w=0'],
    ['ratelimit-policy', '"default";q=-5;w=1'],
    ['ratelimit-policy', '"default";q=5.5;w=1'],
    ['ratelimit-policy', '"default";q=5;w=1.5'],
    ['ratelimit-policy', '"default";q=five;w=1'],
    ['ratelimit-policy', '"default";q=5;w="1"'],
    ['ratelimit-policy', '"default";q=1e3;w=1'],
    ['ratelimit-policy', '"default";q=9999999999999999;w=1'],
    // A parameter twice, both window names, a quota twice over.
    ['ratelimit-policy', '"default";q=5;q=6;w=1'],
    ['ratelimit-policy', '5;w=1;window=1'],
    ['ratelimit-policy', '5;q=5;w=1'],
    // An hour's or a day's budget is not a rate.
    ['ratelimit-policy', '"hour";q=5000;w=3600'],
    // Not a list member at all.
    ['ratelimit-policy', ''],
    ['ratelimit-policy', 'q=5;w=1'],
    ['ratelimit-policy', '"unterminated;q=5;w=1'],
    ['ratelimit-policy', '"default" ;q=5 w=1'],
    ['x-ratelimit-limit', '100;window=60 extra'],
  ])('%s: %s gives no pace', (name, value) => {
    expect(advertisedPace({ [name]: value })).toBeNull();
  });

  it('passes over a bad member and reads the good one', () => {
    expect(advertisedPace({ 'ratelimit-policy': '"bad";q=0;w=1, "good";q=7;w=2' })).toEqual({ perWindow: 7, windowMs: 2000 });
  });

  it('no rate limit header: no pace', () => {
    expect(advertisedPace({ 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1372700873' })).toBeNull();
  });
});

describe('spentQuota', () => {
  const NOW = 1_700_000_000_000; // epoch ms
  it.each([
    [{ ratelimit: '"default";r=0;t=3' }, { waitMs: 3000, header: 'RateLimit' }],
    [{ ratelimit: '"burst";r=0;t=2, "day";r=0;t=50, "hour";r=7;t=900' }, { waitMs: 50_000, header: 'RateLimit' }],
    [{ 'ratelimit-remaining': '0', 'ratelimit-reset': '7' }, { waitMs: 7000, header: 'RateLimit-Reset' }],
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s' }, { waitMs: 1000, header: 'x-ratelimit-reset-requests' }],
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '6m0s' }, { waitMs: 360_000, header: 'x-ratelimit-reset-requests' }],
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20ms' }, { waitMs: 20, header: 'x-ratelimit-reset-requests' }],
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m30.5s' }, { waitMs: 90_500, header: 'x-ratelimit-reset-requests' }],
    // OpenAI's tokens: a request needs some, so a spent token budget refuses it as spent requests do.
    [{ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '6m0s' }, { waitMs: 360_000, header: 'x-ratelimit-reset-tokens' }],
    [{ 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '23h47m36.648s' }, { waitMs: 85_656_648, header: 'x-ratelimit-reset-tokens' }],
    // Both spent: the later reset, whichever is named first.
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '12ms', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '9s' }, { waitMs: 9000, header: 'x-ratelimit-reset-tokens' }],
    [{ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '9ms' }, { waitMs: 2000, header: 'x-ratelimit-reset-requests' }],
    // GitHub's: epoch seconds (from 1e9 up), 42 s after NOW; one past is no wait.
    [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000042' }, { waitMs: 42_000, header: 'X-RateLimit-Reset' }],
    [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1699999999' }, { waitMs: 0, header: 'X-RateLimit-Reset' }],
    // Others': seconds from now (below 1e9).
    [{ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '53' }, { waitMs: 53_000, header: 'X-RateLimit-Reset' }],
  ])('%j', (headers, spent) => {
    expect(spentQuota(headers, NOW)).toEqual(spent);
  });

  // GitHub's epoch reset is a time of the server's clock: read from the answer's Date, the server's
  // now, a clock of ours 90 s behind it does not add 90 s to the wait (it waited 132 s for a 42 s reset).
  it("an epoch reset is read from the answer's Date when it has one: a server clock 90 s ahead of ours waits 42 s, not 132 s", () => {
    const serverDate = new Date(NOW + 90_000).toUTCString(); // Tue, 14 Nov 2023 22:14:50 GMT
    const reset = String(NOW / 1000 + 90 + 42);
    expect(spentQuota({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, date: serverDate }, NOW)).toEqual({ waitMs: 42_000, header: 'X-RateLimit-Reset' });
    // A server clock behind ours, the same; a reset the server's clock has passed, no wait.
    expect(spentQuota({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 90 + 42), date: new Date(NOW - 90_000).toUTCString() }, NOW)).toEqual({ waitMs: 42_000, header: 'X-RateLimit-Reset' });
    expect(spentQuota({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 89), date: serverDate }, NOW)).toEqual({ waitMs: 0, header: 'X-RateLimit-Reset' });
    // No Date, or one that is not an HTTP date or given twice: our clock, as before.
    for (const date of [undefined, 'soon', [serverDate, serverDate]]) {
      expect(spentQuota({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset, ...(date === undefined ? {} : { date }) }, NOW)).toEqual({ waitMs: 132_000, header: 'X-RateLimit-Reset' });
    }
    // Seconds from now (below 1e9) are the server's own wait: its Date changes nothing.
    expect(spentQuota({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '53', date: serverDate }, NOW)).toEqual({ waitMs: 53_000, header: 'X-RateLimit-Reset' });
  });

  it.each([
    // Requests remain: nothing held.
    { ratelimit: '"default";r=1;t=3' },
    { 'x-ratelimit-remaining': '4', 'x-ratelimit-reset': '53' },
    { 'x-ratelimit-remaining-requests': '59', 'x-ratelimit-reset-requests': '1s' },
    { 'x-ratelimit-remaining-tokens': '149984', 'x-ratelimit-reset-tokens': '6m0s' },
    // OpenAI's tokens read as strictly as its requests: a unit it does not write, a count that is not a whole number, no reset.
    { 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1d' },
    { 'x-ratelimit-remaining-tokens': '0.0', 'x-ratelimit-reset-tokens': '1s' },
    { 'x-ratelimit-remaining-tokens': '0' },
    // A remaining count without its reset, or a reset without its count.
    { 'x-ratelimit-remaining': '0' },
    { 'x-ratelimit-reset': '53' },
    // Not read: a date, a fraction where whole seconds are due, a negative, a unit OpenAI does not write, a header given twice.
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'Tue Feb 16 2021 09:02:42 GMT+0100' },
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1.5' },
    { 'x-ratelimit-remaining': '-0', 'x-ratelimit-reset': '5' },
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': ['5', '6'] },
    { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1d' },
    { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '0s1m' },
    { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '' },
    // Further than a day: a unit we cannot tell (600000 from an API that writes milliseconds), or epoch milliseconds.
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '600000' },
    { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000042000' },
    // The draft's: a remaining count that is not a whole number, a parameter twice, a policy without `t`.
    { ratelimit: '"default";r=0.0;t=3' },
    { ratelimit: '"default";r=0;t=3;t=4' },
    { ratelimit: '"default";r=0' },
  ])('%j: nothing', (headers) => {
    expect(spentQuota(headers, NOW)).toBeNull();
  });
});
