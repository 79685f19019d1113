// The comment and summary shown when report mode refuses to merge its results files (shards run
// with different repeats, at different commits, overlapping, two suites' runs ...): nothing is
// reported, and the pull request says why rather than show a red check alone (docs/action.md,
// "Shards: one suite over a CI matrix").

import type { ReportContext } from './context.js';
import { markerLine, metaLine } from './metadata.js';
import { suiteLine } from './blocks.js';
import { clip, escapeInline } from './escape.js';

/** The refusal's own words are the results files' (their names, a fork's to write): escaped, and clipped to this. */
const REASON_MAX = 3000;

/**
 * What the refused merge was given: the shards of a matrix (a record with `shard`, or a merge of
 * shards), or a check's runs that are no shards (a fork's run, as its `workflow_run` report
 * downloads it, with a re-run's attempts), and how many results files.
 */
export interface RefusedRecords {
  shards: boolean;
  files: number;
}

/** Where the results are, and what to run again, for the records at hand: "every shard" only of shards. */
function againLine(given: RefusedRecords): string {
  if (given.shards) return "Fix what it names, then run the check again (every shard, then this report): each shard's results are still in its own artifact.";
  const where = given.files === 1 ? "the run's results are still in its artifact" : "each run's results are still in its own artifact";
  return `Fix what it names, then run the check again, then this report: ${where}.`;
}

/**
 * The refusal in the comment's words: the marker and metadata (the commit the records name), the
 * suite when not the default one, what happened, the refusal's own words (untrusted: escaped) and
 * the fix, said of the records given (shards, or a check's runs). The job still fails with the
 * refusal (reportMode).
 */
export function renderMergeRefused(reason: string, ctx: Pick<ReportContext, 'marker' | 'headSha' | 'suite'>, given: RefusedRecords): string {
  const suite = suiteLine(ctx);
  return [
    markerLine(ctx.marker),
    metaLine({ headSha: ctx.headSha, runId: null, artifactName: null }),
    ...(suite === null ? [] : [suite, '']),
    '## agent-replay: results not merged',
    '',
    `**${given.files === 1 ? 'The results file could not be reported' : 'The results files could not be merged into one run'}**, so this commit has no report and the check failed:`,
    '',
    `> ${escapeInline(clip(reason, REASON_MAX))}`,
    '',
    againLine(given),
    '',
  ].join('\n');
}
