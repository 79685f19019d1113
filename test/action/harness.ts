// Runs the Action's entry (src/index.ts, which runs src/main.ts's run(); bundled once per test run)
// as a child process, the way the runner does: inputs as
// INPUT_* variables, the event payload in a file, outputs and the job summary in files, and
// GITHUB_API_URL pointing at the loopback fake GitHub; or the same run in the test's own process
// (runActionHere), for a run whose path another test starts.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatWithOptions } from 'node:util';
import * as core from '@actions/core';
import { inject } from 'vitest';
import { endWithTest } from '../support/children.js';
import { tempDir } from '../support/temp.js';
import { webhookExample } from '../support/webhooks.js';
import type { FakeGitHub } from '../support/github-server.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { artifactZip } from '../support/zip.js';
import type { Baseline } from '../../src/types.js';
import { createGitHubApi, type GitHubApi } from '../../src/github/api.js';
import { isGitHubError, type GitHubError } from '../../src/github/errors.js';
import { readActionContext, type ActionContext } from '../../src/action/context.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { reportFailure, runMode } from '../../src/main.js';
import { commentMarker } from '../../src/action/publish.js';

// One loopback agent for the file and a fresh fake GitHub for each test (test/support/servers.ts).
export { useServers } from '../support/servers.js';

/** src/index.ts (the Action's entry) bundled once per test run (test/support/entry-bundles.ts). */
const ACTION = inject('actionBundle');

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
}

/** Parses GITHUB_OUTPUT as written by @actions/core (`name<<delimiter` blocks). */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] as string);
    if (!m) continue;
    const [, name, delim] = m;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i] as string);
    out[name as string] = value.join('\n');
  }
  return out;
}

export interface RunOptions {
  gh: FakeGitHub;
  workspace: string;
  inputs: Record<string, string>;
  event: { name: string; payload: unknown };
  runId?: number;
  workflow?: string;
  env?: Record<string, string>;
  /** Called with the running child (tests: send it a signal). */
  onChild?: (child: ChildProcess) => void;
}

