// Accept mode when GitHub does not answer, and what the job summary says: the Action in a child
// process against the OpenAPI- and schema-checked fake GitHub, whose connection is dropped before a
// request is carried out (nothing happened) or after (the write landed, the answer was lost).
import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { artifactZip } from '../support/zip.js';
import { git } from '../support/fork-clone.js';
import { acceptMarker, actionContextOf, commitOnFeature, gitHubApiOf, gitHubErrorOf, HEAD, makeWorkspace, pullPayload, runActionHere, runAcceptLabel, seedPullForAccept, useServers, type ActionRun } from './harness.js';
import { acceptTrigger, afterCommitFailure, commitRefusal, deletedHeadRepoText, dispatchedLine, dispatchFailure, failureBeforeCommit, findReviewedRun, labelNotRemovedLine, labelRefusal, notDispatchedLine, otherLabelWords, repoSuiteDir, unreadBranchText } from '../../src/action/accept.js';
import { GitHubError } from '../../src/github/errors.js';
import type { Baseline } from '../../src/types.js';

const handler: AgentHandler = (req) => {
  const message = String(((req.json ?? {}) as Record<string, unknown>).message);
  if (message === 'outage') return { status: 500, json: { error: 'down' } };
  return { json: { reply: message === 'hello' ? 'Welcome to the shop!' : 'No refunds, ever.', route: { conversation: message, stage: 'answer' } } };
};
const FIXTURES = `fixtures:
  - { label: greeting, message: hello, assert: { contains: Welcome } }
  - { label: refund-policy, message: refund }
  - { label: order-status, message: outage }
`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';
const REFUND: Baseline = { label: 'refund-policy', reply: 'Refunds within 30 days.', route: { conversation: 'refund', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) };
const COMMIT_OPERATION = 'agentReplayCommit';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(handler, seedPullForAccept, (a, g) => {
  agent = a;
  gh = g;
});

/** The check run, made once for the file: its comment, results and artifact name. */
let checked: { comments: string[]; results: string; artifact: string } | null = null;

/**
 * The reviewed check run on this test's fake GitHub: its comment, workflow run 1001 and results
 * artifact. The check is the Action's run in this process (runActionHere): test/action/check.test.ts
 * starts its path end to end (docs/contributing.md, "One Action start per path").
 */
