// Check mode and earlier runs (docs/evaluations.md, "In the PR comment and job summary"): "since
// the previous run" from the run the sticky comment showed before (its metadata and its artifact,
// downloaded over REST), and the agreement trend of the default branch from recorded push runs. The
// Action runs as a child process against the fake GitHub, which checks every REST request against
// GitHub's OpenAPI description.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { artifactZip } from '../support/zip.js';
import { actionContextOf, gitHubApiOf, HEAD, makeWorkspace, pullPayload, runAction, runActionHere, useServers, type ActionRun } from './harness.js';
import { defaultBranchTimings, defaultBranchTrend, previousRun } from '../../src/action/history.js';
import type { ActionContext } from '../../src/action/context.js';
import { parseRecord } from '../../src/record/index.js';
import { ctx as reportCtx, fixture, run as record } from '../report/fixtures.js';
import { repeated, withRunStats } from '../report/stats-fixtures.js';
import { renderComment } from '../../src/report/index.js';
import { githubHtml, visibleText } from '../report/helpers.js';
import { docsUrl } from '../../src/version.js';
import { fixtureRecords, OTHER, STORED } from '../support/older-record.js';

// The agent's replies, changed between runs by the tests.
let replies: Record<string, string> = {};

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  const message = String(body.message);
  return { json: { reply: replies[message] ?? '?', route: { conversation: message, stage: 'answer' }, ended: false } };
};

const FIXTURES = `fixtures:
  - { label: greeting, message: hello, assert: { contains: Welcome } }
  - { label: refund-policy, message: refund, assert: { regex: "30 days" } }
  - { label: opening-hours, message: hours, assert: { contains: "9" } }
  - { label: tone, message: tone }
`;
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';

const FIRST = { hello: 'Welcome!', refund: 'No refunds, ever.', hours: 'Open 9 to 5.', tone: 'Hi there.' };
const SECOND = { hello: 'Welcome!', refund: 'Refunds within 30 days.', hours: 'Closed today.', tone: 'Hello, friend.' };

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  (g) => g.addPull('octo', 'shop', { number: 7, headSha: HEAD }),
  (a, g) => {
    agent = a;
    gh = g;
  },
);

const WORKFLOW_REF = 'octo/shop/.github/workflows/agent-replay.yml@refs/pull/7/merge';

/**
 * A check run on the pull request: started end to end by firstRun (`start`); the later runs are the
 * Action's run in this process (runActionHere; docs/contributing.md, "One Action start per path").
 */
async function check(runId: number, env: Record<string, string> = {}, payload: unknown = pullPayload(), start = false): Promise<ActionRun> {
  const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
  return (start ? runAction : runActionHere)({ gh, workspace, inputs: { 'agent-url': agent.url }, event: { name: 'pull_request', payload }, runId, env });
}

/** Records the run as GitHub would: a completed workflow run with its results artifact. */
async function recordRun(r: ActionRun, runId: number): Promise<void> {
  gh.addWorkflowRun('octo', 'shop', { id: runId, headSha: HEAD });
  const results = readFileSync(r.outputs['results-path'] as string, 'utf8');
  gh.addArtifact('octo', 'shop', runId, { name: r.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: results }]) });
}

const comment = (): string => gh.comments('octo', 'shop', 7)[0]?.body ?? '';

/**
 * The first run these tests compare with (run 1001, the agent replying FIRST, on a pull request
 * without comments), made once for the file like accept.test.ts's reviewed check: a later test's
 * fresh fake GitHub gets the comment it posted again instead of a second identical run.
 */
