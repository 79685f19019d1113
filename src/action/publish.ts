// What every mode does with a result: the record (results.json first), the artifact, the job
// summary, the outputs and the sticky comment. Built once per run from the few inputs it needs
// (`publisher(publishSettings(inputs), ctx, deps)`). A failure to comment never loses the results.

import * as core from '@actions/core';
import * as log from './log.js';
import { EOL } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Inputs } from './inputs.js';
import type { ActionContext, PullContext } from './context.js';
import { artifactNameFor, markerFor, suiteName } from './context.js';
import type { ActionDeps } from './deps.js';
import type { ConfigOverrides } from '../suite/index.js';
import { acceptWorkflowLabel, DEFAULT_ACCEPT_LABEL, reportWorkflowFile } from '../suite/accept-label.js';
import { openRecordStream, RecordWriteError, type RecordStream } from '../record/index.js';
import { recordWrite } from './record-writes.js';
import { driftedCount, type GateResult } from '../evaluate/index.js';
import { writeFileSafely } from '../fs-safe.js';
import { hasMarker, parseCommentMetadata, renderSummary, usdDecimal, type ReportContext } from '../report/index.js';
import { terminalLine, utf8Length } from '../report/escape.js';
import { renderHtml, type HtmlTrendPoint } from '../report/html.js';
import type { GitHubApi } from '../github/api.js';
import { upsertStickyComment } from '../github/sticky.js';
import { noteNoResults } from './notice.js';
import type { NoResultsRun } from '../report/no-results.js';
import { gitHubFailure } from './github-words.js';
import { docsUrl } from '../version.js';
import { labelWord } from '../words.js';
import type { RunRecord } from '../types.js';

export type CommentStatus = 'created' | 'updated' | 'kept-newer' | 'skipped' | 'skipped-fork' | 'failed';

/**
 * The inputs the publisher reads: whether to comment, under which key, the labels it names, where
 * the record goes, and the suite folder, which names the comment, the artifact and the headings
 * when it is not the default one (docs/action.md, "Two suites in one repository").
 */
export type PublishSettings = Pick<Inputs, 'comment' | 'commentKey' | 'acceptLabel' | 'confirmLabel' | 'resultsPath' | 'dir'>;

export function publishSettings(inputs: PublishSettings): PublishSettings {
  return {
    comment: inputs.comment,
    commentKey: inputs.commentKey,
    dir: inputs.dir,
    acceptLabel: inputs.acceptLabel,
    confirmLabel: inputs.confirmLabel,
    resultsPath: inputs.resultsPath,
  };
}

/**
 * The accept label a check's or report's comment names (docs/action.md, "Accept: the label commits
 * the reviewed replies"): the accept workflow's `accept-label`, read from the checkout's
 * `.github/workflows` above the suite folder `suiteDir` (absolute), since it is the label that
 * accepts; this step's own (`own`) when they do not tell one. Said in the log when it is not this
 * step's (a warning when this step's is not the default, so set on purpose), and warned when an
 * accept job's `if:` runs it for another label than its step accepts.
 */
export async function commentAcceptLabel(own: string, suiteDir: string): Promise<string> {
  const found = await acceptWorkflowLabel(suiteDir);
  if (found === null) return own;
  if (found.runsFor !== null) {
    log.warning(
      `accept label: the accept job of ${found.runsFor.file} runs only for the ${labelWord(found.runsFor.label)} label (its if:), and its agent-replay step accepts the ${labelWord(found.label)} label (its accept-label): neither accepts anything. ` +
        `Rename them together: if: github.event.label.name == '${terminalLine(found.label.replaceAll("'", "''"))}'`,
      { file: found.runsFor.file },
    );
  }
  if (found.label.toLowerCase() === own.toLowerCase()) return own;
  const words = `accept label: the comment names ${labelWord(found.label)}, the accept-label of the accept step in ${found.file}`;
  if (own === DEFAULT_ACCEPT_LABEL) log.info(`${words} (this step's is the default, ${own})`);
  else log.warning(`${words}, not this step's ${labelWord(own)}: give every step that names the label the same accept-label`, { file: found.file });
  return found.label;
}

