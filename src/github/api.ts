// GitHubApi: the small interface the rest of agent-replay uses to talk to GitHub, and its Octokit
// implementation. Everything here is a thin, typed call: no verdicts, no rendering. Every failure
// is thrown as a GitHubError that names the request.

import { makeRedactor } from '../secrets.js';
import { GitHubError, toGitHubError, type HttpsProxy } from './errors.js';
import { httpsProxyOf } from './proxy.js';
import { cappedFetch, createOctokit, OVER_LIMIT_HEADER, type CreateOctokitOptions, type GitHubOctokit } from './octokit.js';

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
const PERMISSIONS: readonly Permission[] = ['admin', 'maintain', 'write', 'triage', 'read', 'none'] as const;

/** The comments read of an issue (`GitHubApi.listIssueComments`): `more` when some past the bound were not read. */
export interface IssueComments {
  comments: IssueComment[];
  more: boolean;
}

/** The most pages of 100 comments read of one pull request: its 3,000 oldest, where our comment is (it is written at the first check). */
export const MAX_COMMENT_PAGES = 30;

export interface IssueComment {
  id: number;
  body: string;
  user: { login: string; type: string } | null;
  html_url: string;
  /** When the comment was last written (ISO 8601), by its author or anyone else. */
  updated_at: string;
  /** Its GraphQL id, for `commentLastEdit`. */
  node_id: string;
}

/** Who last edited a comment and when (GraphQL `IssueComment.editor`, `lastEditedAt`). */
export interface CommentEdit {
  /** null when it was never edited. */
  editedAt: string | null;
  /** As REST names users (a bot with its `[bot]` suffix); null when GitHub does not say (a deleted account). */
  editor: { login: string; type: string } | null;
}

export interface CommentRef {
  id: number;
  html_url: string;
}

export interface PullInfo {
  number: number;
  headSha: string;
  headRef: string;
  /** null when the head repository was deleted. */
  headRepoFullName: string | null;
  baseRepoFullName: string;
  /**
   * The base branch's commit as GitHub names it (`base.sha`), or null when not given: what the
   * pull request is compared with to say whether it edits the suite (docs/action.md, "The PR comment").
   */
  baseSha: string | null;
  /** The head lives in another repository (or in a deleted one). */
  isFork: boolean;
  state: 'open' | 'closed';
}

/** A pull request with its labels, as `getPull` and the pulls lists report it. */
export interface PullWithLabels extends PullInfo {
  labels: string[];
}

export interface WorkflowRunInfo {
  status: string | null;
  conclusion: string | null;
  headSha: string;
}

/** A run of a workflow as the runs list reports it (newest first). */
export interface WorkflowRunSummary {
  id: number;
  headSha: string;
  runAttempt: number;
  createdAt: string;
}

export interface WorkflowRunsFilter {
  branch: string;
  event: string;
  status: 'success' | 'completed';
  /** At most this many runs, newest first (one page, at most 100). */
  limit: number;
}

export interface ArtifactInfo {
  id: number;
  name: string;
  expired: boolean;
  sizeInBytes: number;
}

export interface CommitOnBranchInput {
  /** `owner/repo`. */
  repoWithOwner: string;
  branch: string;
  /** The commit the branch must point to; GitHub refuses (kind `conflict`) when it moved. */
  expectedHeadOid: string;
  message: { headline: string; body?: string };
  /** Contents as UTF-8 text; encoded to base64 here. */
  additions: { path: string; contents: string }[];
  deletions?: { path: string }[];
}

/** A commit of a branch's history, as `GitHubApi.getBranchHistory` reads it back. */
export interface BranchCommit {
  oid: string;
  /** The first parent's oid; null for a root commit. */
  parent: string | null;
  headline: string;
  body: string;
}

/** What changed from one commit to another, as `GitHubApi.compareCommits` reads it. */
export interface CommitComparison {
  /** `ahead`: `head` is `base` with commits on top, and nothing else. */
  status: 'ahead' | 'behind' | 'identical' | 'diverged';
  /** The commits on top of `base`, oldest first, with their messages (GitHub lists at most 250). */
  commits: ComparedCommit[];
  totalCommits: number;
  /** The files they change (GitHub lists at most 300) and how; `previous`: a renamed file's old path. */
  files: { path: string; status: string; previous?: string }[];
  /** The commit the comparison starts from (`merge_base_commit`): base and head's common ancestor. */
  mergeBase: string | null;
}