async function reviewedCheck(): Promise<void> {
  if (checked === null) {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG, baselines: [REFUND] });
    const run = await runActionHere({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(run.code, run.stdout).toBe(0);
    checked = {
      comments: gh.comments('octo', 'shop', 7).map((c) => c.body),
      results: readFileSync(run.outputs['results-path'] as string, 'utf8'),
      artifact: run.outputs['artifact-name'] as string,
    };
  } else {
    for (const body of checked.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
  }
  gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
  gh.addArtifact('octo', 'shop', 1001, { name: checked.artifact, zip: await artifactZip([{ name: 'results.json', data: checked.results }]) });
}

/**
 * The accept job on the label: started end to end by the first test (`start`, a commit whose
 * connection drops, refused), the Action's run in this process for the others (runActionHere): the
 * ways an accept job ends are started in test/action/accept.test.ts.
 */
function accept(env: Record<string, string> = {}, inputs: Record<string, string> = {}, start = false): Promise<ActionRun> {
  return runAcceptLabel(gh, { env, inputs, here: !start });
}

/** Our comment, with markdown backslash escapes removed so assertions read like the rendered text. */
const ourComment = (): string => (gh.comments('octo', 'shop', 7).find((c) => c.user.login === gh.viewer.login)?.body ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1');
const commitRequests = (): number => gh.requests.filter((r) => r.operationName === COMMIT_OPERATION).length;

// A warning about a GitHub call says it in words, with the fix: a label GitHub refuses to remove
// (403) on the start of the comment update that fails after the commit, and a notice GitHub does
// not take (403) on the start of the 403 before the commit (both below), not a start each
// (docs/contributing.md, "Speed").

describe('the connection to GitHub fails during the baseline commit', () => {
  it('dropped before GitHub carried it out, every try: the failure says the branch is unchanged, the results are kept, and to re-run the job', async () => {
    await reviewedCheck();
    const before = gh.comments('octo', 'shop', 7)[0]!.body;
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', times: 10 });
    const run = await accept({}, {}, true);
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.branch('octo/shop', 'feature')?.head).toBe(HEAD);
    expect(commitRequests()).toBe(4); // the first try and plugin-retry's three
    const said =
      'GitHub\'s API closed the connection without answering (UND_ERR_SOCKET) while committing the baselines, and the branch feature still points at 1111111, the reviewed head, so nothing was written. ' +
      'The reviewed results are kept (workflow run 1001 and its results artifact): re-run this job, or apply the label again, to commit them.';
    expect(run.stdout).toContain(`::error::baselines not accepted: ${said}`);
    expect(run.stdout).not.toContain('POST /graphql'); // not the raw request line
    expect(ourComment()).toContain(`**Baselines not accepted.** ${said}`);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toContain(before.split('\n').slice(2).join('\n').trim()); // the report and its metadata kept
    expect(run.outputs['commit-sha']).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });

  it('dropped after GitHub made the commit: the retry finds the branch moved by that very commit, and the acceptance goes on as made', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', after: true });
    const run = await accept();
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    const oid = gh.commits[0]!.oid;
    expect(gh.branch('octo/shop', 'feature')?.head).toBe(oid);
    expect(run.outputs).toMatchObject({ accepted: 'greeting,refund-policy', 'commit-sha': oid });
    expect(run.stdout).not.toContain('nothing was written');
    expect(ourComment()).toContain(`Baselines accepted in [\`${oid.slice(0, 7)}\`](https://github.com/octo/shop/commit/${oid})`);
    expect(ourComment()).not.toContain('Baselines not accepted');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('dropped after GitHub made the commit, and someone pushed on top of it before the read-back: still found, still accepted', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', after: true, then: () => gh.pushOnTop('octo/shop', 'feature', '4'.repeat(40)) });
    const run = await accept();
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    const oid = gh.commits[0]!.oid;
    expect(gh.branch('octo/shop', 'feature')?.head).toBe('4'.repeat(40));
    expect(run.outputs['commit-sha']).toBe(oid);
    expect(run.stdout).toContain(`the baseline commit ${oid.slice(0, 7)} is on the branch feature, and 4444444 was pushed on top of it since: it landed`);
    expect(run.stdout).not.toContain('nothing was written');
    expect(gh.violations).toEqual([]);
  });

  it('dropped after GitHub made the commit, and more commits pushed on top than are read back: the refusal says it cannot know, and how to check', async () => {
    await reviewedCheck();
    const pushes = (): void => {
      for (let i = 0; i < 21; i++) gh.pushOnTop('octo/shop', 'feature', (0xc0 + i).toString(16).repeat(20));
    };
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', after: true, then: pushes });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(1);
    expect(run.stdout).not.toContain('nothing was written.');
    expect(run.stdout).toContain(
      `::error::baselines not accepted: GitHub said the branch feature moved while the baselines were being committed, and the branch feature is now at d4d4d4d, more than 20 commits past the reviewed head 1111111 (only the newest 20 are read back), so whether the baseline commit landed under them is unknown. Look at the branch's history (git log feature): if a commit "${gh.commits[0]!.headline}" on 1111111 is there, the baselines are in; if not, nothing was written: wait for the check on the new head`,
    );
    expect(gh.violations).toEqual([]);
  });

  it('dropped, and meanwhile someone else pushed: nothing of ours was written, and the refusal says to wait for the check on the new head', async () => {
    await reviewedCheck();
    // Moved after the job read the pull request (GitHub's pull request follows its branch).
    gh.onNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', then: () => gh.moveBranch('octo/shop', 'feature', '3'.repeat(40)) });
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', times: 10 });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toContain(
      '::error::baselines not accepted: GitHub\'s API closed the connection without answering (UND_ERR_SOCKET) while committing the baselines, and the branch feature has moved to 3333333 since the reviewed head 1111111 (another push), so nothing was written. Wait for the check on the new head, review its comment, then apply the label again.',
    );
    expect(gh.violations).toEqual([]);
  });

  it('dropped, and the branch cannot be read back either: the failure says it is unknown whether the commit landed, and how to tell', async () => {
    await reviewedCheck();
    // The commit and the read-back alike.
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 'network', times: 20 });
    gh.failNext({ method: 'POST', path: '/graphql', operation: 'agentReplayBranchHistory', status: 'network', times: 20 });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error::baselines not accepted: GitHub\'s API closed the connection without answering (UND_ERR_SOCKET) while committing the baselines, and the branch feature could not be read back: GitHub\'s API closed the connection without answering (UND_ERR_SOCKET). Whether the commit landed is unknown. ' +
        'Look at the branch: if its newest commit is "Accept agent-replay baselines: greeting, refund-policy", the baselines are in and the next check compares with them; if not, nothing was written: re-run this job, or apply the label again. The reviewed results are kept (workflow run 1001 and its results artifact).',
    );
    expect(gh.violations).toEqual([]);
  });

  it('a server error (502) on every try: said as GitHub\'s answer, with the branch unchanged', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'POST', path: '/graphql', operation: COMMIT_OPERATION, status: 502, times: 10, body: { message: 'Bad Gateway' } });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toContain('::error::baselines not accepted: GitHub answered 502 Bad Gateway while committing the baselines, and the branch feature still points at 1111111, the reviewed head, so nothing was written.');
    expect(gh.violations).toEqual([]);
  });
});

