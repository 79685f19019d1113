// Two suites in one repository, two Action steps in one workflow (docs/action.md, "Two suites in
// one repository"): apps/support/.agent-replay and apps/sales/.agent-replay, each step with its own
// `dir`, against the OpenAPI-checked fake GitHub. Each suite keeps its own comment, artifact,
// summary heading, previous run and trend, and its own acceptance.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FakeGitHub, FakeState } from '../support/github-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { artifactZip } from '../support/zip.js';
import { git } from '../support/fork-clone.js';
import { tempDir } from '../support/temp.js';
import { gitHubApiOf, HEAD, pullPayload, runAction, runActionHere, seedPullForAccept, useServers, type ActionRun } from './harness.js';
import { movedByAcceptances } from '../../src/action/accept.js';
import { parseCommentMetadata } from '../../src/report/index.js';

const handler: AgentHandler = (req) => {
  const message = String(((req.json ?? {}) as Record<string, unknown>).message);
  return { json: { reply: message === 'hello' ? 'Welcome!' : `About ${message}: ask us.`, route: { conversation: message, stage: 'answer' } } };
};

const SUPPORT = 'apps/support/.agent-replay';
const SALES = 'apps/sales/.agent-replay';
/** Both suites have a `greeting`: the labels of two suites may overlap. */
const SUITES: Record<string, string> = {
  [SUPPORT]: 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n  - { label: refund, message: refund }\n',
  [SALES]: 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n  - { label: pricing, message: pricing }\n',
};
const CONFIG = 'agent:\n  retries: 0\ncost: { capUsd: 1 }\n';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(handler, seedPullForAccept, (a, g) => {
  agent = a;
  gh = g;
});

/** The monorepo's checkout: a git repository (so that each run records its suitePath) with both suites. */
async function monorepo(): Promise<string> {
  const ws = await tempDir('agent-replay-monorepo-');
  git(ws, 'init', '-q');
  for (const [dir, fixtures] of Object.entries(SUITES)) {
    await mkdir(join(ws, dir, 'fixtures'), { recursive: true });
    await writeFile(join(ws, dir, 'fixtures', 'suite.yml'), fixtures);
    await writeFile(join(ws, dir, 'config.yml'), CONFIG);
  }
  return ws;
}

/**
 * One step of the check job: the suite in `dir`, in workflow run `runId`. Started end to end once
 * (`start`, the support suite's step of the first check job); the other steps are the Action's run
 * in this process (runActionHere; docs/contributing.md, "One Action start per path").
 */
function step(workspace: string, dir: string, runId: number, start = false): Promise<ActionRun> {
  return (start ? runAction : runActionHere)({ gh, workspace, runId, inputs: { 'agent-url': agent.url, 'fail-on': 'none', dir }, event: { name: 'pull_request', payload: pullPayload() } });
}

const ours = (): string[] => gh.comments('octo', 'shop', 7).filter((c) => c.user.login === gh.viewer.login).map((c) => c.body);
const commentOf = (dir: string): string | undefined => ours().find((b) => b.includes(dir));

/** The two check steps of workflow run 1001, made once for the file: what a later test's fresh fake GitHub gets again. */
let checked: { comments: string[]; runs: Record<string, ActionRun>; results: Record<string, string> } | null = null;

/** The comment of a version before suites had keys of their own, under the comment key alone: the first step takes it over. */
const FORMER_COMMENT = '<!-- agent-replay:marker=agent-replay -->\n<!-- agent-replay:meta {"headSha":null,"runId":null,"artifactName":null} -->\nthe report of an older version';

/**
 * The check job of run 1001 (its two steps) on this test's fake GitHub: its comments, the workflow
 * run and both results artifacts. Made on a pull request whose only comment is FORMER_COMMENT.
 */
