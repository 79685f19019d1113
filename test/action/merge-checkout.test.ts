// Check mode on a pull_request whose checkout is not the pull request's head: actions/checkout
// without `ref` checks out GitHub's merge commit (refs/pull/N/merge, GITHUB_SHA) on pull_request,
// and the base branch's last commit on pull_request_target. Real git repositories: a base branch
// and a pull request branch that diverged (docs/action.md, "Check: replay on every pull request").

import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { runAction, useServers } from './harness.js';
import { tempDir } from '../support/temp.js';
import { artifactZip } from '../support/zip.js';
import { parseRecord } from '../../src/record/index.js';
import { parseCommentMetadata } from '../../src/report/index.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { checkoutMismatch } from '../../src/action/checkout.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const run = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' };
async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, env: GIT_ENV });
  return stdout.trim();
}
async function put(root: string, files: Record<string, string | null>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, path);
    if (text === null) await rm(file);
    else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    }
  }
}

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, unknown>[] }[];
/** GitHub's own pull_request example, made pull request 7 from branch feature of octo/shop at `head`. */
function pullRequestPayload(head: string): Record<string, unknown> {
  const payload = structuredClone(examples.find((e) => e.name === 'pull_request')!.examples.find((e) => e.action === 'synchronize' || e.action === 'opened')!);
  const pr = payload.pull_request as Record<string, Record<string, unknown>> & { number: number; state: string; labels: unknown[] };
  payload.number = 7;
  pr.number = 7;
  pr.state = 'open';
  pr.labels = [];
  pr.head = { ...pr.head, sha: head, ref: 'feature', repo: { ...(pr.head!.repo as object), full_name: 'octo/shop' } };
  pr.base = { ...pr.base, ref: 'main', repo: { ...(pr.base!.repo as object), full_name: 'octo/shop' } };
  return payload;
}

const REPLIES: Record<string, string> = { hello: 'Welcome to the shop!', 'hello there': 'Welcome, friend!', refund: 'Refunds within 30 days.', hours: 'Open 9 to 5.', boots: 'We have boots.' };
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  const message = String(body.message);
  return { json: { reply: REPLIES[message] ?? '?', route: { conversation: message, stage: 'answer' }, ended: false } };
};
const baseline = (label: string, reply: string, conversation: string) => serializeBaseline({ label, reply, route: { conversation, stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) });

/**
 * The repository: main and feature diverged from one commit. After the branch point, main changed
 * greeting's message (and moved it down three lines), added base-only, deleted doomed and changed
 * refund-policy's baseline; feature added hiking-boots. Returns the commits and a clone checked
 * out as actions/checkout does: on pull_request (refs/pull/7/merge), on pull_request_target (main) and
 * with `ref:` the head, each at depth 1.
 */
