// A comment that cannot be posted says where the results are, and only what is true
// (docs/action.md, "The PR comment"). Its warning said "The results are in the job summary and the
// artifact" right after the log's "artifact ... not uploaded: ...". In process: the publisher with
// a fake GitHub on 127.0.0.1 that refuses the comment, and an artifact store that uploads, or not.

import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as core from '@actions/core';
import { publisher, publishSettings, refusalWhere, resultsWhere } from '../../src/action/publish.js';
import { postMergeRefused } from '../../src/action/report.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import type { ActionContext } from '../../src/action/context.js';
import type { ArtifactStore, UploadResult } from '../../src/action/artifacts.js';
import { createGitHubApi } from '../../src/github/api.js';
import { startFakeGitHub, type FakeGitHub } from '../support/github-server.js';
import { run } from '../report/fixtures.js';

const HEAD = 'a'.repeat(40);
let gh: FakeGitHub;
let cwd: string;

beforeAll(async () => {
  gh = await startFakeGitHub();
  gh.addPull('octo', 'shop', { number: 7, headSha: HEAD, headRef: 'feature' });
  cwd = await mkdtemp(join(tmpdir(), 'agent-replay-where-'));
});
afterAll(async () => {
  await gh.close();
  await rm(cwd, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

const ctx = (): ActionContext => ({
  owner: 'octo',
  repo: 'shop',
  eventName: 'pull_request',
  payload: {},
  pull: { number: 7, headSha: HEAD, headRef: 'feature', headRepoFullName: 'octo/shop', baseRepoFullName: 'octo/shop', baseSha: null, isFork: false, labels: [] },
  deployment: null,
  push: null,
  sha: HEAD,
  ref: 'refs/pull/7/merge',
  runId: '1001',
  runAttempt: 1,
  workflow: 'agent-replay',
  workflowRef: null,
  serverUrl: 'https://github.com',
  apiUrl: gh.url,
  graphqlUrl: gh.graphqlUrl,
});

const store = (result: 'uploaded' | 'skipped'): ArtifactStore => ({
  async upload(name): Promise<UploadResult> {
    return result === 'uploaded' ? { kind: 'uploaded', name, id: 1 } : { kind: 'skipped', name, reason: 'no artifact service here (ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL are not set)' };
  },
});

/** The step's log lines written while `f` runs (@actions/core writes its commands to stdout). */
async function logged(f: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
    return true;
  });
  await f();
  vi.restoreAllMocks();
  return lines;
}

/** Drops the path @actions/core's summary read from GITHUB_STEP_SUMMARY on its first write (its private `_filePath`). */
function forgetSummaryPath(): void {
  (core.summary as unknown as { _filePath?: string })._filePath = undefined;
}

async function commentRefused(
  upload: 'uploaded' | 'skipped' | null,
  readOnlyToken = false,
  summary: string | null = null,
  refusal: { status: number; message: string } = { status: 403, message: 'Resource not accessible by integration' },
): Promise<string[]> {
  const github = createGitHubApi({ token: gh.token, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, retryAfterBaseMs: 0, throttleWrites: false });
  const settings = publishSettings({ comment: true, commentKey: null, acceptLabel: 'accept-baseline', confirmLabel: 'confirm-cost', resultsPath: join(cwd, `${upload}-${readOnlyToken}`, 'results.json'), dir: '.agent-replay' });
  const out = publisher(settings, ctx(), { cwd, github, artifacts: store(upload ?? 'skipped') });
  return logged(async () => {
    if (upload !== null) await out.save(run([]));
    if (summary !== null) await out.summary(summary);
    // A fork's read-only token posts nothing: no refusal is queued for a later call to meet.
    if (!readOnlyToken) gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: refusal.status, body: { message: refusal.message } });
    await out.comment('<!-- agent-replay:marker=agent-replay -->\nbody', { readOnlyToken });
  });
}

