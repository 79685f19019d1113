// The commit `run` records with its results (docs/cli.md, "What each command does"): --commit,
// else, in a GitHub Actions job of a pull request event, the pull request's head as the event's
// payload gives it, else GITHUB_SHA, else the working folder's git HEAD.

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as z from 'zod';
import { UsageError } from '../engine.js';
import { gitHead } from './git.js';
import { terminalLine } from '../report/escape.js';
import { shownJson } from '../words.js';
import { onFirstUse } from '../patterns.js';

/** A commit as git and GitHub give it: 7 to 40 hex digits (docs/cli.md, "What each command does"). */
const COMMIT_SHA = /^[0-9a-f]{7,40}$/i;

/**
 * The events whose GITHUB_SHA, and the HEAD actions/checkout leaves by default, is not the pull
 * request's head: the merge commit GitHub made (refs/pull/N/merge), or for pull_request_target the
 * base branch's last commit. Their payload names the head, as the Action's check mode reads it
 * (action/context.ts): report mode holds a pull request's head to the commit its results name.
 */
const PULL_REQUEST_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/** What the commit is read from in a pull request event's payload (GitHub's data, checked as such); built on first use (onFirstUse). */
const pullHead = onFirstUse(() => z.object({ pull_request: z.object({ head: z.object({ sha: z.string().regex(/^[0-9a-f]{40}$/i) }) }) }));

/** The fix when the pull request's head cannot be read from the payload. */
const GIVE_HEAD = "give run --commit SHA, the pull request's head (--commit ${{ github.event.pull_request.head.sha }} in the workflow)";

/**
 * `--commit SHA` of run: the commit results.json, the comment and accepted baselines record, so
 * only a SHA (recorded in lower case); anything else is a usage error before anything is sent.
 */
function parseCommit(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!COMMIT_SHA.test(text)) {
    throw new UsageError(
      `--commit must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got ${shownJson(text)}: give the commit the replies are recorded at (git rev-parse HEAD), or leave --commit out to use the pull request's head on its event in GitHub Actions, else GITHUB_SHA, else git HEAD`,
    );
  }
  return text.toLowerCase();
}

/**
 * The pull request's head in a GitHub Actions job of a pull request event (GITHUB_EVENT_NAME), read
 * from the payload at GITHUB_EVENT_PATH; undefined on another event or outside Actions. A payload
 * that cannot be read, or names no head, is a usage error with the fix: GITHUB_SHA there is a
 * commit report mode never finds as the pull request's head.
 */
async function pullRequestHead(env: Record<string, string | undefined>, cwd: string): Promise<string | undefined> {
  const event = env.GITHUB_EVENT_NAME ?? '';
  const path = env.GITHUB_EVENT_PATH ?? '';
  if (!PULL_REQUEST_EVENTS.has(event) || path.trim() === '') return undefined;
  // The path on its one line, as the terminal shows it (docs/security.md, "Agent text is data").
  const at = `the ${event} event's payload at GITHUB_EVENT_PATH (${terminalLine(path)})`;
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${at}${code === undefined ? '' : `: ${code}`}. On that event the run records the pull request's head commit the payload names: ${GIVE_HEAD}`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new UsageError(`${at} is not JSON. On that event the run records the pull request's head commit the payload names: ${GIVE_HEAD}`);
  }
  const read = pullHead().safeParse(payload);
  if (!read.success) throw new UsageError(`${at} names no pull request's head commit (pull_request.head.sha, 40 hex digits), which the run records on that event: ${GIVE_HEAD}`);
  return read.data.pull_request.head.sha.toLowerCase();
}

/**
 * The warning when `--commit` is GITHUB_SHA in a GitHub Actions job of a pull request event whose
 * payload names another head: the merge commit GitHub made (on pull_request_target, the base
 * branch's last commit), which is no pull request's head, so report mode on workflow_run never
 * comments with results recorded at it (docs/cli.md, "What each command does"). The run records
 * what --commit says; null when nothing is wrong, or the payload cannot be read (--commit needs none).
 */
