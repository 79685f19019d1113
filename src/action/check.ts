// Check mode: replay, then record (results.json first), artifact, job summary, annotations,
// sticky comment, outputs, and the gate. A failure to comment never loses the results.

import * as core from '@actions/core';
import { dirname, join, resolve } from 'node:path';
import type { Inputs } from '../inputs.js';
import { inputSecrets } from '../inputs.js';
import type { ActionContext, PullContext } from './context.js';
import { artifactNameFor, markerFor } from './context.js';
import type { ArtifactStore } from './artifacts.js';
import { defaultBranchTimings, defaultBranchTrend, previousRun } from './history.js';
import { runCheck, type EngineDeps } from '../engine.js';
import { formatIssue, type ConfigIssue, type ConfigOverrides } from '../suite/index.js';
import { openRecordStream, readRecord, RecordWriteError, type RecordStream } from '../record/index.js';
import { driftedCount, timingsOf, type GateResult } from '../evaluate/index.js';
import { shardLine } from '../report/shard.js';
import { writeFileSafely } from '../fs-safe.js';
import { formatUsdPair, hasMarker, renderCapRefusal, renderComment, renderSummary, type ReportContext } from '../report/index.js';
import { renderConfigErrors } from '../report/config-errors.js';
import { renderHtml, type HtmlTrendPoint } from '../report/html.js';
import { markerLine, metaLine } from '../report/metadata.js';
import { escapeInline } from '../report/escape.js';
import { AgentNotReady, instantClock } from '../agent/ready.js';
import { UserError } from '../errors.js';
import type { GitHubApi } from '../github/api.js';
import { upsertStickyComment } from '../github/sticky.js';
import { isGitHubError } from '../github/errors.js';
import { makeRedactor } from '../secrets.js';
import type { RunRecord } from '../types.js';

export interface ActionDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  github: GitHubApi | null;
  artifacts: ArtifactStore;
  engine?: EngineDeps;
}

export type CommentStatus = 'created' | 'updated' | 'skipped' | 'skipped-fork' | 'failed';

export function overridesFrom(inputs: Inputs): ConfigOverrides {
  const judge: NonNullable<ConfigOverrides['judge']> = {};
  if (inputs.judgeProvider) judge.provider = inputs.judgeProvider;
  if (inputs.judgeBaseUrl) judge.baseUrl = inputs.judgeBaseUrl;
  if (inputs.judgeModel) judge.model = inputs.judgeModel;
  if (inputs.judgeApiKey) judge.apiKey = inputs.judgeApiKey;
  return {
    ...(inputs.agentUrl ? { agentUrl: inputs.agentUrl } : {}),
    ...(Object.keys(inputs.agentHeaders).length > 0 ? { agentHeaders: { ...inputs.agentHeaders } } : {}),
    ...(inputs.concurrency ? { concurrency: inputs.concurrency } : {}),
    ...(inputs.costCap !== null ? { capUsd: inputs.costCap } : {}),
    ...(Object.keys(judge).length > 0 ? { judge } : {}),
  };
}

/** One sticky comment per key: the comment-key input, else the workflow's name. */
export function commentMarker(inputs: Inputs, ctx: ActionContext): string {
  return markerFor(inputs.commentKey ?? ctx.workflow);
}

/** `artifactName` goes into the comment's metadata (the accept flow checks that it exists); the link only when it was uploaded. */
export function reportContextFor(inputs: Inputs, ctx: ActionContext, artifactName: string | null, artifactUploaded = artifactName !== null): ReportContext {
  const runUrl = ctx.runId ? `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}` : null;
  return {
    marker: commentMarker(inputs, ctx),
    headSha: ctx.sha,
    runId: ctx.runId,
    artifactName,
    baselinesRef: ctx.sha ? ctx.sha.slice(0, 7) : null,
    acceptLabel: inputs.acceptLabel,
    confirmLabel: inputs.confirmLabel,
    summaryUrl: runUrl,
    artifactUrl: runUrl && artifactUploaded ? `${runUrl}#artifacts` : null,
    repositoryUrl: ctx.owner && ctx.repo ? `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}` : null,
    acceptance: null,
  };
}

