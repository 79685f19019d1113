import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, type ActionRun, useServers } from './harness.js';
import { writeZip } from '../../src/action/zip.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import type { Baseline, RunRecord } from '../../src/types.js';

const REPLIES: Record<string, string> = { hello: 'Welcome to the shop!', refund: 'No refunds, ever.', hours: 'Open 9 to 5.', boots: 'We have boots.' };
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  const message = String(body.message);
  if (message === 'outage') return { status: 500, json: { error: 'down' } };
  return { json: { reply: REPLIES[message] ?? '?', route: { conversation: message, stage: 'answer' }, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: greeting, message: hello, assert: { contains: Welcome } }
  - { label: refund-policy, message: refund, assert: { regex: "30 days" } }
  - { label: opening-hours, message: hours }
  - { label: hiking-boots, message: boots, assert: { regex: "boots (in" } }
  - { label: order-status, message: outage, assert: { contains: order } }
`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const REFUND_BASELINE: Baseline = { label: 'refund-policy', reply: 'Refunds within 30 days.', route: { conversation: 'refund', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) };

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature' });
    g.setBranch('octo/shop', 'feature', HEAD);
    g.setPermission('octo', 'shop', 'maintainer', 'write');
    g.setPermission('octo', 'shop', 'visitor', 'read');
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** The check run the maintainer reviewed: comment + results artifact of run 1001. */
async function reviewedCheck(opts: { fixtures?: string; baselines?: Baseline[]; headSha?: string; runId?: number; tamper?: (text: string) => string; runStatus?: string; artifact?: 'present' | 'expired' | 'missing' } = {}): Promise<{ run: ActionRun; record: RunRecord }> {
  const workspace = await makeWorkspace({ fixtures: opts.fixtures ?? FIXTURES, config: CONFIG, baselines: opts.baselines ?? [REFUND_BASELINE] });
  const run = await runAction({
    gh,
    workspace,
    runId: opts.runId ?? 1001,
    inputs: { 'agent-url': agent.url, 'fail-on': 'none' },
    event: { name: 'pull_request', payload: pullPayload({ headSha: opts.headSha ?? HEAD }) },
  });
  expect(run.code, run.stdout).toBe(0);
  const text = readFileSync(run.outputs['results-path'] as string, 'utf8');
  gh.addWorkflowRun('octo', 'shop', { id: opts.runId ?? 1001, headSha: opts.headSha ?? HEAD, status: opts.runStatus ?? 'completed', conclusion: opts.runStatus ? null : 'success' });
  if (opts.artifact !== 'missing') gh.addArtifact('octo', 'shop', opts.runId ?? 1001, { name: run.outputs['artifact-name'] as string, zip: writeZip([{ name: 'results.json', data: Buffer.from(opts.tamper ? opts.tamper(text) : text) }]), expired: opts.artifact === 'expired' });
  return { run, record: parseRecord(text, 'results.json') };
}

async function accept(opts: { sender?: string; label?: string; headRepo?: string; event?: string; action?: string } = {}): Promise<ActionRun> {
  gh.setLabels('octo', 'shop', 7, [opts.label ?? 'accept-baseline']);
  const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
  return runAction({
    gh,
    workspace,
    runId: 2002,
    workflow: 'agent-replay-accept',
    inputs: { mode: 'accept', 'comment-key': 'agent-replay' },
    event: {
      name: opts.event ?? 'pull_request_target',
      payload: pullPayload({ action: opts.action ?? 'labeled', label: opts.label ?? 'accept-baseline', sender: opts.sender ?? 'maintainer', headRepo: opts.headRepo }),
    },
  });
}

/** Our comment, with markdown backslash escapes removed so assertions read like the rendered text. */
const ourComment = () => {
  const c = gh.comments('octo', 'shop', 7).find((x) => x.user.login === 'github-actions[bot]');
  return c ? { ...c, body: c.body.replace(/\\([!-/:-@[-`{-~])/g, '$1') } : undefined;
};

