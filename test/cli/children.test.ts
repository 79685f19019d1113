// The CLI child processes the tests start (spawnCli, test/cli/helpers.ts) end with the test that
// started them (test/support/children.ts): a test that fails or times out while its child still
// runs (an agent that never answers) left the child running past the test, writing into folders
// the clean-up was removing. A child that would run for ever, started and not awaited by one test,
// is gone when the next test starts.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { serve, spawnCli, useCleanup } from './helpers.js';

useCleanup();

/** Says its pid to the URL it is given, then runs until it is killed. */
const FOREVER = "fetch(`${process.argv[2]}/?pid=${process.pid}`).catch(() => undefined);\nsetInterval(() => undefined, 60_000);\n";

let started: { pid: number; done: Promise<{ code: number | null }> } | null = null;

describe('a child started by spawnCli', () => {
  it('runs while its test does (the test ends without waiting for it)', async () => {
    let said: (pid: number) => void = () => undefined;
    const pid = new Promise<number>((resolve) => (said = resolve));
    const agent = await serve((req) => {
      said(Number(new URL(req.path, 'http://x').searchParams.get('pid')));
      return { json: {} };
    });
    const dir = await tempDir('agent-replay-children-');
    const script = join(dir, 'forever.mjs');
    await writeFile(script, FOREVER);
    const done = spawnCli(script, [agent.url], dir, { PATH: process.env.PATH ?? '' });
    started = { pid: await pid, done };
    expect(alive(started.pid)).toBe(true);
  });

  it('is gone once that test has ended', async () => {
    expect(started).not.toBeNull();
    expect(alive(started!.pid)).toBe(false);
    // Killed, not exited on its own.
    expect(await started!.done).toMatchObject({ code: null });
  });
});

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
