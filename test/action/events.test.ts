// Check mode on the events a preview host or a push starts: deployment_status (Vercel, Netlify and
// others announce previews this way) and push to the default branch. The payloads are GitHub's
// own examples (@octokit/webhooks-examples), changed only where a test needs another value.

import { describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { FakeGitHub } from '../support/github-server.js';
import { startAgentServer, type AgentServer, type AgentHandler } from '../support/agent-server.js';
import { gitHubApiOf, makeWorkspace, runAction, runActionHere, useServers } from './harness.js';
import type { GitHubApi } from '../../src/github/api.js';
import { parseRecord } from '../../src/record/index.js';
import { parseCommentMetadata } from '../../src/report/index.js';
import { deploymentAgentUrl, planCheck, planOverrides, type CheckPlan } from '../../src/action/plan.js';
import { OVERRIDES_SOURCE } from '../../src/action/publish.js';
import { runCheck } from '../../src/engine.js';
import { readActionContext } from '../../src/action/context.js';
import { tempDir } from '../support/temp.js';
import { escapeInline } from '../../src/report/escape.js';
import { artifactZip } from '../support/zip.js';
import { startServer } from '../judge/server.js';
import { docsUrl } from '../../src/version.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

interface WebhookExamples {
  name: string;
  examples: Record<string, unknown>[];
}
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as WebhookExamples[];
function example(event: string, pick: (e: Record<string, unknown>) => boolean = () => true): Record<string, unknown> {
  const found = examples.find((e) => e.name === event)?.examples.find(pick);
  if (!found) throw new Error(`no ${event} example in @octokit/webhooks-examples`);
  return structuredClone(found);
}
const stateOf = (e: Record<string, unknown>) => (e.deployment_status as { state: string }).state;

/** A real deployment_status payload, its status set to `state` at `environmentUrl`, its deployment at `sha`. */
function deploymentStatus(state: string, environmentUrl: string | null, sha: string): Record<string, unknown> {
  const payload = example('deployment_status', (e) => stateOf(e) === 'success');
  const status = payload.deployment_status as Record<string, unknown>;
  status.state = state;
  if (environmentUrl === null) delete status.environment_url;
  else status.environment_url = environmentUrl;
  (payload.deployment as Record<string, unknown>).sha = sha;
  return payload;
}

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  return { json: { reply: body.message === 'hello' ? 'Welcome to the shop!' : '?', route: { conversation: 'x', stage: 'answer' }, ended: false } };
};
const FIXTURES = 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n';
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const DEPLOYED = 'd'.repeat(40);

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

/**
 * A check run on `event`: started end to end, or with `here` the Action's run in this process
 * (runActionHere), for a run whose path another start of this file takes (docs/contributing.md,
 * "One Action start per path").
 */
async function check(event: { name: string; payload: unknown }, inputs: Record<string, string> = {}, here = false) {
  const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
  return (here ? runActionHere : runAction)({ gh, workspace, inputs: { 'fail-on': 'failed', ...inputs }, event });
}

/**
 * What check mode plans for `event` (src/action/plan.ts), read from the event file as the Action
 * reads it (readActionContext), without a GitHub client unless `github` is given (the Action's own
 * client against the test's fake GitHub, gitHubApiOf): for the events whose decision needs none,
 * or only GitHub's answers. The Action's own start is kept for one event of each path below, or
 * in test/action/check.test.ts; the others of that path differ only in what the plan says
 * (docs/contributing.md, "Speed").
 */
async function planOf(event: { name: string; payload: unknown }, env: Record<string, string> = {}, inputs: { agentUrl?: string } = {}, github: GitHubApi | null = null): Promise<CheckPlan> {
  const path = join(await tempDir('agent-replay-event-'), 'event.json');
  await writeFile(path, JSON.stringify(event.payload));
  const ctx = await readActionContext({ GITHUB_EVENT_NAME: event.name, GITHUB_EVENT_PATH: path, GITHUB_REPOSITORY: 'octo/shop', GITHUB_SHA: 'f'.repeat(40), ...env });
  return planCheck({ agentUrl: inputs.agentUrl ?? null, agentPath: '/chat' }, ctx, github);
}

/** The agent server's origin: the deployment's environment_url in these tests. */
const origin = () => new URL(agent.url).origin;

