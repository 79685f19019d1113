// A pull request's newest commit whose run left no results, beside a comment that reports an older
// commit: one line at the comment's top says so (docs/action.md, "The PR comment"). Check mode's
// decision in the test's own process, on a real git checkout, against the fake GitHub; report
// mode's is in report.test.ts.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHub } from '../support/github-server.js';
import { nativeEcho } from '../support/agent-server.js';
import { git } from '../support/fork-clone.js';
import { actionContextOf, gitHubApiOf, HEAD, makeWorkspace, pullPayload, useServers } from './harness.js';
import { checkMode } from '../../src/action/check.js';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { commentMarker, publishSettings } from '../../src/action/publish.js';
import { markerLine, metaLine } from '../../src/report/metadata.js';
import { noResultsLine } from '../../src/report/no-results.js';
import { UserError } from '../../src/errors.js';

let gh: FakeGitHub;
useServers(
  nativeEcho,
  () => {},
  (_a, g) => {
    gh = g;
  },
);

const NEWER = 'b'.repeat(40);

/** The check's workspace: a suite committed in a git repository, whose commit is not the pull request's head (a checkout without `ref`). */
async function otherCheckout(): Promise<string> {
  const ws = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: a, message: one }\n' });
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, '-c', 'commit.gpgsign=false', 'commit', '-qm', 'suite');
  return ws;
}

const inputs = readInputs(envInputGetter({ INPUT_MODE: 'check', 'INPUT_AGENT-URL': 'http://127.0.0.1:9/chat', 'INPUT_COMMENT-KEY': 'agent-replay' }));
/** Our comment as the check of 1111111 left it. */
const REPORT = [markerLine(commentMarker(publishSettings(inputs), { workflow: 'ci' })), metaLine({ headSha: HEAD, runId: '3001', artifactName: `agent-replay-results-${HEAD}` }), '### ✅ No new failures: 2 unchanged', '', '<sub>commit `1111111`</sub>', ''].join('\n');

describe("check mode: a run that stopped before it reported any results, beside a comment of an older commit's", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("says so in one line at the comment's top, above the older report it keeps; a fork's read-only run writes nothing", async () => {
    // Was: the comment left showing 1111111's report, named only in its footer, while the check of bbbbbbb failed.
    const ws = await otherCheckout();
    writeFileSync(join(ws, 'outputs.txt'), '');
    vi.stubEnv('GITHUB_OUTPUT', join(ws, 'outputs.txt'));
    const logged: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => logged.push(String(chunk)) > 0);
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER, headRef: 'feature' });
    const comment = gh.addComment('octo', 'shop', 7, { body: REPORT });
    const reportAt = comment.updatedAt;
    const deps = { env: {}, cwd: ws, github: gitHubApiOf(gh), artifacts: { upload: async (name: string) => ({ kind: 'skipped' as const, name, reason: 'not here' }) } };
    const ctx = await actionContextOf('pull_request', pullPayload({ headSha: NEWER }), { GITHUB_RUN_ID: '3003', GITHUB_WORKFLOW: 'ci' });
    await expect(checkMode(inputs, ctx, deps)).rejects.toThrow(/^this job checked out [0-9a-f]{7}, not the pull request's head bbbbbbb/);
    const [noted] = gh.comments('octo', 'shop', 7);
    const line = '> The newest commit, `bbbbbbb`, has no results: [workflow run 3003](https://github.com/octo/shop/actions/runs/3003) stopped before reporting any. The report below is of `1111111`.';
    expect(noted!.body).toBe(
      [...REPORT.split('\n').slice(0, 2), `<!-- agent-replay:notice report-updated=${reportAt} -->`, line, '<!-- /agent-replay:notice -->', '', ...REPORT.split('\n').slice(2)].join('\n'),
    );
    expect(logged.join('')).toContain(
      `comment: the newest commit, bbbbbbb, has no results: a line at the top of the comment now says so, above its report of 1111111 https://github.com/octo/shop/pull/7#issuecomment-${comment.id}`,
    );

    // A fork's pull_request run has a read-only token: nothing is asked to be written.
    gh.editComment(comment.id, REPORT);
    const writes = () => gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').length;
    const before = writes();
    const fork = await actionContextOf('pull_request', pullPayload({ headSha: NEWER, headRepo: 'stranger/shop' }), { GITHUB_RUN_ID: '3004', GITHUB_WORKFLOW: 'ci' });
    await expect(checkMode(inputs, fork, deps)).rejects.toThrow(UserError);
    expect(writes()).toBe(before);
    expect(gh.comments('octo', 'shop', 7)[0]!.body).toBe(REPORT);
    expect(gh.violations).toEqual([]);
  });

  it('no comment yet: none is posted for a run without results', async () => {
    const ws = await otherCheckout();
    writeFileSync(join(ws, 'outputs.txt'), '');
    vi.stubEnv('GITHUB_OUTPUT', join(ws, 'outputs.txt'));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    gh.addPull('octo', 'shop', { number: 7, headSha: NEWER, headRef: 'feature' });
    const deps = { env: {}, cwd: ws, github: gitHubApiOf(gh), artifacts: { upload: async (name: string) => ({ kind: 'skipped' as const, name, reason: 'not here' }) } };
    await expect(checkMode(inputs, await actionContextOf('pull_request', pullPayload({ headSha: NEWER }), { GITHUB_WORKFLOW: 'ci' }), deps)).rejects.toThrow(UserError);
    expect(gh.comments('octo', 'shop', 7)).toEqual([]);
    expect(gh.violations).toEqual([]);
  });
});

describe('noResultsLine', () => {
  it('names the run by a link only when it has an id and a URL of its own; no other text goes in', () => {
    expect(noResultsLine(NEWER, HEAD, { id: 1001, url: 'https://github.com/octo/shop/actions/runs/1001', how: 'none' })).toBe(
      '> The newest commit, `bbbbbbb`, has no results: [workflow run 1001](https://github.com/octo/shop/actions/runs/1001) left none to report. The report below is of `1111111`.',
    );
    expect(noResultsLine(NEWER, HEAD, { id: null, url: null, how: 'stopped' })).toBe('> The newest commit, `bbbbbbb`, has no results: its run stopped before reporting any. The report below is of `1111111`.');
    // Results recorded at another commit: named only when it is a full commit (a file's to write).
    expect(noResultsLine(NEWER, HEAD, { id: 1001, url: null, how: 'elsewhere', recorded: 'D'.repeat(40) })).toBe(
      '> The newest commit, `bbbbbbb`, has no results: workflow run 1001 recorded its results at `ddddddd`, another commit, so they are not reported. The report below is of `1111111`.',
    );
    expect(noResultsLine(NEWER, HEAD, { id: 1001, url: null, how: 'elsewhere', recorded: 'dd` [x](javascript:alert(1))' })).toBe(
      '> The newest commit, `bbbbbbb`, has no results: workflow run 1001 recorded its results at another commit, so they are not reported. The report below is of `1111111`.',
    );
    expect(noResultsLine(NEWER, HEAD, { id: '1 [x](javascript:alert(1))', url: 'javascript:alert(1)', how: 'none' })).toBe(
      '> The newest commit, `bbbbbbb`, has no results: its run left none to report. The report below is of `1111111`.',
    );
  });
});
