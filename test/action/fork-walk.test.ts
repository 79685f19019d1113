// A fork's pull request, end to end, as a maintainer sets it up (docs/action.md, "Report: combine
// shards, or comment for a fork"): the workflows `init` writes, parsed by GitHub's workflow parser
// and held to action.yml; the fork's pull_request job replaying with the CLI's run (GitHub's own
// event payload, @octokit/webhooks-examples) against a loopback agent; its results.json laid out as
// actions/download-artifact lays out the artifacts init's report workflow downloads (a folder per
// artifact, by name); and report mode on GitHub's own workflow_run payload against the fake GitHub,
// whose every request is held to GitHub's OpenAPI description. All in this process: no child starts.

import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { nativeEcho } from '../support/agent-server.js';
import { useServers } from '../support/servers.js';
import { actionContextOf, gitHubApiOf, parseOutputs, webhookExample } from './harness.js';
import { pullForReport, reportMode } from '../../src/action/report.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { parseCommentMetadata } from '../../src/report/index.js';
import { UserError } from '../../src/errors.js';
import { cli } from '../cli/helpers.js';
import { tempDir } from '../support/temp.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { downloadsTake } from '../support/download-pattern.js';

const servers = useServers(nativeEcho);

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  name: string;
  on: Record<string, { workflows?: string[] }>;
  jobs: Record<string, { if?: string; steps: Step[] }>;
}
const ACTION = parse(readFileSync('action.yml', 'utf8')) as { inputs: Record<string, unknown> };
const WORKFLOWS = ['agent-replay.yml', 'agent-replay-accept.yml', 'agent-replay-report.yml'];

/** The fork's pull request: its head commit (the run's), its head branch in the fork, and the merge commit GitHub made. */
const HEAD = 'ab'.repeat(20);
const MERGE = 'cd'.repeat(20);
const FORK = 'stranger/shop';

/** A repository where `init` ran, with one fixture the echo agent passes; and init's report workflow. */
let repo: string;
let reportWorkflow: Workflow;
/** GitHub's own pull_request payload (synchronize), the fork's: its number, and the head the run records. */
let pullNumber: number;
/** What the fork's last run printed on stderr, and on stdout. */
let runStderr: string;
let runStdout: string;

beforeAll(async () => {
  repo = await tempDir('forkwalk-');
  git(repo, 'init', '-q');
  const init = await cli(['init'], repo);
  expect(init.code, init.stderr).toBe(0);
  await writeFile(join(repo, '.agent-replay/fixtures/example-greeting.yml'), 'label: greeting\nmessage: hello\nassert: { contains: echo }\n');
  await writeFile(join(repo, '.agent-replay/fixtures/second.yml'), 'label: second\nmessage: again\nassert: { contains: echo }\n');
  const report = await readFile(join(repo, '.github/workflows/agent-replay-report.yml'), 'utf8');
  reportWorkflow = parse(report) as Workflow;
});

/** The fork's pull_request job: the CLI's run, in this process, on GitHub's own payload whose head is `head`; the results folder. */
async function forkRun(head: string, args: string[] = []): Promise<string> {
  const payload = webhookExample('pull_request', (e) => e.action === 'synchronize');
  const pull = payload.pull_request as { number: number; head: { sha: string } };
  pull.head.sha = head;
  pullNumber = pull.number;
  const event = join(await tempDir('forkwalk-event-'), 'event.json');
  await writeFile(event, JSON.stringify(payload));
  const out = await tempDir('forkwalk-results-');
  const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_SHA: MERGE };
  const run = await cli(['run', '--agent-url', servers.agent.url, '--out', join(out, 'results.json'), ...args], repo, env);
  expect(run.code, run.stderr).toBe(0);
  runStderr = run.stderr;
  runStdout = run.stdout;
  return out;
}

/** The report job's workspace: each artifact's files in a folder of its name under `shards`, as download-artifact with `pattern` lays them out. */
async function downloaded(artifacts: Record<string, string>): Promise<string> {
  const ws = await tempDir('forkwalk-report-');
  for (const [name, folder] of Object.entries(artifacts)) {
    await mkdir(join(ws, 'shards', name), { recursive: true });
    for (const file of ['results.json', 'pr-number']) if (existsSync(join(folder, file))) await copyFile(join(folder, file), join(ws, 'shards', name, file));
  }
  return ws;
}