async function checkedRun(): Promise<{ runs: Record<string, ActionRun>; ids: Record<string, number> }> {
  if (checked === null) {
    gh.addComment('octo', 'shop', 7, { body: FORMER_COMMENT, user: gh.viewer });
    const ws = await monorepo();
    const runs = { [SUPPORT]: await step(ws, SUPPORT, 1001, true), [SALES]: await step(ws, SALES, 1001) };
    checked = {
      comments: ours(),
      runs,
      results: Object.fromEntries(Object.entries(runs).map(([dir, r]) => [dir, readFileSync(r.outputs['results-path'] as string, 'utf8')])),
    };
  } else {
    for (const body of checked.comments) gh.addComment('octo', 'shop', 7, { body, user: gh.viewer });
  }
  gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
  const ids: Record<string, number> = {};
  for (const [dir, run] of Object.entries(checked.runs)) {
    ids[dir] = gh.addArtifact('octo', 'shop', 1001, { name: run.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: checked.results[dir] as string }]) }).id;
  }
  return { runs: checked.runs, ids };
}

describe('two check steps, one per suite', () => {
  it('keep a comment, an artifact and a summary heading each, named by the suite; the first takes over the comment its key alone named before, rather than posting one beside it', async () => {
    const { runs } = await checkedRun();
    const support = runs[SUPPORT] as ActionRun;
    const sales = runs[SALES] as ActionRun;
    expect(support.code, support.stdout).toBe(0);
    expect(sales.code, sales.stdout).toBe(0);
    // Two comments, each naming its suite: the second step does not overwrite the first's, and
    // the first updated the former comment (FORMER_COMMENT) instead of posting a third.
    expect(ours()).toHaveLength(2);
    expect(support.outputs['comment-status']).toBe('updated');
    expect(sales.outputs['comment-status']).toBe('created');
    expect(ours().some((b) => b.includes('the report of an older version'))).toBe(false);
    expect(commentOf(SUPPORT)).toContain(`**Suite** \`${SUPPORT}\``);
    expect(commentOf(SUPPORT)).toContain('refund');
    expect(commentOf(SALES)).toContain('pricing');
    expect(commentOf(SALES)).not.toContain('refund');
    // Two artifact names: one workflow run cannot upload one name twice.
    expect(support.outputs['artifact-name']).toBe(`agent-replay-results-apps-support-.agent-replay-${HEAD}`);
    expect(sales.outputs['artifact-name']).toBe(`agent-replay-results-apps-sales-.agent-replay-${HEAD}`);
    expect(parseCommentMetadata(commentOf(SALES) ?? '')?.artifactName).toBe(sales.outputs['artifact-name']);
    // Each summary names its suite; each record, its folder in the repository.
    expect(support.summary).toContain(`**Suite** \`${SUPPORT}\``);
    expect(sales.summary).toContain(`**Suite** \`${SALES}\``);
    // And each report.html, uploaded beside results.json.
    expect(readFileSync(join(dirname(support.outputs['results-path'] as string), 'report.html'), 'utf8')).toContain(`Suite <code>${SUPPORT}</code>`);
    expect(readFileSync(join(dirname(sales.outputs['results-path'] as string), 'report.html'), 'utf8')).toContain(`Suite <code>${SALES}</code>`);
    expect(support.outputs['results-path']).toBe(join(support.workspace, 'agent-replay-results', 'apps-support-.agent-replay', 'results.json'));
    expect(JSON.parse(checked?.results[SUPPORT] ?? '{}').suitePath).toBe(SUPPORT);
    expect(JSON.parse(checked?.results[SALES] ?? '{}').suitePath).toBe(SALES);
  });

  it("reads its own comment's run as the previous run, and its own artifacts for the trend", async () => {
    const { ids } = await checkedRun();
    // The default branch's last push run uploaded both suites' results (the sales suite's last).
    gh.addWorkflowRun('octo', 'shop', { id: 900, headSha: '9'.repeat(40), event: 'push', branch: 'main' });
    const mainSupport = gh.addArtifact('octo', 'shop', 900, { name: `agent-replay-results-apps-support-.agent-replay-${'9'.repeat(40)}`, zip: await artifactZip([{ name: 'results.json', data: checked?.results[SUPPORT] as string }]) }).id;
    const mainSales = gh.addArtifact('octo', 'shop', 900, { name: `agent-replay-results-apps-sales-.agent-replay-${'9'.repeat(40)}`, zip: await artifactZip([{ name: 'results.json', data: checked?.results[SALES] as string }]) }).id;
    const again = await runActionHere({
      gh,
      workspace: await monorepo(),
      runId: 1002,
      inputs: { 'agent-url': agent.url, 'fail-on': 'none', dir: SUPPORT },
      event: { name: 'pull_request', payload: pullPayload() },
      env: { GITHUB_WORKFLOW_REF: 'octo/shop/.github/workflows/agent-replay.yml@refs/pull/7/merge' },
    });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs['comment-status']).toBe('updated');
    expect(commentOf(SUPPORT)).toContain('**Since the previous run** (run 1001): nothing changed');
    const downloaded = gh.requests.filter((r) => r.method === 'GET' && /\/actions\/artifacts\/\d+\/zip$/.test(r.path)).map((r) => Number(r.path.split('/').at(-2)));
    expect(downloaded.sort()).toEqual([ids[SUPPORT], mainSupport].sort());
    expect(downloaded).not.toContain(mainSales);
    expect(commentOf(SALES)).toBe(checked?.comments.find((b) => b.includes(SALES)));
  });
});

