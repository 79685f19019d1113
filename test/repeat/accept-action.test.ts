// Repeat (docs/fixtures.md, "Repeat: measure flakiness instead of suffering it") through the
// Action's label flow: the check records a repeated run, the accept label commits the items whose
// attempts agree (with their attempts) and refuses the others, saying why in the comment.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, useServers, seedPullForAccept } from '../action/harness.js';

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  const attempt = /-(\d+)$/.exec(String(body.session))?.[1] ?? '0';
  const reply = body.message === 'wobbly' ? `answer ${attempt}` : 'always the same';
  return { json: { reply, route: { conversation: 'c', stage: 'answer' }, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: steady, message: hello, assert: { contains: same } }
  - { label: wobbly, message: wobbly, assert: { contains: answer } }
`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\nrepeat: { count: 3, minPass: 2 }\n';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  seedPullForAccept,
  (a, g) => {
    agent = a;
    gh = g;
  },
);

describe('accept label on a repeated run', () => {
  it('commits the agreeing item and refuses the one whose replies differ in meaning, in the outputs, the commit and the comment', async () => {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    const check = await runAction({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(check.code, check.stdout).toBe(0);
    const text = readFileSync(check.outputs['results-path'] as string, 'utf8');
    await keepReviewedRun(gh, check.outputs['artifact-name'] as string, text);

    const run = await runAcceptLabel(gh);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ accepted: 'steady', refused: 'wobbly' });
    expect(gh.commits).toHaveLength(1);
    expect(gh.commits[0]!.additions.map((a) => a.path)).toEqual(['.agent-replay/baselines/steady.json']);
    // The committed baseline keeps the item's attempts (docs/statistics.md, "A baseline's attempts").
    expect(JSON.parse(gh.commits[0]!.additions[0]!.contents)).toMatchObject({ verdict: 'pass', attempts: { passed: 3, total: 3 } });
    expect(gh.commits[0]!.body).toContain('- wobbly: replies differ in meaning across 3 attempts: attempt 2: numbers 1 → 2; attempt 3: numbers 1 → 3');
    const body = gh.comments('octo', 'shop', 7).find((c) => c.user.login === gh.viewer.login)!.body.replace(/\\([!-/:-@[-`{-~])/g, '$1');
    expect(body).toContain('replies differ in meaning across 3 attempts: attempt 2: numbers 1 → 2; attempt 3: numbers 1 → 3. There is no one reply to store: find out why');
  });
});
