import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startFakeGitHub, type FakeGitHub } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, runActionHere, useServers, type ActionRun } from './harness.js';
import { parseRecord } from '../../src/record/index.js';
import { parseCommentMetadata, renderCapRefusal, usdDecimal } from '../../src/report/index.js';
import { capRefusalFailure, capSource } from '../../src/action/check.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { ctx as reportCtx } from '../report/fixtures.js';
import { gateRun } from '../../src/evaluate/gate.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const REPLIES: Record<string, string> = {
  hello: 'Welcome to the shop!',
  refund: 'No refunds, ever.',
  hours: 'Open 9 to 5. Authorization was Bearer s3cr3t-agent-token',
};

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  // A welcome of one's own whose answer has a key with a control character in it.
  if (body.hello === true) return { json: { greeting: 'hi', 'x\u001b[31m': 1 } };
  const message = String(body.message);
  return { json: { reply: REPLIES[message] ?? '?', route: { conversation: message, stage: 'answer' }, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: greeting, message: hello, assert: { contains: Welcome } }
  - { label: refund-policy, message: refund, assert: { regex: "30 days" } }
  - { label: opening-hours, message: hours }
`;
const CONFIG = `agent:\n  retries: 0\n  headers: { Authorization: "Bearer \${AGENT_TOKEN}" }\ncost: { capUsd: 1 }\n`;
const BASELINES = [
  { label: 'refund-policy', reply: 'Refunds within 30 days.', route: { conversation: 'refund', stage: 'answer' }, verdict: 'pass' as const, acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) },
];

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD });
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/**
 * A check run on a pull request. The path is started end to end once, by firstCheck (`start`); the
 * other runs of it are the Action's run in this process (runActionHere: docs/contributing.md, "One
 * Action start per path").
 */
async function check(extra: { inputs?: Record<string, string>; payload?: unknown; config?: string; fixtures?: string; acceptWorkflow?: string; start?: boolean } = {}) {
  const workspace = await makeWorkspace({ fixtures: extra.fixtures ?? FIXTURES, config: extra.config ?? CONFIG, baselines: BASELINES });
  if (extra.acceptWorkflow !== undefined) {
    mkdirSync(join(workspace, '.github', 'workflows'), { recursive: true });
    writeFileSync(join(workspace, '.github', 'workflows', 'agent-replay-accept.yml'), extra.acceptWorkflow);
  }
  return (extra.start === true ? runAction : runActionHere)({
    gh,
    workspace,
    inputs: { 'agent-url': agent.url, ...extra.inputs },
    event: { name: 'pull_request', payload: extra.payload ?? pullPayload() },
    env: { AGENT_TOKEN: 's3cr3t-agent-token' },
  });
}

/**
 * The first check of the tests that run a second one over its comment (the default suite on a pull
 * request without comments), made once for the file like accept.test.ts's reviewed check: its only
 * write is the comment, which a later test's fresh fake GitHub gets again instead of a second
 * identical run.
 */
let firstCheckMade: { run: ActionRun; comments: string[] } | null = null;
async function firstCheck(): Promise<ActionRun> {
  expect(gh.comments('octo', 'shop', 7)).toEqual([]);
  if (firstCheckMade === null) {
    const run = await check({ start: true });
    expect(gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').map((r) => `${r.method} ${r.path}`)).toEqual(['POST /repos/octo/shop/issues/7/comments']);
    firstCheckMade = { run, comments: gh.comments('octo', 'shop', 7).map((c) => c.body) };
    return run;
  }
  for (const body of firstCheckMade.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
  return firstCheckMade.run;
}

describe('check mode, the suite\'s warnings', () => {
  it('annotates a load warning once, at its file and line, before the replay\'s progress; a run\'s warning quoting the agent shows its controls escaped', async () => {
    // A welcome of one's own whose reply path matches nothing in an answer with a key holding a control character.
    const config = CONFIG.replace('cost:', '  start: { body: { hello: true }, response: { reply: greting } }\ncost:');
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config, baselines: BASELINES });
    writeFileSync(join(workspace, '.agent-replay', 'fixtures', 'empty.yml'), 'fixtures: []\n');
    const run = await runActionHere({ gh, workspace, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() }, env: { AGENT_TOKEN: 's3cr3t-agent-token' } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const warning = /::warning file=\.agent-replay\/fixtures\/empty\.yml,line=1[^:]*::[^\n]*fixtures is an empty list/g;
    expect(run.stdout.match(warning)).toHaveLength(1);
    const at = run.stdout.search(warning);
    const progress = run.stdout.indexOf('progress: 3/3');
    expect(progress).toBeGreaterThan(-1);
    expect(at).toBeLessThan(progress);
    const welcome = run.stdout.split('\n').filter((l) => l.startsWith('::warning::welcome turn'));
    expect(welcome).toHaveLength(1);
    expect(welcome[0]).toContain('(keys: greeting, x\\u001b[31m); its text may be at "greeting"); agent.start.response.reply is set at .agent-replay/config.yml:4.');
    expect(run.stdout + run.stderr).not.toContain('\u001b[31m');
  });
});

describe('check mode, the repeat input', () => {
  it('repeat: 3 attempts every fixture three times, as --repeat does: the agent sees three message turns each, the record says 3 of 3', async () => {
    const before = agent.requests.length;
    // The checkout's accept workflow renamed the label (this step's accept-label is the default).
    const acceptWorkflow = "on: { pull_request_target: { types: [labeled] } }\njobs:\n  accept:\n    if: github.event.label.name == 'approve-replies'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v0.1.0\n        with: { mode: accept, accept-label: approve-replies }\n";
    const run = await check({ inputs: { repeat: '3', 'fail-on': 'none' }, acceptWorkflow });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The comment names the label that accepts, the accept workflow's (was: this step's, accept-baseline), and the log says whence.
    const [comment] = gh.comments('octo', 'shop', 7).map((c) => c.body);
    expect(comment).toContain('apply the `approve-replies` label to this pull request');
    expect(comment).not.toContain('accept-baseline');
    expect(run.summary).toContain('apply the `approve-replies` label to the pull request');
    expect(run.stdout).toContain("\naccept label: the comment names approve-replies, the accept-label of the accept step in .github/workflows/agent-replay-accept.yml (this step's is the default, accept-baseline)\n");
    const messages = agent.requests.slice(before).map((r) => (r.json as { message?: unknown }).message).filter((m) => typeof m === 'string');
    expect(messages.filter((m) => m === 'hello')).toHaveLength(3);
    expect(messages.filter((m) => m === 'refund')).toHaveLength(3);
    const record = parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'results.json');
    const greeting = record.fixtures.find((f) => f.label === 'greeting');
    expect(greeting?.repeat).toMatchObject({ count: 3, minPass: 3, passed: 3, flaky: false });
    expect(greeting?.attempts).toHaveLength(3);
  });
  // A repeat above 20 is refused by readInputs (test/action/inputs.test.ts), as every bad input is: the step
  // fails before anything is sent ("rejects a bad input value naming the allowed set", below).
});

describe('check mode, a results path that cannot be written', () => {
  it('fails the step saying where the record went instead, and still writes the summary and the comment', async () => {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG, baselines: BASELINES });
    // A folder named with a line break: the failure annotation names it on its one line (`blocked ⏎ x`), not split by %0A.
    const blocked = 'blocked\nx';
    writeFileSync(join(workspace, blocked), 'a file where a folder should be\n');
    const run = await runActionHere({
      gh,
      workspace,
      inputs: { 'agent-url': agent.url, 'results-path': `${blocked}/results.json` },
      event: { name: 'pull_request', payload: pullPayload() },
      env: { AGENT_TOKEN: 's3cr3t-agent-token' },
    });
    const fallback = run.outputs['results-path'] as string;
    try {
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain(`::error::could not write the results to ${join(workspace, 'blocked ⏎ x', 'results.json')}: ${join(workspace, 'blocked ⏎ x')} is a file, not a folder`);
      expect(run.stdout).toContain(`the record was written to ${fallback} instead`);
      expect(fallback).toMatch(new RegExp(`^${tmpdir()}/agent-replay-results-[^/]+/results\\.json$`));
      // report.html and pr-number went with it, not loose in the temporary folder.
      expect(readFileSync(join(dirname(fallback), 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
      const record = parseRecord(readFileSync(fallback, 'utf8'), fallback);
      expect(record.fixtures.map((f) => f.label)).toEqual(['greeting', 'refund-policy', 'opening-hours']);
      expect(run.summary).toContain('refund-policy');
      expect(run.outputs['comment-status']).toBe('created');
      expect(readFileSync(join(workspace, blocked), 'utf8')).toBe('a file where a folder should be\n');
    } finally {
      rmSync(dirname(fallback), { recursive: true, force: true });
    }
  });
});

describe('check mode, end to end', () => {
  it('writes results first, then artifact attempt, summary, annotations, comment and outputs; fails the gate on newly failing', async () => {
    // The file's first check (firstCheck) is this one, made here on a pull request without comments:
    // the tests below that run a second check over its comment share it (docs/contributing.md, "Speed").
    const run = await firstCheck();
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
    // results.json is there and valid
    const resultsPath = run.outputs['results-path'] as string;
    expect(resultsPath).toBe(join(run.workspace, 'agent-replay-results/results.json'));
    const record = parseRecord(readFileSync(resultsPath, 'utf8'), resultsPath);
    expect(record.commit).toBe(HEAD);
    expect(readFileSync(join(run.workspace, 'agent-replay-results/pr-number'), 'utf8')).toBe('7\n');
    // report.html is written next to results.json and uploaded with it.
    expect(readFileSync(join(run.workspace, 'agent-replay-results/report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*data-label="refund-policy"/);
    expect(record.tallies).toEqual({ passed: 2, failed: 1, notEvaluated: 0, errored: 0 });
    // outputs
    expect(run.outputs).toMatchObject({ passed: '2', failed: '1', 'not-evaluated': '0', errored: '0', 'newly-failing': '1', gate: 'failed', verified: 'true', 'comment-status': 'created', 'estimated-cost': '0.060' });
    // The estimated-cost output is results.json's estimate as usdDecimal writes it ("0.00024", not "0.000": test/report/render.test.ts).
    expect(run.outputs['estimated-cost']).toBe(usdDecimal(record.estimate.usd));
    expect(run.outputs['artifact-name']).toBe(`agent-replay-results-${HEAD}`);
    expect(run.stdout).toMatch(/::warning::artifact agent-replay-results-1+ not uploaded: no artifact service here/);
    // annotation at the fixture's file and line
    expect(run.stdout).toMatch(/::error title=agent-replay%3A refund-policy newly failing,file=\.agent-replay\/fixtures\/suite\.yml,line=3::refund-policy: newly failing/);
    // one-line reason
    expect(run.stdout).toContain('::error::agent-replay gate failed: 1 fixture newly failing (refund-policy)');
    // the comment
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    const body = comments[0]?.body as string;
    expect(run.outputs['comment-url']).toContain(String(comments[0]?.id));
    expect(parseCommentMetadata(body)).toEqual({ marker: 'agent-replay', headSha: HEAD, runId: '1001', artifactName: `agent-replay-results-${HEAD}` });
    expect(body).toContain('refund-policy');
    // the fixture's file reference links to the head commit and line, inside the opened item (its summary holds no link)
    expect(body).toContain(`[suite.yml\\:3](https://github.com/octo/shop/blob/${HEAD}/.agent-replay/fixtures/suite.yml#L3)`);
    expect(run.summary).toContain('refund-policy');
    // secrets: never in the comment, the summary or the results
    for (const text of [body, run.summary, readFileSync(resultsPath, 'utf8')]) expect(text).not.toContain('s3cr3t-agent-token');
    // the config's ${AGENT_TOKEN} value is masked in the job log
    expect(run.stdout).toContain('::add-mask::s3cr3t-agent-token');
    // and so is its base64 (an echo of `user:key` that reaches the log some other way than our redacted outputs)
    expect(run.stdout).toContain(`::add-mask::${Buffer.from('s3cr3t-agent-token').toString('base64')}`);
    // the header reached the agent
    expect(agent.requests.at(-1)?.headers.authorization).toBe('Bearer s3cr3t-agent-token');
  });

  it('leaves a comment that reports the pull request\'s head now when this run checked an older commit (a late dispatched check)', async () => {
    const NEWER = 'b'.repeat(40);
    const first = await firstCheck();
    expect(first.outputs['comment-status']).toBe('created');
    const ours = gh.comments('octo', 'shop', 7)[0] as { id: number; body: string };
    // A push since: the check of the newer head has written the comment, and the pull request's head is that commit.
    const newer = ours.body.replace(`"headSha":"${HEAD}"`, `"headSha":"${NEWER}"`).replace('### ', '### (newer run) ');
    expect(parseCommentMetadata(newer)?.headSha).toBe(NEWER);
    gh.editComment(ours.id, newer);
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER });
    const late = await check();
    expect(late.outputs['comment-status']).toBe('kept-newer');
    expect(late.stdout).toContain(`comment: left as it is: it reports ${NEWER.slice(0, 7)}, the pull request's head now, and this run checked ${HEAD.slice(0, 7)}, an older commit`);
    const after = gh.comments('octo', 'shop', 7);
    expect(after).toHaveLength(1);
    expect(after[0]?.body).toBe(newer);
    expect(gh.violations).toEqual([]);
  });

  it('updates the same comment on the second run instead of creating another, and finds it among 261 comments (pages through all of them); a comment that reports an older commit than the head this run checked is updated', async () => {
    const OLDER = 'c'.repeat(40);
    const first = await firstCheck();
    // The comment reports an older commit than the pull request's head this run checks (a check of an earlier push).
    const own = gh.comments('octo', 'shop', 7)[0] as { id: number; body: string };
    gh.editComment(own.id, own.body.replace(`"headSha":"${HEAD}"`, `"headSha":"${OLDER}"`));
    gh.addComments('octo', 'shop', 7, 10, { login: 'alice', type: 'User' });
    gh.addComments('octo', 'shop', 7, 250, { login: 'bob', type: 'User' });
    const second = await check();
    expect(first.outputs['comment-status']).toBe('created');
    expect(second.outputs['comment-status']).toBe('updated');
    const ours = gh.comments('octo', 'shop', 7).filter((c) => c.user.login === 'github-actions[bot]');
    expect(ours).toHaveLength(1);
    expect(ours[0]?.edits).toBe(2); // the older commit's edit above, and this run's one
    expect(parseCommentMetadata(ours[0]?.body ?? '')?.headSha).toBe(HEAD);
    const pages = gh.requests.filter((r) => r.method === 'GET' && r.operation === 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments');
    expect(pages.some((r) => r.query.page === '3')).toBe(true);
    expect(gh.violations).toEqual([]);
  });

  it('ignores a forged marker in someone else\'s comment', async () => {
    const first = await firstCheck();
    const ours = gh.comments('octo', 'shop', 7)[0];
    const forged = gh.addComment('octo', 'shop', 7, { body: ours?.body as string, user: { login: 'mallory', type: 'User' } });
    // Remove ours from the picture: a fresh PR where only the forged one exists.
    gh.addPull('octo', 'shop', { number: 8, headSha: HEAD });
    gh.addComment('octo', 'shop', 8, { body: forged.body, user: { login: 'mallory', type: 'User' } });
    // Its comment's POST is answered 429 first: waited out as its Retry-After asks, and the wait is
    // said in the job log (this start asserts it, docs/contributing.md, "Speed").
    gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '3' } });
    const run = await check({ payload: pullPayload({ number: 8 }) });
    expect(run.stdout).toContain(`GitHub rate limit (429 Too Many Requests) hit by POST ${gh.url}/repos/octo/shop/issues/8/comments; retrying in 3s (1/2).`);
    quotedAndSaid(run.stdout, 'GitHub rate limit (429 Too Many Requests) hit by ...; retrying in <n>s');
    expect(first.outputs['comment-status']).toBe('created');
    expect(run.outputs['comment-status']).toBe('created');
    const on8 = gh.comments('octo', 'shop', 8);
    expect(on8).toHaveLength(2);
    expect(on8[0]?.edits).toBe(0);
    expect(on8[0]?.user.login).toBe('mallory');
    expect(gh.violations).toEqual([]);
  });

  it('keeps the results when the comment cannot be posted (403), and says so', async () => {
    gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 403, body: { message: 'Resource not accessible by integration' } });
    const run = await check();
    expect(run.outputs['comment-status']).toBe('failed');
    expect(run.stdout).toContain(
      "::warning::comment: not posted: GitHub answered 403 Resource not accessible by integration: the job's token lacks the pull-requests: write permission; add it to the workflow's permissions. The results are in the job summary; the artifact was not uploaded (see the warning above).",
    );
    // No artifact service here: the log has just said so, and the warning does not name an artifact that is not there.
    expect(run.stdout).toMatch(/::warning::artifact agent-replay-results-\S+ not uploaded: no artifact service here[^]*::warning::comment: not posted/);
    expect(run.stdout).not.toMatch(/::warning::.*\/repos\/octo/); // not the raw request line
    expect(existsSync(run.outputs['results-path'] as string)).toBe(true);
    expect(run.summary).toContain('refund-policy');
    expect(run.code).toBe(1); // the gate still decides
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(0);
  });

  it('past the 3,000 comments it reads, without its own among them: posts none (each run would post another), says why in a warning, keeps the results', async () => {
    // Pages of one comment: the 30 pages read (src/github/api.ts, MAX_COMMENT_PAGES) end before the
    // 31st comment, as 30 pages of 100 end before the 3,001st.
    gh.maxPerPage = 1;
    gh.addComments('octo', 'shop', 7, 31, { login: 'bob', type: 'User' });
    const run = await check({ inputs: { 'fail-on': 'none' } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['comment-status']).toBe('failed');
    expect(run.stdout).toContain(
      '::warning::comment: not posted: pull request #7 has more than 3,000 comments and agent-replay reads its oldest 3,000 (where its comment is, written at the first check): its comment is not among them, so no new one was posted (each run would post another). The results are in the job summary; the artifact was not uploaded (see the warning above).',
    );
    expect(gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql')).toEqual([]);
    expect(gh.comments('octo', 'shop', 7).filter((c) => c.user.login === 'github-actions[bot]')).toEqual([]);
    expect(existsSync(run.outputs['results-path'] as string)).toBe(true);
    expect(run.summary).toContain('refund-policy');
    expect(gh.violations).toEqual([]);
  });

  it('skips the comment on a fork pull request (read-only token) and keeps everything else', async () => {
    const run = await check({ payload: pullPayload({ headRepo: 'stranger/shop' }) });
    expect(run.outputs['comment-status']).toBe('skipped-fork');
    expect(gh.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(run.summary).toContain('refund-policy');
  });

  it('a preview whose agent is not there fails the default gate as Not verified: grey headline, its cause, verified false', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const closed = `http://127.0.0.1:${port}/api/chat`;
    const run = await check({ inputs: { 'agent-url': closed } });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ errored: '3', gate: 'failed', verified: 'false' });
    expect(run.stdout).toContain(`::error::agent-replay gate failed: not verified: 3 errored (all 3: connection refused at ${closed}: `);
    const body = gh.comments('octo', 'shop', 7)[0]?.body as string;
    expect(body).toContain('### ⚪ Not verified: 3 errored\n**Cause**: all 3\\: connection refused at `' + closed + '`');
    expect(body).not.toContain('🔴');
    expect(run.summary).toContain('### ⚪ Not verified: 3 errored');
    // The lenient gate passes the same run, and still says it was not verified (the gate of its record:
    // the outputs are the gate's, src/action/publish.ts setRunOutputs).
    const lenient = gateRun(parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'results.json'), ['newly_failing']);
    expect({ failed: lenient.failed, verified: lenient.verification.verified }).toEqual({ failed: false, verified: false });
  });

  it('passes the gate with fail-on none and reports comment: false as skipped', async () => {
    const run = await check({ inputs: { 'fail-on': 'none', comment: 'false' } });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ gate: 'passed', 'comment-status': 'skipped' });
    expect(gh.requests).toHaveLength(0);
  });

  it('above the cost cap spends nothing, comments how to confirm, and fails; the confirm-cost label runs it', async () => {
    const before = agent.requests.length;
    const refused = await check({ inputs: { 'cost-cap': '0.01' } });
    expect(agent.requests.length).toBe(before);
    expect(refused.code).toBe(1);
    expect(refused.outputs).toMatchObject({ 'estimated-cost': '0.060', gate: 'failed', verified: 'false', 'comment-status': 'created' });
    expect(refused.stdout).toContain('::error::estimated cost $0.06 is above the cap $0.01; nothing was spent.');
    // Word for word as docs/troubleshooting.md ("Cost") quotes it, its amounts the page's <usd> and <cap>.
    const quoted = 'estimated cost <usd> is above the cap <cap>; nothing was spent. Apply the confirm-cost label or set confirm-cost: true to run it.';
    expect(readFileSync('docs/troubleshooting.md', 'utf8')).toContain(`\`${quoted}\``);
    expect(refused.stdout).toContain(`::error::${quoted.replace('<usd>', '$0.06').replace('<cap>', '$0.01')}`);
    const body = gh.comments('octo', 'shop', 7)[0]?.body as string;
    expect(body).toContain('confirm-cost');
    // The cap came from the cost-cap input, which overrides config.yml: that is what raises it.
    expect(body).toContain('Or raise the cap (the `cost-cap` input in the workflow file).');
    expect(body).not.toContain('cost.capUsd');
    // The label as the repository spells it (GitHub's label names ignore case) confirms the run.
    const confirmed = await check({ inputs: { 'cost-cap': '0.01', 'fail-on': 'none' }, payload: pullPayload({ labels: ['Confirm-Cost'] }) });
    expect(confirmed.code).toBe(0);
    expect(agent.requests.length).toBeGreaterThan(before);
    const record = parseRecord(readFileSync(confirmed.outputs['results-path'] as string, 'utf8'), 'r');
    expect(record.estimate).toMatchObject({ aboveCap: true, confirmed: true });
  });

  it('above the cap, a confirm-label holding a line break is named on the failure\'s one line, quoted, as the accept label is (labelWord)', () => {
    // The refusal end to end, with the default label: the test above. How the label is named is capRefusalFailure's.
    const failure = capRefusalFailure({ usd: 0.06, capUsd: 0.01 }, 'confirm\n::error::x');
    expect(failure).toBe('estimated cost $0.06 is above the cap $0.01; nothing was spent. Apply the "confirm\\n::error::x" label or set confirm-cost: true to run it.');
    expect(failure).not.toContain('\n');
    expect(capRefusalFailure({ usd: 0.06, capUsd: 0.01 }, 'confirm-cost')).toContain('Apply the confirm-cost label or');
  });

  it('above a cap set in config.yml, the comment names the config file of the dir input, as the suite has it (capSource)', () => {
    // The refusal end to end, its cap from the cost-cap input: the test above. Which setting it names is capSource's.
    const env = (vars: Record<string, string>) => envInputGetter(Object.fromEntries(Object.entries(vars).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])));
    const fromConfig = capSource(readInputs(env({ dir: 'packages/bot/.agent-replay' })), 'config.yml');
    expect(fromConfig).toEqual({ dir: 'packages/bot/.agent-replay', file: 'config.yml', fromInput: false });
    const estimate = { usd: 0.06, capUsd: 0.01, aboveCap: true, confirmed: false };
    expect(renderCapRefusal(estimate, 3, 0, reportCtx, 0, 0, fromConfig)).toContain('Or raise the cap (`cost.capUsd` in `packages/bot/.agent-replay/config.yml`).');
    // A suite whose file is config.yaml (Suite.configName, docs/configuration.md): that file is named, not a config.yml it does not have.
    expect(renderCapRefusal(estimate, 3, 0, reportCtx, 0, 0, capSource(readInputs(env({ dir: 'bot' })), 'config.yaml'))).toContain('Or raise the cap (`cost.capUsd` in `bot/config.yaml`).');
    expect(capSource(readInputs(env({ dir: 'packages/bot/.agent-replay', 'cost-cap': '0.01' })), 'config.yml')).toEqual({ dir: 'packages/bot/.agent-replay', file: 'config.yml', fromInput: true });
  });

  it('reports configuration errors with file and line, in the log and the comment, and sends nothing', async () => {
    const before = agent.requests.length;
    const run = await check({
      fixtures: 'fixtures:\n  - { label: ok, message: hi }\n  - { label: "bad label!", message: hi }\n  - { label: x, mesage: hi }\n',
      inputs: { 'judge-base-url': 'judge.example/v1' },
    });
    expect(agent.requests.length).toBe(before);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/::error file=\.agent-replay\/fixtures\/suite\.yml,line=3[^:]*::/);
    // An input's error is in no file of the repository: its annotation names none, its text the Action's inputs.
    expect(run.stdout).toContain('::error::the Action\'s inputs: judge base URL "judge.example/v1" has no scheme (http:// or https://)');
    expect(run.stdout).toMatch(/::error file=\.agent-replay\/fixtures\/suite\.yml,line=4[^:]*::/);
    expect(run.stdout).toContain('configuration errors in .agent-replay; nothing was sent to the agent');
    const body = gh.comments('octo', 'shop', 7)[0]?.body as string;
    expect(body).toContain('configuration errors');
    expect(body).toContain('suite.yml:3');
    expect(gh.violations).toEqual([]);
  });

  it('rejects a bad input value naming the allowed set, before anything is sent', async () => {
    const before = agent.requests.length;
    // Started end to end: an input refused before any mode runs (src/main.ts's reportFailure, the exit status).
    const run = await check({ inputs: { mode: 'deploy' }, start: true });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::agent-replay: input mode: "deploy" is not allowed; use one of: check, accept, report');
    expect(agent.requests.length).toBe(before);
  });
});

