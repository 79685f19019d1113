// What the Action knows about where it runs: repository, event, pull request, run. Read once
// from the environment and the event payload; plain data afterwards.

import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import type { PullInfo } from '../github/api.js';
import { UserError } from '../errors.js';

/** The pull request as the event (or GitHub) describes it, with its labels at the time. */
export interface PullContext extends Omit<PullInfo, 'state'> {
  labels: string[];
}

/** A `deployment_status` event: the deployment's commit, its state and the URL the host announced. */
export interface DeploymentContext {
  sha: string | null;
  /** `success`, `failure`, `error`, `pending`, `in_progress`, `queued`, `inactive`. */
  state: string;
  /** `deployment_status.environment_url` (the preview's address), null when the host gave none. */
  environmentUrl: string | null;
  environment: string | null;
}

/** A `push` event: the branch pushed to and the repository's default branch. */
export interface PushContext {
  branch: string | null;
  defaultBranch: string | null;
}

export interface ActionContext {
  owner: string;
  repo: string;
  eventName: string;
  payload: Record<string, unknown>;
  pull: PullContext | null;
  /** Set on a `deployment_status` event. */
  deployment: DeploymentContext | null;
  /** Set on a `push` event. */
  push: PushContext | null;
  /** The commit replayed: the PR head when there is one, else GITHUB_SHA. */
  sha: string | null;
  /** The ref the workflow runs on (`refs/heads/<branch>` for a workflow_dispatch on a branch). */
  ref: string | null;
  runId: string | null;
  runAttempt: number;
  workflow: string;
  /** GITHUB_WORKFLOW_REF: `owner/repo/.github/workflows/ci.yml@refs/heads/main`; null outside Actions. */
  workflowRef: string | null;
  serverUrl: string;
  apiUrl: string;
  graphqlUrl: string;
}

/** The workflow's file name from GITHUB_WORKFLOW_REF (`owner/repo/.github/workflows/ci.yml@refs/...`); null when it does not name one. */
export function workflowFile(workflowRef: string | null): string | null {
  if (!workflowRef) return null;
  const m = /\/\.github\/workflows\/([^@/]+)@/.exec(workflowRef);
  return m ? (m[1] as string) : null;
}

/**
 * The events GitHub runs, for a fork's pull request, with a read-only token and without the
 * workflow's secrets (docs/action.md, "Check: replay on every pull request").
 */
export const FORK_CONTEXT_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/**
 * A fork's pull_request run (and a review's, which GitHub runs the same way): a read-only token and
 * no secrets, so it writes nothing to the pull request, in check mode and in a report mode merge
 * job alike; the report workflow (workflow_run) comments for it.
 */
export const readOnlyTokenOf = (ctx: Pick<ActionContext, 'pull' | 'eventName'>): boolean => ctx.pull?.isFork === true && FORK_CONTEXT_EVENTS.has(ctx.eventName);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function pullFromPayload(payload: Json, repoFullName: string): PullContext | null {
  const pr = obj(payload.pull_request);
  const number = typeof pr.number === 'number' ? pr.number : null;
  if (number === null) return null;
  const head = obj(pr.head);
  const base = obj(pr.base);
  const headRepo = str(obj(head.repo).full_name);
  const baseRepo = str(obj(base.repo).full_name) ?? repoFullName;
  const labels = Array.isArray(pr.labels) ? pr.labels.map((l) => str(obj(l).name)).filter((n): n is string => n !== null) : [];
  return {
    number,
    headSha: str(head.sha) ?? '',
    headRef: str(head.ref) ?? '',
    headRepoFullName: headRepo,
    baseRepoFullName: baseRepo,
    baseSha: str(base.sha),
    isFork: headRepo === null || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
    labels,
  };
}

function deploymentFromPayload(eventName: string, payload: Json): DeploymentContext | null {
  if (eventName !== 'deployment_status') return null;
  const status = obj(payload.deployment_status);
  const deployment = obj(payload.deployment);
  const sha = str(deployment.sha);
  return {
    sha: sha && /^[0-9a-f]{40}$/i.test(sha) ? sha.toLowerCase() : null,
    state: str(status.state) ?? '',
    environmentUrl: str(status.environment_url) || null,
    environment: str(status.environment) ?? str(deployment.environment),
  };
}

