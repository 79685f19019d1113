// The commit the suite was checked out at, read from its git repository, and whether it is the one
// the run is recorded at. On pull_request, actions/checkout without `ref` checks out GitHub's merge
// of the head into the base (refs/pull/N/merge); on pull_request_target, the base branch; on
// deployment_status, the default branch. A run of that tree recorded at the head would show the
// reviewer another suite than the head's, link lines of other files, and let accept-baseline
// commit baselines for it to the head's branch (docs/action.md, "Check: replay on every pull request").

import type { ActionContext } from './context.js';
import { runGit } from '../git-command.js';
import { docsUrl } from '../version.js';

export interface CheckedOut {
  sha: string;
  /** The commit's parents as its object names them (also in a shallow clone, which has not fetched them). */
  parents: string[];
}

/**
 * HEAD of the git repository holding `dir`; null when there is none (no git, not a repository, no
 * commit). `env`: the Action's (deps.env), which git runs with.
 */
export async function checkedOutCommit(dir: string, env: Record<string, string | undefined>): Promise<CheckedOut | null> {
  try {
    const opts = { env, timeoutMs: 10_000 };
    const sha = (await runGit(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], opts)).toString('utf8').trim().toLowerCase();
    if (!/^[0-9a-f]{40}$/.test(sha)) return null;
    const object = (await runGit(dir, ['cat-file', 'commit', sha], opts)).toString('utf8');
    const header = object.slice(0, object.indexOf('\n\n'));
    const parents = header.split('\n').filter((l) => l.startsWith('parent ')).map((l) => l.slice('parent '.length).trim().toLowerCase());
    return { sha, parents };
  } catch {
    return null;
  }
}

/** The `ref:` that checks out the commit an event's run is recorded at. */
function refFor(eventName: string): string {
  if (eventName === 'deployment_status') return 'ref: ${{ github.event.deployment.sha }}';
  return 'ref: ${{ github.event.pull_request.head.sha }}';
}

/**
 * Why the checkout is not the commit the run would be recorded at (ctx.sha), or null when it is
 * (or either is unknown). Only for the events whose commit is not GITHUB_SHA: a pull request's head
 * and a deployed commit (docs/action.md, "Events").
 */
export function checkoutMismatch(ctx: Pick<ActionContext, 'eventName' | 'sha' | 'pull' | 'deployment'>, checkedOut: CheckedOut | null): string | null {
  if (checkedOut === null || ctx.sha === null) return null;
  const expected = ctx.sha.toLowerCase();
  if (checkedOut.sha === expected) return null;
  const fromPull = ctx.pull !== null && ctx.pull.headSha.toLowerCase() === expected;
  const fromDeployment = ctx.deployment !== null && ctx.deployment.sha === expected;
  if (!fromPull && !fromDeployment) return null;
  const short = (s: string) => s.slice(0, 7);
  const what = fromPull ? `the pull request's head ${short(expected)}` : `the deployed commit ${short(expected)}`;
  const merge = fromPull && checkedOut.parents.length === 2 && checkedOut.parents[1] === expected;
  const which = merge ? ` (GitHub's merge of the pull request's head ${short(expected)} into its base, which actions/checkout checks out on pull_request without a ref)` : `, not ${what}`;
  return (
    `this job checked out ${short(checkedOut.sha)}${which}: its fixtures and baselines are not ${merge ? "the head's" : "that commit's"}, ` +
    `so the comment would show another suite than the one accept-baseline commits to; nothing was replayed. ` +
    `Check out ${what}: add "${refFor(ctx.eventName)}" under "with:" of the actions/checkout step (${docsUrl('action.md', 'Check: replay on every pull request')}).`
  );
}
