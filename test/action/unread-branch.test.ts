// The refusal when a commit's answer was lost and the branch could not be read back either
// (src/action/accept.ts, unreadBranchText): what the read got is said after a colon, never in
// brackets around the brackets its own words end in.

import { describe, expect, it } from 'vitest';
import { unreadBranchText } from '../../src/action/accept.js';
import { GitHubError } from '../../src/github/errors.js';

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

const read = (kind: 'network' | 'server', detail: string, status: number | null = null): GitHubError =>
  new GitHubError({ request: 'POST /graphql agentReplayBranchHistory', status, kind, detail });
const what = "GitHub's API closed the connection without answering (UND_ERR_SOCKET) while committing the baselines";
const kept = 'The reviewed results are kept (workflow run 1001 and its results artifact)';

describe('unreadBranchText', () => {
  it('a closed connection, a deadline, a 502: what the read got follows a colon, and no bracket is inside another', () => {
    const closed = unreadBranchText(what, 'feature', read('network', "GitHub's API closed the connection without answering (UND_ERR_SOCKET)"), 'Accept agent-replay baselines: greeting', kept);
    expect(closed).toBe(
      "GitHub's API closed the connection without answering (UND_ERR_SOCKET) while committing the baselines, and the branch feature could not be read back: GitHub's API closed the connection without answering (UND_ERR_SOCKET). " +
        'Whether the commit landed is unknown. Look at the branch: if its newest commit is "Accept agent-replay baselines: greeting", the baselines are in and the next check compares with them; ' +
        'if not, nothing was written: re-run this job, or apply the label again. The reviewed results are kept (workflow run 1001 and its results artifact).',
    );
    const late = unreadBranchText(what, 'feature', read('network', "no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s): GitHub is slow or down; see https://www.githubstatus.com and re-run the job once it answers"), 'h', kept);
    // The deadline's advice is not said mid-sentence: the refusal's own fix comes last.
    expect(late).toContain("could not be read back: no answer from GitHub's API within 30 s (each of the 3 tries waits 30 s). Whether the commit landed is unknown.");
    const bad = unreadBranchText(what, 'feature', read('server', 'Bad Gateway', 502), 'h', kept);
    expect(bad).toContain('could not be read back: GitHub answered 502 Bad Gateway. Whether');
    for (const text of [closed, late, bad]) expect(depth(text)).toBe(1);
  });
});
