// V8's linear-time regex engine on the main thread (src/assertions/regex-inline.ts): used from V8 13
// (Node 24, the runtime GitHub runs actions on) and never before; where it is used, its matches are
// the backtracking engine's own (a seeded differential test over random patterns and texts), what it
// refuses goes to the pool, a reply too long for its bound goes to the pool, and no worker is started
// for the rest. On Node 20 and 22 the second block is skipped and the first checks nothing changed;
// .ci/run runs this file under Node 24 as well.

import { describe, expect, it } from 'vitest';
import { LINEAR_STEPS, linearEngineUsable, linearRegex, linearSteps, mayNeedPool, poolPatternCount } from '../../src/assertions/regex-inline.js';
import type { Assertion } from '../../src/types.js';
import { prng } from '../support/prng.js';
import { useCountedPools } from '../support/regex-pool.js';

/** A real pool (budget 1 s) that counts its workers, under the evaluator a run uses. */
const counted = useCountedPools();

const usable = linearEngineUsable();
const regex = (pattern: string, flags = ''): Assertion => ({ kind: 'regex', pattern, flags });

describe('which Node uses the linear-time engine', () => {
  // .ci/run runs this file under Node 24 with AGENT_REPLAY_EXPECT_NODE=24: the tests below must not be skipped there.
  it.runIf(process.env.AGENT_REPLAY_EXPECT_NODE !== undefined)(`runs on the Node the CI step asked for (${process.env.AGENT_REPLAY_EXPECT_NODE})`, () => {
    expect(process.versions.node.split('.')[0]).toBe(process.env.AGENT_REPLAY_EXPECT_NODE);
  });

  it('from V8 13 (Node 24) on; not Node 20 (V8 11.3, some matches differ) nor Node 22 (V8 12.4, up to 20 times slower)', () => {
    expect(linearEngineUsable('11.3.244.8-node.33')).toBe(false);
    expect(linearEngineUsable('12.4.254.21-node.57')).toBe(false);
    expect(linearEngineUsable('13.6.233.17-node.37')).toBe(true);
    expect(linearEngineUsable('14.1.0')).toBe(true);
  });

  it.skipIf(usable)(`without it (this Node: V8 ${process.versions.v8}) nothing is compiled for it and patterns that can backtrack warm the pool as before`, () => {
    expect(linearRegex('\\b\\d+ days?\\b', '')).toBeNull();
    expect(mayNeedPool('\\b\\d+ days?\\b', '')).toBe(true);
    expect(poolPatternCount([regex('\\b\\d+ days?\\b'), regex('\\b30 days\\b')], [])).toBe(1);
  });
});

describe('linearSteps: text length x pattern size', () => {
  it('is the length times the pattern length, each counted repetition counting its operand that many times', () => {
    expect(linearSteps('abc', 10)).toBe(30);
    expect(linearSteps('abc', 0)).toBe(3);
    expect(linearSteps('a{2,5}b', 10)).toBe(7 * 5 * 10);
    expect(linearSteps('(a{1,3}){4}', 1)).toBe(11 * 3 * 4);
    // {n,} counts n copies and the star.
    expect(linearSteps('x{2,}', 1)).toBe(5 * 3);
    expect(linearSteps('(x{900}){900}', 1)).toBe(Infinity);
    expect(linearSteps('\\b\\d+ days?\\b', 2000)).toBeLessThanOrEqual(LINEAR_STEPS);
    expect(linearSteps('\\b\\d+ days?\\b', 20_000)).toBeGreaterThan(LINEAR_STEPS);
  });
});

