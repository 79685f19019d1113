import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import type { FakeGitHub } from '../support/github-server.js';
import { nativeEcho, type AgentServer } from '../support/agent-server.js';
import { actionContextOf, gitHubApiOf, HEAD, makeWorkspace, pullPayload, runAction, runActionHere, useServers, webhookExample } from './harness.js';
import { expandResults, noResultsWords, pullForReport, reportMode } from '../../src/action/report.js';
import { envInputGetter, readInputs, type Inputs } from '../../src/action/inputs.js';
import type { ActionContext } from '../../src/action/context.js';
import type { ActionDeps } from '../../src/action/deps.js';
import { serializeRecord } from '../../src/record/index.js';
import { UserError } from '../../src/errors.js';
import { mergeRecords, parseRecord } from '../../src/record/index.js';
import { parseCommentMetadata } from '../../src/report/index.js';
import { artifactZip } from '../support/zip.js';
import { githubHtml, visibleText } from '../report/helpers.js';
import { createGitHubApi } from '../../src/github/api.js';
import { gitHubFailure } from '../../src/action/github-words.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  nativeEcho,
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

const SHARD_FIXTURES = ['fixtures:\n  - { label: a, message: one, assert: { contains: echo } }\n', 'fixtures:\n  - { label: b, message: two, assert: { contains: nope } }\n'];

/**
 * The results.json of the shards' check runs made in this file, by fixtures and by how many shards of
 * the same call have those fixtures already: a shard is a check run without a comment, so each is run
 * once (the Action's run in this process, runActionHere: test/action/check.test.ts starts the check's
 * path end to end) and each test gets copies of the results files. The report mode's runs are in
 * this process too but for two started end to end: a merge that comments, and a refusal. Two shards
 * with the same fixtures in one call stay two runs (a re-run of the check: two records, not one twice).
 */
const shardResults = new Map<string, string>();

/** Two shards of a matrix, each a check run without a comment. */
async function shards(shardFixtures: readonly string[] = SHARD_FIXTURES): Promise<string> {
  const report = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
  await mkdir(join(report, 'shards'), { recursive: true });
  for (const [i, fixtures] of shardFixtures.entries()) {
    const key = JSON.stringify([fixtures, shardFixtures.slice(0, i).filter((f) => f === fixtures).length]);
    let results = shardResults.get(key);
    if (results === undefined) {
      const ws = await makeWorkspace({ fixtures, config: 'agent: { retries: 0 }\n' });
      const run = await runActionHere({ gh, workspace: ws, inputs: { 'agent-url': agent.url, comment: 'false', 'fail-on': 'none' }, event: { name: 'pull_request', payload: pullPayload() } });
      expect(run.code, run.stdout).toBe(0);
      results = run.outputs['results-path'] as string;
      shardResults.set(key, results);
    }
    await copyFile(results, join(report, 'shards', `shard-${i}.json`));
  }
  return report;
}

/** The two shards, their records naming no commit (a CLI run outside a git repository, given no --commit). */
async function commitlessShards(): Promise<string> {
  const workspace = await shards();
  for (const name of ['shard-0.json', 'shard-1.json']) {
    const path = join(workspace, 'shards', name);
    writeFileSync(path, serializeRecord({ ...parseRecord(readFileSync(path, 'utf8'), name), commit: null }));
  }
  return workspace;
}

/** One job summary file for the in-process runs: @actions/core keeps the first path it is given. */
const stepSummary = join(await mkdtemp(join(tmpdir(), 'report-summary-')), 'summary.md');

/** The runner's files for reportMode run in this process (the summary emptied, the outputs in the workspace), and its log, kept. */
function runnerFiles(workspace: string): { summary: string; logged: string[] } {
  writeFileSync(stepSummary, '');
  writeFileSync(join(workspace, 'outputs.txt'), '');
  vi.stubEnv('GITHUB_STEP_SUMMARY', stepSummary);
  vi.stubEnv('GITHUB_OUTPUT', join(workspace, 'outputs.txt'));
  const logged: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0);
  return { summary: stepSummary, logged };
}

/** reportMode's deps in this process: the fake GitHub, and no upload (the names asked for kept in `uploads`). */
function inProcessDeps(workspace: string, uploads: string[] = []): ActionDeps {
  return { env: {}, cwd: workspace, github: gitHubApiOf(gh), artifacts: { upload: async (name: string) => (uploads.push(name), { kind: 'skipped' as const, name, reason: 'not here' }) } };
}

/** The report step's inputs, its results in shards, with pr-number when given. */
const reportInputs = (prNumber?: string): Inputs => readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', ...(prNumber === undefined ? {} : { 'INPUT_PR-NUMBER': prNumber }) }));

/** A fork's artifact naming another pull request (pr-number 5, a maintainer's): refused, and nothing posted there, its head not the run's. */
async function nothingOnAnother(event: ActionContext, deps: ActionDeps): Promise<void> {
  gh.addPull('octo', 'shop', { number: 5, headSha: '2'.repeat(40), headRef: 'victim' });
  await expect(reportMode(reportInputs('5'), event, deps)).rejects.toThrow(UserError);
  expect(gh.comments('octo', 'shop', 5)).toEqual([]);
}

/** The one comment on #7, a refusal's: its headline and the commit it is of checked. */
function oneRefusal(logged: readonly string[]): string {
  const comments = gh.comments('octo', 'shop', 7);
  expect(comments, logged.join('')).toHaveLength(1);
  const body = comments[0]!.body;
  expect(body).toContain('## agent-replay: results not merged');
  expect(parseCommentMetadata(body)?.headSha).toBe(HEAD);
  return body;
}

/**
 * The fork's first push, 1111111, reported by the report workflow in this process (its pull request
 * found by the run's head branch: the artifact held no pr-number): #7's comment, of that commit.
 */