/** The inputs that override config.yml. */
export type OverrideInputs = Pick<
  Inputs,
  'agentUrl' | 'agentHeaders' | 'concurrency' | 'costCap' | 'judgeProvider' | 'judgeBaseUrl' | 'judgeModel' | 'judgeApiKey' | 'repeat' | 'repeatMax'
>;

/** The "file" an issue about an overriding input names (the loader's default is the CLI's `command-line options`). */
export const OVERRIDES_SOURCE = "the Action's inputs";

export function overridesFrom(inputs: OverrideInputs): ConfigOverrides {
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
    ...(inputs.repeat !== null ? { repeat: inputs.repeat } : {}),
    ...(inputs.repeatMax !== null ? { repeatMax: inputs.repeatMax } : {}),
    ...(Object.keys(judge).length > 0 ? { judge } : {}),
  };
}

/** One sticky comment per key (the comment-key input, else the workflow's name) and suite folder. */
export function commentMarker(settings: Pick<PublishSettings, 'commentKey' | 'dir'>, ctx: Pick<ActionContext, 'workflow'>): string {
  return markerFor(settings.commentKey ?? ctx.workflow, suiteName(settings.dir));
}

/**
 * The comment's marker, and the one it had before (formerMarker): a suite's comment from before its
 * key named the suite's folder is taken over, not left behind (docs/action.md, "Two suites in one repository").
 */
function commentMarkers(settings: Pick<PublishSettings, 'commentKey' | 'dir'>, ctx: Pick<ActionContext, 'workflow'>): { marker: string; formerMarker?: string } {
  return { marker: commentMarker(settings, ctx), ...(suiteName(settings.dir) !== null ? { formerMarker: markerFor(settings.commentKey ?? ctx.workflow) } : {}) };
}

/**
 * When a run leaves no results for `head`, the newest commit of `at`'s pull request, and the
 * pull request's comment reports an older commit: a line at the comment's top says so, above the
 * report it keeps (noteNoResults; docs/action.md, "The PR comment"), said in the log. Never thrown:
 * the step fails with its own error, and a failure to write the line is a warning.
 */
export async function sayNoResults(settings: Pick<PublishSettings, 'comment' | 'commentKey' | 'dir'>, at: ActionContext, head: string, run: NoResultsRun, github: GitHubApi | null): Promise<void> {
  if (!settings.comment || github === null || at.pull === null) return;
  const short = head.slice(0, 7);
  try {
    const noted = await noteNoResults(github, { owner: at.owner, repo: at.repo, pull: at.pull.number, ...commentMarkers(settings, at) }, head, run);
    if (noted.kind === 'noted') log.info(`comment: the newest commit, ${short}, has no results: a line at the top of the comment now says so, above its report of ${noted.shown.slice(0, 7)} ${noted.url}`);
    else if (noted.kind === 'already') log.info(`comment: its top already says that the newest commit, ${short}, has no results ${noted.url}`);
  } catch (e) {
    log.warning(`comment: the line saying that the newest commit, ${short}, has no results was not added: ${gitHubFailure(e, 'pull-requests: write')}`);
  }
}

/** report.html for the results artifact, written next to results.json (docs/action.md, "report.html"). */
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
  core.setOutput('estimated-cost', usdDecimal(run.estimate.usd));
  core.setOutput('gate', gate.failed ? 'failed' : 'passed');
  core.setOutput('verified', String(gate.verification.verified));
}

/**
 * The run's job summary under `note` (or none): the report fits what is left of GitHub's 1 MiB per
 * step once the note and the line end writeSummary adds are counted, since a step summary over the
 * limit is dropped whole (docs/action.md, "The PR comment").
 */
export function summaryWithNote(note: string, run: RunRecord, rctx: ReportContext): string {
  return note + renderSummary(run, rctx, { reserveBytes: utf8Length(note) + utf8Length(EOL) });
}

/** Writes the step's job summary; false (after a warning saying why) when it could not be written. */
export async function writeSummary(markdown: string): Promise<boolean> {
  try {
    await core.summary.addRaw(markdown, true).write();
    return true;
  } catch (e) {
    log.warning(`job summary not written: ${(e as Error).message}`);
    return false;
  }
}

type ExtraFile = { name: string; text: string };