/** One commit of a comparison. */
export interface ComparedCommit {
  sha: string;
  message: string;
  /** The GitHub account GitHub matched the author to (null when none), and the committer's. */
  author?: string | null;
  committer?: string | null;
  /** GitHub verified its signature (`commit.verification.verified`). */
  verified?: boolean;
}

/** What is at a path at a commit, as `GitHubApi.getContent` reads it. */
export type RepoContent =
  /** `text`: the file's text as GitHub gave it (base64 under 1 MB), null when it gave none (larger files). */
  | { kind: 'file'; sha: string; size: number; text: string | null }
  /** A folder's entries: files, folders, links and submodules, each with its git id (a blob's for a file). */
  | { kind: 'folder'; entries: { name: string; path: string; type: string; sha: string; size: number }[] }
  | { kind: 'other' };

export interface GitHubApi {
  /** Login of the token's identity (GraphQL `viewer`), or null when GitHub will not say. */
  viewerLogin(): Promise<string | null>;
  /**
   * The comments on the issue or pull request, oldest first, up to MAX_COMMENT_PAGES pages of 100;
   * `more`: there are comments past them, not read (docs/action.md, "The PR comment").
   */
  listIssueComments(owner: string, repo: string, issueNumber: number): Promise<IssueComments>;
  /** Who last edited the comment (its `node_id`), or null when there is no such comment. */
  commentLastEdit(nodeId: string): Promise<CommentEdit | null>;
  createComment(owner: string, repo: string, issueNumber: number, body: string): Promise<CommentRef>;
  updateComment(owner: string, repo: string, commentId: number, body: string): Promise<CommentRef>;
  /** `none` for users who are not collaborators. */
  getCollaboratorPermission(owner: string, repo: string, username: string): Promise<Permission>;
  /** Label names on the issue or pull request, all pages. */
  listIssueLabels(owner: string, repo: string, issueNumber: number): Promise<string[]>;
  /** Removing a label that is already gone is not an error. */
  removeLabel(owner: string, repo: string, issueNumber: number, name: string): Promise<void>;
  /** The pull request with its labels as they are now. */
  getPull(owner: string, repo: string, pullNumber: number): Promise<PullWithLabels>;
  /** Open pull requests whose head is the branch `branch` of this repository, or of `headOwner`'s fork of it, all pages. */
  listOpenPullsForBranch(owner: string, repo: string, branch: string, headOwner?: string): Promise<PullWithLabels[]>;
  /** Pull requests (open and closed) that contain the commit, all pages (`GET /repos/{o}/{r}/commits/{sha}/pulls`). */
  listPullsForCommit(owner: string, repo: string, sha: string): Promise<PullWithLabels[]>;
  /**
   * Starts a `workflow_dispatch` run of the workflow (its file name, e.g. `agent-replay.yml`) on
   * the branch `ref`. Needs `actions: write`. `runUrl` when GitHub says which run it started.
   */
  dispatchWorkflow(owner: string, repo: string, workflow: string, ref: string): Promise<{ runUrl: string | null }>;
  /** null when the run does not exist (or is not visible to the token). */
  getWorkflowRun(owner: string, repo: string, runId: number): Promise<WorkflowRunInfo | null>;
  /**
   * The newest runs of a workflow (its file name, e.g. `ci.yml`, or its id) that match `filter`:
   * one page of at most `filter.limit` runs (`GET /repos/{o}/{r}/actions/workflows/{id}/runs`).
   * One page is enough: GitHub applies branch, event and status before it pages, so the first page
   * holds the newest `limit` that match, and nothing is filtered out here (the callers ask for 4
   * and 10, src/action/history.ts).
   */
  listWorkflowRuns(owner: string, repo: string, workflow: string, filter: WorkflowRunsFilter): Promise<WorkflowRunSummary[]>;
  /** Artifacts of a workflow run, all pages; `name` filters by exact name. */
  listRunArtifacts(owner: string, repo: string, runId: number, name?: string): Promise<ArtifactInfo[]>;
  /**
   * The artifact's zip archive (GitHub answers with a redirect, which is followed), or null when it
   * is larger than `maxBytes`: the download stops there.
   */
  downloadArtifactZip(owner: string, repo: string, artifactId: number, maxBytes: number): Promise<Buffer | null>;
  /** One signed commit on the branch through GraphQL `createCommitOnBranch`. */
  createCommitOnBranch(input: CommitOnBranchInput): Promise<{ oid: string; url: string }>;
  /**
   * The branch's newest commits, newest first (GraphQL `repository.ref.target.history`, at most
   * `depth`), or null when there is no such branch: after a commit whose answer was lost, whether
   * it landed (also under a push made since).
   */
  getBranchHistory(repoWithOwner: string, branch: string, depth: number): Promise<BranchCommit[] | null>;
  /**
   * The commits and files from `base` to `head` (`GET /repos/{o}/{r}/compare/{base}...{head}`):
   * after another suite's accept step committed on the reviewed head, whether that commit is all
   * that moved the branch (docs/action.md, "Two suites in one repository").
   */
  compareCommits(owner: string, repo: string, base: string, head: string): Promise<CommitComparison>;
  /**
   * What is at `path` (never empty) at the commit `ref` (`GET /repos/{o}/{r}/contents/{path}?ref=`):
   * a file with its blob's id and text, a folder's entries (GitHub lists at most 1,000), or null when
   * nothing is there: whether a folder is another suite's, which baselines a commit replaces
   * (docs/action.md, "Accept"), the suite's files at a pull request's base (docs/action.md, "The PR comment").
   */
  getContent(owner: string, repo: string, path: string, ref: string): Promise<RepoContent | null>;
  /** The bytes of a file as stored, by its blob's id (`GET /repos/{o}/{r}/git/blobs/{sha}`). */
  getBlob(owner: string, repo: string, sha: string): Promise<Buffer>;
  /**
   * One page of the times a label was applied to the pull request, oldest first (GraphQL
   * `pullRequest.timelineItems`, LabeledEvent, with its actor): the newest `last` (at most 100)
   * before the cursor `before` (null: the newest of all), and the cursor of the page before it;
   * null when there is no such pull request.
   */
  listLabelEvents(owner: string, repo: string, pullNumber: number, page: { last: number; before: string | null }): Promise<LabelEventsPage | null>;
}

