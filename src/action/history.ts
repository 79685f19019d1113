// What check mode looks up about earlier runs (docs/evaluations.md, "In the PR comment and job summary"), never failing the job:
// - the previous run: the one the sticky comment shows before it is replaced (its hidden metadata
//   names the run and its artifact), compared with this run;
// - the trend: the agreement of the last recorded runs of the default branch (check mode on
//   `push`), found through the workflow's runs and their artifacts.
// Both read artifacts with the same download as accept mode (download.ts), as untrusted data.

import * as log from './log.js';
import { agreementReport, compareRuns, timingsOf } from '../evaluate/index.js';
import { MAX_COMMENT_PAGES, type ArtifactInfo, type GitHubApi, type WorkflowRunSummary } from '../github/api.js';
import { isGitHubError } from '../github/errors.js';
import { gitHubFailure } from './github-words.js';
import { commentPastBound, findStickyComment } from '../github/sticky.js';
import { hasMarker, parseCommentMetadata } from '../report/index.js';
import { olderRecordNote } from '../record/index.js';
import type { PreviousRunView, TrendPoint, TrendView } from '../report/context.js';
import type { LatencyThresholds, RunRecord } from '../types.js';
import { isResultsArtifactOf, workflowFile, type ActionContext } from './context.js';
import { downloadProblem, downloadRunRecord } from './download.js';
import { docsUrl } from '../version.js';
import { terminalLine } from '../words.js';

/** At most this many runs of the default branch make the trend (and so at most this many downloads). */
const TREND_RUNS = 10;
/** Downloads at the same time. */
const TREND_CONCURRENCY = 4;

/** The failure in words with its fix: a run's artifacts need actions: read, the comments pull-requests: read. */
function why(e: unknown): string {
  return gitHubFailure(e, isGitHubError(e) && !e.request.includes('/actions/') ? 'pull-requests: read' : 'actions: read');
}

/**
 * The run our sticky comment on the pull request shows now, compared with `run`; null on the first
 * run (no comment yet, or one that names no recorded run). When that run's artifact cannot be read
 * the view says why in a few words (one calm line in the comment). `latency`: config.yml's
 * thresholds for "slower" (docs/latency.md); report mode has no config.yml and gives none (the defaults).
 */
export async function previousRun(github: GitHubApi, ctx: ActionContext, marker: string, run: RunRecord, latency?: LatencyThresholds): Promise<PreviousRunView | null> {
  if (ctx.pull === null) return null;
  try {
    const [viewer, { comments, more }] = await Promise.all([github.viewerLogin(), github.listIssueComments(ctx.owner, ctx.repo, ctx.pull.number)]);
    const comment = findStickyComment(comments, viewer, marker, hasMarker);
    if (comment === null && more) {
      // Its comment, which names the previous run, is past the comments read: said, never silent.
      const most = (MAX_COMMENT_PAGES * 100).toLocaleString('en-US');
      log.info(
        `since the previous run: not compared: ${commentPastBound(ctx.pull.number)}, and it names the previous run. The bound is fixed; to compare, download the results artifacts of both runs and run agent-replay compare BEFORE.json AFTER.json (${docsUrl('evaluations.md', 'Compare')})`,
      );
      return { runId: null, unavailable: `the comment naming it is not among the pull request's oldest ${most} comments, the most read` };
    }
    const meta = comment ? parseCommentMetadata(comment.body) : null;
    if (meta === null || meta.runId === null || meta.artifactName === null) return null;
    const d = await downloadRunRecord(github, { owner: ctx.owner, repo: ctx.repo, runId: Number(meta.runId), artifact: meta.artifactName });
    if (d.kind !== 'ok') {
      log.info(`since the previous run: run ${meta.runId} not compared: ${downloadProblem(d)}`);
      return { runId: meta.runId, unavailable: downloadProblem(d) };
    }
    // Its items are shown beside this run's: one that reads as written though a run now stores it otherwise is said, once (docs/results-json.md, "Records of an older agent-replay").
    const note = olderRecordNote(d.record, `artifact ${meta.artifactName} of run ${meta.runId}`);
    if (note !== null) log.warning(`since the previous run: ${note}`);
    // No pass rate of attempts between the two runs: the line and its details say which items
    // moved (docs/evaluations.md, "In the PR comment and job summary"), and the run's own pass-rate
    // line, against its baselines, is in the headline area already; a second would be another
    // figure of the same name, and a bootstrap on every check for nothing shown.
    return { runId: meta.runId, comparison: compareRuns(d.record, run, {}, { ...(latency === undefined ? {} : { latency }), passRate: false }) };
  } catch (e) {
    log.warning(`since the previous run: not looked up (${why(e)}); the comment shows this run only`);
    return null;
  }
}

/** The repository's default branch, as the event payload tells it. */
function defaultBranch(ctx: ActionContext): string | null {
  if (ctx.push?.defaultBranch) return ctx.push.defaultBranch;
  const repo = ctx.payload.repository;
  const branch = repo !== null && typeof repo === 'object' ? (repo as Record<string, unknown>).default_branch : undefined;
  return typeof branch === 'string' && branch !== '' ? branch : null;
}

/** A shard's results artifact: `agent-replay-results-<sha>-shard-2-of-4[-attempt-N]`. */
export function isShardArtifact(name: string): boolean {
  return /-shard-\d+-of-\d+(-attempt-\d+)?$/.test(name);
}

/**
 * Of a run's artifacts, the suite's results (the latest attempt's), if any: the whole run's (a
 * check of the whole suite, or the merge of its shards) before any single shard's. Another suite's
 * results, uploaded by another step of the same run, are not this suite's (docs/action.md, "Two
 * suites in one repository").
 */
