// A job cancelled while the check waits for the preview (the runner signals the Action's process
// during wait-for-agent): the comment says the job was cancelled, not that the agent was too slow,
// and the step fails once, saying nothing was replayed (nothing was recorded either).

import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers } from './harness.js';

let polled: () => void = () => undefined;
let firstPoll: Promise<void> = Promise.resolve();

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  () => {
    polled();
    return { status: 503, body: 'preview is starting' };
  },
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

describe('check mode, cancelled while waiting for the agent', () => {
  it('comments that the job was cancelled, never "raise wait-for-agent", and fails with 143 once', async () => {
    firstPoll = new Promise<void>((resolve) => (polled = resolve));
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n', config: 'agent:\n  retries: 0\n' });
    const run = await runAction({
      gh,
      workspace,
      inputs: { 'agent-url': agent.url, 'wait-for-agent': '600' },
      event: { name: 'pull_request', payload: pullPayload() },
      onChild: (child) => void firstPoll.then(() => child.kill('SIGTERM')),
    });
    expect(run.code, run.stdout + run.stderr).toBe(143);
    expect(agent.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain('## agent-replay: cancelled while waiting for the agent');
    expect(body).toMatch(/interrupted by SIGTERM while waiting for the agent, after \d+ s/);
    expect(body).not.toContain('raise `wait-for-agent`');
    expect(run.summary).toContain('cancelled while waiting for the agent');
    // One failure, the cancellation's own: not a second one saying results were recorded.
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/interrupted by SIGTERM while waiting for the agent.*nothing was replayed and nothing was spent/);
    expect(run.outputs).toMatchObject({ gate: 'failed', verified: 'false' });
    expect(gh.violations).toEqual([]);
  });
});
