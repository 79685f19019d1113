// Event planning for check mode: what an event asks for (nothing, or a run), which commit, which
// pull requests to comment on and, for a deployment, where the agent is.

import * as log from './log.js';
import type { Inputs } from './inputs.js';
import type { ActionContext, PullContext } from './context.js';
import type { GitHubApi } from '../github/api.js';
import { gitHubFailure } from './github-words.js';
import { UserError } from '../errors.js';
import { docsUrl } from '../version.js';
import { terminalLine } from '../words.js';
import { urlWithScheme } from '../suite/config/shared.js';
import type { ConfigOverrides } from '../suite/overrides.js';

/** The inputs event planning reads: an agent-url input wins over a deployment's URL, which agent-path extends. */
export type PlanInputs = Pick<Inputs, 'agentUrl' | 'agentPath'>;

/**
 * A workflow_dispatch names a branch, not a pull request (the accept flow dispatches the check
 * on the branch after its commit): the pull request is the open one whose head is that branch of
 * this repository. The replayed commit stays the one the workflow checked out (GITHUB_SHA).
 * Nothing is written or uploaded yet: these lines never say where the results are (the comment's
 * step says it once they are: publish.ts, resultsWhere).
 */
async function withDispatchedPull(github: GitHubApi | null, ctx: ActionContext): Promise<ActionContext> {
  const name = ctx.ref?.startsWith('refs/heads/') ? ctx.ref.slice('refs/heads/'.length) : null;
  if (name === null) {
    log.info(`workflow_dispatch on ${ctx.ref === null ? 'an unknown ref' : terminalLine(ctx.ref)}: not a branch, so there is no pull request to comment on`);
    return ctx;
  }
  // The branch named on each line's one line (git allows U+2028 in a ref name; log.info writes it as a line break).
  const branch = terminalLine(name);
  if (github === null) {
    log.info(`workflow_dispatch on ${branch}: no github-token, so the pull request cannot be looked up, and no comment is posted`);
    return ctx;
  }
  let pulls;
  try {
    pulls = await github.listOpenPullsForBranch(ctx.owner, ctx.repo, name);
  } catch (e) {
    log.warning(`workflow_dispatch on ${branch}: the pull request could not be looked up: ${gitHubFailure(e, 'pull-requests: read')}; no comment is posted (where the results are is said once they are written)`);
    return ctx;
  }
  const pull = pulls[0];
  if (pull === undefined) {
    log.info(`workflow_dispatch on ${branch}: no open pull request has this branch as its head, so there is none to comment on`);
    return ctx;
  }
  if (pulls.length > 1) log.info(`workflow_dispatch on ${branch}: ${pulls.length} open pull requests have this head; commenting on #${pull.number}`);
  const sha = ctx.sha ?? pull.headSha;
  if (sha !== pull.headSha) {
    log.warning(
      `workflow_dispatch on ${branch}: this run checked out ${sha.slice(0, 7)}, but the head of #${pull.number} is now ${pull.headSha.slice(0, 7)}; the comment shows ${sha.slice(0, 7)}, and the check of the new head will replace it`,
    );
  }
  log.info(`workflow_dispatch on ${branch}: pull request #${pull.number}`);
  const { state: _state, ...info } = pull;
  return { ...ctx, sha, pull: info };
}

/** What check mode does for this event: nothing (a deployment that did not succeed, a closed pull request), or a run. */
export type CheckPlan =
  | {
      kind: 'skip';
      reason: string;
      /** Said as a notice (shown on the run's page), not only in the log: a skip the workflow's triggers did not filter out. */
      notice?: boolean;
    }
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

/** The "file" of an issue about the agent URL a deployment gives, which is in no file of the repository. */
export const DEPLOYMENT_URL_SOURCE = "the deployment's environment_url + the agent-path input";

/**
 * The overrides a plan adds to the inputs': the agent URL a deployment announced, an issue about it
 * (an address that is none: `shop.vercel.app/api/chat`) named from where it came, with the fix
 * there (docs/action.md, "Preview deployments").
 */