describe('check mode on workflow_dispatch (started by the accept flow on the branch)', () => {
  /** A dispatched check: started end to end by the first test (`start`), the Action's run in this process for the others. */
  async function dispatched(ref: string, sha: string, start = false) {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG, baselines: BASELINES });
    return (start ? runAction : runActionHere)({
      gh,
      workspace,
      inputs: { 'agent-url': agent.url, 'fail-on': 'none' },
      event: { name: 'workflow_dispatch', payload: { ref, inputs: {}, workflow: '.github/workflows/agent-replay.yml', sender: { login: 'github-actions[bot]', type: 'Bot' } } },
      env: { AGENT_TOKEN: 's3cr3t-agent-token', GITHUB_SHA: sha, GITHUB_REF: ref },
    });
  }

  // The branch moved after the dispatch (its head 1111111, the commit checked out 3333333): the
  // pull request is still found from the branch, and what is replayed, recorded, named and
  // commented is the commit checked out, with a warning that names both.
  it('finds the pull request from the branch, replays the commit checked out and comments on it; says so when the branch moved after the dispatch', async () => {
    const MOVED = '3'.repeat(40);
    const run = await dispatched('refs/heads/feature', MOVED, true);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const list = gh.requests.find((r) => r.method === 'GET' && r.path === '/repos/octo/shop/pulls');
    expect(list?.query).toMatchObject({ head: 'octo:feature', state: 'open' });
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(parseCommentMetadata(comments[0]!.body)).toMatchObject({ headSha: MOVED, runId: '1001', artifactName: `agent-replay-results-${MOVED}` });
    expect(parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'results.json').commit).toBe(MOVED);
    expect(run.outputs['comment-status']).toBe('created');
    expect(run.stdout).toContain('workflow_dispatch on feature: pull request #7');
    expect(run.stdout).toContain('::warning::workflow_dispatch on feature: this run checked out 3333333, but the head of #7 is now 1111111');
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  it('the confirm-cost label of the pull request found counts', async () => {
    const aboveCap = async () => {
      const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG.replace('capUsd: 1', 'capUsd: 0.001'), baselines: BASELINES });
      return runActionHere({
        gh,
        workspace,
        inputs: { 'agent-url': agent.url, 'fail-on': 'none' },
        event: { name: 'workflow_dispatch', payload: { ref: 'refs/heads/feature', inputs: {} } },
        env: { AGENT_TOKEN: 's3cr3t-agent-token', GITHUB_SHA: HEAD, GITHUB_REF: 'refs/heads/feature' },
      });
    };
    const refused = await aboveCap();
    expect(refused.code).toBe(1);
    expect(refused.outputs.passed).toBeUndefined();
    gh.setLabels('octo', 'shop', 7, ['confirm-cost']);
    const confirmed = await aboveCap();
    expect(confirmed.code, confirmed.stdout).toBe(0);
    expect(confirmed.outputs.passed).toBe('2');
  });

  it('with no open pull request for the branch: no comment, the results stay in the summary', async () => {
    const run = await dispatched('refs/heads/elsewhere', '2'.repeat(40));
    expect(run.code, run.stdout).toBe(0);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(0);
    expect(run.stdout).toContain('workflow_dispatch on elsewhere: no open pull request has this branch as its head');
    expect(run.outputs['comment-status']).toBe('skipped');
    expect(run.summary).not.toBe('');
  });
});