describe('the connection to GitHub fails at another step of accept mode', () => {
  it('before the commit (reading the pull request): nothing was written, the results are kept, re-run the job', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', status: 'network', times: 10 });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toContain(
      '::error::baselines not accepted: GitHub\'s API closed the connection without answering (UND_ERR_SOCKET) while reading pull request #7, before anything was committed: the branch feature is unchanged and the reviewed results are kept (workflow run 1001 and its results artifact). Re-run this job, or apply the label again.',
    );
    expect(run.stdout).not.toContain('::error::agent-replay: GET /repos');
    expect(gh.violations).toEqual([]);
  });

  it('a 403 before the commit (the token may not read the permission): said with the permissions the accept job needs; a notice GitHub does not take (403 on the comment): the permission to give, never the request line', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/collaborators/{username}/permission', status: 403, body: { message: 'Resource not accessible by integration' } });
    // The same token may not write the comment either: the refusal's notice is not added.
    gh.failNext({ method: 'PATCH', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}', status: 403, times: 5, body: { message: 'Resource not accessible by integration' } });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toContain(
      '::error::baselines not accepted: GitHub answered 403 Resource not accessible by integration while checking the permission of the user who applied the label, before anything was committed: the branch feature is unchanged and the comment and the results artifact of the check run are as they were. Give the accept job the permissions of the accept workflow in the documentation (contents: write, pull-requests: write, actions: write), then apply the label again.',
    );
    expect(run.stdout).toContain(
      "::warning::comment: the notice was not added: GitHub answered 403 Resource not accessible by integration: the job's token lacks the pull-requests: write permission; add it to the workflow's permissions",
    );
    expect(run.stdout).not.toContain('PATCH /repos');
    expect(gh.violations).toEqual([]);
  });

  it('a 404 before the commit (the pull request, or the run\'s artifacts, gone or out of the token\'s sight): said with the step, the state and the fix, in the log and the comment, never the request line', async () => {
    await reviewedCheck();
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', status: 404, body: { message: 'Not Found' } });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    const said =
      'GitHub answered 404 Not Found while downloading the results artifact of workflow run 1001, before anything was committed: the branch feature is unchanged and the reviewed results are kept (workflow run 1001 and its results artifact). ' +
      "GitHub answers 404 for what is gone and for what the job's token cannot see: give the accept job the permissions of the accept workflow in the documentation (contents: write, pull-requests: write, actions: write), then re-run this job or apply the label again.";
    expect(run.stdout).toContain(`::error::baselines not accepted: ${said}`);
    expect(run.stdout).not.toMatch(/::error::.*\/repos\/octo/);
    expect(ourComment()).toContain(`**Baselines not accepted.** ${said}`);
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(run.summary).toContain('baselines not accepted');
    expect(gh.violations).toEqual([]);
  });

  it('after the commit (updating the comment): the baselines are committed, the job passes and says the comment was not updated; a label GitHub refuses to remove (403): the permission to give, never the request line', async () => {
    await reviewedCheck();
    const before = gh.comments('octo', 'shop', 7)[0]!.body;
    gh.failNext({ method: 'PATCH', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}', status: 'network', times: 10 });
    gh.failNext({ method: 'DELETE', path: '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}', status: 403, times: 5, body: { message: 'Resource not accessible by integration' } });
    const run = await accept();
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    // The baselines are in; the label is only left.
    expect(gh.labels('octo', 'shop', 7)).toEqual(['accept-baseline']);
    expect(run.stdout).toContain(
      "::warning::label accept-baseline not removed from #7: GitHub answered 403 Resource not accessible by integration: the job's token lacks the pull-requests: write permission; add it to the workflow's permissions, or remove the label by hand",
    );
    expect(run.stdout).not.toContain('DELETE /repos');
    expect(gh.violations).toEqual([]);
    const short = gh.commits[0]!.oid.slice(0, 7);
    expect(run.outputs['commit-sha']).toBe(gh.commits[0]!.oid);
    expect(run.stdout).toContain(`::warning::accept: the baselines were committed in ${short}, but the comment could not be updated: GitHub's API closed the connection without answering (UND_ERR_SOCKET); it still shows the reviewed run until the next check replaces it.`);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(before);
    expect(run.summary).toContain(`Committed 2 baselines in [\`${short}\`]`);
    expect(run.summary).toContain('The comment could not be updated');
  });
});

