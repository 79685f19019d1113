// The fake GitHub must be able to FAIL a test: these requests are wrong on purpose.

import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createOctokit, type GitHubOctokit } from '../../src/github/octokit.js';
import { startFakeGitHub, type FakeGitHub } from '../support/github-server.js';
import { OpenApiSpec } from '../support/openapi.js';
import { fullDescriptionFile } from '../support/openapi-trim.js';

let gh: FakeGitHub | null = null;
afterEach(async () => {
  await gh?.close();
  gh = null;
});

interface Client {
  /** Untyped on purpose: these tests send what Octokit's types would refuse. */
  request(route: string, params: Record<string, unknown>): Promise<unknown>;
  graphql: GitHubOctokit['graphql'];
}

async function start(): Promise<{ gh: FakeGitHub; octokit: Client }> {
  gh = await startFakeGitHub();
  const octokit = createOctokit({ token: gh.token, baseUrl: gh.url, retries: 0, retryAfterBaseMs: 0, throttleWrites: false });
  return { gh, octokit: { request: (route, params) => octokit.request(route, params), graphql: octokit.graphql } };
}

async function status(promise: Promise<unknown>): Promise<number | string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as { status?: number }).status ?? String(error);
  }
}

describe('fake GitHub: REST requests are checked against the OpenAPI description', () => {
  it('flags an unknown path and answers 400', async () => {
    const { gh, octokit } = await start();
    expect(await status(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/commentz', { owner: 'o', repo: 'r', issue_number: 5 }))).toBe(400);
    expect(gh.violations).toEqual([
      { method: 'GET', path: '/repos/o/r/issues/5/commentz', problems: ['no path in the OpenAPI description matches /repos/o/r/issues/5/commentz'] },
    ]);
  });

  it('flags a method the path does not have', async () => {
    const { gh, octokit } = await start();
    expect(await status(octokit.request('PUT /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 5, body: 'x' }))).toBe(400);
    expect(gh.violations[0]?.problems).toEqual(['PUT is not an operation of /repos/{owner}/{repo}/issues/{issue_number}/comments (it has GET, POST)']);
  });

  it('flags a body of the wrong type, a missing required property and an unknown property', async () => {
    const { gh, octokit } = await start();
    await status(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 5, body: 42 }));
    await status(octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 5, text: 'hi' }));
    expect(gh.violations.map((v) => v.problems)).toEqual([
      ['body.body: expected string, got integer 42'],
      ['body.body: required property missing', 'body.text: unknown property (known: body)'],
    ]);
    expect(gh.comments('o', 'r', 5)).toEqual([]);
  });

  it('flags an unknown query parameter and a non-integer path parameter', async () => {
    const { gh, octokit } = await start();
    await status(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 5, perpage: 100 }));
    await status(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 'five' }));
    await status(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: 'o', repo: 'r', issue_number: 5, per_page: 'many' }));
    expect(gh.violations.map((v) => v.problems[0])).toEqual([
      'query parameter perpage is not a parameter of issues/list-comments (known: since, per_page, page)',
      'path parameter issue_number: expected an integer, got "five"',
      'query parameter per_page: expected an integer, got "many"',
    ]);
  });

  it('flags a valid operation that the fake does not implement', async () => {
    const { gh, octokit } = await start();
    expect(await status(octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner: 'o', repo: 'r', issue_number: 5 }))).toBe(501);
    expect(gh.violations[0]?.problems).toEqual(['issues/get is valid but not implemented by the fake']);
  });

  it('answers 401 to a request without the token', async () => {
    gh = await startFakeGitHub();
    const res = await fetch(`${gh.url}/repos/o/r/issues/5/comments`);
    expect(res.status).toBe(401);
  });
});

