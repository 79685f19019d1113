// The Action started by a test ends with that test (test/support/children.ts): a test that ended
// (timed out, failed) while the Action still waited on an agent that never answers left it running,
// writing into the folders the file's clean-up was removing (ENOTEMPTY beside the timeout).

import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers, type ActionRun } from './harness.js';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  () => 'hang',
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

let child: ChildProcess | null = null;
let run: Promise<ActionRun> | null = null;

/** Whether a process of that id is running (signal 0 checks without sending one). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

describe('the Action started by a test', () => {
  // The test ends once the Action's process runs, not when it reaches the agent (a second on a busy
  // machine): it would wait on that agent for the full run either way.
  it('is running, against an agent that never answers, when the test ends', async () => {
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: one, message: hi }\n', config: 'agent:\n  retries: 0\n  start: false\n' });
    const spawned = new Promise<ChildProcess>((resolve) => {
      const onChild = (c: ChildProcess): void => void c.once('spawn', () => resolve(c));
      run = runAction({ gh, workspace, inputs: { 'agent-url': agent.url }, event: { name: 'pull_request', payload: pullPayload() }, onChild });
    });
    child = await spawned;
    expect(child?.exitCode).toBeNull();
    expect(running(child?.pid as number)).toBe(true);
  });

  // Reads what the test before left: run alone, it has nothing to check.
  it('is gone once that test has ended: killed, its run over', async () => {
    if (child === null || run === null) return;
    expect(running(child.pid as number)).toBe(false);
    expect(child.signalCode).toBe('SIGKILL');
    expect((await run).code).toBe(-1);
  });
});