let firstCheck: { run: ActionRun; comments: string[] } | null = null;
async function firstRun(): Promise<ActionRun> {
  replies = FIRST;
  if (firstCheck === null) {
    const run = await check(1001, {}, pullPayload(), true);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    firstCheck = { run, comments: gh.comments('octo', 'shop', 7).filter((c) => c.user.login === gh.viewer.login).map((c) => c.body) };
    return run;
  }
  for (const body of firstCheck.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
  return firstCheck.run;
}

describe('since the previous run', () => {
  it('is absent on the first run; the second run compares with the run the comment showed: fixed, broken, changed with labels', async () => {
    const first = await firstRun();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const firstBody = comment();
    expect(firstBody).toContain('📊 **Agreement 75%**: 3 of 4 items passed');
    expect(firstBody).not.toMatch(/previous run/i);

    await recordRun(first, 1001);
    replies = SECOND;
    const second = await check(1002);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.outputs['comment-status']).toBe('updated');
    const body = comment();
    const text = visibleText(githubHtml(body)).replace(/\s+/g, ' ');
    // One line in the headline area, details below.
    expect(text).toContain('Agreement 75% : 3 of 4 items passed · since the previous run: 1 fixed · 1 broken · 1 changed');
    expect(text).toContain('Since the previous run (run 1001): 1 fixed · 1 broken · 1 changed · agreement 75% → 75%');
    const details = /<details><summary>What moved since the previous run<\/summary>([\s\S]*?)<\/details>/.exec(body)?.[1] ?? '';
    expect(details).toContain('Why: 3 replies changed.');
    expect(details).toContain('**Broken (1)**\n\n- `opening-hours`: pass → fail · reply changed');
    expect(details).toContain('**Fixed (1)**\n\n- `refund-policy`: fail → pass · reply changed');
    expect(details).toContain('**Changed (1)**\n\n- `tone`: reply changed');
    // The previous run's artifact was fetched over REST, as accept mode does.
    const ops = gh.requests.map((r) => r.operation);
    expect(ops).toContain('GET /repos/{owner}/{repo}/actions/runs/{run_id}');
    expect(ops).toContain('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}');
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  it('says one line when nothing changed; computes no pass rate of attempts between repeated runs', async () => {
    // The comparison end to end: the first test. The same record again, looked up and compared by
    // previousRun on this fake GitHub and worded by the comment, without a start of the Action
    // (docs/contributing.md, "Speed").
    const first = await firstRun();
    await recordRun(first, 1001);
    const same = parseRecord(readFileSync(first.outputs['results-path'] as string, 'utf8'), 'results.json');
    const previous = await previousRun(gitHubApiOf(gh), await actionContextOf('pull_request', pullPayload()), 'agent-replay', same);
    expect(previous).toMatchObject({ runId: '1001' });
    const body = renderComment(same, { ...reportCtx, previous });
    expect(body).toContain('since the previous run: nothing changed');
    expect(body).not.toContain('What moved since the previous run');

    // Between two repeated runs (on pull request 8, whose comment shows the earlier) it computes no
    // pass rate of attempts: nothing shows one there, the run's own is under the agreement line.
    const earlier = { ...withRunStats(['a', 'b'].map((l) => repeated(l, null, { passed: 4, total: 5 }, 3))), startedAt: '2026-12-01T09:00:00.000Z' };
    const later = { ...withRunStats(['a', 'b'].map((l) => repeated(l, { passed: 4, total: 5 }, { passed: 3, total: 5 }, 3))), startedAt: '2026-12-02T09:00:00.000Z' };
    gh.addPull('octo', 'shop', { number: 8, headSha: HEAD });
    gh.addComment('octo', 'shop', 8, { body: renderComment(earlier, reportCtx), user: gh.viewer });
    gh.addWorkflowRun('octo', 'shop', { id: Number(reportCtx.runId), headSha: HEAD });
    gh.addArtifact('octo', 'shop', Number(reportCtx.runId), { name: reportCtx.artifactName as string, zip: await artifactZip([{ name: 'results.json', data: JSON.stringify(earlier) }]) });
    const repeatedPrevious = await previousRun(gitHubApiOf(gh), await actionContextOf('pull_request', pullPayload({ number: 8 })), reportCtx.marker, later);
    const comparison = repeatedPrevious !== null && 'comparison' in repeatedPrevious ? repeatedPrevious.comparison : null;
    // Compared (the attempts that moved are there), without the bootstrap of a line nothing shows.
    expect(comparison?.attemptsMoved.map((m) => m.label)).toEqual(['a', 'b']);
    expect(comparison?.passRate).toBeNull();
    expect(gh.violations).toEqual([]);
  });

  it('a missing previous artifact does not fail the job: one calm line', async () => {
    // A comparison not made, said in one calm line of the summary and none of the log's warnings,
    // end to end: the test below (a comment past the comments read). This reason, from the lookup
    // on this fake GitHub, without a start of the Action.
    const first = await firstRun();
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD }); // recorded, but its artifact is gone
    const record = parseRecord(readFileSync(first.outputs['results-path'] as string, 'utf8'), 'results.json');
    const looked = await printedBy(async () => previousRun(gitHubApiOf(gh), await actionContextOf('pull_request', pullPayload()), 'agent-replay', record));
    expect(looked.value).toEqual({ runId: '1001', unavailable: 'the results artifact is missing' });
    expect(looked.printed).not.toMatch(/::(warning|error)::/);
    expect(renderComment(record, { ...reportCtx, previous: looked.value })).toContain('_Since the previous run: not compared (the results artifact is missing)._');
    expect(gh.violations).toEqual([]);
  });

  it('a comment past the 3,000 comments read: one log line naming the bound and how to compare, and one calm line in the summary', async () => {
    // Pages of one comment: the 30 pages read (src/github/api.ts, MAX_COMMENT_PAGES) end before the
    // 31st comment, as 30 pages of 100 end before the 3,001st.
    gh.maxPerPage = 1;
    gh.addComments('octo', 'shop', 7, 31, { login: 'bob', type: 'User' });
    replies = SECOND;
    const run = await check(1002);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `since the previous run: not compared: pull request #7 has more than 3,000 comments and agent-replay reads its oldest 3,000 (where its comment is, written at the first check): its comment is not among them, and it names the previous run. The bound is fixed; to compare, download the results artifacts of both runs and run agent-replay compare BEFORE.json AFTER.json (${docsUrl('evaluations.md', 'Compare')})`,
    );
    expect(run.stdout).not.toMatch(/::(warning|error)::since the previous run/);
    expect(run.summary).toContain("_Since the previous run: not compared (the comment naming it is not among the pull request's oldest 3,000 comments, the most read)._");
  });

  it('a GitHub error while looking it up is a warning, and the comment still posts', async () => {
    // previousRun's null is what a first run has too: the comment then shows this run only, as the
    // first test's first run does end to end; the warning, from the lookup on this fake GitHub,
    // without a start of the Action (docs/contributing.md, "Speed").
    const first = await firstRun();
    await recordRun(first, 1001);
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', status: 500, times: 10 });
    const record = parseRecord(readFileSync(first.outputs['results-path'] as string, 'utf8'), 'results.json');
    const looked = await printedBy(async () => previousRun(gitHubApiOf(gh), await actionContextOf('pull_request', pullPayload()), 'agent-replay', record));
    expect(looked.value).toBeNull();
    expect(looked.printed).toContain(
      '::warning::since the previous run: not looked up (GitHub answered 500 fake-github: injected 500: re-run the job once GitHub answers (https://www.githubstatus.com)); the comment shows this run only',
    );
    expect(gh.violations).toEqual([]);
  });

  it("a previous run written by an older agent-replay, with items it reads as written, is compared and named in one warning", async () => {
    // Its items are shown beside this run's (docs/results-json.md, "Records of an older agent-replay"): said as compare says them, naming the artifact and the run.
    const { old } = fixtureRecords([STORED, OTHER, OTHER]);
    const earlier = { ...record([old], { meaning: { check: 'judge', model: 'gpt-4o-mini', promptVersion: 'meaning-v1' } }), startedAt: '2026-12-01T09:00:00.000Z' };
    const later = { ...record([fixture('refund')]), startedAt: '2026-12-02T09:00:00.000Z' };
    gh.addComment('octo', 'shop', 7, { body: renderComment(earlier, reportCtx), user: gh.viewer });
    gh.addWorkflowRun('octo', 'shop', { id: Number(reportCtx.runId), headSha: HEAD });
    gh.addArtifact('octo', 'shop', Number(reportCtx.runId), { name: reportCtx.artifactName as string, zip: await artifactZip([{ name: 'results.json', data: JSON.stringify(earlier) }]) });
    const looked = await printedBy(async () => previousRun(gitHubApiOf(gh), await actionContextOf('pull_request', pullPayload()), reportCtx.marker, later));
    expect(looked.value).toMatchObject({ runId: reportCtx.runId });
    const warnings = looked.printed.split('\n').filter((l) => l.startsWith('::warning::'));
    expect(warnings).toEqual([
      `::warning::since the previous run: artifact ${reportCtx.artifactName as string} of run ${reportCtx.runId as string}: written by an older agent-replay: the repeated item refund shows the baseline's reply while another attempt replied otherwise, and the record lacks what a run now keeps of that attempt (its meaning; a script's: who ended its conversation), so it reads as recorded, with no word of that attempt, and accept refuses it (replies vary); run it again to see it as a run does now (run --only refund)`,
    ]);
    expect(gh.violations).toEqual([]);
  });
});