describe.runIf(usable)(`the linear-time engine (this Node: V8 ${process.versions.v8})`, () => {
  it('refuses what it cannot match in linear time, and a pattern that does not compile', () => {
    for (const [p, f] of [['(a)\\1', ''], ['a(?=b)', ''], ['\\d+ days?', 'iu'], ['caf\u00e9s?', 'i'], ['\\p{L}+', 'u'], ['a+', 'v'], ['a+', 'd'], ['a{1000}', ''], ['(', '']] as const) {
      expect(linearRegex(p, f), `/${p}/${f}`).toBeNull();
    }
    for (const [p, f] of [['\\b\\d+ days?\\b', ''], ['^(a+)+$', ''], ['order #\\d+', 'm'], ['(?<n>x)+.*y', 'gs'], ['a{2,5}', 'y']] as const) {
      expect(linearRegex(p, f)?.flags, `/${p}/${f}`).toContain('l');
    }
  });

  it('gives the backtracking engine’s match, index and groups: 2,000 seeded random patterns x 5 texts', () => {
    const random = prng(20261202);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const atoms = ['a', 'b', 'c', '.', '\\d', '\\w', '\\s', '[ab]', '[^a]', '\\b', '^', '$', ' ', '1', '\\B', '[a-c]', '(?<=a)'];
    const quantifiers = ['*', '+', '?', '*?', '+?', '??', '{2}', '{1,3}', '{0,2}?', '{2,}'];
    const pattern = (depth: number): string => {
      let out = '';
      const n = 1 + Math.floor(random() * 4);
      for (let i = 0; i < n; i++) {
        let atom =
          depth < 3 && random() < 0.3
            ? `(${random() < 0.3 ? '?:' : ''}${pattern(depth + 1)}${random() < 0.4 ? `|${pattern(depth + 1)}` : ''})`
            : pick(atoms);
        if (random() < 0.4 && !['^', '$', '\\b', '\\B', '(?<=a)'].includes(atom)) atom += pick(quantifiers);
        out += atom;
      }
      return out;
    };
    let compared = 0;
    const differ: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const p = pattern(0);
      const flags = pick(['', 'm', 's', 'g', 'ms', 'y']);
      const linear = linearRegex(p, flags);
      if (linear === null) continue;
      const backtracking = new RegExp(p, flags);
      for (let j = 0; j < 5; j++) {
        let text = '';
        for (let i = Math.floor(random() * 12); i > 0; i--) text += pick(['a', 'b', 'c', '1', ' ', '\n']);
        backtracking.lastIndex = 0;
        linear.lastIndex = 0;
        const x = backtracking.exec(text);
        const y = linear.exec(text);
        const shown = (m: RegExpExecArray | null): string => (m === null ? 'null' : JSON.stringify([m.index, ...m]));
        compared++;
        if (shown(x) !== shown(y)) differ.push(`/${p}/${flags} on ${JSON.stringify(text)}: ${shown(x)} vs ${shown(y)}`);
      }
    }
    expect(compared).toBeGreaterThan(9000);
    expect(differ).toEqual([]);
  });

  it("matches on the main thread with the pool's own results, and starts no worker", async () => {
    const { evaluator, pool, spawned } = counted(1000);
    const cases: [string, string, string][] = [
      ['\\b\\d+ days?\\b', '', 'Refunds within 30 days of delivery.'],
      ['\\b\\d+ days?\\b', '', 'Refunds within thirty days.'],
      ['^(a+)+$', '', 'a'.repeat(40)],
      ['order #\\d+.*shipped', 's', 'order #123\nwas shipped'],
      ['(\\w+)@(\\w+)\\.com', 'g', 'mail ana@shop.com or bo@shop.com'],
      [`(${'x'.repeat(300)})+`, '', `${'x'.repeat(300)}!`],
    ];
    const inline = [];
    for (const [p, f, t] of cases) inline.push(await evaluator.test(p, f, t));
    // Runaways for the backtracking engine (2^40 and more ways to split the text): answered here at once.
    expect(await evaluator.test('^(a+)+$', '', `${'a'.repeat(40)}!`)).toEqual({ kind: 'no_match' });
    expect(await evaluator.test('(x+x+)+y', '', 'x'.repeat(60))).toEqual({ kind: 'no_match' });
    expect(spawned()).toBe(0);
    const fromPool = [];
    for (const [p, f, t] of cases) fromPool.push(await pool.test(p, f, t));
    expect(spawned()).toBe(1);
    expect(inline).toEqual(fromPool);
    expect(inline[0]).toEqual({ kind: 'matched', match: '30 days' });
    expect(inline[1]).toEqual({ kind: 'no_match' });
    expect(inline[5]).toEqual({ kind: 'matched', match: `${'x'.repeat(200)}\u2026` });
  });

  it('a reply longer than its bound, and a pattern the engine refuses, go to the pool', async () => {
    const { evaluator, spawned } = counted(1000);
    const long = 'a'.repeat(Math.ceil(LINEAR_STEPS / 7) + 1);
    expect(linearSteps('^(a+)+$', long.length)).toBeGreaterThan(LINEAR_STEPS);
    expect(await evaluator.test('^(a+)+$', '', long)).toEqual({ kind: 'matched', match: `${'a'.repeat(200)}\u2026` });
    expect(spawned()).toBe(1);
    expect(await evaluator.test('(refund)\\s+\\1', '', 'refund refund')).toEqual({ kind: 'matched', match: 'refund refund' });
  });

  it('the run warms the pool only for patterns the engine refuses', () => {
    expect(mayNeedPool('\\b\\d+ days?\\b', '')).toBe(false);
    expect(mayNeedPool('\\b\\d+ days?\\b', 'u')).toBe(true);
    expect(poolPatternCount([regex('\\b\\d+ days?\\b'), regex('^(a+)+$'), regex('(a)\\1+'), regex('\\d+ days', 'u'), regex('\\d+ days', 'i')], [])).toBe(2);
  });
});
