// A list in a sentence ("a, b and c", "a, b or c") is written once, src/words.ts's `listWords`: the
// fixes of a refused YAML file, acceptance's "attempts 2, 3 and 4", the comment's cap sentences, the
// cost cap's scope and the suite edits' "checks, what is replayed or repeat changed" each joined
// their own, so that one could drift (a comma before the last word, a missing part for none).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listAndMore, listWords, shownAndMore } from '../../src/words.js';
import { linesMatching, srcPaths } from '../support/source-files.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** All but the last part joined by ", ", then " and " or " or " and the last: a list joined by hand. */
const BY_HAND = /slice\(0, -1\)\.join\(', '\)\}? ?(?:and|or) /;
/** A list cut, the rest counted by hand: "${shown.join(', ')} and ${…} more". */
const MORE_BY_HAND = /join\(', '\)\}(?: and |\$\{[^`]*` and )\$\{[^`]*\} more`/;
/**
 * The other ways the rest of a cut list was written by hand, each a surface of its own: ", and 3
 * more" (the comment's flaky items, report.html's removed baselines, an agent's keys), ", +3 more"
 * (the gate, `--only`'s labels, calibrate's files), " +3 more" (an incomplete merge's files), "; +3
 * more" and "; and 3 more" (items holding commas: listAndMore's "; "), " (+3 more)" (a script's line
 * after its first failed check) and a line's own "+3 more" (calibrate's Disagreements and
 * Straddling lists). A markdown or HTML list's own line ("- … and 3 more", "<li>and 3 more</li>")
 * and a line separated by "·" (" · and 3 more") are not sentences, and keep their words.
 */
const MORE_FORMS = /(?:, and |, \+| \(?\+|; \+|; and |`\+)\$\{[^`]*\} more\b/;
const MORE_EXEMPT = new Set(['src/words.ts']);

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
    // Items that hold commas of their own: "; " between them, the count set apart as one of them.
    expect(listAndMore(['a: x, y', 'b', 'c'], 2, same, '; ')).toBe('a: x, y; b; and 1 more');
    expect(listAndMore(['a', 'b'], 2, same, '; ')).toBe('a; b');
    expect(listAndMore(['a', 'b', 'c'], 2, same, ' → ')).toBe('a → b and 1 more');
  });

  it('counts the rest alone when it names none (a gate read back with no label kept)', () => {
    expect(shownAndMore([], 3)).toBe('3 more');
    expect(shownAndMore(['a'], 1234)).toBe('a and 1,234 more');
    expect(shownAndMore(['a', 'b'], 0)).toBe('a, b');
  });

  it('is written by hand nowhere else in src/', () => {
    const files = srcPaths(ROOT);
    expect(files).toContain('src/report/blocks.ts');
    const offending = linesMatching(ROOT, files.filter((file) => !MORE_EXEMPT.has(file)), MORE_BY_HAND);
    expect(offending).toEqual([]);
  });

  it('is written in no other form in src/ (", and N more", ", +N more", " +N more", " (+N more)", "; and N more"), a list line apart', () => {
    for (const line of ['`, and ${thousands(n)} more`', '`, +${thousands(n - 20)} more`', '` +${thousands(rest)} more`', '`; +${n - 5} more`', '`; and ${thousands(n - 5)} more`', "` (+${thousands(open.length - 1)} more)` : ''", '`+${thousands(more)} more, each with its score`']) expect(line).toMatch(MORE_FORMS);
    for (const line of ['`\\n- … and ${thousands(left)} more`', '`<li>and ${thousands(n)} more</li>`', '`- and ${thousands(n)} more`', '` · and ${thousands(n)} more`', '`… and ${thousands(more)} more, each with its score`']) expect(line).not.toMatch(MORE_FORMS);
    const offending = linesMatching(ROOT, srcPaths(ROOT).filter((file) => !MORE_EXEMPT.has(file)), MORE_FORMS);
    expect(offending).toEqual([]);
  });
});
