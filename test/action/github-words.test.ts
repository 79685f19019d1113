// What a failed GitHub call did, in words (src/action/github-words.ts): a deadline is said flat,
// without brackets inside brackets, and the advice comes last, after the caller's own words.

import { describe, expect, it } from 'vitest';
import { gitHubFailure, gitHubTrouble } from '../../src/action/github-words.js';
import { GitHubError } from '../../src/github/errors.js';

/** The detail src/github/octokit.ts gives a call GitHub did not answer in time. */
const LATE = "no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s): GitHub is slow or down; see https://www.githubstatus.com and re-run the job once it answers";

const late = (): GitHubError =>
  new GitHubError({ request: 'POST /graphql createCommitOnBranch', status: null, kind: 'network', detail: LATE, cause: new TypeError('fetch failed', { cause: new Error(LATE) }) });

/** The deepest nesting of round brackets in a text. */
function depth(text: string): number {
  let d = 0;
  let most = 0;
  for (const c of text) {
    if (c === '(') most = Math.max(most, ++d);
    if (c === ')') d--;
  }
  return most;
}

describe('gitHubTrouble and gitHubFailure on a deadline', () => {
  it('says what happened flat, without the advice, so that a message can go on after it', () => {
    const trouble = gitHubTrouble(late());
    expect(trouble).toBe("no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s)");
    // As the accept job's refusal builds it (src/action/accept.ts): the step follows what happened.
    expect(`${trouble} while committing the baselines`).toBe("no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s) while committing the baselines");
    expect(depth(trouble)).toBe(1);
  });

  it('a failure with its fix: the advice last, once', () => {
    const failure = gitHubFailure(late(), 'pull-requests: write');
    expect(failure).toBe("no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s): GitHub is slow or down: re-run the job once it answers (https://www.githubstatus.com)");
    expect(failure.match(/re-run/g)).toHaveLength(1);
    expect(depth(failure)).toBe(1);
  });

  it('a closed connection and a 502 keep their words, the re-run last', () => {
    const closed = new GitHubError({ request: 'GET /x', status: null, kind: 'network', detail: "GitHub's API closed the connection without answering (UND_ERR_SOCKET)", cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(gitHubFailure(closed, 'pull-requests: write')).toBe("GitHub's API closed the connection without answering (UND_ERR_SOCKET): re-run the job once GitHub answers (https://www.githubstatus.com)");
    const bad = new GitHubError({ request: 'GET /x', status: 502, kind: 'server', detail: 'Bad Gateway' });
    expect(gitHubFailure(bad, 'pull-requests: write')).toBe('GitHub answered 502 Bad Gateway: re-run the job once GitHub answers (https://www.githubstatus.com)');
  });
});