/**
 * The `pr-number` file of a results artifact: the pull request whose results it holds, for a
 * workflow_run report, which workflow_run does not name for a fork's pull request (docs/action.md,
 * "Report: combine shards, or comment for a fork"). Check mode's event's, report mode's the one it
 * comments on, a merge job's as a shard's; none without one.
 */
export function prNumberFile(pull: Pick<PullContext, 'number'> | null): ExtraFile[] {
  return pull === null ? [] : [{ name: 'pr-number', text: `${pull.number}\n` }];
}

export interface CommentOptions {
  /** The context to comment from (its pull request); default: the publisher's. */
  at?: ActionContext;
  /** A fork's pull_request run, which cannot comment at all. */
  readOnlyToken?: boolean;
  /** The pull requests to comment on (a deployed commit can be the head of several); default: `at`'s. */
  pulls?: readonly PullContext[];
  /** The body is a refused merge's: a comment not posted says where the refusal is (refusalWhere), not the results. */
  refusal?: boolean;
}

export interface Publisher {
  /** This run's sticky comment marker. */
  readonly marker: string;
  /** `artifactName` goes into the comment's metadata (the accept flow checks that it exists); the link only when it was uploaded. */
  reportContext(at: ActionContext, artifactName: string | null, artifactUploaded?: boolean): ReportContext;
  /**
   * Creates or updates the sticky comment on the pull request (or on each of `pulls`) and sets the
   * comment-status and comment-url outputs, which describe the first one. A failure to post is
   * logged and reported in comment-status, never thrown: the results are already in the summary
   * and the artifact.
   */
  comment(body: string | ((pull: PullContext) => Promise<string>), options?: CommentOptions): Promise<void>;
  /**
   * Writes the run's record (before anything else can fail), finishing `stream` when check mode
   * fed it as items finished, and names it in the outputs. When the results path cannot be
   * written, the record goes to the runner's temporary folder instead: the step fails saying
   * where, and the rest (summary, artifact, comment) goes on with that file. Returns the path written.
   */
  writeRecord(run: RunRecord, stream?: RecordStream): Promise<string>;
  /** Writes `extra` next to the record and uploads them all as this run's results artifact, named from the replayed commit. */
  upload(run: RunRecord, resultsPath: string, extra?: readonly ExtraFile[]): Promise<{ artifactName: string; uploaded: boolean }>;
  /** writeRecord, then upload. */
  save(run: RunRecord, extra?: readonly ExtraFile[]): Promise<{ artifactName: string; uploaded: boolean }>;
  /** writeSummary, remembered for the words of a comment not posted (resultsWhere). */
  summary(markdown: string): Promise<void>;
  /** Where a reader finds the results when the comment is not posted: "The results are in the job summary and the artifact", the artifact only once uploaded, the job summary unless its writing failed (resultsWhere). */
  resultsWhere(): string;
  /** Where a reader finds a refused merge when its comment is not posted (refusalWhere). */
  refusalWhere(): string;
}

/**
 * Where the results are when the comment is not posted, said only as far as it is true: the
 * artifact once it was uploaded; after a failed upload (the log has just warned "artifact ... not
 * uploaded: ..."), that it was not; before any upload (a run that stopped before it replayed
 * anything), the job summary alone (docs/action.md, "The PR comment").
 */
export function resultsWhere(artifact: 'uploaded' | 'not-uploaded' | 'none', summary: 'written' | 'not-written' = 'written'): string {
  if (summary === 'not-written') {
    // The log has just warned "job summary not written: ...".
    if (artifact === 'uploaded') return 'The results are in the artifact; the job summary was not written (see the warning above)';
    if (artifact === 'not-uploaded') return 'The job summary was not written and the artifact was not uploaded (see the warnings above): the results are only in the results file on the runner (the results-path output)';
    return 'The job summary was not written (see the warning above)';
  }
  if (artifact === 'uploaded') return 'The results are in the job summary and the artifact';
  if (artifact === 'not-uploaded') return 'The results are in the job summary; the artifact was not uploaded (see the warning above)';
  return 'The results are in the job summary';
}

/**
 * Where a refused merge is when its comment is not posted: the job summary holds the refusal
 * (renderMergeRefused), unless its writing failed, and the job's error says it.
 */
