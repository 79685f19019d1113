// A fake GitHub on a loopback port, for tests of `src/github/` and end-to-end tests of the action.
//
// Every REST request is validated against GitHub's OpenAPI description (@octokit/openapi,
// api.github.com; see openapi.ts for what is checked) and every GraphQL document against GitHub's
// GraphQL schema (@octokit/graphql-schema): parsed, validated, and its variables coerced to the
// declared input types. Anything that does not conform is recorded in `violations` and answered
// with 400 (REST) or a GraphQL `errors` answer, so a test that asserts `violations` is empty proves
// the client only sends requests GitHub would accept. The fake's own answers are checked against
// the response schemas too (`responseViolations`), so it cannot drift from what GitHub returns.
//
// Usage:
//
//   const gh = await startFakeGitHub({ viewer: { login: 'github-actions[bot]', type: 'Bot' } });
//   const api = createGitHubApi({ token: gh.token, baseUrl: gh.url, retryAfterBaseMs: 0, throttleWrites: false });
//   gh.addComments('o', 'r', 5, 250, { login: 'someone', type: 'User' });   // seed state
//   gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 500, times: 2 });
//   ...code under test...
//   expect(gh.violations).toEqual([]);
//   expect(gh.requests.filter((r) => r.method === 'POST')).toMatchObject([...]);
//   await gh.close();
//
// API (all state is in memory and inspectable):
// - `url` (REST base URL, http://127.0.0.1:<port>), `graphqlUrl` (`${url}/graphql`), `token`.
// - `requests`: every request received: method, path, query, body (parsed JSON or undefined),
//   `operation` (the spec's template, `POST /graphql` or null) and, for GraphQL, `operationName`.
// - `violations` / `responseViolations`: `{method, path, problems[]}`.
// - `failNext({method?, path, operation?, status, times?, body?, headers?, after?})`: the next `times`
//   (default 1) matching requests answer `status` (or `'network'`: the socket is destroyed; `'hang'`:
//   never answered; `'stall'`: headers and the start of a body, then nothing). `path` is
//   a spec template (`/repos/{owner}/{repo}/issues/{issue_number}/comments`), a concrete path, a
//   RegExp, or '/graphql' (`operation`: only the GraphQL operation of that name). `after`: the
//   request is carried out before the socket is destroyed (the answer is lost, not the write), and
//   `then` runs in between (someone pushes in that moment).
//   Faulted requests are still validated and recorded.
// - `onNext({method?, path, operation?, then})`: the next matching request is carried out and
//   answered as usual, and `then` runs just before the answer is sent (the pull request is closed,
//   someone pushes, while the client waits for that answer). `path` matches as for `failNext`.
// - Comments: `addComment`, `addComments`, `editComment(id, body, at?, by?)` (GraphQL `node(id)` says who last edited one), `comments(owner, repo, issue)`; created comments are
//   written by `viewer` (default github-actions[bot], a Bot). `graphqlViewerLogin` is what GraphQL
//   `viewer { login }` answers (default viewer.login; null = FORBIDDEN error). REST `GET /user` answers
//   403 for a Bot identity, as it does for a GITHUB_TOKEN.
// - Labels: `setLabels` (each label not there before is applied then, by its `by` user: a LabeledEvent of the pull
//   request's GraphQL `timelineItems`, at the fake's clock; read in pages with `last` and `before`), `labels`, `labelTimeline`. Collaborators: `setPermission(owner, repo, login, role)`
//   (unknown users: 404). Pulls: `addPull` (also sets the head branch); a commit on a branch
//   (createCommitOnBranch, `pushOnTop`, `moveBranch`) moves the head of every open pull request of
//   that branch, as GitHub's does (`setBranch`, set-up, moves none). Runs and artifacts:
//   `addWorkflowRun` (with its workflow file, branch, event, attempt and creation time),
//   `addArtifact` (zip bytes; the download answers 302 to a blob URL on this server, expired
//   artifacts 410; `listedSize` lists another size_in_bytes than the zip's, `endless` sends the blob
//   without a Content-Length and never ends it, until the client stops reading). `GET .../actions/workflows/{file}/runs` lists a workflow's runs newest first,
//   filtered by branch, event and status (a status or a conclusion, as GitHub does).
// - Workflows: `addWorkflow(owner, repo, file, {dispatchable?})`; `POST .../dispatches` answers 404
//   for an unknown workflow, 422 when it has no workflow_dispatch trigger, else 204 (or 200 with
//   the run's URLs when `return_run_details` is true) and records `{repo, workflow, ref}` in
//   `dispatches`. `GET /repos/{o}/{r}/pulls` filters by `state` and `head` (`owner:branch`);
//   `GET /repos/{o}/{r}/commits/{sha}/pulls` lists the pulls (any state) whose head is that sha.
//   `GET /repos/{o}/{r}/compare/{base}...{head}` walks from head down to base through the commits
//   made here (their files) and the pushes on top (each changes src/<oid>.ts, or the files it was
//   given): `ahead` with them, `identical`, or `diverged` when base is not found under head.
// - Files: the fake keeps the files of every commit it knows (setBranch, a commit made, a push).
//   `GET /repos/{o}/{r}/contents/{path}?ref=` answers a file (base64, with its blob's id; over 1 MB no
//   content, encoded `none`, as GitHub answers) or a
//   folder's entries at that commit (404 when nothing is there, or for an unknown ref); a fork's
//   pull request's head is read through the base repository too, as GitHub keeps it there
//   (`refs/pull/<n>/head`);
//   `GET /repos/{o}/{r}/git/blobs/{sha}` a file's bytes by its blob's id.
// - Branches: `setBranch(repoWithOwner, branch, headOid, files?)`, `branch(...)` (head + files);
//   `createCommitOnBranch` checks `expectedHeadOid` (STALE_DATA error when the head moved),
//   decodes base64 contents, applies deletions, moves the head; `commits` records each commit with
//   its additions (decoded text) and deletions. GraphQL `repository { ref(qualifiedName) { target } }`
//   answers the branch's head commit (oid, message, parents, history). `moveBranch` simulates a push
//   by someone else (an unknown head), `pushOnTop` one on top of the head (history keeps what is under;
//   an id the fake already knows, such as the reviewed head, is refused; `body` and `files`: its
//   message's body and the files it writes, a forged commit);
//   `refuseCommits` makes the branch refuse commits (a protected branch, a ruleset).
// - State: `state()` copies what the fake holds (comments, labels and their timeline, pulls, runs,
//   artifacts, branches, files, commits, dispatches, ids and its clock), `restore(state)` puts such a
//   copy in a fresh fake: what one Action start left, given to a later test without starting it
//   again (test/action/monorepo.test.ts). Requests, violations and pending faults are not state.
// - Pagination: list endpoints honour per_page (default 30, max 100) and page, with Link headers.
//   `maxPerPage` (default 100, GitHub's own cap) lowers that cap: a test reaches a client's page bound
//   (30 pages of comments: src/github/api.ts, MAX_COMMENT_PAGES) with 31 comments, not 3,001.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildClientSchema,
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { schema as githubGraphqlSchema } from '@octokit/graphql-schema';
import { OpenApiSpec, type Operation } from './openapi.js';

export interface FakeUser {
  login: string;
  type: 'User' | 'Bot' | 'Organization';
}

export type FakeRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

export interface FakeComment {
  id: number;
  body: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
  /** How many times the comment was edited through the API. */
  edits: number;
  /** Who edited it last, and when (GraphQL `IssueComment.editor`, `lastEditedAt`); null before any edit. */
  editor: FakeUser | null;
  lastEditedAt: string | null;
}

export interface FakePull {
  number: number;
  headSha: string;
  headRef: string;
  /** `owner/repo` of the head; null for a deleted fork. Default: the base repository. */
  headRepo: string | null;
  baseRef: string;
  state: 'open' | 'closed';
  user: FakeUser;
}

export interface FakeRun {
  id: number;
  status: string;
  conclusion: string | null;
  headSha: string;
  event: string;
  /** The workflow's file name (e.g. `ci.yml`): the runs list of that workflow holds the run. */
  workflow: string;
  /** The branch the run ran on (`head_branch`). */
  branch: string;
  runAttempt: number;
  createdAt: string;
}

export interface FakeArtifact {
  id: number;
  runId: number;
  name: string;
  zip: Buffer;
  expired: boolean;
  /** The size_in_bytes the listing says (default: the zip's length). */
  listedSize?: number;
  /** The blob is the zip followed by zeros without end, sent chunked until the client goes away. */
  endless?: boolean;
}