export function planOverrides(plan: { agentUrl: string | null }): ConfigOverrides {
  if (plan.agentUrl === null) return {};
  const write = urlWithScheme(plan.agentUrl) ?? 'https://preview.example.com/api/chat, for example';
  const fix = `set the agent-url input to the agent's full address (${write}), or have the host report an environment_url that starts with https://`;
  return { agentUrl: plan.agentUrl, agentUrlFrom: { source: DEPLOYMENT_URL_SOURCE, fix } };
}

/**
 * `environment_url` without its trailing slashes + `agent-path` (which starts with "/"). The path goes
 * before the environment_url's query or fragment (a share link's `?_vercel_share=...`), which stays
 * after it, joined with the path's own query by "&" (docs/action.md, "Preview deployments").
 */
export function deploymentAgentUrl(environmentUrl: string, agentPath: string | null): string {
  const cut = environmentUrl.search(/[?#]/);
  const base = (cut === -1 ? environmentUrl : environmentUrl.slice(0, cut)).replace(/\/+$/, '');
  const after = cut === -1 ? '' : environmentUrl.slice(cut);
  const path = agentPath ?? '';
  if (after.startsWith('?') && path.includes('?')) {
    const hash = path.indexOf('#');
    const pathEnd = hash === -1 ? path : path.slice(0, hash);
    return `${base}${pathEnd}&${after.slice(1)}`;
  }
  return `${base}${path}${after}`;
}

/**
 * deployment_status: only `success` runs. The agent is at the announced environment_url +
 * agent-path (an agent-url input wins), and the pull requests are the open ones whose head is the
 * deployed commit (GET /repos/{owner}/{repo}/commits/{sha}/pulls).
 */
async function planDeployment(inputs: PlanInputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  const d = ctx.deployment;
  if (d === null) return { kind: 'skip', reason: 'deployment_status without a deployment in the event payload: nothing to do' };
  // The environment's name (a host may name it after the branch) on each line's one line (terminalLine).
  const where = `${d.environment ? `${terminalLine(d.environment)} ` : ''}deployment of ${d.sha?.slice(0, 7) ?? 'an unknown commit'}`;
  if (d.state !== 'success') {
    return { kind: 'skip', reason: `deployment_status: the ${where} is "${d.state}", not "success": nothing to do (agent-replay replays when a deployment succeeds)` };
  }
  if (d.sha === null) throw new UserError('deployment_status: the event payload has no deployment.sha (a 40-character commit): cannot tell which commit was deployed');
  let agentUrl: string | null = null;
  if (inputs.agentUrl) {
    log.info(`deployment_status: using the agent-url input; environment_url and agent-path are ignored`);
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
  if (note) log.info(`deployment_status: ${note}`);
  else log.info(`deployment_status: the ${where} is the head of ${pulls.map((p) => `#${p.number}`).join(', ')}`);
  return { kind: 'run', ctx: { ...ctx, sha, pull: pulls[0] ?? null }, pulls, agentUrl, note };
}

async function openPullsForCommit(github: GitHubApi | null, ctx: ActionContext, sha: string): Promise<PullContext[]> {
  if (github === null) {
    log.info(`deployment_status: no github-token, so the pull requests of ${sha.slice(0, 7)} cannot be looked up`);
    return [];
  }
  try {
    const pulls = await github.listPullsForCommit(ctx.owner, ctx.repo, sha);
    return pulls.filter((p) => p.state === 'open' && p.headSha === sha).map(({ state: _state, ...info }) => info);
  } catch (e) {
    log.warning(`deployment_status: the pull requests of ${sha.slice(0, 7)} could not be looked up: ${gitHubFailure(e, 'pull-requests: read')}`);
    return [];
  }
}

/** push: a recorded run for the trend (results.json, and the artifact once uploaded, as its note says), never a comment. */
function planPush(ctx: ActionContext): CheckPlan {
  const branch = ctx.push?.branch ?? null;
  const def = ctx.push?.defaultBranch ?? null;
  const what =
    branch === null ? 'push (not to a branch)' : def === null || branch === def ? `push to the default branch ${branch}` : `push to ${branch} (the default branch is ${def})`;
  const note = `${what}: the run is recorded (results.json, and the artifact once uploaded); there is no pull request to comment on`;
  log.info(note);
  return { kind: 'run', ctx: { ...ctx, pull: null }, pulls: [], agentUrl: null, note };
}

/**
 * schedule, merge_group: the commit GitHub checked out is the one the event is about (the default
 * branch's last commit, the merge queue's commit), and no pull request is to be commented on: a
 * recorded run, as for a push (docs/action.md, "Events").
 */
function planCommitOnly(ctx: ActionContext): CheckPlan {
  const sha = ctx.sha?.slice(0, 7) ?? 'an unknown commit';
  const what = ctx.eventName === 'schedule' ? `schedule: the default branch's commit ${sha}` : `merge_group: the merge queue's commit ${sha}`;
  const note = `${what} is replayed and recorded (results.json, and the artifact once uploaded); there is no pull request to comment on`;
  log.info(note);
  return { kind: 'run', ctx: { ...ctx, pull: null }, pulls: [], agentUrl: null, note };
}

/** The events check mode runs on without a pull request in the payload, each with its own plan. */
const EVENTS_WITHOUT_PULL = ['deployment_status', 'push', 'workflow_dispatch', 'schedule', 'merge_group'];

/** What to do instead of check mode on an event it refuses. */
const INSTEAD: Record<string, string> = {
  workflow_run:
    `to comment with the results of the run that completed, use mode: report (${docsUrl('action.md', 'Report: combine shards, or comment for a fork')}); to replay its commit, check it out and run check mode on the event that started that run`,
  issue_comment:
    "to replay a pull request on demand, dispatch the check workflow on its branch (workflow_dispatch), or re-run the pull request's check",
};

/**
 * An event that check mode cannot tie to the commit it is about (workflow_run, issue_comment, a
 * release, ...): GitHub checks out the default branch's last commit for it, so a replay would test
 * that commit while the event is about another one (a pull request, another workflow's run), and
 * spend the agent's and the judge's budget for a result nobody asked for. Refused, naming the event
 * and the ones check mode runs on (docs/action.md, "Events").
 */
function refuseEvent(ctx: ActionContext): never {
  const instead = INSTEAD[ctx.eventName] ?? 'start the check workflow on one of those events';
  throw new UserError(
    `check mode does not run on ${ctx.eventName === '' ? 'an unnamed event (GITHUB_EVENT_NAME is not set)' : `${ctx.eventName} events`}: ` +
      `GitHub gives it the default branch's last commit, not the commit the event is about, so nothing was replayed. ` +
      `Check mode runs on pull_request and pull_request_target (and any event whose payload has a pull request), ${EVENTS_WITHOUT_PULL.join(', ')}; ${instead}`,
  );
}

/** A closed (or merged) pull request: nothing to review, so nothing is replayed or commented. */
function closedPull(ctx: ActionContext): CheckPlan | null {
  const pr = ctx.payload.pull_request as { state?: unknown; merged?: unknown } | undefined;
  if (ctx.pull === null || pr?.state !== 'closed') return null;
  const how = pr.merged === true ? 'merged' : 'closed';
  return {
    kind: 'skip',
    notice: true,
    reason: `${ctx.eventName === '' ? 'event' : ctx.eventName}${typeof ctx.payload.action === 'string' ? ` (${ctx.payload.action})` : ''}: pull request #${ctx.pull.number} is ${how}: nothing is replayed and nothing commented (to skip this job, add "types: [opened, synchronize, reopened, labeled]" under the event in the workflow)`,
  };
}

export async function planCheck(inputs: PlanInputs, ctx: ActionContext, github: GitHubApi | null): Promise<CheckPlan> {
  if (ctx.eventName === 'deployment_status') return planDeployment(inputs, ctx, github);
  if (ctx.eventName === 'push') return planPush(ctx);
  if (ctx.eventName === 'schedule' || ctx.eventName === 'merge_group') return planCommitOnly(ctx);
  if (ctx.eventName !== 'workflow_dispatch' && ctx.pull === null) refuseEvent(ctx);
  const closed = closedPull(ctx);
  if (closed !== null) return closed;
  const resolved = ctx.eventName === 'workflow_dispatch' && ctx.pull === null ? await withDispatchedPull(github, ctx) : ctx;
  return { kind: 'run', ctx: resolved, pulls: resolved.pull ? [resolved.pull] : [], agentUrl: null, note: null };
}