function pushFromPayload(eventName: string, payload: Json): PushContext | null {
  if (eventName !== 'push') return null;
  const ref = str(payload.ref);
  return {
    branch: ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null,
    defaultBranch: str(obj(payload.repository).default_branch),
  };
}

export async function readActionContext(env: Record<string, string | undefined>): Promise<ActionContext> {
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner = '', repo = ''] = repository.split('/');
  let payload: Json = {};
  if (env.GITHUB_EVENT_PATH) {
    try {
      payload = obj(JSON.parse(await readFile(env.GITHUB_EVENT_PATH, 'utf8')));
    } catch (e) {
      throw new UserError(`cannot read the event payload at GITHUB_EVENT_PATH (${(e as Error).message})`);
    }
  }
  const pull = pullFromPayload(payload, repository);
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const deployment = deploymentFromPayload(eventName, payload);
  const apiUrl = env.GITHUB_API_URL ?? 'https://api.github.com';
  return {
    owner,
    repo,
    eventName,
    payload,
    pull,
    deployment,
    push: pushFromPayload(eventName, payload),
    sha: pull?.headSha || deployment?.sha || env.GITHUB_SHA || null,
    ref: str(payload.ref) ?? env.GITHUB_REF ?? null,
    runId: env.GITHUB_RUN_ID ?? null,
    runAttempt: Number(env.GITHUB_RUN_ATTEMPT ?? '1') || 1,
    workflow: env.GITHUB_WORKFLOW ?? 'agent-replay',
    workflowRef: env.GITHUB_WORKFLOW_REF || null,
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    apiUrl,
    graphqlUrl: env.GITHUB_GRAPHQL_URL ?? `${apiUrl.replace(/\/$/, '')}/graphql`,
  };
}

