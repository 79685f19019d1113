// What a failed GitHub call did, said in words with what to do about it, for the warnings and
// refusals the Action prints: never the raw request line (`DELETE /repos/o/r/issues/5/labels/x →
// 403 ...`), which names an endpoint rather than the fix (docs/action.md, "GitHub's rate limits").

import { isGitHubError, networkWords, type GitHubError } from '../github/errors.js';
import { clip } from '../report/escape.js';

/**
 * GitHub's answer as the error's request line says it (its `answer`: `502 Bad Gateway`, `FORBIDDEN
 * Resource not accessible...`, `other: GraphQL error` for an answer with no status and no type), on
 * one line; or what became of the connection, in words (`GitHub's API closed the connection
 * without answering (UND_ERR_SOCKET)`), without the `network:` the request line puts before them.
 */
export function gitHubAnswer(e: GitHubError): string {
  if (e.kind === 'network') return clip(e.detail.replace(/\s+/g, ' '), 300) || 'no answer';
  return clip(e.answer.replace(/\s+/g, ' '), 300);
}

/**
 * A deadline's words (src/github/octokit.ts): what happened, "no answer from GitHub's API within 30 s
 * (each of the 3 tries waits 30 s)", without the advice the error's text ends in, which a message
 * says last, after its own words ("... while committing the baselines"); null for any other text.
 */
export function deadlineWords(detail: string): string | null {
  return /^(no answer from GitHub's API within [^(:]+\(each of the \d+(?:,\d{3})* tries waits [^)]+\))/.exec(detail)?.[1] ?? null;
}

/** What to do about GitHub that did not answer in time, said last. */
const SLOW_FIX = 'GitHub is slow or down: re-run the job once it answers (https://www.githubstatus.com)';

/**
 * What GitHub (or the connection to it) did, in words: "GitHub's API closed the connection without
 * answering (UND_ERR_SOCKET)" (a network error with a code, said in our words: src/github/errors.ts),
 * "no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s)" (no advice: a message
 * says its own words after these, and the fix last), "the connection to GitHub failed (fetch failed)",
 * "GitHub answered 502 Bad Gateway".
 */
export function gitHubTrouble(e: GitHubError): string {
  if (e.kind !== 'network') return `GitHub answered ${gitHubAnswer(e)}`;
  const late = deadlineWords(e.detail);
  if (late !== null) return late;
  return networkWords(e.cause) !== null ? gitHubAnswer(e) : `the connection to GitHub failed (${gitHubAnswer(e)})`;
}

/**
 * What a failed call did and the fix: for a 403, the permission the call needs (`pull-requests:
 * write`), to add to the workflow's `permissions:`; for a failure of GitHub itself, a re-run.
 * Anything that is not a GitHubError is said by its message.
 */
export function gitHubFailure(e: unknown, permission: string): string {
  if (!isGitHubError(e)) return e instanceof Error ? e.message : String(e);
  const trouble = gitHubTrouble(e);
  switch (e.kind) {
    case 'forbidden':
      return e.status === 401
        ? `${trouble}: the github-token input is not a valid token (expired, revoked or mistyped); give the job a valid one`
        : `${trouble}: the job's token lacks the ${permission} permission; add it to the workflow's permissions`;
    case 'not_found':
      return `${trouble}: it is gone, or the job's token cannot see it (a token without ${permission} gets a 404); add ${permission} to the workflow's permissions if it is missing`;
    case 'rate_limited':
      return `${trouble}: the job's token hit GitHub's rate limit; re-run the job once the limit resets`;
    case 'network':
    case 'server':
      return deadlineWords(e.detail) !== null && e.kind === 'network' ? `${trouble}: ${SLOW_FIX}` : `${trouble}: re-run the job once GitHub answers (https://www.githubstatus.com)`;
    default:
      return trouble;
  }
}
