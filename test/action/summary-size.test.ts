// The job summary: GitHub drops a step's summary whole when it is over 1 MiB, so the Action's note
// above the report (a push, a deployment without a pull request) and the line end after it count.

import { expect, it } from 'vitest';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { makeWorkspace, runAction, useServers } from './harness.js';

/** GitHub's limit of one step's summary ($GITHUB_STEP_SUMMARY), in bytes. */
const STEP_SUMMARY_LIMIT = 1024 * 1024;

// "len N": a reply of N characters.
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', ended: false } };
  const m = /^len (\d+)$/.exec(String(body.message));
  return { json: { reply: m ? 'word '.repeat(Number(m[1]) / 5) : '?', ended: false } };
};

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  () => undefined,
  (a, g) => {
    agent = a;
    gh = g;
  },
);

it('a push run whose report alone fills the summary: the note above it still keeps the file under 1 MiB', async () => {
  // 52 new fixtures whose replies, shown in full, make a report just under 1 MiB by itself.
  const n = 52;
  const fixtures = `fixtures:\n${Array.from({ length: n }, (_, i) => `  - { label: f${i}, message: "len ${i === n - 1 ? 20000 : 19000}", assert: { contains: word } }`).join('\n')}\n`;
  const workspace = await makeWorkspace({ fixtures, config: 'agent: { retries: 0 }\ncost: { capUsd: 100 }\n' });
  const run = await runAction({
    gh,
    workspace,
    inputs: { 'agent-url': agent.url },
    event: { name: 'push', payload: { ref: 'refs/heads/main', repository: { default_branch: 'main' } } },
  });
  expect(run.code, run.stdout).toBe(0);
  expect(run.outputs.passed).toBe(String(n));
  expect(run.summary.startsWith('> push to the default branch main')).toBe(true);
  expect(Buffer.byteLength(run.summary)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT);
  expect(run.summary).toContain('job summary limit of 1,048,576 bytes');
}, 60_000);
