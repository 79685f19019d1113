// The commit `run` records (docs/cli.md, "What each command does"): --commit, else on a pull
// request event in GitHub Actions the pull request's head from the event's payload (GitHub's own
// examples, @octokit/webhooks-examples), else GITHUB_SHA, else git HEAD, a merge commit included.
// The checkout is real git: a merge commit as actions/checkout leaves on pull_request.

import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutWarning, commitWarning, runCommit } from '../../src/cli/commit.js';
import { UsageError } from '../../src/engine.js';
import { tempDir } from '../support/temp.js';
import { webhookExample } from '../support/webhooks.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

const example = (event: string, action?: string): Record<string, unknown> => webhookExample(event, (e) => action === undefined || e.action === action);
const headOf = (payload: Record<string, unknown>) => ((payload.pull_request as { head: { sha: string } }).head.sha);

/** A checkout whose HEAD is a merge commit of main and a feature branch, as refs/pull/N/merge is; its merge commit and the branch's head. */
let checkout: { cwd: string; merge: string; feature: string };

beforeAll(async () => {
  const cwd = await tempDir('agent-replay-commit-');
  git(cwd, 'init', '-q');
  git(cwd, 'commit', '-q', '--allow-empty', '-m', 'base');
  git(cwd, 'checkout', '-q', '-b', 'feature');
  git(cwd, 'commit', '-q', '--allow-empty', '-m', 'the change');
  const feature = git(cwd, 'rev-parse', 'HEAD');
  git(cwd, 'checkout', '-q', 'main');
  git(cwd, 'commit', '-q', '--allow-empty', '-m', 'main moved on');
  git(cwd, 'merge', '-q', '--no-ff', '-m', 'Merge feature into main', 'feature');
  git(cwd, 'checkout', '-q', '--detach', 'HEAD');
  checkout = { cwd, merge: git(cwd, 'rev-parse', 'HEAD'), feature };
});

