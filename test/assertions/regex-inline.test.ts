// Patterns whose matching time has a small bound are matched on the main thread (src/assertions/regex-inline.ts):
// which patterns qualify, that their results are the worker pool's own, and that no worker is
// started for them while a runaway pattern still goes to the pool and its budget. Real worker threads.

import { describe, expect, it } from 'vitest';
import { INLINE_STEPS, inlineSteps, linearEngineUsable, mayNeedPool, poolPatternCount, quantifierCounts, runsInline } from '../../src/assertions/regex-inline.js';
import { evaluateRegex } from '../../src/assertions/regex.js';
import { AMPLE_MS, useCountedPools } from '../support/regex-pool.js';

/** A real pool (its budget given) that counts its workers, under the evaluator a run uses. */
const counted = useCountedPools();

describe('quantifierCounts', () => {
  it('counts 1 without a quantifier; escapes, classes and group syntax are read as such', () => {
    for (const p of ['30 days', '\\b30 days\\b', '^refund$', '[0-9][0-9]', '[*+?{|]', '\\*\\+\\?\\{\\|', '(?:a)(?=b)(?!c)(?<=d)(?<!e)(?<n>f)', '[\\]*]x', '']) {
      expect(quantifierCounts(p, ''), p).toEqual({ counts: 1 });
    }
    // With flag u or v the braces of \u{...} and \p{...} belong to the escape; without, \u{2,} repeats a "u".
    for (const flags of ['u', 'iu']) expect(quantifierCounts('\\u{1F600}\\p{L}\\P{Lu}', flags), flags).toEqual({ counts: 1 });
    expect(quantifierCounts('\\u{1F600}', 'v')).toEqual({ counts: 1 });
    expect(quantifierCounts('\\u{2,}x', 'i')).toEqual({ counts: 'text' });
  });

  it('one quantifier: 2 for ?, min for {min}, max for {min,max}, the text for *, + and {min,}; lazy or not', () => {
    expect(quantifierCounts('\\b30 days?\\b', '')).toEqual({ counts: 2 });
    expect(quantifierCounts('refund(ed)?', 'i')).toEqual({ counts: 2 });
    expect(quantifierCounts('x{3}', '')).toEqual({ counts: 3 });
    expect(quantifierCounts('x{0}', '')).toEqual({ counts: 1 });
    expect(quantifierCounts('x{2,5}', '')).toEqual({ counts: 5 });
    expect(quantifierCounts('x{2,5}?', '')).toEqual({ counts: 5 });
    expect(quantifierCounts('order #\\d+', '')).toEqual({ counts: 'text' });
    expect(quantifierCounts('refund.*30 days', '')).toEqual({ counts: 'text' });
    expect(quantifierCounts('a*?b', '')).toEqual({ counts: 'text' });
    expect(quantifierCounts('x{2,}', '')).toEqual({ counts: 'text' });
  });

  it('null with flag v for a class that holds strings or another class: [\\q{a|aa}]* backtracks exponentially', () => {
    expect(quantifierCounts('[\\q{a|aa}]*b', 'v')).toBeNull();
    expect(quantifierCounts('[[a-z]--[aeiou]]+', 'v')).toBeNull();
    expect(quantifierCounts('[a-z]+', 'v')).toEqual({ counts: 'text' });
    // Without flag v, `[` inside a class is a character and \q an identity escape.
    expect(quantifierCounts('[[a]+', '')).toEqual({ counts: 'text' });
    expect(runsInline('[\\q{a|aa}]*b', 'v', 'a'.repeat(40))).toBe(false);
    // \p{RGI_Emoji} matches strings of several lengths with flag v: no bound; with flag u it is one code point.
    expect(quantifierCounts('\\p{RGI_Emoji}+x', 'v')).toBeNull();
    expect(quantifierCounts('[\\p{L}]+', 'v')).toBeNull();
    expect(quantifierCounts('\\p{L}+', 'u')).toEqual({ counts: 'text' });
  });

  it('null (no bound) with two quantifiers, an alternation, a back-reference or a brace that is no quantifier', () => {
    for (const p of ['^(a+)+$', 'a*b*', 'ab?c?', '\\d+\\d+x', 'yes|no', '(a)\\1', '(?<n>a)\\k<n>', '[[a]]*b+', 'a{', 'a{x}', 'a{5,3}', '\\u{1F600}']) {
      expect(quantifierCounts(p, ''), p).toBeNull();
    }
  });

  it('the main thread takes at most INLINE_STEPS steps: 2 x text length x pattern length x counts', () => {
    expect(inlineSteps('30 days', '', 1000)).toBe(2 * 1000 * 7);
    expect(inlineSteps('30 days?', '', 1000)).toBe(2 * 1000 * 8 * 2);
    expect(inlineSteps('a.*b', '', 1000)).toBe(2 * 1000 * 4 * 1001);
    expect(inlineSteps('a+b+', '', 10)).toBeNull();
    expect(runsInline('30 days', '', 'x'.repeat(Math.floor(INLINE_STEPS / 14)))).toBe(true);
    expect(runsInline('30 days', '', 'x'.repeat(Math.floor(INLINE_STEPS / 14) + 1))).toBe(false);
    // A quantifier whose counts grow with the text: inline on a short reply only.
    expect(runsInline('a.*b', '', 'x'.repeat(700))).toBe(true);
    expect(runsInline('a.*b', '', 'x'.repeat(710))).toBe(false);
    expect(runsInline('^(a+)+$', '', 'a')).toBe(false);
    // A large count repeats its operand that many times at each start: a{20000}b on 200,000 "a"
    // took 27 s when counted as one step.
    expect(inlineSteps('a{20000}b', '', 200_000)).toBe(2 * 200_000 * 9 * 20_000);
    expect(runsInline('a{20000}b', '', 'a'.repeat(200_000))).toBe(false);
  });

  it('mayNeedPool: true for no bound or counts that grow with the text (the run starts workers early for those)', () => {
    expect(mayNeedPool('\\b30 days\\b', '')).toBe(false);
    expect(mayNeedPool('\\b30 days?\\b', '')).toBe(false);
    // Where V8's linear-time engine is used (Node 24), it takes these (test/assertions/regex-linear.test.ts).
    expect(mayNeedPool('order #\\d+', '')).toBe(!linearEngineUsable());
    expect(mayNeedPool('^(a+)+$', '')).toBe(!linearEngineUsable());
    // Flag u: the linear-time engine refuses it, so the pool on every Node.
    expect(mayNeedPool('order #\\d+', 'u')).toBe(true);
    expect(mayNeedPool('^(a+)+$', 'u')).toBe(true);
  });
});

