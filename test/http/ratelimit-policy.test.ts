// The quota a server's rate limit headers advertise, read strictly: the IETF draft's RateLimit-Policy
// (draft 08 on, and before), a RateLimit-Limit or X-RateLimit-Limit that names its window, and
// nothing from a limit without one (GitHub's, OpenAI's) or from a value that is not well formed.

import { describe, expect, it } from 'vitest';
import { advertisedPace } from '../../src/http/ratelimit-policy.js';

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
