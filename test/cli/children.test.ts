// The CLI child processes the tests start (spawnCli, test/cli/helpers.ts) end with the test that
// started them (test/support/children.ts): a test that fails or times out while its child still
// runs (an agent that never answers) left the child running past the test, writing into folders
// the clean-up was removing. A child that would run for ever, started and not awaited by one test,
// is gone when the next test starts. A child started in its own process group (`endWithTest(child,
// { group: true })`, as @github/local-action is in test/frameworks/local-action.test.ts) takes the
// processes it started with it.

import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { endWithTest } from '../support/children.js';
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

/** Connects to the port it is given, says its pid there, then runs until it is killed. */
const GRANDCHILD = "const s = require('node:net').connect(Number(process.argv[1]), '127.0.0.1', () => s.write(String(process.pid)));\nsetInterval(() => undefined, 60_000);\n";
/** Starts GRANDCHILD with the port it is given (in its own group: not detached), then runs until it is killed. */
const LEADER = `require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}, process.argv[1]], { stdio: 'ignore' });\nsetInterval(() => undefined, 60_000);\n`;

describe('a child started in its own process group (endWithTest with group)', () => {
  const server = createServer();
  let grandchild: { pid: number; closed: Promise<void> } | null = null;
  afterAll(async () => {
    // Were the group not killed, the grandchild would outlive the file: end it here (it is ours).
    if (grandchild && alive(grandchild.pid)) process.kill(grandchild.pid, 'SIGKILL');
    await new Promise((r) => server.close(r));
  });

  it('runs with the process it started while its test does', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const said = new Promise<{ pid: number; closed: Promise<void> }>((resolve) =>
      server.once('connection', (socket: Socket) => {
        const closed = new Promise<void>((r) => socket.once('close', () => r()));
        socket.once('data', (d: Buffer) => resolve({ pid: Number(d.toString()), closed }));
      }),
    );
    const leader = spawn(process.execPath, ['-e', LEADER, String((server.address() as { port: number }).port)], { detached: true, stdio: 'ignore' });
    endWithTest(leader, { group: true });
    grandchild = await said;
    expect(alive(grandchild.pid)).toBe(true);
  });

  // Before the group was killed, the grandchild lived on and this test timed out.
  it('is gone with that process once that test has ended', { timeout: 5_000 }, async () => {
    expect(grandchild).not.toBeNull();
    // Its socket closes when it dies (a zombie still answers signal 0 until it is reaped).
    await grandchild!.closed;
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
