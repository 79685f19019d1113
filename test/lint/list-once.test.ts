// A list in a sentence ("a, b and c", "a, b or c") is written once, src/words.ts's `listWords`: the
// fixes of a refused YAML file, acceptance's "attempts 2, 3 and 4", the comment's cap sentences, the
// cost cap's scope and the suite edits' "checks, what is replayed or repeat changed" each joined
// their own, so that one could drift (a comma before the last word, a missing part for none).

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listWords } from '../../src/words.js';
import { sourceFiles } from '../support/source-files.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** All but the last part joined by ", ", then " and " or " or " and the last: a list joined by hand. */
const BY_HAND = /slice\(0, -1\)\.join\(', '\)\}? ?(?:and|or) /;

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
    const files = sourceFiles(join(ROOT, 'src')).map((f) => relative(ROOT, f).split('\\').join('/'));
    expect(files).toContain('src/report/layout.ts');
    const offending = files
      .filter((file) => file !== 'src/words.ts')
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (BY_HAND.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offending).toEqual([]);
  });
});