/** GitHub's own workflow_run payload (completed), made the fork's pull_request run of the check: GitHub names no pull request for a fork. */
function forkWorkflowRun(head: string): Record<string, unknown> {
  const payload = webhookExample('workflow_run', (e) => e.action === 'completed');
  const run = payload.workflow_run as Record<string, unknown>;
  Object.assign(run, { id: 1001, name: reportWorkflow.on.workflow_run!.workflows![0], event: 'pull_request', head_sha: head, head_branch: 'feature', pull_requests: [] });
  (run.head_repository as Record<string, unknown>).full_name = FORK;
  (run.head_repository as { owner: Record<string, unknown> }).owner.login = 'stranger';
  (payload.repository as Record<string, unknown>).full_name = 'octo/shop';
  return payload;
}

/**
 * init's report step, in this process, on `ws` with the workflow_run event: its inputs as the
 * workflow gives them (pr-number as its pr step reads it from the artifacts: empty without a
 * pr-number file); the log, the outputs and the artifact names asked for.
 */
async function reportStep(ws: string, event: Record<string, unknown>): Promise<{ log: string; outputs: Record<string, string>; uploads: string[] }> {
  const step = reportWorkflow.jobs.report!.steps.find((s) => s.uses?.startsWith('agent-replay/agent-replay@'))!.with!;
  // `cat shards/*/pr-number 2>/dev/null | head -1`, in this process.
  const prNumber = (readdirSync(join(ws, 'shards')).sort().flatMap((a) => (existsSync(join(ws, 'shards', a, 'pr-number')) ? [readFileSync(join(ws, 'shards', a, 'pr-number'), 'utf8')] : [])).join('').split('\n')[0] ?? '').trim();
  const env: Record<string, string> = { 'INPUT_PR-NUMBER': prNumber };
  for (const [k, v] of Object.entries(step)) if (k !== 'pr-number') env[`INPUT_${k.toUpperCase()}`] = v;
  const summary = join(ws, 'summary.md');
  writeFileSync(summary, '');
  writeFileSync(join(ws, 'outputs.txt'), '');
  vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
  vi.stubEnv('GITHUB_OUTPUT', join(ws, 'outputs.txt'));
  const logged: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0);
  const uploads: string[] = [];
  const upload = async (name: string) => (uploads.push(name), { kind: 'skipped' as const, name, reason: 'not here' });
  try {
    await reportMode(readInputs(envInputGetter(env)), await actionContextOf('workflow_run', event), { env: {}, cwd: ws, github: gitHubApiOf(servers.gh), artifacts: { upload } });
    expect(process.exitCode, logged.join('')).toBeUndefined();
  } finally {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  }
  return { log: logged.join(''), outputs: parseOutputs(readFileSync(join(ws, 'outputs.txt'), 'utf8')), uploads };
}

/** Whether the report workflow's downloads take the artifact `name`, of a commit, alone: their patterns with the run's head_sha. */
function takes(name: string, head: string): boolean {
  return downloadsTake(reportWorkflow.jobs.report!.steps, [name], head).length === 1;
}