/**
 * Creates or updates the sticky comment on the pull request (or on each of `pulls`: a deployed
 * commit can be the head of several) and sets the comment-status and comment-url outputs, which
 * describe the first one. A failure to post is logged and reported in comment-status, never
 * thrown: the results are already in the summary and the artifact. `readOnlyToken`: a fork's
 * pull_request run, which cannot comment at all.
 */
export async function publishComment(
  github: GitHubApi | null,
  inputs: Inputs,
  ctx: ActionContext,
  body: string | ((pull: PullContext) => Promise<string>),
  readOnlyToken = false,
  pulls: readonly PullContext[] = ctx.pull ? [ctx.pull] : [],
): Promise<void> {
  if (pulls.length === 0) {
    const posted = await postComment(github, inputs, { ...ctx, pull: null }, typeof body === 'string' ? body : '', readOnlyToken);
    core.setOutput('comment-status', posted.status);
    return;
  }
  let first: { status: CommentStatus; url: string | null } | null = null;
  for (const pull of pulls) {
    const posted = await postComment(github, inputs, { ...ctx, pull }, typeof body === 'string' ? body : await body(pull), readOnlyToken);
    first ??= posted;
  }
  core.setOutput('comment-status', first?.status ?? 'skipped');
  if (first?.url) core.setOutput('comment-url', first.url);
}

async function postComment(
  github: GitHubApi | null,
  inputs: Inputs,
  ctx: ActionContext,
  body: string,
  readOnlyToken: boolean,
): Promise<{ status: CommentStatus; url: string | null }> {
  if (!inputs.comment) return { status: 'skipped', url: null };
  if (ctx.pull === null) {
    core.info('comment: no pull request to comment on; the report is in the job summary');
    return { status: 'skipped', url: null };
  }
  if (readOnlyToken) {
    core.warning(
      'comment: not posted: this pull request comes from a fork, so the token is read-only. The results are in the job summary and the artifact; use mode: report from a workflow_run workflow to comment.',
    );
    return { status: 'skipped-fork', url: null };
  }
  if (github === null) return { status: 'skipped', url: null };
  try {
    const res = await upsertStickyComment(github, {
      owner: ctx.owner,
      repo: ctx.repo,
      issueNumber: ctx.pull.number,
      marker: commentMarker(inputs, ctx),
      body,
      hasMarker,
    });
    core.info(`comment: ${res.status} ${res.url}`);
    return { status: res.status, url: res.url };
  } catch (e) {
    const why = isGitHubError(e) ? e.message : (e as Error).message;
    core.warning(`comment: not posted (${why}). The results are in the job summary and the artifact.`);
    return { status: 'failed', url: null };
  }
}

/**
 * Writes the run's record (before anything else can fail), finishing `stream` when check mode fed
 * it as items finished, and names it in the outputs. When the results path cannot be written, the
 * record goes to the runner's temporary folder instead: the step fails saying where, and the rest
 * (summary, artifact, comment) goes on with that file. Returns the path written.
 */
export async function writeRunRecord(run: RunRecord, inputs: Inputs, deps: ActionDeps, stream?: RecordStream): Promise<string> {
  const target = resolve(deps.cwd, inputs.resultsPath);
  let resultsPath = target;
  try {
    await (stream ?? openRecordStream(target)).finish(run);
  } catch (e) {
    if (!(e instanceof RecordWriteError) || e.fallback === null) throw e;
    core.setFailed(e.message);
    resultsPath = e.fallback;
  }
  core.setOutput('results-path', resultsPath);
  core.info(`results: ${resultsPath}`);
  return resultsPath;
}

