import { describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeGitHub, type FakeGitHub, type FakeState } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { acceptMarker, actionContextOf, commitOnFeature, gitHubApiOf, gitHubErrorOf, HEAD, makeWorkspace, pullPayload, runAction, runActionHere, type ActionRun, useServers, seedPullForAccept } from './harness.js';
import { artifactZip, renameEntry } from '../support/zip.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { parseCommentMetadata } from '../../src/report/index.js';
import { metaLine } from '../../src/report/metadata.js';
import { escapeInline } from '../../src/report/escape.js';
import { capitalized } from '../../src/words.js';
import type { Baseline, RunRecord } from '../../src/types.js';
import { docsUrl } from '../../src/version.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { acceptTrigger, afterCommitFailure, commitRefusal, dispatchFailure, findReviewedRun, labelRefusal, recordRefusal, rereadRefusal, checkLastEditor, type Found } from '../../src/action/accept.js';
import { downloadRunRecord } from '../../src/action/download.js';
import { planAcceptance } from '../../src/evaluate/acceptance.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { githubHtml, visibleText } from '../report/helpers.js';

/** docs/troubleshooting.md quotes `quoted`, and `text` says it with the quote's `<...>` values as `values` gives them. */
function saidAsTroubleshootingQuotes(text: string, quoted: string, values: Record<string, string>): void {
  expect(readFileSync('docs/troubleshooting.md', 'utf8')).toContain(`\`${quoted}\``);
  expect(text).toContain(Object.entries(values).reduce((q, [name, value]) => q.replaceAll(name, value), quoted));
}

const REPLIES: Record<string, string> = { hello: 'Welcome to the shop!', refund: 'No refunds, ever.', hours: 'Open 9 to 5.', boots: 'We have boots.', big: 'A very long answer. '.repeat(1500) };
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
    seedPullForAccept(g);
    g.setPermission('octo', 'shop', 'visitor', 'read');
    g.setPermission('octo', 'shop', 'triager', 'triage');
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/**
 * Check runs already made in this file on a pull request without comments, by what decides them
 * (suite, head, run id), with the comments they posted: each test's fresh fake GitHub gets its one
 * write (the comment) again instead of a second identical run. The check is the Action's run in
 * this process (runActionHere): test/action/check.test.ts starts its path end to end
 * (docs/contributing.md, "One Action start per path").
 */
const checkRuns = new Map<string, { run: ActionRun; comments: string[] }>();