/** A label applied to a pull request: its name, when (ISO 8601) and by whom (null when GitHub does not say: a deleted account). */
export interface LabelEvent {
  label: string;
  createdAt: string;
  actor: string | null;
}

/** A page of a pull request's label events (`GitHubApi.listLabelEvents`). */
export interface LabelEventsPage {
  /** Oldest first. */
  events: LabelEvent[];
  /** The cursor to read the older events with; null when this page holds the oldest. */
  before: string | null;
}

const LABEL_EVENTS_QUERY = `query agentReplayLabelEvents($owner: String!, $name: String!, $number: Int!, $last: Int!, $before: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      timelineItems(itemTypes: [LABELED_EVENT], last: $last, before: $before) {
        pageInfo { hasPreviousPage startCursor }
        nodes { ... on LabeledEvent { createdAt label { name } actor { login } } }
      }
    }
  }
}`;

interface LabelEventsData {
  repository: {
    pullRequest: {
      timelineItems: {
        pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
        nodes: ({ createdAt?: string; label?: { name: string }; actor?: { login: string } | null } | null)[] | null;
      };
    } | null;
  } | null;
}

const VIEWER_QUERY = 'query agentReplayViewer { viewer { login } }';

const COMMENT_EDIT_QUERY = 'query agentReplayCommentEdit($id: ID!) { node(id: $id) { ... on IssueComment { lastEditedAt editor { __typename login } } } }';

interface CommentEditData {
  node: { lastEditedAt?: string | null; editor?: { __typename: string; login: string } | null } | null;
}

const CREATE_COMMIT_MUTATION = `mutation agentReplayCommit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) {
    commit { oid url }
  }
}`;

const BRANCH_HISTORY_QUERY = `query agentReplayBranchHistory($owner: String!, $name: String!, $ref: String!, $depth: Int!) {
  repository(owner: $owner, name: $name) {
    ref(qualifiedName: $ref) {
      target {
        oid
        ... on Commit {
          history(first: $depth) { nodes { oid messageHeadline messageBody parents(first: 1) { nodes { oid } } } }
        }
      }
    }
  }
}`;

interface HistoryNode {
  oid: string;
  messageHeadline: string;
  messageBody: string;
  parents: { nodes: ({ oid: string } | null)[] | null };
}