export function resultsArtifact(artifacts: readonly ArtifactInfo[], suite: string | null = null): ArtifactInfo | undefined {
  const ours = artifacts.filter((a) => isResultsArtifactOf(a.name, suite) && !a.expired).sort((a, b) => b.id - a.id);
  return ours.find((a) => !isShardArtifact(a.name)) ?? ours[0];
}

/** How many default-branch runs are tried for timings before giving up. */
const TIMINGS_RUNS = 3;

/**
 * The durations of the last successful `push` run of this workflow on the default branch
 * (its whole-run results artifact, else every shard's), to balance the shards of this run. Null
 * when none is found; every failure is an info line in the log, never a failure of the job.
 */
export async function defaultBranchTimings(github: GitHubApi, ctx: ActionContext, suite: string | null = null): Promise<{ timings: Map<string, number>; runId: number } | null> {
  const file = workflowFile(ctx.workflowRef);
  const branch = defaultBranch(ctx);
  if (file === null || branch === null) {
    log.info(`timings: none (${file === null ? 'the workflow file is unknown: GITHUB_WORKFLOW_REF is not set' : 'the event does not name the default branch'}); shards are chosen by a hash of each label`);
    return null;
  }
  try {
    const listed = await github.listWorkflowRuns(ctx.owner, ctx.repo, file, { branch, event: 'push', status: 'success', limit: TIMINGS_RUNS + 1 });
    for (const r of listed.filter((x) => String(x.id) !== ctx.runId).slice(0, TIMINGS_RUNS)) {
      const artifacts = (await github.listRunArtifacts(ctx.owner, ctx.repo, r.id)).filter((a) => isResultsArtifactOf(a.name, suite) && !a.expired);
      const whole = resultsArtifact(artifacts, suite);
      if (whole === undefined) {
        log.info(`timings: run ${r.id} has no results artifact`);
        continue;
      }
      // The whole run's artifact, else the shards' (the latest attempt of each).
      const wanted = !isShardArtifact(whole.name) ? [whole] : latestShards(artifacts);
      const got = await mapLimited(wanted, TREND_CONCURRENCY, (a) => downloadRunRecord(github, { owner: ctx.owner, repo: ctx.repo, runId: r.id, artifact: a.name, checkRun: false }));
      const timings = new Map<string, number>();
      for (const d of got) {
        if (d.kind === 'ok') for (const [label, ms] of timingsOf(d.record)) timings.set(label, ms);
        else log.info(`timings: run ${r.id}: ${downloadProblem(d)}`);
      }
      if (timings.size > 0) return { timings, runId: r.id };
    }
    log.info(`timings: no readable results in the last successful ${terminalLine(branch)} runs of ${file}; shards are chosen by a hash of each label`);
    return null;
  } catch (e) {
    log.info(`timings: not looked up (${why(e)}); shards are chosen by a hash of each label`);
    return null;
  }
}

/** One artifact per shard name (the newest attempt), for a run that has no whole-run artifact. */
function latestShards(artifacts: readonly ArtifactInfo[]): ArtifactInfo[] {
  const byShard = new Map<string, ArtifactInfo>();
  for (const a of [...artifacts].sort((x, y) => y.id - x.id)) {
    const key = a.name.replace(/-attempt-\d+$/, '');
    if (isShardArtifact(a.name) && !byShard.has(key)) byShard.set(key, a);
  }
  return [...byShard.values()];
}

/** Maps `items` with at most `limit` calls at a time, keeping the order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * The agreement of the last (up to TREND_RUNS) successful `push` runs of this workflow on the
 * default branch, oldest first; on a push to the default branch this run is the last point. Null
 * when there is nothing to show; a failure is logged as a warning and leaves the trend out.
 */
export async function defaultBranchTrend(github: GitHubApi, ctx: ActionContext, run: RunRecord, suite: string | null = null): Promise<TrendView | null> {
  const file = workflowFile(ctx.workflowRef);
  const branch = defaultBranch(ctx);
  if (file === null || branch === null) {
    log.info(`trend: left out (${file === null ? 'the workflow file is unknown: GITHUB_WORKFLOW_REF is not set' : 'the event does not name the default branch'})`);
    return null;
  }
  const thisRunOnBranch = ctx.eventName === 'push' && ctx.push?.branch === branch;
  try {
    const listed = await github.listWorkflowRuns(ctx.owner, ctx.repo, file, { branch, event: 'push', status: 'success', limit: TREND_RUNS });
    const runs = listed.filter((r) => String(r.id) !== ctx.runId).slice(0, thisRunOnBranch ? TREND_RUNS - 1 : TREND_RUNS);
    const points = await mapLimited(runs, TREND_CONCURRENCY, async (r: WorkflowRunSummary): Promise<TrendPoint | null> => {
      const d = await downloadRunRecord(github, { owner: ctx.owner, repo: ctx.repo, runId: r.id, artifact: (artifacts) => resultsArtifact(artifacts, suite), checkRun: false });
      if (d.kind !== 'ok') {
        log.info(`trend: run ${r.id} left out: ${downloadProblem(d)}`);
        return null;
      }
      return pointOf(String(r.id), d.record);
    });
    const found = points.filter((pt): pt is TrendPoint => pt !== null).reverse();
    if (thisRunOnBranch) found.push(pointOf(ctx.runId ?? 'this', run));
    if (found.length === 0 || (thisRunOnBranch && found.length === 1)) return null;
    return { branch, points: found, includesThisRun: thisRunOnBranch };
  } catch (e) {
    log.warning(`trend: left out (${why(e)})`);
    return null;
  }
}

function pointOf(runId: string, record: RunRecord): TrendPoint {
  const overall = agreementReport({ fixtures: record.fixtures, personas: record.personas }).overall;
  return { runId, commit: record.commit, startedAt: record.startedAt, agreement: overall };
}