export function refusalWhere(summary: 'written' | 'not-written' = 'written'): string {
  return summary === 'written' ? 'The refusal is in the job summary and the error below' : 'The refusal is in the error below; the job summary was not written (see the warning above)';
}

export function publisher(settings: PublishSettings, ctx: ActionContext, deps: Pick<ActionDeps, 'cwd' | 'github' | 'artifacts'>): Publisher {
  const marker = commentMarker(settings, ctx);
  const suite = suiteName(settings.dir);
  // What this run's upload did, for the words of a comment not posted (resultsWhere).
  let artifact: 'uploaded' | 'not-uploaded' | 'none' = 'none';
  // What this run's job summary did: 'written' until a write fails (a comment posted before it is written says where it will be).
  let summary: 'written' | 'not-written' = 'written';

  const reportContext = (at: ActionContext, artifactName: string | null, artifactUploaded = artifactName !== null): ReportContext => {
    const runUrl = at.runId ? `${at.serverUrl}/${at.owner}/${at.repo}/actions/runs/${at.runId}` : null;
    return {
      marker: commentMarker(settings, at),
      suite,
      headSha: at.sha,
      runId: at.runId,
      artifactName,
      baselinesRef: at.sha ? at.sha.slice(0, 7) : null,
      acceptLabel: settings.acceptLabel,
      confirmLabel: settings.confirmLabel,
      summaryUrl: runUrl,
      artifactUrl: runUrl && artifactUploaded ? `${runUrl}#artifacts` : null,
      repositoryUrl: at.owner && at.repo ? `${at.serverUrl}/${at.owner}/${at.repo}` : null,
      acceptance: null,
    };
  };

  const comment = async (body: string | ((pull: PullContext) => Promise<string>), options: CommentOptions = {}): Promise<void> => {
    const at = options.at ?? ctx;
    const readOnlyToken = options.readOnlyToken ?? false;
    const pulls = options.pulls ?? (at.pull ? [at.pull] : []);
    const where = options.refusal === true ? refusalWhere(summary) : resultsWhere(artifact, summary);
    // A read-only token's line names the workflow that comments instead, when the checkout has it.
    const forFork = { dir: resolve(deps.cwd, settings.dir), workflow: at.workflow };
    if (pulls.length === 0) {
      const posted = await postComment(deps.github, settings, { ...at, pull: null }, typeof body === 'string' ? body : '', readOnlyToken, where, forFork);
      core.setOutput('comment-status', posted.status);
      return;
    }
    let first: { status: CommentStatus; url: string | null } | null = null;
    for (const pull of pulls) {
      const posted = await postComment(deps.github, settings, { ...at, pull }, typeof body === 'string' ? body : await body(pull), readOnlyToken, where, forFork);
      first ??= posted;
    }
    core.setOutput('comment-status', first?.status ?? 'skipped');
    if (first?.url) core.setOutput('comment-url', first.url);
  };

  const writeRecord = async (run: RunRecord, stream?: RecordStream): Promise<string> => {
    const target = resolve(deps.cwd, settings.resultsPath);
    let resultsPath = target;
    try {
      await recordWrite(target, (stream ?? openRecordStream(target)).finish(run));
    } catch (e) {
      if (!(e instanceof RecordWriteError) || e.fallback === null) throw e;
      log.failed(e.message);
      resultsPath = e.fallback;
    }
    core.setOutput('results-path', resultsPath);
    // Its path on its line, a line break in a folder's name shown as ` ⏎ ` (terminalLine); the output keeps the real path.
    log.info(`results: ${terminalLine(resultsPath)}`);
    return resultsPath;
  };

  const upload = async (run: RunRecord, resultsPath: string, extra: readonly ExtraFile[] = []): Promise<{ artifactName: string; uploaded: boolean }> => {
    const files = [resultsPath];
    for (const f of extra) {
      const path = join(dirname(resultsPath), f.name);
      await writeFileSafely(path, f.text); // never through a link planted next to the results
      files.push(path);
    }
    const artifactName = artifactNameFor(run.commit, ctx.runAttempt, run.shard, suite);
    const uploaded = await deps.artifacts.upload(artifactName, files);
    if (uploaded.kind === 'uploaded') log.info(`artifact: ${artifactName}`);
    else log.warning(`artifact ${artifactName} not uploaded: ${uploaded.reason}`);
    artifact = uploaded.kind === 'uploaded' ? 'uploaded' : 'not-uploaded';
    core.setOutput('artifact-name', artifactName);
    return { artifactName, uploaded: uploaded.kind === 'uploaded' };
  };

  return {
    marker,
    reportContext,
    comment,
    writeRecord,
    upload,
    save: async (run, extra = []) => upload(run, await writeRecord(run), extra),
    summary: async (markdown) => {
      summary = (await writeSummary(markdown)) ? 'written' : 'not-written';
    },
    resultsWhere: () => resultsWhere(artifact, summary),
    refusalWhere: () => refusalWhere(summary),
  };
}