describe('fake GitHub: GraphQL documents are checked against the schema', () => {
  it('flags a field that does not exist', async () => {
    const { gh, octokit } = await start();
    const error = await octokit.graphql('query { viewer { loginName } }').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'GraphqlResponseError' });
    expect(gh.violations).toEqual([
      { method: 'POST', path: '/graphql', problems: ['GraphQL validation: Cannot query field "loginName" on type "User". Did you mean "login"?'] },
    ]);
  });

  it('flags variables that do not fit the declared input type', async () => {
    const { gh, octokit } = await start();
    gh.setBranch('o/r', 'main', 'a'.repeat(40));
    await octokit
      .graphql('mutation ($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }', {
        input: { branch: { repositoryNameWithOwner: 'o/r', branchName: 'main' }, message: { headline: 'x' }, fileChanges: { additions: [{ path: 'a' }] } },
      })
      .catch(() => undefined);
    expect(gh.violations).toHaveLength(1);
    expect(gh.violations[0]!.problems.join('\n')).toMatch(/expectedHeadOid.*not provided|Field "expectedHeadOid" of required type/);
    expect(gh.violations[0]!.problems.join('\n')).toMatch(/contents/);
    expect(gh.commits).toEqual([]);
  });

  it('flags a syntax error', async () => {
    const { gh, octokit } = await start();
    await octokit.graphql('query { viewer { login }').catch(() => undefined);
    expect(gh.violations[0]?.problems[0]).toMatch(/^GraphQL syntax: Syntax Error/);
  });

  it('checks a document sent again as the first time: each sending of a wrong one is flagged, a right one is run with its own variables', async () => {
    // A document is parsed and validated once per process (github-server.ts checkDocument).
    const { gh, octokit } = await start();
    for (let i = 0; i < 2; i++) await octokit.graphql('query { viewer { loginName } }').catch(() => undefined);
    expect(gh.violations.map((v) => v.problems)).toEqual([
      ['GraphQL validation: Cannot query field "loginName" on type "User". Did you mean "login"?'],
      ['GraphQL validation: Cannot query field "loginName" on type "User". Did you mean "login"?'],
    ]);
    gh.addComment('o', 'r', 5, { body: 'first' });
    const second = gh.addComment('o', 'r', 5, { body: 'second' });
    gh.editComment(second.id, 'edited');
    const query = 'query agentReplayCommentEdit($id: ID!) { node(id: $id) { ... on IssueComment { lastEditedAt } } }';
    const edits = [];
    for (const id of [second.id - 1, second.id]) edits.push(await octokit.graphql<{ node: { lastEditedAt: string | null } }>(query, { id: `IC_${id}` }));
    expect(edits.map((e) => e.node.lastEditedAt === null)).toEqual([true, false]);
    expect(gh.violations).toHaveLength(2);
  });
});

describe('OpenApiSpec', () => {
  const spec = OpenApiSpec.load();

  it('prefers the most literal template', () => {
    expect(spec.match('PATCH', '/repos/o/r/issues/comments/12').operation?.operationId).toBe('issues/update-comment');
    expect(spec.match('GET', '/repos/o/r/issues/12/comments').operation?.operationId).toBe('issues/list-comments');
  });

  it('lets a trailing parameter take slashes when nothing else matches', () => {
    const m = spec.match('GET', '/repos/o/r/git/ref/heads/feature/x');
    expect(m.operation?.operationId).toBe('git/get-ref');
    expect(m.pathParams['ref']).toBe('heads/feature/x');
  });

  it('reads the copy the test run trimmed once: a tenth of the size, and the same checks, a body property named description included', () => {
    const file = inject('openapiFile');
    expect(statSync(file).size).toBeLessThan(statSync(fullDescriptionFile()).size / 3);
    const full = new OpenApiSpec(JSON.parse(readFileSync(fullDescriptionFile(), 'utf8')) as ConstructorParameters<typeof OpenApiSpec>[0]);
    for (const s of [spec, full]) {
      expect(s.checkRequest('POST', '/user/repos', new URLSearchParams(), { name: 'r', description: 'd', private: true }).problems).toEqual([]);
      expect(s.checkRequest('POST', '/user/repos', new URLSearchParams(), { name: 'r', descriptio: 'd' }).problems).toHaveLength(1);
      expect(s.checkRequest('PATCH', '/repos/o/r/issues/comments/12', new URLSearchParams(), { body: 'x' }).operation?.operationId).toBe('issues/update-comment');
    }
  });

  it('accepts oneOf when one alternative fits', () => {
    const labels = spec.checkRequest('POST', '/repos/o/r/issues/5/labels', new URLSearchParams(), { labels: ['a', 'b'] });
    expect(labels.problems).toEqual([]);
    const wrong = spec.checkRequest('POST', '/repos/o/r/issues/5/labels', new URLSearchParams(), { labels: 7 });
    expect(wrong.problems).toHaveLength(1);
  });
});

