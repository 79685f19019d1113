// One sticky comment per pull request and marker: found by its hidden marker among ALL comments
// (every page), updated in place, created only when none of ours exists. A comment that carries
// our marker but was written by someone else is never touched: markers are easy to copy.

import { MAX_COMMENT_PAGES, type GitHubApi, type IssueComment } from './api.js';

/** The identity of a GITHUB_TOKEN, as REST reports the author of its comments. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

export interface StickyCommentInput {
  owner: string;
  repo: string;
  issueNumber: number;
  marker: string;
  body: string;
  /** Whether `body` carries `marker` (the report module's parser). */
  hasMarker: (body: string, marker: string) => boolean;
  /**
   * Asked about our comment before it is updated: a reason to leave it as it is (it reports a newer
   * run than `body` does), or null to update it.
   */
  keep?: (existing: IssueComment) => Promise<string | null>;
  /**
   * The marker our comment had before `marker` (a suite's key before it named the suite's folder):
   * with no comment under `marker`, ours under this one is updated, and so takes `marker`, rather
   * than left behind with a new one posted beside it.
   */
  formerMarker?: string;
}

export interface StickyCommentResult {
  /** `kept`: our comment was left as it is, for `reason`. */
  status: 'created' | 'updated' | 'kept';
  reason?: string;
  id: number;
  url: string;
}

/**
 * Whether `comment` was written by the token's identity. `viewer` is what GraphQL `viewer` said,
 * or null when unknown: then only the Actions bot counts. GraphQL names bots without the `[bot]`
 * suffix that REST uses, so both spellings are accepted for a Bot author.
 */
export function isOwnComment(comment: IssueComment, viewer: string | null): boolean {
  const user = comment.user;
  if (!user) return false;
  const login = user.login.toLowerCase();
  if (viewer === null) return user.type === 'Bot' && login === ACTIONS_BOT_LOGIN;
  const wanted = viewer.toLowerCase();
  if (login === wanted) return true;
  const strip = (name: string) => name.replace(/\[bot\]$/, '');
  return user.type === 'Bot' && strip(login) === strip(wanted);
}

/** Finds our comment with the marker (the oldest one if there are several). */
export function findStickyComment(
  comments: readonly IssueComment[],
  viewer: string | null,
  marker: string,
  hasMarker: (body: string, marker: string) => boolean,
): IssueComment | null {
  return comments.find((c) => isOwnComment(c, viewer) && hasMarker(c.body, marker)) ?? null;
}

/**
 * Why our comment cannot be told missing: the pull request has more comments than are read, and it
 * is not among those read (docs/action.md, "The PR comment").
 */
export function commentPastBound(issueNumber: number): string {
  const most = (MAX_COMMENT_PAGES * 100).toLocaleString('en-US');
  return `pull request #${issueNumber} has more than ${most} comments and agent-replay reads its oldest ${most} (where its comment is, written at the first check): its comment is not among them`;
}

export async function upsertStickyComment(api: GitHubApi, input: StickyCommentInput): Promise<StickyCommentResult> {
  const { owner, repo, issueNumber, marker, body, hasMarker } = input;
  const [viewer, { comments, more }] = await Promise.all([api.viewerLogin(), api.listIssueComments(owner, repo, issueNumber)]);
  const ours = findStickyComment(comments, viewer, marker, hasMarker) ?? (input.formerMarker === undefined ? null : findStickyComment(comments, viewer, input.formerMarker, hasMarker));
  // Not among the comments read, with more unread: a new one would land past them too, and be
  // posted again by every run; none is posted.
  if (ours === null && more) throw new Error(`${commentPastBound(issueNumber)}, so no new one was posted (each run would post another)`);
  if (ours) {
    const reason = input.keep ? await input.keep(ours) : null;
    if (reason !== null) return { status: 'kept', id: ours.id, url: ours.html_url, reason };
    try {
      const updated = await api.updateComment(owner, repo, ours.id, body);
      return { status: 'updated', id: updated.id, url: updated.html_url };
    } catch (error) {
      // Deleted between the listing and the update: fall through and create a new one.
      if (!(typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'not_found')) throw error;
    }
  }
  const created = await api.createComment(owner, repo, issueNumber, body);
  return { status: 'created', id: created.id, url: created.html_url };
}