/** Writes `extra` next to the record and uploads them all as this run's results artifact, named from the replayed commit. */
export async function uploadResults(
  run: RunRecord,
  resultsPath: string,
  ctx: ActionContext,
  deps: ActionDeps,
  extra: readonly { name: string; text: string }[] = [],
): Promise<{ artifactName: string; uploaded: boolean }> {
  const files = [resultsPath];
  for (const f of extra) {
    const path = join(dirname(resultsPath), f.name);
    await writeFileSafely(path, f.text); // never through a link planted next to the results
    files.push(path);
  }
  const artifactName = artifactNameFor(run.commit, ctx.runAttempt, run.shard);
  const uploaded = await deps.artifacts.upload(artifactName, files);
  if (uploaded.kind === 'uploaded') core.info(`artifact: ${artifactName}`);
  else core.warning(`artifact ${artifactName} not uploaded: ${uploaded.reason}`);
  core.setOutput('artifact-name', artifactName);
  return { artifactName, uploaded: uploaded.kind === 'uploaded' };
}

/**
 * Writes the run's record first (before anything else can fail), then uploads it with `extra`
 * files as this run's results artifact, named from the replayed commit.
 */
export async function saveRecord(
  run: RunRecord,
  inputs: Inputs,
  ctx: ActionContext,
  deps: ActionDeps,
  extra: readonly { name: string; text: string }[] = [],
): Promise<{ artifactName: string; uploaded: boolean }> {
  return uploadResults(run, await writeRunRecord(run, inputs, deps), ctx, deps, extra);
}

/** report.html for the results artifact, written next to results.json (SPEC 11, README "report.html"). */
export function htmlReportFile(run: RunRecord, rctx: ReportContext, trend?: readonly HtmlTrendPoint[]): { name: string; text: string } {
  return { name: 'report.html', text: renderHtml(run, { context: rctx, ...(trend ? { trend } : {}) }) };
}

/** The tallies, drift counts, estimate, gate and verification of a run, as the Action's outputs. */
export function setRunOutputs(run: RunRecord, gate: Pick<GateResult, 'failed' | 'verification'>): void {
  const t = run.tallies;
  core.setOutput('passed', String(t.passed));
  core.setOutput('failed', String(t.failed));
  core.setOutput('not-evaluated', String(t.notEvaluated));
  core.setOutput('errored', String(t.errored));
  core.setOutput('newly-failing', String([...run.fixtures, ...run.personas].filter((f) => f.drift?.verdict === 'newly_failing').length));
  core.setOutput('drifted', String(driftedCount(run)));
  core.setOutput('estimated-cost', run.estimate.usd.toFixed(3));
  core.setOutput('gate', gate.failed ? 'failed' : 'passed');
  core.setOutput('verified', String(gate.verification.verified));
}

export async function writeSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (e) {
    core.warning(`job summary not written: ${(e as Error).message}`);
  }
}

function annotateConfigIssues(errors: readonly ConfigIssue[], warnings: readonly ConfigIssue[]): void {
  for (const w of warnings) core.warning(formatIssue(w), { file: w.file, startLine: w.line ?? undefined, startColumn: w.column ?? undefined });
  for (const e of errors) core.error(formatIssue(e), { file: e.file, startLine: e.line ?? undefined, startColumn: e.column ?? undefined });
}

/**
 * A workflow_dispatch names a branch, not a pull request (the accept flow dispatches the check
 * on the branch after its commit): the pull request is the open one whose head is that branch of
 * this repository. The replayed commit stays the one the workflow checked out (GITHUB_SHA).
 */
