// A list in a sentence ("a, b and c", "a, b or c") is written once, src/words.ts's `listWords`: the
// fixes of a refused YAML file, acceptance's "attempts 2, 3 and 4", the comment's cap sentences, the
// cost cap's scope and the suite edits' "checks, what is replayed or repeat changed" each joined
// their own, so that one could drift (a comma before the last word, a missing part for none).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listAndMore, listWords } from '../../src/words.js';
import { linesMatching, srcPaths } from '../support/source-files.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** All but the last part joined by ", ", then " and " or " or " and the last: a list joined by hand. */
const BY_HAND = /slice\(0, -1\)\.join\(', '\)\}? ?(?:and|or) /;
/** A list cut, the rest counted by hand: "${shown.join(', ')} and ${…} more". */
const MORE_BY_HAND = /join\(', '\)\}(?: and |\$\{[^`]*` and )\$\{[^`]*\} more`/;
// Two count the rest in plain digits ("and 1234 more", not "1,234"), so listAndMore would change
// their words past 999: the facts' detail in results.json (also 'none' for no value) and a tool
// assertion's message naming the tools called.
const MORE_EXEMPT = new Set(['src/words.ts', 'src/evaluate/meaning/facts.ts', 'src/assertions/tools.ts']);

describe('a list in a sentence', () => {
  it('is listWords of src/words.ts: no comma before the last word, "and" unless told "or"', () => {
    expect(listWords([])).toBe('');
    expect(listWords(['a'])).toBe('a');
    expect(listWords(['a', 'b'])).toBe('a and b');
    expect(listWords(['a', 'b', 'c'])).toBe('a, b and c');
    expect(listWords(['a', 'b', 'c', 'd'], 'or')).toBe('a, b, c or d');
    expect(listWords(['lines 4 to 7', 'line 9'])).toBe('lines 4 to 7 and line 9');
  });

  it('is joined by hand nowhere else in src/', () => {
    const files = srcPaths(ROOT);
    expect(files).toContain('src/report/layout.ts');
    const offending = linesMatching(ROOT, files.filter((file) => file !== 'src/words.ts'), BY_HAND);
    expect(offending).toEqual([]);
  });
});

describe('a list cut, the rest counted', () => {
  it('is listAndMore of src/words.ts: the first items shown, then "and N more", the count grouped', () => {
    const same = (p: string): string => p;
    expect(listAndMore([], 2, same)).toBe('');
    expect(listAndMore(['a', 'b'], 2, same)).toBe('a, b');
    expect(listAndMore(['a', 'b', 'c'], 2, same)).toBe('a, b and 1 more');
    expect(listAndMore(['a', 'b', 'c'], 2, (p) => `\`${p}\``)).toBe('`a`, `b` and 1 more');
    expect(listAndMore(Array.from({ length: 1236 }, (_, i) => i), 2, String)).toBe('0, 1 and 1,234 more');
  });

  it('is written by hand nowhere else in src/ (the facts\' detail apart)', () => {
    const files = srcPaths(ROOT);
    expect(files).toContain('src/report/blocks.ts');
    const offending = linesMatching(ROOT, files.filter((file) => !MORE_EXEMPT.has(file)), MORE_BY_HAND);
    expect(offending).toEqual([]);
  });
});
