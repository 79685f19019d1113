// test/support/sequencer.ts: the slowest files, which vitest.config.ts starts first, are files of
// this suite (a renamed one would silently start late again), each named once; the order goes by
// the last full run's durations when there are some, and only a full run records them.

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isFullRun, SLOWEST_FILES, slowestFirst } from '../support/sequencer.js';

describe('the slowest-first order', () => {
  it('names existing test files of the main suite, each once', () => {
    expect(SLOWEST_FILES.filter((f) => !existsSync(f) || !f.endsWith('.test.ts') || f.startsWith('test/frameworks/'))).toEqual([]);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });

  it('goes by the last full run\'s durations, slowest first, files it does not know first of all', () => {
    const known = Array.from({ length: 10 }, (_, i) => `k${i}.test.ts`);
    const vitestOrder = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'new.test.ts', 'd.test.ts', ...known];
    const durations = { 'a.test.ts': 100, 'b.test.ts': 9000, 'c.test.ts': 400, 'd.test.ts': 400, 'gone.test.ts': 99999, ...Object.fromEntries(known.map((k) => [k, 1])) };
    expect(slowestFirst(vitestOrder, durations, ['a.test.ts'])).toEqual(['new.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'a.test.ts', ...known]);
    // a name of Object's own is a file like any other
    expect(slowestFirst([...known, 'constructor'], Object.fromEntries(known.map((k, i) => [k, i])), [])).toEqual(['constructor', ...[...known].reverse()]);
  });

  it('without a record, or with one that knows fewer than nine in ten of the files, the hand-kept files first in their order, the others in vitest\'s', () => {
    const files = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts'];
    expect(slowestFirst(files, null, ['c.test.ts', 'a.test.ts'])).toEqual(['c.test.ts', 'a.test.ts', 'b.test.ts', 'd.test.ts']);
    // a run of one file that recorded itself (3 of 4 unknown): not the order of the suite
    expect(slowestFirst(files, { 'd.test.ts': 800 }, ['c.test.ts', 'a.test.ts'])).toEqual(['c.test.ts', 'a.test.ts', 'b.test.ts', 'd.test.ts']);
  });

  it('records durations only from a run of every file, without a test name filter or a shard, not interrupted', () => {
    const full = { ran: 263, suite: 263, testNamePattern: undefined, shard: undefined, reason: 'passed' as const };
    expect(isFullRun(full)).toBe(true);
    expect(isFullRun({ ...full, reason: 'failed' })).toBe(true);
    expect(isFullRun({ ...full, ran: 1 })).toBe(false);
    expect(isFullRun({ ...full, testNamePattern: /report/ })).toBe(false);
    expect(isFullRun({ ...full, shard: { index: 1, count: 2 } })).toBe(false);
    expect(isFullRun({ ...full, reason: 'interrupted' })).toBe(false);
  });
});