interface BranchHistoryData {
  repository: { ref: { target: { oid: string; history?: { nodes: (HistoryNode | null)[] | null } } | null } | null } | null;
}

export interface OctokitGitHubApiOptions {
  /** Removes secrets from error messages (whatever GitHub echoes back). */
  redact?: (text: string) => string;
  /** A fetch that reads at most `maxBodyBytes` of a body (octokit.ts, cappedFetch); without it, downloads are read whole. */
  cappedFetch?: (maxBodyBytes: number) => typeof fetch;
  /** The https:// proxy on the way to GitHub's API (proxy.ts), named in an answer without TLS (errors.ts, networkWords). */
  proxy?: HttpsProxy | null;
}

const enc = encodeURIComponent;

interface PullData {
  number: number;
  state: string;
  head: { sha: string; ref: string; repo: { full_name: string } | null };
  base: { sha?: string; repo: { full_name: string } };
}

function pullInfo(data: PullData): PullInfo {
  const headRepoFullName = data.head.repo?.full_name ?? null;
  const baseRepoFullName = data.base.repo.full_name;
  return {
    number: data.number,
    headSha: data.head.sha,
    headRef: data.head.ref,
    headRepoFullName,
    baseRepoFullName,
    baseSha: typeof data.base.sha === 'string' ? data.base.sha : null,
    isFork: headRepoFullName === null || headRepoFullName.toLowerCase() !== baseRepoFullName.toLowerCase(),
    state: data.state === 'closed' ? 'closed' : 'open',
  };
}

