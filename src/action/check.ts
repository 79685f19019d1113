// Check mode: replay, then record (results.json first), artifact, job summary, annotations,
// sticky comment, outputs, and the gate. A failure to comment never loses the results.

import * as core from '@actions/core';
import * as log from './log.js';
import { isAbsolute, resolve } from 'node:path';
import type { Inputs } from './inputs.js';
import { inputSecrets } from './inputs.js';
import { FORK_CONTEXT_EVENTS, readOnlyTokenOf, sameLabel, suiteName, type ActionContext, type PullContext } from './context.js';
import type { ActionDeps } from './deps.js';
import { DEPLOYMENT_URL_SOURCE, planCheck, planOverrides, type CheckPlan } from './plan.js';
import { checkedOutCommit, checkoutMismatch } from './checkout.js';
import { UserError } from '../errors.js';
import { commentAcceptLabel, htmlReportFile, OVERRIDES_SOURCE, overridesFrom, prNumberFile, publisher, publishSettings, sayNoResults, setRunOutputs, summaryWithNote } from './publish.js';
import { defaultBranchTimings, defaultBranchTrend, previousRun } from './history.js';
import { runCheck } from '../engine.js';
import { issueCount, type ConfigIssue } from '../suite/index.js';
import { openRecordStream, readRecord } from '../record/index.js';
import { timingsOf } from '../evaluate/index.js';
import { shardLine } from '../report/shard.js';
import { formatUsdPair, renderCapRefusal, renderComment, usdDecimal, type ReportContext, terminalLine } from '../report/index.js';
import type { CapSource } from '../report/cap.js';
import { renderConfigErrors, terminalIssue } from '../report/config-errors.js';
import { forkSecretFixes } from './fork-secrets.js';
import { suiteLine } from '../report/blocks.js';
import { markerLine, metaLine } from '../report/metadata.js';
import { escapeInline } from '../report/escape.js';
import { AgentNotReady, AgentWaitInterrupted, instantClock, ProxyNotReached, proxyAdvice } from '../agent/ready.js';
import { makeRedactor, maskForms } from '../secrets.js';
import { runSuiteEdits, suiteRepoPath } from './suite-edits.js';
import { labelWord } from '../words.js';

/** A path (relative to the workspace, forward slashes) that names no file in it: `../x`, `/x`, `C:/x`. */
function outsideWorkspace(file: string): boolean {
  return file === '..' || file.startsWith('../') || isAbsolute(file) || /^[A-Za-z]:\//.test(file);
}

/**
 * The suite's issues as annotations. Each names its file by its real path (the `file` property,
 * which GitHub links to the file whatever characters the path holds; none for a path outside the
 * workspace, which names no file of the repository); its text shows the path,
 * the message and the fix as the terminal does (terminalIssue), so a control character of a file's
 * name or of the line an issue quotes reaches the log as its escape (docs/security.md, "Agent text is data").
 * Exported for the tests.
 */
export function annotateConfigIssues(errors: readonly ConfigIssue[], warnings: readonly ConfigIssue[]): void {
  // An issue about an input, or a deployment's address, is in no file of the repository: its annotation names none (its text says where it came from).
  // Nor does one whose path leaves the workspace (a dir input of ../ or an absolute path): GitHub has no file there to link.
  const at = (i: ConfigIssue): core.AnnotationProperties =>
    i.file === OVERRIDES_SOURCE || i.file === DEPLOYMENT_URL_SOURCE || outsideWorkspace(i.file) ? {} : { file: i.file, startLine: i.line ?? undefined, startColumn: i.column ?? undefined };
  for (const w of warnings) log.warning(terminalIssue(w), at(w));
  for (const e of errors) log.error(terminalIssue(e), at(e));
}

/**
 * The durations that balance this run's shard: the timings input (a results.json; unreadable is a
 * failure, since it was asked for), else the last successful default-branch run's, else none.
 */