/** The runner's files for one run of the Action (event, outputs, job summary) and the environment it gives the step. */
async function runnerOf(o: RunOptions): Promise<{ env: Record<string, string>; outputPath: string; summaryPath: string }> {
  const tmp = await tempDir('agent-replay-action-');
  const eventPath = join(tmp, 'event.json');
  const outputPath = join(tmp, 'output');
  const summaryPath = join(tmp, 'summary.md');
  await writeFile(eventPath, JSON.stringify(o.event.payload));
  await writeFile(outputPath, '');
  await writeFile(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmp,
    // The Action's own temporary folders go where the tests' do (a run with TMPDIR set leaves none in /tmp).
    ...(process.env.TMPDIR !== undefined ? { TMPDIR: process.env.TMPDIR } : {}),
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: o.event.name,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_API_URL: o.gh.url,
    GITHUB_GRAPHQL_URL: o.gh.graphqlUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo/shop',
    GITHUB_RUN_ID: String(o.runId ?? 1001),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKFLOW: o.workflow ?? 'agent-replay',
    GITHUB_SHA: 'f'.repeat(40),
    AGENT_REPLAY_TEST_NO_DELAYS: '1',
    'INPUT_GITHUB-TOKEN': o.gh.token,
    ...Object.fromEntries(Object.entries(o.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...o.env,
  };
  return { env, outputPath, summaryPath };
}

/** What a run left in the runner's files. */
async function ranWith(code: number, stdout: string, stderr: string, files: { outputPath: string; summaryPath: string }, workspace: string): Promise<ActionRun> {
  return { code, stdout, stderr, outputs: parseOutputs(await readFile(files.outputPath, 'utf8')), summary: await readFile(files.summaryPath, 'utf8'), workspace };
}

export async function runAction(o: RunOptions): Promise<ActionRun> {
  const files = await runnerOf(o);
  const env = files.env;
  const child = spawn(process.execPath, [ACTION], { cwd: o.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Killed when the test ends, if still running (a timeout, a failed assertion): its writes would race the clean-up of its folders.
  endWithTest(child);
  o.onChild?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  return ranWith(code, stdout, stderr, files, o.workspace);
}

/**
 * The same run as runAction's, in the test's own process: what src/main.ts's run() does with the
 * runner's environment (the inputs, the event, a GitHub client without back-off or write spacing,
 * the mode, a thrown error reported by reportFailure), with the workspace as the working folder and
 * the log (@actions/core writes it to stdout) and the exit status kept for the run. For the tests
 * whose path another test already starts end to end: a start costs about 0.55 s of CPU, this
 * about a tenth of it (docs/contributing.md, "One Action start per path").
 */
export async function runActionHere(o: RunOptions): Promise<ActionRun> {
  if (o.onChild !== undefined) throw new Error('runActionHere: there is no child to signal; use runAction');
  const files = await runnerOf(o);
  const env = files.env;
  // @actions/core reads GITHUB_OUTPUT at each output, and GITHUB_STEP_SUMMARY at its summary's first write (kept then).
  const runnerVars = { GITHUB_OUTPUT: files.outputPath, GITHUB_STEP_SUMMARY: files.summaryPath, RUNNER_DEBUG: undefined };
  const before = Object.fromEntries(Object.keys(runnerVars).map((k) => [k, process.env[k]]));
  const setVars = (vars: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  setVars(runnerVars);
  (core.summary as unknown as { _filePath?: string })._filePath = undefined;
  core.summary.emptyBuffer();
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  let stdout = '';
  let stderr = '';
  // The log: @actions/core writes to stdout; console (vitest's own in a worker) as a child's would.
  const write = { out: process.stdout.write, err: process.stderr.write };
  const consoled = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  console.log = console.info = (...args: unknown[]) => void (stdout += formatWithOptions({}, ...args) + '\n');
  console.warn = console.error = (...args: unknown[]) => void (stderr += formatWithOptions({}, ...args) + '\n');
  let code: number;
  try {
    try {
      // As a start does (src/main.ts), to its end: the secrets it reads stay remembered in the worker (src/secrets.ts has no forgetting).
      await runMode(env, o.workspace, false);
    } catch (e) {
      reportFailure(e, env);
    }
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    Object.assign(console, consoled);
    process.exitCode = exitCode;
    (core.summary as unknown as { _filePath?: string })._filePath = undefined;
    core.summary.emptyBuffer();
    setVars(before);
  }
  return ranWith(code, stdout, stderr, files, o.workspace);
}

export const HEAD = '1'.repeat(40);
export const BASE_REPO = 'octo/shop';

export interface SuiteFile {
  fixtures: string;
  config?: string;
  baselines?: Baseline[];
}

/** A workspace (the checked-out repository) holding a suite. */
export async function makeWorkspace(suite: SuiteFile): Promise<string> {
  const ws = await tempDir('agent-replay-ws-');
  const dir = join(ws, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'baselines'), { recursive: true });
  await writeFile(join(dir, 'fixtures', 'suite.yml'), suite.fixtures);
  if (suite.config) await writeFile(join(dir, 'config.yml'), suite.config);
  for (const b of suite.baselines ?? []) await writeFile(join(dir, 'baselines', `${b.label}.json`), serializeBaseline(b));
  return ws;
}

export { webhookExample };

type Json = Record<string, unknown>;
const renamed = (repo: unknown, fullName: string): Json => {
  const [owner = '', name = ''] = fullName.split('/');
  const r = repo as Json;
  return { ...r, name, full_name: fullName, fork: false, default_branch: 'main', owner: { ...(r.owner as Json), login: owner } };
};

/**
 * A pull_request event as GitHub sends it: its own example for that action (@octokit/webhooks-examples;
 * `labeled`, `synchronize`, `opened` ...), made pull request 7 (or `number`) of octo/shop from the
 * branch feature of `headRepo` (null: a deleted fork) at `headSha`, with `labels`, the `label` the
 * action names and the `sender` (a User, or a Bot: `senderType`).
 */
export function pullPayload(over: { number?: number; headSha?: string; headRepo?: string | null; labels?: string[]; action?: string; label?: string; sender?: string; senderType?: 'User' | 'Bot' } = {}): Json {
  const action = over.action ?? 'synchronize';
  const payload = webhookExample('pull_request', (e) => e.action === action && !('organization' in e));
  const number = over.number ?? 7;
  const headRepo = over.headRepo === undefined ? BASE_REPO : over.headRepo;
  const pr = payload.pull_request as Json & { head: Json; base: Json };
  const label = (name: string): Json => ({ ...(webhookExample('pull_request', (e) => e.action === 'labeled').label as Json), name, default: false, description: null });
  payload.number = number;
  pr.number = number;
  pr.url = `https://api.github.com/repos/${BASE_REPO}/pulls/${number}`;
  pr.html_url = `https://github.com/${BASE_REPO}/pull/${number}`;
  pr.labels = (over.labels ?? []).map(label);
  pr.head = {
    ...pr.head,
    sha: over.headSha ?? HEAD,
    ref: 'feature',
    label: `${(headRepo ?? 'ghost').split('/')[0]}:feature`,
    repo: headRepo === null ? null : { ...renamed(pr.head.repo, headRepo), fork: headRepo.toLowerCase() !== BASE_REPO },
  };
  pr.base = { ...pr.base, ref: 'main', label: 'octo:main', repo: renamed(pr.base.repo, BASE_REPO) };
  payload.repository = renamed(payload.repository, BASE_REPO);
  payload.sender = { ...(payload.sender as Json), login: over.sender ?? 'maintainer', type: over.senderType ?? 'User' };
  if (over.label !== undefined) payload.label = label(over.label);
  else delete payload.label;
  return payload;
}

/** Pull request 7 from branch feature at HEAD, and "maintainer" with write access: what the accept flow needs. */
export function seedPullForAccept(g: FakeGitHub): void {
  g.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature' });
  g.setBranch('octo/shop', 'feature', HEAD);
  g.setPermission('octo', 'shop', 'maintainer', 'write');
}

/**
 * The reviewed check's run as GitHub keeps it for the accept job: workflow run `runId` (1001) at
 * HEAD and its results artifact, holding `results` (results.json's text) and pull request 7's number.
 */
export async function keepReviewedRun(g: FakeGitHub, artifactName: string, results: string, runId = 1001): Promise<void> {
  g.addWorkflowRun('octo', 'shop', { id: runId, headSha: HEAD, status: 'completed', conclusion: 'success' });
  g.addArtifact('octo', 'shop', runId, { name: artifactName, zip: await artifactZip([{ name: 'results.json', data: results }, { name: 'pr-number', data: '7\n' }]), expired: false });
}

/**
 * The accept workflow's job (run 2002) on the accept-baseline label, applied to pull request 7 by
 * `maintainer`: started as a child process, or run in the test's process with `here` (runActionHere).
 */
export async function runAcceptLabel(g: FakeGitHub, over: { inputs?: Record<string, string>; env?: Record<string, string>; headRepo?: string; here?: boolean } = {}): Promise<ActionRun> {
  g.setLabels('octo', 'shop', 7, ['accept-baseline']);
  return (over.here === true ? runActionHere : runAction)({
    gh: g,
    workspace: await makeWorkspace({ fixtures: 'label: unused\nmessage: not read\n' }),
    runId: 2002,
    workflow: 'agent-replay-accept',
    inputs: { mode: 'accept', 'comment-key': 'agent-replay', ...over.inputs },
    event: { name: 'pull_request_target', payload: pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer', ...(over.headRepo !== undefined ? { headRepo: over.headRepo } : {}) }) },
    ...(over.env !== undefined ? { env: over.env } : {}),
  });
}

/**
 * The marker of the comment the accept job of runAcceptLabel looks for (workflow agent-replay-accept),
 * with `inputs` over its own: as the Action reads its inputs (readInputs) and keys its comment
 * (commentMarker).
 */
export function acceptMarker(inputs: Record<string, string> = {}): string {
  const vars = { mode: 'accept', 'comment-key': 'agent-replay', ...inputs };
  const read = readInputs(envInputGetter(Object.fromEntries(Object.entries(vars).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))));
  return commentMarker(read, { workflow: 'agent-replay-accept' });
}

/** The event as the Action reads it (readActionContext), from an event file, in the test's own process. */
export async function actionContextOf(name: string, payload: unknown, env: Record<string, string> = {}): Promise<ActionContext> {
  const path = join(await tempDir('agent-replay-event-'), 'event.json');
  await writeFile(path, JSON.stringify(payload));
  return readActionContext({ GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: path, GITHUB_REPOSITORY: BASE_REPO, GITHUB_SHA: HEAD, ...env });
}

/**
 * The Action's GitHub client in the test's own process, against the fake GitHub: for what GitHub's
 * answer to one request makes of a decision, asserted on the function that takes it instead of
 * a start of the Action (docs/contributing.md, "Speed").
 */
export function gitHubApiOf(g: FakeGitHub): GitHubApi {
  return createGitHubApi({ token: g.token, baseUrl: g.url, graphqlUrl: g.graphqlUrl, retryAfterBaseMs: 0, throttleWrites: false });
}

/** The GitHubError `request` fails with (a test failure when it does not fail so). */
export async function gitHubErrorOf(request: Promise<unknown>): Promise<GitHubError> {
  const error = await request.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isGitHubError(error)) throw new Error(`expected a GitHubError, got ${String(error)}`);
  return error;
}

/** What GitHub answers a commit on pull request 7's branch (seedPullForAccept) at HEAD, as the accept job makes it. */
export function commitOnFeature(g: FakeGitHub): Promise<{ oid: string; url: string }> {
  return gitHubApiOf(g).createCommitOnBranch({
    repoWithOwner: 'octo/shop',
    branch: 'feature',
    expectedHeadOid: HEAD,
    message: { headline: 'Accept agent-replay baselines: greeting' },
    additions: [{ path: '.agent-replay/baselines/greeting.json', contents: '{}\n' }],
  });
}
