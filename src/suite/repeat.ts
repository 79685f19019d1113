// docs/fixtures.md, "Repeat": `repeat: {count, minPass}` in config.yml (every item) and on a fixture or a
// persona script (that item only; it replaces the global block as a whole). Checked here with the
// line of the offending key; the shape (a mapping with only these keys) is the zod schema's.
// `max` (docs/statistics.md, "Adaptive attempts"): up to max attempts where a drop is unclear.

import * as z from 'zod';
import { onFirstUse } from '../patterns.js';
import type { Repeat } from '../types.js';
import { quotedNumber, rangeCheckedAfter, type NumberRange } from './issues.js';
import type { PathSegment } from './yaml/index.js';

/** The most attempts one item may ask for: a repeat multiplies the run's cost. */
export const MAX_REPEAT = 20;

const COUNT_RULE = `a whole number from 1 to ${MAX_REPEAT}`;
/** minPass's and max's ranges, their count named as it is known: `count`, or `count (3)` beside a count of 3. */
const minPassRule = (count: string): string => `a whole number from 1 to ${count}`;
const maxRule = (count: string): string => `a whole number from ${count} to ${MAX_REPEAT}`;
const MIN_PASS_RULE = minPassRule('count');
const MAX_RULE = maxRule('count');

/** The ranges checkRepeat checks; their examples are the docs' (count: 3, minPass: 2) and checkRepeat's (max: 10). */
const COUNT_RANGE: NumberRange = { min: 1, max: MAX_REPEAT, whole: true, words: COUNT_RULE, example: 3 };
const MIN_PASS_RANGE: NumberRange = { min: 1, max: MAX_REPEAT, whole: true, atMost: 'count', words: MIN_PASS_RULE, wordsBy: minPassRule, example: 2 };
const MAX_RANGE: NumberRange = { min: 1, max: MAX_REPEAT, whole: true, atLeast: 'count', words: MAX_RULE, wordsBy: maxRule, example: 10 };

/** The shape as written; the numbers' ranges are checked by `checkRepeat` (one message for each problem). */
export const repeatSchema = onFirstUse(() =>
  z.strictObject({
    // Their ranges, checked by checkRepeat, bound the fixes of other messages too: `count: 1,000` is
    // not told to read `count: 1000`, nor `minPass: 2,5` to read `minPass: 2.5`, which checkRepeat
    // would then refuse.
    count: rangeCheckedAfter(z.number({ error: `count must be ${COUNT_RULE}` }), COUNT_RANGE),
    minPass: rangeCheckedAfter(z.number({ error: `minPass must be ${MIN_PASS_RULE}` }), MIN_PASS_RANGE).optional(),
    max: rangeCheckedAfter(z.number({ error: `max must be ${MAX_RULE}` }), MAX_RANGE).optional(),
  }),
);

/** The default minPass: every attempt must pass (the strictest reading of "repeat"). */
function defaultMinPass(count: number): number {
  return count;
}

/** One attempt: an item without repeat. */
const ONCE: Readonly<Repeat> = Object.freeze({ count: 1, minPass: 1 });

/** The repeat that applies to an item: its own, else the global one, else one attempt. */
export function repeatOf(item: { repeat?: Repeat }, global: Repeat | null | undefined): Repeat {
  return item.repeat ?? global ?? ONCE;
}

type Err = (path: PathSegment[], message: string, fix: string) => void;

/**
 * The number at `key` of `written` as its fix writes it: `count: "3"` is said by the schema ("write
 * the number without quotes: count: 3") and checked here as 3, so that `minPass: 5` beside it is said
 * at once, not after the quotes are gone (docs/troubleshooting.md, "Configuration errors"). A number
 * in quotes that its fix does not write (`minPass: "5"` beside `count: 3`, told the range and an
 * example by the schema) and other text: undefined, not said twice.
 */
function asNumber(written: Record<string, unknown>, key: 'count' | 'minPass' | 'max'): number | undefined {
  const value = written[key];
  if (typeof value === 'number') return value;
  return quotedNumber(repeatSchema(), [key], value, written) ?? undefined;
}

/**
 * Checks `raw` (the value of a `repeat:` key at `at`) and returns the resolved repeat, or null when
 * it is absent or has a problem (reported through `err`). A wrong shape (not a mapping, an unknown
 * key, count missing) is left to the schema, which reports it with the allowed keys; a number in
 * quotes is the schema's to say too, and is checked here as the number it stands for.
 */
export function checkRepeat(raw: unknown, at: PathSegment[], prefix: string, err: Err): Repeat | null {
  if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const written = raw as Record<string, unknown>;
  const r = { count: asNumber(written, 'count'), minPass: written.minPass === undefined ? undefined : (asNumber(written, 'minPass') ?? written.minPass), max: written.max === undefined ? undefined : (asNumber(written, 'max') ?? written.max) };
  // A value in quotes was an error of the schema's: the repeat is not resolved, whatever else holds.
  let ok = typeof written.count === 'number' && (written.minPass === undefined || typeof written.minPass === 'number') && (written.max === undefined || typeof written.max === 'number');
  if (r.count === undefined) return null;
  const count = r.count;
  if (!Number.isInteger(count) || count < 1 || count > MAX_REPEAT) {
    err(
      [...at, 'count'],
      `${prefix}repeat.count ${String(count)} is not ${COUNT_RULE}`,
      count > MAX_REPEAT ? `use count: ${MAX_REPEAT} or fewer (each attempt is a full replay and is paid for)` : 'use e.g. count: 3',
    );
    ok = false;
  }
  const countOk = Number.isInteger(count) && count >= 1 && count <= MAX_REPEAT;
  if (r.minPass !== undefined && typeof r.minPass !== 'number') return null;
  const minPass = r.minPass === undefined ? null : (r.minPass as number);
  if (minPass !== null && (!Number.isInteger(minPass) || minPass < 1 || (countOk && minPass > count))) {
    err(
      [...at, 'minPass'],
      `${prefix}repeat.minPass ${String(minPass)} is not ${minPassRule(countOk ? `count (${count})` : 'count')}`,
      countOk ? `use minPass: ${Math.max(1, Math.min(count, Math.floor(Math.abs(minPass)) || 1))}, or raise count` : 'use e.g. minPass: 2',
    );
    ok = false;
  }
  if (r.max !== undefined && typeof r.max !== 'number') return null;
  const max = r.max === undefined ? null : (r.max as number);
  if (max !== null && (!Number.isInteger(max) || max < 1 || max > MAX_REPEAT || (countOk && max < count))) {
    err(
      [...at, 'max'],
      `${prefix}repeat.max ${String(max)} is not ${maxRule(countOk ? `count (${count})` : 'count')}`,
      max > MAX_REPEAT ? `use max: ${MAX_REPEAT} or fewer (each attempt is a full replay and is paid for)` : countOk ? `use max: ${Math.min(MAX_REPEAT, Math.max(count, 10))}, or remove max (no extra attempts)` : 'use e.g. max: 10',
    );
    ok = false;
  }
  if (!ok) return null;
  const resolved: Repeat = { count, minPass: minPass ?? defaultMinPass(count) };
  // max equal to count is no adaptivity: kept out, so the item is exactly an ordinary repeat.
  if (max !== null && max > count) resolved.max = max;
  return resolved;
}