describe('deployment_status', () => {
  it('agent URL: environment_url without its trailing slash + agent-path', () => {
    expect(deploymentAgentUrl('https://shop-git-fix.vercel.app/', '/api/chat')).toBe('https://shop-git-fix.vercel.app/api/chat');
    expect(deploymentAgentUrl('https://deploy-preview-7--shop.netlify.app', '/api/chat')).toBe('https://deploy-preview-7--shop.netlify.app/api/chat');
    expect(deploymentAgentUrl('https://x.example//', null)).toBe('https://x.example');
    // A query (a share link) or fragment stays after the path, not inside it: was https://x.example?p=1/chat.
    expect(deploymentAgentUrl('https://x.example?p=1', '/chat')).toBe('https://x.example/chat?p=1');
    expect(deploymentAgentUrl('https://shop.vercel.app/?_vercel_share=abc', '/api/chat')).toBe('https://shop.vercel.app/api/chat?_vercel_share=abc');
    expect(deploymentAgentUrl('https://x.example/#top', '/chat')).toBe('https://x.example/chat#top');
    expect(deploymentAgentUrl('https://x.example?p=1', '/chat?v=2')).toBe('https://x.example/chat?v=2&p=1');
    expect(deploymentAgentUrl('https://x.example?p=1', null)).toBe('https://x.example?p=1');
  });

  it('success: replays at environment_url + agent-path and comments on each open pull request whose head is the commit, each with its own suite edits', async () => {
    // One branch in two pull requests: #8 (onto main) took the greeting's check out; #7 is onto another base, where it changed nothing of the suite.
    const suiteFile = '.agent-replay/fixtures/suite.yml';
    gh.setBranch('octo/shop', 'main', 'b'.repeat(40), { [suiteFile]: FIXTURES });
    gh.setBranch('octo/shop', 'fix-b', 'b'.repeat(40), { [suiteFile]: FIXTURES });
    gh.pushOnTop('octo/shop', 'fix-b', DEPLOYED, 'Loosen the greeting', { files: { [suiteFile]: 'fixtures:\n  - { label: greeting, message: hello }\n' } });
    gh.addPull('octo', 'shop', { number: 7, headSha: DEPLOYED, headRef: 'fix-b', baseRef: 'release' });
    gh.addPull('octo', 'shop', { number: 8, headSha: DEPLOYED, headRef: 'fix-b' });
    gh.addPull('octo', 'shop', { number: 9, headSha: DEPLOYED, headRef: 'fix-b', state: 'closed' });
    gh.addPull('octo', 'shop', { number: 10, headSha: 'e'.repeat(40), headRef: 'other' });
    const before = agent.requests.length;
    // Not a fork's commit: its config.yml reads the environment for an agent header (a fork's may
    // not: the fork's tests below).
    const RUNTIME = 'runtime-token-0123456789abcdef';
    const config = CONFIG.replace('agent:\n', 'agent:\n  headers: { X-Runtime: "${ACTIONS_RUNTIME_TOKEN}" }\n');
    const run = await runAction({
      gh,
      workspace: await makeWorkspace({ fixtures: FIXTURES, config }),
      inputs: { 'fail-on': 'failed', 'agent-path': 'chat' },
      env: { ACTIONS_RUNTIME_TOKEN: RUNTIME },
      event: { name: 'deployment_status', payload: deploymentStatus('success', `${origin()}/`, DEPLOYED) },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toContain('was not read');
    // the agent was reached at environment_url + agent-path
    const sent = agent.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.path === '/chat')).toBe(true);
    expect(sent.every((r) => r.headers['x-runtime'] === RUNTIME)).toBe(true);
    // the pull requests were found from the commit
    expect(gh.requests.some((r) => r.method === 'GET' && r.operation === 'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls' && r.path === `/repos/octo/shop/commits/${DEPLOYED}/pulls`)).toBe(true);
    for (const n of [7, 8]) {
      const comments = gh.comments('octo', 'shop', n);
      expect(comments, `comment on #${n}`).toHaveLength(1);
      expect(parseCommentMetadata(comments[0]!.body)).toMatchObject({ headSha: DEPLOYED, artifactName: `agent-replay-results-${DEPLOYED}` });
    }
    // Each pull request's comment says its own suite edits, against its own base; the record and the summary, the commit's, none.
    expect(gh.comments('octo', 'shop', 8)[0]!.body).toContain('- `greeting` in `.agent-replay/fixtures/suite.yml`: check `contains "Welcome"` is now none (a probe)');
    expect(gh.comments('octo', 'shop', 7)[0]!.body).not.toContain('edits the suite');
    expect(run.summary).not.toContain('edits the suite');
    expect(gh.comments('octo', 'shop', 9)).toHaveLength(0); // closed
    expect(gh.comments('octo', 'shop', 10)).toHaveLength(0); // another head
    expect(run.outputs['comment-status']).toBe('created');
    expect(run.outputs['comment-url']).toContain('/pull/7#issuecomment-');
    const record = parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'results.json');
    expect(record.commit).toBe(DEPLOYED);
    expect(record.suiteEdits).toBeUndefined();
    expect(run.outputs['artifact-name']).toBe(`agent-replay-results-${DEPLOYED}`);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  it('several pull requests: each comment compares with the run that pull request\'s own comment showed', async () => {
    const payload = deploymentStatus('success', `${origin()}/`, DEPLOYED);
    gh.addPull('octo', 'shop', { number: 7, headSha: DEPLOYED, headRef: 'fix-a' });
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    const first = await runActionHere({ gh, workspace, inputs: { 'agent-path': 'chat' }, event: { name: 'deployment_status', payload }, runId: 2001 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    gh.addWorkflowRun('octo', 'shop', { id: 2001, headSha: DEPLOYED });
    const results = readFileSync(first.outputs['results-path'] as string, 'utf8');
    gh.addArtifact('octo', 'shop', 2001, { name: first.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: results }]) });

    // A second pull request now has the same head; it has no comment of ours yet.
    gh.addPull('octo', 'shop', { number: 8, headSha: DEPLOYED, headRef: 'fix-b' });
    const second = await runActionHere({ gh, workspace: await makeWorkspace({ fixtures: FIXTURES, config: CONFIG }), inputs: { 'agent-path': 'chat' }, event: { name: 'deployment_status', payload }, runId: 2002 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toContain('since the previous run: nothing changed');
    const eight = gh.comments('octo', 'shop', 8);
    expect(eight).toHaveLength(1);
    expect(eight[0]!.body).not.toMatch(/previous run/i);
    expect(gh.violations).toEqual([]);
  });

  it('a fork\'s pull request: its config.yml may not send the judge key elsewhere than the provider\'s API (the judge-base-url input may)', async () => {
    gh.addPull('octo', 'shop', { number: 12, headSha: DEPLOYED, headRef: 'patch-1', headRepo: 'stranger/shop' });
    const stolen: string[] = [];
    const thief = await startServer([
      (res, req) => {
        stolen.push(String(req.headers.authorization));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"rationale": "ok", "score": 1}' } }] }));
      },
    ]);
    try {
      const fixtures = 'fixtures:\n  - { label: greeting, message: hello, assert: { judge: "Greets the user", threshold: 0.5 } }\n';
      const config = `${CONFIG}judge: { provider: openai, baseUrl: "${thief.url}", model: m }\n`;
      const payload = deploymentStatus('success', `${origin()}/`, DEPLOYED);
      const before = agent.requests.length;
      const refused = await runAction({ gh, workspace: await makeWorkspace({ fixtures, config }), inputs: { 'agent-path': 'chat', 'judge-api-key': 'sk-secret-judge-key' }, event: { name: 'deployment_status', payload } });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain('the commit is the head of #12, from a fork: its config.yml may not choose where the judge key is sent');
      expect(stolen).toEqual([]);
      expect(agent.requests.length).toBe(before); // nothing replayed
      expect(gh.comments('octo', 'shop', 12)[0]?.body).toContain('judge-base-url input');
      expect(gh.violations).toEqual([]);
      // The workflow (default branch) naming the address is allowed: runCheck with the
      // judge-base-url input's override (test/engine/untrusted-panel.test.ts), the input read
      // into it (test/action/inputs.test.ts), without a second start (docs/contributing.md, "Speed").
    } finally {
      await thief.close();
    }
  });

  it('a fork\'s pull request: its config.yml may not put the runner\'s tokens or the workflow\'s secrets in an agent header or a trace store request (${VAR} read only for judge keys)', async () => {
    const RUNTIME = 'runtime-token-0123456789abcdef';
    const TRACES = 'traces-key-abcdef0123456789';
    const fixtures = 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n';
    const config =
      'agent:\n  retries: 0\n  headers: { X-Runtime: "${ACTIONS_RUNTIME_TOKEN}" }\ncost: { capUsd: 1 }\n' +
      `traces:\n  query: { kind: tempo, url: "${origin()}", apiKey: "\${TRACES_KEY}" }\n  waitMs: 0\n`;
    const env = { ACTIONS_RUNTIME_TOKEN: RUNTIME, TRACES_KEY: TRACES };
    const payload = deploymentStatus('success', `${origin()}/`, DEPLOYED);
    gh.addPull('octo', 'shop', { number: 12, headSha: DEPLOYED, headRef: 'patch-1', headRepo: 'stranger/shop' });
    const before = agent.requests.length;
    const refused = await runActionHere({ gh, workspace: await makeWorkspace({ fixtures, config }), inputs: { 'agent-path': 'chat' }, env, event: { name: 'deployment_status', payload } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('${ACTIONS_RUNTIME_TOKEN} in agent.headers.X-Runtime was not read: the commit is the head of #12, from a fork, whose config.yml may read the environment only for the apiKey of a judge');
    expect(refused.stdout).toContain('${TRACES_KEY} in traces.query.apiKey was not read: the commit is the head of #12, from a fork');
    expect(agent.requests.length).toBe(before); // nothing sent: not to the fork's preview, not to the store
    const written = [refused.stdout, refused.stderr, refused.summary, ...gh.comments('octo', 'shop', 12).map((c) => c.body)].join('\n');
    expect(written).not.toContain(RUNTIME);
    expect(written).not.toContain(TRACES);
    expect(gh.violations).toEqual([]);
    // The same file from a trusted commit reads both: the guard is what kept them from the fork.
    // A trusted commit's config.yml reading the environment for an agent header is the success
    // test's start above; both variables read from a trusted suite, test/suite/untrusted-env.test.ts.
  });

  it('a fork\'s pull request: its config.yml may not lower the prices or raise the cap to spend the workflow\'s keys; the cost-cap input may', async () => {
    // 20 fixtures: 20 x 2 turns x $0.01 = $0.40 at the default price, above the default $0.10 cap.
    const fixtures = `fixtures:\n${Array.from({ length: 20 }, (_, i) => `  - { label: f${i}, message: hello, assert: { contains: Welcome } }`).join('\n')}\n`;
    const config = 'agent:\n  retries: 0\ncost:\n  agentTurnUsd: 0.0000001\n  capUsd: 1000\n';
    gh.addPull('octo', 'shop', { number: 12, headSha: DEPLOYED, headRef: 'patch-1', headRepo: 'stranger/shop' });
    const payload = deploymentStatus('success', `${origin()}/`, DEPLOYED);
    const before = agent.requests.length;
    const refused = await runActionHere({ gh, workspace: await makeWorkspace({ fixtures, config }), inputs: { 'agent-path': 'chat' }, event: { name: 'deployment_status', payload } });
    expect(refused.code).toBe(1);
    expect(agent.requests.length).toBe(before); // nothing spent
    expect(refused.stdout).toMatch(/::warning file=\.agent-replay\/config\.yml,line=4[^:]*::[^\n]*cost\.agentTurnUsd 0\.0000001 is not applied \(below the default price\): the commit is the head of #12, from a fork/);
    expect(refused.stdout).toMatch(/::warning file=\.agent-replay\/config\.yml,line=5[^:]*::[^\n]*cost\.capUsd 1000 is not applied \(above the default cap\)/);
    expect(refused.stdout).toContain('::error::estimated cost $0.40 is above the cap $0.10; nothing was spent.');
    expect(gh.comments('octo', 'shop', 12)[0]?.body).toContain('confirm-cost');
    expect(gh.violations).toEqual([]);
    // The workflow's own cap (the cost-cap input, from the default branch's file) is applied to a
    // fork's suite: the loader with the input's override (test/suite/untrusted-env.test.ts), the
    // input end to end in check.test.ts's cost-cap test, without a second start here.
  });

  it('success with no open pull request for the commit: no comment; the results are in the summary and the artifact, and the summary says why', async () => {
    gh.addPull('octo', 'shop', { number: 7, headSha: DEPLOYED, state: 'closed' });
    const run = await check({ name: 'deployment_status', payload: deploymentStatus('success', origin(), DEPLOYED) }, { 'agent-path': '/chat' }, true);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.summary).toContain(`no open pull request for ${DEPLOYED}`);
    quotedAndSaid(run.summary, 'no open pull request for <sha>');
    expect(run.summary).toContain('greeting');
    expect(run.stdout).toContain(`no open pull request for ${DEPLOYED}`);
    expect(run.outputs['comment-status']).toBe('skipped');
    expect(gh.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(existsSync(run.outputs['results-path'] as string)).toBe(true);
    expect(run.outputs['artifact-name']).toBe(`agent-replay-results-${DEPLOYED}`);
    expect(gh.violations).toEqual([]);
  });

  it('any other state is a logged no-op: exit 0, nothing replayed, nothing asked of GitHub', async () => {
    // An agent of this test's own: a request an earlier test's run sent, read late by the shared
    // agent on a loaded machine, is not counted as this test's.
    const own = await startAgentServer(handler);
    try {
      // GitHub's example of a state other than success, announcing this test's agent.
      const payload = example('deployment_status', (e) => stateOf(e) !== 'success');
      const state = stateOf(payload);
      (payload.deployment_status as Record<string, unknown>).environment_url = new URL(own.url).origin;
      const run = await check({ name: 'deployment_status', payload }, { 'agent-path': '/chat' });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`is "${state}", not "success": nothing to do`);
      expect(gh.requests).toEqual([]);
      expect(run.outputs['results-path']).toBeUndefined();
      expect(run.outputs).toMatchObject({ gate: 'skipped', 'comment-status': 'skipped' });
      expect(own.requests).toEqual([]);
      // The other states take the same skip (planDeployment): its plan, without a start of the Action each.
      for (const failed of ['failure', 'error', 'pending']) {
        const plan = await planOf({ name: 'deployment_status', payload: deploymentStatus(failed, new URL(own.url).origin, DEPLOYED) });
        expect(plan).toEqual({ kind: 'skip', reason: expect.stringMatching(new RegExp(`^deployment_status: the .*deployment of ddddddd is "${failed}", not "success": nothing to do`)) });
      }
    } finally {
      await own.close();
    }
  });

  it('success without an environment_url fails, saying to set agent-url; the agent-url input works without one', async () => {
    // The refusal is planDeployment's UserError, which the Action fails with as it does with
    // issue_comment's below (that one started end to end): its plan, without a start of the Action.
    const missing = await planOf({ name: 'deployment_status', payload: deploymentStatus('success', null, DEPLOYED) }).then(
      () => '',
      (e: Error) => `${e.name}: ${e.message}`,
    );
    expect(missing).toMatch(/^UserError: deployment_status: the .*deployment of ddddddd has no environment_url, so the agent's address is unknown; set the agent-url input/);
    const given = await check({ name: 'deployment_status', payload: deploymentStatus('success', null, DEPLOYED) }, { 'agent-url': agent.url }, true);
    expect(given.code, given.stdout).toBe(0);
    expect(given.outputs.passed).toBe('1');
  });

  it("an environment_url that makes no address with agent-path is an error named after them, not after the Action's inputs", async () => {
    // The plan's overrides go to the run as the Action gives them (check.ts); the run, in process:
    // where the decision is made (docs/contributing.md, "Speed").
    const before = agent.requests.length;
    const plan = await planOf({ name: 'deployment_status', payload: deploymentStatus('success', 'shop-git-fix.vercel.app/', DEPLOYED) });
    if (plan.kind !== 'run') throw new Error(`planned ${plan.kind}`);
    // An input's own issue beside it is still the Action's inputs'.
    const judged = { judge: { baseUrl: 'gw.example/v1' } };
    const result = await runCheck({
      dir: '.agent-replay',
      cwd: await makeWorkspace({ fixtures: FIXTURES, config: CONFIG }),
      env: {},
      overrides: { ...judged, ...planOverrides(plan) },
      overridesSource: OVERRIDES_SOURCE,
      confirmCost: false,
      failOn: ['failed'],
      commit: DEPLOYED,
    });
    expect(result.kind).toBe('config_errors');
    if (result.kind !== 'config_errors') return;
    expect(result.errors).toEqual([
      {
        file: "the deployment's environment_url + the agent-path input",
        line: null,
        column: null,
        message: 'agent URL "shop-git-fix.vercel.app/chat" has no scheme (http:// or https://): write https://shop-git-fix.vercel.app/chat',
        fix: "set the agent-url input to the agent's full address (https://shop-git-fix.vercel.app/chat), or have the host report an environment_url that starts with https://",
      },
      expect.objectContaining({ file: "the Action's inputs", message: 'judge base URL "gw.example/v1" has no scheme (http:// or https://): write https://gw.example/v1' }),
    ]);
    quotedAndSaid(
      result.errors.map((e) => `${e.file}: ${e.message}`).join('\n'),
      'the deployment\'s environment_url + the agent-path input: agent URL "shop.vercel.app/api/chat" has no scheme (http:// or https://): ...',
      { 'shop.vercel.app/api/chat': 'shop-git-fix.vercel.app/chat' },
    );
    expect(agent.requests.length).toBe(before);
  });
});

describe('a review of a fork\'s pull request (GitHub\'s example payloads)', () => {
  it('pull_request_review and pull_request_review_comment run with the fork\'s read-only token, as pull_request does: the comment is skipped-fork, the results are kept', async () => {
    const forkReview = (name: string) => {
      const payload = example(name);
      const pr = payload.pull_request as { number: number; state: string; head: { sha: string; repo: { full_name: string } }; base: { repo: { full_name: string } } };
      pr.state = 'open';
      pr.head.repo.full_name = 'stranger/shop';
      pr.base.repo.full_name = 'octo/shop';
      return { payload, pr };
    };
    // pull_request_review end to end.
    const { payload, pr } = forkReview('pull_request_review');
    const run = await check({ name: 'pull_request_review', payload }, { 'agent-url': agent.url });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs['comment-status']).toBe('skipped-fork');
    expect(run.stdout).toContain('::warning::comment: not posted: this pull request comes from a fork, so the token is read-only.');
    // The fix names the page of the workflow that comments for a fork (docs/action.md, "Check: replay on every pull request").
    expect(run.stdout).toContain(`to comment, add the workflow_run workflow of mode: report (${docsUrl('action.md', 'Report: combine shards, or comment for a fork')}).`);
    expect(gh.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'results.json').commit).toBe(pr.head.sha);
    expect(run.summary).toContain('greeting');
    expect(gh.violations).toEqual([]);
    // pull_request_review_comment: what the run is decided by, its plan, is the same run on the fork's head (the pull request read from its payload).
    const comment = forkReview('pull_request_review_comment');
    expect(await planOf({ name: 'pull_request_review_comment', payload: comment.payload })).toMatchObject({
      kind: 'run',
      agentUrl: null,
      note: null,
      ctx: { sha: comment.pr.head.sha },
      pulls: [{ number: comment.pr.number, headSha: comment.pr.head.sha, headRepoFullName: 'stranger/shop', baseRepoFullName: 'octo/shop', isFork: true }],
    });
  });
});

describe('push to the default branch', () => {
  it('records a run (results, artifact, summary) and comments nowhere', async () => {
    const payload = example('push', (e) => typeof e.ref === 'string' && (e.ref as string).startsWith('refs/heads/'));
    const branch = (payload.ref as string).slice('refs/heads/'.length);
    (payload.repository as Record<string, unknown>).default_branch = branch;
    gh.addPull('octo', 'shop', { number: 7, headSha: 'f'.repeat(40) }); // GITHUB_SHA of the harness: still no comment
    const run = await check({ name: 'push', payload }, { 'agent-url': agent.url });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`push to the default branch ${branch}: the run is recorded`);
    // docs/action.md ("Events") quotes the note as the log and the summary say it, for a branch main.
    const note = (b: string): string => `push to the default branch ${b}: the run is recorded (results.json, and the artifact once uploaded); there is no pull request to comment on`;
    expect(run.stdout).toContain(note(branch));
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'action.md'), 'utf8').replace(/\s+/g, ' ')).toContain(note('main'));
    expect(run.summary).toContain(`push to the default branch ${branch}`);
    expect(run.summary).toContain('greeting');
    expect(existsSync(run.outputs['results-path'] as string)).toBe(true);
    expect(run.outputs['artifact-name']).toBe(`agent-replay-results-${'f'.repeat(40)}`);
    expect(run.outputs['comment-status']).toBe('skipped');
    expect(gh.requests).toEqual([]);
  });
});

