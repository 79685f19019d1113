// test/support/sequencer.ts: the slowest files, which vitest.config.ts starts first, are files of
// this suite (a renamed one would silently start late again), each named once.

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOWEST_FILES } from '../support/sequencer.js';

describe('the slowest-first order', () => {
  it('names existing test files of the main suite, each once', () => {
    expect(SLOWEST_FILES.filter((f) => !existsSync(f) || !f.endsWith('.test.ts') || f.startsWith('test/frameworks/'))).toEqual([]);
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});
