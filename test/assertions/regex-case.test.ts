// Flag i written into the pattern (src/assertions/regex-case.ts), so that V8's linear-time engine,
// which refuses the flag, can match case-insensitive patterns on Node 24: what it writes, what it
// refuses, and a seeded differential test (on every Node, with the backtracking engine) that the
// written pattern without flag i matches what the original matches with it, on texts holding the
// characters whose case folding is special (the long s, the Kelvin sign, accented letters).

import { describe, expect, it } from 'vitest';
import { caseExpanded } from '../../src/assertions/regex-case.js';
import { linearEngineUsable, linearRegex, mayNeedPool } from '../../src/assertions/regex-inline.js';
import { prng } from '../support/prng.js';
import { useCountedPools } from '../support/regex-pool.js';

/** A real pool (budget 1 s) that counts its workers, under the evaluator a run uses. */
const counted = useCountedPools();

describe('caseExpanded', () => {
  it('writes each ASCII letter as a class of its two cases; classes get the other case of the letters they hold', () => {
    expect(caseExpanded('refund')).toBe('[rR][eE][fF][uU][nN][dD]');
    expect(caseExpanded('\\b\\d+ days?\\b')).toBe('\\b\\d+ [dD][aA][yY][sS]?\\b');
    expect(caseExpanded('[a-c]')).toBe('[a-cABC]');
    // A `-` ending the class stays a literal once letters follow it.
    expect(caseExpanded('[ak-]')).toBe('[ak\\-AK]');
    expect(caseExpanded('[^x]')).toBe('[^xX]');
    expect(caseExpanded('[Z-a]')).toBe('[Z-azA]');
    expect(caseExpanded('[aA]')).toBe('[aA]');
    expect(caseExpanded('[\\w.-]+@x\\.com')).toBe('[\\w.-]+@[xX]\\.[cC][oO][mM]');
    expect(caseExpanded('(?<word>no)(?=t)(?<!q)')).toBe('(?<word>[nN][oO])(?=[tT])(?<![qQ])');
    expect(caseExpanded('a{2,3}\\n\\t[\\b]')).toBe('[aA]{2,3}\\n\\t[\\b]');
    expect(caseExpanded('')).toBe('');
  });

  it('gives null for what it does not cover: non-ASCII, escapes that stand for letters or name things, back-references, a brace that is no quantifier', () => {
    for (const p of ['café', '\\x41', '\\u0041', '\\cJ', '\\k<n>', '(?<n>a)\\k<n>', '(a)\\1', '\\e', '[\\B]', '[\\x41]', 'a{,2}', '(?i:a)', '\\p{L}', '[a', '\\']) {
      expect(caseExpanded(p), p).toBeNull();
    }
  });

  it('without flag i, the written pattern matches what the original matches with it: 3,000 seeded random patterns x 6 texts', () => {
    const random = prng(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const letters = ['a', 'A', 'k', 'K', 's', 'S', 'z', 'Z', 'e', 'E'];
    const classItems = [...letters, 'a-c', 'X-c', 'A-Z', '0-9', '\\d', '\\w', '\\s', '_', '-', '\\]', '[-`', 'j-s', 'S-k'];
    const atoms = [...letters, '.', '\\d', '\\w', '\\W', '\\s', '\\b', '\\B', '^', '$', ' ', '_', '`', '['];
    const quantifiers = ['*', '+', '?', '*?', '{2}', '{1,3}', '{0,}'];
    const klass = (): string => {
      let body = '';
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) body += pick(classItems);
      return `[${random() < 0.3 ? '^' : ''}${body}]`;
    };
    const pattern = (depth: number): string => {
      let out = '';
      for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
        const r = random();
        let atom = depth < 2 && r < 0.2 ? `(${pick(['', '?:', '?<g' + depth + n + '>', '?=', '?<!'])}${pattern(depth + 1)}${random() < 0.3 ? `|${pattern(depth + 1)}` : ''})` : r < 0.45 ? klass() : pick(atoms);
        if (random() < 0.35 && !/^[\^$]$|^\\[bB]$|^\(\?[=<]/.test(atom)) atom += pick(quantifiers);
        out += atom;
      }
      return out;
    };
    // The long s folds to S and the Kelvin sign to k in Unicode case folding; neither may match here.
    const textChars = ['a', 'A', 'k', 'K', 's', 'S', 'z', 'Z', 'e', 'E', '\u017f', '\u212a', '\u00e9', '\u00c9', '[', '_', '`', '1', ' ', '\n'];
    let compared = 0;
    const differ: string[] = [];
    for (let k = 0; k < 3000; k++) {
      const p = pattern(0);
      const flags = pick(['', 'm', 's', 'g', 'y']);
      let original: RegExp;
      try {
        original = new RegExp(p, `${flags}i`);
      } catch {
        continue;
      }
      const written = caseExpanded(p);
      if (written === null) continue;
      const expanded = new RegExp(written, flags);
      expect(expanded.flags).not.toContain('i');
      for (let j = 0; j < 6; j++) {
        let text = '';
        for (let n = Math.floor(random() * 10); n > 0; n--) text += pick(textChars);
        original.lastIndex = 0;
        expanded.lastIndex = 0;
        const shown = (m: RegExpExecArray | null): string => (m === null ? 'null' : JSON.stringify([m.index, ...m, m.groups ?? null]));
        const a = shown(original.exec(text));
        const b = shown(expanded.exec(text));
        compared++;
        if (a !== b) differ.push(`/${p}/${flags}i as /${written}/${flags} on ${JSON.stringify(text)}: ${a} vs ${b}`);
      }
    }
    expect(compared).toBeGreaterThan(12_000);
    expect(differ.slice(0, 5)).toEqual([]);
  });
});

describe.runIf(linearEngineUsable())(`flag i on the linear-time engine (this Node: V8 ${process.versions.v8})`, () => {
  it('compiles a case-insensitive ASCII pattern for it; not with flag u, nor a pattern it does not cover', () => {
    expect(linearRegex('refund.*30 days?', 'i')?.source).toBe('[rR][eE][fF][uU][nN][dD].*30 [dD][aA][yY][sS]?');
    expect(linearRegex('refund.*30 days?', 'iu')).toBeNull();
    expect(linearRegex('caf\u00e9.*open', 'i')).toBeNull();
    expect(mayNeedPool('(refund|return).*30 days', 'i')).toBe(false);
  });

  it("matches on the main thread with the pool's own results, and starts no worker", async () => {
    const { evaluator, pool, spawned } = counted(1000);
    const cases: [string, string][] = [
      ['(refund|return).*30 days', 'Returns are accepted within 30 DAYS.'],
      ['(refund|return).*30 days', 'We do not take returns.'],
      ['[a-z]+@shop\\.com', 'Write to SUPPORT@SHOP.COM'],
      ['\\bk\\w+', 'the \u212aelvin KEY'],
    ];
    const inline = [];
    for (const [p, t] of cases) inline.push(await evaluator.test(p, 'i', t));
    expect(spawned()).toBe(0);
    const fromPool = [];
    for (const [p, t] of cases) fromPool.push(await pool.test(p, 'i', t));
    expect(spawned()).toBe(1);
    expect(inline).toEqual(fromPool);
    expect(inline.map((r) => (r.kind === 'matched' ? r.match : r.kind))).toEqual(['Returns are accepted within 30 DAYS', 'no_match', 'SUPPORT@SHOP.COM', 'KEY']);
  });
});