describe('accept mode, end to end', () => {
  it('commits exactly the reviewed pass/fail replies, refuses the rest, removes the label, updates the comment', async () => {
    const { record } = await reviewedCheck();
    const run = await accept();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
    expect(gh.commits).toHaveLength(1);
    const commit = gh.commits[0]!;
    expect(commit.parent).toBe(HEAD); // expectedHeadOid = the reviewed head
    expect(commit.branch).toBe('feature');
    expect(commit.headline).toBe('Accept agent-replay baselines: greeting, refund-policy, opening-hours');
    expect(commit.body).toContain('- refund-policy (fail)');
    expect(commit.body).toContain('- hiking-boots: not evaluated: run it again');
    expect(commit.body).toContain('- order-status: errored: no reply to accept');
    expect(commit.additions.map((a) => a.path).sort()).toEqual([
      '.agent-replay/baselines/greeting.json',
      '.agent-replay/baselines/opening-hours.json',
      '.agent-replay/baselines/refund-policy.json',
    ]);
    const refund = JSON.parse(commit.additions.find((a) => a.path.endsWith('refund-policy.json'))!.contents) as Baseline;
    const recorded = record.fixtures.find((f) => f.label === 'refund-policy')!;
    expect(refund).toMatchObject({ label: 'refund-policy', reply: recorded.reply, route: recorded.route, verdict: 'fail', commit: HEAD });
    expect(Object.keys(refund)).toEqual(['label', 'reply', 'route', 'verdict', 'acceptedAt', 'commit']);
    // label removed, outputs, comment
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(run.outputs).toMatchObject({ accepted: 'greeting,refund-policy,opening-hours', refused: 'hiking-boots,order-status', 'commit-sha': commit.oid });
    const body = ourComment()!.body;
    expect(body).toContain(commit.oid.slice(0, 7));
    // Refusals in plain sentences (report/blocks.ts refusalSentence).
    expect(body).toContain('its check was not evaluated, so there is no verdict to store; run it again.');
    expect(body).toContain('the replay errored, so there is no reply to accept.');
    expect(body).toMatch(/do not start new workflow runs/);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
  });

  it('refuses when the head moved since the reviewed run, and writes nothing', async () => {
    await reviewedCheck();
    gh.addPull('octo', 'shop', { number: 7, headSha: '2'.repeat(40), headRef: 'feature' });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    const body = ourComment()!.body;
    expect(body).toContain('Baselines not accepted');
    expect(body).toContain('head has moved since the run the comment shows (reviewed 1111111, head is now 2222222)');
    expect(body).toContain('refund-policy'); // the results stay visible under the notice
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('refuses when the branch moves during the commit (expectedHeadOid), without retrying', async () => {
    await reviewedCheck();
    gh.moveBranch('octo/shop', 'feature', '3'.repeat(40));
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.requests.filter((r) => r.operationName === 'agentReplayCommit')).toHaveLength(1);
    expect(ourComment()!.body).toContain('moved while the baselines were being committed');
  });

  it('refuses a label applied by a user with read permission', async () => {
    await reviewedCheck();
    const run = await accept({ sender: 'visitor' });
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(ourComment()!.body).toContain('applied by visitor, who has read permission; accepting baselines needs write, maintain or admin');
    expect(gh.violations).toEqual([]);
  });

  it('rejects a tampered artifact whose label would escape the baselines folder', async () => {
    await reviewedCheck({
      tamper: (text) => {
        const record = JSON.parse(text) as RunRecord;
        record.fixtures[0]!.label = '../../.github/workflows/x';
        return serializeRecord(record);
      },
    });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    const body = ourComment()!.body;
    expect(body).toContain('Baselines not accepted');
    expect(body).toMatch(/results artifact was rejected: .*fixtures\.0\.label: label must be 1-80 characters/);
    expect(gh.violations).toEqual([]);
  });

  it('rejects an artifact recorded at another commit than the reviewed one', async () => {
    await reviewedCheck({ tamper: (text) => text.replace(/"commit": "1{40}"/, `"commit": "${'9'.repeat(40)}"`) });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(ourComment()!.body).toContain('recorded at 9999999, not at the reviewed commit 1111111');
  });

  it.each([
    [{ runStatus: 'in_progress' }, 'the workflow run 1001 is still in_progress. Wait for it to finish'],
    [{ artifact: 'expired' as const }, 'has expired. Re-run the check'],
    [{ artifact: 'missing' as const }, 'is missing. Re-run the check'],
  ])('refuses, saying what to do, when %o', async (opts, message) => {
    await reviewedCheck(opts);
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(ourComment()!.body).toContain(message);
    expect(gh.violations).toEqual([]);
  });

  it('makes no commit when only not evaluated and errored fixtures remain', async () => {
    await reviewedCheck({
      fixtures: 'fixtures:\n  - { label: hiking-boots, message: boots, assert: { regex: "boots (in" } }\n  - { label: order-status, message: outage }\n',
      baselines: [],
    });
    const run = await accept();
    expect(run.code).toBe(0);
    expect(gh.commits).toHaveLength(0);
    expect(run.outputs.accepted).toBe('');
    expect(ourComment()!.body).toContain('Nothing to accept');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
  });

  it('a second accept on an already-accepted head makes no empty commit', async () => {
    await reviewedCheck();
    const first = await accept();
    expect(first.code).toBe(0);
    const commit = gh.commits[0]!;
    // The check runs again on the new head, with the accepted baselines in the suite.
    gh.addPull('octo', 'shop', { number: 7, headSha: commit.oid, headRef: 'feature' });
    const accepted = commit.additions.map((a) => JSON.parse(a.contents) as Baseline);
    await reviewedCheck({ headSha: commit.oid, runId: 1002, baselines: accepted });
    const second = await accept();
    expect(second.code).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(second.outputs.accepted).toBe('');
    expect(ourComment()!.body).toContain('Nothing to accept');
  });

  it('on a fork: commits nothing and comments the exact commands to apply the baselines', async () => {
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
    await reviewedCheck();
    const run = await accept({ headRepo: 'stranger/shop' });
    expect(run.code).toBe(0);
    expect(gh.commits).toHaveLength(0);
    const body = ourComment()!.body;
    expect(body).toContain('comes from a fork');
    expect(body).toContain("cat > '.agent-replay/baselines/greeting.json'");
    expect(body).toContain('git push');
    expect(run.stdout).toContain('::warning::accept: fork pull request');
  });

  it('is a no-op for other labels and other events', async () => {
    const other = await accept({ label: 'needs-review' });
    expect(other.code).toBe(0);
    expect(other.stdout).toContain('is not accept-baseline; nothing to do');
    const push = await accept({ event: 'push' });
    expect(push.code).toBe(0);
    expect(push.stdout).toContain('accept: nothing to do for the push event');
    expect(gh.requests).toHaveLength(0);
  });
});