describe('a comment not posted says where the results are, only as far as it is true', () => {
  it('names the artifact only when it was uploaded', async () => {
    const uploaded = await commentRefused('uploaded');
    expect(uploaded.filter((l) => l.startsWith('::warning::'))).toEqual([
      expect.stringMatching(/^::warning::comment: not posted: GitHub answered 403 .*\. The results are in the job summary and the artifact\.$/),
    ]);
    const skipped = await commentRefused('skipped');
    expect(skipped.filter((l) => l.startsWith('::warning::'))).toEqual([
      expect.stringMatching(/^::warning::artifact agent-replay-results-\S+ not uploaded: no artifact service here/),
      expect.stringMatching(/^::warning::comment: not posted: GitHub answered 403 .*\. The results are in the job summary; the artifact was not uploaded \(see the warning above\)\.$/),
    ]);
    expect(skipped.join('\n')).not.toContain('and the artifact');
  });

  it("a fork's read-only token: the same words, before its advice", async () => {
    const fork = await commentRefused('skipped', true);
    expect(fork.find((l) => l.startsWith('::warning::comment:'))).toMatch(
      /^::warning::comment: not posted: this pull request comes from a fork, so the token is read-only\. The results are in the job summary; the artifact was not uploaded \(see the warning above\); to comment, add the workflow_run workflow/,
    );
  });

  it('before any upload (a run stopped before it replayed anything): the job summary alone', async () => {
    const early = await commentRefused(null);
    expect(early.filter((l) => l.startsWith('::warning::'))).toEqual([expect.stringMatching(/\. The results are in the job summary\.$/)]);
    expect(resultsWhere('none')).toBe('The results are in the job summary');
  });

  it('a job summary that could not be written is not named as where the results are', async () => {
    // No GITHUB_STEP_SUMMARY: @actions/core cannot write the summary, as on a runner whose summary file is gone.
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    // @actions/core keeps the summary's path once read, and test files share modules (vitest.config.ts,
    // isolate: false): an earlier file's path would be written to and this case would not be the one named.
    forgetSummaryPath();
    try {
      const uploaded = await commentRefused('uploaded', false, '# results');
      expect(uploaded.filter((l) => l.startsWith('::warning::'))).toEqual([
        expect.stringMatching(/^::warning::job summary not written: /),
        expect.stringMatching(/^::warning::comment: not posted: GitHub answered 403 .*\. The results are in the artifact; the job summary was not written \(see the warning above\)\.$/),
      ]);
      const neither = await commentRefused('skipped', false, '# results');
      expect(neither.find((l) => l.startsWith('::warning::comment:'))).toMatch(
        /\. The job summary was not written and the artifact was not uploaded \(see the warnings above\): the results are only in the results file on the runner \(the results-path output\)\.$/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
    expect(resultsWhere('none', 'not-written')).toBe('The job summary was not written (see the warning above)');
  });
});

describe('a refused merge with no pull request to comment on says where the refusal is, only as far as it is true', () => {
  const noPull = (): ActionContext => ({ ...ctx(), eventName: 'push', pull: null, ref: 'refs/heads/main' });
  const inputs = readInputs(envInputGetter({ INPUT_MODE: 'report', INPUT_RESULTS: 'shards' }));
  const refused = (): Promise<string[]> => logged(() => postMergeRefused('shards were recorded at different commits', [], inputs, noPull(), { env: {}, cwd, github: null, artifacts: store('skipped') }));

  it('names the job summary only when it was written', async () => {
    // Was: "comment: no pull request to comment on. The refusal is in the job summary" after "job summary not written".
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    forgetSummaryPath();
    try {
      const lines = await refused();
      expect(lines.filter((l) => l.startsWith('::warning::'))).toEqual([expect.stringMatching(/^::warning::job summary not written: /)]);
      expect(lines).toContain(`comment: no pull request to comment on. ${refusalWhere('not-written')}`);
      expect(lines.join('\n')).not.toContain('The refusal is in the job summary');
    } finally {
      vi.unstubAllEnvs();
      forgetSummaryPath();
    }
    const summary = join(cwd, 'refusal-summary.md');
    writeFileSync(summary, '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    try {
      expect(await refused()).toContain('comment: no pull request to comment on. The refusal is in the job summary and the error below');
      expect(readFileSync(summary, 'utf8')).toContain('shards were recorded at different commits');
    } finally {
      vi.unstubAllEnvs();
      forgetSummaryPath();
    }
  });
});

describe('the words docs/troubleshooting.md quotes ("The Action")', () => {
  const page = readFileSync('docs/troubleshooting.md', 'utf8');
  /** The quote's words before its `...`, and after it, said in that order by one warning. */
  const saidAsQuoted = (lines: string[], quoted: string): void => {
    expect(page).toContain(`\`${quoted}\``);
    const [head = '', ...rest] = quoted.split('...');
    const warning = lines.find((l) => l.startsWith(`::warning::${head}`));
    expect(warning, `no warning starts ${head}`).toBeDefined();
    expect(warning!.slice(`::warning::${head}`.length).includes(rest.join('...'))).toBe(true);
  };

  it("a fork's read-only token, a token without pull-requests: write, a token that is not valid", async () => {
    saidAsQuoted(
      await commentRefused('uploaded', true),
      'comment: not posted: this pull request comes from a fork, so the token is read-only. The results are in the job summary and the artifact; to comment, add the workflow_run workflow of mode: report (...)',
    );
    saidAsQuoted(
      await commentRefused('skipped'),
      "comment: not posted: GitHub answered 403 Resource not accessible by integration: the job's token lacks the pull-requests: write permission; add it to the workflow's permissions. The results are in the job summary; ...",
    );
    const invalid = await commentRefused('uploaded', false, null, { status: 401, message: 'Bad credentials' });
    const quoted = 'GitHub answered 401 Bad credentials: the github-token input is not a valid token (expired, revoked or mistyped); give the job a valid one';
    expect(page).toContain(`\`${quoted}\``);
    expect(invalid.find((l) => l.startsWith('::warning::comment: not posted: '))).toBe(`::warning::comment: not posted: ${quoted}. The results are in the job summary and the artifact.`);
  });
});