describe('workflow_dispatch (GitHub\'s example payload)', () => {
  // Its plan, with the Action's client: the run that comments on the pull request found is
  // check.test.ts's dispatched check (its log's "pull request #7", its comment on the commit checked out).
  it('finds the open pull request of the dispatched branch: the plan runs on the commit checked out, with that pull request to comment on', async () => {
    const payload = example('workflow_dispatch', (e) => typeof e.ref === 'string' && (e.ref as string).startsWith('refs/heads/'));
    const branch = (payload.ref as string).slice('refs/heads/'.length);
    const sha = 'c'.repeat(40);
    gh.addPull('octo', 'shop', { number: 12, headSha: sha, headRef: branch });
    const plan = await planOf({ name: 'workflow_dispatch', payload }, { GITHUB_SHA: sha, GITHUB_REF: payload.ref as string }, { agentUrl: agent.url }, gitHubApiOf(gh));
    expect(plan).toMatchObject({ kind: 'run', pulls: [{ number: 12, headSha: sha }], ctx: { sha, pull: { number: 12 } } });
    const list = gh.requests.find((r) => r.method === 'GET' && r.path === '/repos/octo/shop/pulls');
    expect(list?.query).toMatchObject({ head: `octo:${branch}`, state: 'open' });
    expect(gh.violations).toEqual([]);
  });

  it('no pull request found, or none that could be looked up: the plan says no comment is posted, never where the results are (nothing is written or uploaded yet)', async () => {
    const payload = { ...example('workflow_dispatch', (e) => typeof e.ref === 'string' && (e.ref as string).startsWith('refs/heads/')), ref: 'refs/heads/nowhere-yet' };
    const env = { GITHUB_SHA: 'd'.repeat(40), GITHUB_REF: 'refs/heads/nowhere-yet' };
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
      return true;
    });
    try {
      await planOf({ name: 'workflow_dispatch', payload }, env, { agentUrl: agent.url }, gitHubApiOf(gh));
      gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls', status: 403, body: { message: 'Resource not accessible by integration' } });
      await planOf({ name: 'workflow_dispatch', payload }, env, { agentUrl: agent.url }, gitHubApiOf(gh));
    } finally {
      vi.restoreAllMocks();
    }
    const said = lines.filter((l) => l.includes('workflow_dispatch on nowhere-yet'));
    expect(said).toEqual([
      'workflow_dispatch on nowhere-yet: no open pull request has this branch as its head, so there is none to comment on',
      expect.stringMatching(/^::warning::workflow_dispatch on nowhere-yet: the pull request could not be looked up: .*; no comment is posted \(where the results are is said once they are written\)$/),
    ]);
    expect(said.join('\n')).not.toMatch(/job summary|artifact/);
  });
});