/** The check run the maintainer reviewed: comment + results artifact of run 1001. */
async function reviewedCheck(opts: { fixtures?: string; baselines?: Baseline[]; headSha?: string; runId?: number; tamper?: (text: string) => string; runStatus?: string; artifact?: 'present' | 'expired' | 'missing'; zip?: (results: string) => Promise<Buffer> } = {}): Promise<{ run: ActionRun; record: RunRecord }> {
  const key = JSON.stringify([opts.fixtures ?? FIXTURES, opts.baselines ?? [REFUND_BASELINE], opts.headSha ?? HEAD, opts.runId ?? 1001]);
  // What the check does with a comment already there (a notice to replace) is run, never replayed.
  const blank = gh.comments('octo', 'shop', 7).length === 0;
  const made = blank ? checkRuns.get(key) : undefined;
  let run: ActionRun;
  if (made === undefined) {
    const workspace = await makeWorkspace({ fixtures: opts.fixtures ?? FIXTURES, config: CONFIG, baselines: opts.baselines ?? [REFUND_BASELINE] });
    run = await runActionHere({
      gh,
      workspace,
      runId: opts.runId ?? 1001,
      inputs: { 'agent-url': agent.url, 'fail-on': 'none' },
      event: { name: 'pull_request', payload: pullPayload({ headSha: opts.headSha ?? HEAD }) },
    });
    expect(run.code, run.stdout).toBe(0);
    if (blank) checkRuns.set(key, { run, comments: gh.comments('octo', 'shop', 7).filter((c) => c.user.login === gh.viewer.login).map((c) => c.body) });
  } else {
    run = made.run;
    for (const body of made.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
  }
  const text = readFileSync(run.outputs['results-path'] as string, 'utf8');
  gh.addWorkflowRun('octo', 'shop', { id: opts.runId ?? 1001, headSha: opts.headSha ?? HEAD, status: opts.runStatus ?? 'completed', conclusion: opts.runStatus ? null : 'success' });
  // The artifact as GitHub serves it: deflated, with the pr-number file the check uploads too.
  const results = opts.tamper ? opts.tamper(text) : text;
  const zip = opts.zip ? await opts.zip(results) : await artifactZip([{ name: 'results.json', data: results }, { name: 'pr-number', data: '7\n' }]);
  if (opts.artifact !== 'missing') gh.addArtifact('octo', 'shop', opts.runId ?? 1001, { name: run.outputs['artifact-name'] as string, zip, expired: opts.artifact === 'expired' });
  return { run, record: parseRecord(text, 'results.json') };
}

/**
 * The accept job on a label. Each way it ends is started end to end once (`start`: the commit, a
 * refusal, a fork's commands, another label, the dispatch after the commit); the other jobs are the
 * Action's run in this process (runActionHere; docs/contributing.md, "One Action start per path").
 */
async function accept(opts: { sender?: string; senderType?: 'User' | 'Bot'; label?: string; headRepo?: string; event?: string; action?: string; inputs?: Record<string, string>; env?: Record<string, string>; start?: boolean } = {}): Promise<ActionRun> {
  gh.setLabels('octo', 'shop', 7, [opts.label ?? 'accept-baseline']);
  const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
  return (opts.start === true ? runAction : runActionHere)({
    gh,
    workspace,
    runId: 2002,
    workflow: 'agent-replay-accept',
    inputs: { mode: 'accept', 'comment-key': 'agent-replay', ...opts.inputs },
    ...(opts.env === undefined ? {} : { env: opts.env }),
    event: {
      name: opts.event ?? 'pull_request_target',
      payload: pullPayload({ action: opts.action ?? 'labeled', label: opts.label ?? 'accept-baseline', sender: opts.sender ?? 'maintainer', ...(opts.senderType ? { senderType: opts.senderType } : {}), headRepo: opts.headRepo }),
    },
  });
}

/** The accept job run again on the same label event: no new label is applied (the first attempt removed it). */
async function rerunAccept(): Promise<ActionRun> {
  return runActionHere({
    gh,
    workspace: await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' }),
    runId: 2002,
    workflow: 'agent-replay-accept',
    inputs: { mode: 'accept', 'comment-key': 'agent-replay' },
    event: { name: 'pull_request_target', payload: pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer' }) },
  });
}

/** Our comment, with markdown backslash escapes removed so assertions read like the rendered text. */
const ourComment = () => {
  const c = gh.comments('octo', 'shop', 7).find((x) => x.user.login === gh.viewer.login);
  return c ? { ...c, body: c.body.replace(/\\([!-/:-@[-`{-~])/g, '$1') } : undefined;
};

/**
 * Attempt 2 of the reviewed check's run: its own results artifact, and its report written over the
 * comment once the label is on, while the accept job runs (as it reads the sender's permission),
 * at `at()` (default: the fake's clock, after the label); `alongside` happens in that moment too.
 */
async function rewriteAfterLabel(check: ActionRun, opts: { at?: () => string; alongside?: () => void } = {}): Promise<void> {
  const name = check.outputs['artifact-name'] as string;
  const text = readFileSync(check.outputs['results-path'] as string, 'utf8');
  gh.addArtifact('octo', 'shop', 1001, { name: `${name}-attempt-2`, zip: await artifactZip([{ name: 'results.json', data: text }, { name: 'pr-number', data: '7\n' }]) });
  gh.onNext({
    method: 'GET',
    path: '/repos/{owner}/{repo}/collaborators/{username}/permission',
    then: () => {
      const c = gh.comments('octo', 'shop', 7)[0]!;
      gh.editComment(c.id, c.body.replace(name, `${name}-attempt-2`), opts.at?.());
      opts.alongside?.();
    },
  });
}

/** The accept job refused for the comment rewritten after the label (rewriteAfterLabel), and the fake GitHub it left: made once for the file. */
let rewriteRefused: { run: ActionRun; state: FakeState } | null = null;

/**
 * The reviewed check, its comment rewritten by attempt 2 of its run once the label is on, and the
 * accept job that this refuses: started by the first test that needs it, and given to the later
 * ones as the fake it left (FakeGitHub's state), not started again to make the same refusal.
 */
async function refusedForRewrite(): Promise<ActionRun> {
  const { run: check } = await reviewedCheck();
  if (rewriteRefused === null) {
    // Attempt 2 of the check's run rewrites the comment once the label is on, before the accept job reads the comment.
    await rewriteAfterLabel(check);
    rewriteRefused = { run: await accept(), state: gh.state() };
  } else gh.restore(rewriteRefused.state);
  return rewriteRefused.run;
}

/** The reviewed run as the accept job finds it: the check's comment, read by the Action's client. */
async function foundRun(check: ActionRun): Promise<Found> {
  const { comments } = await gitHubApiOf(gh).listIssueComments('octo', 'shop', 7);
  return { comment: comments[0]!, headSha: HEAD, runId: 1001, artifactName: check.outputs['artifact-name'] as string, acceptedSha: null, gate: null };
}

/** The refusal (or null) of the accept job that `sender`'s label started, for the comment as it is now (labelRefusal). */
async function labelRefusalNow(check: ActionRun, sender = 'maintainer'): Promise<string | null> {
  return labelRefusal(gitHubApiOf(gh), { owner: 'octo', repo: 'shop' }, 7, await foundRun(check), 'accept-baseline', sender);
}

/** The reviewed run's results artifact as the accept job reads it, and the refusal (or null) it words (recordRefusal). */
async function recordRefusalNow(check: ActionRun): Promise<string | null> {
  const found = await foundRun(check);
  return recordRefusal(await downloadRunRecord(gitHubApiOf(gh), { owner: 'octo', repo: 'shop', runId: 1001, artifact: found.artifactName }), found);
}

describe('accept mode, end to end', () => {
  it('commits exactly the reviewed pass/fail replies, refuses the rest, removes the label, updates the comment; a label applied again after the acceptance is a no-op that says so', async () => {
    const { record } = await reviewedCheck();
    const run = await accept({ start: true });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
    expect(gh.commits).toHaveLength(1);
    // The artifact was fetched as GitHub serves it: a 302 to blob storage, a deflated zip.
    const blob = gh.requests.find((r) => r.path.startsWith('/_fake/blobs/artifacts/'));
    expect(blob).toBeDefined();
    const commit = gh.commits[0]!;
    expect(commit.parent).toBe(HEAD); // expectedHeadOid = the reviewed head
    expect(commit.branch).toBe('feature');
    expect(commit.headline).toBe('Accept agent-replay baselines: greeting, refund-policy, opening-hours');
    expect(commit.body).toContain('- refund-policy (fail)');
    expect(commit.body).toContain('- hiking-boots: not evaluated (regex does not compile): fix the pattern in the fixture file named on each item; then run it again');
    expect(commit.body).toContain('- order-status: errored: no reply to accept');
    expect(commit.additions.map((a) => a.path).sort()).toEqual([
      '.agent-replay/baselines/greeting.json',
      '.agent-replay/baselines/opening-hours.json',
      '.agent-replay/baselines/refund-policy.json',
    ]);
    const refund = JSON.parse(commit.additions.find((a) => a.path.endsWith('refund-policy.json'))!.contents) as Baseline;
    const recorded = record.fixtures.find((f) => f.label === 'refund-policy')!;
    expect(refund).toMatchObject({ label: 'refund-policy', reply: recorded.reply, route: recorded.route, verdict: 'fail', commit: HEAD });
    expect(Object.keys(refund)).toEqual(['label', 'message', 'reply', 'route', 'verdict', 'latencyMs', 'acceptedAt', 'commit']);
    // The message the reply answered (docs/meaning.md, "An edited fixture").
    expect(refund.message).toBe(recorded.message);
    // label removed, outputs, comment
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(run.outputs).toMatchObject({ accepted: 'greeting,refund-policy,opening-hours', refused: 'hiking-boots,order-status', 'commit-sha': commit.oid });
    const body = ourComment()!.body;
    expect(body).toContain(commit.oid.slice(0, 7));
    // Refusals in plain sentences (report/blocks.ts refusalSentence).
    // A not evaluated item's refusal names its cause's fix: run again as it is, the pattern would not compile again.
    expect(body).toContain(
      'its check was not evaluated (regex does not compile), so there is no verdict to store: fix the pattern in the fixture file named on each item; then run it again.',
    );
    expect(body).toContain('the replay errored, so there is no reply to accept.');
    // No check-workflow input: nothing dispatched, and the comment says how to get the check.
    // A push checks the baseline commit; a re-run of the reviewed check would replay its own commit, without the new baselines.
    expect(body).toContain(`start no workflow, so no check will run on ${commit.oid.slice(0, 7)} by itself: push another commit (an empty one will do) to compare against the new baselines; a re-run of an earlier check replays the commit it ran on, without them.`);
    expect(body).toContain('set the check-workflow input');
    expect(gh.dispatches).toEqual([]);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    // The job summary: how many baselines, the commit, the branch and the reviewed run, what was accepted and refused.
    const short = commit.oid.slice(0, 7);
    expect(run.summary).toBe(
      [
        '## agent-replay accept: baselines accepted (pull request #7)',
        '',
        `Committed 3 baselines in [\`${short}\`](https://github.com/octo/shop/commit/${commit.oid}) to the branch \`feature\`: the replies recorded at \`1111111\` by workflow run 1001.`,
        '',
        '**Accepted (3)**: `greeting`, `refund-policy`, `opening-hours`',
        '',
        '**Refused (2)**:',
        '',
        '- `hiking-boots`: its check was not evaluated \\(regex does not compile\\), so there is no verdict to store\\: fix the pattern in the fixture file named on each item; then run it again.',
        '- `order-status`: the replay errored, so there is no reply to accept.',
        '',
        `Commits made with the workflow token start no workflow, so no check will run on ${short} by itself\\: push another commit \\(an empty one will do\\) to compare against the new baselines; a re-run of an earlier check replays the commit it ran on, without them. To have it run automatically, set the check-workflow input of the accept job \\(it needs actions\\: write\\), or give the accept job a GitHub App token.`,
        '',
        '',
      ].join('\n'),
    );

    // A label applied again after the acceptance (a second label event, a re-run of the job) is a
    // no-op that says so: on the head this very job committed (docs/contributing.md, "What an
    // Action start waits for, and what it spends").
    gh.addPull('octo', 'shop', { number: 7, headSha: commit.oid, headRef: 'feature' });
    const accepted = gh.comments('octo', 'shop', 7)[0]!.body;
    const second = await accept();
    expect(second.code, second.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(second.stdout).toContain(`accept: the replies of workflow run 1001 were already accepted in ${commit.oid.slice(0, 7)}, the pull request's head; nothing to do.`);
    expect(second.stdout).not.toContain('::error::');
    expect(second.summary).toBe(`## agent-replay accept: already accepted (pull request #7)\n\nThe replies of workflow run 1001 were already accepted in \`${short}\`, the pull request's head: nothing to do, no commit was made.\n\n`);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(accepted); // no "not accepted" notice over "accepted"
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    // A push after the acceptance: the head moved past it, and the refusal says so as before.
    gh.addPull('octo', 'shop', { number: 7, headSha: '4'.repeat(40), headRef: 'feature' });
    // (The refusal of a head moved since the reviewed run: this start asserts it, and that it writes nothing.)
    const third = await accept();
    expect(third.code).toBe(1);
    expect(gh.commits).toHaveLength(1);
    const moved = ourComment()!.body;
    expect(moved).toContain('Baselines not accepted');
    expect(moved).toContain('head has moved since the run the comment shows (reviewed 1111111, head is now 4444444)');
    quotedAndSaid(third.stdout, "the pull request's head has moved since the run the comment shows (...)");
    expect(moved).toContain('refund-policy'); // the results stay visible under the notice
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('after the commit, a comment that a newer check replaced in the meantime is left as it is, and the summary says so', async () => {
    await reviewedCheck();
    const newer = (oid: string): string => {
      const [marker, meta] = gh.comments('octo', 'shop', 7)[0]!.body.split('\n');
      const old = parseCommentMetadata(`${marker}\n${meta}`)!;
      return [marker, metaLine({ headSha: oid, runId: '3003', artifactName: old.artifactName }), '', 'The report of workflow run 3003 on the baseline commit.'].join('\n');
    };
    // The check on the new head finishes between the commit and the accept job's comment update:
    // while the label is being removed (its answer lost, then retried: already gone).
    gh.failNext({
      method: 'DELETE',
      path: '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
      status: 'network',
      after: true,
      then: () => {
        gh.editComment(gh.comments('octo', 'shop', 7)[0]!.id, newer(gh.commits[0]!.oid));
      },
    });
    const run = await accept();
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    const oid = gh.commits[0]!.oid;
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(newer(oid)); // not overwritten with the reviewed run
    expect(gh.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(run.stdout).toContain(`accept: the comment now shows workflow run 3003 at ${oid.slice(0, 7)}, not the reviewed run 1001: a newer check replaced it, so it is left as it is`);
    expect(run.summary).toContain('The comment was left as it is: it now shows workflow run 3003, a check newer than the reviewed run');
    expect(run.outputs['commit-sha']).toBe(oid);
    expect(gh.violations).toEqual([]);
  });

  it("keeps each stored baseline's line endings and byte-order mark (CRLF, a mark), so that only the changed lines differ; a new baseline follows the folder's", async () => {
    // The record stored at the reviewed head: refund-policy as an acceptance writes it, opening-hours edited by hand.
    const hours: Baseline = { label: 'opening-hours', reply: 'Open 8 to 4.', route: { conversation: 'hours', stage: 'answer' }, verdict: 'pass', acceptedAt: '2026-11-01T00:00:00.000Z', commit: 'a'.repeat(40) };
    await reviewedCheck({ baselines: [REFUND_BASELINE, hours] });
    const refundStored = `\uFEFF${serializeBaseline(REFUND_BASELINE).replace(/\n/g, '\r\n')}`;
    const hoursStored = `${JSON.stringify(hours, null, 4).replace(/\n/g, '\r\n')}\r\n`;
    gh.setBranch('octo/shop', 'feature', HEAD, { '.agent-replay/baselines/refund-policy.json': refundStored, '.agent-replay/baselines/opening-hours.json': hoursStored, '.agent-replay/config.yml': CONFIG });
    const run = await accept();
    expect(run.code, run.stdout).toBe(0);
    expect(gh.violations).toEqual([]);
    const committed = (name: string): string => gh.commits[0]!.additions.find((a) => a.path === `.agent-replay/baselines/${name}.json`)!.contents;
    // CRLF and the mark kept: the lines that did not change are the stored lines, byte for byte.
    const refund = committed('refund-policy');
    expect(refund.startsWith('\uFEFF{\r\n')).toBe(true);
    expect(refund.replace(/\r\n/g, '')).not.toContain('\n');
    const before = refundStored.split('\r\n');
    const after = refund.split('\r\n');
    expect(before.filter((l) => !after.includes(l)).map((l) => l.trim().split('"')[1])).toEqual(['reply', 'verdict', 'acceptedAt', 'commit']);
    // Known from its blob's id (what an acceptance wrote), so not read; the file edited by hand is read: CRLF, no mark.
    expect(committed('opening-hours')).toBe(serializeBaseline(JSON.parse(committed('opening-hours')) as Baseline).replace(/\n/g, '\r\n'));
    const blobs = gh.requests.filter((r) => r.operation === 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}');
    expect(blobs).toHaveLength(1);
    // A new baseline takes the style of the folder's first (opening-hours.json).
    expect(committed('greeting')).toBe(serializeBaseline(JSON.parse(committed('greeting')) as Baseline).replace(/\n/g, '\r\n'));
  });

  it('refuses a label on a closed or merged pull request: a commit on its branch would never reach the base branch', async () => {
    await reviewedCheck();
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', state: 'closed' });
    const run = await accept({ start: true });
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.branch('octo/shop', 'feature')?.head).toBe(HEAD);
    expect(ourComment()!.body).toContain('is closed, so baselines committed on its branch would never reach the base branch');
    expect(run.stdout).toContain('baselines not accepted: pull request #7 is closed');
    expect(run.outputs['commit-sha']).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });

  // Each happens while the job downloads the results artifact: the pull request read at the start was open and labelled.
  const CLOSED_DURING =
    'pull request #7 was closed while the accept job ran, before the baselines were committed: a commit on its branch would never reach the base branch, so nothing was written. ' +
    'Reopen it and apply the label again, or accept them in a new pull request.';
  it.each([
    {
      what: 'the pull request is closed (or merged)',
      during: () => gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', state: 'closed' }),
      reason: CLOSED_DURING,
      labels: [],
    },
  ])('refuses when $what while the job runs, after the first read and before the commit: nothing is written', async ({ during, reason, labels }) => {
    await reviewedCheck();
    gh.onNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', then: during });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.requests.filter((r) => r.operationName === 'agentReplayCommit')).toEqual([]);
    expect(gh.branch('octo/shop', 'feature')?.head).toBe(HEAD);
    expect(run.stdout).toContain(`::error::baselines not accepted: ${reason}`);
    expect(run.summary).toContain(`## agent-replay accept: baselines not accepted (pull request #7)\n\n${escapeInline(capitalized(reason))}\n`);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toContain(`**Baselines not accepted.** ${escapeInline(capitalized(reason))}`);
    expect(ourComment()!.body).toContain('refund-policy'); // the reviewed report stays under the notice
    expect(gh.labels('octo', 'shop', 7)).toEqual(labels);
    expect(run.outputs['commit-sha']).toBeUndefined();
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  // The label taken off, or renamed in case only, in that moment takes the way of the closed pull
  // request above (refused before the commit), or of every commit: the pull request read again by
  // the Action's client, handed to rereadRefusal, which decides and words it, without a start of
  // the Action each (docs/contributing.md, "Speed").
  it.each([
    {
      what: 'the maintainer takes the label off',
      labels: ['bug'],
      reason:
        'the accept-baseline label was removed from pull request #7 while the accept job ran, before the baselines were committed, so nothing was written. ' +
        'Apply the label again to accept the replies of the check.',
    },
    // A label renamed in case only while the job runs is still the label: the commit goes on.
    { what: 'the label is renamed in case only (Accept-Baseline)', labels: ['Accept-Baseline'], reason: null },
  ])('the pull request read again before the commit, when $what while the job runs', async ({ labels, reason }) => {
    const api = gitHubApiOf(gh);
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const first = await api.getPull('octo', 'shop', 7);
    gh.setLabels('octo', 'shop', 7, labels);
    const again = await api.getPull('octo', 'shop', 7);
    expect(rereadRefusal(first, again, 'accept-baseline', 'accept-baseline')).toBe(reason);
    // And the closed pull request's words (the start above) are the same function's.
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', state: 'closed' });
    expect(rereadRefusal(first, await api.getPull('octo', 'shop', 7), 'accept-baseline', 'accept-baseline')).toBe(CLOSED_DURING);
    expect(gh.violations).toEqual([]);
  });

  it('refuses when the branch moves during the commit (expectedHeadOid), without retrying', async () => {
    await reviewedCheck();
    // Moved after the job read the pull request (GitHub's pull request follows its branch).
    gh.onNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', then: () => gh.moveBranch('octo/shop', 'feature', '3'.repeat(40)) });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.requests.filter((r) => r.operationName === 'agentReplayCommit')).toHaveLength(1);
    expect(ourComment()!.body).toContain('moved to 3333333 (another push) while the baselines were being committed');
    // The branch is read back: another push, not a commit of ours whose answer was lost.
    expect(run.stdout).toContain('::error::baselines not accepted: the branch feature moved to 3333333 (another push) while the baselines were being committed, so nothing was written.');
  });

  it('refuses when the comment was rewritten after the label was applied (a re-run of the check finished in between); the label applied again afterwards commits', async () => {
    const run = await refusedForRewrite();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toMatch(
      /::error::baselines not accepted: the comment was updated at 2026-\S+Z, after the accept-baseline label was applied at 2026-\S+Z: it now shows workflow run 1001, whose replies may not be the ones reviewed, so nothing was written\. Review the comment as it is now, then apply the label again\./,
    );
    expect(run.summary).toContain('## agent-replay accept: baselines not accepted (pull request #7)');
    expect(ourComment()!.body).toContain('Baselines not accepted.** The comment was updated at');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
    // Reviewed as it is now (with the notice on it), the label applied again commits: the start of
    // the re-run test below asserts it, after the same refusal.
  });

  // The other cases of the label's time take the same way as the rewrite above, in words of their
  // own (labelRefusal): the timeline read by the Action's client, without a start of the Action
  // each (docs/contributing.md, "Speed").
  it('refuses when the comment was rewritten in the same second as the label was applied: GitHub\'s times are to the second, and no one reviewed that report before the label', async () => {
    const { run: check } = await reviewedCheck();
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const at = gh.labelTimeline('octo', 'shop', 7).at(-1)!.createdAt;
    const c = gh.comments('octo', 'shop', 7)[0]!;
    gh.editComment(c.id, c.body, at);
    expect(await labelRefusalNow(check)).toBe(
      `the comment was updated at ${at}, in the same second as the accept-baseline label was applied at ${at}: it now shows workflow run 1001, whose replies may not be the ones reviewed, so nothing was written. Review the comment as it is now, then apply the label again.`,
    );
    expect(gh.violations).toEqual([]);
  });

  it('compares with the label this job\'s sender applied, not a later application by someone else (a triage user applying it again after the report was rewritten)', async () => {
    const { run: check } = await reviewedCheck();
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const c = gh.comments('octo', 'shop', 7)[0]!;
    gh.editComment(c.id, c.body);
    gh.setLabels('octo', 'shop', 7, []);
    gh.setLabels('octo', 'shop', 7, ['accept-baseline'], 'triager');
    const [mine, theirs] = gh.labelTimeline('octo', 'shop', 7).slice(-2);
    expect(theirs).toMatchObject({ actor: 'triager' });
    expect(await labelRefusalNow(check)).toMatch(new RegExp(`^the comment was updated at \\S+Z, after the accept-baseline label was applied at ${mine!.createdAt}: it now shows workflow run 1001`));
    expect(gh.violations).toEqual([]);
  });

  it("finds the sender's label behind more label events than one page holds (a bot relabelling since): the comment rewritten after it is refused", async () => {
    const { run: check } = await reviewedCheck();
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const c = gh.comments('octo', 'shop', 7)[0]!;
    gh.editComment(c.id, c.body);
    // 150 labels applied since by a bot: before the fix only the newest 50 were read, the
    // sender's was not among them, and the rewritten report was committed.
    for (let i = 0; i < 150; i++) gh.setLabels('octo', 'shop', 7, ['accept-baseline', `triage-${i}`], 'relabel[bot]');
    const before = gh.requests.length;
    const mine = gh.labelTimeline('octo', 'shop', 7).find((e) => e.actor === 'maintainer')!;
    expect(await labelRefusalNow(check)).toMatch(new RegExp(`^the comment was updated at \\S+Z, after the accept-baseline label was applied at ${mine.createdAt}: it now shows workflow run 1001`));
    // Two pages of the timeline, newest first: the sender's label is on the second.
    expect(gh.requests.slice(before).filter((r) => r.operationName === 'agentReplayLabelEvents')).toHaveLength(2);
    expect(gh.violations).toEqual([]);
  });

  it('does not read a timeline without end: past the newest 1000 label events the job is refused (nothing written), and the label applied again is found', async () => {
    const { run: check } = await reviewedCheck();
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    for (let i = 0; i < 1000; i++) gh.setLabels('octo', 'shop', 7, ['accept-baseline', `triage-${i}`], 'relabel[bot]');
    const before = gh.requests.length;
    expect(await labelRefusalNow(check)).toBe(
      "the accept-baseline label applied by maintainer is not among the newest 1000 label events of pull request #7 (labels applied since, by bots or people; no more are read): when it was applied cannot be compared with the comment's last change, so nothing was written. Apply the label again.",
    );
    expect(gh.requests.slice(before).filter((r) => r.operationName === 'agentReplayLabelEvents')).toHaveLength(10);
    // Applied again, the label's event is the newest: found on the first page, after the report.
    gh.setLabels('octo', 'shop', 7, []);
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const again = gh.requests.length;
    expect(await labelRefusalNow(check)).toBeNull();
    expect(gh.requests.slice(again).filter((r) => r.operationName === 'agentReplayLabelEvents')).toHaveLength(1);
    expect(gh.violations).toEqual([]);
  });

  it('a re-run of a refused job, whose notice changed the comment after the label, is not refused for that: it commits', async () => {
    await reviewedCheck({ runStatus: 'in_progress' });
    const first = await accept();
    expect(first.code).toBe(1);
    expect(ourComment()!.body).toContain('The workflow run 1001 is still running. Wait for it to finish');
    expect(ourComment()!.body).not.toContain('in_progress');
    expect(gh.commits).toHaveLength(0);
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD, status: 'completed', conclusion: 'success' });
    // The job re-run: the same label event (the label itself was removed by the first attempt).
    const rerun = await rerunAccept();
    expect(rerun.code, rerun.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(gh.violations).toEqual([]);
  });

  it('a re-run of a job refused for a rewritten comment is refused again: its notice does not make the rewritten report reviewed', async () => {
    // The job refused for a re-run of the check that rewrote the comment after the label (the test above).
    const first = await refusedForRewrite();
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('after the accept-baseline label was applied at');
    // The first job's refusal notice is now the comment's newest change; the report under it is
    // still the one written after the label. The job re-run (the same label event) is refused too.
    const rerun = await rerunAccept();
    expect(rerun.code, rerun.stdout).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(rerun.stdout).toMatch(/::error::baselines not accepted: the comment was updated at 2026-\S+Z, after the accept-baseline label was applied at 2026-\S+Z/);
    // Its report's time is the rewrite's, not the notice's: the notice says the same twice.
    const at = /the comment was updated at (\S+Z)/.exec(first.stdout)![1];
    expect(rerun.stdout).toContain(`the comment was updated at ${at},`);
    expect(gh.violations).toEqual([]);
    // Reviewed as it is now, the label applied again commits.
    const again = await accept();
    expect(again.code, again.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
  });

  // A push on top of the reviewed head takes the way of the branch moved above (the commit refused
  // for its expectedHeadOid, the branch read back, the refusal): GitHub's answer to the job's
  // commit, read by the Action's client and handed to afterCommitFailure, which words it, without
  // a start of the Action (docs/contributing.md, "Speed").
  it('a push while the job runs, after the pull request was read, is refused by the commit itself (expectedHeadOid): the push stays, nothing is written', async () => {
    await reviewedCheck();
    gh.pushOnTop('octo/shop', 'feature', '4'.repeat(40));
    const message = { headline: 'Accept agent-replay baselines: greeting', body: 'Accepted the replies recorded at 1111111 (workflow run 1001):\n\n- greeting (pass)' };
    const conflict = await gitHubErrorOf(commitOnFeature(gh));
    const refusal = await afterCommitFailure(gitHubApiOf(gh), conflict, { repoWithOwner: 'octo/shop', branch: 'feature', serverUrl: 'https://github.com', onto: HEAD }, { headSha: HEAD, runId: 1001 }, message).then(
      () => 'committed',
      (e: unknown) => (e as Error).message,
    );
    expect(gh.commits).toHaveLength(0);
    expect(gh.branch('octo/shop', 'feature')?.head).toBe('4'.repeat(40));
    expect(refusal).toBe('the branch feature moved to 4444444 (another push) while the baselines were being committed, so nothing was written. Wait for the check on the new head, review its comment, then apply the label again.');
    expect(gh.violations).toEqual([]);
  });

  it('refuses a label applied by a bot, even one GitHub says has write permission: no one reviewed the comment', async () => {
    gh.setPermission('octo', 'shop', 'labeler[bot]', 'write');
    await reviewedCheck();
    const run = await accept({ sender: 'labeler[bot]', senderType: 'Bot' });
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toContain(
      '::error::baselines not accepted: the accept-baseline label was applied by labeler[bot], a bot: accepting baselines needs a person with write, maintain or admin permission, who reviewed the comment, to apply it. A maintainer can apply the label instead.',
    );
    expect(ourComment()!.body).toContain('applied by labeler[bot], a bot');
    expect(gh.requests.some((r) => r.operation === 'GET /repos/{owner}/{repo}/collaborators/{username}/permission')).toBe(false);
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('refuses a comment someone else edited since the check wrote it: its report and hidden metadata may not be the check\'s; the notice names no run', async () => {
    await reviewedCheck();
    const c = gh.comments('octo', 'shop', 7)[0]!;
    gh.editComment(c.id, c.body.replace('No refunds, ever.', 'Refunds within 30 days.'), undefined, { login: 'octo-admin', type: 'User' });
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(run.stdout).toMatch(
      /::error::baselines not accepted: the comment was last edited by octo-admin at 2026-\S+Z, not by the check that wrote it: its report and hidden metadata may not be the check's, so nothing was written\. Re-run the check so that it writes the comment again, review it, then apply the label again\./,
    );
    const body = ourComment()!.body;
    expect(body).toContain('Baselines not accepted.** The comment was last edited by octo-admin');
    // The edited metadata is not kept: a label applied again finds no run to accept, only a new check does.
    expect(parseCommentMetadata(gh.comments('octo', 'shop', 7)[0]!.body)).toBeNull();
    expect(gh.requests.filter((r) => r.operationName === 'agentReplayCommentEdit')).toHaveLength(1);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  // An edit GitHub names no editor for takes the way of every commit (the comment taken as the
  // check's): GitHub's answer about the comment's last edit, read by the Action's client and handed
  // to checkLastEditor, which decides it and says so, without a start of the Action.
  it('accepts a comment whose last edit GitHub names no editor for: it is not taken for someone else\'s', async () => {
    const { run: check } = await reviewedCheck();
    const c = gh.comments('octo', 'shop', 7)[0]!;
    gh.editComment(c.id, c.body, undefined, null);
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
      return true;
    });
    try {
      await expect(checkLastEditor(gitHubApiOf(gh), await foundRun(check))).resolves.toBeUndefined();
    } finally {
      vi.restoreAllMocks();
    }
    expect(lines).toEqual([`accept: GitHub does not say who last edited the comment (at ${gh.comments('octo', 'shop', 7)[0]!.lastEditedAt}); it is taken as the check's`]);
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  // What the results artifact holds, or that there is none to read: each refusal's words are
  // recordRefusal's, on the artifact as the Action's client reads it from the fake GitHub, without a
  // start of the Action each (docs/contributing.md, "Speed"); the way of such a refusal to the
  // comment and the log is started once, by the run still running (the re-run test above).
  it('rejects a tampered artifact whose label would escape the baselines folder', async () => {
    const { run: check } = await reviewedCheck({
      tamper: (text) => {
        const record = JSON.parse(text) as RunRecord;
        record.fixtures[0]!.label = '../../.github/workflows/x';
        return serializeRecord(record);
      },
    });
    expect(await recordRefusalNow(check)).toMatch(/^the results artifact was rejected: .*fixtures\.0\.label: label must be 1-80 characters/);
    expect(gh.violations).toEqual([]);
  });

  it('refuses a reply whose artifact record contradicts itself, and commits the others', async () => {
    await reviewedCheck({
      tamper: (text) => {
        const record = JSON.parse(text) as RunRecord;
        // A pass from 0 of 3 passing attempts: a baseline the loader would refuse (docs/statistics.md).
        const greeting = record.fixtures.find((f) => f.label === 'greeting')!;
        greeting.repeat = { count: 3, minPass: 1, passed: 0, flaky: false } as never;
        return serializeRecord(record);
      },
    });
    const run = await accept();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(gh.commits[0]!.additions.map((a) => a.path.replace(/^.*\//, '')).sort()).toEqual(['opening-hours.json', 'refund-policy.json']);
    expect(run.outputs.refused).toBe('hiking-boots,order-status,greeting');
    expect(ourComment()!.body).toMatch(/greeting`: its record contradicts itself, so the baseline would not load: .*0 of 3 attempts passed/);
    expect(gh.violations).toEqual([]);
  });

  it('rejects an artifact recorded at another commit than the reviewed one', async () => {
    const { run: check } = await reviewedCheck({ tamper: (text) => text.replace(/"commit": "1{40}"/, `"commit": "${'9'.repeat(40)}"`) });
    expect(await recordRefusalNow(check)).toBe('the results artifact was recorded at 9999999, not at the reviewed commit 1111111. Re-run the check.');
  });

  it.each([
    // A run not finished, in one of its states: each state's words are runStateSentence's (test/action/notice.test.ts).
    [{ runStatus: 'in_progress' }, () => 'the workflow run 1001 is still running. Wait for it to finish, then apply the label again.'],
    [{ artifact: 'expired' as const }, (name: string) => `the results artifact ${name} of run 1001 has expired. Re-run the check, then apply the label again.`],
    [{ artifact: 'missing' as const }, (name: string) => `the results artifact ${name} of run 1001 is missing. Re-run the check, then apply the label again.`],
  ])('refuses, saying what to do, when %o', async (opts, message) => {
    const { run: check } = await reviewedCheck(opts);
    const refusal = await recordRefusalNow(check);
    expect(refusal).toBe(message(check.outputs['artifact-name'] as string));
    if ('runStatus' in opts) quotedAndSaid(refusal ?? '', 'the workflow run <id> is still running');
    else if (opts.artifact === 'expired') quotedAndSaid(refusal ?? '', 'the results artifact <name> of run <id> has expired. Re-run the check, then apply the label again.');
    expect(gh.violations).toEqual([]);
  });

  it.each([
    ['a truncated zip', async (results: string) => (await artifactZip([{ name: 'results.json', data: results }])).subarray(0, 200), 'the results artifact could not be read (not a readable zip archive: End of central directory record signature not found'],
    [
      'an entry named ../../agent-replay-escaped',
      async (results: string) =>
        renameEntry(await artifactZip([{ name: 'results.json', data: results }, { name: 'aa/aa/agent-replay-escaped', data: 'owned' }]), 'aa/aa/agent-replay-escaped', '../../agent-replay-escaped'),
      'the results artifact could not be read (corrupt zip archive: the entry name "../../agent-replay-escaped" is not a plain relative path (invalid relative path))',
    ],
  ])('refuses %s clearly, writing nothing', async (_name, zip, message) => {
    const { run: check } = await reviewedCheck({ zip });
    const refusal = await recordRefusalNow(check);
    expect(refusal).toContain(message);
    expect(refusal!.startsWith('the results artifact could not be read (')).toBe(true);
    expect(refusal!.endsWith('). Re-run the check.')).toBe(true);
    for (const dir of [check.workspace, process.cwd()]) expect(existsSync(join(dir, '..', '..', 'agent-replay-escaped'))).toBe(false);
    expect(gh.violations).toEqual([]);
  });

  // A plan with nothing accepted takes the way of the label on the dispatched check's comment
  // (below: "Nothing to accept", no commit, the label removed, started end to end there); that only
  // not evaluated and errored fixtures leave it so is planAcceptance's, as the job plans the reviewed
  // record, without a start of the Action and of its check (docs/contributing.md, "Speed").
  it('makes no commit when only not evaluated and errored fixtures remain', async () => {
    const { record } = await reviewedCheck();
    const left = { ...record, fixtures: record.fixtures.filter((f) => f.label === 'hiking-boots' || f.label === 'order-status') };
    const plan = planAcceptance(left, new Map(), { only: null, acceptedAt: '2026-12-01T00:00:00.000Z' });
    expect(plan.accepted).toEqual([]);
    expect(plan.refused.map((r) => r.label)).toEqual(['hiking-boots', 'order-status']);
  });

  it('on a fork: commits nothing and comments the exact commands to apply the baselines', async () => {
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
    await reviewedCheck();
    const run = await accept({ headRepo: 'stranger/shop', start: true });
    expect(run.code).toBe(0);
    expect(gh.commits).toHaveLength(0);
    const body = ourComment()!.body;
    expect(body).toContain('Not committed: this pull request comes from a fork, which the workflow cannot push to, so nothing was pushed.');
    expect(body).toContain("mkdir -p '.agent-replay/baselines'");
    expect(body).toContain("cat > '.agent-replay/baselines/greeting.json'");
    expect(run.outputs.accepted).toBe('');
    expect(run.outputs['commit-sha']).toBeUndefined();
    expect(body).toContain('git push');
    expect(run.stdout).toContain('::warning::accept: fork pull request');
    // The job summary: nothing pushed, the commands to accept by hand.
    expect(run.summary).toContain(
      '## agent-replay accept: baselines not committed (pull request #7)\n\nNothing was pushed: 3 baselines from the replies recorded at `1111111` by workflow run 1001 to accept by hand. Not committed\\: this pull request comes from a fork',
    );
    expect(run.summary).toContain("cat > '.agent-replay/baselines/greeting.json'");
    expect(run.summary).toContain('**Ready to accept (3)**: `greeting`, `refund-policy`, `opening-hours`');
  });

  it('on a fork, on a pull_request event (a read-only token): refused before any write, naming pull_request_target', async () => {
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
    await reviewedCheck();
    // GitHub's answer to every write with the read-only token of a fork's pull_request run.
    const readOnly = { status: 403, times: 5, body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' } };
    for (const path of ['/repos/{owner}/{repo}/issues/comments/{comment_id}', '/repos/{owner}/{repo}/issues/{issue_number}/comments', '/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}']) gh.failNext({ path, method: path.endsWith('{name}') ? 'DELETE' : path.endsWith('{comment_id}') ? 'PATCH' : 'POST', ...readOnly });
    const before = gh.requests.length;
    const run = await accept({ headRepo: 'stranger/shop', event: 'pull_request' });
    expect(run.code).toBe(1);
    expect(gh.requests.slice(before).filter((r) => r.method !== 'GET' && r.path !== '/graphql')).toEqual([]);
    expect(run.stdout).toContain(
      `::error::baselines not accepted: this pull request comes from a fork, and the accept job ran on pull_request, whose token GitHub makes read-only for a fork's pull request: it cannot update the comment or remove the label, so nothing was written. Run the accept workflow on pull_request_target (${docsUrl('action.md', 'Accept: the label commits the reviewed replies')}), then remove the label and apply it again.`,
    );
    expect(run.summary).toContain('## agent-replay accept: baselines not accepted (pull request #7)');
    expect(gh.labels('octo', 'shop', 7)).toEqual(['accept-baseline']);
    expect(gh.violations).toEqual([]);
  });

  it('on a fork, without the artifact service, baselines too long to show inline: the commands accept the reviewed run\'s results artifact', async () => {
    gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
    const { run: check } = await reviewedCheck({ fixtures: `${FIXTURES}  - { label: long-answer, message: big }\n` });
    const run = await accept({ headRepo: 'stranger/shop' });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(0);
    const body = ourComment()!.body;
    expect(body).not.toContain('too long to show here'); // it named an artifact there is none of
    expect(body).toContain('To accept them, run these commands in a clone of the fork: they download the results artifact of the reviewed run and accept it with agent-replay accept.');
    const artifact = check.outputs['artifact-name'] as string;
    expect(body).toContain(`gh run download 1001 -R 'octo/shop' -n '${artifact}' -D "$tmp"`);
    expect(body).toContain(`npx agent-replay accept --results "$tmp/results.json" --dir '.agent-replay'`);
    expect(body).toContain('git push');
  });

  it('the label as the repository spells it: GitHub\'s label names ignore case (Accept-Baseline is accept-baseline)', async () => {
    await reviewedCheck();
    const run = await accept({ label: 'Accept-Baseline' });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('another label: nothing done, and a warning at the workflow file and the job summary name both labels and the fix; other events are a no-op', async () => {
    // Was: one info line ("the label ... is not accept-baseline; nothing to do") and no summary: a
    // maintainer who applied the label the job's if: waits for saw nothing happen.
    const other = await accept({ start: true, label: 'needs-review', env: { GITHUB_WORKFLOW_REF: 'octo/shop/.github/workflows/agent-replay-accept.yml@refs/heads/main' } });
    expect(other.code).toBe(0);
    const words =
      'the job ran for the label "needs-review", applied to pull request #7, but its agent-replay step accepts the accept-baseline label (its accept-label input), so nothing was done: ' +
      "the job's if: waits for another label than the step accepts, or the job has none and runs for every label; " +
      "give the accept job of .github/workflows/agent-replay-accept.yml the if: of the step's label, if: github.event.label.name == 'accept-baseline' " +
      '(to accept with "needs-review" instead, set accept-label: "needs-review" on the step as well).';
    expect(other.stdout).toContain(`::warning file=.github/workflows/agent-replay-accept.yml::accept: ${words}\n`);
    // The same words on the job's summary page, escaped as a refusal's are (shown as written, once GitHub renders them).
    expect(other.summary.startsWith('## agent-replay accept: nothing done (pull request #7)\n\n')).toBe(true);
    expect(visibleText(githubHtml(other.summary)).replaceAll('\u2060', '')).toContain(`${capitalized(words)}`);
    expect(gh.requests).toHaveLength(0);
    // Another event, or another action on a pull request, takes the same way out (acceptTrigger):
    // its words, without a start of the Action each (docs/contributing.md, "Speed").
    expect(acceptTrigger('accept-baseline', await actionContextOf('push', pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer' })))).toEqual({
      skip: 'accept: nothing to do for the push event (labeled); accept mode runs when the accept-baseline label is applied to a pull request.',
    });
    expect(acceptTrigger('accept-baseline', await actionContextOf('pull_request_target', pullPayload({ action: 'unlabeled', label: 'accept-baseline', sender: 'maintainer' })))).toEqual({
      skip: 'accept: nothing to do for the pull_request_target event (unlabeled); accept mode runs when the accept-baseline label is applied to a pull request.',
    });
    const labelled = acceptTrigger('accept-baseline', await actionContextOf('pull_request_target', pullPayload({ action: 'labeled', label: 'Accept-Baseline', sender: 'maintainer' })));
    expect(labelled).toMatchObject({ label: 'Accept-Baseline', pull: { number: 7, headRef: 'feature' } });
  });
});

/** A notice's opening line, with or without the report's time. */
const NOTICE = '<!-- agent-replay:notice';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('refusals keep the report and its metadata (a triage user can label)', () => {
  it('a triage user\'s label adds a notice to the comment; a second refusal replaces the first notice instead of stacking; a maintainer\'s label afterwards commits', async () => {
    await reviewedCheck();
    const reviewed = gh.comments('octo', 'shop', 7)[0]!.body;
    const reportAt = gh.comments('octo', 'shop', 7)[0]!.updatedAt;
    const meta = parseCommentMetadata(reviewed);
    expect(meta).toMatchObject({ headSha: HEAD, runId: '1001' });

    const refused = await accept({ sender: 'triager' });
    expect(refused.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    const raw = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(parseCommentMetadata(raw)).toEqual(meta); // hidden metadata kept
    expect(raw.split('\n').slice(0, 2)).toEqual(reviewed.split('\n').slice(0, 2));
    expect(raw).toContain(reviewed.split('\n').slice(2).join('\n').trim()); // the report kept, whole
    const body = ourComment()!.body;
    expect(body).toContain('Baselines not accepted');
    expect(body).toContain('applied by triager, who has triage permission; accepting baselines needs write, maintain or admin');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);

    // A second refusal, over the first one's notice: one refused job for both steps
    // (docs/contributing.md, "What an Action start waits for, and what it spends").
    // A user with read permission (the refusal of a reader: this start asserts it).
    const reader = await accept({ sender: 'visitor' });
    expect(reader.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    const again = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(count(again, NOTICE)).toBe(1);
    // Each notice says when the report under it was written: the check's, not the first notice's.
    expect(again).toContain(`<!-- agent-replay:notice report-updated=${reportAt} -->`);
    expect(count(again, 'Baselines not accepted')).toBe(1);
    expect(ourComment()!.body).toContain('applied by visitor, who has read permission; accepting baselines needs write, maintain or admin');
    saidAsTroubleshootingQuotes(
      reader.stdout,
      'baselines not accepted: the accept-baseline label was applied by <user>, who has read permission; accepting baselines needs write, maintain or admin. A maintainer can apply the label instead.',
      { '<user>': 'visitor' },
    );
    expect(again).not.toContain('triager');
    expect(parseCommentMetadata(again)).toMatchObject({ headSha: HEAD, runId: '1001' });

    const accepted = await accept();
    expect(accepted.code, accepted.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    const after = ourComment()!.body;
    expect(after).not.toContain('Baselines not accepted'); // the old refusal is gone
    expect(after).not.toContain(NOTICE);
    expect(after).toContain(gh.commits[0]!.oid.slice(0, 7));
    expect(gh.violations).toEqual([]);
  });

  // The accept job's refusals when the comment it looks for is not there take the way of the one
  // past the 3,000 comments (below), in words of their own (findReviewedRun): the comments read by
  // the Action's client, without a start of the Action each (docs/contributing.md, "Speed").
  it('a comment-key that names no comment, while the check\'s comment is there under another key: the refusal names the input and its value', async () => {
    await reviewedCheck(); // the check workflow "agent-replay" comments under its own name
    // The accept workflow's name, agent-replay-accept, is the key.
    await expect(findReviewedRun(gitHubApiOf(gh), { owner: 'octo', repo: 'shop' }, 7, acceptMarker({ 'comment-key': '' }))).rejects.toHaveProperty(
      'message',
      'there is no agent-replay comment with the key "agent-replay-accept" on this pull request, but there is one with the key "agent-replay": set the comment-key input of the accept job to "agent-replay" (the check workflow\'s name), then apply the label again.',
    );
    expect(gh.commits).toHaveLength(0);
  });

  it('past the 3,000 comments it reads, without the check\'s comment among them: refused with the steps to accept in a clone; no notice is posted past them', async () => {
    // Pages of one comment: the 30 pages read (src/github/api.ts, MAX_COMMENT_PAGES) end before the
    // 31st comment, as 30 pages of 100 end before the 3,001st.
    gh.maxPerPage = 1;
    gh.addComments('octo', 'shop', 7, 31, { login: 'bob', type: 'User' });
    const run = await accept();
    expect(run.code).toBe(1);
    const past = 'pull request #7 has more than 3,000 comments and agent-replay reads its oldest 3,000 (where its comment is, written at the first check): its comment is not among them';
    expect(run.stdout).toContain(
      `${past}, so the reviewed run cannot be found, and nothing was written. Accept in a clone instead: download the results artifact of the reviewed check run, then run agent-replay accept --results <its results.json> (${docsUrl('cli.md', 'What each command does')}) and push.`,
    );
    // The notice would land past the comments read too, and be posted again by every refusal.
    expect(run.stdout).toContain(`::warning::comment: the notice was not added: ${past}`);
    expect(gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /repos/octo/shop/issues/7/labels/accept-baseline']);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(31);
    expect(gh.commits).toHaveLength(0);
    expect(gh.violations).toEqual([]);
  });

  it('with no comment yet, posts a notice that names no run, and the next check run replaces it', async () => {
    const refused = await accept({ sender: 'triager' });
    expect(refused.code).toBe(1);
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(parseCommentMetadata(comments[0]!.body)).toBeNull();
    expect(ourComment()!.body).toContain('applied by triager');

    await reviewedCheck();
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    const replaced = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(parseCommentMetadata(replaced)).toMatchObject({ headSha: HEAD, runId: '1001' });
    expect(replaced).not.toContain(NOTICE);
    // A maintainer's label then takes the way of the triage test's above (a comment our own job
    // rewrote, then a commit): the run found, the edit taken as the check's, the label's time not
    // refused, as the accept job reads them with its client (findReviewedRun, checkLastEditor,
    // labelRefusal), without a start of the Action.
    gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
    const api = gitHubApiOf(gh);
    const found = await findReviewedRun(api, { owner: 'octo', repo: 'shop' }, 7, acceptMarker());
    expect(found).toMatchObject({ headSha: HEAD, runId: 1001, acceptedSha: null });
    await expect(checkLastEditor(api, found)).resolves.toBeUndefined();
    expect(await labelRefusal(api, { owner: 'octo', repo: 'shop' }, 7, found, 'accept-baseline', 'maintainer')).toBeNull();
    expect(gh.violations).toEqual([]);
  });
});

describe('the check on the new head (workflow_dispatch)', () => {
  it('with a GitHub App token (no check-workflow input), says the commit starts the workflows like any push', async () => {
    const defaultGh = gh;
    gh = await startFakeGitHub({ viewer: { login: 'agent-replay-app[bot]', type: 'Bot' }, graphqlViewerLogin: 'agent-replay-app' });
    try {
      gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature' });
      gh.setPermission('octo', 'shop', 'maintainer', 'write');
      await reviewedCheck();
      const run = await accept();
      expect(run.code, run.stdout).toBe(0);
      expect(gh.commits).toHaveLength(1);
      const body = ourComment()!.body;
      expect(body).toContain('The commit was made as agent-replay-app, not with the workflow token, so it starts the pull request\'s workflows like any push.');
      expect(body).not.toContain('no check will run');
      expect(gh.dispatches).toEqual([]);
    } finally {
      await gh.close();
      gh = defaultGh;
    }
  });

  it('dispatches the check workflow on the branch after the commit, and says so; the dispatched check runs on the new head, finds the pull request from the branch and compares with the new baselines; the label applied on its comment makes no empty commit', async () => {
    gh.addWorkflow('octo', 'shop', 'agent-replay.yml');
    await reviewedCheck();
    const run = await accept({ inputs: { 'check-workflow': 'agent-replay.yml' }, start: true });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(gh.dispatches).toEqual([{ repo: 'octo/shop', workflow: 'agent-replay.yml', ref: 'feature', inputs: null }]);
    // The dispatch comes after the commit: the run starts on the new head.
    const order = gh.requests.map((r) => (r.operationName === 'agentReplayCommit' ? 'commit' : r.path.endsWith('/dispatches') ? 'dispatch' : null)).filter(Boolean);
    expect(order).toEqual(['commit', 'dispatch']);
    expect(ourComment()!.body).toContain(`The check workflow agent-replay.yml was started on feature: its run compares ${gh.commits[0]!.oid.slice(0, 7)} with the new baselines`);
    expect(run.stdout).toContain('accept: dispatched agent-replay.yml on feature');
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);

    // The check the dispatch started, after this very accept job
    // (docs/contributing.md, "What an Action start waits for, and what it spends").
    const commit = gh.commits[0]!;
    const dispatched = gh.dispatches[0]!;
    // GitHub starts the run on the branch's head, which is now the baseline commit.
    gh.addPull('octo', 'shop', { number: 7, headSha: commit.oid, headRef: 'feature' });
    const accepted = commit.additions.map((a) => JSON.parse(a.contents) as Baseline);
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG, baselines: accepted });
    const check = await runActionHere({
      gh,
      workspace,
      runId: 3003,
      inputs: { 'agent-url': agent.url, 'fail-on': 'none' },
      event: { name: 'workflow_dispatch', payload: { ref: `refs/heads/${dispatched.ref}`, inputs: {} } },
      env: { GITHUB_SHA: gh.branch('octo/shop', dispatched.ref)!.head, GITHUB_REF: `refs/heads/${dispatched.ref}` },
    });
    expect(check.code, check.stdout).toBe(0);
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    expect(parseCommentMetadata(gh.comments('octo', 'shop', 7)[0]!.body)).toMatchObject({ headSha: commit.oid, runId: '3003' });
    const record = parseRecord(readFileSync(check.outputs['results-path'] as string, 'utf8'), 'results.json');
    for (const label of ['greeting', 'refund-policy', 'opening-hours']) {
      expect(record.fixtures.find((f) => f.label === label)?.drift).toMatchObject({ reply: 'same', route: 'same' });
    }
    expect(gh.violations).toEqual([]);

    // The label applied on that check's comment (the accepted head, the accepted baselines in the
    // suite) makes no empty commit: nothing to accept.
    gh.addWorkflowRun('octo', 'shop', { id: 3003, headSha: commit.oid, status: 'completed', conclusion: 'success' });
    const results = readFileSync(check.outputs['results-path'] as string, 'utf8');
    gh.addArtifact('octo', 'shop', 3003, { name: check.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: results }, { name: 'pr-number', data: '7\n' }]) });
    const second = await accept();
    expect(second.code, second.stdout).toBe(0);
    expect(gh.commits).toHaveLength(1);
    expect(second.outputs.accepted).toBe('');
    expect(ourComment()!.body).toContain('Nothing to accept');
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it('a dispatch that fails with 403 (the token lacks actions: write) is said plainly, and promises no check', async () => {
    const why = 'GitHub answered 403 Resource not accessible by integration: the accept job needs the actions: write permission';
    gh.addWorkflow('octo', 'shop', 'agent-replay.yml');
    gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', status: 403, body: { message: 'Resource not accessible by integration' } });
    await reviewedCheck();
    const run = await accept({ inputs: { 'check-workflow': 'agent-replay.yml' } });
    expect(run.code, run.stdout).toBe(0); // the baselines are committed
    expect(gh.commits).toHaveLength(1);
    expect(gh.dispatches).toEqual([]);
    const body = ourComment()!.body;
    const short = gh.commits[0]!.oid.slice(0, 7);
    expect(body).toContain('The check workflow agent-replay.yml could not be started on feature (');
    expect(body).toContain(why);
    expect(body).toContain(`so no check will run on ${short} by itself: push another commit (an empty one will do) to compare against the new baselines; a re-run of an earlier check replays the commit it ran on, without them.`);
    expect(body).not.toContain('was started');
    expect(run.stdout).toContain(`::warning::accept: the baselines were committed in ${short}, but the check workflow agent-replay.yml was not dispatched on feature: ${why}`);
    expect(run.stdout).not.toMatch(/::warning::.*\/repos\/octo/); // not the raw request line
    expect(gh.violations).toEqual([]);
  });

  // The other answers take the same way as the 403 above, in words of their own (dispatchFailure):
  // GitHub's answer to the dispatch, read by the Action's client, without a start of the Action
  // each (docs/contributing.md, "Speed").
  it.each([
    ['404 (no such workflow file)', false, 'GitHub answered 404 Not Found: there is no workflow agent-replay.yml in this repository (the check-workflow input names its file in .github/workflows)'],
    ['422 (no workflow_dispatch trigger)', true, "GitHub answered 422 Workflow does not have 'workflow_dispatch' trigger: the workflow agent-replay.yml needs a workflow_dispatch trigger"],
  ])('a dispatch that fails with %s is said plainly', async (_name, present, why) => {
    if (present) gh.addWorkflow('octo', 'shop', 'agent-replay.yml', { dispatchable: false });
    const error = await gitHubErrorOf(gitHubApiOf(gh).dispatchWorkflow('octo', 'shop', 'agent-replay.yml', 'feature'));
    expect(dispatchFailure(error, 'agent-replay.yml')).toBe(why);
    expect(gh.dispatches).toEqual([]);
    expect(gh.violations).toEqual([]);
  });
});


describe('a commit GitHub refuses', () => {
  it.each([
    [
      'a ruleset or branch protection',
      { type: 'UNPROCESSABLE', message: 'Repository rule violations found\n\nChanges must be made through a pull request.\n\n' },
      'GitHub refused the commit on the branch feature (UNPROCESSABLE Repository rule violations found Changes must be made through a pull request.): a branch protection rule or a ruleset does not let this token push to it, so nothing was written. Let the accept job\'s token push to feature (or give the job a GitHub App token that may), or run agent-replay accept in a clone of the branch and push; then apply the label again.',
    ],
  ])('a commit refused (%s) is a refusal in the comment that names the fix, and the label is removed', async (_name, error, message) => {
    await reviewedCheck();
    gh.refuseCommits('octo/shop', 'feature', error);
    const run = await accept();
    expect(run.code).toBe(1);
    expect(gh.commits).toHaveLength(0);
    expect(gh.labels('octo', 'shop', 7)).toEqual([]);
    expect(ourComment()!.body).toContain(`**Baselines not accepted.** ${capitalized(message)}`);
    expect(run.stdout).toContain(`::error::baselines not accepted: ${message}`);
    expect(run.outputs['commit-sha']).toBeUndefined();
    expect(gh.violations).toEqual([]);
  });

  // The other refusals take the same way as the ruleset's above, in words of their own
  // (commitRefusal): GitHub's answer to the commit, read by the Action's client, without a start of
  // the Action each (docs/contributing.md, "Speed").
  it.each([
    [
      'a token without contents: write',
      { type: 'FORBIDDEN', message: 'Resource not accessible by integration' },
      'GitHub refused the commit on the branch feature (FORBIDDEN Resource not accessible by integration): the accept job needs the contents: write permission, so nothing was written. Add it to the accept workflow\'s permissions, then apply the label again.',
    ],
    [
      'a branch deleted since the check',
      { type: 'NOT_FOUND', message: 'Could not resolve to a Ref with the name refs/heads/feature.' },
      'GitHub found no branch feature to commit to (NOT_FOUND Could not resolve to a Ref with the name refs/heads/feature.): it was deleted or renamed, so nothing was written. Push the branch again, then apply the label again.',
    ],
  ])('a commit refused (%s) names the fix', async (_name, refusal, message) => {
    gh.refuseCommits('octo/shop', 'feature', refusal);
    expect(commitRefusal(await gitHubErrorOf(commitOnFeature(gh)), 'feature')).toBe(message);
    if (refusal.type === 'FORBIDDEN') {
      saidAsTroubleshootingQuotes(
        `baselines not accepted: ${message}`,
        "baselines not accepted: GitHub refused the commit on the branch <branch> (FORBIDDEN Resource not accessible by integration): the accept job needs the contents: write permission, so nothing was written. Add it to the accept workflow's permissions, then apply the label again.",
        { '<branch>': 'feature' },
      );
    }
    expect(gh.commits).toHaveLength(0);
    expect(gh.violations).toEqual([]);
  });
});
