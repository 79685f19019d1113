// Patterns that cannot backtrack are matched on the main thread (src/assertions/regex-inline.ts):
// which patterns qualify, that their results are the worker pool's own, and that no worker is
// started for them while a runaway pattern still goes to the pool and its budget. Real worker threads.

import type { Worker, WorkerOptions } from 'node:worker_threads';
import { Worker as RealWorker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createRegexPool } from '../../src/assertions/index.js';
import { cannotBacktrack, INLINE_STEPS, runsInline, withInlineRegex } from '../../src/assertions/regex-inline.js';
import type { RegexEvaluator } from '../../src/types.js';

const opened: RegexEvaluator[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close()));
});

/** A pool that counts the workers it starts, and the evaluator a run uses over it. */
function counted(): { evaluator: RegexEvaluator; pool: RegexEvaluator; spawned: () => number } {
  let spawned = 0;
  const pool = createRegexPool({
    size: 1,
    timeoutMs: 100,
    spawnWorker: (src: string, options: WorkerOptions): Worker => {
      spawned++;
      return new RealWorker(src, options);
    },
  });
  const evaluator = withInlineRegex(pool);
  opened.push(evaluator, pool);
  return { evaluator, pool, spawned: () => spawned };
}

describe('cannotBacktrack', () => {
  it('true without repetition, alternation or back-reference; escapes, classes and group syntax are read as such', () => {
    for (const p of ['30 days', '\\b30 days\\b', '^refund$', '[0-9][0-9]', '[*+?{|]', '\\*\\+\\?\\{\\|', '(?:a)(?=b)(?!c)(?<=d)(?<!e)(?<n>f)', '[\\]*]x', '']) {
      expect(cannotBacktrack(p, ''), p).toBe(true);
    }
    // With flag u or v the braces of \u{...} and \p{...} belong to the escape; without, \u{2,} repeats a "u".
    for (const flags of ['u', 'v', 'iu']) expect(cannotBacktrack('\\u{1F600}\\p{L}\\P{Lu}', flags), flags).toBe(true);
    expect(cannotBacktrack('\\u{1F600}', '')).toBe(false);
    expect(cannotBacktrack('\\u{2,}\\u{2,}x', 'i')).toBe(false);
  });

  it('false with a quantifier, an alternation or a back-reference outside classes, or a literal brace', () => {
    for (const p of ['^(a+)+$', 'a*', 'ab?', 'x{2}', 'a{', 'yes|no', '(a)\\1', '(?<n>a)\\k<n>', '[a]*', '[[a]]*', '(?:ab)?']) {
      expect(cannotBacktrack(p, 'u'), p).toBe(false);
    }
  });

  it('a long text goes to the pool even for such a pattern: the main thread takes at most INLINE_STEPS steps', () => {
    expect(runsInline('30 days', '', 'x'.repeat(1000))).toBe(true);
    expect(runsInline('30 days', '', 'x'.repeat(Math.floor(INLINE_STEPS / 7)))).toBe(true);
    expect(runsInline('30 days', '', 'x'.repeat(Math.floor(INLINE_STEPS / 7) + 1))).toBe(false);
    expect(runsInline('a+', '', 'a')).toBe(false);
  });
});

describe('withInlineRegex', () => {
  it("gives the pool's own results (matched, clipped, no match, compile errors, g and y from the start) without starting a worker", async () => {
    const { evaluator, pool, spawned } = counted();
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

  it('a runaway pattern goes to the pool and is stopped by its budget', async () => {
    const { evaluator, spawned } = counted();
    expect(await evaluator.test('^(a+)+$', '', `${'a'.repeat(40)}!`)).toEqual({ kind: 'timeout', budgetMs: 100 });
    expect(spawned()).toBeGreaterThanOrEqual(1);
  });

  it('warm starts workers only when asked (the engine asks for the patterns that can backtrack)', async () => {
    const { evaluator, spawned } = counted();
    evaluator.warm?.(0);
    expect(spawned()).toBe(0);
    evaluator.warm?.(1);
    expect(spawned()).toBe(1);
  });
});