describe('the job summary says what the label did', () => {
  // A commit's summary and the label again on the accepted head's are asserted on the starts of
  // test/action/accept.test.ts's first test, which commits and then applies the label again on the
  // head it made; a fork's, on its fork test's start: not a start each here (docs/contributing.md,
  // "Speed").
  it('a refusal: the reason, its untrusted text escaped (GitHub\'s answer quoting a mention, HTML, an issue) and no token', async () => {
    await reviewedCheck();
    gh.refuseCommits('octo/shop', 'feature', { type: 'UNPROCESSABLE', message: `Rule violation: ask @security-team <img src=x onerror=alert(1)> (see #12), token ${gh.token}` });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(run.summary).toContain('## agent-replay accept: baselines not accepted (pull request #7)\n\nGitHub refused the commit on the branch feature \\(UNPROCESSABLE Rule violation\\: ask @&#8288;security-team &lt;img src=x onerror=alert\\(1\\)&gt; \\(see #&#8288;12\\), token \\*\\*\\*\\)\\: a branch protection rule');
    expect(run.summary).not.toContain('<img');
    expect(run.summary).not.toContain(gh.token);
  });
});

describe('a commit GitHub refuses for another reason than a rule of the branch', () => {
  // A refused commit ends the job as test/action/accept.test.ts's ruleset refusal shows end to end;
  // these answers differ in the words only (commitRefusal): GitHub's answer to the commit, read by
  // the Action's client, without a start of the Action each (docs/contributing.md, "Speed").
  it.each([
    ['a classic branch protection rule', { type: 'BRANCH_PROTECTION_RULE_VIOLATION', message: "protected branch 'feature' check failed: At least 1 approving review is required by reviewers with write access." }, 'a branch protection rule or a ruleset does not let this token push to it'],
    ['an answer about a path', { type: 'UNPROCESSABLE', message: 'A path was requested as a directory but exists as a file: .agent-replay/baselines' }, "GitHub refused the commit on the branch feature (UNPROCESSABLE A path was requested as a directory but exists as a file: .agent-replay/baselines), so nothing was written. Fix what the answer names on the branch (the baselines folder, a file in it), or run agent-replay accept in a clone of the branch and push; then apply the label again."],
  ])('%s: said as GitHub said it, with no cause it does not name', async (_name, error, said) => {
    gh.refuseCommits('octo/shop', 'feature', error);
    const refusal = commitRefusal(await gitHubErrorOf(commitOnFeature(gh)), 'feature');
    expect(refusal).toContain(said);
    if (error.type === 'UNPROCESSABLE') expect(refusal).not.toContain('ruleset');
    expect(gh.commits).toHaveLength(0);
    expect(gh.violations).toEqual([]);
  });
});