describe('check mode with a GitHub App token as github-token', () => {
  it('GraphQL down while the token\'s identity is looked up: the one comment is not duplicated; the run says so and keeps its results, the next run updates it', async () => {
    const defaultGh = gh;
    gh = await startFakeGitHub({ viewer: { login: 'agent-replay-app[bot]', type: 'Bot' }, graphqlViewerLogin: 'agent-replay-app' });
    try {
      gh.addPull('octo', 'shop', { number: 7, headSha: HEAD });
      const first = await check({ inputs: { 'fail-on': 'none' } });
      expect(first.outputs['comment-status']).toBe('created');
      gh.failNext({ path: '/graphql', operation: 'agentReplayViewer', status: 502, body: { message: 'Bad Gateway' }, times: 8 });
      const second = await check({ inputs: { 'fail-on': 'none' } });
      expect(second.code, second.stdout).toBe(0);
      expect(second.outputs['comment-status']).toBe('failed');
      expect(second.stdout).toContain('::warning::comment: not posted: GitHub answered 502 Bad Gateway: re-run the job once GitHub answers (https://www.githubstatus.com). The results are in the job summary; the artifact was not uploaded (see the warning above).');
      expect(existsSync(second.outputs['results-path'] as string)).toBe(true);
      expect(second.summary).toContain('refund-policy');
      expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
      const third = await check({ inputs: { 'fail-on': 'none' } });
      expect(third.outputs['comment-status']).toBe('updated');
      expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
      expect(gh.violations).toEqual([]);
    } finally {
      await gh.close();
      gh = defaultGh;
    }
  });
});