async function shardTimings(timingsInput: string | null, suite: string | null, ctx: ActionContext, deps: ActionDeps): Promise<Map<string, number> | null> {
  if (timingsInput !== null) {
    const timings = timingsOf(await readRecord(resolve(deps.cwd, timingsInput)));
    log.info(`timings: ${timings.size} durations from ${terminalLine(timingsInput)}`);
    return timings;
  }
  if (deps.github === null) {
    log.info('timings: none (no github-token to look up the default branch runs); shards are chosen by a hash of each label');
    return null;
  }
  const found = await defaultBranchTimings(deps.github, ctx, suite);
  if (found !== null) log.info(`timings: ${found.timings.size} durations from run ${found.runId} of the default branch`);
  return found?.timings ?? null;
}

/** The suite's line and a blank line, when the run names its suite (docs/action.md, "Two suites in one repository"). */
function suiteLines(rctx: ReportContext): string[] {
  const line = suiteLine(rctx);
  return line === null ? [] : [line, ''];
}

/**
 * The comment and summary when the agent never answered: nothing was replayed. A job cancelled
 * while it waited (docs/action.md, "Preview deployments") says so, not that the agent was slow.
 */
function renderNotReady(e: AgentNotReady, rctx: ReportContext): string {
  if (e instanceof AgentWaitInterrupted) {
    return [
      markerLine(rctx.marker),
      metaLine({ headSha: rctx.headSha, runId: null, artifactName: null }),
      ...suiteLines(rctx),
      '## agent-replay: cancelled while waiting for the agent',
      '',
      `**The job was ${escapeInline(e.message)}.**`,
      '',
      'Re-run the job to check this commit.',
      '',
    ].join('\n');
  }
  return [
    markerLine(rctx.marker),
    metaLine({ headSha: rctx.headSha, runId: null, artifactName: null }),
    ...suiteLines(rctx),
    '## agent-replay: agent not ready',
    '',
    `**agent not ready after ${e.seconds} s.** ${e.polls} ${e.polls === 1 ? 'poll' : 'polls'} (GET) of the agent URL, the last one got ${escapeInline(e.lastObserved)}. Nothing was replayed and nothing was spent.`,
    '',
    e instanceof ProxyNotReached
      ? escapeInline(proxyAdvice(e.proxy))
      : `Check that the preview deployed and that the agent URL is right, or raise \`wait-for-agent\` (\`agent.waitForAgent\` in ${e.configName}) if the agent starts slowly.`,
    '',
  ].join('\n');
}

/**
 * Where the cap a refused run was held to is set, for the refusal's "raise the cap" (docs/action.md,
 * "Inputs"): the cost-cap input when given, else the dir input's config file, by the name the suite
 * has it (`file`, Suite.configName: config.yml, or config.yaml).
 */
export function capSource(inputs: Pick<Inputs, 'dir' | 'costCap'>, file: string): CapSource {
  return { dir: inputs.dir, file, fromInput: inputs.costCap !== null };
}

/**
 * The step's failure when the suite has configuration errors: the dir input on its one line, a line
 * break or control character in the folder's name shown (terminalLine), so the annotation is not split.
 */
export function configErrorsFailure(n: number, dir: string): string {
  return `${n} configuration ${n === 1 ? 'error' : 'errors'} in ${terminalLine(dir)}; nothing was sent to the agent`;
}

/**
 * The step's failure when the estimate is above the cap: the confirm-label input as the accept
 * label's lines show a label (labelWord), so a line break in it starts no line, nor a workflow
 * command, of its own in the log (docs/security.md, "Agent text is data").
 */
export function capRefusalFailure(estimate: { usd: number; capUsd: number }, confirmLabel: string): string {
  const [estimated, cap] = formatUsdPair(estimate.usd, estimate.capUsd);
  return `estimated cost ${estimated} is above the cap ${cap}; nothing was spent. Apply the ${labelWord(confirmLabel)} label or set confirm-cost: true to run it.`;
}

/**
 * The check. 'interruption reported': a job cancelled while it waited for the agent, already said
 * (main.ts adds nothing); otherwise nothing.
 */
