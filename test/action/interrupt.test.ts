// A cancelled job: the runner signals the Action's process while the check is replaying. What
// finished is recorded (marked interrupted), reported, and the step fails saying so.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers } from './harness.js';
import { parseRecord } from '../../src/record/index.js';

let arrivedFourth: () => void = () => undefined;
let fourth: Promise<void> = Promise.resolve();

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  (req) => {
    const message = String((req.json as { message: unknown }).message);
    if (['one', 'two', 'three'].includes(message)) return { json: { reply: `echo: ${message}`, route: { conversation: 'c', stage: message } } };
    arrivedFourth();
    return 'hang';
  },
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

const LABELS = ['one', 'two', 'three', 'four', 'five'];

describe('check mode, interrupted', () => {
  it('records, uploads and reports what finished, marked interrupted, and fails the step with 143', async () => {
    fourth = new Promise<void>((resolve) => (arrivedFourth = resolve));
    const workspace = await makeWorkspace({
      fixtures: `fixtures:\n${LABELS.map((l) => `  - { label: ${l}, message: ${l} }`).join('\n')}\n`,
      config: 'agent:\n  retries: 0\n  start: false\n  concurrency: 1\n',
    });
    const run = await runAction({
      gh,
      workspace,
      inputs: { 'agent-url': agent.url },
      event: { name: 'pull_request', payload: pullPayload() },
      onChild: (child) => void fourth.then(() => child.kill('SIGTERM')),
    });
    expect(run.code, run.stdout + run.stderr).toBe(143);
    expect(run.stdout).toMatch(/::error::agent-replay: the run was interrupted by SIGTERM/);
    const record = parseRecord(readFileSync(join(workspace, 'agent-replay-results', 'results.json'), 'utf8'), 'results.json');
    expect(record.interrupted).toBe(true);
    expect(record.fixtures.map((f) => f.label)).toEqual(['one', 'two', 'three']);
    expect(record.tallies).toEqual({ passed: 3, failed: 0, notEvaluated: 0, errored: 0 });
    expect(run.outputs.passed).toBe('3');
  });
});