async function divergedRepository(): Promise<{ head: string; merge: string; base: string; mergeCheckout: string; headCheckout: string; baseCheckout: string }> {
  const origin = await tempDir('agent-replay-origin-');
  await git(origin, 'init', '-q');
  await put(origin, {
    '.agent-replay/config.yml': 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n',
    '.agent-replay/fixtures/a.yml': 'fixtures:\n  - { label: greeting, message: hello }\n',
    '.agent-replay/fixtures/b.yml': 'fixtures:\n  - { label: doomed, message: hours }\n',
    '.agent-replay/fixtures/c.yml': 'fixtures:\n  - { label: refund-policy, message: refund }\n',
    '.agent-replay/baselines/refund-policy.json': baseline('refund-policy', 'Refunds within 30 days.', 'refund'),
  });
  await git(origin, 'add', '-A');
  await git(origin, 'commit', '-qm', 'suite');
  await git(origin, 'checkout', '-qb', 'feature');
  await put(origin, { '.agent-replay/fixtures/d.yml': 'fixtures:\n  - { label: hiking-boots, message: boots }\n' });
  await git(origin, 'add', '-A');
  await git(origin, 'commit', '-qm', 'head: hiking-boots');
  const head = await git(origin, 'rev-parse', 'HEAD');
  await git(origin, 'checkout', '-q', 'main');
  await put(origin, {
    '.agent-replay/fixtures/a.yml': '# moved\n# down\n# three lines\nfixtures:\n  - { label: greeting, message: hello there }\n  - { label: base-only, message: hours }\n',
    '.agent-replay/fixtures/b.yml': null,
    '.agent-replay/baselines/refund-policy.json': baseline('refund-policy', 'Refunds within 14 days.', 'refund'),
  });
  await git(origin, 'add', '-A');
  await git(origin, 'commit', '-qm', 'base moved on');
  const base = await git(origin, 'rev-parse', 'HEAD');
  // GitHub's test merge commit: the head merged into the base, parents [base, head].
  await git(origin, 'checkout', '-q', '--detach');
  await git(origin, 'merge', '-q', '--no-ff', '-m', `Merge ${head} into ${base}`, 'feature');
  const merge = await git(origin, 'rev-parse', 'HEAD');
  await git(origin, 'update-ref', 'refs/pull/7/merge', merge);
  await git(origin, 'update-ref', 'refs/pull/7/head', head);
  await git(origin, 'checkout', '-q', 'main');
  // actions/checkout: init, fetch --depth=1 the ref, check out the commit (detached).
  const clone = async (ref: string): Promise<string> => {
    const ws = await tempDir('agent-replay-checkout-');
    await git(ws, 'init', '-q');
    await git(ws, 'fetch', '-q', '--no-tags', '--depth=1', `file://${origin}`, ref);
    await git(ws, 'checkout', '-q', '--detach', 'FETCH_HEAD');
    return ws;
  };
  return { head, merge, base, mergeCheckout: await clone('refs/pull/7/merge'), headCheckout: await clone(head), baseCheckout: await clone('refs/heads/main') };
}

/** The repository and its three checkouts, made once for the file: each test checks in a checkout of its own and reads the repository only. */
let diverged: ReturnType<typeof divergedRepository> | null = null;
const repository = () => (diverged ??= divergedRepository());

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

/** The check on the pull_request event, in `workspace` (a checkout), GITHUB_SHA as GitHub sets it for the event. */
async function check(workspace: string, head: string, event: { name: string; sha: string; ref: string }) {
  gh.addPull('octo', 'shop', { number: 7, headSha: head, headRef: 'feature' });
  gh.setBranch('octo/shop', 'feature', head);
  gh.setPermission('octo', 'shop', 'maintainer', 'write');
  const before = agent.requests.length;
  const result = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: event.name, payload: pullRequestPayload(head) }, env: { GITHUB_SHA: event.sha, GITHUB_REF: event.ref } });
  return { result, sent: agent.requests.length - before };
}

/** The accept job on the label, as a maintainer applies it, after the check's artifact is stored as GitHub serves it. */
async function accept(head: string, check: { outputs: Record<string, string> }) {
  const path = check.outputs['results-path'];
  if (path !== undefined) {
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: head, status: 'completed', conclusion: 'success' });
    gh.addArtifact('octo', 'shop', 1001, { name: check.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: readFileSync(path, 'utf8') }, { name: 'pr-number', data: '7\n' }]) });
  }
  gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
  const payload = { ...pullRequestPayload(head), action: 'labeled', label: { name: 'accept-baseline' }, sender: { login: 'maintainer', type: 'User' } };
  return runAction({ gh, workspace: await tempDir('agent-replay-ws-'), runId: 2002, workflow: 'agent-replay-accept', inputs: { mode: 'accept', 'comment-key': 'agent-replay' }, event: { name: 'pull_request_target', payload } });
}

const errors = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::error'));