describe('a name from the event that holds a line break', () => {
  it("deployment_status: the environment's name (a host may name it after the branch) on the skip's one line", async () => {
    const payload = deploymentStatus('failure', 'https://shop.example', DEPLOYED);
    (payload.deployment_status as Record<string, unknown>).environment = 'preview/fix\u2028x\u001b[2J';
    (payload.deployment as Record<string, unknown>).environment = 'preview/fix\u2028x\u001b[2J';
    expect(await planOf({ name: 'deployment_status', payload })).toEqual({
      kind: 'skip',
      reason: String.raw`deployment_status: the preview/fix ⏎ x\u001b[2J deployment of ddddddd is "failure", not "success": nothing to do (agent-replay replays when a deployment succeeds)`,
    });
  });

  it('workflow_dispatch: names the branch, or the ref that is not one, on its one line: a U+2028 (git allows it) as ⏎, an escape sequence as its escape', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
      return true;
    });
    try {
      for (const ref of ['refs/heads/fix\u2028x\u001b[2J', 'refs/tags/v1\u2028x']) {
        const payload = { ...example('workflow_dispatch', (e) => typeof e.ref === 'string'), ref };
        // No github-token: the plan needs no GitHub to say so.
        await planOf({ name: 'workflow_dispatch', payload }, { GITHUB_SHA: 'd'.repeat(40), GITHUB_REF: ref }, { agentUrl: agent.url });
      }
    } finally {
      vi.restoreAllMocks();
    }
    // log.info wrote the U+2028 as a line break: "x\u001b[2J: no github-token ..." read as a line of its own.
    expect(lines.filter((l) => l.includes('workflow_dispatch on'))).toEqual([
      String.raw`workflow_dispatch on fix ⏎ x\u001b[2J: no github-token, so the pull request cannot be looked up, and no comment is posted`,
      'workflow_dispatch on refs/tags/v1 ⏎ x: not a branch, so there is no pull request to comment on',
    ]);
  });
});

