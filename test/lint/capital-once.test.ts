// A sentence's capital is written once, src/words.ts's `capitalized`: words made to follow a colon
// ("the label would refuse ...", "pass rate of attempts ...", "too few attempts ...") open a sentence
// of their own in the notice, the summary, compare and report.html. Each place wrote its own
// (charAt(0).toUpperCase(), replace(/^t/, 'T'), which capitalizes only a "t"), so one could drift.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capitalized } from '../../src/words.js';
import { linesMatching, srcPaths } from '../support/source-files.js';

const ROOT = join(import.meta.dirname, '..', '..');
// words.ts holds the one; report.html's SCRIPT runs in the page, where no module of ours is imported.
const EXEMPT = new Set(['src/words.ts', 'src/report/html/assets.ts']);
/** A first letter made a capital by hand: charAt(0)/[0]/slice(0, 1) upper-cased, or a replace of the first character. */
const BY_HAND = /(?:charAt\(0\)|\[0\]\??|slice\(0, ?1\))\.toUpperCase\(\)|\.replace\(\/\^(?:\.|[a-z])\/, /;

describe("a sentence's capital", () => {
  it('is capitalized of src/words.ts: the first letter only, the rest as it was', () => {
    expect(capitalized('replies vary across 3 attempts')).toBe('Replies vary across 3 attempts');
    expect(capitalized('`x` is named')).toBe('`x` is named');
    expect(capitalized('pass rate of attempts: 90% → 80%')).toBe('Pass rate of attempts: 90% → 80%');
    expect(capitalized('')).toBe('');
  });

  it('is written nowhere else in src/ (report.html\'s in-page SCRIPT apart)', () => {
    const files = srcPaths(ROOT);
    expect(files).toContain('src/report/blocks.ts');
    const offending = linesMatching(ROOT, files.filter((file) => !EXEMPT.has(file)), BY_HAND);
    expect(offending).toEqual([]);
  });
});