export interface FakeCommit {
  repo: string;
  branch: string;
  parent: string;
  oid: string;
  headline: string;
  body: string | null;
  additions: { path: string; contents: string }[];
  deletions: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** `GET /repos/{owner}/{repo}/...` (the matched spec operation), `POST /graphql`, or null. */
  operation: string | null;
  operationName?: string | null;
}

export interface Violation {
  method: string;
  path: string;
  problems: string[];
}

export interface Fault {
  method?: string;
  path: string | RegExp;
  /** For '/graphql': only the document whose operation has this name (`agentReplayCommit`). */
  operation?: string;
  /**
   * `'network'`: the socket is destroyed. `'hang'`: the connection is accepted and the request
   * never answered (held until `close()`). `'stall'`: the status line, the headers and the start
   * of a JSON body are sent, and the rest never comes.
   */
  status: number | 'network' | 'hang' | 'stall';
  times?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * With `status: 'network'`: the request is carried out first (a commit lands, a comment is
   * written) and only then is the connection dropped, so the client never sees the answer.
   */
  after?: boolean;
  /** With `after`: called once the request was carried out, before the socket is destroyed (a push in that moment). */
  then?: () => void;
}

/** Something that happens while a request is answered (`onNext`): the answer itself is the usual one. */
export interface Happening {
  method?: string;
  path: string | RegExp;
  /** For '/graphql': only the document whose operation has this name. */
  operation?: string;
  then: () => void;
}

export interface FakeGitHubOptions {
  /** Token the fake expects (`Authorization: token <t>` or `bearer <t>`). Default 'fake-token'. */
  token?: string;
  /** Identity of the token: author of the comments it creates. Default github-actions[bot] (Bot). */
  viewer?: FakeUser;
  /** What GraphQL `viewer { login }` answers; null = refused (FORBIDDEN). Default: viewer.login. */
  graphqlViewerLogin?: string | null;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: Buffer;
}

type Handler = (ctx: RequestContext) => Reply;

interface RequestContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  pathname: string;
}

/**
 * Answers GitHub really gives that its OpenAPI description does not allow; the fake gives them too.
 * - A pull request whose head repository (fork) was deleted has `head.repo: null`.
 */
const KNOWN_OPENAPI_GAPS: readonly RegExp[] = [/^response\.head\.repo: expected object, got null/];

const USER_IDS: Record<string, number> = { 'github-actions[bot]': 41898282 };
let nextUserId = 1000;

class FakeGraphqlError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

let graphqlSchema: GraphQLSchema | null = null;

function loadGraphqlSchema(): GraphQLSchema {
  graphqlSchema ??= buildClientSchema(githubGraphqlSchema.json as unknown as IntrospectionQuery);
  return graphqlSchema;
}

/**
 * Each GraphQL document, parsed and validated against the schema once per process: the Action
 * sends the same few documents in every run, and each check took about 1 ms of the worker's CPU
 * (docs/contributing.md, "What an Action start waits for, and what it spends"). The variables
 * are still coerced, and the document run, for every request.
 */
const checkedDocuments = new Map<string, { document: DocumentNode } | { problems: string[] }>();

function checkDocument(schema: GraphQLSchema, query: string): { document: DocumentNode } | { problems: string[] } {
  let checked = checkedDocuments.get(query);
  if (checked === undefined) {
    try {
      const document = parse(query);
      const errors = validate(schema, document);
      checked = errors.length > 0 ? { problems: errors.map((e) => `GraphQL validation: ${e.message}`) } : { document };
    } catch (error) {
      checked = { problems: [`GraphQL syntax: ${(error as Error).message}`] };
    }
    checkedDocuments.set(query, checked);
  }
  return checked;
}

/** What a fake holds (`state()`), to put in another (`restore`). */
export interface FakeState {
  readonly fields: Readonly<Record<(typeof STATE_FIELDS)[number], unknown>>;
}
/** The fields of FakeGitHub that are its repositories' state, not its requests or faults. */
const STATE_FIELDS = ['commits', 'dispatches', 'maxPerPage', 'pushes', 'trees', 'blobs', 'nextId', 'clock', 'commentsByIssue', 'commentIndex', 'labelsByIssue', 'labelEvents', 'roles', 'pulls', 'runs', 'artifacts', 'branches', 'commitRefusals', 'workflows'] as const;

/** A deep copy of a fake's state fields; the artifacts' zips (Buffers, never written) are shared. */
function copied(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const artifacts = fields.artifacts as Map<number, { zip: Buffer }>;
  const copy = structuredClone({ ...fields, artifacts: new Map([...artifacts].map(([id, a]) => [id, { ...a, zip: null }])) });
  for (const [id, a] of copy.artifacts as Map<number, { zip: Buffer | null }>) a.zip = artifacts.get(id)?.zip ?? null;
  return copy;
}