describe('withInlineRegex', () => {
  it("gives the pool's own results (matched, clipped, no match, compile errors, g and y from the start) without starting a worker", async () => {
    const { evaluator, pool, spawned } = counted(AMPLE_MS);
    const cases: [string, string, string][] = [
      ['30 days', 'i', 'Refunds within 30 Days.'],
      ['30 days', '', 'Refunds within 30 Days.'],
      ['\\b30 days\\b', '', 'in 30 days, or 130 days'],
      ['(', '', 'x'],
      ['a', 'qq', 'a'],
      ['ab', 'g', 'ab'],
      ['ab', 'y', 'ab'],
      ['ab', 'y', 'xab'],
      ['x'.repeat(300), '', `${'x'.repeat(300)}!`],
      ['(?<word>refund)(?= now)', 'd', 'a refund now'],
      ['\\b30 days?\\b', '', 'within 30 day or 30 days'],
      ['refund(ed)?', 'i', 'It was REFUNDED.'],
      ['order #\\d+', '', 'see order #12345 and #7'],
      ['a.*?b', '', 'xxaxxbxxb'],
      ['x{2,3}', '', 'xxxxx'],
    ];
    const inline = [];
    for (const [p, f, t] of cases) inline.push(await evaluator.test(p, f, t), await evaluator.test(p, f, t));
    expect(spawned()).toBe(0);
    const fromPool = [];
    for (const [p, f, t] of cases) fromPool.push(await pool.test(p, f, t), await pool.test(p, f, t));
    expect(spawned()).toBe(1);
    expect(inline).toEqual(fromPool);
    expect(inline[16]).toEqual({ kind: 'matched', match: `${'x'.repeat(200)}\u2026` });
  });

  it("a pattern that does not compile gets the pool's own compile error on the main thread, whatever its bound: the pool is never asked, nor warmed", async () => {
    const { evaluator, pool, spawned, jobs } = counted(AMPLE_MS);
    const broken: [string, string][] = [
      // The demo's (examples/demo): an alternation, so no bound.
      ['boots (in|out of stock', ''],
      // Two quantifiers, and flag u, which V8's linear-time engine refuses.
      ['(\\w+) (a\\w*', 'u'],
      ['^(a+)+$', 'qq'],
      ['a\\q|b', 'u'],
      ['[\\q{a|aa}', 'v'],
    ];
    const reply = 'Hiking boots are in stock.';
    const inline = [];
    for (const [p, f] of broken) inline.push(await evaluator.test(p, f, reply), await evaluator.test(p, f, reply));
    expect(jobs()).toBe(0);
    expect(spawned()).toBe(0);
    // The words a worker gives, unchanged: and so the fixture's detail line.
    const fromPool = [];
    for (const [p, f] of broken) fromPool.push(await pool.test(p, f, reply), await pool.test(p, f, reply));
    expect(inline).toEqual(fromPool);
    expect(inline[0]).toEqual({ kind: 'compile_error', message: 'Invalid regular expression: /boots (in|out of stock/: Unterminated group' });
    expect(await evaluateRegex('boots (in|out of stock', '', reply, evaluator)).toEqual({
      verdict: 'not_evaluated',
      detail: 'pattern does not compile: Invalid regular expression: /boots (in|out of stock/: Unterminated group',
    });
    expect(jobs()).toBe(0);
    // The run starts no worker early for them.
    for (const [p, f] of broken) expect(mayNeedPool(p, f)).toBe(false);
    expect(poolPatternCount(broken.map(([pattern, flags]) => ({ kind: 'regex', pattern, flags })), [])).toBe(0);
  });

  it('a runaway pattern goes to the pool and is stopped by its budget', async () => {
    const { evaluator, spawned } = counted(100);
    // Flag u: neither the bound nor V8's linear-time engine takes it.
    expect(await evaluator.test('^(a+)+$', 'u', `${'a'.repeat(40)}!`)).toEqual({ kind: 'timeout', budgetMs: 100 });
    expect(spawned()).toBeGreaterThanOrEqual(1);
  });

  it('warm starts workers only when asked (the engine asks for the patterns that can backtrack)', async () => {
    const { evaluator, spawned } = counted(100);
    evaluator.warm?.(0);
    expect(spawned()).toBe(0);
    evaluator.warm?.(1);
    expect(spawned()).toBe(1);
  });
});