/** A pull request's check of this workflow, on a repository whose default branch is main, as the Action reads the event. */
function pullRequestOnMain(): Promise<ActionContext> {
  return actionContextOf('pull_request', { ...pullPayload(), repository: { default_branch: 'main' } }, { GITHUB_WORKFLOW_REF: WORKFLOW_REF, GITHUB_RUN_ID: '1001' });
}

/** What `fn` returned, and what it printed on stdout (where @actions/core writes a warning). */
async function printedBy<T>(fn: () => Promise<T>): Promise<{ value: T; printed: string }> {
  let printed = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    return { value: await fn(), printed };
  } finally {
    process.stdout.write = write;
  }
}

/** A recorded push run of `main` whose record has `passed` of `total` fixtures passing. */
async function pushRun(id: number, passed: number, total: number, options: { sha?: string; artifact?: boolean; branch?: string; conclusion?: string } = {}): Promise<void> {
  const sha = options.sha ?? id.toString(16).padStart(40, 'a');
  gh.addWorkflowRun('octo', 'shop', { id, headSha: sha, event: 'push', branch: options.branch ?? 'main', workflow: 'agent-replay.yml', conclusion: options.conclusion ?? 'success' });
  if (options.artifact === false) return;
  const fixtures = Array.from({ length: total }, (_, i) => fixture(`f${i}`, i < passed ? {} : { verdict: 'fail', drift: { reply: 'same', route: 'same', verdict: 'still_failing' } }));
  const rec = record(fixtures, { commit: sha });
  gh.addArtifact('octo', 'shop', id, { name: `agent-replay-results-${sha}`, zip: await artifactZip([{ name: 'results.json', data: JSON.stringify(rec) }]) });
}

