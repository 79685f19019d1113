// The child processes a test starts (the Action's entry, test/action/harness.ts) end with that test.
// A test that timed out or failed while its child was still running (an agent that never answers)
// left the child writing into its temporary folders (results, artifacts, the job summary) while
// the file's clean-up removed them: `rm` failed with ENOTEMPTY, next to the test's own timeout. A
// child that already exited (every passing test) costs nothing here. A child started in its own
// process group (`detached: true`) that starts children of its own (@github/local-action runs
// `npm exec tsx`, test/frameworks/local-action.test.ts) is ended with its whole group: killing the
// leader alone left the processes under it running past the test.

import type { ChildProcess } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** Children started outside a test (a beforeAll): ended with the file, before its folders are removed (test/support/temp-setup.ts). */
const outsideTests = new Set<ChildProcess>();

/** The children started in their own process group (`{ group: true }`): their whole group is killed. */
const groups = new WeakSet<ChildProcess>();

/** Kills `child` (its process group, for one started with `{ group: true }`) if it is still running, and waits until it has exited. */
function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    if (!groups.has(child) || child.pid === undefined) child.kill('SIGKILL');
    else {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already (the leader exiting as we look): its exit event follows.
      }
    }
  });
}

/**
 * Ends `child` when the test that started it ends (passed, failed or timed out), or with the file
 * when no test is running. `group`: the child was spawned with `detached: true`, the leader of its
 * own process group, and everything in that group is killed with it.
 */
export function endWithTest(child: ChildProcess, { group = false }: { group?: boolean } = {}): void {
  if (group) groups.add(child);
  try {
    onTestFinished(() => end(child));
  } catch {
    // Not inside a test (onTestFinished throws there).
    outsideTests.add(child);
    child.once('exit', () => outsideTests.delete(child));
  }
}

/** Ends every child started outside a test (the setup file's afterAll, before the folders go). */
export async function endChildren(): Promise<void> {
  await Promise.all([...outsideTests].map(end));
}