/** The GitHubApi over an Octokit built by `createOctokit`. */
function octokitGitHubApi(octokit: GitHubOctokit, options: OctokitGitHubApiOptions = {}): GitHubApi {
  const redact = options.redact ?? ((text: string) => text);

  async function call<T>(request: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toGitHubError(error, request, redact, options.proxy ?? null);
    }
  }

  let viewer: Promise<string | null> | null = null;

  async function lookUpViewer(): Promise<string | null> {
    // GraphQL that did not answer (a dropped connection, a 5xx or a rate limit after the retries),
    // as opposed to one that refused to name the viewer.
    let unanswered: GitHubError | null = null;
    try {
      const data = await call('POST /graphql viewer', () =>
        octokit.graphql<{ viewer: { login: string } | null }>(VIEWER_QUERY),
      );
      if (data.viewer?.login) return data.viewer.login;
    } catch (error) {
      // GraphQL refused (some tokens may not query `viewer`): try REST.
      if (error instanceof GitHubError && (error.kind === 'network' || error.kind === 'server' || error.kind === 'rate_limited')) unanswered = error;
    }
    try {
      const { data } = await octokit.rest.users.getAuthenticated();
      return data.login;
    } catch {
      // An installation token (GITHUB_TOKEN) gets 403 here: the identity is unknown. Unknown
      // because GraphQL did not answer, it is not taken for the Actions bot: an App's token would
      // not find its own comment and post a second one (docs/action.md, "Check: replay on every pull request").
      if (unanswered !== null) throw unanswered;
      return null;
    }
  }

  return {
    viewerLogin() {
      // A lookup GitHub did not answer is not remembered: the next call asks again.
      viewer ??= lookUpViewer().catch((error: unknown) => {
        viewer = null;
        throw error;
      });
      return viewer;
    },

    listIssueComments(owner, repo, issueNumber) {
      return call(`GET /repos/${owner}/${repo}/issues/${issueNumber}/comments`, async () => {
        // Bounded: a pull request with tens of thousands of comments is not read to its end.
        let pages = 0;
        let more = false;
        const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issueNumber, per_page: 100 }, (response, done) => {
          pages++;
          if (pages >= MAX_COMMENT_PAGES) {
            more = /rel="next"/.test(response.headers.link ?? '');
            done();
          }
          return response.data;
        });
        return { more, comments: comments.map((c) => ({
          id: c.id,
          body: c.body ?? '',
          user: c.user ? { login: c.user.login, type: c.user.type } : null,
          html_url: c.html_url,
          updated_at: c.updated_at,
          node_id: c.node_id,
        })) };
      });
    },

    commentLastEdit(nodeId) {
      return call(`POST /graphql comment edit ${nodeId}`, async () => {
        let data: CommentEditData;
        try {
          data = await octokit.graphql<CommentEditData>(COMMENT_EDIT_QUERY, { id: nodeId });
        } catch (error) {
          // A comment deleted since: GitHub answers NOT_FOUND for its id.
          if ((error as { errors?: { type?: unknown }[] }).errors?.some((e) => e.type === 'NOT_FOUND')) return null;
          throw error;
        }
        if (!data.node || data.node.lastEditedAt === undefined) return null;
        const editor = data.node.editor ?? null;
        return {
          editedAt: data.node.lastEditedAt,
          // GraphQL names a bot without the `[bot]` suffix that REST gives it.
          editor: editor === null ? null : { login: editor.__typename === 'Bot' && !editor.login.endsWith('[bot]') ? `${editor.login}[bot]` : editor.login, type: editor.__typename },
        };
      });
    },

    createComment(owner, repo, issueNumber, body) {
      return call(`POST /repos/${owner}/${repo}/issues/${issueNumber}/comments`, async () => {
        const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
        return { id: data.id, html_url: data.html_url };
      });
    },

    updateComment(owner, repo, commentId, body) {
      return call(`PATCH /repos/${owner}/${repo}/issues/comments/${commentId}`, async () => {
        const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body });
        return { id: data.id, html_url: data.html_url };
      });
    },

    getCollaboratorPermission(owner, repo, username) {
      return call(`GET /repos/${owner}/${repo}/collaborators/${username}/permission`, async () => {
        try {
          const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username });
          // role_name is the fine-grained role (maintain, triage, or a custom role's name);
          // permission is the base level it maps to (admin, write, read, none).
          const role = data.role_name as Permission;
          if (PERMISSIONS.includes(role)) return role;
          const base = data.permission as Permission;
          return PERMISSIONS.includes(base) ? base : 'none';
        } catch (error) {
          if ((error as { status?: unknown }).status === 404) return 'none';
          throw error;
        }
      });
    },

    listIssueLabels(owner, repo, issueNumber) {
      return call(`GET /repos/${owner}/${repo}/issues/${issueNumber}/labels`, async () => {
        const labels = await octokit.paginate(octokit.rest.issues.listLabelsOnIssue, {
          owner,
          repo,
          issue_number: issueNumber,
          per_page: 100,
        });
        return labels.map((l) => l.name);
      });
    },

    removeLabel(owner, repo, issueNumber, name) {
      return call(`DELETE /repos/${owner}/${repo}/issues/${issueNumber}/labels/${enc(name)}`, async () => {
        try {
          await octokit.rest.issues.removeLabel({ owner, repo, issue_number: issueNumber, name });
        } catch (error) {
          if ((error as { status?: unknown }).status === 404) return; // already gone
          throw error;
        }
      });
    },

    getPull(owner, repo, pullNumber) {
      return call(`GET /repos/${owner}/${repo}/pulls/${pullNumber}`, async () => {
        const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: pullNumber });
        return { ...pullInfo(data), labels: data.labels.map((l) => l.name) };
      });
    },

    listOpenPullsForBranch(owner, repo, branch, headOwner = owner) {
      return call(`GET /repos/${owner}/${repo}/pulls?head=${headOwner}:${branch}`, async () => {
        const pulls = await octokit.paginate(octokit.rest.pulls.list, { owner, repo, head: `${headOwner}:${branch}`, state: 'open', per_page: 100 });
        return pulls.map((p) => ({ ...pullInfo(p), labels: p.labels.map((l) => l.name) }));
      });
    },

    listPullsForCommit(owner, repo, sha) {
      return call(`GET /repos/${owner}/${repo}/commits/${sha}/pulls`, async () => {
        const pulls = await octokit.paginate(octokit.rest.repos.listPullRequestsAssociatedWithCommit, { owner, repo, commit_sha: sha, per_page: 100 });
        return pulls.map((p) => ({ ...pullInfo(p), labels: p.labels.map((l) => l.name) }));
      });
    },

    dispatchWorkflow(owner, repo, workflow, ref) {
      return call(`POST /repos/${owner}/${repo}/actions/workflows/${workflow}/dispatches`, async () => {
        const res = await octokit.rest.actions.createWorkflowDispatch({ owner, repo, workflow_id: workflow, ref, return_run_details: true });
        // 200 with the run's URLs where GitHub supports return_run_details, 204 elsewhere.
        const data: unknown = res.data;
        const html = typeof data === 'object' && data !== null ? (data as { html_url?: unknown }).html_url : undefined;
        return { runUrl: typeof html === 'string' ? html : null };
      });
    },

    getWorkflowRun(owner, repo, runId) {
      return call(`GET /repos/${owner}/${repo}/actions/runs/${runId}`, async () => {
        try {
          const { data } = await octokit.rest.actions.getWorkflowRun({ owner, repo, run_id: runId });
          return { status: data.status ?? null, conclusion: data.conclusion ?? null, headSha: data.head_sha };
        } catch (error) {
          if ((error as { status?: unknown }).status === 404) return null;
          throw error;
        }
      });
    },

    listWorkflowRuns(owner, repo, workflow, filter) {
      return call(`GET /repos/${owner}/${repo}/actions/workflows/${enc(workflow)}/runs`, async () => {
        const perPage = Math.max(1, Math.min(100, Math.trunc(filter.limit)));
        const { data } = await octokit.rest.actions.listWorkflowRuns({
          owner,
          repo,
          workflow_id: workflow,
          branch: filter.branch,
          event: filter.event,
          status: filter.status,
          exclude_pull_requests: true,
          per_page: perPage,
        });
        return data.workflow_runs.slice(0, perPage).map((r) => ({ id: r.id, headSha: r.head_sha, runAttempt: r.run_attempt ?? 1, createdAt: r.created_at }));
      });
    },

    listRunArtifacts(owner, repo, runId, name) {
      return call(`GET /repos/${owner}/${repo}/actions/runs/${runId}/artifacts`, async () => {
        const artifacts = await octokit.paginate(octokit.rest.actions.listWorkflowRunArtifacts, {
          owner,
          repo,
          run_id: runId,
          per_page: 100,
          ...(name !== undefined ? { name } : {}),
        });
        return artifacts.map((a) => ({ id: a.id, name: a.name, expired: a.expired, sizeInBytes: a.size_in_bytes }));
      });
    },

    downloadArtifactZip(owner, repo, artifactId, maxBytes) {
      return call(`GET /repos/${owner}/${repo}/actions/artifacts/${artifactId}/zip`, async () => {
        const { data, headers } = await octokit.rest.actions.downloadArtifact({
          owner,
          repo,
          artifact_id: artifactId,
          archive_format: 'zip',
          ...(options.cappedFetch ? { request: { fetch: options.cappedFetch(maxBytes) } } : {}),
        });
        if (headers[OVER_LIMIT_HEADER] !== undefined) return null;
        if (data instanceof ArrayBuffer) return Buffer.from(data);
        if (typeof data === 'string') return Buffer.from(data, 'binary');
        throw new GitHubError({
          request: `GET /repos/${owner}/${repo}/actions/artifacts/${artifactId}/zip`,
          status: null,
          kind: 'other',
          detail: `unexpected response body of type ${typeof data}`,
        });
      });
    },

    createCommitOnBranch(input) {
      return call(`POST /graphql createCommitOnBranch ${input.repoWithOwner}@${input.branch}`, async () => {
        const variables = {
          input: {
            branch: { repositoryNameWithOwner: input.repoWithOwner, branchName: input.branch },
            expectedHeadOid: input.expectedHeadOid,
            message: input.message.body !== undefined
              ? { headline: input.message.headline, body: input.message.body }
              : { headline: input.message.headline },
            fileChanges: {
              additions: input.additions.map((a) => ({
                path: a.path,
                contents: Buffer.from(a.contents, 'utf8').toString('base64'),
              })),
              deletions: (input.deletions ?? []).map((d) => ({ path: d.path })),
            },
          },
        };
        const data = await octokit.graphql<{
          createCommitOnBranch: { commit: { oid: string; url: string } | null } | null;
        }>(CREATE_COMMIT_MUTATION, variables);
        const commit = data.createCommitOnBranch?.commit;
        if (!commit) {
          throw new GitHubError({
            request: `POST /graphql createCommitOnBranch ${input.repoWithOwner}@${input.branch}`,
            status: null,
            kind: 'other',
            detail: 'GitHub returned no commit',
          });
        }
        return { oid: commit.oid, url: commit.url };
      });
    },

    getBranchHistory(repoWithOwner, branch, depth) {
      return call(`POST /graphql ref history ${repoWithOwner}@${branch}`, async () => {
        const [owner = '', name = ''] = repoWithOwner.split('/');
        const first = Math.max(1, Math.min(100, Math.trunc(depth)));
        const data = await octokit.graphql<BranchHistoryData>(BRANCH_HISTORY_QUERY, { owner, name, ref: `refs/heads/${branch}`, depth: first });
        const target = data.repository?.ref?.target;
        if (!target) return null;
        // A tag or another object than a commit has no history: its oid alone.
        const nodes = (target.history?.nodes ?? []).filter((n): n is HistoryNode => n !== null);
        if (nodes.length === 0) return [{ oid: target.oid, parent: null, headline: '', body: '' }];
        return nodes.map((n) => ({ oid: n.oid, parent: n.parents.nodes?.[0]?.oid ?? null, headline: n.messageHeadline, body: n.messageBody }));
      });
    },

    compareCommits(owner, repo, base, head) {
      return call(`GET /repos/${owner}/${repo}/compare/${base}...${head}`, async () => {
        const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 100 });
        return {
          status: data.status,
          commits: data.commits.map((c) => ({
            sha: c.sha,
            message: c.commit.message,
            author: c.author?.login ?? null,
            committer: c.committer?.login ?? null,
            verified: c.commit.verification?.verified === true,
          })),
          totalCommits: data.total_commits,
          files: (data.files ?? []).map((f) => ({ path: f.filename, status: f.status, ...(f.previous_filename ? { previous: f.previous_filename } : {}) })),
          mergeBase: data.merge_base_commit?.sha ?? null,
        };
      });
    },

    getContent(owner, repo, path, ref) {
      return call(`GET /repos/${owner}/${repo}/contents/${path}?ref=${ref}`, async () => {
        try {
          const { data } = await octokit.rest.repos.getContent({ owner, repo, path, ref });
          if (Array.isArray(data)) return { kind: 'folder', entries: data.map((e) => ({ name: e.name, path: e.path, type: e.type, sha: e.sha, size: e.size })) };
          if (data.type !== 'file') return { kind: 'other' };
          const text = 'content' in data && typeof data.content === 'string' && data.encoding === 'base64' ? Buffer.from(data.content, 'base64').toString('utf8') : null;
          return { kind: 'file', sha: data.sha, size: data.size, text };
        } catch (error) {
          if ((error as { status?: unknown }).status === 404) return null;
          throw error;
        }
      });
    },

    getBlob(owner, repo, sha) {
      return call(`GET /repos/${owner}/${repo}/git/blobs/${sha}`, async () => {
        const { data } = await octokit.rest.git.getBlob({ owner, repo, file_sha: sha });
        return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8');
      });
    },

    listLabelEvents(owner, repo, pullNumber, page) {
      return call(`POST /graphql label events ${owner}/${repo}#${pullNumber}`, async () => {
        const last = Math.max(1, Math.min(100, Math.trunc(page.last)));
        let data: LabelEventsData;
        try {
          data = await octokit.graphql<LabelEventsData>(LABEL_EVENTS_QUERY, { owner, name: repo, number: pullNumber, last, before: page.before });
        } catch (error) {
          // No such pull request: GitHub answers NOT_FOUND ("Could not resolve to a PullRequest"), which Octokit throws.
          if ((error as { errors?: { type?: unknown }[] }).errors?.some((e) => e.type === 'NOT_FOUND')) return null;
          throw error;
        }
        const items = data.repository?.pullRequest?.timelineItems;
        if (!items) return null;
        const events = (items.nodes ?? []).flatMap((n) => (n?.label && typeof n.createdAt === 'string' ? [{ label: n.label.name, createdAt: n.createdAt, actor: n.actor?.login ?? null }] : []));
        // An empty page has no start: there is nothing before it to read.
        const before = items.pageInfo.hasPreviousPage && items.pageInfo.startCursor ? items.pageInfo.startCursor : null;
        return { events, before };
      });
    },
  };
}

/** Builds the Octokit and the GitHubApi over it; the token is redacted from every error message. */
export function createGitHubApi(options: CreateOctokitOptions): GitHubApi {
  // @actions/github's own fetch goes through the environment's proxy; a fetch given goes where it goes.
  const proxy = options.fetch === undefined ? httpsProxyOf(process.env) : null;
  return octokitGitHubApi(createOctokit(options), { redact: makeRedactor([options.token]), cappedFetch: (max) => cappedFetch(options, max), proxy });
}