describe('the trend of the default branch', () => {
  it('shows the agreement of the last recorded push runs in the comment and as a chart in the summary', async () => {
    await pushRun(501, 1, 2, { sha: '5'.repeat(40) }); // 50%
    await pushRun(502, 3, 4, { sha: '6'.repeat(40) }); // 75%
    await pushRun(503, 0, 1, { artifact: false }); // no artifact: left out
    await pushRun(504, 4, 4, { sha: '7'.repeat(40) }); // 100%
    await pushRun(505, 0, 4, { conclusion: 'failure' }); // not a success: not listed
    await pushRun(506, 0, 4, { branch: 'feature' }); // another branch: not listed
    replies = FIRST;
    const payload = { ...pullPayload(), repository: { default_branch: 'main' } };
    const r = await check(1001, { GITHUB_WORKFLOW_REF: WORKFLOW_REF }, payload);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(comment()).toContain('📈 **Agreement on `main`** (last 3 recorded runs): 50% → 75% → 100% · this run: 75%');
    expect(r.summary).toContain(
      ['```mermaid', 'xychart-beta', '  title "Agreement on main (%)"', '  x-axis ["5555555", "6666666", "7777777"]', '  y-axis "agreement (%)" 0 --> 100', '  line [50, 75, 100]', '```'].join('\n'),
    );
    // report.html in the artifact, written after the lookup, draws the same three points.
    const html = readFileSync(join(dirname(r.outputs['results-path'] as string), 'report.html'), 'utf8');
    expect(html.match(/class="trend-point"/g)).toHaveLength(3);
    const list = gh.requests.find((q) => q.operation === 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs');
    expect(list).toMatchObject({ path: '/repos/octo/shop/actions/workflows/agent-replay.yml/runs', query: { branch: 'main', event: 'push', status: 'success', per_page: '10' } });
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  // The trend the lookup finds is drawn as the first test of this block shows end to end, and a
  // trend left out (null) as every run without GITHUB_WORKFLOW_REF; these are the lookup's own
  // decisions (defaultBranchTrend) on this fake GitHub, without a start of the Action each
  // (docs/contributing.md, "Speed").
  it('takes at most the last 10 runs, at most 10 downloads', async () => {
    // Runs 600-612, oldest first: 50%, 100%, 50%, ...; the last 10 are 603-612.
    for (let i = 0; i < 13; i++) await pushRun(600 + i, i % 2 === 0 ? 1 : 2, 2);
    const trend = await defaultBranchTrend(gitHubApiOf(gh), await pullRequestOnMain(), record([fixture('a')]));
    expect(trend?.points.map((p) => p.runId)).toEqual(Array.from({ length: 10 }, (_, i) => String(603 + i)));
    expect(trend?.points.map((p) => p.agreement.percent)).toEqual([100, 50, 100, 50, 100, 50, 100, 50, 100, 50]);
    expect(trend?.includesThisRun).toBe(false);
    expect(gh.requests.filter((q) => q.operation === 'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}')).toHaveLength(10);
    expect(gh.violations).toEqual([]);
  });

  it('a failed lookup is a warning and leaves the trend out', async () => {
    await pushRun(501, 1, 2);
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', status: 403, body: { message: 'Resource not accessible by integration' } });
    const looked = await printedBy(async () => defaultBranchTrend(gitHubApiOf(gh), await pullRequestOnMain(), record([fixture('a')])));
    expect(looked.value).toBeNull();
    expect(looked.printed).toContain(
      "::warning::trend: left out (GitHub answered 403 Resource not accessible by integration: the job's token lacks the actions: read permission; add it to the workflow's permissions)",
    );
    expect(looked.printed).not.toContain('/repos/octo/shop/actions/workflows'); // not the raw request line
  });

  it('a push to the default branch is the last point of its own chart', async () => {
    await pushRun(501, 1, 2, { sha: '5'.repeat(40) });
    replies = FIRST;
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: CONFIG });
    // The push's path is started end to end in test/action/events.test.ts.
    const r = await runActionHere({
      gh,
      workspace,
      inputs: { 'agent-url': agent.url },
      event: { name: 'push', payload: { ref: 'refs/heads/main', repository: { default_branch: 'main' } } },
      runId: 1001,
      env: { GITHUB_WORKFLOW_REF: 'octo/shop/.github/workflows/agent-replay.yml@refs/heads/main' },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.summary).toContain('📈 **Agreement on `main`** (last 2 recorded runs, this one last): 50% → 75%');
    expect(r.summary).toContain(`  x-axis ["5555555", "${'f'.repeat(7)}"]\n  y-axis "agreement (%)" 0 --> 100\n  line [50, 75]`);
    expect(gh.violations).toEqual([]);
  });
});

describe("the default branch's name in the timings line", () => {
  it('is on its one line: a U+2028 in it (git allows it in a ref name) as ⏎, not a line break of the log', async () => {
    const ctx = await actionContextOf('push', { ref: 'refs/heads/main', repository: { default_branch: 'main\u2028x' } }, { GITHUB_WORKFLOW_REF: WORKFLOW_REF, GITHUB_RUN_ID: '1001' });
    const { value, printed } = await printedBy(() => defaultBranchTimings(gitHubApiOf(gh), ctx));
    expect(value).toBeNull();
    expect(printed).toBe('timings: no readable results in the last successful main ⏎ x runs of agent-replay.yml; shards are chosen by a hash of each label\n');
  });
});
