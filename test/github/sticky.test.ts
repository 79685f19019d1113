import { afterEach, describe, expect, it } from 'vitest';
import { isOwnComment, upsertStickyComment } from '../../src/github/sticky.js';
import type { FakeGitHub } from '../support/github-server.js';
import { hasMarker, MARKER, startHarness, withMarker, type Harness } from './helpers.js';

const O = 'octo';
const R = 'shop';
const PR = 5;

let h: Harness | null = null;
afterEach(async () => {
  await h?.gh.close();
  h = null;
});

function upsert(body: string) {
  return upsertStickyComment(h!.api, { owner: O, repo: R, issueNumber: PR, marker: MARKER, body, hasMarker });
}

function writes(gh: FakeGitHub) {
  return gh.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').map((r) => ({ method: r.method, path: r.path, body: r.body }));
}

describe('upsertStickyComment', () => {
  it('creates the comment on the first run and updates the same comment on the second', async () => {
    h = await startHarness();
    const first = await upsert(withMarker('run 1'));
    const second = await upsert(withMarker('run 2'));

    expect(first.status).toBe('created');
    expect(second).toEqual({ status: 'updated', id: first.id, url: first.url });
    const comments = h.gh.comments(O, R, PR);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ id: first.id, body: withMarker('run 2'), user: { login: 'github-actions[bot]', type: 'Bot' }, edits: 1 });
    expect(writes(h.gh)).toEqual([
      { method: 'POST', path: `/repos/${O}/${R}/issues/${PR}/comments`, body: { body: '<!-- agent-replay:marker=pr-comment -->\nrun 1' } },
      { method: 'PATCH', path: `/repos/${O}/${R}/issues/comments/${first.id}`, body: { body: '<!-- agent-replay:marker=pr-comment -->\nrun 2' } },
    ]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('finds our comment on page 3 behind 250 earlier comments', async () => {
    h = await startHarness();
    h.gh.addComments(O, R, PR, 250, { login: 'reviewer', type: 'User' }, (i) => `looks good ${i}`);
    const ours = h.gh.addComment(O, R, PR, { body: withMarker('old report') });

    const result = await upsert(withMarker('new report'));

    expect(result).toMatchObject({ status: 'updated', id: ours.id });
    const pages = h.gh.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments')).map((r) => r.query);
    expect(pages).toEqual([{ per_page: '100' }, { per_page: '100', page: '2' }, { per_page: '100', page: '3' }]);
    expect(h.gh.comments(O, R, PR)).toHaveLength(251);
    expect(h.gh.comments(O, R, PR).at(-1)?.body).toBe(withMarker('new report'));
    expect(writes(h.gh).map((w) => w.method)).toEqual(['PATCH']);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('reads at most 30 pages: past them, without our comment, posts none (each run would post another) and says why', async () => {
    h = await startHarness();
    // Pages of one comment: the 30 pages are read past with 31 comments, as with 3,001 in pages of 100.
    h.gh.maxPerPage = 1;
    h.gh.addComments(O, R, PR, 31, { login: 'reviewer', type: 'User' }, (i) => `looks good ${i}`);
    const error = await upsert(withMarker('report')).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(
      `pull request #${PR} has more than 3,000 comments and agent-replay reads its oldest 3,000 (where its comment is, written at the first check): its comment is not among them, so no new one was posted (each run would post another)`,
    );
    expect(h.gh.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments'))).toHaveLength(30);
    expect(writes(h.gh)).toEqual([]);
    expect(h.gh.violations).toEqual([]);
  });

  it('never touches a copied marker from another user and creates its own comment', async () => {
    h = await startHarness();
    const forged = h.gh.addComment(O, R, PR, { body: withMarker('I copied the marker'), user: { login: 'mallory', type: 'User' } });

    const first = await upsert(withMarker('report'));
    const second = await upsert(withMarker('report 2'));

    expect(first.status).toBe('created');
    expect(second).toMatchObject({ status: 'updated', id: first.id });
    const comments = h.gh.comments(O, R, PR);
    expect(comments).toHaveLength(2);
    expect(comments[0]).toMatchObject({ id: forged.id, body: withMarker('I copied the marker'), edits: 0 });
    expect(h.gh.requests.some((r) => r.path.endsWith(`/comments/${forged.id}`))).toBe(false);
    expect(h.gh.violations).toEqual([]);
  });

  it('ignores a bot comment with a different marker (another workflow)', async () => {
    h = await startHarness();
    h.gh.addComment(O, R, PR, { body: withMarker('other workflow', 'nightly') });
    const result = await upsert(withMarker('ours'));
    expect(result.status).toBe('created');
    expect(h.gh.comments(O, R, PR)).toHaveLength(2);
    expect(h.gh.violations).toEqual([]);
  });

  it('falls back to github-actions[bot] when GraphQL will not name the viewer', async () => {
    h = await startHarness({ graphqlViewerLogin: null });
    h.gh.addComment(O, R, PR, { body: withMarker('forged by a user named like the bot'), user: { login: 'github-actions[bot]', type: 'User' } });
    const ours = h.gh.addComment(O, R, PR, { body: withMarker('old') });

    const result = await upsert(withMarker('new'));

    expect(result).toMatchObject({ status: 'updated', id: ours.id });
    expect(await h.api.viewerLogin()).toBeNull();
    // GraphQL refused, then REST /user refused (as for a GITHUB_TOKEN), then the bot rule.
    expect(h.gh.requests.map((r) => `${r.method} ${r.path}`).filter((r) => !r.includes('/repos/'))).toEqual(['POST /graphql', 'GET /user']);
    expect(h.gh.violations).toEqual([]);
  });

  it('with an App token, GraphQL down (502 on every try) and REST /user refusing a bot: no duplicate comment; it fails saying what GitHub answered, and the next run asks again', async () => {
    h = await startHarness({ viewer: { login: 'agent-replay-app[bot]', type: 'Bot' }, graphqlViewerLogin: 'agent-replay-app', retries: 1 });
    const ours = h.gh.addComment(O, R, PR, { body: withMarker('run 1') });
    h.gh.failNext({ path: '/graphql', operation: 'agentReplayViewer', status: 502, times: 2 });
    const error = await upsert(withMarker('run 2')).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'server', status: 502 });
    expect(h.gh.comments(O, R, PR)).toHaveLength(1);
    // Not remembered: GitHub answers again, and the comment is the App's own.
    expect(await upsert(withMarker('run 3'))).toMatchObject({ status: 'updated', id: ours.id });
    expect(h.gh.comments(O, R, PR).map((c) => c.body)).toEqual([withMarker('run 3')]);
    expect(h.gh.violations).toEqual([]);
  });

  it('with a personal token, only that user\'s comments are ours', async () => {
    h = await startHarness({ viewer: { login: 'release-bot-user', type: 'User' } });
    h.gh.addComment(O, R, PR, { body: withMarker('from the Actions bot'), user: { login: 'github-actions[bot]', type: 'Bot' } });
    const result = await upsert(withMarker('from the PAT'));
    expect(result.status).toBe('created');
    expect(h.gh.comments(O, R, PR).map((c) => c.user.login)).toEqual(['github-actions[bot]', 'release-bot-user']);
    const again = await upsert(withMarker('from the PAT, again'));
    expect(again).toMatchObject({ status: 'updated', id: result.id });
    expect(h.gh.violations).toEqual([]);
  });

  it('creates a new comment when ours was deleted between listing and updating', async () => {
    h = await startHarness();
    h.gh.addComment(O, R, PR, { body: withMarker('old') });
    h.gh.failNext({ method: 'PATCH', path: '/repos/{owner}/{repo}/issues/comments/{comment_id}', status: 404, body: { message: 'Not Found' } });
    const result = await upsert(withMarker('new'));
    expect(result.status).toBe('created');
    expect(writes(h.gh).map((w) => w.method)).toEqual(['PATCH', 'POST']);
    expect(h.gh.violations).toEqual([]);
  });

  it('propagates a refused create as a GitHubError', async () => {
    h = await startHarness();
    h.gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 403, body: { message: 'Resource not accessible by integration' } });
    await expect(upsert(withMarker('x'))).rejects.toMatchObject({ name: 'GitHubError', kind: 'forbidden', status: 403 });
    expect(h.gh.violations).toEqual([]);
  });
});

describe('isOwnComment', () => {
  const c = (login: string, type: string) => ({ id: 1, body: '', html_url: '', updated_at: '2026-01-01T00:00:00Z', node_id: 'IC_1', user: { login, type } });
  it.each([
    ['github-actions[bot]', 'Bot', 'github-actions[bot]', true],
    ['github-actions[bot]', 'Bot', 'github-actions', true],
    ['github-actions[bot]', 'Bot', null, true],
    ['github-actions[bot]', 'User', null, false],
    ['someone', 'User', null, false],
    ['Maintainer', 'User', 'maintainer', true],
    ['maintainer', 'User', 'github-actions[bot]', false],
    ['my-app[bot]', 'Bot', 'my-app', true],
    ['my-app[bot]', 'Bot', null, false],
  ] as const)('%s (%s) with viewer %s -> %s', (login, type, viewer, expected) => {
    expect(isOwnComment(c(login, type), viewer)).toBe(expected);
  });
  it('a comment by a deleted user is never ours', () => {
    expect(isOwnComment({ id: 1, body: '', html_url: '', updated_at: '2026-01-01T00:00:00Z', node_id: 'IC_1', user: null }, null)).toBe(false);
  });
});