describe('the dispatch of the check after the commit, without an answer', () => {
  // A dispatch that fails ends the job as test/action/accept.test.ts's 403 shows end to end (the
  // baselines committed, the comment saying no check will run by itself); without an answer, in words
  // of its own (dispatchFailure): the failure as the Action's client meets it, without a start of the
  // Action (docs/contributing.md, "Speed").
  it('says the connection failed in words, not the raw error kind', async () => {
    gh.addWorkflow('octo', 'shop', 'agent-replay.yml');
    gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', status: 'network', times: 10 });
    const why = dispatchFailure(await gitHubErrorOf(gitHubApiOf(gh).dispatchWorkflow('octo', 'shop', 'agent-replay.yml', 'feature')), 'agent-replay.yml');
    expect(why).toBe("GitHub's API closed the connection without answering (UND_ERR_SOCKET)");
    expect(why).not.toContain('network');
    expect(gh.dispatches).toEqual([]);
  });
});

describe('the accept job\'s dir input against the reviewed run\'s suite folder', () => {
  /** The checks made in this describe, by dir input, as reviewedCheck keeps the file's one: their comments, results and artifact name. */
  const checkedIn = new Map<string, { comments: string[]; results: string; artifact: string }>();

  /** A check of the suite in `dir` (the check workflow's dir input), reviewed as run 1001. */
  async function reviewedCheckIn(dir: string): Promise<void> {
    let checked = checkedIn.get(dir);
    if (checked === undefined) {
      const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
      await mkdir(join(workspace, dir, 'fixtures'), { recursive: true });
      await writeFile(join(workspace, dir, 'fixtures', 'suite.yml'), FIXTURES);
      await writeFile(join(workspace, dir, 'config.yml'), CONFIG);
      const check = await runActionHere({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none', dir }, event: { name: 'pull_request', payload: pullPayload() } });
      expect(check.code, check.stdout).toBe(0);
      checked = { comments: gh.comments('octo', 'shop', 7).map((c) => c.body), results: readFileSync(check.outputs['results-path'] as string, 'utf8'), artifact: check.outputs['artifact-name'] as string };
      checkedIn.set(dir, checked);
    } else {
      for (const body of checked.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
    }
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
    gh.addArtifact('octo', 'shop', 1001, { name: checked.artifact, zip: await artifactZip([{ name: 'results.json', data: checked.results }]) });
  }

  // A refusal for want of the comment takes the way test/action/accept.test.ts's past 3,000
  // comments shows end to end; its words here are findReviewedRun's, on the comments the Action's
  // client reads, without a start of the Action (docs/contributing.md, "Speed").
  it('refuses to commit into a folder the suite is not in, naming the folder to set', async () => {
    await reviewedCheckIn('tests/agent');
    // dir: the default, .agent-replay
    await expect(findReviewedRun(gitHubApiOf(gh), { owner: 'octo', repo: 'shop' }, 7, acceptMarker())).rejects.toHaveProperty(
      'message',
      // The comment's key names the suite's folder (docs/action.md, "Two suites in one repository"): the accept job's is another.
      "there is no agent-replay comment for the suite in .agent-replay (the accept job's dir input) on this pull request, only for the suite in tests/agent: set the dir input of the accept job to tests/agent (as the check workflow's), or, when the check of .agent-replay has not commented yet, let it finish and review its comment; then apply the label again.",
    );
    expect(gh.violations).toEqual([]);
  });

  it.each([
    ['tests/agent', 'tests/agent/baselines/'],
    ['.', 'baselines/'],
  ])('commits into the suite folder when the dir inputs agree (%s)', async (dir, at) => {
    await reviewedCheckIn(dir);
    const run = await accept({}, { dir });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits[0]!.additions.map((a) => a.path).sort()).toEqual([`${at}greeting.json`, `${at}refund-policy.json`]);
  });
});

describe('the accept job\'s dir input against the suitePath the reviewed run recorded', () => {
  async function reviewedCheckIn(dir: string): Promise<void> {
    const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
    git(workspace, 'init', '-q');
    await mkdir(join(workspace, dir, 'fixtures'), { recursive: true });
    await writeFile(join(workspace, dir, 'fixtures', 'suite.yml'), FIXTURES);
    await writeFile(join(workspace, dir, 'config.yml'), CONFIG);
    const check = await runActionHere({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none', dir }, event: { name: 'pull_request', payload: pullPayload() } });
    expect(check.code, check.stdout).toBe(0);
    const results = readFileSync(check.outputs['results-path'] as string, 'utf8');
    expect(JSON.parse(results).suitePath).toBe(dir);
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
    gh.addArtifact('octo', 'shop', 1001, { name: check.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: results }]) });
  }

  it('refuses another suite folder of the same name, and commits into the one the run recorded', async () => {
    await reviewedCheckIn('apps/a/.agent-replay');
    // The accept job of dir apps/b/.agent-replay: findReviewedRun's refusal (no start of its own, as above).
    await expect(findReviewedRun(gitHubApiOf(gh), { owner: 'octo', repo: 'shop' }, 7, acceptMarker({ dir: 'apps/b/.agent-replay' }))).rejects.toThrow(
      "there is no agent-replay comment for the suite in apps/b/.agent-replay (the accept job's dir input) on this pull request, only for the suite in apps/a/.agent-replay: set the dir input of the accept job to apps/a/.agent-replay (as the check workflow's)",
    );
    const run = await accept({}, { dir: 'apps/a/.agent-replay' });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits[0]!.additions.map((a) => a.path).sort()).toEqual(['apps/a/.agent-replay/baselines/greeting.json', 'apps/a/.agent-replay/baselines/refund-policy.json']);
  });
});