export async function withDispatchedPull(github: GitHubApi | null, ctx: ActionContext): Promise<ActionContext> {
  const branch = ctx.ref?.startsWith('refs/heads/') ? ctx.ref.slice('refs/heads/'.length) : null;
  if (branch === null) {
    core.info(`workflow_dispatch on ${ctx.ref ?? 'an unknown ref'}: not a branch, so there is no pull request to comment on; the report is in the job summary`);
    return ctx;
  }
  if (github === null) {
    core.info(`workflow_dispatch on ${branch}: no github-token, so the pull request cannot be looked up; the report is in the job summary`);
    return ctx;
  }
  let pulls;
  try {
    pulls = await github.listOpenPullsForBranch(ctx.owner, ctx.repo, branch);
  } catch (e) {
    core.warning(`workflow_dispatch on ${branch}: the pull request could not be looked up (${isGitHubError(e) ? e.message : (e as Error).message}); the report is in the job summary and the artifact`);
    return ctx;
  }
  const pull = pulls[0];
  if (pull === undefined) {
    core.info(`workflow_dispatch on ${branch}: no open pull request has this branch as its head; the report is in the job summary and the artifact`);
    return ctx;
  }
  if (pulls.length > 1) core.info(`workflow_dispatch on ${branch}: ${pulls.length} open pull requests have this head; commenting on #${pull.number}`);
  const sha = ctx.sha ?? pull.headSha;
  if (sha !== pull.headSha) {
    core.warning(
      `workflow_dispatch on ${branch}: this run checked out ${sha.slice(0, 7)}, but the head of #${pull.number} is now ${pull.headSha.slice(0, 7)}; the comment shows ${sha.slice(0, 7)}, and the check of the new head will replace it`,
    );
  }
  core.info(`workflow_dispatch on ${branch}: pull request #${pull.number}`);
  const { state: _state, ...info } = pull;
  return { ...ctx, sha, pull: info };
}

/** What check mode does for this event: nothing (a deployment that did not succeed), or a run. */
export type CheckPlan =
  | { kind: 'skip'; reason: string }
  | {
      kind: 'run';
      ctx: ActionContext;
      /** The pull requests to comment on (a deployed commit can be the head of several). */
      pulls: PullContext[];
      /** The agent URL the event gives (deployment_status), overriding the config's. */
      agentUrl: string | null;
      /** Said at the top of the job summary (and logged): why there is no comment. */
      note: string | null;
    };

/** `environment_url` without its trailing slashes + `agent-path` (which starts with "/"). */
export function deploymentAgentUrl(environmentUrl: string, agentPath: string | null): string {
  return `${environmentUrl.replace(/\/+$/, '')}${agentPath ?? ''}`;
}

/**
 * deployment_status: only `success` runs. The agent is at the announced environment_url +
 * agent-path (an agent-url input wins), and the pull requests are the open ones whose head is the
 * deployed commit (GET /repos/{owner}/{repo}/commits/{sha}/pulls).
 */