export async function checkMode(inputsIn: Inputs, ctxIn: ActionContext, deps: ActionDeps): Promise<'interruption reported' | undefined> {
  for (const s of inputSecrets(inputsIn).flatMap(maskForms)) core.setSecret(s);
  // A shard never comments (the merge job, mode: report, does); it records and uploads
  // (docs/action.md, "Shards: one suite over a CI matrix").
  const inputs: Inputs = inputsIn.shard !== null && inputsIn.comment ? { ...inputsIn, comment: false } : inputsIn;
  if (inputsIn.shard !== null) log.info(`shard ${inputsIn.shard.index}/${inputsIn.shard.total}: no pull request comment from this job; the merge job (mode: report) posts it`);
  const plan = await planCheck(inputs, ctxIn, deps.github);
  if (plan.kind === 'skip') {
    if (plan.notice === true) log.notice(plan.reason);
    else log.info(plan.reason);
    // Nothing ran: no gate to pass or fail, no comment (docs/action.md, "Events").
    core.setOutput('gate', 'skipped');
    core.setOutput('comment-status', 'skipped');
    return;
  }
  try {
    return await replayPlanned(inputs, plan, deps);
  } catch (e) {
    await stoppedBeforeResults(inputs, plan, deps);
    throw e;
  }
}

/**
 * A check that stopped before it reported any results (the checkout refused, an error thrown):
 * on each pull request whose newest commit it is, a comment that reports an older commit gets a
 * line at its top saying that this one has none (docs/action.md, "The PR comment"), rather than
 * show the older commit's report under the newer commit, named only in its footer. The agent not
 * ready, a configuration error and the cost cap are reported in the comment instead: those return.
 */
async function stoppedBeforeResults(inputs: Inputs, plan: Extract<CheckPlan, { kind: 'run' }>, deps: ActionDeps): Promise<void> {
  const { ctx, pulls } = plan;
  if (ctx.sha === null || readOnlyTokenOf(ctx)) return;
  const url = ctx.runId === null ? null : `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${ctx.runId}`;
  for (const pull of pulls) await sayNoResults(publishSettings(inputs), { ...ctx, pull }, ctx.sha, { id: ctx.runId, url, how: 'stopped' }, deps.github);
}