const key = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase();
const issueKey = (owner: string, repo: string, n: number | string) => `${key(owner, repo)}#${n}`;
const branchKey = (repoWithOwner: string, branch: string) => `${repoWithOwner.toLowerCase()}:${branch}`;

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly violations: Violation[] = [];
  readonly responseViolations: Violation[] = [];
  readonly commits: FakeCommit[] = [];
  readonly dispatches: { repo: string; workflow: string; ref: string; inputs: unknown }[] = [];
  readonly token: string;
  readonly viewer: FakeUser;
  graphqlViewerLogin: string | null;
  /** The most items a list page holds, whatever per_page asks (GitHub's cap is 100): lower, bounds are reached cheaply. */
  maxPerPage = 100;
  /** Told of each request a 'hang' or 'stall' fault holds, once it holds it (test/github/helpers.ts, heldDeadlines). */
  onHeld: (() => void) | null = null;

  private server: Server | null = null;
  private origin = '';
  private readonly spec = OpenApiSpec.load();
  private readonly faults: (Fault & { remaining: number })[] = [];
  private readonly happenings: Happening[] = [];
  /** Commits pushed by someone else on top of a branch (`pushOnTop`): their parent, message, author and the files they change (null: deleted). */
  private readonly pushes = new Map<string, { parent: string; headline: string; body: string | null; author: string; files: Record<string, string | null> }>();
  /** The files of every commit the fake knows (`owner/repo@oid`): GET .../contents/{path}?ref= reads them. */
  private readonly trees = new Map<string, Map<string, string>>();
  /** File contents by their blob's id (git's SHA-1 of the bytes): GET .../git/blobs/{sha}. */
  private readonly blobs = new Map<string, string>();
  private nextId = 1_000_000;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  private readonly commentsByIssue = new Map<string, FakeComment[]>();
  private readonly commentIndex = new Map<number, { issue: string; owner: string; repo: string; issueNumber: number }>();
  private readonly labelsByIssue = new Map<string, string[]>();
  /** When each label was applied (setLabels) and by whom, oldest first: GraphQL `pullRequest.timelineItems`. */
  private readonly labelEvents = new Map<string, { label: string; createdAt: string; actor: string }[]>();
  private readonly roles = new Map<string, Map<string, FakeRole>>();
  private readonly pulls = new Map<string, FakePull>();
  private readonly runs = new Map<string, FakeRun>();
  private readonly artifacts = new Map<number, FakeArtifact & { repoKey: string }>();
  private readonly branches = new Map<string, { head: string; files: Map<string, string> }>();
  private readonly commitRefusals = new Map<string, { type: string; message: string }>();
  private readonly workflows = new Map<string, { dispatchable: boolean }>();

  private readonly handlers: Record<string, Handler>;

  constructor(options: FakeGitHubOptions = {}) {
    this.token = options.token ?? 'fake-token';
    this.viewer = options.viewer ?? { login: 'github-actions[bot]', type: 'Bot' };
    this.graphqlViewerLogin = options.graphqlViewerLogin === undefined ? this.viewer.login : options.graphqlViewerLogin;
    this.handlers = this.routes();
  }

  get url(): string {
    return this.origin;
  }

  get graphqlUrl(): string {
    return `${this.origin}/graphql`;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.violations.push({ method: req.method ?? '?', path: req.url ?? '?', problems: [`fake crashed: ${String(error)}`] });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'fake-github crashed' }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  // ---- state ------------------------------------------------------------------------------

  /** A copy of what the fake holds now (see the top of this file). */
  state(): FakeState {
    const self = this as unknown as Record<string, unknown>;
    return { fields: copied(Object.fromEntries(STATE_FIELDS.map((f) => [f, self[f]]))) as FakeState['fields'] };
  }

  /** Makes this fake hold what `state` copied (from this fake or another), replacing what it held. */
  restore(state: FakeState): void {
    const self = this as unknown as Record<string, unknown>;
    const copy = copied(state.fields);
    for (const f of STATE_FIELDS) {
      const mine = self[f];
      if (mine instanceof Map) {
        mine.clear();
        for (const [k, v] of copy[f] as Map<unknown, unknown>) mine.set(k, v);
      } else if (Array.isArray(mine)) mine.splice(0, mine.length, ...(copy[f] as unknown[]));
      else self[f] = copy[f];
    }
  }

  // ---- fault injection -------------------------------------------------------------------

  failNext(fault: Fault): void {
    this.faults.push({ ...fault, remaining: fault.times ?? 1 });
  }

  /** `happening.then` runs once, while the next matching request is answered (just before its answer is sent). */
  onNext(happening: Happening): void {
    this.happenings.push(happening);
  }

  // ---- state: comments -------------------------------------------------------------------

  addComment(owner: string, repo: string, issueNumber: number, comment: { body: string; user?: FakeUser }): FakeComment {
    const list = this.issueComments(owner, repo, issueNumber);
    const now = this.tick();
    const c: FakeComment = { id: this.nextId++, body: comment.body, user: comment.user ?? this.viewer, createdAt: now, updatedAt: now, edits: 0, editor: null, lastEditedAt: null };
    list.push(c);
    this.commentIndex.set(c.id, { issue: issueKey(owner, repo, issueNumber), owner, repo, issueNumber });
    return c;
  }

  addComments(owner: string, repo: string, issueNumber: number, count: number, user: FakeUser, body: (i: number) => string = (i) => `comment ${i + 1}`): FakeComment[] {
    return Array.from({ length: count }, (_, i) => this.addComment(owner, repo, issueNumber, { body: body(i), user }));
  }

  /**
   * Rewrites a comment's body, as another job with the same token would (a newer check run's update),
   * now or at `at` (GitHub's time, to the second: another change in the same second); `by` someone
   * else (a maintainer editing it in the browser), null an edit GitHub names no editor for.
   */
  editComment(commentId: number, body: string, at?: string, by: FakeUser | null = this.viewer): void {
    const where = this.commentIndex.get(commentId);
    const c = where ? this.issueComments(where.owner, where.repo, where.issueNumber).find((x) => x.id === commentId) : undefined;
    if (!c) throw new Error(`fake-github: no comment ${commentId}`);
    c.body = body;
    c.updatedAt = at ?? this.tick();
    c.edits += 1;
    c.editor = by;
    c.lastEditedAt = c.updatedAt;
  }

  /** A copy of the comments on an issue, oldest first. */
  comments(owner: string, repo: string, issueNumber: number): FakeComment[] {
    return this.issueComments(owner, repo, issueNumber).map((c) => ({ ...c, user: { ...c.user } }));
  }

  // ---- state: labels, collaborators, pulls, runs, artifacts, branches ---------------------

  /** The labels on an issue; each one not there before is applied now by `by` (default maintainer), as a LabeledEvent of its timeline. */
  setLabels(owner: string, repo: string, issueNumber: number, names: string[], by = 'maintainer'): void {
    const k = issueKey(owner, repo, issueNumber);
    const before = this.labelsByIssue.get(k) ?? [];
    const events = this.labelEvents.get(k) ?? [];
    for (const name of names) if (!before.includes(name)) events.push({ label: name, createdAt: this.tick(), actor: by });
    this.labelEvents.set(k, events);
    this.labelsByIssue.set(k, [...names]);
  }

  /** When each label was applied to the issue (setLabels), oldest first, as its GraphQL timeline says. */
  labelTimeline(owner: string, repo: string, issueNumber: number): { label: string; createdAt: string; actor: string }[] {
    return (this.labelEvents.get(issueKey(owner, repo, issueNumber)) ?? []).map((e) => ({ ...e }));
  }

  labels(owner: string, repo: string, issueNumber: number): string[] {
    return [...(this.labelsByIssue.get(issueKey(owner, repo, issueNumber)) ?? [])];
  }

  setPermission(owner: string, repo: string, login: string, role: FakeRole): void {
    const map = this.roles.get(key(owner, repo)) ?? new Map<string, FakeRole>();
    map.set(login.toLowerCase(), role);
    this.roles.set(key(owner, repo), map);
  }

  addPull(owner: string, repo: string, pull: Partial<FakePull> & { number: number; headSha: string }): FakePull {
    const p: FakePull = {
      headRef: 'feature',
      headRepo: `${owner}/${repo}`,
      baseRef: 'main',
      state: 'open',
      user: { login: 'contributor', type: 'User' },
      ...pull,
    };
    // An unknown head branch is made at the head, with no files: over a commit whose files the fake
    // knows (another branch's head, a commit made or pushed), that would wipe them, and the test would
    // read a commit with no files. Refused: name the branch first. (A commit known with no files, as
    // another pull request's unknown branch made it, has nothing to wipe.)
    if (p.headRepo && !this.branches.has(branchKey(p.headRepo, p.headRef))) {
      if ((this.trees.get(`${p.headRepo.toLowerCase()}@${p.headSha}`)?.size ?? 0) > 0) {
        throw new Error(
          `fake-github: addPull(${owner}/${repo}#${p.number}): its head branch ${p.headRepo}:${p.headRef} is unknown, and making it would wipe the files of ${p.headSha}; ` +
            `call setBranch('${p.headRepo}', '${p.headRef}', ...) first, or give the pull request the headRef of the branch that has the commit`,
        );
      }
      this.setBranch(p.headRepo, p.headRef, p.headSha);
    }
    this.pulls.set(issueKey(owner, repo, p.number), p);
    return p;
  }

  addWorkflowRun(owner: string, repo: string, run: Partial<FakeRun> & { id: number; headSha: string }): FakeRun {
    const r: FakeRun = { status: 'completed', conclusion: 'success', event: 'pull_request', workflow: 'agent-replay.yml', branch: 'feature', runAttempt: 1, createdAt: this.tick(), ...run };
    this.runs.set(`${key(owner, repo)}#${r.id}`, r);
    return r;
  }

  addArtifact(owner: string, repo: string, runId: number, artifact: { name: string; zip: Buffer; expired?: boolean; id?: number; listedSize?: number; endless?: boolean }): FakeArtifact {
    const a = { id: artifact.id ?? this.nextId++, runId, name: artifact.name, zip: artifact.zip, expired: artifact.expired ?? false, listedSize: artifact.listedSize, endless: artifact.endless, repoKey: key(owner, repo) };
    this.artifacts.set(a.id, a);
    return { id: a.id, runId, name: a.name, zip: a.zip, expired: a.expired };
  }

  /** A workflow file of the repository; `dispatchable`: it has a workflow_dispatch trigger (default true). */
  addWorkflow(owner: string, repo: string, file: string, options: { dispatchable?: boolean } = {}): void {
    this.workflows.set(`${key(owner, repo)}/${file}`, { dispatchable: options.dispatchable ?? true });
  }

  setBranch(repoWithOwner: string, branch: string, headOid: string, files: Record<string, string> = {}): void {
    this.branches.set(branchKey(repoWithOwner, branch), { head: headOid, files: new Map(Object.entries(files)) });
    this.keepTree(repoWithOwner, headOid, new Map(Object.entries(files)));
  }

  /** The files of the commit `oid` of the repository, as they are now in `files` (kept apart from later changes). */
  private keepTree(repoWithOwner: string, oid: string, files: Map<string, string>): void {
    this.trees.set(`${repoWithOwner.toLowerCase()}@${oid}`, new Map(files));
    for (const contents of files.values()) this.blobs.set(blobSha(contents), contents);
  }

  /**
   * The branch refuses commits as GitHub does for a protected branch or a ruleset (or a token
   * without contents: write): createCommitOnBranch answers a GraphQL error of `type`.
   */
  refuseCommits(repoWithOwner: string, branch: string, error: { type: string; message: string }): void {
    this.commitRefusals.set(branchKey(repoWithOwner, branch), error);
  }

  /**
   * Someone else pushed a commit on top of the branch's head (its history keeps what was under it).
   * `headOid` must be new: an id the fake already knows (a branch's head, a pull request's or a
   * run's head, a commit made or pushed, or one under them) is refused, so that no test passes by a
   * push that is the reviewed head again, or that loops the history back on itself.
   */
  pushOnTop(repoWithOwner: string, branch: string, headOid: string, headline = 'Fix a typo', commit: { body?: string; files?: Record<string, string | null>; author?: string } = {}): void {
    const b = this.branches.get(branchKey(repoWithOwner, branch));
    if (!b) throw new Error(`fake-github: no branch ${repoWithOwner}:${branch}`);
    const known = this.knownCommit(headOid);
    if (known !== null) throw new Error(`fake-github: pushOnTop(${repoWithOwner}:${branch}, ${headOid}): that id is already ${known}; give the pushed commit an id of its own`);
    // Without `files`, the push changes a file of its own, src/<oid>.ts.
    const files = commit.files ?? { [`src/${headOid}.ts`]: `// ${headline}\n` };
    this.pushes.set(headOid, { parent: b.head, headline, body: commit.body ?? null, author: commit.author ?? 'contributor', files });
    for (const [path, contents] of Object.entries(files)) {
      if (contents === null) b.files.delete(path);
      else b.files.set(path, contents);
    }
    this.keepTree(repoWithOwner, headOid, b.files);
    b.head = headOid;
    this.pullsFollow(repoWithOwner, branch, headOid);
  }

  /**
   * A branch got a commit (made here, pushed on top, or moved by someone else): every open pull
   * request whose head is that branch now has that commit as its head, as GitHub's do. A closed
   * one keeps the head it was closed at. `setBranch` is set-up and moves no pull request.
   */
  private pullsFollow(repoWithOwner: string, branch: string, headOid: string): void {
    for (const pull of this.pulls.values()) {
      if (pull.state === 'open' && pull.headRepo !== null && branchKey(pull.headRepo, pull.headRef) === branchKey(repoWithOwner, branch)) pull.headSha = headOid;
    }
  }

  /** What the fake already knows `oid` as, in words, or null for an id it has never seen. */
  private knownCommit(oid: string): string | null {
    const id = oid.toLowerCase();
    for (const [k, b] of this.branches) if (b.head.toLowerCase() === id) return `the head of the branch ${k}`;
    for (const [k, p] of this.pulls) if (p.headSha.toLowerCase() === id) return `the head of pull request ${k}`;
    for (const r of this.runs.values()) if (r.headSha.toLowerCase() === id) return `the head commit of workflow run ${r.id}`;
    for (const c of this.commits) {
      if (c.oid.toLowerCase() === id) return `the commit made on ${c.repo}:${c.branch} ("${c.headline}")`;
      if (c.parent.toLowerCase() === id) return `the parent of the commit made on ${c.repo}:${c.branch} ("${c.headline}")`;
    }
    for (const [pushed, { parent }] of this.pushes) {
      if (pushed.toLowerCase() === id) return 'a commit pushed on top before (pushOnTop)';
      if (parent.toLowerCase() === id) return 'the parent of a commit pushed on top before (pushOnTop)';
    }
    return null;
  }

  /** Someone else pushed: the head moves, the files stay. */
  moveBranch(repoWithOwner: string, branch: string, headOid: string): void {
    const b = this.branches.get(branchKey(repoWithOwner, branch));
    if (!b) throw new Error(`fake-github: no branch ${repoWithOwner}:${branch}`);
    this.keepTree(repoWithOwner, headOid, b.files);
    b.head = headOid;
    this.pullsFollow(repoWithOwner, branch, headOid);
  }

  branch(repoWithOwner: string, branch: string): { head: string; files: Record<string, string> } | null {
    const b = this.branches.get(branchKey(repoWithOwner, branch));
    return b ? { head: b.head, files: Object.fromEntries(b.files) } : null;
  }

  // ---- request handling --------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', this.origin);
    const raw = await readBody(req);
    let body: unknown = undefined;
    let bodyProblem: string | null = null;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        bodyProblem = `request body is not JSON: ${raw.toString('utf8').slice(0, 80)}`;
        body = raw.toString('utf8');
      }
    }
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      operation: null,
    };
    this.requests.push(recorded);

    // Blob storage behind the artifact download redirect: not part of the API.
    const blob = /^\/_fake\/blobs\/artifacts\/(\d+)\.zip$/.exec(url.pathname);
    if (blob && method === 'GET') {
      const a = this.artifacts.get(Number(blob[1]));
      if (!a) return send(res, { status: 404, body: { message: 'blob not found' } });
      if (a.endless) return sendEndless(res, a.zip);
      return send(res, { status: 200, raw: a.zip, headers: { 'content-type': 'application/zip' } });
    }

    if (!this.authorized(req)) {
      return send(res, { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } });
    }

    if (url.pathname === '/graphql' && method === 'POST') {
      recorded.operation = 'POST /graphql';
      const query = typeof (body as { query?: unknown } | undefined)?.query === 'string' ? (body as { query: string }).query : '';
      const named = /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;
      recorded.operationName = named;
      const fault = this.takeFault(method, url.pathname, '/graphql', named);
      if (fault && !fault.after) return this.sendFault(res, fault);
      const reply = this.graphql(body, recorded);
      fault?.then?.();
      if (fault) return this.sendFault(res, fault);
      this.takeHappening(method, url.pathname, '/graphql', named)?.then();
      return send(res, reply);
    }

    const check = this.spec.checkRequest(method, url.pathname, url.searchParams, body);
    if (bodyProblem) check.problems.push(bodyProblem);
    if (check.operation) recorded.operation = `${check.operation.method} ${check.operation.template}`;
    if (check.problems.length > 0) {
      this.violations.push({ method, path: url.pathname + url.search, problems: check.problems });
      return send(res, { status: 400, body: { message: `fake-github: request does not conform to the OpenAPI description: ${check.problems.join('; ')}` } });
    }
    const operation = check.operation!;
    const fault = this.takeFault(method, url.pathname, operation.template, null);
    if (fault && !fault.after) return this.sendFault(res, fault);

    const handler = this.handlers[`${method} ${operation.template}`];
    if (!handler) {
      this.violations.push({ method, path: url.pathname, problems: [`${operation.operationId} is valid but not implemented by the fake`] });
      return send(res, { status: 501, body: { message: `fake-github: ${operation.operationId} is not implemented` } });
    }
    const reply = handler({ params: check.pathParams, query: url.searchParams, body, pathname: url.pathname });
    if (reply.raw === undefined && reply.status < 300) this.checkResponse(operation, method, url.pathname, reply);
    fault?.then?.();
    if (fault) return this.sendFault(res, fault);
    this.takeHappening(method, url.pathname, operation.template, null)?.then();
    return send(res, reply);
  }

  private authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const m = /^(?:token|bearer)\s+(.+)$/i.exec(header);
    return m !== null && m[1] === this.token;
  }

  private takeFault(method: string, pathname: string, template: string, graphqlOperation: string | null): (Fault & { remaining: number }) | null {
    const fault = this.faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (f.operation === undefined || f.operation === graphqlOperation) &&
        (f.path instanceof RegExp ? f.path.test(pathname) : f.path === pathname || f.path === template),
    );
    if (!fault) return null;
    fault.remaining -= 1;
    return fault;
  }

  private takeHappening(method: string, pathname: string, template: string, graphqlOperation: string | null): Happening | null {
    const i = this.happenings.findIndex(
      (h) =>
        (h.method === undefined || h.method.toUpperCase() === method) &&
        (h.operation === undefined || h.operation === graphqlOperation) &&
        (h.path instanceof RegExp ? h.path.test(pathname) : h.path === pathname || h.path === template),
    );
    return i < 0 ? null : (this.happenings.splice(i, 1)[0] as Happening);
  }

  private sendFault(res: ServerResponse, fault: Fault): void {
    if (fault.status === 'network') {
      res.socket?.destroy();
      return;
    }
    if (fault.status === 'hang') return void this.onHeld?.(); // held open, unanswered, until close()
    if (fault.status === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.write('[{"id":');
      return void this.onHeld?.();
    }
    send(res, {
      status: fault.status,
      body: fault.body ?? { message: `fake-github: injected ${fault.status}`, documentation_url: 'https://docs.github.com/rest' },
      headers: fault.headers ?? {},
    });
  }

  private checkResponse(operation: Operation, method: string, pathname: string, reply: Reply): void {
    const problems = this.spec.checkResponse(operation, reply.status, reply.body).filter((pr) => !KNOWN_OPENAPI_GAPS.some((gap) => gap.test(pr)));
    if (problems.length > 0) this.responseViolations.push({ method, path: pathname, problems });
  }

  // ---- REST routes ---------------------------------------------------------------------------

  private routes(): Record<string, Handler> {
    const num = (ctx: RequestContext, name: string) => Number(ctx.params[name]);
    const p = (ctx: RequestContext, name: string) => ctx.params[name] ?? '';
    const notFound: Reply = { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' } };
    return {
      'GET /user': () => {
        if (this.viewer.type === 'Bot') {
          return { status: 403, body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user', status: '403' } };
        }
        return { status: 200, body: { ...this.spec.sample('public-user'), ...this.userJson(this.viewer), user_view_type: 'public' } };
      },

      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments': (ctx) => {
        const list = this.issueComments(p(ctx, 'owner'), p(ctx, 'repo'), num(ctx, 'issue_number'));
        return this.page(ctx, list, (c) => this.commentJson(c));
      },

      'POST /repos/{owner}/{repo}/issues/{issue_number}/comments': (ctx) => {
        const { body } = ctx.body as { body: string };
        if (body.length > 65536) return validationFailed('Body is too long (maximum is 65536 characters)');
        const c = this.addComment(p(ctx, 'owner'), p(ctx, 'repo'), num(ctx, 'issue_number'), { body, user: this.viewer });
        return { status: 201, body: this.commentJson(c) };
      },

      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}': (ctx) => {
        const where = this.commentIndex.get(num(ctx, 'comment_id'));
        if (!where || where.owner.toLowerCase() !== p(ctx, 'owner').toLowerCase() || where.repo.toLowerCase() !== p(ctx, 'repo').toLowerCase()) return notFound;
        const c = this.commentsByIssue.get(where.issue)!.find((x) => x.id === num(ctx, 'comment_id'))!;
        const { body } = ctx.body as { body: string };
        if (body.length > 65536) return validationFailed('Body is too long (maximum is 65536 characters)');
        c.body = body;
        c.updatedAt = this.tick();
        c.edits += 1;
        c.editor = this.viewer;
        c.lastEditedAt = c.updatedAt;
        return { status: 200, body: this.commentJson(c) };
      },

      'GET /repos/{owner}/{repo}/collaborators/{username}/permission': (ctx) => {
        const role = this.roles.get(key(p(ctx, 'owner'), p(ctx, 'repo')))?.get(p(ctx, 'username').toLowerCase());
        if (!role) return notFound;
        const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
        const user = { ...this.spec.sample('collaborator'), ...this.userJson({ login: p(ctx, 'username'), type: 'User' }), role_name: role };
        return { status: 200, body: { permission, role_name: role, user } };
      },

      'GET /repos/{owner}/{repo}/issues/{issue_number}/labels': (ctx) => {
        const names = this.labelsByIssue.get(issueKey(p(ctx, 'owner'), p(ctx, 'repo'), num(ctx, 'issue_number'))) ?? [];
        return this.page(ctx, names, (n) => this.labelJson(n));
      },

      'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}': (ctx) => {
        const k = issueKey(p(ctx, 'owner'), p(ctx, 'repo'), num(ctx, 'issue_number'));
        const names = this.labelsByIssue.get(k) ?? [];
        const name = p(ctx, 'name');
        if (!names.includes(name)) return { status: 404, body: { message: 'Label does not exist', documentation_url: 'https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue', status: '404' } };
        const rest = names.filter((n) => n !== name);
        this.labelsByIssue.set(k, rest);
        return { status: 200, body: rest.map((n) => this.labelJson(n)) };
      },

      'GET /repos/{owner}/{repo}/pulls/{pull_number}': (ctx) => {
        const pull = this.pulls.get(issueKey(p(ctx, 'owner'), p(ctx, 'repo'), num(ctx, 'pull_number')));
        if (!pull) return notFound;
        return { status: 200, body: this.pullJson(p(ctx, 'owner'), p(ctx, 'repo'), pull) };
      },

      'GET /repos/{owner}/{repo}/pulls': (ctx) => {
        const owner = p(ctx, 'owner');
        const repo = p(ctx, 'repo');
        const state = ctx.query.get('state') ?? 'open';
        const head = ctx.query.get('head');
        const list = [...this.pulls.entries()]
          .filter(([k]) => k.startsWith(`${key(owner, repo)}#`))
          .map(([, pull]) => pull)
          .filter((pull) => state === 'all' || pull.state === state)
          .filter((pull) => head === null || `${(pull.headRepo ?? '').split('/')[0]}:${pull.headRef}`.toLowerCase() === head.toLowerCase())
          .sort((a, b) => b.number - a.number);
        return this.page(ctx, list, (pull) => ({ ...this.pullJson(owner, repo, pull), labels: this.labels(owner, repo, pull.number).map((n) => ({ ...this.labelJson(n), description: '' })) }));
      },

      // From base to head: the commits made here and pushed on top (a push changes a file of its
      // own, src/<oid>.ts), oldest first, and the files they change; `diverged` when base is not
      // under head in what the fake knows.
      'GET /repos/{owner}/{repo}/compare/{basehead}': (ctx) => {
        const [base = '', head = ''] = p(ctx, 'basehead').split('...');
        type Link = { sha: string; parent: string; message: string; author: FakeUser; committer: FakeUser; verified: boolean; files: { path: string; status: string }[] };
        const chain: Link[] = [];
        // A file's status against the parent's files, when the fake knows them (else: modified).
        const statusOf = (parent: string, path: string, deleted: boolean): string => (deleted ? 'removed' : this.trees.get(`${key(p(ctx, 'owner'), p(ctx, 'repo'))}@${parent}`)?.has(path) === false ? 'added' : 'modified');
        for (let at = head; at !== base; ) {
          const made = [...this.commits].reverse().find((c) => c.oid === at);
          const pushed = this.pushes.get(at);
          if (made) {
            const files = [...made.additions.map((f) => ({ path: f.path, status: statusOf(made.parent, f.path, false) })), ...made.deletions.map((path) => ({ path, status: 'removed' }))];
            // createCommitOnBranch: authored by the token's identity, committed and signed by GitHub.
            const web = { login: 'web-flow', type: 'User' as const };
            chain.unshift({ sha: at, parent: made.parent, message: made.body === null ? made.headline : `${made.headline}\n\n${made.body}`, author: this.viewer, committer: web, verified: true, files });
            at = made.parent;
          } else if (pushed) {
            const files = Object.entries(pushed.files).map(([path, text]) => ({ path, status: statusOf(pushed.parent, path, text === null) }));
            const who = { login: pushed.author, type: (pushed.author.endsWith('[bot]') ? 'Bot' : 'User') as FakeUser['type'] };
            chain.unshift({ sha: at, parent: pushed.parent, message: pushed.body === null ? pushed.headline : `${pushed.headline}\n\n${pushed.body}`, author: who, committer: who, verified: false, files });
            at = pushed.parent;
          } else {
            return { status: 200, body: { ...this.spec.sample('commit-comparison'), status: 'diverged', ahead_by: 1, behind_by: 1, total_commits: 1, commits: [], files: [] } };
          }
        }
        const commit = (c: Link): unknown => {
          const sample = this.spec.sample('commit');
          const inner = sample.commit as Record<string, unknown>;
          const verification = { verified: c.verified, reason: c.verified ? 'valid' : 'unsigned', signature: null, payload: null, verified_at: null };
          return { ...sample, sha: c.sha, author: this.userJson(c.author), committer: this.userJson(c.committer), commit: { ...inner, message: c.message, verification }, parents: [{ sha: c.parent, url: 'https://example.invalid/' }] };
        };
        // Each file once, as GitHub lists the change from base to head.
        const byPath = new Map<string, string>();
        for (const f of chain.flatMap((c) => c.files)) {
          // Added and removed again between base and head: no change, and GitHub lists none.
          if (f.status === 'removed' && byPath.get(f.path) === 'added') byPath.delete(f.path);
          else byPath.set(f.path, byPath.has(f.path) && f.status !== 'removed' ? (byPath.get(f.path) === 'added' ? 'added' : f.status) : f.status);
        }
        const files = [...byPath].map(([path, status]) => ({ ...this.spec.sample('diff-entry'), filename: path, status }));
        const status = chain.length === 0 ? 'identical' : 'ahead';
        const mergeBase = { ...this.spec.sample('commit'), sha: base };
        return {
          status: 200,
          body: { ...this.spec.sample('commit-comparison'), status, ahead_by: chain.length, behind_by: 0, total_commits: chain.length, commits: chain.map(commit), files, merge_base_commit: mergeBase },
        };
      },

      // A file (its text, base64, and its blob's id) or a folder's entries at the commit `ref` (an
      // oid the fake knows the files of, or a branch), as the contents API gives them; 404 when
      // nothing is there or the ref is unknown.
      'GET /repos/{owner}/{repo}/contents/{path}': (ctx) => {
        const repoName = `${p(ctx, 'owner')}/${p(ctx, 'repo')}`;
        const ref = ctx.query.get('ref') ?? 'main';
        // A fork's pull request's head, through the base repository (GitHub keeps it as refs/pull/<n>/head).
        const forkHead = [...this.pulls.entries()].find(([k, pull]) => k.startsWith(`${key(p(ctx, 'owner'), p(ctx, 'repo'))}#`) && pull.headSha === ref && pull.headRepo !== null)?.[1];
        const files =
          this.trees.get(`${repoName.toLowerCase()}@${ref}`) ?? this.branches.get(branchKey(repoName, ref))?.files ?? (forkHead ? this.trees.get(`${(forkHead.headRepo as string).toLowerCase()}@${ref}`) : undefined);
        const path = p(ctx, 'path').replace(/\/+$/, '');
        if (!files) return { status: 404, body: { message: `No commit found for the ref ${ref}`, documentation_url: 'https://docs.github.com/rest/repos/contents#get-repository-content', status: '404' } };
        const api = `https://api.github.com/repos/${repoName}`;
        const entry = (name: string, at: string, type: 'file' | 'dir', sha: string, size: number): Record<string, unknown> => ({
          type,
          size,
          name,
          path: at,
          sha,
          url: `${api}/contents/${at}?ref=${ref}`,
          git_url: `${api}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`,
          html_url: `https://github.com/${repoName}/${type === 'file' ? 'blob' : 'tree'}/${ref}/${at}`,
          download_url: type === 'file' ? `https://raw.githubusercontent.com/${repoName}/${ref}/${at}` : null,
          _links: { self: `${api}/contents/${at}?ref=${ref}`, git: `${api}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`, html: `https://github.com/${repoName}/blob/${ref}/${at}` },
        });
        const file = files.get(path);
        if (file !== undefined) {
          const bytes = Buffer.from(file, 'utf8');
          // Over 1 MB GitHub gives no content: an empty string, encoded `none` (docs.github.com, "Get repository content").
          const large = bytes.length > 1024 * 1024;
          return { status: 200, body: { ...entry(path.split('/').at(-1) ?? path, path, 'file', blobSha(file), bytes.length), encoding: large ? 'none' : 'base64', content: large ? '' : bytes.toString('base64') } };
        }
        const children = new Map<string, Record<string, unknown>>();
        for (const [at, contents] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
          if (!at.startsWith(`${path}/`)) continue;
          const [name = '', ...deeper] = at.slice(path.length + 1).split('/');
          if (deeper.length === 0) children.set(name, entry(name, at, 'file', blobSha(contents), Buffer.byteLength(contents)));
          else if (!children.has(name)) children.set(name, entry(name, `${path}/${name}`, 'dir', createHash('sha1').update(`tree ${ref}:${path}/${name}`).digest('hex'), 0));
        }
        if (children.size === 0) return notFound;
        return { status: 200, body: [...children.values()] };
      },

      'GET /repos/{owner}/{repo}/git/blobs/{file_sha}': (ctx) => {
        const contents = this.blobs.get(p(ctx, 'file_sha'));
        if (contents === undefined) return notFound;
        const bytes = Buffer.from(contents, 'utf8');
        const sha = p(ctx, 'file_sha');
        return { status: 200, body: { sha, node_id: `B_${sha}`, size: bytes.length, url: `https://api.github.com/repos/${p(ctx, 'owner')}/${p(ctx, 'repo')}/git/blobs/${sha}`, content: bytes.toString('base64'), encoding: 'base64' } };
      },

      // Pull requests that contain the commit: here, those whose head is that commit (open or closed).
      'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls': (ctx) => {
        const owner = p(ctx, 'owner');
        const repo = p(ctx, 'repo');
        const sha = p(ctx, 'commit_sha');
        const list = [...this.pulls.entries()]
          .filter(([k]) => k.startsWith(`${key(owner, repo)}#`))
          .map(([, pull]) => pull)
          .filter((pull) => pull.headSha === sha)
          .sort((a, b) => a.number - b.number);
        return this.page(ctx, list, (pull) => ({ ...this.pullJson(owner, repo, pull), labels: this.labels(owner, repo, pull.number).map((n) => ({ ...this.labelJson(n), description: '' })) }));
      },

      'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches': (ctx) => {
        const owner = p(ctx, 'owner');
        const repo = p(ctx, 'repo');
        const workflow = p(ctx, 'workflow_id');
        const wf = this.workflows.get(`${key(owner, repo)}/${workflow}`);
        if (!wf) return notFound;
        const { ref, inputs, return_run_details: details } = ctx.body as { ref: string; inputs?: unknown; return_run_details?: boolean };
        if (!wf.dispatchable) return { status: 422, body: { message: "Workflow does not have 'workflow_dispatch' trigger", documentation_url: 'https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event', status: '422' } };
        if (!this.branches.has(branchKey(`${owner}/${repo}`, ref))) return { status: 422, body: { message: `No ref found for: ${ref}`, documentation_url: 'https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event', status: '422' } };
        this.dispatches.push({ repo: `${owner}/${repo}`, workflow, ref, inputs: inputs ?? null });
        if (details !== true) return { status: 204 };
        const runId = this.nextId++;
        return {
          status: 200,
          body: { workflow_run_id: runId, run_url: `https://api.github.com/repos/${owner}/${repo}/actions/runs/${runId}`, html_url: `https://github.com/${owner}/${repo}/actions/runs/${runId}` },
        };
      },

      // The runs of one workflow (by file name), newest first, filtered as GitHub does by branch,
      // event and status (a conclusion such as `success`, or a status such as `completed`).
      'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs': (ctx) => {
        const owner = p(ctx, 'owner');
        const repo = p(ctx, 'repo');
        const workflow = p(ctx, 'workflow_id');
        const branch = ctx.query.get('branch');
        const event = ctx.query.get('event');
        const status = ctx.query.get('status');
        const list = [...this.runs.entries()]
          .filter(([k]) => k.startsWith(`${key(owner, repo)}#`))
          .map(([, run]) => run)
          .filter((run) => run.workflow === workflow)
          .filter((run) => branch === null || run.branch === branch)
          .filter((run) => event === null || run.event === event)
          .filter((run) => status === null || run.status === status || run.conclusion === status)
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
        const paged = this.page(ctx, list, (run) => this.runJson(owner, repo, run));
        return { ...paged, body: { total_count: list.length, workflow_runs: paged.body } };
      },

      'GET /repos/{owner}/{repo}/actions/runs/{run_id}': (ctx) => {
        const run = this.runs.get(`${key(p(ctx, 'owner'), p(ctx, 'repo'))}#${num(ctx, 'run_id')}`);
        if (!run) return notFound;
        return { status: 200, body: this.runJson(p(ctx, 'owner'), p(ctx, 'repo'), run) };
      },

      'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts': (ctx) => {
        const repoKey = key(p(ctx, 'owner'), p(ctx, 'repo'));
        const runId = num(ctx, 'run_id');
        const name = ctx.query.get('name');
        const list = [...this.artifacts.values()].filter((a) => a.repoKey === repoKey && a.runId === runId && (name === null || a.name === name));
        const paged = this.page(ctx, list, (a) => this.artifactJson(p(ctx, 'owner'), p(ctx, 'repo'), a));
        return { ...paged, body: { total_count: list.length, artifacts: paged.body } };
      },

      'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}': (ctx) => {
        const a = this.artifacts.get(num(ctx, 'artifact_id'));
        if (!a || a.repoKey !== key(p(ctx, 'owner'), p(ctx, 'repo')) || p(ctx, 'archive_format') !== 'zip') return notFound;
        if (a.expired) return { status: 410, body: { message: 'Artifact has expired', documentation_url: 'https://docs.github.com/rest/actions/artifacts#download-an-artifact', status: '410' } };
        return { status: 302, headers: { location: `${this.origin}/_fake/blobs/artifacts/${a.id}.zip` } };
      },
    };
  }

  /** Serves one page of `items` with GitHub's per_page / page semantics and Link header. */
  private page<T>(ctx: RequestContext, items: readonly T[], toJson: (item: T) => unknown): Reply & { body: unknown[] } {
    const perPage = Math.min(this.maxPerPage, 100, Math.max(1, Number(ctx.query.get('per_page') ?? 30)));
    const page = Math.max(1, Number(ctx.query.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage).map(toJson);
    const link = (n: number) => {
      const q = new URLSearchParams(ctx.query);
      q.set('per_page', String(perPage));
      q.set('page', String(n));
      return `${this.origin}${ctx.pathname}?${q.toString()}`;
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`);
    if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
    if (page > 1) rels.push(`<${link(1)}>; rel="first"`);
    return { status: 200, body: slice, headers: rels.length > 0 ? { link: rels.join(', ') } : {} };
  }

  // ---- GraphQL ---------------------------------------------------------------------------------

  private graphql(body: unknown, recorded: RecordedRequest): Reply {
    const violation = (problems: string[]): Reply => {
      this.violations.push({ method: 'POST', path: '/graphql', problems });
      return { status: 200, body: { errors: problems.map((message) => ({ message })) } };
    };
    if (typeof body !== 'object' || body === null || typeof (body as { query?: unknown }).query !== 'string') {
      return violation([`GraphQL request body must be {query, variables?}, got ${JSON.stringify(body)?.slice(0, 80)}`]);
    }
    const { query, variables, operationName } = body as { query: string; variables?: unknown; operationName?: string };
    const allowed = new Set(['query', 'variables', 'operationName']);
    const extra = Object.keys(body).filter((k) => !allowed.has(k));
    if (extra.length > 0) return violation([`GraphQL request body has unknown keys: ${extra.join(', ')}`]);
    if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
      return violation(['GraphQL variables must be an object']);
    }
    const schema = loadGraphqlSchema();
    const checked = checkDocument(schema, query);
    if ('problems' in checked) return violation([...checked.problems]);
    const { document } = checked;
    const operation = getOperationAST(document, operationName ?? undefined);
    if (!operation) return violation(['GraphQL: no operation to run (several operations and no operationName?)']);
    recorded.operationName = operation.name?.value ?? null;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], (variables ?? {}) as Record<string, unknown>);
    if (coerced.errors) return violation(coerced.errors.map((e) => `GraphQL variables: ${e.message}`));
    const declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
    const unused = Object.keys((variables ?? {}) as object).filter((k) => !declared.has(k));
    if (unused.length > 0) return violation([`GraphQL variables not declared by the operation: ${unused.join(', ')}`]);

    const result = execute({ schema, document, rootValue: this.graphqlRoot(), variableValues: variables as Record<string, unknown>, operationName: operationName ?? undefined });
    if (result instanceof Promise) throw new Error('fake-github: async resolvers are not supported');
    const out: Record<string, unknown> = { data: result.data ?? null };
    if (result.errors) {
      out['errors'] = result.errors.map((e: GraphQLError) => ({
        type: e.originalError instanceof FakeGraphqlError ? e.originalError.type : 'INTERNAL',
        path: e.path,
        locations: e.locations,
        message: e.message,
      }));
      const internal = result.errors.filter((e) => !(e.originalError instanceof FakeGraphqlError));
      if (internal.length > 0) this.violations.push({ method: 'POST', path: '/graphql', problems: internal.map((e) => `GraphQL execution: ${e.message}`) });
    }
    return { status: 200, body: out };
  }

  private graphqlRoot(): Record<string, unknown> {
    return {
      viewer: () => {
        if (this.graphqlViewerLogin === null) throw new FakeGraphqlError('FORBIDDEN', 'Resource not accessible by integration');
        return { login: this.graphqlViewerLogin };
      },
      createCommitOnBranch: (args: { input: CommitInput }) => this.createCommit(args.input),
      node: (args: { id: string }) => this.commentNode(args.id),
      repository: (args: { owner: string; name: string }) => ({
        ref: (refArgs: { qualifiedName: string }) => this.refJson(`${args.owner}/${args.name}`, refArgs.qualifiedName),
        pullRequest: (prArgs: { number: number }) => this.pullRequestJson(args.owner, args.name, prArgs.number),
      }),
    };
  }

  /** `Query.node` for an issue comment's id (`IC_<id>`): who last edited it, and when. */
  private commentNode(id: string): unknown {
    const n = /^IC_(\d+)$/.exec(id);
    const where = n ? this.commentIndex.get(Number(n[1])) : undefined;
    const c = where ? this.issueComments(where.owner, where.repo, where.issueNumber).find((x) => x.id === Number(n![1])) : undefined;
    if (!c) throw new FakeGraphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
    const editor = c.editor === null ? null : { __typename: c.editor.type === 'Bot' ? 'Bot' : 'User', login: c.editor.type === 'Bot' ? c.editor.login.replace(/\[bot\]$/, '') : c.editor.login };
    return { __typename: 'IssueComment', lastEditedAt: c.lastEditedAt, editor };
  }

  /**
   * `Repository.pullRequest`: only its timeline's LabeledEvents (setLabels), the newest `last` (at
   * most 100, as GitHub allows) before the cursor `before`, with their pageInfo. A cursor is the
   * index of an event, opaque as GitHub's are.
   */
  private pullRequestJson(owner: string, repo: string, number: number): unknown {
    const k = issueKey(owner, repo, number);
    if (!this.pulls.has(k)) throw new FakeGraphqlError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${number}.`);
    const cursor = (i: number): string => Buffer.from(`cursor:v2:${i}`).toString('base64');
    return {
      number,
      timelineItems: (args: { itemTypes?: string[]; last?: number; before?: string | null }) => {
        if (args.itemTypes?.join() !== 'LABELED_EVENT' || args.last === undefined) throw new FakeGraphqlError('UNPROCESSABLE', 'the fake only answers timelineItems(itemTypes: [LABELED_EVENT], last: n, before?)');
        if (args.last < 0 || args.last > 100) throw new FakeGraphqlError('UNPROCESSABLE', `Requesting ${args.last} records on the \`timelineItems\` connection exceeds the \`last\` limit of 100 records.`);
        const events = this.labelEvents.get(k) ?? [];
        let end = events.length;
        if (args.before !== undefined && args.before !== null) {
          const m = /^cursor:v2:(\d+)$/.exec(Buffer.from(args.before, 'base64').toString());
          if (m === null) throw new FakeGraphqlError('INVALID_CURSOR_ARGUMENTS', `\`${args.before}\` does not appear to be a valid cursor.`);
          end = Math.min(events.length, Number(m[1]));
        }
        const start = Math.max(0, end - args.last);
        const page = events.slice(start, end);
        return {
          pageInfo: { hasPreviousPage: start > 0, hasNextPage: end < events.length, startCursor: page.length > 0 ? cursor(start) : null, endCursor: page.length > 0 ? cursor(end - 1) : null },
          nodes: page.map((e) => ({ __typename: 'LabeledEvent', createdAt: e.createdAt, label: { name: e.label }, actor: { __typename: /\[bot\]$/.test(e.actor) ? 'Bot' : 'User', login: e.actor.replace(/\[bot\]$/, '') } })),
        };
      },
    };
  }

  /** `Repository.ref`: the branch's head as a Commit, with its history (our commits, pushes on top, and an unknown head). */
  private refJson(repoWithOwner: string, qualifiedName: string): unknown {
    const name = qualifiedName.replace(/^refs\/heads\//, '');
    const b = this.branches.get(branchKey(repoWithOwner, name));
    if (!b) return null;
    const node = (oid: string): { oid: string; messageHeadline: string; messageBody: string; parents: { nodes: { oid: string }[] }; parent: string | null } => {
      const made = [...this.commits].reverse().find((c) => c.oid === oid);
      const pushed = this.pushes.get(oid);
      const parent = made?.parent ?? pushed?.parent ?? null;
      return {
        oid,
        messageHeadline: made?.headline ?? pushed?.headline ?? `Someone else's commit ${oid.slice(0, 7)}`,
        messageBody: made?.body ?? pushed?.body ?? '',
        parents: { nodes: parent === null ? [] : [{ oid: parent }] },
        parent,
      };
    };
    return {
      name,
      prefix: 'refs/heads/',
      target: {
        __typename: 'Commit',
        ...node(b.head),
        history: (args: { first?: number }) => {
          const nodes = [];
          for (let at: string | null = b.head; at !== null && nodes.length < (args.first ?? 100); ) {
            const n = node(at);
            nodes.push(n);
            at = n.parent;
          }
          return { nodes };
        },
      },
    };
  }

  private createCommit(input: CommitInput): unknown {
    const repo = input.branch.repositoryNameWithOwner;
    const branchName = input.branch.branchName;
    if (!repo || !branchName) throw new FakeGraphqlError('UNPROCESSABLE', 'the fake only supports branch: {repositoryNameWithOwner, branchName}');
    const b = this.branches.get(branchKey(repo, branchName));
    if (!b) throw new FakeGraphqlError('NOT_FOUND', `Could not resolve to a Ref with the name refs/heads/${branchName}.`);
    const refusal = this.commitRefusals.get(branchKey(repo, branchName));
    if (refusal) throw new FakeGraphqlError(refusal.type, refusal.message);
    if (input.expectedHeadOid !== b.head) {
      throw new FakeGraphqlError('STALE_DATA', `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`);
    }
    const additions = (input.fileChanges?.additions ?? []).map((a) => {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.contents) || a.contents.length % 4 !== 0) {
        this.violations.push({ method: 'POST', path: '/graphql', problems: [`createCommitOnBranch: contents of ${a.path} is not base64`] });
      }
      return { path: a.path, contents: Buffer.from(a.contents, 'base64').toString('utf8') };
    });
    const deletions = (input.fileChanges?.deletions ?? []).map((d) => d.path);
    for (const path of deletions) {
      if (!b.files.has(path)) throw new FakeGraphqlError('UNPROCESSABLE', `A path was requested for deletion which does not exist as of commit oid \`${b.head}\``);
    }
    const oid = createHash('sha1').update(JSON.stringify([b.head, input, this.commits.length])).digest('hex');
    this.commits.push({ repo, branch: branchName, parent: b.head, oid, headline: input.message.headline, body: input.message.body ?? null, additions, deletions });
    for (const path of deletions) b.files.delete(path);
    for (const a of additions) b.files.set(a.path, a.contents);
    this.keepTree(repo, oid, b.files);
    b.head = oid;
    this.pullsFollow(repo, branchName, oid);
    return {
      commit: { oid, url: `https://github.com/${repo}/commit/${oid}` },
      ref: { name: `refs/heads/${branchName}` },
    };
  }

  // ---- JSON shapes ------------------------------------------------------------------------------

  private issueComments(owner: string, repo: string, issueNumber: number): FakeComment[] {
    const k = issueKey(owner, repo, issueNumber);
    let list = this.commentsByIssue.get(k);
    if (!list) {
      list = [];
      this.commentsByIssue.set(k, list);
    }
    return list;
  }

  private userJson(user: FakeUser): Record<string, unknown> {
    const id = USER_IDS[user.login] ?? (USER_IDS[user.login] = nextUserId++);
    const api = `https://api.github.com/users/${encodeURIComponent(user.login)}`;
    return {
      login: user.login,
      id,
      node_id: `U_${id}`,
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: user.type === 'Bot' ? `https://github.com/apps/${user.login.replace(/\[bot\]$/, '')}` : `https://github.com/${user.login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: user.type,
      user_view_type: 'public',
      site_admin: false,
    };
  }

  private commentJson(c: FakeComment): Record<string, unknown> {
    const where = this.commentIndex.get(c.id)!;
    const kind = this.pulls.has(where.issue) ? 'pull' : 'issues';
    return {
      id: c.id,
      node_id: `IC_${c.id}`,
      url: `https://api.github.com/repos/${where.owner}/${where.repo}/issues/comments/${c.id}`,
      html_url: `https://github.com/${where.owner}/${where.repo}/${kind}/${where.issueNumber}#issuecomment-${c.id}`,
      body: c.body,
      user: this.userJson(c.user),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      issue_url: `https://api.github.com/repos/${where.owner}/${where.repo}/issues/${where.issueNumber}`,
      author_association: c.user.type === 'Bot' ? 'NONE' : 'CONTRIBUTOR',
    };
  }

  private labelJson(name: string): Record<string, unknown> {
    const id = Number.parseInt(createHash('sha1').update(name).digest('hex').slice(0, 8), 16);
    return { id, node_id: `LA_${id}`, url: `https://api.github.com/labels/${encodeURIComponent(name)}`, name, description: null, color: 'ededed', default: false };
  }

  private repoJson(fullName: string): Record<string, unknown> {
    const [owner = 'o', name = 'r'] = fullName.split('/');
    return {
      ...this.spec.sample('repository'),
      name,
      full_name: fullName,
      owner: this.userJson({ login: owner, type: 'User' }),
      html_url: `https://github.com/${fullName}`,
      fork: false,
      private: false,
    };
  }

  private pullJson(owner: string, repo: string, pull: FakePull): Record<string, unknown> {
    const base = `${owner}/${repo}`;
    const headRepo = pull.headRepo;
    return {
      ...this.spec.sample('pull-request'),
      number: pull.number,
      state: pull.state,
      html_url: `https://github.com/${base}/pull/${pull.number}`,
      labels: this.labels(owner, repo, pull.number).map((n) => this.labelJson(n)),
      user: this.userJson(pull.user),
      head: {
        label: `${(headRepo ?? base).split('/')[0]}:${pull.headRef}`,
        ref: pull.headRef,
        sha: pull.headSha,
        repo: headRepo ? { ...this.repoJson(headRepo), fork: headRepo.toLowerCase() !== base.toLowerCase() } : null,
        user: this.userJson({ login: (headRepo ?? base).split('/')[0]!, type: 'User' }),
      },
      base: {
        label: `${owner}:${pull.baseRef}`,
        ref: pull.baseRef,
        sha: this.branches.get(branchKey(base, pull.baseRef))?.head ?? '0'.repeat(40),
        repo: this.repoJson(base),
        user: this.userJson({ login: owner, type: 'User' }),
      },
    };
  }

  private runJson(owner: string, repo: string, run: FakeRun): Record<string, unknown> {
    return {
      ...this.spec.sample('workflow-run'),
      id: run.id,
      run_number: 1,
      run_attempt: run.runAttempt,
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      head_sha: run.headSha,
      head_branch: run.branch,
      path: `.github/workflows/${run.workflow}`,
      created_at: run.createdAt,
      updated_at: run.createdAt,
      run_started_at: run.createdAt,
      html_url: `https://github.com/${owner}/${repo}/actions/runs/${run.id}`,
    };
  }

  private artifactJson(owner: string, repo: string, a: FakeArtifact): Record<string, unknown> {
    return {
      id: a.id,
      node_id: `MDg6QXJ0aWZhY3Q${a.id}`,
      name: a.name,
      size_in_bytes: a.listedSize ?? a.zip.length,
      url: `https://api.github.com/repos/${owner}/${repo}/actions/artifacts/${a.id}`,
      archive_download_url: `https://api.github.com/repos/${owner}/${repo}/actions/artifacts/${a.id}/zip`,
      expired: a.expired,
      created_at: '2026-01-01T00:00:00Z',
      expires_at: '2026-04-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      digest: null,
      workflow_run: { id: a.runId, repository_id: 1, head_repository_id: 1, head_branch: 'feature', head_sha: '0'.repeat(40) },
    };
  }

  private tick(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
}

