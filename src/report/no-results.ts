// The one line at the top of the comment when the pull request's newest commit has no results and
// the report below is an older commit's (docs/action.md, "The PR comment"): the commits are
// validated hex, the run's link is GitHub's, so nothing in it is another's to write.

import { safeUrl } from './escape.js';

/** The run that left no results: check mode's own run, or the run a workflow_run report was for. */
export interface NoResultsRun {
  /** Its workflow run id, when known. */
  id: number | string | null;
  /** Its page on GitHub, when known. */
  url: string | null;
  /** `stopped`: it failed before it reported any (check mode). `none`: the report step found none of it to read (report mode). */
  how: 'stopped' | 'none';
}

/**
 * "> The newest commit, `bbbbbbb`, has no results: [workflow run 1001](...) left none to report.
 * The report below is of `1111111`." `head` and `shown` are full commits.
 */
export function noResultsLine(head: string, shown: string, run: NoResultsRun): string {
  const url = safeUrl(run.url);
  const name = run.id !== null && /^[0-9]{1,20}$/.test(String(run.id)) ? `workflow run ${run.id}` : 'its run';
  const linked = url === null ? name : `[${name}](${url})`;
  const what = run.how === 'stopped' ? 'stopped before reporting any' : 'left none to report';
  return `> The newest commit, \`${head.slice(0, 7)}\`, has no results: ${linked} ${what}. The report below is of \`${shown.slice(0, 7)}\`.`;
}
