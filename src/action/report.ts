// Report mode: combine recorded results (the shards of a matrix, or a fork PR's run downloaded by
// a workflow_run workflow) and post the comment and summary, without replaying anything.

import * as core from '@actions/core';
import * as log from './log.js';
import { readdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import type { Inputs } from './inputs.js';
import { DEFAULT_SUITE_DIR, isResultsArtifact, isResultsArtifactOf, readOnlyTokenOf, resultsArtifactSlug, resultsArtifactsPattern, runArtifactsPattern, suiteName, suiteSlug, type ActionContext, type PullContext } from './context.js';
import { runSuiteEdits, suiteRepoPath } from './suite-edits.js';
import { gitHubFailure } from './github-words.js';
import { isGitHubError } from '../github/errors.js';
import type { ActionDeps } from './deps.js';
import { commentAcceptLabel, htmlReportFile, prNumberFile, publisher, publishSettings, sayNoResults, setRunOutputs, summaryWithNote } from './publish.js';
import { defaultBranchTrend, previousRun } from './history.js';
import { mergeRecords, mixedSuites, olderRecordNote, readRecord, RecordError, type MergeFixes } from '../record/index.js';
import { renderComment, terminalLine } from '../report/index.js';
import { renderMergeRefused } from '../report/merge-refused.js';
import { clipShown } from '../report/escape.js';
import { gateMerged, incompleteText } from '../evaluate/index.js';
import type { RunRecord } from '../types.js';
import { UserError } from '../errors.js';
import { listAndMore, plural, thousands } from '../words.js';

/** What expandResults found, and where it found nothing (for the error when no file is left). */
export interface ExpandedResults {
  files: string[];
  /** The folders of patterns that do not exist (no artifact downloaded there). */
  missing: string[];
  /** The lines naming a file or folder that does not exist; each is in `files` too, so that a read of it says so when others exist. */
  absent: string[];
  /** The folders, given or of a pattern, that exist and hold no results file (nothing was downloaded into them). */
  empty: string[];
  /** How many of `files` exist. */
  existing: number;
}

/**
 * Expands each line of the results input: a file, a folder (every .json file below it: `results-path` may name a record otherwise; docs/action.md), or a `*` pattern in the last segment.
 */
export async function expandResults(patterns: readonly string[], cwd: string): Promise<ExpandedResults> {
  const out: string[] = [];
  const missing: string[] = [];
  const absent: string[] = [];
  const empty: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.json')) out.push(p);
    }
  };
  for (const pattern of patterns) {
    const abs = resolve(cwd, pattern);
    const before = out.length;
    if (abs.includes('*')) {
      const dir = dirname(abs);
      const re = new RegExp(`^${basename(abs).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT' && (e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e;
        missing.push(relative(cwd, dir) || '.');
        continue;
      }
      for (const name of names.sort()) if (re.test(name)) out.push(join(dir, name));
      if (out.length === before) empty.push(relative(cwd, dir) || '.');
    } else {
      try {
        await walk(abs);
        if (out.length === before) empty.push(relative(cwd, abs) || '.');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !absent.includes(relative(cwd, abs) || abs)) absent.push(relative(cwd, abs) || abs);
        out.push(abs);
      }
    }
  }
  const files = [...new Set(out)];
  return { files, missing, absent, empty, existing: files.length - absent.length };
}

/**
 * The error when the results input leaves no file to read (docs/action.md, "Report: combine
 * shards, or comment for a fork"): every shard's job failed before it uploaded its results, or the
 * download step did not run, wrote elsewhere, or matched no artifact's name (the pattern and the
 * name the upload must have, of the suite in `dir`). Null when some file exists to be read.
 */
export function noResultsWords(results: readonly string[], found: ExpandedResults, dir: string): string | null {
  if (found.existing > 0) return null;
  // A wrongly named artifact is not downloaded either: the name the upload must have, and the pattern init's workflow downloads with.
  const name = resultsArtifactsPattern(dir, '<commit>').slice(0, -1);
  const download =
    `check that the step that downloads the results artifacts ran before this one and wrote there, and that its pattern takes their names: ` +
    `pattern: ${runArtifactsPattern(dir, '<commit>')} (init's) takes the artifact named ${name}, the name check mode uploads with, which a job that replays with the CLI must give its upload (the full commit)`;
  const why = [
    ...(found.missing.length === 0 ? [] : [`no folder ${found.missing.join(', ')} in the workspace: ${download}`]),
    ...(found.absent.length === 0 ? [] : [`nothing at ${found.absent.join(', ')} in the workspace: ${download}`]),
    ...(found.empty.length === 0 ? [] : [`${found.empty.join(', ')} ${found.empty.length === 1 ? 'holds' : 'hold'} no .json file: no results artifact was downloaded there; when every shard's job failed before it uploaded its results, their logs say why`]),
  ];
  return `report mode: no results files match ${results.join(', ')}${why.length === 0 ? '' : ` (${why.join('; ')})`}`;
}

/** A folder or file named by an artifact (a fork's run writes it), shown on one line and clipped (never half an escape). */
const shown = (text: string): string => clipShown(terminalLine(text), 200);

/** A results file read, by the name the log and the errors give it (relative to the workspace). */
export interface ReadResults {
  file: string;
  record: RunRecord;
}

/** A results file that could not be read (readRecord's RecordError): its name, as ReadResults', and what is wrong, with the fix. */
export interface UnreadResults {
  file: string;
  why: string;
  /** The suite folder it says it is of, where it is JSON of schema version 1 that names one (RecordError's). */
  suitePath?: string;
}

/**
 * Reads every results file, keeping those that cannot be read (cut off, not JSON, another schema
 * version, a newer agent-replay's, absent) with what is wrong rather than stopping at the first,
 * so that the refusal names each (unreadWords). Another failure is thrown as it is.
 */
export async function readResults(files: readonly string[], cwd: string): Promise<{ read: ReadResults[]; unread: UnreadResults[] }> {
  const read: ReadResults[] = [];
  const unread: UnreadResults[] = [];
  for (const f of files) {
    const file = relative(cwd, f) || f;
    try {
      read.push({ file, record: await readRecord(f) });
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      // RecordError's message starts with the path it was given, here the absolute one: its why alone.
      unread.push({ file, why: e.why, ...(e.suitePath === undefined ? {} : { suitePath: e.suitePath }) });
    }
  }
  return { read, unread };
}

/**
 * A results file that could not be read, set aside as another suite's (otherSuitesUnread): the
 * artifact folder of another suite it is in, or, in none, null, and `suitePath` names the other suite.
 */
export interface AsideResults extends UnreadResults {
  artifact: string | null;
}

/**
 * The files that could not be read that are another suite's, set aside rather than refusing this
 * suite's merge (docs/action.md, "Two suites in one repository"): a download by `pattern` puts each
 * artifact in a folder of its name, and a file whose nearest such folder is a results artifact of
 * another suite than the dir input's (`agent-replay-results-apps-sales-.agent-replay-<sha>` beside
 * the default suite's, taken by `agent-replay-results-*`) is that suite's, which its own report step
 * reads. A file in no artifact's folder (a download by `name`, or `merge-multiple`) is another
 * suite's when it says so as a record that is read says it: JSON of schema version 1 whose
 * `suitePath` is another folder inside the repository (ownSuiteResults skips such a record, and a
 * fork's run could as well write one that is read, or leave the file out). The rest are `unread`
 * and still refuse (unreadWords): a file in this suite's artifact, one in no artifact's folder that
 * names this suite or none, or every file with a dir input that is no folder inside the repository,
 * cannot be told to be another suite's.
 */
export function otherSuitesUnread(unread: readonly UnreadResults[], dir: string): { aside: AsideResults[]; unread: UnreadResults[] } {
  const ownPath = suiteRepoPath(undefined, dir);
  if (ownPath === null) return { aside: [], unread: [...unread] };
  const own = suiteName(dir);
  const aside: AsideResults[] = [];
  const left: UnreadResults[] = [];
  for (const u of unread) {
    const artifact = u.file.split(/[\\/]/).slice(0, -1).reverse().find(isResultsArtifact);
    const named = artifact === undefined && u.suitePath !== undefined ? suiteRepoPath(undefined, u.suitePath) : null;
    if (artifact !== undefined && !isResultsArtifactOf(artifact, own)) aside.push({ ...u, artifact });
    else if (named !== null && named !== ownPath) aside.push({ ...u, suitePath: named, artifact: null });
    else left.push(u);
  }
  return { aside, unread: left };
}

/**
 * Why a file set aside is another suite's (otherSuitesUnread), after its name: the artifact it is
 * in, or the suite its suitePath names; `own`, the step's suite, said as what it is another than.
 */
function whoseWords(a: AsideResults, own: string | null): string {
  const than = own === null ? '' : ` than ${shown(own)}`;
  if (a.artifact !== null) return `is in ${shown(a.artifact)}, a results artifact of another suite${than}`;
  return `is a run of the suite in ${shown(a.suitePath ?? '')} (its suitePath)${own === null ? '' : `, another suite${than}`}`;
}

/** The warning for a file set aside as another suite's (otherSuitesUnread): the file, what is wrong, whose it is and the fix. */
export function asideWords(a: AsideResults, dir: string): string {
  const own = suiteRepoPath(undefined, dir) ?? dir;
  return (
    `report: set aside ${shown(a.file)}, which could not be read (${clipShown(terminalLine(a.why), 600)}): it ${whoseWords(a, own)}, this step's dir input, ` +
    `and that suite's own report step reads it; the rest are reported without it. To download this suite's results artifacts only: ${ownPatternWords(dir)}`
  );
}

/**
 * The refusal when a results file cannot be read (docs/action.md, "Report: combine shards, or
 * comment for a fork"): nothing is merged, since which shard or run an unread file holds cannot be
 * known (a re-run's later attempt, a shard of its own, part of a whole run), and the rest merged
 * would read as the run, gated on what it lacks. Each file is named with what is wrong (its words
 * are the file's, a fork's to write: shown on one line and clipped); null when every file was read.
 */
export function unreadWords(unread: readonly UnreadResults[], read: number): string | null {
  if (unread.length === 0) return null;
  // Each file's reason holds commas of its own: "; " between them, and "; and N more" (docs/architecture.md, words.ts).
  const each = listAndMore(unread, 5, (u) => `${shown(u.file)}: ${clipShown(terminalLine(u.why), 600)}`, '; ');
  const total = unread.length + read;
  const what = total === 1 ? 'the results file could not be read' : unread.length === 1 ? `1 of ${thousands(total)} results files could not be read` : `${thousands(unread.length)} of ${thousands(total)} results files could not be read`;
  const rest = read === 0 ? '' : ` (the ${read === 1 ? 'other one was' : `other ${read} were`} read; which shard or run an unread file holds cannot be known, and without it the rest would read as the whole run)`;
  return `report mode: ${what}, so nothing was ${total === 1 ? 'reported' : 'merged'}${rest}: ${each}`;
}

/**
 * The records of the step's suite. A record whose `suitePath` is another folder of the repository
 * than the `dir` input is another suite's run, downloaded beside this suite's by a pattern that
 * takes both (a default suite's `agent-replay-results-*-shard-*` takes
 * `agent-replay-results-apps-sales-.agent-replay-<sha>-shard-1-of-2`): it is skipped, named in
 * `skipped`, rather than merged into this one's run. None left is an error that names the files
 * and the fix. A record without `suitePath` (its suite in no git repository, or written before it)
 * goes with the step whose pattern downloads it: it is kept as a run of the step's suite, and
 * given that `suitePath`, so that the merge reads it as this step reads it (beside a re-run that
 * says the suite, one run given twice, not two runs that cannot be told to be of one suite). Every
 * record is kept as it is when the dir input is no folder inside the repository, unless they are
 * runs of two or more suites, which are refused as the CLI's `report` refuses them
 * (refuseMixedSuites; docs/action.md, "Two suites in one repository").
 */
export function ownSuiteResults(read: readonly ReadResults[], dir: string): { kept: ReadResults[]; skipped: { file: string; suitePath: string }[] } {
  const own = suiteRepoPath(undefined, dir);
  if (own === null) {
    refuseMixedSuites(read, dir);
    return { kept: [...read], skipped: [] };
  }
  const kept: ReadResults[] = [];
  const skipped: { file: string; suitePath: string }[] = [];
  for (const r of read) {
    if (r.record.suitePath === undefined) kept.push({ file: r.file, record: { ...r.record, suitePath: own } });
    else if (posix.normalize(r.record.suitePath) === own) kept.push(r);
    else skipped.push({ file: r.file, suitePath: posix.normalize(r.record.suitePath) });
  }
  if (kept.length === 0 && skipped.length > 0) {
    const first = skipped[0] as { file: string; suitePath: string };
    const suites = [...new Set(skipped.map((s) => s.suitePath))];
    const more = skipped.length > 1 ? ` (${thousands(skipped.length)} files in all, runs of ${suites.map(shown).join(', ')})` : '';
    throw new UserError(
      `report mode: no results file is a run of ${shown(own)}, this step's dir input: ${shown(first.file)} is a run of the suite in ${shown(first.suitePath)} (its suitePath)${more}. ` +
        `Set dir: ${shown(first.suitePath)} on this step when it reports that suite (as its check step's dir), or download this suite's results artifacts only (${ownPatternWords(dir)})`,
    );
  }
  return { kept, skipped };
}

/**
 * The folder of the suite a file set aside is of (otherSuitesUnread), for the fix's `dir`: the one
 * its suitePath names, in no artifact's folder, or in one whose name agrees with it (suiteSlug's);
 * `.agent-replay` for the default folder's artifact (`agent-replay-results-<sha>`). Else the
 * artifact's name gives only the folder as written there (`apps-sales-.agent-replay`: `apps/sales`
 * and `apps-sales` read alike), `slug`; null when there is none.
 */
function asideFolder(a: AsideResults): string | { slug: string } | null {
  if (a.artifact === null) return a.suitePath ?? null;
  const slug = resultsArtifactSlug(a.artifact);
  if (slug === undefined) return null;
  if (slug === null) return DEFAULT_SUITE_DIR;
  const named = a.suitePath === undefined ? null : suiteRepoPath(undefined, a.suitePath);
  return named !== null && suiteSlug(named) === slug ? named : { slug };
}

/**
 * The error when every results file was set aside as another suite's (otherSuitesUnread), as
 * ownSuiteResults says it of another suite's records: the first file, its artifact or the suite
 * its suitePath names, and the fix, with that suite's folder as the dir to set when it is known.
 */
function onlyAsideWords(aside: readonly AsideResults[], dir: string): string {
  const own = suiteRepoPath(undefined, dir) ?? dir;
  const first = aside[0] as AsideResults;
  const more = aside.length > 1 ? ` (${thousands(aside.length)} files in all, each ${aside.every((a) => a.artifact !== null) ? "in another suite's results artifact" : "another suite's"})` : '';
  const folder = asideFolder(first);
  const setDir =
    typeof folder === 'string'
      ? `Set dir: ${shown(folder)} on this step`
      : `Set dir on this step to that suite's folder${folder === null ? '' : ` (${shown(folder.slug)} in the artifact's name, its path with each / written -)`}`;
  return (
    `report mode: no results file is a run of ${shown(own)}, this step's dir input: ${shown(first.file)} ${whoseWords(first, null)}, and could not be read${more}. ` +
    `${setDir} when it reports that suite (as its check step's dir), or download this suite's results artifacts only (${ownPatternWords(dir)})`
  );
}

/**
 * The merge's fixes in report mode's terms: its records are the artifacts a download step wrote
 * (docs/action.md, "Shards: one suite over a CI matrix"). Two runs of which one does not say its
 * suite reach the merge only with a dir input outside the repository (ownSuiteResults gives such a
 * record the step's suite otherwise): the suite's folder as dir reads them as one run given twice;
 * else one artifact is downloaded, not both. A re-run beside the run it re-ran: one of their artifacts.
 * A record of part of the suite is said to be the CLI's run's, whose flags made it.
 */
const REPORT_MERGE_FIXES: MergeFixes = {
  oneOfTwo: (later) =>
    `report one of them: give this step the suite's folder in the repository as dir (its check step's), where a record without suitePath is a run of that suite and the one that started last is used, or download one of their artifacts only (narrow the download step's pattern, or the results input, to it): for a re-run, the one that started last, ${later}`,
  rerunBeside: "report one record of each run: download the run's artifact or the re-run's, not both (narrow the download step's pattern, or the results input, to it)",
  // No input of the Action replays part of the suite: such a record was made by the CLI's run.
  part: (flags) => `by the CLI's run ${flags}`,
  shardsOnly: "download the whole run's artifacts or the shards', not both: in the download step, pattern: agent-replay-results-<commit>?(-attempt-*) (init's) takes the whole runs only, agent-replay-results-<commit>-shard-* the shards only",
  wholeShard: (shard) => `re-run the shard's job, whose artifact holds the whole shard (or replay it whole with the CLI's run --shard ${shard}, without --rerun or --only)`,
};

/**
 * The step's records merged as one run (mergeRecords), a refusal's fix in report mode's terms.
 * The records' own suite edits are not read (reportMode reads GitHub's), nor compared across shards.
 */
export function mergeReportResults(kept: readonly ReadResults[], log: (line: string) => void): RunRecord {
  return mergeRecords(
    kept.map(({ record: { suiteEdits: _recorded, ...record } }) => record),
    kept.map((r) => r.file),
    log,
    REPORT_MERGE_FIXES,
  );
}

/** The log's line on what the step merged: "combined 2 results files, 1,200 fixtures, 3 persona scripts", the counts grouped. */
export function combinedWords(files: number, merged: Pick<RunRecord, 'fixtures' | 'personas'>): string {
  const personas = merged.personas.length > 0 ? `, ${plural(merged.personas.length, 'persona script', 'persona scripts')}` : '';
  return `combined ${plural(files, 'results file', 'results files')}, ${plural(merged.fixtures.length, 'fixture', 'fixtures')}${personas}`;
}

/**
 * With a dir input that is no folder inside the repository, no record can be told to be the
 * step's: records of two or more suites (mixedSuites, the check the CLI's `report` makes) are
 * refused rather than merged as one run, naming each file's suite and the fix, a report step per
 * suite with its folder as dir and its artifacts only (docs/action.md, "Two suites in one repository").
 */
function refuseMixedSuites(read: readonly ReadResults[], dir: string): void {
  const mixed = mixedSuites(
    read.map((r) => r.record),
    read.map((r) => r.file),
    shown,
  );
  if (mixed === null) return;
  const steps = mixed.suites.map(({ suite }) => `dir: ${shown(suite)} with pattern: ${resultsArtifactsPattern(suite, '<commit>')}`).join(', then ');
  const loose = mixed.unnamed.length === 0 ? '' : ` (${mixed.unnamed.map(shown).join(', ')} ${mixed.unnamed.length === 1 ? 'does' : 'do'} not say ${mixed.unnamed.length === 1 ? 'its' : 'their'} suite: ${mixed.unnamed.length === 1 ? 'it goes' : 'they go'} with the step whose pattern downloads ${mixed.unnamed.length === 1 ? 'it' : 'them'})`;
  throw new UserError(
    `report mode: the results files are runs of ${mixed.suites.length} suites (their suitePath): ${mixed.which}. A report is of one suite, and these would be merged as one run, so they were not merged: ` +
      `this step's dir input, ${shown(dir)}, is no folder inside the repository, so none of them can be told to be its suite. Report each suite in its own step, with its folder as dir (its check step's) and its results artifacts only: ${steps}${loose}`,
  );
}

/**
 * The download pattern of the step's own suite, in words: the suite's folder when it is not the
 * default one, and the commit, which ends it. Without the commit, the default folder's
 * `agent-replay-results-*` takes every suite's, and a folder's another's whose folder's name goes on
 * from it (`apps/sales/.agent-replay-v2`) (docs/action.md, "Two suites in one repository").
 */
function ownPatternWords(dir: string): string {
  const suite = suiteName(dir);
  const broad = resultsArtifactsPattern(dir, '');
  const why =
    suite === null
      ? `the default folder's artifacts are named by the commit alone, and ${broad} takes every suite's`
      : `the commit ends the folder's name, and ${broad} also takes the artifacts of a folder whose name goes on from this one's (${shown(`${suite}-v2`)})`;
  return `pattern: ${resultsArtifactsPattern(dir, '<commit>')}, the commit the runs recorded, such as ${resultsArtifactsPattern(dir, '${{ github.event.workflow_run.head_sha }}')}: ${why}`;
}

/**
 * The suite folder in the repository whose edits the pull request is compared for (docs/action.md,
 * "Report: combine shards, or comment for a fork"): the dir input, also written as an absolute path
 * inside the workspace (`${{ github.workspace }}/.agent-replay`). Only a dir input outside the
 * workspace takes the records' `suitePath`, and never a fork's: its run writes its records, and a
 * `suitePath` naming another folder would compare nothing and read as no edit. `refused` then says why.
 */
export function reportSuiteDir(dir: string, cwd: string, recorded: string | undefined, fork: boolean): { dir: string | null; refused: string | null } {
  const abs = resolve(cwd, dir);
  const inside = relative(cwd, abs);
  const own = suiteRepoPath(undefined, isAbsolute(inside) ? inside : inside.split(sep).join('/') || '.');
  if (own !== null) return { dir: own, refused: null };
  if (!fork) return { dir: recorded ?? null, refused: null };
  const named = recorded === undefined ? 'the fork\'s records name none' : `the suite folder a fork's records name (${shown(recorded)}) is the fork's to write`;
  return { dir: null, refused: `this step's dir input, ${shown(dir)}, is no folder of the repository, and ${named}: give dir the suite folder in the repository, as its check step does` };
}

/** What a workflow_run event says about the run it reports: its head commit and repository (GitHub's, not the artifact's), and the run in words ("workflow run 1001"). */
function workflowRunHead(ctx: ActionContext): { sha: string; repo: string | null; run: string; id: number | null } | null {
  if (ctx.eventName !== 'workflow_run') return null;
  const run = ctx.payload.workflow_run;
  if (run === null || typeof run !== 'object') return null;
  const { head_sha: sha, head_repository: headRepo, id } = run as { head_sha?: unknown; head_repository?: unknown; id?: unknown };
  if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/i.test(sha)) return null;
  const repo = headRepo !== null && typeof headRepo === 'object' ? (headRepo as { full_name?: unknown }).full_name : undefined;
  const runId = typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
  return { sha: sha.toLowerCase(), repo: typeof repo === 'string' && repo !== '' ? repo : null, run: runId !== null ? `workflow run ${runId}` : 'workflow run', id: runId };
}

/**
 * The log's line when records that name no commit are reported, on workflow_run, as of the head
 * commit of the run GitHub says completed (`workflow_run.head_sha`): the event's, never a file's.
 */
function runCommitWords(head: { sha: string; run: string }): string {
  return `the results name no commit they were recorded at: they are reported as of ${head.sha.slice(0, 7)}, the commit the ${head.run} ran on (the event's workflow_run.head_sha, never a results file's)`;
}

/**
 * The pull request to comment on: the event's own, else the pr-number input, else the one a
 * workflow_run names, else (a fork's, which workflow_run does not name) the open one of the run's
 * head branch and repository (pullOfRunBranch). Both
 * pr-number (read from the artifact a fork's run uploaded) and the records are the fork's to write,
 * so a pull request found this way gets the comment only when its head is the commit the records
 * show, and on workflow_run also the head commit and repository of the run GitHub says it reports
 * (docs/action.md, "Report: combine shards, or comment for a fork"). Otherwise `refused` says why;
 * `elsewhere` when, on workflow_run, its head is the run's and the records name another commit.
 */
export async function pullForReport(
  prNumber: number | null,
  ctx: ActionContext,
  run: Pick<RunRecord, 'commit'>,
  deps: Pick<ActionDeps, 'github'>,
  noCommit = NO_COMMIT,
): Promise<{ ctx: ActionContext; refused: string | null; noCommit?: true; elsewhere?: true }> {
  if (ctx.pull !== null) return { ctx, refused: null };
  const fromRun = (ctx.payload.workflow_run as { pull_requests?: { number?: unknown }[] } | undefined)?.pull_requests?.[0]?.number;
  if (deps.github === null) return { ctx, refused: null };
  const number = prNumber ?? (typeof fromRun === 'number' ? fromRun : await pullOfRunBranch(ctx, deps.github));
  if (number === null) return { ctx, refused: null };
  let read;
  try {
    read = await deps.github.getPull(ctx.owner, ctx.repo, number);
  } catch (e) {
    // Where the job goes on without it: a warning in words, and the merged results still saved,
    // summarized and uploaded (docs/action.md, "GitHub's rate limits").
    if (!isGitHubError(e)) throw e;
    const unread: PullContext = { number, headSha: '', headRef: '', headRepoFullName: null, baseRepoFullName: `${ctx.owner}/${ctx.repo}`, baseSha: null, isFork: false, labels: [] };
    return { ctx: { ...ctx, pull: unread }, refused: `the pull request could not be read: ${gitHubFailure(e, 'pull-requests: read')}` };
  }
  const { state: _state, ...pull } = read;
  const found: ActionContext = { ...ctx, pull: { ...pull, labels: [] } };
  const short = (sha: string | null) => (sha === null ? 'an unknown commit' : sha.slice(0, 7));
  const head = workflowRunHead(ctx);
  if (head !== null && (pull.headSha.toLowerCase() !== head.sha || (head.repo !== null && pull.headRepoFullName?.toLowerCase() !== head.repo.toLowerCase()))) {
    const where = head.repo !== null ? ` of ${head.repo}` : '';
    const now = `${short(pull.headSha)}${pull.headRepoFullName && head.repo !== null ? ` of ${pull.headRepoFullName}` : ''}`;
    return { ctx: found, refused: `its head is ${now}, but the ${head.run} ran on ${short(head.sha)}${where} (another pull request, or a head that moved since: the check of the new head reports it)` };
  }
  // No commit to hold its head to: never posted, whatever the event (pr-number and the records may be a fork's to write).
  if (run.commit === null) return { ctx: found, refused: `${noCommit}: nothing shows that they are of its head, ${short(pull.headSha)}`, noCommit: true };
  if (run.commit.toLowerCase() !== pull.headSha.toLowerCase()) {
    // On workflow_run its head is the run's: the newest commit's run recorded its results at another commit (recordedElsewhere).
    return { ctx: found, refused: `its head is ${short(pull.headSha)}, but the results were recorded at ${short(run.commit)}`, ...(head !== null ? { elsewhere: true as const } : {}) };
  }
  return { ctx: found, refused: null };
}

/**
 * The pull request of a workflow_run that does not name it (a fork's: its pull_requests is empty)
 * and was given no pr-number (a CLI run's artifact holds no pr-number file): the open pull request
 * whose head is the run's head branch in the run's head repository, both GitHub's, never an
 * artifact's; pullForReport then holds it to the run's head commit as any other. null when there
 * is none, when there are several (one branch into two base branches, said with the fix), or when
 * GitHub did not answer (a warning) (docs/action.md, "Report: combine shards, or comment for a fork").
 */
async function pullOfRunBranch(ctx: ActionContext, github: NonNullable<ActionDeps['github']>): Promise<number | null> {
  const head = workflowRunHead(ctx);
  // Another event has no workflow_run (a push's matrix merge job): nothing to look up.
  const branch = (ctx.payload.workflow_run as { head_branch?: unknown } | undefined)?.head_branch;
  if (head === null || head.repo === null || typeof branch !== 'string' || branch === '') return null;
  // The branch is the fork's to name (GitHub's ref rules keep control characters out): shown as text all the same.
  const [headOwner = ''] = head.repo.split('/');
  let pulls;
  try {
    pulls = await github.listOpenPullsForBranch(ctx.owner, ctx.repo, branch, headOwner);
  } catch (e) {
    if (!isGitHubError(e)) throw e;
    log.warning(`comment: the pull request of the ${head.run} (branch ${shown(branch)} of ${shown(head.repo)}) could not be looked up: ${gitHubFailure(e, 'pull-requests: read')}. Give pr-number to name it`);
    return null;
  }
  const own = pulls.filter((p) => p.headRepoFullName?.toLowerCase() === head.repo?.toLowerCase());
  if (own.length <= 1) return own[0]?.number ?? null;
  log.info(`comment: the ${head.run} ran on branch ${shown(branch)} of ${shown(head.repo)}, the head of ${own.length} open pull requests (${own.map((p) => `#${p.number}`).join(', ')}): give pr-number to name the one to comment on`);
  return null;
}

/** Why pullForReport has no commit to hold a pull request's head to, of a run's results: they name none. */
const NO_COMMIT = 'the results name no commit they were recorded at (a run outside a git repository, given no --commit)';

/**
 * The failure when a comment was asked for (the comment input) on a pull request found by
 * pr-number, and the results name no commit to hold its head to (pullForReport's `noCommit`; on
 * workflow_run the run's head commit is taken, reportMode): it is never posted, and so it is an
 * error with the fix rather than a warning beside a passed check (docs/action.md, "Report: combine
 * shards, or comment for a fork").
 */
export function noCommitWords(number: number, refused: string, where: string): string {
  return (
    `comment: not posted on #${number}: ${refused}. A pull request found by pr-number gets the comment only when its head is the commit the results were recorded at (or, on workflow_run, when they name none, the commit the run ran on), since pr-number and the records may be a fork's to write. ` +
    `${RECORD_HEAD} ${where}`
  );
}

/** The fix when the results name no commit, or another than the pull request's head: record its head with them. */
const RECORD_HEAD =
  "Record the pull request's head commit with the results: replay in the pull request's own job (on its pull_request event the Action's check mode and the CLI's run record the head the event names), " +
  "or give run --commit SHA, its head commit (not the merge commit a pull_request job checks out, which is no pull request's head).";

/**
 * On workflow_run, the run of the pull request's newest commit whose results name another commit
 * (pullForReport's `elsewhere`: the merge commit a pull_request job checks out, given as the CLI's
 * --commit): they are not reported on it, and when its comment reports an older commit, a line at
 * its top says that the newest one has no results, and why (sayNoResults; docs/action.md, "Report:
 * combine shards, or comment for a fork"), rather than leave the older report there, named only in
 * its footer, with a warning in the job's log alone. `recorded` is the records' commit.
 */
async function recordedElsewhere(inputs: Inputs, ctx: ActionContext, found: { ctx: ActionContext; elsewhere?: true }, recorded: string | null, github: ActionDeps['github']): Promise<void> {
  const runHead = workflowRunHead(ctx);
  if (found.elsewhere !== true || runHead === null) return;
  await sayNoResults(publishSettings(inputs), found.ctx, runHead.sha, { id: runHead.id, url: runUrl(ctx, runHead.id), how: 'elsewhere', recorded }, github);
}

/**
 * A refused merge (shards run with different repeats, at different commits, overlapping; two
 * suites' runs) still says so on the pull request: the one comment, posted or updated, and the job
 * summary, with the refusal's words and the fix (renderMergeRefused), rather than a red check and
 * nothing there (docs/action.md, "Shards: one suite over a CI matrix"). The pull request is the
 * event's own, or one found as the report's is (pullForReport), whose head must be the commit every
 * record names, or, when they name none, on workflow_run the run's: the records and pr-number are
 * a fork's to write. The job then fails with the refusal.
 */
export async function postMergeRefused(reason: string, read: readonly ReadResults[], inputs: Inputs, ctx: ActionContext, deps: ActionDeps, unread = 0): Promise<void> {
  // The refusal fails the job whatever its comment meets.
  await postRefusal(reason, read, inputs, ctx, deps, unread).catch((failure: unknown) => log.warning(`comment: the refusal was not posted: ${terminalLine(failure instanceof Error ? failure.message : String(failure))}`));
}

async function postRefusal(reason: string, read: readonly ReadResults[], inputs: Inputs, ctx: ActionContext, deps: ActionDeps, unread: number): Promise<void> {
  const commits = [...new Set(read.map((r) => r.record.commit))];
  // Records that name no one commit (none read, or a merge refused for their different commits):
  // on workflow_run, the commit GitHub says the run reported (pullForReport holds the pull request
  // to it, and to its head repository), never a file's.
  const commit = (commits.length === 1 ? commits[0] : undefined) ?? workflowRunHead(ctx)?.sha ?? null;
  const none = read.length === 0 ? 'no results file was read, so none names the commit the results were recorded at' : commits.length > 1 ? 'the results files were not all recorded at one commit' : undefined;
  const found = await pullForReport(inputs.prNumber, ctx, { commit }, deps, none);
  const here = found.refused === null ? found.ctx : { ...found.ctx, pull: null };
  const readOnlyToken = readOnlyTokenOf(ctx);
  const out = publisher(publishSettings(inputs), ctx, deps);
  const at = { ...here, sha: commit ?? ctx.sha };
  const shards = read.some((r) => r.record.shard !== undefined || r.record.incomplete != null);
  const wholeBeside = shards && read.some((r) => r.record.shard === undefined && r.record.incomplete == null);
  const body = renderMergeRefused(reason, out.reportContext(at, null), { shards, files: read.length, unread, wholeBeside });
  await out.summary(body);
  if (found.refused !== null) log.warning(`comment: not posted on #${found.ctx.pull?.number ?? '?'}: ${found.refused}.${found.elsewhere === true ? ` ${RECORD_HEAD}` : ''} ${out.refusalWhere()}.`);
  core.setOutput('gate', 'failed');
  core.setOutput('verified', 'false');
  await recordedElsewhere(inputs, ctx, found, commit, deps.github);
  // A fork's pull_request run (a matrix's merge job) has a read-only token: one line says the report workflow comments, as check mode's.
  if (here.pull !== null) return out.comment(body, { at: here, readOnlyToken, refusal: true });
  // The publisher's line would say the results are in the job summary: here nothing was merged.
  core.setOutput('comment-status', 'skipped');
  if (inputs.comment && found.refused === null) log.info(`comment: no pull request to comment on. ${out.refusalWhere()}`);
}

/**
 * No results file to read, of the run a workflow_run reports (its jobs failed before they uploaded
 * their results, or were skipped) or of this run's shards: when the pull request's comment reports
 * an older commit, a line at its top says that the newest one has no results (sayNoResults;
 * docs/action.md, "Report: combine shards, or comment for a fork"). The pull request is found as a
 * report's is and held to the run's head commit and repository, GitHub's, never an artifact's: one
 * whose head moved since gets nothing (the newer head's run reports it).
 */
async function noResultsOnPull(inputs: Inputs, ctx: ActionContext, deps: ActionDeps): Promise<void> {
  // A fork's pull_request run (a matrix's merge job) writes nothing: its token is read-only, and the report workflow writes the line.
  if (!inputs.comment || deps.github === null || readOnlyTokenOf(ctx)) return;
  const runHead = workflowRunHead(ctx);
  const head = runHead?.sha ?? ctx.pull?.headSha.toLowerCase() ?? null;
  if (head === null || !/^[0-9a-f]{40}$/.test(head)) return;
  const found = await pullForReport(inputs.prNumber, ctx, { commit: head }, deps);
  if (found.refused !== null || found.ctx.pull === null) return;
  const id = runHead !== null ? runHead.id : ctx.runId;
  await sayNoResults(publishSettings(inputs), found.ctx, head, { id, url: runUrl(ctx, id), how: 'none' }, deps.github);
}

/** A workflow run's page on GitHub, by its id; null without one. */
const runUrl = (ctx: Pick<ActionContext, 'serverUrl' | 'owner' | 'repo'>, id: number | string | null): string | null => (id === null ? null : `${ctx.serverUrl}/${ctx.owner}/${ctx.repo}/actions/runs/${id}`);

export async function reportMode(inputs: Inputs, ctx: ActionContext, deps: ActionDeps): Promise<void> {
  if (inputs.results.length === 0) throw new UserError('report mode needs the results input: one results file, folder or pattern per line');
  const expanded = await expandResults(inputs.results, deps.cwd);
  const none = noResultsWords(inputs.results, expanded, inputs.dir);
  if (none !== null) {
    // The step fails with its own error, whatever the line meets.
    await noResultsOnPull(inputs, ctx, deps).catch((failure: unknown) => log.warning(`comment: the line saying that the newest commit has no results was not added: ${terminalLine(failure instanceof Error ? failure.message : String(failure))}`));
    throw new UserError(none);
  }
  const all = await readResults(expanded.files, deps.cwd);
  const read = all.read;
  // A record's items that read as written though a run now stores them otherwise: said once per file (docs/results-json.md, "Records of an older agent-replay").
  for (const r of read) {
    const note = olderRecordNote(r.record, r.file);
    if (note !== null) log.warning(note);
  }
  // Another suite's file that cannot be read is set aside, with a warning; one of this suite's, or
  // one that cannot be told to be another's, is refused as a merge is, with the one comment (postMergeRefused).
  const { aside, unread } = otherSuitesUnread(all.unread, inputs.dir);
  for (const a of aside) log.warning(asideWords(a, inputs.dir));
  const notRead = unreadWords(unread, read.length);
  if (notRead !== null) {
    await postMergeRefused(notRead, read, inputs, ctx, deps, unread.length);
    throw new UserError(notRead);
  }
  // Another suite's records, downloaded beside this suite's (the default suite's pattern takes
  // them), are skipped with a line in the log (docs/action.md, "Two suites in one repository").
  let kept: ReadResults[];
  let merged: RunRecord;
  try {
    if (read.length === 0) throw new UserError(onlyAsideWords(aside, inputs.dir));
    const own = ownSuiteResults(read, inputs.dir);
    kept = own.kept;
    for (const s of own.skipped) {
      log.info(`report: skipped ${shown(s.file)}: it is a run of the suite in ${shown(s.suitePath)} (its suitePath), not of ${shown(suiteRepoPath(undefined, inputs.dir) ?? inputs.dir)}, this step's dir input; that suite's own report step reports it`);
    }
    merged = mergeReportResults(kept, (line) => log.info(`report: ${line}`));
  } catch (e) {
    // With every file set aside, those are the files the refusal is of: none could be read.
    if (e instanceof UserError) await postMergeRefused(e.message, read, inputs, ctx, deps, read.length === 0 ? aside.length : 0);
    throw e;
  }
  // Records that name no commit, on workflow_run: reported as of the commit the run GitHub says
  // completed ran on, as a refused merge's comment is (postRefusal). pullForReport holds a pull
  // request to it, and to the run's head repository, as to a commit the records name: that one is
  // the fork's to write, as is leaving it out, so the event is what holds the comment to its pull
  // request either way. The record saved, its artifact's name and the comment's metadata carry it,
  // and the accept flow holds the reviewed head to it (docs/action.md, "Report: combine shards, or
  // comment for a fork").
  const runHead = merged.commit === null ? workflowRunHead(ctx) : null;
  if (runHead !== null) {
    log.info(`report: ${runCommitWords(runHead)}`);
    merged = { ...merged, commit: runHead.sha };
  }
  if (merged.incomplete != null) log.warning(`report: ${incompleteText(merged.incomplete)}${inputs.allowIncomplete ? ' (allow-incomplete: true, so the gate ignores it)' : ''}`);
  log.info(`report: ${combinedWords(kept.length, merged)}`);
  const found = await pullForReport(inputs.prNumber, ctx, merged, deps);
  // A refused pull request is not commented on, nor compared with its comment: its head is not this run's.
  const here = found.refused === null ? found.ctx : { ...found.ctx, pull: null };
  // What the pull request changed in its suite, as check mode says it (docs/action.md, "The PR
  // comment", "Suite edited"): read from GitHub here, at its base and at the commit the records
  // were made at, never taken from a record (a shard records none; a fork's run writes its own).
  // With comment: false GitHub is asked nothing of it.
  const suite = reportSuiteDir(inputs.dir, deps.cwd, merged.suitePath, here.pull?.isFork === true);
  const edits = await runSuiteEdits(
    inputs.comment ? deps.github : null,
    { ...here, sha: merged.commit },
    here.pull === null ? [] : [here.pull],
    suite.dir,
    (line) => log.warning(line),
  );
  // Not compared, and said: never read as a pull request that edits nothing.
  const notCompared = suite.refused !== null && inputs.comment && here.pull?.baseSha ? { base: here.pull.baseSha, fixtures: [], baselines: [], unknown: `${suite.refused}.` } : null;
  if (notCompared !== null) log.warning(`suite edits: ${notCompared.unknown}`);
  const runEdits = edits.run ?? notCompared;
  const run: RunRecord = runEdits === null ? merged : { ...merged, suiteEdits: runEdits };
  // The label the comment names: the accept workflow's, when this job checked it out (docs/action.md, "Accept: the label commits the reviewed replies").
  const acceptLabel = await commentAcceptLabel(inputs.acceptLabel, resolve(deps.cwd, inputs.dir));
  const out = publisher(publishSettings({ ...inputs, acceptLabel }), ctx, deps);
  const at = { ...here, sha: run.commit ?? ctx.sha };
  // What earlier runs say (docs/evaluations.md, "In the PR comment and job summary"), as in check
  // mode: the run the sticky comment shows now, and the default branch's trend. Read-only lookups
  // that never fail the job. Items of a missing shard are never "removed": compareRuns knows the
  // merge is incomplete. A fork's pull_request run (a read-only token) writes no comment, so, as a
  // fork's check, it reads none to compare with: the report workflow, which comments, compares.
  const gh = deps.github;
  const readOnlyToken = readOnlyTokenOf(ctx);
  const [previous, trend] =
    gh === null
      ? [null, null]
      : await Promise.all([inputs.comment && !readOnlyToken ? previousRun(gh, at, out.marker, run) : Promise.resolve(null), defaultBranchTrend(gh, at, run, suiteName(inputs.dir))]);
  // The merged record is this run's record: saved and uploaded like check mode's, so the
  // comment's metadata points at an artifact the accept flow can download, with the pr-number file
  // of the pull request it comments on, as a shard's holds its own, for a workflow_run report that
  // reads it (none of a pull request refused: its head is not this run's).
  // The gate before the reports, which say what it fails on that their headline does not (docs/action.md, "The PR comment", "A check that fails").
  const g = gateMerged(run, inputs.failOn, inputs.allowIncomplete);
  const { artifactName, uploaded } = await out.save(run, [...prNumberFile(here.pull), htmlReportFile(run, { ...out.reportContext(at, null), gate: g }, trend?.points)]);
  const rctx = { ...out.reportContext(at, artifactName, uploaded), previous, trend, gate: g };
  await out.summary(summaryWithNote('', run, rctx));
  // Said once the upload is known, so that it names the artifact only when there is one. A comment
  // that can never be posted (no commit to hold the pull request to) fails the job (noCommitWords).
  const failNoCommit = found.noCommit === true && inputs.comment;
  if (found.refused !== null && !failNoCommit) {
    log.warning(`comment: not posted on #${found.ctx.pull?.number ?? '?'}: ${found.refused}.${found.elsewhere === true ? ` ${RECORD_HEAD}` : ''} ${out.resultsWhere()}.`);
  }
  setRunOutputs(run, g);
  // A refused pull request has its warning (or failure) above: not also "no pull request to comment on".
  // A fork's pull_request run (a matrix's merge job) has a read-only token: nothing is written, and
  // one line says the report workflow comments (docs/action.md, "Check: replay on every pull request").
  if (found.refused === null) await out.comment(renderComment(run, rctx), { at: here, readOnlyToken });
  else core.setOutput('comment-status', 'skipped');
  await recordedElsewhere(inputs, ctx, found, run.commit, deps.github);
  if (failNoCommit) log.failed(noCommitWords(found.ctx.pull?.number ?? 0, found.refused ?? '', `${out.resultsWhere()}.`));
  if (g.failed) log.failed(`agent-replay gate failed: ${terminalLine(g.reason)}`);
}
