// Event planning for check mode: what an event asks for (nothing, or a run), which commit, which
// pull requests to comment on and, for a deployment, where the agent is.

import * as core from '@actions/core';
import type { Inputs } from './inputs.js';
import type { ActionContext, PullContext } from './context.js';
import type { GitHubApi } from '../github/api.js';
import { isGitHubError } from '../github/errors.js';
import { UserError } from '../errors.js';

/** The inputs event planning reads: an agent-url input wins over a deployment's URL, which agent-path extends. */
export type PlanInputs = Pick<Inputs, 'agentUrl' | 'agentPath'>;

/**
 * A workflow_dispatch names a branch, not a pull request (the accept flow dispatches the check
 * on the branch after its commit): the pull request is the open one whose head is that branch of
 * this repository. The replayed commit stays the one the workflow checked out (GITHUB_SHA).
 */
async function withDispatchedPull(github: GitHubApi | null, ctx: ActionContext): Promise<ActionContext> {
  const branch = ctx.ref?.startsWith('refs/heads/') ? ctx.ref.slice('refs/heads/'.length) : null;
  if (branch === null) {
    core.info(`workflow_dispatch on ${ctx.ref ?? 'an unknown ref'}: not a branch, so there is no pull request to comment on; the report is in the job summary`);
    return ctx;
  }
  if (github === null) {
    core.info(`workflow_dispatch on ${branch}: no github-token, so the pull request cannot be looked up; the report is in the job summary`);
    return ctx;
  }
  let pulls;
  try {
    pulls = await github.listOpenPullsForBranch(ctx.owner, ctx.repo, branch);
  } catch (e) {
    core.warning(`workflow_dispatch on ${branch}: the pull request could not be looked up (${isGitHubError(e) ? e.message : (e as Error).message}); the report is in the job summary and the artifact`);
    return ctx;
  }
  const pull = pulls[0];
  if (pull === undefined) {
    core.info(`workflow_dispatch on ${branch}: no open pull request has this branch as its head; the report is in the job summary and the artifact`);
    return ctx;
  }
  if (pulls.length > 1) core.info(`workflow_dispatch on ${branch}: ${pulls.length} open pull requests have this head; commenting on #${pull.number}`);
  const sha = ctx.sha ?? pull.headSha;
  if (sha !== pull.headSha) {
    core.warning(
      `workflow_dispatch on ${branch}: this run checked out ${sha.slice(0, 7)}, but the head of #${pull.number} is now ${pull.headSha.slice(0, 7)}; the comment shows ${sha.slice(0, 7)}, and the check of the new head will replace it`,
    );
  }
  core.info(`workflow_dispatch on ${branch}: pull request #${pull.number}`);
  const { state: _state, ...info } = pull;
  return { ...ctx, sha, pull: info };
}

/** What check mode does for this event: nothing (a deployment that did not succeed), or a run. */
export type CheckPlan =
  | { kind: 'skip'; reason: string }
  | {
      kind: 'run';
      ctx: ActionContext;
      /** The pull requests to comment on (a deployed commit can be the head of several). */
      pulls: PullContext[];
      /** The agent URL the event gives (deployment_status), overriding the config's. */
      agentUrl: string | null;
      /** Said at the top of the job summary (and logged): why there is no comment. */
      note: string | null;
    };

/** `environment_url` without its trailing slashes + `agent-path` (which starts with "/"). */
export function deploymentAgentUrl(environmentUrl: string, agentPath: string | null): string {
  return `${environmentUrl.replace(/\/+$/, '')}${agentPath ?? ''}`;
}

/**
 * deployment_status: only `success` runs. The agent is at the announced environment_url +
 * agent-path (an agent-url input wins), and the pull requests are the open ones whose head is the
 * deployed commit (GET /repos/{owner}/{repo}/commits/{sha}/pulls).
 */
async function planDeployment(inputs: PlanInputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  const d = ctx.deployment;
  if (d === null) return { kind: 'skip', reason: 'deployment_status without a deployment in the event payload: nothing to do' };
  const where = `${d.environment ? `${d.environment} ` : ''}deployment of ${d.sha?.slice(0, 7) ?? 'an unknown commit'}`;
  if (d.state !== 'success') {
    return { kind: 'skip', reason: `deployment_status: the ${where} is "${d.state}", not "success": nothing to do (agent-replay replays when a deployment succeeds)` };
  }
  if (d.sha === null) throw new UserError('deployment_status: the event payload has no deployment.sha (a 40-character commit): cannot tell which commit was deployed');
  let agentUrl: string | null = null;
  if (inputs.agentUrl) {
    core.info(`deployment_status: using the agent-url input; environment_url and agent-path are ignored`);
  } else if (d.environmentUrl) {
    agentUrl = deploymentAgentUrl(d.environmentUrl, inputs.agentPath);
  } else {
    throw new UserError(
      `deployment_status: the ${where} has no environment_url, so the agent's address is unknown; set the agent-url input (for example \${{ github.event.deployment_status.target_url }}/api/chat) or make the host report an environment URL`,
    );
  }
  const sha = d.sha;
  const pulls = await openPullsForCommit(github, ctx, sha);
  const note = pulls.length === 0 ? `no open pull request for ${sha}: the results are in this summary and the artifact` : null;
  if (note) core.info(`deployment_status: ${note}`);
  else core.info(`deployment_status: the ${where} is the head of ${pulls.map((p) => `#${p.number}`).join(', ')}`);
  return { kind: 'run', ctx: { ...ctx, sha, pull: pulls[0] ?? null }, pulls, agentUrl, note };
}

async function openPullsForCommit(github: GitHubApi | null, ctx: ActionContext, sha: string): Promise<PullContext[]> {
  if (github === null) {
    core.info(`deployment_status: no github-token, so the pull requests of ${sha.slice(0, 7)} cannot be looked up`);
    return [];
  }
  try {
    const pulls = await github.listPullsForCommit(ctx.owner, ctx.repo, sha);
    return pulls.filter((p) => p.state === 'open' && p.headSha === sha).map(({ state: _state, ...info }) => info);
  } catch (e) {
    core.warning(`deployment_status: the pull requests of ${sha.slice(0, 7)} could not be looked up (${isGitHubError(e) ? e.message : (e as Error).message})`);
    return [];
  }
}

/** push: a recorded run for the trend (artifact and summary), never a comment. */
function planPush(ctx: ActionContext): CheckPlan {
  const branch = ctx.push?.branch ?? null;
  const def = ctx.push?.defaultBranch ?? null;
  const what =
    branch === null ? 'push (not to a branch)' : def === null || branch === def ? `push to the default branch ${branch}` : `push to ${branch} (the default branch is ${def})`;
  const note = `${what}: the run is recorded in this summary and the artifact; there is no pull request to comment on`;
  core.info(note);
  return { kind: 'run', ctx: { ...ctx, pull: null }, pulls: [], agentUrl: null, note };
}

export async function planCheck(inputs: PlanInputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  if (ctx.eventName === 'deployment_status') return planDeployment(inputs, ctx, github);
  if (ctx.eventName === 'push') return planPush(ctx);
  const resolved = ctx.eventName === 'workflow_dispatch' && ctx.pull === null ? await withDispatchedPull(github, ctx) : ctx;
  return { kind: 'run', ctx: resolved, pulls: resolved.pull ? [resolved.pull] : [], agentUrl: null, note: null };
}