async function reportedAtHead(): Promise<{ workspace: string; logged: string[]; deps: ActionDeps; inputs: Inputs; first: ReturnType<FakeGitHub['comments']>[number] }> {
  const workspace = await shards();
  const { logged } = runnerFiles(workspace);
  const deps = inProcessDeps(workspace);
  const inputs = readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_COMMENT-KEY': 'agent-replay', 'INPUT_FAIL-ON': 'none' }));
  await reportMode(inputs, await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop')), deps);
  const [first] = gh.comments('octo', 'shop', 7);
  expect(parseCommentMetadata(first!.body)?.headSha, logged.join('')).toBe(HEAD);
  return { workspace, logged, deps, inputs, first: first! };
}

describe('report mode', () => {
  // Undoes runnerFiles' (reportMode run in this process).
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('merges shards and comments on the pull request a workflow_run names, with metadata for the accept flow', async () => {
    const workspace = await shards();
    const run = await runAction({
      gh,
      workspace,
      runId: 3003,
      inputs: { mode: 'report', results: 'shards/*.json', 'fail-on': 'failed' },
      event: { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [{ number: 7 }] } } },
    });
    expect(run.code).toBe(1); // fail-on failed: fixture b fails
    expect(run.stdout).toContain('report: combined 2 results files, 2 fixtures');
    expect(run.outputs).toMatchObject({ passed: '1', failed: '1', gate: 'failed', 'comment-status': 'created' });
    const merged = parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'merged');
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
    expect(merged.tallies).toEqual({ passed: 1, failed: 1, notEvaluated: 0, errored: 0 });
    // report.html goes into the artifact, next to the merged results.json.
    expect(readFileSync(join(dirname(run.outputs['results-path'] as string), 'report.html'), 'utf8')).toMatch(/^<!doctype html>[\s\S]*data-label="b"/);
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    // The meta keeps the gate's line, for the accept flow's comment that commits nothing (docs/action.md, "Accept").
    const gate = { failed: true, offenders: [{ condition: 'failed', labels: ['b'], fixtures: 1, scripts: 0 }] };
    expect(parseCommentMetadata(comments[0]!.body)).toEqual({ marker: 'agent-replay', headSha: HEAD, runId: '3003', artifactName: `agent-replay-results-${HEAD}`, gate });
    // The merge's gate fails on what the headline does not say: the comment, the summary and
    // report.html name it under a headline that is not ✅ (docs/action.md, "A check that fails").
    const fails = '(fail-on `failed`): 1 fixture failing (`b`)';
    expect(comments[0]!.body).toContain(`### 🟠 `);
    expect(comments[0]!.body).toContain(`**The check fails** ${fails}`);
    expect(run.summary).toContain(`**The check fails** ${fails}`);
    expect(readFileSync(join(dirname(run.outputs['results-path'] as string), 'report.html'), 'utf8')).toContain('<p class="gate"><b>The check fails</b> (fail-on <code>failed</code>): 1 fixture failing (<code>b</code>)</p>');
    expect(gh.violations).toEqual([]);
  });

  it("the failure message shows an agent's control characters as escapes, as the terminal does (docs/security.md, \"Agent text is data\")", async () => {
    const workspace = await shards();
    // Shard 1's fixture errored with an ANSI colour in its error: the gate's reason quotes it.
    const path = join(workspace, 'shards', 'shard-1.json');
    const record = JSON.parse(readFileSync(path, 'utf8')) as { fixtures: Record<string, unknown>[]; tallies: Record<string, number> };
    Object.assign(record.fixtures[0]!, { errored: true, errorKind: 'agent_error', error: 'message turn: boom \u001b[31mred', reply: null, route: null, verdict: null, drift: null, checks: [], detail: '' });
    record.tallies = { passed: 0, failed: 0, notEvaluated: 0, errored: 1 };
    writeFileSync(path, JSON.stringify(record));
    const run = await runActionHere({ gh, workspace, inputs: { mode: 'report', results: 'shards/*.json', comment: 'false' }, event: { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [{ number: 7 }] } } } });
    expect(run.code, run.stdout).toBe(1);
    const failure = run.stdout.split('\n').find((l) => l.startsWith('::error::agent-replay gate failed:')) ?? run.stdout;
    expect(failure).toContain('boom \\u001b[31mred');
    expect(failure).not.toContain('\u001b');
  });

  it("comments on a fork's pull request given pr-number (workflow_run does not name it), with its own suite's results only", async () => {
    const workspace = await shards();
    // The default suite's records say where it is; a second suite's step of the same check run
    // uploaded its own artifact, which a pattern taking both put in the same folder (docs/action.md,
    // "Two suites in one repository").
    // The fork's head loosened a check and repeats a fixture less strictly (docs/action.md, "Suite
    // edited"): report mode reads that from GitHub, not from the records, whose suiteEdits the fork
    // wrote (here, a forged one that says nothing of it).
    const [base, head] = ['ba5e'.repeat(10), 'f0'.repeat(20)];
    const suiteFile = '.agent-replay/fixtures/suite.yml';
    const before = 'fixtures:\n  - { label: a, message: one, assert: { contains: echo } }\n';
    gh.setBranch('octo/shop', 'main', base, { [suiteFile]: before });
    gh.setBranch('stranger/shop', 'loosen', base, { [suiteFile]: before });
    gh.pushOnTop('stranger/shop', 'loosen', head, 'Loosen a check', { files: { [suiteFile]: 'fixtures:\n  - { label: a, message: one, repeat: { count: 3, minPass: 1 } }\n' } });
    gh.addPull('octo', 'shop', { number: 7, headSha: head, headRef: 'loosen', headRepo: 'stranger/shop' });
    const forged = { base, fixtures: [], baselines: [{ file: '.agent-replay/baselines/forged.json', status: 'modified' }], unknown: null };
    // Each shard's its own: records whose edits differ are not compared either (no line in the log).
    for (const [shard, edits] of [['shard-0.json', forged], ['shard-1.json', { ...forged, baselines: [] }]] as const) {
      const path = join(workspace, 'shards', shard);
      writeFileSync(path, JSON.stringify({ ...(JSON.parse(readFileSync(path, 'utf8')) as object), commit: head, suiteEdits: edits }));
    }
    const shard0 = join(workspace, 'shards', 'shard-0.json');
    const record = JSON.parse(readFileSync(shard0, 'utf8')) as { suitePath?: string; fixtures: Record<string, unknown>[] };
    writeFileSync(shard0, JSON.stringify({ ...record, suitePath: '.agent-replay' }));
    const sales = join(workspace, 'shards', `agent-replay-results-apps-sales-.agent-replay-${HEAD}`);
    await mkdir(sales, { recursive: true });
    const salesFixtures = record.fixtures.map((f) => ({ ...f, label: 'pricing', file: 'apps/sales/.agent-replay/fixtures/suite.yml' }));
    writeFileSync(join(sales, 'results.json'), JSON.stringify({ ...record, suitePath: 'apps/sales/.agent-replay', fixtures: salesFixtures }));
    const run = await runActionHere({
      gh,
      workspace,
      inputs: { mode: 'report', results: 'shards', 'pr-number': '7', 'fail-on': 'none' },
      event: { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: head, pull_requests: [] } } },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs['comment-status']).toBe('created');
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    expect(gh.violations).toEqual([]);
    // The sales suite's record is skipped, named, and nowhere in the default suite's comment or record.
    expect(run.stdout).toContain(
      `report: skipped shards/agent-replay-results-apps-sales-.agent-replay-${HEAD}/results.json: it is a run of the suite in apps/sales/.agent-replay (its suitePath), not of .agent-replay, this step's dir input; that suite's own report step reports it`,
    );
    expect(run.stdout).toContain('report: combined 2 results files, 2 fixtures');
    expect(gh.comments('octo', 'shop', 7)[0]!.body).not.toContain('pricing');
    const merged = parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'merged');
    expect(merged.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
    // The suite edits, as check mode shows them: in the comment, the job summary and the merged record.
    const edits = {
      base,
      fixtures: [
        { label: 'a', file: suiteFile, change: 'assertion', before: 'contains "echo"', after: null },
        { label: 'a', file: suiteFile, change: 'repeat', before: null, after: 'repeat count 3, minPass 1' },
      ],
      baselines: [],
      unknown: null,
    };
    expect(merged.suiteEdits).toEqual(edits);
    const body = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(body).toContain('#### ✏️ This pull request edits the suite\n\nThese results were measured against the suite as this pull request changes it, compared with its base `ba5eba5`.');
    expect(body).toContain("- `a` in `.agent-replay/fixtures/suite.yml`: config.yml's repeat (none of its own) is now `repeat count 3, minPass 1`");
    expect(run.summary).toContain('#### ✏️ This pull request edits the suite');
    expect(body).not.toContain('forged');
    expect(run.stdout).not.toContain('suite edits (');
  });

  it('refuses overlapping shards with a message naming the labels', async () => {
    // The merge's refusal (mergeRecords' UserError) ends report mode as the missing folder's below
    // does end to end, before anything is written: the shards' own records merged here, without a
    // start of the Action (docs/contributing.md, "Speed").
    const workspace = await shards();
    const shard = (name: string) => parseRecord(readFileSync(join(workspace, 'shards', name), 'utf8'), name);
    const merge = () => mergeRecords([shard('shard-0.json'), shard('shard-1.json'), shard('shard-0.json')], ['shards/shard-0.json', 'shards/shard-1.json', 'shards/shard-2.json']);
    expect(merge).toThrow(UserError);
    expect(merge).toThrow(/^runs overlap: 1 fixture is in more than one run: "a" \(the run shards\/shard-0\.json and the run shards\/shard-2\.json\)/);
  });

  it('a refused merge still says so on the pull request: the one comment, the refusal escaped and the fix, and the job fails with it', async () => {
    // Was: the step failed with the refusal and the pull request showed a red check and nothing else.
    // reportMode in the test's own process against the fake GitHub (docs/contributing.md, "Speed").
    const workspace = await shards();
    const read = (name: string) => parseRecord(readFileSync(join(workspace, 'shards', name), 'utf8'), name);
    const [one, two] = [read('shard-0.json'), read('shard-1.json')];
    writeFileSync(join(workspace, 'shards', 'shard-0.json'), serializeRecord({ ...one, repeat: { count: 1, minPass: 1 } }));
    // An artifact's file name is a fork's to write: it reaches the comment as text, never as markup or a mention.
    const evil = '<img src=x>@octo-team #1';
    await rm(join(workspace, 'shards', 'shard-1.json'));
    writeFileSync(join(workspace, 'shards', `${evil}.json`), serializeRecord({ ...two, repeat: { count: 3, minPass: 2, flags: { count: 3 } } }));
    const { summary, logged } = runnerFiles(workspace);
    const inputs = reportInputs();
    const ctx = await actionContextOf('pull_request', pullPayload());
    const deps = inProcessDeps(workspace);
    await expect(reportMode(inputs, ctx, deps)).rejects.toThrow(/^shards were run with different repeats: .*the run shards\/<img src=x>@octo-team #1\.json with --repeat 3 \(3 attempts an item, 2 to pass\)/);
    // Run again (a re-run of the merge job): the one comment is updated, not a second posted.
    await expect(reportMode(inputs, ctx, deps)).rejects.toThrow(UserError);
    const body = oneRefusal(logged);
    expect(body).toContain('**The results files could not be merged into one run**, so this commit has no report and the check failed:');
    // The records are two check runs, no shard of a matrix: the fix says so (was "every shard").
    expect(body).toContain("Fix what it names, then run the check again, then this report: each run's results are still in its own artifact.");
    // As GitHub shows it, but for the word joiners that keep a mention and a reference from linking.
    const text = visibleText(githubHtml(body)).replace(/\u2060/g, '');
    expect(text).toContain('shards were run with different repeats: ');
    expect(text).toContain('the run shards/<img src=x>@octo-team #1.json with --repeat 3 (3 attempts an item, 2 to pass)');
    expect(text).toContain('run every shard with the same --repeat and --repeat-max');
    expect(body).not.toContain('<img');
    expect(body).not.toMatch(/@octo-team|#1\b/);
    // The job summary says the same; the outputs say the gate failed.
    expect(readFileSync(summary, 'utf8')).toContain('## agent-replay: results not merged');
    expect(readFileSync(join(workspace, 'outputs.txt'), 'utf8')).toMatch(/^gate<<[^\n]*\nfailed\n/m);
    // A fork's artifact naming another pull request (pr-number) gets no refusal there either: its head is not the records' commit.
    await nothingOnAnother(await actionContextOf('workflow_run', { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [] } }), deps);
    // Nothing was merged: no line says the results are in the job summary.
    expect(logged.join('')).not.toContain('The results are in');
    expect(logged.join('')).toContain('::warning::comment: not posted on #5: its head is 2222222, but the workflow run 1001 ran on 1111111 (another pull request, or a head that moved since: the check of the new head reports it). The refusal is in the job summary and the error below.');
  });

  it('a results file that cannot be read (cut off, a newer schema) is refused as a merge is: the one comment names each file, what is wrong and the fix, and the job fails', async () => {
    // Was: the job failed at the first such file, naming its absolute path, and the pull request showed a red check alone.
    // reportMode in the test's own process against the fake GitHub, on the shards' records made above (docs/contributing.md, "Speed").
    const workspace = await shards();
    const text = readFileSync(join(workspace, 'shards', 'shard-1.json'), 'utf8');
    // A download cut off midway, and a record of a newer schema in an artifact whose name is a fork's to write.
    writeFileSync(join(workspace, 'shards', 'shard-1.json'), text.slice(0, Math.floor(text.length / 2)));
    const evil = '<img src=x>@octo-team #1';
    await mkdir(join(workspace, 'shards', evil), { recursive: true });
    writeFileSync(join(workspace, 'shards', evil, 'results.json'), JSON.stringify({ ...(JSON.parse(text) as object), schemaVersion: 2, tool: { name: 'agent-replay', version: '9.0.0' } }));
    const { summary, logged } = runnerFiles(workspace);
    const uploads: string[] = [];
    const deps = inProcessDeps(workspace, uploads);
    const failed = await reportMode(reportInputs(), await actionContextOf('pull_request', pullPayload()), deps).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(failed).toBeInstanceOf(UserError);
    expect(failed?.message).toMatch(
      /^report mode: 2 of 3 results files could not be read, so nothing was merged \(the other one was read; which shard or run an unread file holds cannot be known, and without it the rest would read as the whole run\): /,
    );
    // Each named relative to the workspace, with what is wrong and its own fix.
    expect(failed?.message).toContain(`shards/${evil}/results.json: is a results file of schema version 2, written by agent-replay 9.0.0; this agent-replay`);
    expect(failed?.message).toContain('shards/shard-1.json: not valid JSON (');
    expect(failed?.message).toContain('the file ends before the record does (cut off while it was copied or written)');
    expect(failed?.message).not.toContain(workspace);
    const body = oneRefusal(logged);
    expect(body).toContain('**2 results files could not be read**, so this commit has no report and the check failed:');
    expect(body).toContain('Fix what is wrong with each, then run this report again: a file cut off in the download is read when this job is re-run');
    expect(body).toContain('a record written by a newer agent-replay is read by this step at that version (its `uses:`). The file that was read is not reported without them: its results are still in its artifact.');
    const shown = visibleText(githubHtml(body)).replace(/\u2060/g, '');
    expect(shown).toContain(`shards/${evil}/results.json: is a results file of schema version 2`);
    expect(body).not.toContain('<img');
    expect(body).not.toMatch(/@octo-team|#1\b/);
    expect(readFileSync(summary, 'utf8')).toContain('**2 results files could not be read**');
    expect(readFileSync(join(workspace, 'outputs.txt'), 'utf8')).toMatch(/^gate<<[^\n]*\nfailed\n/m);
    expect(uploads).toEqual([]);

    // A fork's single run, its one file cut off, reported by workflow_run with pr-number: no record
    // names a commit, so the pull request is held to the run GitHub says completed (was: no comment at all).
    await rm(join(workspace, 'shards'), { recursive: true });
    await mkdir(join(workspace, 'shards', `agent-replay-results-${HEAD}`), { recursive: true });
    writeFileSync(join(workspace, 'shards', `agent-replay-results-${HEAD}`, 'results.json'), text.slice(0, 200));
    const event = await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop'));
    await expect(reportMode(reportInputs('7'), event, deps)).rejects.toThrow(
      `report mode: the results file could not be read, so nothing was reported: shards/agent-replay-results-${HEAD}/results.json: not valid JSON (`,
    );
    const again = gh.comments('octo', 'shop', 7);
    expect(again).toHaveLength(1);
    // One file: nothing to merge, so not "results not merged" (was).
    expect(again[0]!.body).toContain('## agent-replay: results not reported\n');
    expect(again[0]!.body).toContain('**A results file could not be read**');
    expect(again[0]!.body).toContain('and one cut off in its artifact (at the upload) once the check is run again, then this report;');
    expect(again[0]!.body).not.toContain('files that were read');
    await nothingOnAnother(event, deps);
    expect(gh.violations).toEqual([]);
  });

  it("another suite's results file that cannot be read (a broad pattern took its artifact) is set aside with a warning naming it; this suite's are reported; one in this suite's artifact still refuses", async () => {
    // Was: the whole report refused, "report mode: 1 of 3 results files could not be read, so nothing was merged ...", for a file its own suite's report step reads.
    const workspace = await shards();
    const text = readFileSync(join(workspace, 'shards', 'shard-1.json'), 'utf8');
    const sales = `shards/agent-replay-results-apps-sales-.agent-replay-${HEAD}-shard-1-of-2`;
    await mkdir(join(workspace, sales), { recursive: true });
    writeFileSync(join(workspace, sales, 'results.json'), text.slice(0, 300));
    // The job checked out its repository, whose accept workflow renamed the label.
    await mkdir(join(workspace, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      join(workspace, '.github', 'workflows', 'accept.yml'),
      "jobs:\n  accept:\n    if: github.event.label.name == 'approve-replies'\n    steps:\n      - uses: agent-replay/agent-replay@v0.1.0\n        with: { mode: accept, accept-label: approve-replies }\n",
    );
    const { logged } = runnerFiles(workspace);
    const deps = inProcessDeps(workspace);
    const ctx = await actionContextOf('pull_request', pullPayload());
    await reportMode(reportInputs(), ctx, deps);
    const log = logged.join('');
    // The comment names the label that accepts, the accept workflow's (was: this step's, accept-baseline).
    expect(gh.comments('octo', 'shop', 7)[0]?.body).toContain('apply the `approve-replies` label to this pull request');
    expect(log).toContain("accept label: the comment names approve-replies, the accept-label of the accept step in .github/workflows/accept.yml (this step's is the default, accept-baseline)");
    expect(log).toContain(`::warning::report: set aside ${sales}/results.json, which could not be read (not valid JSON (`);
    expect(log).toContain(
      `): it is in agent-replay-results-apps-sales-.agent-replay-${HEAD}-shard-1-of-2, a results artifact of another suite than .agent-replay, this step's dir input, and that suite's own report step reads it; the rest are reported without it. ` +
        "To download this suite's results artifacts only: pattern: agent-replay-results-<commit>*,",
    );
    expect(log).toContain('report: combined 2 results files, 2 fixtures');
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).not.toContain('results not merged');
    // A file in this suite's own artifact (a re-run's attempt) cannot be set aside: still refused, the other suite's not counted.
    const attempt = `shards/agent-replay-results-${HEAD}-attempt-2`;
    await mkdir(join(workspace, attempt), { recursive: true });
    writeFileSync(join(workspace, attempt, 'results.json'), text.slice(0, 300));
    await expect(reportMode(reportInputs(), ctx, deps)).rejects.toThrow(
      new RegExp(`^report mode: 1 of 3 results files could not be read, so nothing was merged \\(.*\\): ${attempt}/results\\.json: not valid JSON`),
    );
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toContain('## agent-replay: results not merged');
    // Only the other suite's file: none of this suite's, said as such with the fix (not the merge's "nothing to merge").
    for (const gone of ['shards/shard-0.json', 'shards/shard-1.json', attempt]) await rm(join(workspace, gone), { recursive: true });
    await expect(reportMode(reportInputs(), ctx, deps)).rejects.toThrow(
      `report mode: no results file is a run of .agent-replay, this step's dir input: ${sales}/results.json is in agent-replay-results-apps-sales-.agent-replay-${HEAD}-shard-1-of-2, a results artifact of another suite, and could not be read. Set dir on this step to that suite's folder (apps-sales-.agent-replay in the artifact's name, its path with each / written -) when it reports that suite`,
    );
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toContain('## agent-replay: results not reported');
    expect(gh.violations).toEqual([]);
  });

  it("a file set aside in another suite's artifact folder names the folder to set as dir: the suitePath its artifact's name agrees with, .agent-replay for the default folder's artifact", async () => {
    // Was: "Set dir on this step to the suite's folder", naming none.
    const workspace = await shards();
    const record = JSON.parse(readFileSync(join(workspace, 'shards', 'shard-1.json'), 'utf8')) as Record<string, unknown>;
    for (const own of ['shard-0.json', 'shard-1.json']) await rm(join(workspace, 'shards', own));
    const sales = `shards/agent-replay-results-apps-sales-.agent-replay-${HEAD}-shard-1-of-2`;
    await mkdir(join(workspace, sales), { recursive: true });
    // The sales suite's step runs a newer agent-replay, whose record this one cannot read; it names its suite.
    const newer = (suitePath: string): string => JSON.stringify({ ...record, suitePath, fixtures: 'a newer form' });
    writeFileSync(join(workspace, sales, 'results.json'), newer('apps/sales/.agent-replay'));
    runnerFiles(workspace);
    const deps = inProcessDeps(workspace);
    const ctx = await actionContextOf('pull_request', pullPayload());
    const fix = (setDir: string): string => `, and could not be read. ${setDir} when it reports that suite (as its check step's dir), or download this suite's results artifacts only (`;
    await expect(reportMode(reportInputs(), ctx, deps)).rejects.toThrow(fix('Set dir: apps/sales/.agent-replay on this step'));
    // A suitePath the artifact's name does not agree with is not taken: the name's folder, as written there.
    writeFileSync(join(workspace, sales, 'results.json'), newer('bots/.agent-replay'));
    await expect(reportMode(reportInputs(), ctx, deps)).rejects.toThrow(
      fix("Set dir on this step to that suite's folder (apps-sales-.agent-replay in the artifact's name, its path with each / written -)"),
    );
    // The default folder's artifact, beside a step of apps/sales/.agent-replay: its folder is .agent-replay.
    await rm(join(workspace, sales), { recursive: true });
    const plain = `shards/agent-replay-results-${HEAD}`;
    await mkdir(join(workspace, plain), { recursive: true });
    writeFileSync(join(workspace, plain, 'results.json'), '{"cut off');
    const salesStep = readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', INPUT_DIR: 'apps/sales/.agent-replay' }));
    await expect(reportMode(salesStep, ctx, deps)).rejects.toThrow(
      `report mode: no results file is a run of apps/sales/.agent-replay, this step's dir input: ${plain}/results.json is in agent-replay-results-${HEAD}, a results artifact of another suite, and could not be read. Set dir: .agent-replay on this step`,
    );
    expect(gh.violations).toEqual([]);
  });

  it("another suite's results file that cannot be read, in no artifact's folder (a download by name, or merge-multiple), is set aside by the suitePath it names; alone, the error says whose it is", async () => {
    // Was: "report mode: 1 of 3 results files could not be read, so nothing was merged ...": only an artifact's folder told another suite's file.
    const workspace = await shards();
    const sales = JSON.parse(readFileSync(join(workspace, 'shards', 'shard-1.json'), 'utf8')) as Record<string, unknown>;
    // The sales suite's step runs a newer agent-replay, whose record this one cannot read.
    writeFileSync(join(workspace, 'shards', 'sales.json'), JSON.stringify({ ...sales, suitePath: 'apps/sales/.agent-replay', fixtures: 'a newer form' }));
    const { logged } = runnerFiles(workspace);
    const deps = inProcessDeps(workspace);
    const ctx = await actionContextOf('pull_request', pullPayload());
    await reportMode(readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_FAIL-ON': 'none' })), ctx, deps);
    const log = logged.join('');
    expect(log).toContain('::warning::report: set aside shards/sales.json, which could not be read (is not a valid agent-replay results file (schema version 1): fixtures: ');
    expect(log).toContain("): it is a run of the suite in apps/sales/.agent-replay (its suitePath), another suite than .agent-replay, this step's dir input, and that suite's own report step reads it; the rest are reported without it.");
    expect(log).toContain('report: combined 2 results files, 2 fixtures');
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).not.toContain('results not merged');
    for (const own of ['shard-0.json', 'shard-1.json']) await rm(join(workspace, 'shards', own));
    await expect(reportMode(reportInputs(), ctx, deps)).rejects.toThrow(
      "report mode: no results file is a run of .agent-replay, this step's dir input: shards/sales.json is a run of the suite in apps/sales/.agent-replay (its suitePath), and could not be read. " +
        "Set dir: apps/sales/.agent-replay on this step when it reports that suite (as its check step's dir), or download this suite's results artifacts only (pattern: agent-replay-results-<commit>*,",
    );
    expect(gh.violations).toEqual([]);
  });

  it("pr-number on an event that names no run, with results that name no commit: no comment, and the job fails saying why and how to record the commit", async () => {
    // Was: a warning "its head is 1111111, but the results were recorded at an unknown commit" beside a passed check, and no comment, ever.
    const workspace = await commitlessShards();
    const { logged } = runnerFiles(workspace);
    const deps = inProcessDeps(workspace);
    const ctx = await actionContextOf('workflow_dispatch', { ref: 'refs/heads/main' });
    const inputs = readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_PR-NUMBER': '7', 'INPUT_FAIL-ON': 'none' }));
    try {
      await reportMode(inputs, ctx, deps);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = undefined;
    }
    const log = logged.join('');
    expect(log).toContain(
      '::error::comment: not posted on #7: the results name no commit they were recorded at (a run outside a git repository, given no --commit): nothing shows that they are of its head, 1111111. ' +
        "A pull request found by pr-number gets the comment only when its head is the commit the results were recorded at (or, on workflow_run, when they name none, the commit the run ran on), since pr-number and the records may be a fork's to write. " +
        "Record the pull request's head commit with the results: replay in the pull request's own job (on its pull_request event the Action's check mode and the CLI's run record the head the event names), " +
        "or give run --commit SHA, its head commit (not the merge commit a pull_request job checks out, which is no pull request's head). The results are in the job summary",
    );
    expect(log).not.toContain('::warning::comment: not posted');
    expect(log).not.toContain('no pull request to comment on');
    expect(gh.comments('octo', 'shop', 7)).toEqual([]);
    expect(readFileSync(join(workspace, 'outputs.txt'), 'utf8')).toMatch(/^comment-status<<[^\n]*\nskipped\n/m);
    // A merge refused for two commits, and no file read: the refusal says which, rather than "recorded at an unknown commit"; the job fails with the refusal.
    const shard0 = join(workspace, 'shards', 'shard-0.json');
    writeFileSync(shard0, serializeRecord({ ...parseRecord(readFileSync(shard0, 'utf8'), 'shard-0.json'), commit: 'e'.repeat(40) }));
    await expect(reportMode(inputs, ctx, deps)).rejects.toThrow(/^shards were recorded at different commits/);
    expect(logged.join('')).toContain(
      '::warning::comment: not posted on #7: the results files were not all recorded at one commit: nothing shows that they are of its head, 1111111. The refusal is in the job summary and the error below.',
    );
    for (const name of ['shard-0.json', 'shard-1.json']) writeFileSync(join(workspace, 'shards', name), '{"schemaVersion": 1,');
    await expect(reportMode(inputs, ctx, deps)).rejects.toThrow(/^report mode: 2 of 2 results files could not be read/);
    expect(logged.join('')).toContain(
      '::warning::comment: not posted on #7: no results file was read, so none names the commit the results were recorded at: nothing shows that they are of its head, 1111111. The refusal is in the job summary and the error below.',
    );
    expect(gh.comments('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it("records that name no commit, on workflow_run: reported as of the run's head commit (the event's), on the pull request whose head it is; the record saved and its artifact carry it; another pull request gets nothing", async () => {
    // Was: "::error::comment: not posted on #7: the results name no commit ...", the job failed, though GitHub says which commit the run ran on.
    const workspace = await commitlessShards();
    const { logged } = runnerFiles(workspace);
    const uploads: string[] = [];
    const deps = inProcessDeps(workspace, uploads);
    const event = await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop'));
    const inputs = (pr: string) => readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_PR-NUMBER': pr, 'INPUT_FAIL-ON': 'none' }));
    try {
      await reportMode(inputs('7'), event, deps);
      expect(process.exitCode, logged.join('')).toBeUndefined();
    } finally {
      process.exitCode = undefined;
    }
    const log = logged.join('');
    expect(log).toContain(
      "report: the results name no commit they were recorded at: they are reported as of 1111111, the commit the workflow run 1001 ran on (the event's workflow_run.head_sha, never a results file's)",
    );
    expect(log).not.toContain('comment: not posted');
    const comments = gh.comments('octo', 'shop', 7);
    expect(comments).toHaveLength(1);
    expect(parseCommentMetadata(comments[0]!.body)).toMatchObject({ headSha: HEAD });
    // The accept flow downloads this artifact and holds the reviewed head to the record's commit.
    expect(uploads).toEqual([`agent-replay-results-${HEAD}`]);
    const saved = /^results-path<<([^\n]*)\n([^\n]*)\n/m.exec(readFileSync(join(workspace, 'outputs.txt'), 'utf8'))![2]!;
    expect(parseRecord(readFileSync(saved, 'utf8'), 'merged').commit).toBe(HEAD);
    // A fork's pr-number naming another pull request: its head is not the run's, so nothing there.
    gh.addPull('octo', 'shop', { number: 5, headSha: '2'.repeat(40), headRef: 'victim' });
    await reportMode(inputs('5'), event, deps);
    expect(logged.join('')).toContain('::warning::comment: not posted on #5: its head is 2222222 of octo/shop, but the workflow run 1001 ran on 1111111 of stranger/shop');
    expect(gh.comments('octo', 'shop', 5)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it("a fork's merge refused for its records' different commits is said on its pull request when its head is the run's (workflow_run)", async () => {
    // Was: no comment, "recorded at an unkn": the records name no one commit to hold the pull request to.
    const workspace = await shards();
    const path = join(workspace, 'shards', 'shard-1.json');
    writeFileSync(path, readFileSync(path, 'utf8').split(HEAD).join('e'.repeat(40)));
    const { logged } = runnerFiles(workspace);
    const deps = inProcessDeps(workspace);
    const event = await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop'));
    await expect(reportMode(reportInputs('7'), event, deps)).rejects.toThrow(/^shards were recorded at different commits/);
    expect(oneRefusal(logged)).toContain('shards were recorded at different commits');
    await nothingOnAnother(event, deps);
    expect(gh.violations).toEqual([]);
  });

  it('no results file at all (every shard failed before it uploaded, or no download): the folder given, absent or empty, is named with the fix', async () => {
    // The decision without a start of the Action (docs/contributing.md, "Speed"): real folders in a temp dir.
    const cwd = await mkdtemp(join(tmpdir(), 'report-none-'));
    const words = async (results: string[]): Promise<string | null> => noResultsWords(results, await expandResults(results, cwd), '.agent-replay');
    quotedAndSaid((await words(['shards/*.json'])) ?? '', 'report mode: no results files match shards/*.json (no folder shards in the workspace: ...)');
    quotedAndSaid((await words(['shards'])) ?? '', 'nothing at shards');
    // The recipe's `results: shards` when the download wrote nothing: was "shards: does not exist; give the path of a results.json".
    expect(await words(['shards'])).toBe(
      "report mode: no results files match shards (nothing at shards in the workspace: check that the step that downloads the results artifacts ran before this one and wrote there, and that its pattern takes their names: pattern: agent-replay-results-<commit>?(-attempt-*) (init's) takes the artifact named agent-replay-results-<commit>, the name check mode uploads with, which a job that replays with the CLI must give its upload (the full commit))",
    );
    // A wrongly named artifact is not downloaded either: the words name the pattern and the upload's name, of the step's suite (was: neither).
    expect(noResultsWords(['shards'], await expandResults(['shards'], cwd), 'apps/sales/.agent-replay')).toContain(
      'pattern: agent-replay-results-apps-sales-.agent-replay-<commit>?(-attempt-*) (init\'s) takes the artifact named agent-replay-results-apps-sales-.agent-replay-<commit>, the name check mode uploads with',
    );
    // The folder is there, but holds no record: was "no results files match shards" and no more.
    await mkdir(join(cwd, 'shards', 'agent-replay-results-abc-shard-1-of-2'), { recursive: true });
    expect(await words(['shards'])).toBe(
      "report mode: no results files match shards (shards holds no .json file: no results artifact was downloaded there; when every shard's job failed before it uploaded its results, their logs say why)",
    );
    quotedAndSaid((await words(['shards/*.json'])) ?? '', 'shards holds no .json file');
    expect(await words(['shards/*.json'])).toBe(
      "report mode: no results files match shards/*.json (shards holds no .json file: no results artifact was downloaded there; when every shard's job failed before it uploaded its results, their logs say why)",
    );
    // One shard's record there: read, and a missing file beside it is read (and refused) as before.
    writeFileSync(join(cwd, 'shards', 'agent-replay-results-abc-shard-1-of-2', 'results.json'), '{}');
    const some = await expandResults(['shards', 'gone.json'], cwd);
    expect(noResultsWords(['shards', 'gone.json'], some, '.agent-replay')).toBeNull();
    expect(some.files.map((f) => relative(cwd, f))).toEqual([join('shards', 'agent-replay-results-abc-shard-1-of-2', 'results.json'), 'gone.json']);
  });

  it("a later push whose run left no results: the comment's top says, in one line, that the newest commit has none and whose report is below; the report and its metadata are kept", async () => {
    // Was: the earlier commit's report left as it was, named only in its footer, read as the newest commit's.
    // The fork's first push, 1111111: reported (its pull request found by the run's head branch: the artifact held no pr-number).
    const { workspace, logged, deps, inputs, first } = await reportedAtHead();
    // A second push, bbbbbbb, whose check failed before it uploaded anything: nothing downloaded.
    const NEWER = 'b'.repeat(40);
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER, headRef: 'feature', headRepo: 'stranger/shop' });
    await rm(join(workspace, 'shards'), { recursive: true });
    const newer = await actionContextOf('workflow_run', forkWorkflowRun(NEWER, 'stranger/shop'));
    await expect(reportMode(inputs, newer, deps)).rejects.toThrow(/^report mode: no results files match shards \(nothing at shards in the workspace/);
    const [noted] = gh.comments('octo', 'shop', 7);
    const line = '> The newest commit, `bbbbbbb`, has no results: [workflow run 1001](https://github.com/octo/shop/actions/runs/1001) left none to report. The report below is of `1111111`.';
    const [marker, meta, open, said, end, blank, ...rest] = noted!.body.split('\n');
    expect([marker, meta, said, end, blank]).toEqual([...first!.body.split('\n').slice(0, 2), line, '<!-- /agent-replay:notice -->', '']);
    // When the report under it was written, for the accept flow: the line is not the report's change.
    expect(open).toBe(`<!-- agent-replay:notice report-updated=${first!.updatedAt} -->`);
    expect(rest.join('\n')).toBe(first!.body.split('\n').slice(2).join('\n').replace(/^\n+/, ''));
    // GitHub shows it first, one quoted line above the report's heading.
    expect(githubHtml(noted!.body)).toMatch(
      /^<!--[^\n]*-->\n<!--[^\n]*-->\n<!--[^\n]*-->\n<blockquote>\n<p>The newest commit, <code>bbbbbbb<\/code>, has no results: <a href="https:\/\/github.com\/octo\/shop\/actions\/runs\/1001">workflow run 1001<\/a> left none to report\. The report below is of <code>1111111<\/code>\.<\/p>\n<\/blockquote>\n<!--[^\n]*-->\n<h3>/,
    );
    const url = `https://github.com/octo/shop/pull/7#issuecomment-${noted!.id}`;
    expect(logged.join('')).toContain(`comment: the newest commit, bbbbbbb, has no results: a line at the top of the comment now says so, above its report of 1111111 ${url}`);
    // The report step re-run: the comment is not written again.
    const writes = () => gh.requests.filter((r) => r.method === 'PATCH').length;
    const before = writes();
    await expect(reportMode(inputs, newer, deps)).rejects.toThrow(UserError);
    expect(writes()).toBe(before);
    expect(logged.join('')).toContain(`comment: its top already says that the newest commit, bbbbbbb, has no results ${url}`);
    // A run of a head that moved on since (ccccccc pushed): nothing written, the newer head's run reports it.
    gh.addPull('octo', 'shop', { number: 7, headSha: 'c'.repeat(40), headRef: 'feature', headRepo: 'stranger/shop' });
    gh.editComment(noted!.id, first!.body);
    await expect(reportMode(inputs, newer, deps)).rejects.toThrow(UserError);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(first!.body);
    // With comment: false GitHub is not written to.
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER, headRef: 'feature', headRepo: 'stranger/shop' });
    const silent = readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_COMMENT-KEY': 'agent-replay', INPUT_COMMENT: 'false' }));
    const all = writes();
    await expect(reportMode(silent, newer, deps)).rejects.toThrow(UserError);
    expect(writes()).toBe(all);
    expect(gh.violations).toEqual([]);
  });

  it("the newest commit's run whose results name another commit (the merge commit, given as --commit): the comment's top says so, in one line, and the warning names the fix", async () => {
    // Was: the earlier commit's report left as it was, named only in its footer, and "its head is bbbbbbb, but the results were recorded at ddddddd" in the log alone, with no fix.
    // The fork's first push, 1111111: reported (its pull request found by the run's head branch: the artifact held no pr-number).
    const { workspace, logged, deps, inputs, first } = await reportedAtHead();
    // A second push, bbbbbbb, whose run replayed GitHub's merge commit, ddddddd, and recorded it.
    const NEWER = 'b'.repeat(40);
    const MERGE = 'd'.repeat(40);
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER, headRef: 'feature', headRepo: 'stranger/shop' });
    for (const name of ['shard-0.json', 'shard-1.json']) {
      const path = join(workspace, 'shards', name);
      writeFileSync(path, serializeRecord({ ...parseRecord(readFileSync(path, 'utf8'), name), commit: MERGE }));
    }
    const newer = await actionContextOf('workflow_run', forkWorkflowRun(NEWER, 'stranger/shop'));
    await reportMode(inputs, newer, deps);
    const line = '> The newest commit, `bbbbbbb`, has no results: [workflow run 1001](https://github.com/octo/shop/actions/runs/1001) recorded its results at `ddddddd`, another commit, so they are not reported. The report below is of `1111111`.';
    const [noted] = gh.comments('octo', 'shop', 7);
    const [marker, meta, open, said, end, blank, ...rest] = noted!.body.split('\n');
    expect([marker, meta, open, said, end, blank]).toEqual([...first!.body.split('\n').slice(0, 2), `<!-- agent-replay:notice report-updated=${first!.updatedAt} -->`, line, '<!-- /agent-replay:notice -->', '']);
    expect(rest.join('\n')).toBe(first!.body.split('\n').slice(2).join('\n').replace(/^\n+/, ''));
    const log = logged.join('');
    expect(log).toContain(
      "::warning::comment: not posted on #7: its head is bbbbbbb, but the results were recorded at ddddddd. Record the pull request's head commit with the results: replay in the pull request's own job (on its pull_request event the Action's check mode and the CLI's run record the head the event names), " +
        "or give run --commit SHA, its head commit (not the merge commit a pull_request job checks out, which is no pull request's head). The results are in the job summary; the artifact was not uploaded (see the warning above).",
    );
    expect(log).toContain(`comment: the newest commit, bbbbbbb, has no results: a line at the top of the comment now says so, above its report of 1111111 https://github.com/octo/shop/pull/7#issuecomment-${noted!.id}`);
    expect(readFileSync(join(workspace, 'outputs.txt'), 'utf8')).toMatch(/^comment-status<<[^\n]*\nskipped\n/m);
    // A refused report of those records (a file cut off beside them) says so too, with the same fix.
    gh.editComment(noted!.id, first!.body);
    writeFileSync(join(workspace, 'shards', 'shard-1.json'), '{"schemaVersion": 1,');
    await expect(reportMode(inputs, newer, deps)).rejects.toThrow(/^report mode: 1 of 2 results files could not be read/);
    expect(gh.comments('octo', 'shop', 7)[0]!.body.split('\n')[3]).toBe(line);
    expect(logged.join('')).toContain("::warning::comment: not posted on #7: its head is bbbbbbb, but the results were recorded at ddddddd. Record the pull request's head commit with the results: ");
    // The pull request's head moved past the run (ccccccc pushed): nothing written (the newer head's run reports it).
    gh.addPull('octo', 'shop', { number: 7, headSha: 'c'.repeat(40), headRef: 'feature', headRepo: 'stranger/shop' });
    gh.editComment(noted!.id, first!.body);
    await expect(reportMode(inputs, newer, deps)).rejects.toThrow(UserError);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(first!.body);
    expect(gh.violations).toEqual([]);
  });

  it("a merge job on a fork's pull_request event (a read-only token) writes nothing to the pull request: one line says the report workflow comments, as check mode's", async () => {
    // Was: the comment asked for with the read-only token, and GitHub's 403 in a warning; so the refusal's comment and the no-results line.
    // The fork's first push, 1111111: reported (its pull request found by the run's head branch: the artifact held no pr-number).
    const { workspace, logged, deps, inputs, first } = await reportedAtHead();
    const writes = () => gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').length;
    const before = writes();
    const fork = await actionContextOf('pull_request', pullPayload({ headRepo: 'stranger/shop' }));
    const said = 'comment: not posted: this pull request comes from a fork, so the token is read-only. The results are in the job summary; the artifact was not uploaded (see the warning above); to comment, add the workflow_run workflow of mode: report (';
    const from = gh.requests.length;
    await reportMode(inputs, fork, deps);
    // No comment is read to compare with (was: its comments listed, for "since the previous run"): as a
    // fork's check, the job writes none, and the report workflow that comments compares. What the
    // pull request changed in its suite is read still: the job summary says it.
    expect(gh.requests.slice(from).map((r) => r.operation)).toEqual(['GET /repos/{owner}/{repo}/compare/{basehead}']);
    expect(logged.join('')).toContain(`::warning::${said}`);
    expect(readFileSync(join(workspace, 'outputs.txt'), 'utf8')).toMatch(/^comment-status<<[^\n]*\nskipped-fork\n/m);
    // A refused merge: the job summary holds the refusal, not results (was: "The results are in the job summary"), in the same one line.
    const shard1 = readFileSync(join(workspace, 'shards', 'shard-1.json'), 'utf8');
    writeFileSync(join(workspace, 'shards', 'shard-1.json'), '{"schemaVersion": 1,');
    await expect(reportMode(inputs, fork, deps)).rejects.toThrow(/^report mode: 1 of 2 results files could not be read/);
    expect(logged.join('')).toContain('::warning::comment: not posted: this pull request comes from a fork, so the token is read-only. The refusal is in the job summary and the error below; to comment, add the workflow_run workflow of mode: report (');
    expect(logged.join('').match(/comment: not posted/g)).toHaveLength(2);
    // The checkout has the workflow_run report workflow (init's, for this workflow, agent-replay): the line names it rather than asking to add it.
    await mkdir(join(workspace, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      join(workspace, '.github', 'workflows', 'agent-replay-report.yml'),
      'name: agent-replay-report\non:\n  workflow_run:\n    workflows: [agent-replay]\n    types: [completed]\njobs:\n  report:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v0\n        with:\n          mode: report\n          results: shards\n',
    );
    await expect(reportMode(inputs, fork, deps)).rejects.toThrow(/^report mode: 1 of 2 results files could not be read/);
    expect(logged.join('')).toContain(
      '::warning::comment: not posted: this pull request comes from a fork, so the token is read-only. The refusal is in the job summary and the error below; .github/workflows/agent-replay-report.yml, the workflow_run workflow of mode: report, comments once this run completes.',
    );
    // One that runs after another workflow does not comment for this one: the line asks for it.
    writeFileSync(join(workspace, '.github', 'workflows', 'agent-replay-report.yml'), readFileSync(join(workspace, '.github', 'workflows', 'agent-replay-report.yml'), 'utf8').replace('[agent-replay]', '[deploy]'));
    await expect(reportMode(inputs, fork, deps)).rejects.toThrow(/^report mode: 1 of 2 results files could not be read/);
    expect(logged.join('').match(/to comment, add the workflow_run workflow of mode: report \(/g)).toHaveLength(3);
    await rm(join(workspace, '.github'), { recursive: true });
    writeFileSync(join(workspace, 'shards', 'shard-1.json'), shard1);
    // A newer head whose shards left no results: no line written (the report workflow writes it).
    gh.addPull('octo', 'shop', { number: 7, headSha: 'b'.repeat(40), headRef: 'feature', headRepo: 'stranger/shop' });
    await rm(join(workspace, 'shards'), { recursive: true });
    await expect(reportMode(inputs, await actionContextOf('pull_request', pullPayload({ headRepo: 'stranger/shop', headSha: 'b'.repeat(40) })), deps)).rejects.toThrow(/^report mode: no results files match shards/);
    expect(writes()).toBe(before);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(first!.body);
    expect(logged.join('')).not.toMatch(/403|Resource not accessible/);
    expect(gh.violations).toEqual([]);
  });

  it('a pattern whose folder does not exist (no artifact downloaded there) says so, not ENOENT', async () => {
    const workspace = await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' });
    const run = await runActionHere({ gh, workspace, inputs: { mode: 'report', results: 'shards/*.json' }, event: { name: 'workflow_run', payload: {} } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::error::agent-replay: report mode: no results files match shards/*.json (no folder shards in the workspace: check that the step that downloads the results artifacts ran before this one and wrote there, and that its pattern takes their names: pattern: agent-replay-results-<commit>?(-attempt-*) (init's) takes the artifact named agent-replay-results-<commit>, the name check mode uploads with, which a job that replays with the CLI must give its upload (the full commit))",
    );
    expect(run.stdout).not.toContain('ENOENT');
    expect(gh.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('compares with the run the comment showed before (since the previous run), as check mode does', async () => {
    const event = { name: 'workflow_run', payload: { action: 'completed', workflow_run: { id: 1001, head_sha: HEAD, pull_requests: [{ number: 7 }] } } };
    const inputs = { mode: 'report', results: 'shards/*.json', 'fail-on': 'none' };
    const first = await runActionHere({ gh, workspace: await shards(), runId: 3003, inputs, event });
    expect(first.code, first.stdout).toBe(0);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).not.toMatch(/previous run/i);
    // GitHub keeps the merge job's run and its artifact.
    gh.addWorkflowRun('octo', 'shop', { id: 3003, headSha: HEAD });
    const results = readFileSync(first.outputs['results-path'] as string, 'utf8');
    gh.addArtifact('octo', 'shop', 3003, { name: first.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: results }]) });

    // Fixture b now passes: "two" is echoed back.
    const fixed = ['fixtures:\n  - { label: a, message: one, assert: { contains: echo } }\n', 'fixtures:\n  - { label: b, message: two, assert: { contains: echo } }\n'];
    const second = await runActionHere({ gh, workspace: await shards(fixed), runId: 3004, inputs, event });
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs['comment-status']).toBe('updated');
    const text = visibleText(githubHtml(gh.comments('octo', 'shop', 7)[0]!.body)).replace(/\s+/g, ' ');
    expect(text).toContain('Since the previous run (run 3003): 1 fixed');
    expect(gh.violations).toEqual([]);
    expect(gh.responseViolations).toEqual([]);
  });

  it("a merge job's artifact holds the pr-number file of the pull request it comments on, as each shard's does; none of a pull request refused, nor without one", async () => {
    // Was: the merged record and report.html only, so a workflow_run report reading `*/pr-number` of it found no pull request.
    const workspace = await shards();
    runnerFiles(workspace);
    /** What each upload held: its files' names, and the pr-number file's text, read as the upload is asked. */
    const uploaded: { name: string; files: string[]; prNumber: string | null }[] = [];
    const deps: ActionDeps = {
      env: {},
      cwd: workspace,
      github: gitHubApiOf(gh),
      artifacts: {
        upload: async (name: string, files: readonly string[]) => {
          const pr = files.find((f) => f.endsWith('/pr-number'));
          uploaded.push({ name, files: files.map((f) => relative(workspace, f)), prNumber: pr === undefined ? null : readFileSync(pr, 'utf8') });
          return { kind: 'skipped' as const, name, reason: 'not here' };
        },
      },
    };
    const steps = (pr: string) => readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards', 'INPUT_FAIL-ON': 'none', 'INPUT_PR-NUMBER': pr }));
    // The merge job of a pull request's matrix: the event's pull request, as a shard's check step writes it.
    await reportMode(reportInputs(), await actionContextOf('pull_request', pullPayload()), deps);
    expect(uploaded.pop()).toEqual({ name: `agent-replay-results-${HEAD}`, files: ['agent-replay-results/results.json', 'agent-replay-results/pr-number', 'agent-replay-results/report.html'], prNumber: '7\n' });
    // A fork's workflow_run report: the pull request pr-number found, its head the run's.
    await reportMode(steps('7'), await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop')), deps);
    expect(uploaded.pop()?.prNumber).toBe('7\n');
    // Refused (pr-number names another pull request, whose head is not the run's): no number of it.
    gh.addPull('octo', 'shop', { number: 5, headSha: 'a'.repeat(40), headRef: 'maintainer-work' });
    await reportMode(steps('5'), await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop')), deps);
    expect(uploaded.pop()).toMatchObject({ files: ['agent-replay-results/results.json', 'agent-replay-results/report.html'], prNumber: null });
    expect(gh.comments('octo', 'shop', 5)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });

  it("a push's merge job (a matrix on the default branch: no pull request) merges and uploads, with no pr-number file", async () => {
    // Was: TypeError: Cannot read properties of undefined (reading 'head_branch'), the pull request of a workflow_run looked up on a push.
    const workspace = await shards();
    const { logged } = runnerFiles(workspace);
    const uploads: string[] = [];
    await reportMode(reportInputs(), await actionContextOf('push', webhookExample('push', () => true)), inProcessDeps(workspace, uploads));
    expect(logged.join('')).toContain('report: combined 2 results files, 2 fixtures');
    expect(uploads).toEqual([`agent-replay-results-${HEAD}`]);
    expect(existsSync(join(workspace, 'agent-replay-results', 'pr-number'))).toBe(false);
    expect(gh.violations).toEqual([]);
  });
});

// GitHub's own workflow_run example (@octokit/webhooks-examples), made a completed run of the check
// for a fork's pull request: the artifact it uploaded (results and pr-number) is the fork's to write.
const webhookExamples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, unknown>[] }[];
function forkWorkflowRun(headSha: string, headRepo: string): Record<string, unknown> {
  const payload = structuredClone(webhookExamples.find((e) => e.name === 'workflow_run')!.examples.find((e) => e.action === 'completed')!);
  const run = payload.workflow_run as Record<string, unknown>;
  Object.assign(run, { id: 1001, event: 'pull_request', status: 'completed', conclusion: 'success', head_sha: headSha, head_branch: 'feature', pull_requests: [] });
  (run.head_repository as Record<string, unknown>).full_name = headRepo;
  (payload.repository as Record<string, unknown>).full_name = 'octo/shop';
  return payload;
}

describe('report mode on workflow_run: the pull request must be the run\'s own', () => {
  const VICTIM_HEAD = 'a'.repeat(40);
  const inputs = (pr: string) => ({ mode: 'report', results: 'shards', 'pr-number': pr, 'fail-on': 'none', 'comment-key': 'agent-replay' });

  it('a fork\'s artifact naming another pull request (pr-number) gets no comment there: the sticky comment of that pull request is left alone', async () => {
    // #5: a maintainer's branch of the base repository, with its own check comment.
    gh.addPull('octo', 'shop', { number: 5, headSha: VICTIM_HEAD, headRef: 'maintainer-work' });
    const workspace = await shards(); // records at HEAD, the fork's head (#7)
    const run = await runAction({ gh, workspace, inputs: inputs('5'), event: { name: 'workflow_run', payload: forkWorkflowRun(HEAD, 'stranger/shop') } });
    expect(run.code, run.stdout).toBe(0);
    expect(gh.comments('octo', 'shop', 5)).toHaveLength(0);
    expect(run.outputs['comment-status']).toBe('skipped');
    expect(run.stdout).toMatch(/::warning::comment: not posted on #5: its head is a{7} of octo\/shop, but the workflow run 1001 ran on 1{7} of stranger\/shop/);
    expect(run.summary).toContain('fixture'); // the results are still in the summary
    expect(gh.violations).toEqual([]);
  });

  // A refused pull request takes the way the test above shows end to end (a warning, no comment,
  // the results kept); these are refused by the same decision (pullForReport), on what GitHub
  // answers for the pull request, without a start of the Action each (docs/contributing.md, "Speed").
  it('a record claiming another pull request\'s head gets no comment there either', async () => {
    gh.addPull('octo', 'shop', { number: 5, headSha: VICTIM_HEAD, headRef: 'maintainer-work' });
    const workspace = await shards();
    // The fork rewrites its records to claim #5's head commit.
    const claimed = parseRecord(readFileSync(join(workspace, 'shards', 'shard-0.json'), 'utf8').split(HEAD).join(VICTIM_HEAD), 'shard-0.json');
    expect(claimed.commit).toBe(VICTIM_HEAD);
    const ctx = await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop'));
    const found = await pullForReport(5, ctx, claimed, { github: gitHubApiOf(gh) });
    expect(found.refused).toBe('its head is aaaaaaa of octo/shop, but the workflow run 1001 ran on 1111111 of stranger/shop (another pull request, or a head that moved since: the check of the new head reports it)');
    expect(found.ctx.pull?.number).toBe(5);
    expect(gh.violations).toEqual([]);
  });

  it('the fork\'s own pull request, its head unchanged since the run, gets its comment; a re-run of the check (its first attempt\'s artifact downloaded beside the re-run\'s) is reported once there', async () => {
    // download-artifact with run-id takes every artifact of the run, each attempt's under its own name.
    const workspace = await shards([SHARD_FIXTURES[0]!, SHARD_FIXTURES[0]!]);
    const run = await runActionHere({ gh, workspace, inputs: inputs('7'), event: { name: 'workflow_run', payload: forkWorkflowRun(HEAD, 'stranger/shop') } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('report: the whole run is given twice (shards/shard-0.json and shards/shard-1.json');
    expect(run.outputs['comment-status']).toBe('created');
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    expect(parseCommentMetadata(gh.comments('octo', 'shop', 7)[0]!.body)).toMatchObject({ headSha: HEAD });
    expect(gh.violations).toEqual([]);
  });

  it('a pull request GitHub does not give (a 404 for pr-number, or a 502 on every try) loses nothing: the merged record, the artifact and the summary are written, the warning says why in words', async () => {
    const workspace = await shards();
    // A 502 on every try fails the same read: its words, from the Action's client (src/main.ts) on this fake, without a start of its own.
    const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryAfterBaseMs: 0, throttleWrites: false });
    gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', status: 502, body: { message: 'Bad Gateway' }, times: 4 });
    const failed = await api.getPull('octo', 'shop', 7).then(
      () => null,
      (e: unknown) => e,
    );
    expect(gitHubFailure(failed, 'pull-requests: read')).toBe('GitHub answered 502 Bad Gateway: re-run the job once GitHub answers (https://www.githubstatus.com)');
    expect(gh.requests.filter((r) => r.path === '/repos/octo/shop/pulls/7')).toHaveLength(4);
    for (const fault of [
      { status: 404, body: { message: 'Not Found' }, said: "GitHub answered 404 Not Found: it is gone, or the job's token cannot see it (a token without pull-requests: read gets a 404); add pull-requests: read to the workflow's permissions if it is missing" },
    ]) {
      gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', status: fault.status, body: fault.body });
      const run = await runActionHere({ gh, workspace, inputs: inputs('7'), event: { name: 'workflow_run', payload: forkWorkflowRun(HEAD, 'stranger/shop') } });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(`::warning::comment: not posted on #7: the pull request could not be read: ${fault.said}. The results are in the job summary; the artifact was not uploaded (see the warning above).`);
      expect(run.stdout).not.toMatch(/agent-replay: GET \/repos/);
      expect(parseRecord(readFileSync(run.outputs['results-path'] as string, 'utf8'), 'merged').fixtures.map((f) => f.label)).toEqual(['a', 'b']);
      expect(run.outputs).toMatchObject({ 'artifact-name': `agent-replay-results-${HEAD}`, gate: 'passed', 'comment-status': 'skipped' });
      expect(run.summary).toContain('fixture');
      expect(gh.comments('octo', 'shop', 7)).toHaveLength(0);
    }
    expect(gh.violations).toEqual([]);
  });

  it('records that name no commit say so, not a cut word', async () => {
    // Was: "the results were recorded at an unkn" (the words cut to a commit's seven characters).
    // pullForReport never posts without a commit; on workflow_run reportMode gives records that name none the run's head commit first.
    const ctx = await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop'));
    const found = await pullForReport(7, ctx, { commit: null }, { github: gitHubApiOf(gh) });
    expect(found.refused).toBe('the results name no commit they were recorded at (a run outside a git repository, given no --commit): nothing shows that they are of its head, 1111111');
    expect(found.noCommit).toBe(true);
    expect(gh.violations).toEqual([]);
  });

  it('a pull request whose head moved since the run gets no comment from the older run (the newer run\'s report comments)', async () => {
    // Refused as the first test of this block is end to end (pullForReport), without a start of its own.
    const workspace = await shards();
    gh.addPull('octo', 'shop', { number: 7, headSha: 'b'.repeat(40), headRef: 'feature', headRepo: 'stranger/shop' });
    const record = parseRecord(readFileSync(join(workspace, 'shards', 'shard-0.json'), 'utf8'), 'shard-0.json');
    const found = await pullForReport(7, await actionContextOf('workflow_run', forkWorkflowRun(HEAD, 'stranger/shop')), record, { github: gitHubApiOf(gh) });
    expect(found.refused).toBe('its head is bbbbbbb of stranger/shop, but the workflow run 1001 ran on 1111111 of stranger/shop (another pull request, or a head that moved since: the check of the new head reports it)');
    expect(gh.violations).toEqual([]);
  });
});
