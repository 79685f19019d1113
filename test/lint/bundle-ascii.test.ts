// The CLI and the Action bundled from src/ as dist/cli.js is (test/support/entry-bundles.ts, esbuild
// with charset ascii) hold ASCII text only. esbuild escapes what it can, but a regular expression
// literal keeps its characters as written: one non-ASCII character in a chunk makes V8 decode the
// whole chunk's UTF-8 on its slow path at every start (about 9 M instructions, 1.5 % of a cold start,
// for the 530 KB chunk a run loads; docs/performance.md). Write such characters as \u escapes.

import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(entry.parentPath ?? dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else if (entry.name.endsWith('.mjs')) out.push(path);
  }
  return out;
}

describe('the bundles from src/', () => {
  it('are ASCII only, so that V8 reads them on its fast path', async () => {
    const dir = dirname(inject('cliBundle'));
    const found: string[] = [];
    const all = await files(dir);
    // The two entries and their shared chunks.
    expect(all.length).toBeGreaterThan(5);
    for (const file of all) {
      const bytes = await readFile(file);
      const at = bytes.findIndex((b) => b > 0x7f);
      if (at !== -1) found.push(`${file.slice(dir.length + 1)}: ${JSON.stringify(bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8'))}`);
    }
    expect(found).toEqual([]);
  });
});
