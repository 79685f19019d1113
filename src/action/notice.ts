// The notice at the top of our comment, under its hidden marker and metadata lines, with the
// report below it kept as it is: the accept flow's refusal (docs/action.md, "Accept"), and the line
// that says the pull request's newest commit has no results, so the report below is an older
// commit's (docs/action.md, "The PR comment"). One notice at a time: a new one replaces the one there.

import type { GitHubApi, IssueComment } from '../github/api.js';
import { findStickyComment } from '../github/sticky.js';
import { hasMarker, parseCommentMetadata } from '../report/index.js';
import { noResultsLine, type NoResultsRun } from '../report/no-results.js';

const NOTICE_START = '<!-- agent-replay:notice -->';
export const NOTICE_END = '<!-- /agent-replay:notice -->';
/** GitHub's time of a change, as its REST API gives it (to the second; to the millisecond is kept too). */
const GITHUB_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
/**
 * A notice's opening line. It carries when the report under it was last written (`report-updated`,
 * GitHub's time), so that the notice, the comment's newest change, does not pass for the report's
 * (docs/action.md, "Accept"). Without a time (none known, or older notices): NOTICE_START.
 */
function noticeOpen(reportUpdatedAt: string | null): string {
  return reportUpdatedAt !== null && GITHUB_TIME.test(reportUpdatedAt) ? `<!-- agent-replay:notice report-updated=${reportUpdatedAt} -->` : NOTICE_START;
}
/** A notice's opening line, with its time when it has one, at the start of `text`. */
const NOTICE_OPEN = /^<!-- agent-replay:notice(?: report-updated=(\S+))? -->(?:\n|$)/;
/** The longest opening line a notice is written with (the time to the millisecond). */
export const NOTICE_START_MAX = noticeOpen('0000-00-00T00:00:00.000Z');

/** A comment's hidden marker and metadata lines (its head), and what follows them, leading blank lines dropped. */
function splitHead(body: string): { head: string[]; rest: string } {
  const lines = body.split('\n');
  let headCount = 0;
  if ((lines[0] ?? '').startsWith('<!-- agent-replay:marker=')) {
    headCount = (lines[1] ?? '').startsWith('<!-- agent-replay:meta ') ? 2 : 1;
  }
  return { head: lines.slice(0, headCount), rest: lines.slice(headCount).join('\n').replace(/^\n+/, '') };
}

/**
 * Puts a notice right under the hidden marker and metadata lines, keeping them (the marker alone
 * with `dropMetadata`) and the report below, and replacing the notices already there (only at that
 * place: a notice-like text inside the report is left alone).
 */
export function withNotice(body: string, notice: string, reportUpdatedAt: string | null = null, dropMetadata = false): string {
  const split = splitHead(body);
  if (dropMetadata) split.head = split.head.slice(0, 1);
  let rest = split.rest;
  while (NOTICE_OPEN.test(rest)) {
    const end = rest.indexOf(NOTICE_END);
    if (end < 0) break;
    rest = rest.slice(end + NOTICE_END.length).replace(/^\n+/, '');
  }
  return [...split.head, noticeOpen(reportUpdatedAt), notice, NOTICE_END, '', rest].join('\n');
}

/**
 * When the report a comment shows was last written: its updated_at, unless it opens with a notice
 * of ours (an accept job, or a run that left no results, wrote that last and left the report as it was), whose own line says when
 * the report under it was written; null for an older notice that does not say.
 */
export function reportUpdatedAt(comment: Pick<IssueComment, 'body' | 'updated_at'>): string | null {
  const open = NOTICE_OPEN.exec(splitHead(comment.body).rest);
  if (open === null) return comment.updated_at;
  const time = open[1] ?? null;
  return time !== null && GITHUB_TIME.test(time) ? time : null;
}

/** What noteNoResults did, for the log: the comment's URL and the commit its report is of, or why it left the comment alone. */
export type NoResultsNoted = { kind: 'noted' | 'already'; url: string; shown: string } | { kind: 'none' | 'current' | 'moved' };

/**
 * Says at the top of the pull request's comment that `head`, its newest commit, has no results,
 * when the comment reports another commit (docs/action.md, "The PR comment"): a run that failed
 * before it wrote its results (check mode), or left none for the report step to read (report mode),
 * would otherwise leave the older commit's report under the newer commit, named only in its
 * footer. The report and its hidden metadata are kept (the accept flow reads them, and refuses
 * them for a head they are not of). Nothing is written when there is no comment of ours, when it
 * reports `head` already, or when `head` is no longer the pull request's head (asked after the
 * comment is read: the run of the newer head reports it). A later run's report replaces the line
 * with the whole comment. GitHub's failures are thrown.
 */
export async function noteNoResults(
  github: GitHubApi,
  at: { owner: string; repo: string; pull: number; marker: string; formerMarker?: string },
  head: string,
  run: NoResultsRun,
): Promise<NoResultsNoted> {
  const [viewer, { comments }] = await Promise.all([github.viewerLogin(), github.listIssueComments(at.owner, at.repo, at.pull)]);
  const ours = findStickyComment(comments, viewer, at.marker, hasMarker) ?? (at.formerMarker === undefined ? null : findStickyComment(comments, viewer, at.formerMarker, hasMarker));
  if (ours === null) return { kind: 'none' };
  const shown = parseCommentMetadata(ours.body)?.headSha ?? null;
  const newest = head.toLowerCase();
  if (shown === null || shown === newest) return { kind: 'current' };
  const pull = await github.getPull(at.owner, at.repo, at.pull);
  if (pull.headSha.toLowerCase() !== newest) return { kind: 'moved' };
  const body = withNotice(ours.body, noResultsLine(newest, shown, run), reportUpdatedAt(ours));
  if (body === ours.body) return { kind: 'already', url: ours.html_url, shown };
  const updated = await github.updateComment(at.owner, at.repo, ours.id, body);
  return { kind: 'noted', url: updated.html_url, shown };
}