describe('a pull request whose head repository was deleted', () => {
  it('refuses: no one can push to its branch, so no commands to run in a clone of it', async () => {
    await reviewedCheck();
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: null });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    const said =
      "the head repository of pull request #7 was deleted, so no one can push to its branch feature and nothing was written. The reviewed results are kept (workflow run 1001 and its results artifact): to keep these replies as baselines, push the pull request's changes to a branch of a repository that exists, open a pull request from it, and accept its check.";
    expect(run.stdout).toContain(`::error::baselines not accepted: ${said}`);
    expect(ourComment()).toContain(said.slice(said.indexOf('was deleted'))); // after "#7", which the comment escapes
    expect(ourComment()).not.toContain('git push');
    expect(run.summary).toContain('baselines not accepted');
    expect(gh.violations).toEqual([]);
  });
});

describe('the dir input of accept mode', () => {
  it('outside the repository is refused, the input quoted on the failure\'s one line', () => {
    expect(repoSuiteDir('bots/shop/')).toBe('bots/shop');
    expect(() => repoSuiteDir('../a')).toThrow('the dir input "../a" must be a relative path inside the repository');
    // A line break and an escape sequence shown, as the step's failure and the comment show them.
    expect(() => repoSuiteDir('../a\nb\u001b[2J')).toThrow(String.raw`the dir input "../a ⏎ b\u001b[2J" must be a relative path inside the repository`);
  });
});

describe('a GitHub failure before the commit', () => {
  it("names the step's suite folder and the branch on the failure's one line", () => {
    const e = new GitHubError({ request: 'GET /repos/octo/shop/contents/x', status: 403, kind: 'forbidden', detail: 'Resource not accessible by integration' });
    // The dir input in the step, a U+2028 in the branch (git allows it in a ref name): log.failed wrote each as a line break.
    const said = failureBeforeCommit(e, 'reading the stored baselines of apps/a\nb/baselines at 1234567', 'feature\u2028x', null);
    expect(said).toContain('while reading the stored baselines of apps/a ⏎ b/baselines at 1234567, before anything was committed: the branch feature ⏎ x is unchanged and');
    for (const c of ['\n', '\u2028']) expect(said).not.toContain(c);
  });
});

