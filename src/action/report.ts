// Report mode: combine recorded results (the shards of a matrix, or a fork PR's run downloaded by
// a workflow_run workflow) and post the comment and summary, without replaying anything.

import * as core from '@actions/core';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Inputs } from './inputs.js';
import type { ActionContext } from './context.js';
import type { ActionDeps } from './deps.js';
import { htmlReportFile, publisher, publishSettings, setRunOutputs, writeSummary } from './publish.js';
import { defaultBranchTrend, previousRun } from './history.js';
import { mergeRecords, readRecord } from '../record/index.js';
import { renderComment, renderSummary, oneLine } from '../report/index.js';
import { gateMerged, incompleteText } from '../evaluate/index.js';
import type { RunRecord } from '../types.js';
import { UserError } from '../errors.js';

/** Expands each line of the results input: a file, a folder (every results.json below it), or a `*` pattern in the last segment. */
async function expandResults(patterns: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.json')) out.push(p);
    }
  };
  for (const pattern of patterns) {
    const abs = resolve(cwd, pattern);
    if (abs.includes('*')) {
      const dir = dirname(abs);
      const re = new RegExp(`^${basename(abs).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      for (const name of (await readdir(dir)).sort()) if (re.test(name)) out.push(join(dir, name));
    } else {
      try {
        await walk(abs);
      } catch {
        out.push(abs);
      }
    }
  }
  return [...new Set(out)];
}

/**
 * The pull request to comment on: the event's own, else the pr-number input, else the one a
 * workflow_run names. A fork's pull request is not named by workflow_run: pass pr-number.
 */
async function pullForReport(prNumber: number | null, ctx: ActionContext, deps: ActionDeps): Promise<ActionContext> {
  if (ctx.pull !== null) return ctx;
  const fromRun = (ctx.payload.workflow_run as { pull_requests?: { number?: unknown }[] } | undefined)?.pull_requests?.[0]?.number;
  const number = prNumber ?? (typeof fromRun === 'number' ? fromRun : null);
  if (number === null || deps.github === null) return ctx;
  const { state: _state, ...pull } = await deps.github.getPull(ctx.owner, ctx.repo, number);
  return { ...ctx, pull: { ...pull, labels: [] } };
}

export async function reportMode(inputs: Inputs, ctx: ActionContext, deps: ActionDeps): Promise<void> {
  if (inputs.results.length === 0) throw new UserError('report mode needs the results input: one results file, folder or pattern per line');
  const files = await expandResults(inputs.results, deps.cwd);
  if (files.length === 0) throw new UserError(`report mode: no results files match ${inputs.results.join(', ')}`);
  const records: RunRecord[] = [];
  for (const f of files) records.push(await readRecord(f));
  const run = mergeRecords(
    records,
    files.map((f) => relative(deps.cwd, f) || f),
    (line) => core.info(`report: ${line}`),
  );
  if (run.incomplete != null) core.warning(`report: ${incompleteText(run.incomplete)}${inputs.allowIncomplete ? ' (allow-incomplete: true, so the gate ignores it)' : ''}`);
  core.info(`report: combined ${files.length} results ${files.length === 1 ? 'file' : 'files'}, ${run.fixtures.length} fixtures${run.personas.length ? `, ${run.personas.length} persona scripts` : ''}`);
  const here = await pullForReport(inputs.prNumber, ctx, deps);
  const out = publisher(publishSettings(inputs), ctx, deps);
  const at = { ...here, sha: run.commit ?? ctx.sha };
  // What earlier runs say (docs/evaluations.md, "In the PR comment and job summary"), as in check
  // mode: the run the sticky comment shows now, and the default branch's trend. Read-only lookups
  // that never fail the job. Items of a missing shard are never "removed": compareRuns knows the
  // merge is incomplete.
  const gh = deps.github;
  const [previous, trend] =
    gh === null
      ? [null, null]
      : await Promise.all([inputs.comment ? previousRun(gh, at, out.marker, run) : Promise.resolve(null), defaultBranchTrend(gh, at, run)]);
  // The merged record is this run's record: saved and uploaded like check mode's, so the
  // comment's metadata points at an artifact the accept flow can download.
  const { artifactName, uploaded } = await out.save(run, [htmlReportFile(run, out.reportContext(at, null), trend?.points)]);
  const rctx = { ...out.reportContext(at, artifactName, uploaded), previous, trend };
  await writeSummary(renderSummary(run, rctx));
  const g = gateMerged(run, inputs.failOn, inputs.allowIncomplete);
  setRunOutputs(run, g);
  await out.comment(renderComment(run, rctx), { at: here });
  if (g.failed) core.setFailed(`agent-replay gate failed: ${oneLine(g.reason)}`);
}
