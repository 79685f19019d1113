// The Action's accept label and tokens (docs/latency.md, "Usage"; docs/statistics.md, "A
// baseline's attempts"): a reply reworded as a known variant, run 3 times against a stored tally
// of 10 that kept no tokens, is committed with the stored tally and the run's tokens per attempt
// counted over it, as the CLI's accept writes it, and the comment after the accept reads ±0%
// against what was committed.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/types.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { keepReviewedRun, makeWorkspace, pullPayload, runAction, runAcceptLabel, seedPullForAccept, useServers } from './harness.js';

const STORED = 'Refunds are accepted within 30 days.';
const NOW = 'You can return items within 30 days for a full refund.';

// 100 tokens an attempt: the welcome turn's 10 and the reply's 90.
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: null, ended: false, usage: { inputTokens: 10, outputTokens: 0 } } };
  return { json: { reply: NOW, route: null, ended: false, usage: { inputTokens: 60, outputTokens: 30 } } };
};

let agent: AgentServer;
let gh: FakeGitHub;
useServers(handler, seedPullForAccept, (a, g) => {
  agent = a;
  gh = g;
});

describe('accept label and tokens', () => {
  it("commits a kept tally with the run's tokens when the stored baseline had none, and the comment reads ±0% against it", async () => {
    const stored: Baseline = { label: 'refund', reply: STORED, variants: [NOW], route: null, verdict: 'pass', attempts: { passed: 10, total: 10 }, acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) };
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: refund, message: refund, repeat: { count: 3 } }\n', config: 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n', baselines: [stored] });
    const check = await runAction({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(check.code, check.stdout).toBe(0);
    const text = readFileSync(check.outputs['results-path'] as string, 'utf8');
    await keepReviewedRun(gh, check.outputs['artifact-name'] as string, text);

    const run = await runAcceptLabel(gh);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ accepted: 'refund' });
    const file = JSON.parse(gh.commits[0]!.additions.find((a) => a.path === '.agent-replay/baselines/refund.json')!.contents) as Baseline;
    expect(file).toMatchObject({ reply: NOW, attempts: { passed: 10, total: 10 }, usage: { inputTokens: 700, outputTokens: 300 } });
    const body = gh.comments('octo', 'shop', 7).find((c) => c.user.login === gh.viewer.login)!.body;
    expect(body).toContain('tokens reported: 300 (210 in, 90 out), ±0% vs baselines');
  });
});
