// test/support/setup-cache.ts, where the global set-ups keep the entry bundles and the trimmed
// OpenAPI description between runs: an entry is found under its key only once it is kept whole,
// a second run keeping the same entry leaves the first one's folder in place, and the hash of a
// list of parts changes with any part and with where the parts split.

import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedEntry, hashOf, keepEntry, newEntryFolder } from './support/setup-cache.js';

const NAME = `test-entry-${process.pid}`;
const kept: string[] = [];
afterAll(async () => {
  await Promise.all(kept.map((d) => rm(d, { recursive: true, force: true })));
});

describe('the set-up cache', () => {
  it('finds an entry once it is kept, and keeps the first of two alike', async () => {
    const key = hashOf(['inputs', String(Date.now())]);
    expect(await cachedEntry(NAME, key)).toBeNull();
    const first = await newEntryFolder(NAME);
    await writeFile(join(first, 'file'), 'first');
    expect(await cachedEntry(NAME, key)).toBeNull(); // being made: not found yet
    const dir = await keepEntry(first, NAME, key);
    kept.push(dir);
    expect(await cachedEntry(NAME, key)).toBe(dir);
    const second = await newEntryFolder(NAME);
    await writeFile(join(second, 'file'), 'second');
    expect(await keepEntry(second, NAME, key)).toBe(dir);
    expect(readFileSync(join(dir, 'file'), 'utf8')).toBe('first');
    expect(existsSync(second)).toBe(false);
  });

  it('hashes every part, and where the parts split', () => {
    expect(hashOf(['a', 'b'])).toBe(hashOf(['a', Buffer.from('b')]));
    expect(hashOf(['a', 'b'])).not.toBe(hashOf(['a', 'c']));
    expect(hashOf(['ab', 'c'])).not.toBe(hashOf(['a', 'bc']));
  });
});