async function eventFile(payload: unknown): Promise<string> {
  const path = join(await tempDir('agent-replay-event-'), 'event.json');
  await writeFile(path, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return path;
}

describe('runCommit', () => {
  it('quotes a --commit or GITHUB_SHA that is not a SHA as JSON on its one line, a U+2028 or U+2029 in it as its escape', async () => {
    // JSON.stringify leaves U+2028 and U+2029 as they are: the CLI's line (terminalBlock) and a log broke the message there.
    const said = (given: string | undefined, env: Record<string, string>): Promise<string> => runCommit(given, env, checkout.cwd).then(() => 'no refusal', (e: unknown) => (e as Error).message);
    expect(await said('abc\u2028def', {})).toContain(String.raw`--commit must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got "abc\u2028def": give the commit`);
    expect(await said(undefined, { GITHUB_SHA: 'HEAD\u2029x\u202e' })).toBe(String.raw`GITHUB_SHA must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got "HEAD\u2029x\u202e": unset it to use git HEAD, or give --commit SHA`);
  });

  it("records the pull request's head on a pull request event in GitHub Actions, not GITHUB_SHA's merge commit that HEAD also is", async () => {
    // Was: GITHUB_SHA, the merge commit, which report mode on workflow_run refuses ("its head is ..., but the results were recorded at <merge>").
    for (const [event, payload] of [
      ['pull_request', example('pull_request', 'synchronize')],
      ['pull_request_target', example('pull_request', 'opened')],
      ['pull_request_review', example('pull_request_review', 'submitted')],
      ['pull_request_review_comment', example('pull_request_review_comment', 'created')],
    ] as const) {
      const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: await eventFile(payload), GITHUB_SHA: checkout.merge };
      expect(headOf(payload)).toMatch(/^[0-9a-f]{40}$/);
      expect(await runCommit(undefined, env, checkout.cwd), event).toBe(headOf(payload));
    }
    // The payload's head as the checkout's branch names it, given in upper case: recorded in lower case.
    const payload = example('pull_request', 'synchronize');
    (payload.pull_request as { head: { sha: string } }).head.sha = checkout.feature.toUpperCase();
    const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: await eventFile(payload), GITHUB_SHA: checkout.merge };
    expect(await runCommit(undefined, env, checkout.cwd)).toBe(checkout.feature);
    // --commit first, whatever the event says.
    expect(await runCommit('ABCDEF1', env, checkout.cwd)).toBe('abcdef1');
  });

  it('records GITHUB_SHA on another event, whose payload names no pull request, and git HEAD without either, a merge commit as it is', async () => {
    const push = example('push');
    const sha = (push.after as string).toLowerCase();
    expect(await runCommit(undefined, { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: await eventFile(push), GITHUB_SHA: sha }, checkout.cwd)).toBe(sha);
    // A workflow_run's payload is not read for a pull request's head (GITHUB_SHA is the default branch's there).
    const run = example('workflow_run', 'completed');
    expect(await runCommit(undefined, { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_EVENT_PATH: await eventFile(run), GITHUB_SHA: sha }, checkout.cwd)).toBe(sha);
    // Outside GitHub Actions: HEAD, the merge commit checked out, is the commit whose suite is replayed.
    expect(await runCommit(undefined, {}, checkout.cwd)).toBe(checkout.merge);
    // An event named with no payload's path (set but empty): as outside Actions.
    expect(await runCommit(undefined, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '' }, checkout.cwd)).toBe(checkout.merge);
  });

  it("refuses a pull request event's payload it cannot read the head from, naming the file and the fix, rather than recording the merge commit", async () => {
    const missing = join(await tempDir('agent-replay-event-'), 'gone.json');
    const noHead = example('pull_request', 'synchronize');
    delete (noHead.pull_request as { head: Record<string, unknown> }).head.sha;
    const shortHead = example('pull_request', 'synchronize');
    (shortHead.pull_request as { head: { sha: string } }).head.sha = 'abcdef1';
    const fix = "give run --commit SHA, the pull request's head (--commit ${{ github.event.pull_request.head.sha }} in the workflow)";
    const noHeadWords = `the pull_request event's payload at GITHUB_EVENT_PATH (@) names no pull request's head commit (pull_request.head.sha, 40 hex digits), which the run records on that event: ${fix}`;
    const cases: [string, string][] = [
      [missing, `cannot read the pull_request event's payload at GITHUB_EVENT_PATH (@): ENOENT. On that event the run records the pull request's head commit the payload names: ${fix}`],
      [await eventFile('{"pull_request": '), `the pull_request event's payload at GITHUB_EVENT_PATH (@) is not JSON. On that event the run records the pull request's head commit the payload names: ${fix}`],
      [await eventFile(noHead), noHeadWords],
      [await eventFile(shortHead), noHeadWords],
      [await eventFile(example('push')), noHeadWords],
    ];
    for (const [path, words] of cases) {
      const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path, GITHUB_SHA: checkout.merge };
      const refused = await runCommit(undefined, env, checkout.cwd).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused, path).toBeInstanceOf(UsageError);
      expect((refused as Error).message).toBe(words.replace('(@)', `(${path})`));
      // --commit needs no payload.
      expect(await runCommit(checkout.feature, env, checkout.cwd)).toBe(checkout.feature);
    }
    // A path with a line break is named on its one line (before, the error was split there).
    const broken = join(dirname(missing), 'go\nne.json');
    const said = await runCommit(undefined, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: broken }, checkout.cwd).catch((e: unknown) => (e as Error).message);
    expect(said).toBe(cases[0]?.[1].replace('(@)', `(${dirname(missing)}/go ⏎ ne.json)`));
  });

  it("warns when --commit is GITHUB_SHA on a pull request event whose head is another commit: the merge commit, with which report mode never comments", async () => {
    const payload = example('pull_request', 'synchronize');
    (payload.pull_request as { head: { sha: string } }).head.sha = checkout.feature;
    const path = await eventFile(payload);
    const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path, GITHUB_SHA: checkout.merge };
    const fix = "report mode never comments with results recorded at it. Leave --commit out (the run records the head the event names), or give --commit ${{ github.event.pull_request.head.sha }}";
    const head = checkout.feature.slice(0, 7);
    // --commit ${{ github.sha }}, whole, short or in upper case.
    for (const given of [checkout.merge, checkout.merge.slice(0, 7), checkout.merge.toUpperCase()]) {
      expect(await commitWarning(given, env, checkout.cwd)).toBe(`--commit ${checkout.merge.slice(0, 7)} is GITHUB_SHA, the merge commit GitHub made for this pull_request event, not the pull request's head (${head}): ${fix}`);
    }
    expect(await commitWarning(checkout.merge, { ...env, GITHUB_EVENT_NAME: 'pull_request_target' }, checkout.cwd)).toBe(
      `--commit ${checkout.merge.slice(0, 7)} is GITHUB_SHA, the base branch's last commit on this pull_request_target event, not the pull request's head (${head}): ${fix}`,
    );
    // The head itself, another commit, no --commit, another event, no payload to read: nothing to say.
    expect(await commitWarning(checkout.feature, env, checkout.cwd)).toBeNull();
    expect(await commitWarning('abcdef1', env, checkout.cwd)).toBeNull();
    expect(await commitWarning(undefined, env, checkout.cwd)).toBeNull();
    expect(await commitWarning(checkout.merge, { ...env, GITHUB_EVENT_NAME: 'push' }, checkout.cwd)).toBeNull();
    expect(await commitWarning(checkout.merge, { ...env, GITHUB_EVENT_PATH: join(checkout.cwd, 'gone.json') }, checkout.cwd)).toBeNull();
  });

  it("warns when the run records the pull request's head but the checkout is another commit (actions/checkout's merge commit): the suite replayed is not the head's", async () => {
    const payload = example('pull_request', 'synchronize');
    (payload.pull_request as { head: { sha: string } }).head.sha = checkout.feature;
    const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: await eventFile(payload), GITHUB_SHA: checkout.merge };
    expect(await checkoutWarning(undefined, env, checkout.cwd)).toBe(
      `this checkout's HEAD is ${checkout.merge.slice(0, 7)}, not the pull request's head ${checkout.feature.slice(0, 7)} that the run records (actions/checkout without ref checks out GitHub's merge commit on pull_request, the base branch on pull_request_target), so the suite replayed is not the head's: ` +
        "add ref: ${{ github.event.pull_request.head.sha }} under the checkout's with:",
    );
    quotedAndSaid(`warning: ${(await checkoutWarning(undefined, env, checkout.cwd))!}`, "warning: this checkout's HEAD is <sha>, not the pull request's head <sha> that the run records (...)");
    // The head checked out, --commit given (the run records what it says), another event, no git repository: nothing to say.
    git(checkout.cwd, 'checkout', '-q', '--detach', checkout.feature);
    try {
      expect(await checkoutWarning(undefined, env, checkout.cwd)).toBeNull();
    } finally {
      git(checkout.cwd, 'checkout', '-q', '--detach', checkout.merge);
    }
    expect(await checkoutWarning(checkout.feature, env, checkout.cwd)).toBeNull();
    expect(await checkoutWarning(undefined, { ...env, GITHUB_EVENT_NAME: 'push' }, checkout.cwd)).toBeNull();
    expect(await checkoutWarning(undefined, env, await tempDir('agent-replay-nogit-'))).toBeNull();
  });
});