/** The check of a plan that runs: replay, then record, artifact, summary, annotations, comment and gate. */
async function replayPlanned(inputs: Inputs, plan: Extract<CheckPlan, { kind: 'run' }>, deps: ActionDeps): Promise<'interruption reported' | undefined> {
  const { ctx, pulls, note } = plan;
  // The run is recorded, commented and accepted as ctx.sha: the suite must be that commit's, not
  // the merge commit pull_request checks out by default (docs/action.md, "Check: replay on every pull request").
  const mismatch = checkoutMismatch(ctx, await checkedOutCommit(resolve(deps.cwd, inputs.dir), deps.env));
  if (mismatch !== null) {
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    core.setOutput('comment-status', 'skipped');
    throw new UserError(mismatch);
  }
  // The label the comment names: the accept workflow's, which accepts (docs/action.md, "Accept: the label commits the reviewed replies").
  const acceptLabel = await commentAcceptLabel(inputs.acceptLabel, resolve(deps.cwd, inputs.dir));
  const out = publisher(publishSettings({ ...inputs, acceptLabel }), ctx, deps);
  // A pull_request run for a fork's pull request (and a review's, which GitHub runs the same way)
  // has a read-only token and no secrets: it cannot comment.
  const forkContext = FORK_CONTEXT_EVENTS.has(ctx.eventName);
  const readOnlyToken = readOnlyTokenOf(ctx);
  const confirmCost = inputs.confirmCost || pulls.some((p) => p.labels.some((l) => sameLabel(l, inputs.confirmLabel)));
  // Outside those (pull_request_target, deployment_status), a fork's code runs with the workflow's secrets.
  const forks = forkContext ? [] : pulls.filter((p) => p.isFork);
  const untrustedSuite = forks.length > 0 ? `the head of ${forks.map((p) => `#${p.number}`).join(', ')}, from a fork` : null;
  const summaryNote = note ? `> ${escapeInline(note)}\n\n` : '';
  // results.json is written as items finish, and renamed into place when the run is over.
  const stream = openRecordStream(resolve(deps.cwd, inputs.resultsPath));
  let result;
  // The load's warnings are annotated once, as soon as the suite is read, before the wait and the
  // replay (as the CLI prints them: docs/action.md, "Check: replay on every pull request").
  let warned = false;
  try {
    result = await runCheck(
      {
        dir: inputs.dir,
        cwd: deps.cwd,
        env: deps.env,
        overrides: { ...overridesFrom(inputs), ...planOverrides(plan) },
        overridesSource: OVERRIDES_SOURCE,
        confirmCost,
        failOn: inputs.failOn,
        commit: ctx.sha,
        untrustedSuite,
        waitForAgent: inputs.waitForAgent,
        // A log line names addresses from config.yml and the environment (a trace store's, a proxy's): controls shown escaped (docs/security.md).
        onWaitLog: (line) => log.info(terminalLine(line)),
        onLog: (line) => log.info(terminalLine(line)),
        // A warning may quote what the agent sent (the keys of its answer): controls shown escaped (docs/security.md).
        onWarning: (message) => log.warning(terminalLine(message)),
        onLoadWarnings: (warnings) => {
          warned = true;
          annotateConfigIssues([], warnings);
        },
        ...(inputs.shard !== null ? { shard: { ...inputs.shard, timings: await shardTimings(inputs.timings, suiteName(inputs.dir), ctx, deps) } } : {}),
        // Tests only: the readiness wait does not really sleep.
        ...(deps.env.AGENT_REPLAY_TEST_NO_DELAYS === '1' ? { waitClock: instantClock() } : {}),
      },
      {
        onProgress: (() => {
          let last = -Infinity;
          return (p) => {
            if (p.done === p.total || p.elapsedMs - last >= 10_000) {
              last = p.elapsedMs;
              log.info(`progress: ${p.done}/${p.total} · ${p.passed} passed · ${p.failed} failed · ${p.notEvaluated} not evaluated · ${p.errored} errored`);
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
    const body = renderNotReady(e, out.reportContext(ctx, null));
    await out.summary(summaryNote + body);
    await out.comment(body, { readOnlyToken, pulls });
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    log.failed(e.message);
    // The cancellation is said here, once: nothing was replayed, so nothing was recorded either.
    return e instanceof AgentWaitInterrupted ? 'interruption reported' : undefined;
  }

  if (result.kind !== 'ran') await stream.discard();
  if (result.kind === 'config_errors') {
    // A fork's pull_request run has no secrets: an empty variable is said as that, not as a secret missing.
    const errors = readOnlyToken ? forkSecretFixes(result.errors) : result.errors;
    annotateConfigIssues(errors, warned ? [] : result.warnings);
    const rctx = out.reportContext(ctx, null);
    const body = renderConfigErrors(errors, rctx);
    await out.summary(summaryNote + body);
    await out.comment(body, { readOnlyToken, pulls });
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    log.failed(configErrorsFailure(issueCount(result.errors), inputs.dir));
    return;
  }
  if (!warned) annotateConfigIssues([], result.warnings);
  // Values the config read from ${ENV} are secrets too: mask them in the job log.
  for (const secret of result.suite.config.secrets.flatMap(maskForms)) core.setSecret(secret);

  if (result.kind === 'refused') {
    const rctx = out.reportContext(ctx, null);
    const body = renderCapRefusal(result.estimate, result.fixtureCount, result.judgeCalls, rctx, result.personaCount, result.simulatorCalls, capSource(inputs, result.suite.configName), result.agentTurns);
    await out.summary(summaryNote + body);
    await out.comment(body, { readOnlyToken, pulls });
    core.setOutput('estimated-cost', usdDecimal(result.estimate.usd));
    core.setOutput('gate', 'failed');
    core.setOutput('verified', 'false');
    log.failed(capRefusalFailure(result.estimate, inputs.confirmLabel));
    return;
  }

  // A deployed commit that is the head of several pull requests: each has its own base, so each
  // comment says its own suite edits (below); the record, the job summary and report.html are the
  // commit's and say none (docs/action.md, "The PR comment", "Suite edited").
  const several = pulls.length > 1;
  // With comment: false GitHub is asked nothing of it.
  const edits = await runSuiteEdits(inputs.comment ? deps.github : null, ctx, pulls, suiteRepoPath(result.record.suitePath, inputs.dir), (line) => log.warning(line));
  if (edits.note !== null) log.info(`suite edits: ${edits.note}`);
  const run = edits.run === null ? result.record : { ...result.record, suiteEdits: edits.run };
  if (result.shard) log.info(shardLine(result.shard));
  // 1. The record, before anything else can fail.
  const resultsPath = await out.writeRecord(run, stream);

  // 2. Outputs.
  setRunOutputs(run, result.gate);

  // 3. What earlier runs say (docs/evaluations.md, "In the PR comment and job summary"): the run
  // the comment shows now, and the default branch's trend. Read-only lookups that never fail the job.
  const gh = deps.github;
  const [previous, trend] =
    gh === null
      ? [null, null]
      : await Promise.all([
          inputs.comment && !readOnlyToken ? previousRun(gh, ctx, out.marker, run, result.suite.config.latency) : Promise.resolve(null),
          // One shard's agreement is not the suite's: its summary has no trend (the merge job's record is the run's).
          run.shard === undefined ? defaultBranchTrend(gh, ctx, run, suiteName(inputs.dir)) : Promise.resolve(null),
        ]);

  // 4. The artifact: the record, report.html (with the trend) and, for a workflow_run report, the
  // pull request's number (a fork's pull request is not named by workflow_run). Then the summary
  // and annotations.
  // Every report says what the gate fails on that its headline does not (docs/action.md, "The PR comment", "A check that fails").
  const gate = result.gate;
  const html = htmlReportFile(run, { ...out.reportContext(ctx, null), gate }, trend?.points);
  const { artifactName, uploaded } = await out.upload(run, resultsPath, [...prNumberFile(ctx.pull), html]);
  const rctx: ReportContext = { ...out.reportContext(ctx, artifactName, uploaded), previous, trend, gate };
  await out.summary(summaryWithNote(summaryNote, run, rctx));
  const redact = makeRedactor(inputSecrets(inputs));
  for (const f of run.fixtures) {
    if (f.drift?.verdict === 'newly_failing') {
      log.error(redact(`${f.label}: newly failing: ${terminalLine(f.detail)}`), { title: `agent-replay: ${f.label} newly failing`, file: f.file, startLine: f.line });
    }
  }
  for (const p of run.personas) {
    if (p.drift?.verdict === 'newly_failing') {
      const failed = p.checks.filter((c) => c.status === 'fail').map((c) => `${c.kind}: ${c.detail}`).join('; ');
      log.error(redact(`${p.label}: newly failing: ${terminalLine(failed)}`), { title: `agent-replay: ${p.label} newly failing`, file: p.file, startLine: p.line });
    }
  }

  // 5. Comment (also when the gate fails).
  // A deployed commit can be the head of several pull requests: each comment compares with the run
  // that pull request's own comment showed (the first one's was looked up above).
  const commentFor = async (pull: PullContext): Promise<string> => {
    const own = await edits.forPull(pull);
    const shown = own === null ? run : { ...run, suiteEdits: own };
    if (gh === null || pull.number === ctx.pull?.number || !inputs.comment || readOnlyToken) return renderComment(shown, rctx);
    const at = { ...ctx, pull };
    return renderComment(shown, { ...rctx, previous: await previousRun(gh, at, out.marker, run, result.suite.config.latency) });
  };
  await out.comment(several ? commentFor : renderComment(run, rctx), { readOnlyToken, pulls });

  // 6. Gate.
  if (result.gate.failed) log.failed(`agent-replay gate failed: ${terminalLine(result.gate.reason)}`);
}