/** GitHub's label names ignore case: a repository cannot have both `accept-baseline` and `Accept-Baseline` (docs/action.md, "Accept: the label commits the reviewed replies"). */
export function sameLabel(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The suite folder `init` writes and the `dir` input defaults to: a suite there is not named (docs/action.md, "Two suites in one repository"). */
export const DEFAULT_SUITE_DIR = '.agent-replay';

/**
 * The suite folder as the Action names it in the comment's key, the artifacts' names and the
 * headings: the `dir` input as a clean POSIX path (`apps/sales/.agent-replay`), or null for the
 * default folder, whose names stay as they were for a repository with one suite
 * (docs/action.md, "Two suites in one repository").
 */
export function suiteName(dir: string): string | null {
  const clean = posix.normalize(dir.replace(/\\/g, '/')).replace(/(.)\/+$/, '$1');
  return clean === DEFAULT_SUITE_DIR ? null : clean;
}

/**
 * One sticky comment per workflow (or comment-key) and suite: the marker is the key, reduced to
 * safe characters, then `:` and the suite's folder when it is not the default one. A key never
 * holds a `:`, so two suites' markers never meet.
 */
export function markerFor(workflow: string, suite: string | null = null): string {
  const slug = workflow.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${slug || 'default'}${suite === null ? '' : `:${suite.slice(0, 120)}`}`;
}

/** A suite's folder in an artifact's name: `apps/sales/.agent-replay` is `apps-sales-.agent-replay`; the root `.` is `root`. */
export function suiteSlug(suite: string): string {
  const slug = suite.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100);
  return slug === '' || slug === '.' ? 'root' : slug;
}

/**
 * The results artifact of a run is named from the commit it replayed, after the suite's folder
 * when it is not the default one: two suites' steps upload in one workflow run, which takes a
 * name once (docs/action.md, "Two suites in one repository").
 */
export function artifactNameFor(sha: string | null, runAttempt: number, shard?: { index: number; total: number }, suite: string | null = null): string {
  // The shards of a matrix upload in one workflow run: each needs its own name (docs/action.md, "Shards: one suite over a CI matrix").
  const base = `agent-replay-results-${suite === null ? '' : `${suiteSlug(suite)}-`}${sha && /^[0-9a-f]{7,40}$/.test(sha) ? sha : 'unknown'}${shard ? `-shard-${shard.index}-of-${shard.total}` : ''}`;
  return runAttempt > 1 ? `${base}-attempt-${runAttempt}` : base;
}

/**
 * The results artifacts of the suite in `dir` made at `commit`, as download-artifact's `pattern`
 * matches them (artifactNameFor's names, with their shards and attempts): the suite's folder when
 * it is not the default one, then the commit (`agent-replay-results-apps-sales-.agent-replay-<sha>*`).
 * The commit is what ends the folder: a folder's name may go on in another's
 * (`apps/sales/.agent-replay-v2`), and any character a slug ends with may go on in another slug, so
 * `agent-replay-results-apps-sales-.agent-replay-*` takes that suite's too, and the default suite's
 * `agent-replay-results-*` every suite's (docs/action.md, "Two suites in one repository").
 */
export function resultsArtifactsPattern(dir: string, commit: string): string {
  const suite = suiteName(dir);
  return `agent-replay-results-${suite === null ? '' : `${suiteSlug(suite)}-`}${commit}*`;
}

/**
 * The whole-run results artifacts of the suite in `dir` made at `commit`, never a shard's: a check
 * job's, or a matrix's merge job's, with their attempts (`agent-replay-results-<sha>?(-attempt-*)`,
 * download-artifact's minimatch pattern). resultsArtifactsPattern's would take a matrix's shards
 * beside its merge job's record, which holds them, and the report refuses the two as overlapping
 * (docs/action.md, "Report: combine shards, or comment for a fork").
 */
export function runArtifactsPattern(dir: string, commit: string): string {
  return `${resultsArtifactsPattern(dir, commit).slice(0, -1)}?(-attempt-*)`;
}

/** The shards' results artifacts of the suite in `dir` made at `commit` (`agent-replay-results-<sha>-shard-*`, with their attempts). */
export function shardArtifactsPattern(dir: string, commit: string): string {
  return `${resultsArtifactsPattern(dir, commit).slice(0, -1)}-shard-*`;
}

/** The commit a `workflow_run` report job downloads the artifacts of: the run's, GitHub's. */
const RUN_HEAD = '${{ github.event.workflow_run.head_sha }}';

/**
 * The patterns a `workflow_run` report job downloads its suite's results artifacts with, those of
 * the commit the run recorded, so that it takes no other suite's, a record of which that does not
 * say its suite (an older run's) would be merged (docs/action.md, "Two suites in one repository"):
 * first a matrix's shards, then, only when there was none, the whole run's (runArtifactsPattern):
 * never both, since a matrix's merge job's record holds its shards, and the report refuses the two
 * as overlapping (docs/action.md, "Report: combine shards, or comment for a fork").
 */
export function reportArtifactsPatterns(dir: string): { shards: string; run: string } {
  return { shards: shardArtifactsPattern(dir, RUN_HEAD), run: runArtifactsPattern(dir, RUN_HEAD) };
}

/** What follows the suite's folder in a results artifact's name (artifactNameFor's): the commit, then the shard and the attempt. */
const ARTIFACT_TAIL = '(?:[0-9a-f]{7,40}|unknown)(?:-shard-\\d+-of-\\d+)?(?:-attempt-\\d+)?';

/**
 * Whether `name` is a results artifact of the suite (artifactNameFor's names, any commit, shard or
 * attempt): the default folder's suite does not take another suite's `agent-replay-results-apps-...`,
 * nor one suite another's (docs/action.md, "Two suites in one repository").
 */
export function isResultsArtifactOf(name: string, suite: string | null): boolean {
  const prefix = `agent-replay-results-${suite === null ? '' : `${suiteSlug(suite)}-`}`;
  return name.startsWith(prefix) && new RegExp(`^${ARTIFACT_TAIL}$`).test(name.slice(prefix.length));
}

/**
 * The suite a results artifact's name is of (artifactNameFor's names): null for the default
 * folder's (`agent-replay-results-<sha>`), else the folder as its name writes it, suiteSlug's
 * (`apps-sales-.agent-replay`), which does not give the folder back (`apps/sales` and `apps-sales`
 * read alike); undefined when `name` is no results artifact's.
 */
export function resultsArtifactSlug(name: string): string | null | undefined {
  const m = new RegExp(`^agent-replay-results-(?:(.+)-)?${ARTIFACT_TAIL}$`).exec(name);
  return m === null ? undefined : (m[1] ?? null);
}

/** Whether `name` is a results artifact of some suite, any folder (artifactNameFor's names): isResultsArtifactOf's, the suite left open. */
export function isResultsArtifact(name: string): boolean {
  return new RegExp(`^agent-replay-results-(?:.+-)?${ARTIFACT_TAIL}$`).test(name);
}