describe("a fork's pull request, from init to the comment", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("init's workflows pass GitHub's parser, and every input their agent-replay steps give is one action.yml declares", async () => {
    for (const name of WORKFLOWS) {
      const text = await readFile(join(repo, '.github/workflows', name), 'utf8');
      expect(parseWorkflow({ name, content: text }, new NoOperationTraceWriter()).context.errors.getErrors().map((e) => e.message)).toEqual([]);
      const wf = parse(text) as Workflow;
      const steps = Object.values(wf.jobs).flatMap((j) => j.steps).filter((s) => s.uses?.startsWith('agent-replay/agent-replay@'));
      expect(steps.length, name).toBeGreaterThan(0);
      for (const s of steps) expect(Object.keys(s.with ?? {}).filter((k) => !Object.hasOwn(ACTION.inputs, k)), name).toEqual([]);
    }
    // The report workflow runs after the check init writes (by its name), on a pull_request run only.
    const check = parse(await readFile(join(repo, '.github/workflows/agent-replay.yml'), 'utf8')) as Workflow;
    expect(reportWorkflow.on.workflow_run!.workflows).toEqual([check.name]);
    expect(reportWorkflow.jobs.report!.if).toBe("github.event.workflow_run.event == 'pull_request'");
  });

  it("a CLI run in the fork's pull_request job, uploaded under the name the report workflow downloads, is commented on the fork's pull request at its head, though the artifact names no pull request", async () => {
    // Was: "comment: no pull request to comment on", comment-status skipped: GitHub's workflow_run
    // names no fork's pull request, and the CLI's run writes no pr-number file (check mode's artifact holds one).
    const results = await forkRun(HEAD);
    expect(runStderr).not.toContain('warning');
    // A pull request's job: the label accepts, not accept in a checkout no one commits (was: next: ... npx agent-replay accept).
    expect(runStdout).toContain('next: to accept the 2 new or changed pass/fail results as baselines, a reviewer applies the accept-baseline label to the pull request once its comment is read');
    expect(runStdout).not.toContain('npx agent-replay accept');
    expect(JSON.parse(readFileSync(join(results, 'results.json'), 'utf8')).commit).toBe(HEAD); // the head the event names, not GITHUB_SHA's merge commit
    const name = `agent-replay-results-${HEAD}`;
    expect(takes(name, HEAD)).toBe(true);
    expect(takes('results', HEAD)).toBe(false); // upload-artifact's default name: never downloaded
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    // Another fork's pull request from a branch of the same name, and the base repository's: not taken.
    servers.gh.addPull('octo', 'shop', { number: pullNumber + 1, headSha: HEAD, headRef: 'feature', headRepo: 'other/shop' });
    servers.gh.addPull('octo', 'shop', { number: pullNumber + 2, headSha: HEAD, headRef: 'feature', headRepo: 'octo/shop' });
    const { log, outputs, uploads } = await reportStep(await downloaded({ [name]: results }), forkWorkflowRun(HEAD));
    expect(outputs['comment-status'], log).toBe('created');
    const comments = servers.gh.comments('octo', 'shop', pullNumber);
    expect(comments).toHaveLength(1);
    expect(parseCommentMetadata(comments[0]!.body)).toMatchObject({ marker: 'agent-replay', headSha: HEAD, artifactName: name });
    expect(comments[0]!.body).toContain('`abababa`');
    expect(servers.gh.comments('octo', 'shop', pullNumber + 1)).toEqual([]);
    expect(servers.gh.comments('octo', 'shop', pullNumber + 2)).toEqual([]);
    expect(uploads).toEqual([name]);
    expect(servers.gh.requests.find((r) => r.method === 'GET' && r.path === '/repos/octo/shop/pulls')?.query).toMatchObject({ head: 'stranger:feature', state: 'open' });
    expect(servers.gh.violations).toEqual([]);
  });

  it("a fork's artifact whose pr-number file is no number: ignored with a warning, and the pull request found from the run's head branch is commented on", async () => {
    // Was: the report step failed, "input pr-number: ... is not a whole number of at least 1", and
    // nothing was posted: the file is the fork's to write, and the event decides the pull request anyway.
    const results = await forkRun(HEAD);
    await writeFile(join(results, 'pr-number'), 'seven\n');
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    const { log, outputs } = await reportStep(await downloaded({ [`agent-replay-results-${HEAD}`]: results }), forkWorkflowRun(HEAD));
    expect(log).toContain(
      `::warning::input pr-number: "seven" is not a pull request's number, so it is ignored: the pull request is the one the workflow_run event names, else the open one of the run's head branch. In a workflow_run report it is read from the pr-number file of the checked run's artifact, which check mode writes with its pull request's number`,
    );
    expect(outputs['comment-status'], log).toBe('created');
    expect(servers.gh.comments('octo', 'shop', pullNumber)).toHaveLength(1);
    expect(servers.gh.violations).toEqual([]);
  });

  it("the fork's job giving --commit ${{ github.sha }}: the results name the merge commit, so nothing is posted, and the warning names both commits", async () => {
    // Was: nothing said by the run; the report's warning, in another workflow's log, the first word of it.
    const results = await forkRun(HEAD, ['--commit', MERGE]);
    expect(runStderr).toContain(
      "warning: --commit cdcdcdc is GITHUB_SHA, the merge commit GitHub made for this pull_request event, not the pull request's head (abababa): report mode never comments with results recorded at it. " +
        'Leave --commit out (the run records the head the event names), or give --commit ${{ github.event.pull_request.head.sha }}\n',
    );
    quotedAndSaid(
      runStderr,
      "warning: --commit <sha> is GITHUB_SHA, the merge commit GitHub made for this pull_request event, not the pull request's head (<sha>): report mode never comments with results recorded at it. ...",
    );
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    const { log, outputs } = await reportStep(await downloaded({ [`agent-replay-results-${HEAD}`]: results }), forkWorkflowRun(HEAD));
    expect(outputs['comment-status']).toBe('skipped');
    expect(log).toContain(
      `::warning::comment: not posted on #${pullNumber}: its head is abababa, but the results were recorded at cdcdcdc. Record the pull request's head commit with the results: replay in the pull request's own job ` +
        "(on its pull_request event the Action's check mode and the CLI's run record the head the event names), or give run --commit SHA, its head commit (not the merge commit a pull_request job checks out, which is no pull request's head). The results are in the job summary",
    );
    expect(servers.gh.comments('octo', 'shop', pullNumber)).toEqual([]);
  });

  it("a second push while the first run's report is pending: the first run's report posts nothing, and says the head moved; the second's comments", async () => {
    const first = await forkRun(HEAD);
    const SECOND = 'ef'.repeat(20);
    const second = await forkRun(SECOND);
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: SECOND, headRef: 'feature', headRepo: FORK });
    const late = await reportStep(await downloaded({ [`agent-replay-results-${HEAD}`]: first }), forkWorkflowRun(HEAD));
    expect(late.outputs['comment-status']).toBe('skipped');
    expect(late.log).toContain(
      `::warning::comment: not posted on #${pullNumber}: its head is efefefe of stranger/shop, but the workflow run 1001 ran on abababa of stranger/shop (another pull request, or a head that moved since: the check of the new head reports it).`,
    );
    expect(servers.gh.comments('octo', 'shop', pullNumber)).toEqual([]);
    const current = await reportStep(await downloaded({ [`agent-replay-results-${SECOND}`]: second }), forkWorkflowRun(SECOND));
    expect(current.outputs['comment-status']).toBe('created');
    expect(parseCommentMetadata(servers.gh.comments('octo', 'shop', pullNumber)[0]!.body)?.headSha).toBe(SECOND);
  });

  it("shards of a matrix (run --shard i/n), each uploaded as agent-replay-results-<head>-shard-<i>-of-<n>: merged into one comment on the fork's pull request", async () => {
    const one = await forkRun(HEAD, ['--shard', '1/2']);
    const two = await forkRun(HEAD, ['--shard', '2/2']);
    const names = [`agent-replay-results-${HEAD}-shard-1-of-2`, `agent-replay-results-${HEAD}-shard-2-of-2`];
    expect(names.every((n) => takes(n, HEAD))).toBe(true);
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    const { log, outputs } = await reportStep(await downloaded({ [names[0]!]: one, [names[1]!]: two }), forkWorkflowRun(HEAD));
    expect(log).toContain('report: combined 2 results files, 2 fixtures');
    expect(outputs).toMatchObject({ 'comment-status': 'created', passed: '2', gate: 'passed' });
    expect(servers.gh.comments('octo', 'shop', pullNumber)).toHaveLength(1);
    expect(servers.gh.violations).toEqual([]);
  });

  it("shards and the fork's merge job's whole record: init's downloads take the shards only, merged into one comment; both downloaded (one pattern for all), refused, and the comment says the fix is the pattern", async () => {
    const one = await forkRun(HEAD, ['--shard', '1/2']);
    const two = await forkRun(HEAD, ['--shard', '2/2']);
    const merged = await tempDir('forkwalk-merged-');
    const m = await cli(['report', '--results', join(one, 'results.json'), '--results', join(two, 'results.json'), '--out', join(merged, 'results.json')], repo);
    expect(m.code, m.stderr).toBe(0);
    const names = [`agent-replay-results-${HEAD}`, `agent-replay-results-${HEAD}-shard-1-of-2`, `agent-replay-results-${HEAD}-shard-2-of-2`];
    // Was: agent-replay-results-<head>* took all three, and the report refused them.
    expect(downloadsTake(reportWorkflow.jobs.report!.steps, names, HEAD)).toEqual(names.slice(1));
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    const taken = await reportStep(await downloaded({ [names[1]!]: one, [names[2]!]: two }), forkWorkflowRun(HEAD));
    expect(taken.log).toContain('report: combined 2 results files, 2 fixtures');
    expect(taken.outputs).toMatchObject({ 'comment-status': 'created', gate: 'passed' });
    // All three, as a pattern that takes every results artifact of the commit downloads them.
    const ws = await downloaded({ [names[0]!]: merged, [names[1]!]: one, [names[2]!]: two });
    const refused = await reportStep(ws, forkWorkflowRun(HEAD)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(UserError);
    const whole = `shards/agent-replay-results-${HEAD}/results.json`;
    expect((refused as Error).message).toContain(
      `${whole} is a whole run, not a shard: give either it or the shard records, not both (download the whole run's artifacts or the shards', not both: in the download step, pattern: agent-replay-results-<commit>?(-attempt-*) (init's) takes the whole runs only, agent-replay-results-<commit>-shard-* the shards only)`,
    );
    // Said on the fork's pull request too (was: no pull request found, so only in the job's log and summary).
    const comments = servers.gh.comments('octo', 'shop', pullNumber);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('## agent-replay: results not merged');
    // The fix is the report workflow's download pattern (was: "run the check again (every shard, then this report)").
    expect(comments[0]!.body).toContain("A whole run's record (a matrix's merge job's) was downloaded beside shards, which it holds: the fix is the download step's pattern, not the check.");
    expect(comments[0]!.body).not.toContain('Fix what it names');
    expect(parseCommentMetadata(comments[0]!.body)?.headSha).toBe(HEAD);
    expect(servers.gh.violations).toEqual([]);
  });

  it("a fork that edits the check workflow (to upload results of its choosing): the comment on its pull request names the workflow file it changed, read from GitHub, never from the records", async () => {
    const results = await forkRun(HEAD);
    const BASE = '0'.repeat(40);
    const files = Object.fromEntries(
      await Promise.all(['.agent-replay/config.yml', '.agent-replay/fixtures/example-greeting.yml', '.agent-replay/fixtures/second.yml', '.github/workflows/agent-replay.yml'].map(async (f) => [f, await readFile(join(repo, f), 'utf8')] as const)),
    );
    servers.gh.setBranch('octo/shop', 'main', BASE, files);
    servers.gh.setBranch(FORK, 'feature', BASE, files);
    servers.gh.pushOnTop(FORK, 'feature', HEAD, 'Replay with the CLI', { files: { '.github/workflows/agent-replay.yml': `${files['.github/workflows/agent-replay.yml']}# edited by the fork\n` } });
    servers.gh.addPull('octo', 'shop', { number: pullNumber, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    const { log, outputs } = await reportStep(await downloaded({ [`agent-replay-results-${HEAD}`]: results }), forkWorkflowRun(HEAD));
    expect(outputs['comment-status'], log).toBe('created');
    const body = servers.gh.comments('octo', 'shop', pullNumber)[0]!.body;
    expect(body).toContain('This pull request edits the workflows that run the check');
    expect(body).toContain('`.github/workflows/agent-replay.yml` changed');
    expect(body).not.toContain('No regressions');
    expect(servers.gh.violations).toEqual([]);
  });

  // Where the lookup of the run's pull request finds none it can name: decided in pullForReport, without a report run each.
  it("a fork's branch that heads two open pull requests, or a lookup GitHub does not answer: no pull request, said with the fix (pr-number)", async () => {
    const ctx = await actionContextOf('workflow_run', forkWorkflowRun(HEAD));
    servers.gh.addPull('octo', 'shop', { number: 8, headSha: HEAD, headRef: 'feature', headRepo: FORK });
    servers.gh.addPull('octo', 'shop', { number: 9, headSha: HEAD, headRef: 'feature', headRepo: FORK, baseRef: 'release' });
    const logged: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0);
    const found = await pullForReport(null, ctx, { commit: HEAD }, { github: gitHubApiOf(servers.gh) });
    expect(found).toEqual({ ctx, refused: null });
    expect(logged.join('')).toContain('comment: the workflow run 1001 ran on branch feature of stranger/shop, the head of 2 open pull requests (#9, #8): give pr-number to name the one to comment on\n');
    quotedAndSaid(logged.join(''), '..., the head of 2 open pull requests (#<n>, #<n>): give pr-number to name the one to comment on');
    // pr-number names one of them: that one, held to the run's head as ever.
    expect((await pullForReport(8, ctx, { commit: HEAD }, { github: gitHubApiOf(servers.gh) })).ctx.pull?.number).toBe(8);
    logged.length = 0;
    servers.gh.failNext({ method: 'GET', path: '/repos/octo/shop/pulls', status: 403, body: { message: 'Resource not accessible by integration' } });
    expect(await pullForReport(null, ctx, { commit: HEAD }, { github: gitHubApiOf(servers.gh) })).toEqual({ ctx, refused: null });
    expect(logged.join('')).toContain('::warning::comment: the pull request of the workflow run 1001 (branch feature of stranger/shop) could not be looked up: ');
    expect(logged.join('')).toContain('. Give pr-number to name it\n');
    quotedAndSaid(logged.join(''), 'comment: the pull request of the workflow run <id> (branch <branch> of <owner/repo>) could not be looked up: ...');
    expect(servers.gh.violations).toEqual([]);
  });
});