describe('the branch and the label in the log and the refusals, each on its one line', () => {
  // git allows U+2028 in a ref name (and GitHub in a label's): log.info, log.warning and log.failed wrote each as a line break.
  const BRANCH = 'feature\u2028x\u001b[2J';
  const SHOWN = String.raw`feature ⏎ x\u001b[2J`;
  const oneLine = (text: string): void => {
    for (const c of ['\n', '\u2028', '\u001b']) expect(text).not.toContain(c);
  };

  it('the check workflow dispatched on the branch after the commit, or not, and why', () => {
    expect(dispatchedLine('agent-replay.yml', BRANCH, null)).toBe(`accept: dispatched agent-replay.yml on ${SHOWN}`);
    expect(dispatchedLine('agent-replay.yml', 'feature', 'https://github.com/octo/shop/actions/runs/5')).toBe('accept: dispatched agent-replay.yml on feature (https://github.com/octo/shop/actions/runs/5)');
    const why = dispatchFailure(new GitHubError({ request: 'POST /repos/octo/shop/actions/workflows/agent-replay.yml/dispatches', status: 403, kind: 'forbidden', detail: 'Resource not accessible by integration' }), 'agent-replay.yml');
    const not = notDispatchedLine('2222222', 'agent-replay.yml', BRANCH, why);
    expect(not).toBe(`accept: the baselines were committed in 2222222, but the check workflow agent-replay.yml was not dispatched on ${SHOWN}: ${why}`);
    oneLine(not);
  });

  it('the refusals of a commit GitHub refused, of a deleted head repository, of a branch not read back', () => {
    const answer = (kind: 'forbidden' | 'not_found', status: number): GitHubError => new GitHubError({ request: 'POST /graphql createCommitOnBranch', status, kind, detail: 'Resource not accessible by integration' });
    const said = [
      commitRefusal(answer('forbidden', 403), BRANCH) ?? '',
      commitRefusal(answer('not_found', 404), BRANCH) ?? '',
      deletedHeadRepoText(7, BRANCH, 1001),
      unreadBranchText('GitHub answered 502 Bad Gateway while committing the baselines', BRANCH, new GitHubError({ request: 'POST /graphql agentReplayBranchHistory', status: 502, kind: 'server', detail: 'Bad Gateway' }), 'h', 'kept'),
    ];
    expect(said[0]).toContain(`GitHub refused the commit on the branch ${SHOWN} (403 `);
    expect(said[1]).toContain(`GitHub found no branch ${SHOWN} to commit to (404 `);
    expect(said[2]).toContain(`no one can push to its branch ${SHOWN} and nothing was written`);
    expect(said[3]).toContain(`and the branch ${SHOWN} could not be read back: GitHub answered 502 Bad Gateway.`);
    for (const text of said) oneLine(text);
  });

  it('the branch read back after the commit said it moved: the refusal and the landed line', async () => {
    const api = gitHubApiOf(gh);
    const moved = new GitHubError({ request: 'POST /graphql createCommitOnBranch', status: null, kind: 'conflict', detail: 'Expected branch to point to 1111111' });
    const message = { headline: 'Accept agent-replay baselines: greeting', body: 'Accepted the replies recorded at 1111111 (workflow run 1001):\n\n- greeting (pass)' };
    const target = { repoWithOwner: 'octo/shop', branch: BRANCH, serverUrl: 'https://github.com', onto: HEAD };
    const found = { headSha: HEAD, runId: 1001 };
    gh.setBranch('octo/shop', BRANCH, HEAD);
    const refused = await afterCommitFailure(api, moved, target, found, message).then(
      () => 'committed',
      (e: unknown) => (e as Error).message,
    );
    expect(refused).toBe(
      `GitHub said the branch ${SHOWN} moved while the baselines were being committed, and the branch ${SHOWN} still points at 1111111, the reviewed head, so nothing was written. The reviewed results are kept (workflow run 1001 and its results artifact): re-run this job, or apply the label again, to commit them.`,
    );
    // The commit did land (a retry's answer was the conflict): said in the step's log.
    gh.pushOnTop('octo/shop', BRANCH, '3'.repeat(40), message.headline, { body: message.body });
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
      return true;
    });
    try {
      expect((await afterCommitFailure(api, moved, target, found, message)).oid).toBe('3'.repeat(40));
    } finally {
      vi.restoreAllMocks();
    }
    expect(lines).toEqual([`accept: GitHub said the branch ${SHOWN} moved while the baselines were being committed, but the baseline commit 3333333 is on the branch ${SHOWN}: it landed`]);
  });

  it('another label applied: its name quoted on the warning\'s one line, a U+2028 in it as its escape; the workflow file named when GITHUB_WORKFLOW_REF says it', async () => {
    const ctx = await actionContextOf('pull_request_target', pullPayload({ action: 'labeled', label: 'needs\u2028review', sender: 'maintainer' }));
    const trigger = acceptTrigger('accept-baseline', ctx);
    expect(trigger).toMatchObject({ otherLabel: 'needs\u2028review', pull: { number: 7 }, file: null });
    const warning = 'warning' in trigger ? trigger.warning : '';
    expect(warning).toBe(
      String.raw`the job ran for the label "needs\u2028review", applied to pull request #7, but its agent-replay step accepts the accept-baseline label (its accept-label input), so nothing was done: ` +
        "the job's if: waits for another label than the step accepts, or the job has none and runs for every label; " +
        "give the accept job the if: of the step's label, if: github.event.label.name == 'accept-baseline' " +
        String.raw`(to accept with "needs\u2028review" instead, set accept-label: "needs\u2028review" on the step as well).`,
    );
    oneLine(warning);
    expect(acceptTrigger('accept-baseline', { ...ctx, workflowRef: 'octo/shop/.github/workflows/accept.yml@refs/heads/main' })).toMatchObject({ file: '.github/workflows/accept.yml' });
  });

  // The accept label (the accept-label input, which the event's label matches ignoring case) with a
  // line break and a workflow command after it: each line that names it quotes it as JSON (labelWord),
  // so it neither breaks the line nor starts a command's (was: written as it is by labelRefusal and
  // by the warning for a label not removed, the line broken and "::error::x" a line of its own).
  const LABEL = '\n::error::x';
  const QUOTED = String.raw`"\n::error::x"`;
  const noCommand = (text: string): void => {
    oneLine(text);
    expect(text).toContain(QUOTED);
  };

  it("the accept label with a line break and a command in it: the label's time compared (labelRefusal), the label not removed, another label applied", async () => {
    const api = gitHubApiOf(gh);
    gh.setLabels('octo', 'shop', 7, [LABEL]);
    const comment = gh.addComment('octo', 'shop', 7, { body: 'the report' });
    const { comments } = await api.listIssueComments('octo', 'shop', 7);
    const found = { comment: comments.find((c) => c.id === comment.id)!, runId: 1001 };
    // Updated after the label: refused, the label quoted.
    const late = (await labelRefusal(api, { owner: 'octo', repo: 'shop' }, 7, found, LABEL, 'maintainer')) ?? '';
    expect(late).toMatch(/^the comment was updated at \S+Z, after the /);
    expect(late).toContain(`, after the ${QUOTED} label was applied at `);
    noCommand(late);
    // Not on the timeline as applied by the sender: a log line, quoted too.
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
      return true;
    });
    try {
      expect(await labelRefusal(api, { owner: 'octo', repo: 'shop' }, 7, found, LABEL, 'someone')).toBeNull();
    } finally {
      vi.restoreAllMocks();
    }
    expect(lines).toEqual([`accept: the timeline of pull request #7 does not show the ${QUOTED} label applied by someone yet; the comment's last change is not compared with it`]);
    const notRemoved = labelNotRemovedLine(LABEL, 7, new GitHubError({ request: 'DELETE /repos/octo/shop/issues/7/labels/x', status: 403, kind: 'forbidden', detail: 'Resource not accessible by integration' }));
    expect(notRemoved.startsWith(`label ${QUOTED} not removed from #7: `)).toBe(true);
    noCommand(notRemoved);
    noCommand(otherLabelWords('bug', LABEL, 7, null));
    noCommand(otherLabelWords(LABEL, 'accept-baseline', 7, null));
    expect(gh.violations).toEqual([]);
  });
});
