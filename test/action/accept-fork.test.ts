// A fork's pull request, end to end: the check's comment and artifact, then accept mode (in
// process, with an artifact store that keeps what it is given, as the artifact service does),
// then the commands the comment shows, run in a clone of the fork with a fake `gh` that serves
// that artifact. The baselines must land in the fork's branch exactly as a commit would write them.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { tempDir } from '../support/temp.js';
import { describe, expect, it, vi } from 'vitest';
import type { FakeGitHub, FakeState } from '../support/github-server.js';
import type { AgentServer, AgentHandler } from '../support/agent-server.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers } from './harness.js';
import { artifactZip } from '../support/zip.js';
import { runCommands, setUpFork } from '../support/fork-clone.js';
import { acceptMode } from '../../src/action/accept.js';
import { pullFromPayload, type ActionContext } from '../../src/action/context.js';
import type { ArtifactStore } from '../../src/action/artifacts.js';
import { readInputs } from '../../src/action/inputs.js';
import { createGitHubApi } from '../../src/github/api.js';
import { parseRecord } from '../../src/record/index.js';
import type { Baseline } from '../../src/types.js';

const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'hi', route: { conversation: 'welcome', stage: 'greeting' }, ended: false } };
  return { json: { reply: body.message === 'hello' ? 'Welcome to the shop!' : "We're open 9 to 5.", route: { conversation: String(body.message), stage: 'answer' }, ended: false } };
};
const FIXTURES = 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n  - { label: opening-hours, message: hours }\n';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  handler,
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature', headRepo: 'stranger/shop' });
    g.setPermission('octo', 'shop', 'maintainer', 'write');
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

/** The reviewed check's results.json, and the fake GitHub it left (its comment, run 1001 and artifact): made once for the file. */
let reviewed: { text: string; state: FakeState } | null = null;

/**
 * The check the maintainer reviewed, stored as run 1001 with its results artifact: started by the
 * first test that needs it and given to the other as the fake it left (FakeGitHub's state), not
 * started again: each test starts from the same seeded pull request, so it would decide the same.
 */
async function reviewedCheck(): Promise<string> {
  if (reviewed === null) {
    const workspace = await makeWorkspace({ fixtures: FIXTURES, config: 'agent:\n  retries: 0\n' });
    const check = await runAction({ gh, workspace, runId: 1001, inputs: { 'agent-url': agent.url, 'fail-on': 'none' }, event: { name: 'pull_request_target', payload: pullPayload() } });
    expect(check.code, check.stdout).toBe(0);
    const text = readFileSync(check.outputs['results-path'] as string, 'utf8');
    gh.addWorkflowRun('octo', 'shop', { id: 1001, headSha: HEAD });
    gh.addArtifact('octo', 'shop', 1001, { name: check.outputs['artifact-name'] as string, zip: await artifactZip([{ name: 'results.json', data: text }]) });
    reviewed = { text, state: gh.state() };
  } else gh.restore(reviewed.state);
  return reviewed.text;
}

/**
 * The accept job's world as GitHub and the runner give it, so that the test's log holds what the
 * job says, not what its set-up lacks: the label on the pull request, applied by the maintainer the
 * labeled event names (else the job says the timeline does not show it yet), and the runner's
 * output and summary files (else @actions/core writes a deprecated `::set-output` command and a
 * "job summary not written" warning to stdout). The env stubs end with the test (vitest.config.ts, unstubEnvs).
 */
async function asTheRunnerHasIt(): Promise<void> {
  gh.setLabels('octo', 'shop', 7, ['accept-baseline']);
  const runner = await tempDir('agent-replay-runner-');
  for (const [name, file] of [['GITHUB_OUTPUT', 'outputs.txt'], ['GITHUB_STEP_SUMMARY', 'summary.md']] as const) {
    await writeFile(join(runner, file), '');
    vi.stubEnv(name, join(runner, file));
  }
}