describe('events check mode does not replay (GitHub\'s example payloads)', () => {
  it('a closed pull request: nothing replayed or asked of GitHub, a notice says why, and the outputs say skipped', async () => {
    const payload = example('pull_request', (e) => e.action === 'closed');
    const number = (payload.pull_request as { number: number }).number;
    gh.addPull('octo', 'shop', { number, headSha: (payload.pull_request as { head: { sha: string } }).head.sha });
    const before = agent.requests.length;
    const run = await check({ name: 'pull_request', payload }, { 'agent-url': agent.url });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`::notice::pull_request (closed): pull request #${number} is closed: nothing is replayed and nothing commented`);
    expect(agent.requests.length).toBe(before);
    expect(gh.requests).toEqual([]);
    expect(run.outputs).toMatchObject({ gate: 'skipped', 'comment-status': 'skipped' });
    expect(run.outputs['results-path']).toBeUndefined();
    expect(gh.comments('octo', 'shop', number)).toHaveLength(0);
    // pull_request_target takes the same skip, said as a notice: its plan (closedPull).
    expect(await planOf({ name: 'pull_request_target', payload })).toEqual({
      kind: 'skip',
      notice: true,
      reason: expect.stringMatching(new RegExp(`^pull_request_target \\(closed\\): pull request #${number} is closed: nothing is replayed and nothing commented`)),
    });
    // docs/troubleshooting.md quotes the notice whole, as the plan says it.
    const plan = await planOf({ name: 'pull_request', payload });
    const notice = plan.kind === 'skip' ? plan.reason.replace(`#${number}`, '#<n>') : '';
    const page = readFileSync('docs/troubleshooting.md', 'utf8');
    expect(page).toContain(`| \`${notice}\` (notice) |`);
    // The fix, the types: line, is the notice's: the row's other cell does not say it again.
    const row = page.split('\n').find((l) => l.startsWith(`| \`${notice}\``)) ?? '';
    expect(row.split('types').length - 1).toBe(1);
  });

  it('issue_comment and workflow_run: refused, naming the event, the events check mode runs on and what to use instead; nothing replayed', async () => {
    const cases = [
      { name: 'issue_comment', payload: example('issue_comment', (e) => e.action === 'created'), instead: 'dispatch the check workflow on its branch (workflow_dispatch)' },
      { name: 'workflow_run', payload: example('workflow_run', (e) => e.action === 'completed'), instead: 'use mode: report' },
    ];
    const said = (name: string): string[] => [
      `check mode does not run on ${name} events: GitHub gives it the default branch's last commit, not the commit the event is about, so nothing was replayed.`,
      'Check mode runs on pull_request and pull_request_target (and any event whose payload has a pull request), deployment_status, push, workflow_dispatch, schedule, merge_group',
    ];
    // The refusal end to end for the first event; the second's refusal is the same error (refuseEvent), with its own words.
    const [first, ...rest] = cases as [(typeof cases)[number], ...typeof cases];
    const before = agent.requests.length;
    const run = await check({ name: first.name, payload: first.payload }, { 'agent-url': agent.url });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const error = run.stdout.split('\n').find((l) => l.startsWith('::error::')) ?? '';
    expect(error).toContain(`agent-replay: ${said(first.name)[0]}`);
    expect(error).toContain(said(first.name)[1]);
    expect(error).toContain(first.instead);
    quotedAndSaid(error, 'check mode does not run on issue_comment events: ...');
    expect(agent.requests.length).toBe(before);
    expect(gh.requests).toEqual([]);
    expect(run.outputs['results-path']).toBeUndefined();
    for (const c of rest) {
      const refused = await planOf({ name: c.name, payload: c.payload }).then(
        () => '',
        (e: Error) => e.message,
      );
      for (const words of [...said(c.name), c.instead]) expect(refused).toContain(words);
    }
  });

  it('schedule and merge_group: the checked-out commit is replayed and recorded, with no comment, and the log and the summary say so', async () => {
    const queued = example('merge_group');
    const queuedSha = (queued.merge_group as { head_sha: string }).head_sha;
    const cases = [
      // GitHub's documented payload of a scheduled run (schedule is no webhook: not in the examples).
      { name: 'schedule', payload: { schedule: '30 5 * * 1-5' }, sha: 'f'.repeat(40), said: `schedule: the default branch's commit fffffff is replayed and recorded` },
      { name: 'merge_group', payload: queued, sha: queuedSha, said: `merge_group: the merge queue's commit ${queuedSha.slice(0, 7)} is replayed and recorded` },
    ];
    // merge_group end to end; schedule takes the same plan (planCommitOnly) with its own words and commit.
    const [scheduled, merged] = cases as [(typeof cases)[number], (typeof cases)[number]];
    const plan = await planOf({ name: scheduled.name, payload: scheduled.payload }, { GITHUB_SHA: scheduled.sha });
    expect(plan).toMatchObject({ kind: 'run', pulls: [], agentUrl: null, note: expect.stringMatching(new RegExp(`^${scheduled.said}`)), ctx: { sha: scheduled.sha, pull: null } });
    // Said before anything is uploaded (and at the top of a summary whose run may stop before it uploads): the artifact only "once uploaded".
    expect(plan.kind === 'run' ? plan.note : '').toBe(`${scheduled.said} (results.json, and the artifact once uploaded); there is no pull request to comment on`);
    for (const c of [merged]) {
      const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
      const before = agent.requests.length;
      const run = await runAction({ gh, workspace, inputs: { 'agent-url': agent.url, 'fail-on': 'failed' }, event: { name: c.name, payload: c.payload }, env: { GITHUB_SHA: c.sha } });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(agent.requests.length).toBeGreaterThan(before);
      expect(run.stdout).toContain(c.said);
      expect(run.summary).toContain(`> ${escapeInline(c.said)}`);
      expect(run.outputs['comment-status']).toBe('skipped');
      expect(run.outputs['artifact-name']).toBe(`agent-replay-results-${c.sha}`);
      expect(gh.requests.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(gh.violations).toEqual([]);
    }
  });
});