async function planDeployment(inputs: Inputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  const d = ctx.deployment;
  if (d === null) return { kind: 'skip', reason: 'deployment_status without a deployment in the event payload: nothing to do' };
  const where = `${d.environment ? `${d.environment} ` : ''}deployment of ${d.sha?.slice(0, 7) ?? 'an unknown commit'}`;
  if (d.state !== 'success') {
    return { kind: 'skip', reason: `deployment_status: the ${where} is "${d.state}", not "success": nothing to do (agent-replay replays when a deployment succeeds)` };
  }
  if (d.sha === null) throw new UserError('deployment_status: the event payload has no deployment.sha (a 40-character commit): cannot tell which commit was deployed');
  let agentUrl: string | null = null;
  if (inputs.agentUrl) {
    core.info(`deployment_status: using the agent-url input; environment_url and agent-path are ignored`);
  } else if (d.environmentUrl) {
    agentUrl = deploymentAgentUrl(d.environmentUrl, inputs.agentPath);
  } else {
    throw new UserError(
      `deployment_status: the ${where} has no environment_url, so the agent's address is unknown; set the agent-url input (for example \${{ github.event.deployment_status.target_url }}/api/chat) or make the host report an environment URL`,
    );
  }
  const sha = d.sha;
  const pulls = await openPullsForCommit(github, ctx, sha);
  const note = pulls.length === 0 ? `no open pull request for ${sha}: the results are in this summary and the artifact` : null;
  if (note) core.info(`deployment_status: ${note}`);
  else core.info(`deployment_status: the ${where} is the head of ${pulls.map((p) => `#${p.number}`).join(', ')}`);
  return { kind: 'run', ctx: { ...ctx, sha, pull: pulls[0] ?? null }, pulls, agentUrl, note };
}

async function openPullsForCommit(github: GitHubApi | null, ctx: ActionContext, sha: string): Promise<PullContext[]> {
  if (github === null) {
    core.info(`deployment_status: no github-token, so the pull requests of ${sha.slice(0, 7)} cannot be looked up`);
    return [];
  }
  try {
    const pulls = await github.listPullsForCommit(ctx.owner, ctx.repo, sha);
    return pulls.filter((p) => p.state === 'open' && p.headSha === sha).map(({ state: _state, ...info }) => info);
  } catch (e) {
    core.warning(`deployment_status: the pull requests of ${sha.slice(0, 7)} could not be looked up (${isGitHubError(e) ? e.message : (e as Error).message})`);
    return [];
  }
}

/** push: a recorded run for the trend (artifact and summary), never a comment. */
function planPush(ctx: ActionContext): CheckPlan {
  const branch = ctx.push?.branch ?? null;
  const def = ctx.push?.defaultBranch ?? null;
  const what =
    branch === null ? 'push (not to a branch)' : def === null || branch === def ? `push to the default branch ${branch}` : `push to ${branch} (the default branch is ${def})`;
  const note = `${what}: the run is recorded in this summary and the artifact; there is no pull request to comment on`;
  core.info(note);
  return { kind: 'run', ctx: { ...ctx, pull: null }, pulls: [], agentUrl: null, note };
}

export async function planCheck(inputs: Inputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  if (ctx.eventName === 'deployment_status') return planDeployment(inputs, ctx, github);
  if (ctx.eventName === 'push') return planPush(ctx);
  const resolved = ctx.eventName === 'workflow_dispatch' && ctx.pull === null ? await withDispatchedPull(github, ctx) : ctx;
  return { kind: 'run', ctx: resolved, pulls: resolved.pull ? [resolved.pull] : [], agentUrl: null, note: null };
}

/**
 * The durations that balance this run's shard: the timings input (a results.json; unreadable is a
 * failure, since it was asked for), else the last successful default-branch run's, else none.
 */
async function shardTimings(inputs: Inputs, ctx: ActionContext, deps: ActionDeps): Promise<Map<string, number> | null> {
  if (inputs.timings !== null) {
    const timings = timingsOf(await readRecord(resolve(deps.cwd, inputs.timings)));
    core.info(`timings: ${timings.size} durations from ${inputs.timings}`);
    return timings;
  }
  if (deps.github === null) {
    core.info('timings: none (no github-token to look up the default branch runs); shards are chosen by a hash of each label');
    return null;
  }
  const found = await defaultBranchTimings(deps.github, ctx);
  if (found !== null) core.info(`timings: ${found.timings.size} durations from run ${found.runId} of the default branch`);
  return found?.timings ?? null;
}

/** The comment and summary when the agent never answered: nothing was replayed. */
export function renderNotReady(e: AgentNotReady, rctx: ReportContext): string {
  return [
    markerLine(rctx.marker),
    metaLine({ headSha: rctx.headSha, runId: null, artifactName: null }),
    '## agent-replay: agent not ready',
    '',
    `**agent not ready after ${e.seconds} s.** ${e.polls} ${e.polls === 1 ? 'poll' : 'polls'} (GET) of the agent URL, the last one got ${escapeInline(e.lastObserved)}. Nothing was replayed and nothing was spent.`,
    '',
    'Check that the preview deployed and that the agent URL is right, or raise `wait-for-agent` (`agent.waitForAgent` in config.yml) if the agent starts slowly.',
    '',
  ].join('\n');
}

export async function checkMode(inputsIn: Inputs, ctxIn: ActionContext, deps: ActionDeps): Promise<void> {
  for (const s of inputSecrets(inputsIn)) core.setSecret(s);
  // SPEC 12: a shard never comments (the merge job, mode: report, does); it records and uploads.
  const inputs: Inputs = inputsIn.shard !== null && inputsIn.comment ? { ...inputsIn, comment: false } : inputsIn;
  if (inputsIn.shard !== null) core.info(`shard ${inputsIn.shard.index}/${inputsIn.shard.total}: no pull request comment from this job; the merge job (mode: report) posts it`);
  const plan = await planCheck(inputs, ctxIn, deps.github);
  if (plan.kind === 'skip') {
    core.info(plan.reason);
    return;
  }
  const { ctx, pulls, note } = plan;
  // A pull_request run for a fork's pull request has a read-only token: it cannot comment.
  const readOnlyToken = ctx.pull?.isFork === true && ctx.eventName === 'pull_request';
  const confirmCost = inputs.confirmCost || pulls.some((p) => p.labels.includes(inputs.confirmLabel));
  // Outside pull_request (deployment_status), a fork's code runs with the workflow's secrets.
  const forks = ctx.eventName === 'pull_request' ? [] : pulls.filter((p) => p.isFork);
  const untrustedSuite = forks.length > 0 ? `the head of ${forks.map((p) => `#${p.number}`).join(', ')}, from a fork` : null;
  const summaryNote = note ? `> ${escapeInline(note)}\n\n` : '';
  // results.json is written as items finish, and renamed into place when the run is over.
  const stream = openRecordStream(resolve(deps.cwd, inputs.resultsPath));
  let result;
  try {
    result = await runCheck(
      {
        dir: inputs.dir,
        cwd: deps.cwd,
        env: deps.env,
        overrides: { ...overridesFrom(inputs), ...(plan.agentUrl ? { agentUrl: plan.agentUrl } : {}) },
        confirmCost,
        failOn: inputs.failOn,
        commit: ctx.sha,
        untrustedSuite,
        waitForAgent: inputs.waitForAgent,
        onWaitLog: (line) => core.info(line),
        ...(inputs.shard !== null ? { shard: { ...inputs.shard, timings: await shardTimings(inputs, ctx, deps) } } : {}),
        // Tests only: the readiness wait does not really sleep.
        ...(deps.env.AGENT_REPLAY_TEST_NO_DELAYS === '1' ? { waitClock: instantClock() } : {}),
      },
      {
        onProgress: (() => {
          let last = -Infinity;
          return (p) => {
            if (p.done === p.total || p.elapsedMs - last >= 10_000) {
              last = p.elapsedMs;
              core.info(`progress: ${p.done}/${p.total} · ${p.passed} passed · ${p.failed} failed · ${p.notEvaluated} not evaluated · ${p.errored} errored`);
            }
          };
        })(),
        onItem: stream.item,
        ...deps.engine,
      },
    );
  } catch (e) {
    await stream.discard();
    if (!(e instanceof AgentNotReady)) throw e;
    const body = renderNotReady(e, reportContextFor(inputs, ctx, null));
    await writeSummary(summaryNote + body);
    await publishComment(deps.github, inputs, ctx, body, readOnlyToken, pulls);
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    core.setFailed(e.message);
    return;
  }

  if (result.kind !== 'ran') await stream.discard();
  if (result.kind === 'config_errors') {
    annotateConfigIssues(result.errors, result.warnings);
    const rctx = reportContextFor(inputs, ctx, null);
    const body = renderConfigErrors(result.errors, rctx);
    await writeSummary(summaryNote + body);
    await publishComment(deps.github, inputs, ctx, body, readOnlyToken, pulls);
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    core.setFailed(`${result.errors.length} configuration ${result.errors.length === 1 ? 'error' : 'errors'} in ${inputs.dir}; nothing was sent to the agent`);
    return;
  }
  annotateConfigIssues([], result.warnings);
  // Values the config read from ${ENV} are secrets too: mask them in the job log.
  for (const secret of result.suite.config.secrets) if (secret.length > 0) core.setSecret(secret);

  if (result.kind === 'refused') {
    const rctx = reportContextFor(inputs, ctx, null);
    const body = renderCapRefusal(result.estimate, result.fixtureCount, result.judgeCalls, rctx, result.personaCount);
    await writeSummary(summaryNote + body);
    await publishComment(deps.github, inputs, ctx, body, readOnlyToken, pulls);
    core.setOutput('estimated-cost', result.estimate.usd.toFixed(3));
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    const [estimated, cap] = formatUsdPair(result.estimate.usd, result.estimate.capUsd);
    core.setFailed(
      `estimated cost ${estimated} is above the cap ${cap}; nothing was spent. Apply the ${inputs.confirmLabel} label or set confirm-cost: true to run it.`,
    );
    return;
  }

  const run = result.record;
  if (result.shard) core.info(shardLine(result.shard));
  // 1. The record, before anything else can fail.
  const resultsPath = await writeRunRecord(run, inputs, deps, stream);

  // 2. Outputs.
  setRunOutputs(run, result.gate);

  // 3. What earlier runs say (SPEC 11): the run the comment shows now, and the default branch's
  // trend. Read-only lookups that never fail the job.
  const gh = deps.github;
  const [previous, trend] =
    gh === null
      ? [null, null]
      : await Promise.all([
          inputs.comment && !readOnlyToken ? previousRun(gh, ctx, commentMarker(inputs, ctx), run) : Promise.resolve(null),
          // One shard's agreement is not the suite's: its summary has no trend (the merge job's record is the run's).
          run.shard === undefined ? defaultBranchTrend(gh, ctx, run) : Promise.resolve(null),
        ]);

  // 4. The artifact: the record, report.html (with the trend) and, for a workflow_run report, the
  // pull request's number (a fork's pull request is not named by workflow_run). Then the summary
  // and annotations.
  const prNumber = ctx.pull ? [{ name: 'pr-number', text: `${ctx.pull.number}\n` }] : [];
  const html = htmlReportFile(run, reportContextFor(inputs, ctx, null), trend?.points);
  const { artifactName, uploaded } = await uploadResults(run, resultsPath, ctx, deps, [...prNumber, html]);
  const rctx: ReportContext = { ...reportContextFor(inputs, ctx, artifactName, uploaded), previous, trend };
  await writeSummary(summaryNote + renderSummary(run, rctx));
  const redact = makeRedactor(inputSecrets(inputs));
  for (const f of run.fixtures) {
    if (f.drift?.verdict === 'newly_failing') {
      core.error(redact(`${f.label}: newly failing: ${f.detail}`), { title: `agent-replay: ${f.label} newly failing`, file: f.file, startLine: f.line });
    }
  }
  for (const p of run.personas) {
    if (p.drift?.verdict === 'newly_failing') {
      const failed = p.checks.filter((c) => c.status === 'fail').map((c) => `${c.kind}: ${c.detail}`).join('; ');
      core.error(redact(`${p.label}: newly failing: ${failed}`), { title: `agent-replay: ${p.label} newly failing`, file: p.file, startLine: p.line });
    }
  }

  // 5. Comment (also when the gate fails).
  // A deployed commit can be the head of several pull requests: each comment compares with the run
  // that pull request's own comment showed (the first one's was looked up above).
  const commentFor = async (pull: PullContext): Promise<string> => {
    if (gh === null || pull.number === ctx.pull?.number || !inputs.comment || readOnlyToken) return renderComment(run, rctx);
    const at = { ...ctx, pull };
    return renderComment(run, { ...rctx, previous: await previousRun(gh, at, commentMarker(inputs, at), run) });
  };
  await publishComment(deps.github, inputs, ctx, pulls.length > 1 ? commentFor : renderComment(run, rctx), readOnlyToken, pulls);

  // 6. Gate.
  if (result.gate.failed) core.setFailed(`agent-replay gate failed: ${result.gate.reason}`);
}