export async function commitWarning(given: string | undefined, env: Record<string, string | undefined>, cwd: string): Promise<string | null> {
  const sha = (env.GITHUB_SHA ?? '').toLowerCase();
  if (given === undefined || !COMMIT_SHA.test(given) || !COMMIT_SHA.test(sha)) return null;
  const commit = given.toLowerCase();
  if (!sha.startsWith(commit) && !commit.startsWith(sha)) return null;
  const head = await pullRequestHead(env, cwd).catch(() => undefined);
  if (head === undefined || head.startsWith(commit)) return null;
  const event = env.GITHUB_EVENT_NAME ?? '';
  const what = event === 'pull_request_target' ? `the base branch's last commit on this ${event} event` : `the merge commit GitHub made for this ${event} event`;
  return (
    `--commit ${commit.slice(0, 7)} is GITHUB_SHA, ${what}, not the pull request's head (${head.slice(0, 7)}): report mode never comments with results recorded at it. ` +
    'Leave --commit out (the run records the head the event names), or give --commit ${{ github.event.pull_request.head.sha }}'
  );
}

/**
 * The warning when, without --commit, a GitHub Actions job of a pull request event records the
 * pull request's head but replays a checkout whose git HEAD is another commit: actions/checkout
 * without `ref` checks out GitHub's merge commit (on pull_request_target, the base branch), whose
 * suite is not the head's that the results, the comment and accepted baselines are of (check mode
 * refuses such a checkout; docs/cli.md, "What each command does"). null when nothing is wrong, or
 * HEAD cannot be read (no git repository).
 */
export async function checkoutWarning(given: string | undefined, env: Record<string, string | undefined>, cwd: string): Promise<string | null> {
  if (given !== undefined) return null;
  const head = await pullRequestHead(env, cwd).catch(() => undefined);
  if (head === undefined) return null;
  const checkedOut = (await gitHead(cwd))?.toLowerCase();
  if (checkedOut === undefined || checkedOut === head) return null;
  return (
    `this checkout's HEAD is ${checkedOut.slice(0, 7)}, not the pull request's head ${head.slice(0, 7)} that the run records (actions/checkout without ref checks out GitHub's merge commit on pull_request, the base branch on pull_request_target), so the suite replayed is not the head's: ` +
    'add ref: ${{ github.event.pull_request.head.sha }} under the checkout\'s with:'
  );
}

/**
 * GITHUB_SHA when --commit is not given and no pull request's head is: held to the same rule,
 * since it is recorded the same way (docs/cli.md, "What each command does"). Empty is unset (a CI
 * that exports every variable); a value that is not a SHA is a usage error that names the
 * variable, not a commit recorded as typed.
 */
function commitOfEnv(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  if (!COMMIT_SHA.test(text)) {
    throw new UsageError(
      `GITHUB_SHA must be a commit SHA of 7 to 40 hex digits (0-9, a-f), got ${shownJson(text)}: unset it to use git HEAD, or give --commit SHA`,
    );
  }
  return text.toLowerCase();
}

/**
 * The commit a run records, in this order: `--commit` (`given`); in a GitHub Actions job of a pull
 * request event, the pull request's head (the Action's check mode records the same, and report
 * mode on workflow_run holds the pull request's head to it); GITHUB_SHA; the git HEAD of `cwd`.
 * HEAD is taken as it is, a merge commit included: outside GitHub Actions (where GITHUB_SHA is
 * unset) it is the commit whose suite was replayed, and nothing there says which pull request's
 * head it stands for; --commit records one (docs/cli.md, "What each command does").
 */
export async function runCommit(given: string | undefined, env: Record<string, string | undefined>, cwd: string): Promise<string | null> {
  return parseCommit(given) ?? (await pullRequestHead(env, cwd)) ?? commitOfEnv(env.GITHUB_SHA) ?? (await gitHead(cwd));
}