describe('check mode at a checkout that is not the pull request head', () => {
  it('pull_request with the merge commit checked out (actions/checkout without ref): nothing replayed, the job fails naming the merge and the fix; accept has nothing to commit', async () => {
    const repo = await repository();
    const { result, sent } = await check(repo.mergeCheckout, repo.head, { name: 'pull_request', sha: repo.merge, ref: 'refs/pull/7/merge' });
    expect(result.code, result.stdout).toBe(1);
    expect(sent).toBe(0);
    const [error] = errors(result.stdout);
    expect(error).toContain(`checked out ${repo.merge.slice(0, 7)}`);
    expect(error).toContain(`merge of the pull request's head ${repo.head.slice(0, 7)} into its base`);
    expect(error).toContain('ref: ${{ github.event.pull_request.head.sha }}');
    quotedAndSaid(error ?? '', "this job checked out <sha> (GitHub's merge of the pull request's head <sha> into its base, ...)");
    expect(result.outputs).toMatchObject({ gate: 'failed', verified: 'false', 'comment-status': 'skipped' });
    expect(result.outputs['results-path']).toBeUndefined();
    expect(gh.comments('octo', 'shop', 7)).toEqual([]);
    const accepted = await accept(repo.head, result);
    expect(accepted.code).toBe(1);
    expect(gh.commits).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it("pull_request_target with the base branch checked out (its default): nothing replayed, the job fails naming the commit", async () => {
    const repo = await repository();
    const { result, sent } = await check(repo.baseCheckout, repo.head, { name: 'pull_request_target', sha: repo.base, ref: 'refs/heads/main' });
    expect(result.code, result.stdout).toBe(1);
    expect(sent).toBe(0);
    const [error] = errors(result.stdout);
    expect(error).toContain(`checked out ${repo.base.slice(0, 7)}, not the pull request's head ${repo.head.slice(0, 7)}`);
    quotedAndSaid(error ?? '', "checked out <sha>, not the pull request's head");
    expect(gh.comments('octo', 'shop', 7)).toEqual([]);
  });

  it("the documented workflow (ref: the pull request's head): the head's fixtures and baselines, links to the head's lines, accept commits exactly those", async () => {
    const repo = await repository();
    const { result, sent } = await check(repo.headCheckout, repo.head, { name: 'pull_request', sha: repo.merge, ref: 'refs/pull/7/merge' });
    expect(result.code, result.stdout).toBe(0);
    expect(sent).toBeGreaterThan(0);
    const record = parseRecord(readFileSync(result.outputs['results-path'] as string, 'utf8'), 'results.json');
    expect(record.commit).toBe(repo.head);
    expect(record.fixtures.map((f) => `${f.label} ${f.file}:${f.line}`).sort()).toEqual([
      'doomed .agent-replay/fixtures/b.yml:2',
      'greeting .agent-replay/fixtures/a.yml:2',
      'hiking-boots .agent-replay/fixtures/d.yml:2',
      'refund-policy .agent-replay/fixtures/c.yml:2',
    ]);
    const comment = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(parseCommentMetadata(comment)).toMatchObject({ headSha: repo.head });
    // Every link names the head, and the head's file has the fixture's label on that line.
    const links = [...comment.matchAll(/blob\/([0-9a-f]{40})\/([^)#\s]+)#L(\d+)/g)];
    expect(links.length).toBeGreaterThan(0);
    for (const [, sha, path, line] of links) {
      expect(sha).toBe(repo.head);
      const text = await git(repo.headCheckout, 'show', `${sha}:${path}`);
      const label = record.fixtures.find((f) => f.file === path && f.line === Number(line))!.label;
      expect(text.split('\n')[Number(line) - 1]).toContain(`label: ${label}`);
    }
    const accepted = await accept(repo.head, result);
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    const written = Object.fromEntries(gh.commits[0]!.additions.map((a) => [a.path.replace(/^.*\//, ''), JSON.parse(a.contents) as { reply: string }]));
    // refund-policy: the head's own baseline, unchanged, is skipped; nothing of main's suite.
    expect(Object.keys(written).sort()).toEqual(['doomed.json', 'greeting.json', 'hiking-boots.json']);
    expect(written['greeting.json']!.reply).toBe('Welcome to the shop!');
  });
});

describe('docs/action.md', () => {
  it('every check workflow on pull_request checks out the head (ref: the pull request head sha) before the Action, and parses', async () => {
    const text = await readFile('docs/action.md', 'utf8');
    const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    type Step = { uses?: string; with?: Record<string, unknown> };
    const checks = blocks
      .map((b) => ({ text: b, yaml: parse(b) as { on?: Record<string, unknown>; jobs?: Record<string, { steps?: Step[] }> } | null }))
      .filter((b) => b.yaml?.on !== undefined && 'pull_request' in b.yaml.on && b.yaml.jobs !== undefined);
    const replaying = checks.flatMap((b) => Object.values(b.yaml!.jobs!).map((j) => ({ text: b.text, steps: j.steps ?? [] }))).filter((j) => j.steps.some((s) => s.uses?.startsWith('actions/checkout@')));
    expect(replaying.length).toBeGreaterThanOrEqual(2); // the check and the shards
    for (const job of replaying) {
      const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!;
      expect(checkout.with, job.text).toMatchObject({ ref: '${{ github.event.pull_request.head.sha }}' });
      const parsed = parseWorkflow({ name: 'agent-replay.yml', content: job.text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    }
  });
});

describe('docs/action.md, concurrency', () => {
  it('a workflow whose job skips some events (if:) keeps its concurrency group on the job: a skipped run (another label, a deployment that is not a success) would join a workflow-level group and cancel the check in progress', async () => {
    const text = await readFile('docs/action.md', 'utf8');
    const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const workflows = blocks.map((b) => ({ text: b, yaml: parse(b) as { concurrency?: unknown; jobs?: Record<string, { if?: string; concurrency?: unknown }> } | null })).filter((b) => b.yaml?.jobs !== undefined);
    const filtered = workflows.filter((b) => Object.values(b.yaml!.jobs!).some((j) => j.if !== undefined && !String(j.if).includes('cancelled()')));
    expect(filtered.length).toBeGreaterThanOrEqual(4); // the check, Vercel's, Netlify's and the accept workflow
    for (const b of filtered) {
      expect(b.yaml!.concurrency, b.text).toBeUndefined();
      const parsed = parseWorkflow({ name: 'agent-replay.yml', content: b.text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    }
    // The fragment that shows the check workflow's triggers for the accept flow says the same.
    expect(text).not.toMatch(/^concurrency:/m);
  });
});

describe('checkoutMismatch', () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const at = (sha: string, parents: string[] = []) => ({ sha, parents });
  it('a deployment_status run at another commit than the deployed one names deployment.sha; the commit GITHUB_SHA names (push, workflow_dispatch, schedule) is never refused', () => {
    const deployment = { sha: A, state: 'success', environmentUrl: null, environment: null };
    expect(checkoutMismatch({ eventName: 'deployment_status', sha: A, pull: null, deployment }, at(B))).toContain('ref: ${{ github.event.deployment.sha }}');
    quotedAndSaid(checkoutMismatch({ eventName: 'deployment_status', sha: A, pull: null, deployment }, at(B)) ?? '', 'not the deployed commit');
    expect(checkoutMismatch({ eventName: 'deployment_status', sha: A, pull: null, deployment }, at(A))).toBeNull();
    for (const eventName of ['push', 'workflow_dispatch', 'schedule', 'merge_group']) expect(checkoutMismatch({ eventName, sha: A, pull: null, deployment: null }, at(B, [A]))).toBeNull();
    // outside a git repository nothing is known, and nothing refused
    expect(checkoutMismatch({ eventName: 'pull_request', sha: A, pull: null, deployment: null }, null)).toBeNull();
  });
});
