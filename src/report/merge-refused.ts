// The comment and summary shown when report mode refuses to merge its results files (shards run
// with different repeats, at different commits, overlapping, two suites' runs, a file it cannot
// read ...): nothing is reported, and the pull request says why rather than show a red check alone (docs/action.md,
// "Shards: one suite over a CI matrix").

import type { ReportContext } from './context.js';
import { markerLine, metaLine } from './metadata.js';
import { suiteLine } from './blocks.js';
import { clipDetail, escapeDetail } from './escape.js';

/** The refusal's own words are the results files' (their names, a fork's to write): escaped, and clipped to this, a fix of ours at their end kept whole (clipDetail). */
const REASON_MAX = 3000;

/**
 * What the refused merge was given: the shards of a matrix (a record with `shard`, or a merge of
 * shards), or a check's runs that are no shards (a fork's run, as its `workflow_run` report
 * downloads it, with a re-run's attempts), and how many results files.
 */
export interface RefusedRecords {
  shards: boolean;
  /** The results files read. */
  files: number;
  /** The results files that could not be read (reportMode's unreadWords): nothing was merged for them. */
  unread?: number;
  /** A whole run's record (a matrix's merge job's) was given beside shards: the download step's pattern took both. */
  wholeBeside?: boolean;
}

/**
 * The fix when a results file could not be read, by what its refusal can name: a download cut off,
 * a file that is no results record, a record of a newer agent-replay; and where the results of the
 * files read are (docs/action.md, "Report: combine shards, or comment for a fork").
 */
function unreadLine(given: RefusedRecords & { unread: number }): string {
  const check = given.shards ? 'the check is run again (every shard, then this report)' : 'the check is run again, then this report';
  const kept =
    given.files === 0
      ? ''
      : ` The ${given.files === 1 ? 'file that was read is' : `${given.files} files that were read are`} not reported without ${given.unread === 1 ? 'it' : 'them'}: ${given.files === 1 ? 'its results are still in its artifact' : 'their results are still in their artifacts'}.`;
  return (
    `Fix what is wrong with ${given.unread === 1 ? 'it' : 'each'}, then run this report again: a file cut off in the download is read when this job is re-run, and one cut off in its artifact (at the upload) once ${check}; ` +
    "a file that is no results.json (another artifact downloaded with the results) is left out by a download pattern that takes the results artifacts only; a record written by a newer agent-replay is read by this step at that version (its `uses:`)." +
    kept
  );
}

/** Where the results are, and what to run again, for the records at hand: "every shard" only of shards; the download pattern when it took a whole run beside its shards. */
function againLine(given: RefusedRecords): string {
  if (given.wholeBeside) {
    return (
      "A whole run's record (a matrix's merge job's) was downloaded beside shards, which it holds: the fix is the download step's pattern, not the check. " +
      "Take one or the other: `pattern: agent-replay-results-<commit>?(-attempt-*)` (init's) takes the whole runs only, `agent-replay-results-<commit>-shard-*` the shards only (a suite in another folder names its folder before the commit). " +
      "Then run the check again (a re-run of this report reads its workflow as it was): each run's results are still in its own artifact."
    );
  }
  if (given.shards) return "Fix what it names, then run the check again (every shard, then this report): each shard's results are still in its own artifact.";
  const where = given.files === 1 ? "the run's results are still in its artifact" : "each run's results are still in its own artifact";
  return `Fix what it names, then run the check again, then this report: ${where}.`;
}

/** What happened, in bold: a file not read, one file not reported, or files not merged. */
function headline(given: RefusedRecords): string {
  if (given.unread) return given.unread === 1 ? 'A results file could not be read' : `${given.unread} results files could not be read`;
  return given.files === 1 ? 'The results file could not be reported' : 'The results files could not be merged into one run';
}

/** The heading: "results not merged" of two or more files, "results not reported" of one (there was nothing to merge). */
function heading(given: RefusedRecords): string {
  return `## agent-replay: results not ${given.files + (given.unread ?? 0) === 1 ? 'reported' : 'merged'}`;
}

/**
 * The refusal in the comment's words: the marker and metadata (the commit the records name), the
 * suite when not the default one, the heading (heading), what happened, the refusal's own words (untrusted: escaped) and
 * the fix, said of the records given (shards, or a check's runs). The job still fails with the
 * refusal (reportMode).
 */
export function renderMergeRefused(reason: string, ctx: Pick<ReportContext, 'marker' | 'headSha' | 'suite'>, given: RefusedRecords): string {
  const suite = suiteLine(ctx);
  return [
    markerLine(ctx.marker),
    metaLine({ headSha: ctx.headSha, runId: null, artifactName: null }),
    ...(suite === null ? [] : [suite, '']),
    heading(given),
    '',
    `**${headline(given)}**, so this commit has no report and the check failed:`,
    '',
    `> ${escapeDetail(clipDetail(reason, REASON_MAX))}`,
    '',
    given.unread ? unreadLine({ ...given, unread: given.unread }) : againLine(given),
    '',
  ].join('\n');
}
