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
  /**
   * `stopped`: it failed before it reported any (check mode). `none`: the report step found none of
   * it to read (report mode). `elsewhere`: its results were recorded at another commit (report mode
   * on workflow_run, such as the merge commit a pull_request job checks out), so they are not reported.
   */
  how: 'stopped' | 'none' | 'elsewhere';
  /** Of `elsewhere`: the commit the results name, a file's to write, said only when it is a full commit. */
  recorded?: string | null;
}

/** What the run did, after its name: `recorded` is the results' commit, a file's to write, named only as a full commit. */
function whatRun(run: NoResultsRun): string {
  if (run.how === 'stopped') return 'stopped before reporting any';
  if (run.how === 'none') return 'left none to report';
  const at = run.recorded != null && /^[0-9a-f]{40}$/i.test(run.recorded) ? `\`${run.recorded.slice(0, 7).toLowerCase()}\`, another commit` : 'another commit';
  return `recorded its results at ${at}, so they are not reported`;
}

/**
 * "> The newest commit, `bbbbbbb`, has no results: [workflow run 1001](...) left none to report.
 * The report below is of `1111111`." (`... recorded its results at `ccccccc`, another commit, so
 * they are not reported.` of `elsewhere`). `head` and `shown` are full commits.
 */
export function noResultsLine(head: string, shown: string, run: NoResultsRun): string {
  const url = safeUrl(run.url);
  const name = run.id !== null && /^[0-9]{1,20}$/.test(String(run.id)) ? `workflow run ${run.id}` : 'its run';
  const linked = url === null ? name : `[${name}](${url})`;
  return `> The newest commit, \`${head.slice(0, 7)}\`, has no results: ${linked} ${whatRun(run)}. The report below is of \`${shown.slice(0, 7)}\`.`;
}