/**
 * One step of the accept job, on the label `maintainer` applied to pull request 7: the suite in `dir`,
 * in attempt `attempt` of the job. Started end to end once (`start`, supportStep's); the other steps
 * are the Action's run in this process (runActionHere).
 */
function acceptStep(dir: string, attempt = 1, start = false): Promise<ActionRun> {
  return (start ? runAction : runActionHere)({
    gh,
    workspace: ws0,
    runId: 2002,
    workflow: 'agent-replay-accept',
    inputs: { mode: 'accept', 'comment-key': 'agent-replay', dir },
    event: { name: 'pull_request_target', payload: pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer' }) },
    env: { GITHUB_RUN_ATTEMPT: String(attempt) },
  });
}
const short = (sha: string | undefined): string => (sha ?? '').slice(0, 7);
let ws0 = '';

/**
 * The branch at the reviewed head as GitHub stores it: the sales suite with its config.yml, the
 * support suite with none (its settings all from the inputs: a fixtures folder makes it a suite),
 * and a prompt the agent reads, in a folder named `baselines` that is no suite's, beside another
 * tool's config.yml.
 */
function storeBranch(): void {
  gh.setBranch('octo/shop', 'feature', HEAD, {
    [`${SUPPORT}/fixtures/support.yml`]: 'fixtures: []\n',
    [`${SALES}/config.yml`]: CONFIG,
    'src/prompts/config.yml': 'model: gpt-4o\n',
    'src/prompts/baselines/system.json': '{"role":"system","text":"Be helpful."}\n',
  });
}

/** Both suites checked on pull request 7, its branch as GitHub stores it, and the accept label applied. */
async function labelled(): Promise<void> {
  await checkedRun();
  storeBranch();
  ws0 = await tempDir('agent-replay-accept-');
  gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
}

/** The support suite's accept step of attempt 1 on labelled()'s pull request, made once for the file: its run, and the fake GitHub as it left it. */
let supportAccepted: { run: ActionRun; state: FakeState } | null = null;

/**
 * labelled(), then the support suite's accept step (attempt 1): run by the first test that needs it,
 * and given to the later ones as the fake it left (FakeGitHub's state), not started again: each
 * test starts from the same labelled pull request, so the step would decide the same again.
 */
async function supportStep(): Promise<ActionRun> {
  await labelled();
  if (supportAccepted === null) supportAccepted = { run: await acceptStep(SUPPORT, 1, true), state: gh.state() };
  else gh.restore(supportAccepted.state);
  return supportAccepted.run;
}

describe('two accept steps, one per suite, on one label', () => {
  it("each commits its own suite's baselines, the second on top of the first's commit (of a suite with no config.yml)", async () => {
    const support = await supportStep();
    expect(support.code, support.stdout).toBe(0);
    const sales = await acceptStep(SALES);
    expect(sales.code, sales.stdout).toBe(0);
    // Each step's job summary names its suite.
    expect(support.summary.startsWith(`**Suite** \`${SUPPORT}\`\n\n## agent-replay accept: baselines accepted`)).toBe(true);
    expect(sales.summary.startsWith(`**Suite** \`${SALES}\`\n\n## agent-replay accept: baselines accepted`)).toBe(true);
    expect(gh.commits.map((c) => c.additions.map((a) => a.path).sort())).toEqual([
      [`${SUPPORT}/baselines/greeting.json`, `${SUPPORT}/baselines/refund.json`],
      [`${SALES}/baselines/greeting.json`, `${SALES}/baselines/pricing.json`],
    ]);
    expect(gh.commits[1]?.parent).toBe(gh.commits[0]?.oid);
    expect(gh.commits[1]?.body).toContain(`for the suite in ${SALES}:`);
    expect(JSON.parse(gh.commits[1]?.additions[1]?.contents ?? '{}').reply).toBe('About pricing: ask us.');
    expect(sales.outputs['commit-sha']).toBe(gh.branch('octo/shop', 'feature')?.head);
    // Each comment says what became of its own suite.
    expect(commentOf(SUPPORT)).toContain(`Baselines accepted in`);
    expect(commentOf(SUPPORT)).toContain((gh.commits[0]?.oid ?? '').slice(0, 7));
    expect(commentOf(SALES)).toContain((gh.commits[1]?.oid ?? '').slice(0, 7));
    // A re-run of the job: the first suite's commit is under the second's, not a moved head; nothing to do for either.
    const [first, second] = [await acceptStep(SUPPORT, 2), await acceptStep(SALES, 2)];
    expect(first.code, first.stdout).toBe(0);
    expect(second.code, second.stdout).toBe(0);
    expect(gh.commits).toHaveLength(2);
    const [c0, c1] = [short(gh.commits[0]?.oid), short(gh.commits[1]?.oid)];
    expect(first.stdout).toContain(`were already accepted in ${c0}, under the pull request's head ${c1} (baseline commits of other suites on top of it); nothing to do.`);
    expect(first.summary).toContain(`already accepted in \`${c0}\`, under the pull request's head \`${c1}\`, whose commits on top of it are baseline commits of other suites: nothing to do, no commit was made.`);
    expect(second.stdout).toContain(`were already accepted in ${c1}, the pull request's head; nothing to do.`);
  });

  it('a re-run after only the second step committed (its comment not updated): the first commits on top, the second finds its own commit under it', async () => {
    await labelled();
    // Attempt 1: the support step stopped before its commit; the sales step committed on the reviewed
    // head, and GitHub failed the update of its comment, which names no accepting commit then.
    gh.failNext({ method: 'PATCH', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}', status: 'network', times: 4 });
    const sales = await acceptStep(SALES);
    expect(sales.code, sales.stdout).toBe(0);
    expect(sales.stdout).toContain('but the comment could not be updated');
    expect(parseCommentMetadata(commentOf(SALES) ?? '')?.acceptedSha ?? null).toBeNull();
    // Attempt 2.
    const [first, second] = [await acceptStep(SUPPORT, 2), await acceptStep(SALES, 2)];
    expect(first.code, first.stdout).toBe(0);
    expect(second.code, second.stdout).toBe(0);
    expect(gh.commits.map((c) => c.additions[0]?.path)).toEqual([`${SALES}/baselines/greeting.json`, `${SUPPORT}/baselines/greeting.json`]);
    expect(gh.commits[1]?.parent).toBe(gh.commits[0]?.oid);
    expect(commentOf(SUPPORT)).toContain(short(gh.commits[1]?.oid));
    expect(second.stdout).toContain(`were already accepted in ${short(gh.commits[0]?.oid)}, under the pull request's head ${short(gh.commits[1]?.oid)} (baseline commits of other suites on top of it); nothing to do.`);
    // Its comment, which still asked for the label, now shows the acceptance as the first attempt would have written it.
    expect(parseCommentMetadata(commentOf(SALES) ?? '')?.acceptedSha).toBe(gh.commits[0]?.oid);
    expect(commentOf(SALES)).toContain(`Baselines accepted in [\`${short(gh.commits[0]?.oid)}\`](https://github.com/octo/shop/commit/${gh.commits[0]?.oid})`);
    expect(commentOf(SALES)).not.toContain('label to this pull request');
    expect(second.summary).toContain('The comment did not show this acceptance (the accept job that committed could not update it): it does now.');
    expect(gh.violations).toEqual([]);
  });

  it("the second's commit lost on the way: its read-back names the first suite's commit it went on, not the reviewed head; a re-run commits it", async () => {
    expect((await supportStep()).code).toBe(0);
    const first = short(gh.commits[0]?.oid);
    gh.failNext({ method: 'POST', path: '/graphql', operation: 'agentReplayCommit', status: 'network', times: 4 }); // the first try and its 3 retries
    const sales = await acceptStep(SALES);
    expect(sales.code).toBe(1);
    expect(gh.commits).toHaveLength(1);
    expect(sales.stdout).toContain(
      `while committing the baselines, and the branch feature still points at ${first}, another suite's baseline commit on top of the reviewed head ${short(HEAD)}, so nothing was written.`,
    );
    expect(sales.stdout).not.toContain('the reviewed head, so nothing');
    // Refused on its own comment; the first suite's keeps its acceptance.
    expect(commentOf(SALES)).toContain('Baselines not accepted.');
    expect(commentOf(SUPPORT)).not.toContain('Baselines not accepted.');
    expect(commentOf(SUPPORT)).toContain(first);
    const again = await acceptStep(SALES, 2);
    expect(again.code, again.stdout).toBe(0);
    expect(gh.commits[1]?.parent).toBe(gh.commits[0]?.oid);
  });

  // A push by someone else on top of the first suite's commit takes the way of the forged commit
  // below (a moved head, refused on the second suite's own comment, as the lost commit above is,
  // while the first keeps its acceptance): that it is no other suite's acceptance is
  // movedByAcceptances', on the branch as the Action's client reads it, without a start of the Action.
  it('the second refuses a head someone else moved, on its own comment, and the first keeps its acceptance', async () => {
    const support = await supportStep();
    expect(support.code, support.stdout).toBe(0);
    gh.pushOnTop('octo/shop', 'feature', '8'.repeat(40));
    const move = await movedByAcceptances(gitHubApiOf(gh), { owner: 'octo', repo: 'shop' }, { headSha: HEAD, runId: 1001 }, '8'.repeat(40), SALES, SALES);
    expect(move).toEqual({ byOthers: false, ours: null, ownFiles: [], why: null });
    expect(gh.commits).toHaveLength(1);
    expect(commentOf(SUPPORT)).toContain(short(gh.commits[0]?.oid));
    expect(gh.violations).toEqual([]);
  });

  // A commit that copies another suite's acceptance message but changes a file in a baselines
  // folder of no suite (a prompt beside another tool's config.yml) is a moved head too, in words of
  // its own: movedByAcceptances's (test/action/moved-by-acceptances.test.ts), without a start of
  // the Action; the way of such words to the refusal is the start below.
  it("refuses a commit that copies this suite's own acceptance message but writes other replies, rather than calling the run already accepted", async () => {
    await labelled();
    // Someone who can push: the sales suite's acceptance of run 1001, as its message reads, with a reply the run never recorded.
    const forged = '6'.repeat(40);
    const baseline = (label: string, reply: string): string =>
      `${JSON.stringify({ label, reply, route: null, verdict: 'pass', acceptedAt: '2026-12-01T00:00:00.000Z', commit: HEAD }, null, 2)}\n`;
    gh.pushOnTop('octo/shop', 'feature', forged, 'Accept agent-replay baselines: greeting, pricing', {
      body: `Accepted the replies recorded at ${HEAD} (workflow run 1001) for the suite in ${SALES}:\n\n- greeting (pass)\n- pricing (pass)`,
      files: { [`${SALES}/baselines/greeting.json`]: baseline('greeting', 'Welcome!'), [`${SALES}/baselines/pricing.json`]: baseline('pricing', 'Everything is free.') },
    });
    const sales = await acceptStep(SALES);
    expect(sales.code, sales.stdout).toBe(1);
    expect(gh.commits).toEqual([]);
    expect(sales.stdout).not.toContain('already accepted');
    expect(sales.stdout).toContain(
      `::error::baselines not accepted: the pull request's head has moved since the run the comment shows (reviewed 1111111, head is now 6666666): 6666666 reads as this suite's acceptance of workflow run 1001, but ${SALES}/baselines/`,
    );
    expect(commentOf(SALES)).toContain('Baselines not accepted.');
    expect(commentOf(SALES)).toContain(`6666666 reads as this suite's acceptance of workflow run 1001, but ${SALES}/baselines/`);
    expect(commentOf(SALES)).not.toContain('Baselines accepted in');
    expect(gh.violations).toEqual([]);
  });
});