describe('fake GitHub: something that happens while a request is answered (onNext)', () => {
  it('answers the request as usual, runs once, and what it changed is what the next request sees', async () => {
    const { gh, octokit } = await start();
    gh.addPull('o', 'r', { number: 7, headSha: 'a'.repeat(40) });
    gh.onNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', then: () => gh.addPull('o', 'r', { number: 7, headSha: 'a'.repeat(40), state: 'closed' }) });
    const state = async (): Promise<unknown> => ((await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: 7 })) as { data: { state: string } }).data.state;
    expect(await state()).toBe('open'); // the answer was made before the pull request was closed
    expect(await state()).toBe('closed');
    gh.addPull('o', 'r', { number: 7, headSha: 'a'.repeat(40) });
    expect(await state()).toBe('open'); // it ran once
    expect(gh.violations).toEqual([]);
  });
});

describe('fake GitHub: pushOnTop takes a commit id of its own', () => {
  it('refuses an id it already knows (the reviewed head, a commit made, a push before): no test passes by a collision', async () => {
    const { gh, octokit } = await start();
    const HEAD = '1'.repeat(40);
    gh.addPull('o', 'r', { number: 7, headSha: HEAD, headRef: 'feature' });
    gh.addWorkflowRun('o', 'r', { id: 1001, headSha: '5'.repeat(40) });
    const made = (await octokit.graphql(
      'mutation m($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }',
      { input: { branch: { repositoryNameWithOwner: 'o/r', branchName: 'feature' }, expectedHeadOid: HEAD, message: { headline: 'Accept' }, fileChanges: { additions: [{ path: 'a.json', contents: 'e30=' }] } } },
    )) as { createCommitOnBranch: { commit: { oid: string } } };
    const oid = made.createCommitOnBranch.commit.oid;
    // The pull request followed its branch: the reviewed head is now the commit's parent.
    expect(() => gh.pushOnTop('o/r', 'feature', HEAD)).toThrow(`fake-github: pushOnTop(o/r:feature, ${HEAD}): that id is already the parent of the commit made on o/r:feature ("Accept"); give the pushed commit an id of its own`);
    expect(() => gh.pushOnTop('o/r', 'feature', oid.toUpperCase())).toThrow(/that id is already the head of the branch o\/r:feature/);
    expect(() => gh.pushOnTop('o/r', 'feature', '5'.repeat(40))).toThrow(/that id is already the head commit of workflow run 1001/);
    gh.pushOnTop('o/r', 'feature', '4'.repeat(40));
    expect(() => gh.pushOnTop('o/r', 'feature', oid)).toThrow(/that id is already the commit made on o\/r:feature \("Accept"\)/);
    expect(() => gh.pushOnTop('o/r', 'feature', '4'.repeat(40))).toThrow(/that id is already the head of the branch o\/r:feature/);
    gh.moveBranch('o/r', 'feature', '6'.repeat(40));
    expect(() => gh.pushOnTop('o/r', 'feature', '4'.repeat(40))).toThrow(/that id is already a commit pushed on top before \(pushOnTop\)/);
    expect(gh.branch('o/r', 'feature')?.head).toBe('6'.repeat(40));
    expect(gh.violations).toEqual([]);
  });
});

describe('fake GitHub: addPull keeps the files of its head commit', () => {
  it('refuses a head branch it does not know over a commit whose files it knows, instead of wiping them', async () => {
    const { gh, octokit } = await start();
    const HEAD = '1'.repeat(40);
    gh.setBranch('o/r', 'main', HEAD, { 'a.yml': 'a' });
    expect(() => gh.addPull('o', 'r', { number: 7, headSha: HEAD, headRef: 'feature' })).toThrow(
      `fake-github: addPull(o/r#7): its head branch o/r:feature is unknown, and making it would wipe the files of ${HEAD}; call setBranch('o/r', 'feature', ...) first, or give the pull request the headRef of the branch that has the commit`,
    );
    expect(await status(octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: 7 }))).toBe(404);
    // The commit still has its file; a known branch, or a commit with no files known, is taken as before.
    const read = (ref: string) => octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { owner: 'o', repo: 'r', path: 'a.yml', ref });
    await expect(read(HEAD)).resolves.toBeTruthy();
    gh.addPull('o', 'r', { number: 7, headSha: HEAD, headRef: 'main' });
    gh.addPull('o', 'r', { number: 8, headSha: '2'.repeat(40), headRef: 'other' });
    gh.addPull('o', 'r', { number: 9, headSha: '2'.repeat(40), headRef: 'another' });
    expect(gh.branch('o/r', 'other')?.head).toBe('2'.repeat(40));
    expect(gh.violations).toEqual([]);
  });
});