interface CommitInput {
  branch: { repositoryNameWithOwner?: string; branchName?: string; id?: string };
  expectedHeadOid: string;
  message: { headline: string; body?: string | null };
  fileChanges?: { additions?: { path: string; contents: string }[]; deletions?: { path: string }[] } | null;
}

function validationFailed(message: string): Reply {
  return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message }], documentation_url: 'https://docs.github.com/rest' } };
}

/** The id git gives a file of this text: the SHA-1 of `blob <length>\0` and its bytes. */
function blobSha(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = {
    'x-github-media-type': 'github.v3; format=json',
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '4999',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
    ...(reply.headers ?? {}),
  };
  if (reply.raw !== undefined) {
    res.writeHead(reply.status, { ...headers, 'content-length': String(reply.raw.length) });
    res.end(reply.raw);
    return;
  }
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** `head`, then zeros in 64 KB chunks for as long as the client reads them (written when the socket drains). */
function sendEndless(res: ServerResponse, head: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/zip' });
  const zeros = Buffer.alloc(64 * 1024);
  const pump = (): void => {
    while (!res.destroyed && res.write(zeros));
  };
  res.on('drain', pump);
  res.on('close', () => res.off('drain', pump));
  if (res.write(head)) pump();
}

/** Starts a fake GitHub on 127.0.0.1 with an ephemeral port. Call `close()` when done. */
export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  return new FakeGitHub(options).listen();
}
