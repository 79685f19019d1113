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
 * The refusal in the comment's words: the marker and metadata (the commit the records name), the
 * suite when not the default one, what happened, the refusal's own words (untrusted: escaped) and
 * the fix. The job still fails with the refusal (reportMode).
 */
export function renderMergeRefused(reason: string, ctx: Pick<ReportContext, 'marker' | 'headSha' | 'suite'>): string {
  const suite = suiteLine(ctx);
  return [
    markerLine(ctx.marker),
    metaLine({ headSha: ctx.headSha, runId: null, artifactName: null }),
    ...(suite === null ? [] : [suite, '']),
    '## agent-replay: results not merged',
    '',
    '**The results files could not be merged into one run**, so this commit has no report and the check failed:',
    '',
    `> ${escapeInline(clip(reason, REASON_MAX))}`,
    '',
    'Fix what it names, then run the check again (every shard, then this report): each shard\'s results are still in its own artifact.',
    '',
  ].join('\n');
}