describe('fake GitHub: a pull request follows its branch, as GitHub\'s does', () => {
  it('a commit made, pushed on top or moved to on its branch is its head; a closed one, or another branch\'s, stays', async () => {
    const { gh, octokit } = await start();
    const HEAD = '1'.repeat(40);
    gh.addPull('o', 'r', { number: 7, headSha: HEAD, headRef: 'feature' });
    gh.addPull('o', 'r', { number: 8, headSha: HEAD, headRef: 'feature', state: 'closed' });
    gh.addPull('o', 'r', { number: 9, headSha: '2'.repeat(40), headRef: 'other' });
    const head = async (n: number): Promise<string> => ((await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: n })) as { data: { head: { sha: string } } }).data.head.sha;
    const made = (await octokit.graphql(
      'mutation m($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }',
      { input: { branch: { repositoryNameWithOwner: 'o/r', branchName: 'feature' }, expectedHeadOid: HEAD, message: { headline: 'Accept' }, fileChanges: { additions: [{ path: 'a.json', contents: 'e30=' }] } } },
    )) as { createCommitOnBranch: { commit: { oid: string } } };
    expect(await head(7)).toBe(made.createCommitOnBranch.commit.oid);
    gh.pushOnTop('o/r', 'feature', '4'.repeat(40));
    expect(await head(7)).toBe('4'.repeat(40));
    gh.moveBranch('o/r', 'feature', '6'.repeat(40));
    expect(await head(7)).toBe('6'.repeat(40));
    expect(await head(8)).toBe(HEAD);
    expect(await head(9)).toBe('2'.repeat(40));
    expect(gh.violations).toEqual([]);
  });
});

describe('fake GitHub: state() and restore() carry what one fake holds to another', () => {
  it('a fresh fake restored answers as the one copied did, ids and clock go on from there, and a restored fake changes no copy', async () => {
    const { gh: first, octokit } = await start();
    const HEAD = '1'.repeat(40);
    first.addPull('o', 'r', { number: 7, headSha: HEAD, headRef: 'feature' });
    first.addComment('o', 'r', 7, { body: 'the report' });
    first.setLabels('o', 'r', 7, ['accept-baseline'], 'maintainer');
    first.addWorkflowRun('o', 'r', { id: 1001, headSha: HEAD });
    const zip = Buffer.from('PK zip bytes');
    first.addArtifact('o', 'r', 1001, { name: 'results', zip });
    await octokit.graphql('mutation m($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }', {
      input: { branch: { repositoryNameWithOwner: 'o/r', branchName: 'feature' }, expectedHeadOid: HEAD, message: { headline: 'Accept' }, fileChanges: { additions: [{ path: 'a.json', contents: 'e30=' }] } },
    });
    const state = first.state();
    const second = await startFakeGitHub();
    try {
      second.restore(state);
      expect(second.comments('o', 'r', 7)).toEqual(first.comments('o', 'r', 7));
      expect(second.labelTimeline('o', 'r', 7)).toEqual(first.labelTimeline('o', 'r', 7));
      expect(second.commits).toEqual(first.commits);
      expect(second.branch('o/r', 'feature')).toEqual(first.branch('o/r', 'feature'));
      expect(second.requests).toEqual([]);
      const client = createOctokit({ token: second.token, baseUrl: second.url, retries: 0, retryAfterBaseMs: 0, throttleWrites: false });
      const pull = (await client.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { owner: 'o', repo: 'r', pull_number: 7 })).data;
      expect(pull.head.sha).toBe(first.commits[0]?.oid);
      const artifacts = (await client.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', { owner: 'o', repo: 'r', run_id: 1001 })).data.artifacts;
      expect(artifacts.map((a) => [a.name, a.size_in_bytes])).toEqual([['results', zip.length]]);
      // Ids and the clock go on from the copy's, as they would have in the fake copied.
      const next = second.addComment('o', 'r', 7, { body: 'a notice' });
      const same = first.addComment('o', 'r', 7, { body: 'a notice' });
      expect([next.id, next.createdAt]).toEqual([same.id, same.createdAt]);
      // The copy is not the restored fake's: restored again, it has one comment.
      second.restore(state);
      expect(second.comments('o', 'r', 7)).toHaveLength(1);
      expect(second.violations).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