/**
 * Why the comment should stay as it is, or null: it reports the pull request's head now and this
 * run another commit, an older one (a check dispatched on the accepted baselines' commit that
 * finished after the check of a later push: the two run in different concurrency groups). GitHub
 * is asked for the head only when the comment shows another commit than this run's
 * (docs/action.md, "The PR comment").
 */
async function newerComment(github: GitHubApi, ctx: ActionContext, shown: string, body: string): Promise<string | null> {
  const theirs = parseCommentMetadata(shown)?.headSha ?? null;
  const ours = parseCommentMetadata(body)?.headSha ?? null;
  if (theirs === null || ours === null || theirs === ours || ctx.pull === null) return null;
  const pull = await github.getPull(ctx.owner, ctx.repo, ctx.pull.number);
  if (pull.headSha !== theirs) return null;
  return `it reports ${theirs.slice(0, 7)}, the pull request's head now, and this run checked ${ours.slice(0, 7)}, an older commit`;
}

/**
 * Who comments for a fork's pull request (docs/action.md, "Report: combine shards, or comment for a
 * fork"): the checkout's workflow_run workflow of mode: report that runs after `workflow`, named by
 * its file, when there is one; else the workflow to add, with the page that holds it, as the other
 * refusals name theirs. `dir`: the suite folder (absolute), in the repository whose workflows are read.
 */
export async function forkCommentWords(dir: string, workflow: string): Promise<string> {
  const file = await reportWorkflowFile(dir, workflow).catch(() => null);
  if (file !== null) return `${file}, the workflow_run workflow of mode: report, comments once this run completes`;
  return `to comment, add the workflow_run workflow of mode: report (${docsUrl('action.md', 'Report: combine shards, or comment for a fork')})`;
}

async function postComment(
  github: GitHubApi | null,
  settings: Pick<PublishSettings, 'comment' | 'commentKey' | 'dir'>,
  ctx: ActionContext,
  body: string,
  readOnlyToken: boolean,
  where: string,
  forFork: { dir: string; workflow: string },
): Promise<{ status: CommentStatus; url: string | null }> {
  if (!settings.comment) return { status: 'skipped', url: null };
  if (ctx.pull === null) {
    log.info(`comment: no pull request to comment on. ${where}`);
    return { status: 'skipped', url: null };
  }
  if (readOnlyToken) {
    log.warning(`comment: not posted: this pull request comes from a fork, so the token is read-only. ${where}; ${await forkCommentWords(forFork.dir, forFork.workflow)}.`);
    return { status: 'skipped-fork', url: null };
  }
  if (github === null) return { status: 'skipped', url: null };
  try {
    const res = await upsertStickyComment(github, {
      owner: ctx.owner,
      repo: ctx.repo,
      issueNumber: ctx.pull.number,
      ...commentMarkers(settings, ctx),
      body,
      hasMarker,
      keep: (existing) => newerComment(github, ctx, existing.body, body),
    });
    if (res.status === 'kept') {
      log.info(`comment: left as it is: ${res.reason ?? ''} (${where.charAt(0).toLowerCase()}${where.slice(1)}) ${res.url}`);
      return { status: 'kept-newer', url: res.url };
    }
    log.info(`comment: ${res.status} ${res.url}`);
    return { status: res.status, url: res.url };
  } catch (e) {
    log.warning(`comment: not posted: ${gitHubFailure(e, 'pull-requests: write')}. ${where}.`);
    return { status: 'failed', url: null };
  }
}