describe('accept on a fork: the commands in the comment, run for real', () => {
  it('puts the reviewed baselines in the fork branch, downloaded from the base repository', async () => {
    // 1. The check the maintainer reviewed (comment + artifact of run 1001).
    const record = parseRecord(await reviewedCheck(), 'results.json');
    await asTheRunnerHasIt();

    // 2. Accept, in process, with an artifact store that keeps the files like the service does.
    // The fork stores its baseline with CRLF (committed from Windows without autocrlf): it stays so,
    // and the new one takes the folder's style (docs/fixtures.md, "Line endings and byte-order marks").
    const stored = { '.agent-replay/config.yml': 'agent: {}\n', '.agent-replay/baselines/greeting.json': '{\r\n  "label": "greeting",\r\n  "reply": "Hello."\r\n}\r\n' };
    gh.setBranch('stranger/shop', 'feature', HEAD, stored);
    const fork = await setUpFork('feature', stored);
    const uploads: { name: string; entries: string[] }[] = [];
    const staged: string[] = [];
    const store: ArtifactStore = {
      async upload(name, files, root) {
        const base = root ?? '.';
        staged.push(base);
        for (const f of files) await cp(f, join(fork.artifacts, '2002', name, relative(base, f)));
        uploads.push({ name, entries: files.map((f) => relative(base, f)) });
        return { kind: 'uploaded', name, id: 1 };
      },
    };
    const payload = pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer', headRepo: 'stranger/shop' });
    const ctx: ActionContext = {
      owner: 'octo',
      repo: 'shop',
      eventName: 'pull_request_target',
      payload,
      pull: pullFromPayload(payload, 'octo/shop'),
      deployment: null,
      push: null,
      sha: HEAD,
      ref: 'refs/heads/main',
      runId: '2002',
      runAttempt: 1,
      workflow: 'agent-replay-accept',
      workflowRef: null,
      serverUrl: 'https://github.com',
      apiUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
    };
    const inputs = readInputs((name) => ({ mode: 'accept', 'comment-key': 'agent-replay', 'github-token': gh.token })[name] ?? '');
    const github = createGitHubApi({ token: gh.token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryAfterBaseMs: 0, throttleWrites: false });
    await acceptMode(inputs, ctx, { env: {}, cwd: await tempDir('agent-replay-accept-'), github, artifacts: store });

    expect(gh.commits).toHaveLength(0);
    expect(uploads).toEqual([{ name: `agent-replay-baselines-${HEAD}`, entries: ['greeting.json', 'opening-hours.json'] }]);
    // The folder the files were staged in is gone once they are uploaded.
    expect(staged).toHaveLength(1);
    expect(existsSync(staged[0] as string)).toBe(false);
    const body = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(body).toContain('Not committed');
    expect(body).toContain(`agent-replay-baselines-${HEAD}`);

    // 3. The commands exactly as the comment shows them.
    const lines = body.split('\n');
    const from = lines.findIndex((l) => l.startsWith('git checkout '));
    const to = lines.findIndex((l, i) => i > from && l === 'git push');
    expect(from).toBeGreaterThan(0);
    const commands = lines.slice(from, to + 1).join('\n');
    expect(commands).toContain(`gh run download 2002 -R 'octo/shop' -n 'agent-replay-baselines-${HEAD}'`);
    const ran = runCommands(fork, commands);
    expect(ran.code, ran.stderr).toBe(0);

    for (const label of ['greeting', 'opening-hours']) {
      const text = execFileSync('git', ['cat-file', 'blob', `refs/heads/feature:.agent-replay/baselines/${label}.json`], { cwd: fork.origin, encoding: 'utf8' });
      expect(text.split('\n').slice(0, -1).every((line) => line.endsWith('\r')), text).toBe(true);
      const b = JSON.parse(text) as Baseline;
      const f = record.fixtures.find((x) => x.label === label)!;
      expect(b).toMatchObject({ label, reply: f.reply, route: f.route, verdict: f.verdict, commit: HEAD });
    }
    expect(gh.violations).toEqual([]);
  });
});

describe('accept on a fork, in a re-run of the accept job', () => {
  it('uploads the baselines under the attempt\'s own name, which a re-run can upload and the commands download', async () => {
    await reviewedCheck();
    await asTheRunnerHasIt();
    // The first attempt's artifact is there: the artifact service refuses a second one of that name in the run.
    const names = new Set([`agent-replay-baselines-${HEAD}`]);
    const store: ArtifactStore = {
      async upload(name) {
        if (names.has(name)) return { kind: 'skipped', name, reason: 'upload failed: (409) Conflict: an artifact with this name already exists on the workflow run' };
        names.add(name);
        return { kind: 'uploaded', name, id: 2 };
      },
    };
    const payload = pullPayload({ action: 'labeled', label: 'accept-baseline', sender: 'maintainer', headRepo: 'stranger/shop' });
    const ctx: ActionContext = {
      owner: 'octo', repo: 'shop', eventName: 'pull_request_target', payload, pull: pullFromPayload(payload, 'octo/shop'), deployment: null, push: null,
      sha: HEAD, ref: 'refs/heads/main', runId: '2002', runAttempt: 2, workflow: 'agent-replay-accept', workflowRef: null,
      serverUrl: 'https://github.com', apiUrl: gh.url, graphqlUrl: gh.graphqlUrl,
    };
    const inputs = readInputs((name) => ({ mode: 'accept', 'comment-key': 'agent-replay', 'github-token': gh.token })[name] ?? '');
    const github = createGitHubApi({ token: gh.token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryAfterBaseMs: 0, throttleWrites: false });
    await acceptMode(inputs, ctx, { env: {}, cwd: await tempDir('agent-replay-accept-'), github, artifacts: store });
    const body = gh.comments('octo', 'shop', 7)[0]!.body;
    expect(body).toContain(`gh run download 2002 -R 'octo/shop' -n 'agent-replay-baselines-${HEAD}-attempt-2'`);
    expect(body).not.toContain('AGENT_REPLAY_EOF');
  });
});
