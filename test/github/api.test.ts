import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { commitRefusal } from '../../src/action/accept.js';
import { gitHubFailure, gitHubTrouble } from '../../src/action/github-words.js';
import { createGitHubApi } from '../../src/github/api.js';
import { GitHubError } from '../../src/github/errors.js';
import { retryAfterSeconds } from '../../src/github/octokit.js';
import { startHarness, tryTimes, type Harness } from './helpers.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const O = 'octo';
const R = 'shop';
const COMMENTS = '/repos/{owner}/{repo}/issues/{issue_number}/comments';

let h: Harness | null = null;
afterEach(async () => {
  await h?.gh.close();
  h = null;
});

async function caught(promise: Promise<unknown>): Promise<GitHubError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GitHubError);
    return error as GitHubError;
  }
  throw new Error('expected a GitHubError');
}

const posts = (h: Harness) => h.gh.requests.filter((r) => r.method === 'POST' && r.path === `/repos/${O}/${R}/issues/5/comments`);

describe('errors and retries', () => {
  it('403 on create is a forbidden GitHubError naming the request, not retried', async () => {
    h = await startHarness();
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 403, times: 5, body: { message: 'Resource not accessible by integration' } });
    const error = await caught(h.api.createComment(O, R, 5, 'hello'));
    expect(error).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(error.message).toBe(`POST /repos/${O}/${R}/issues/5/comments → 403 Resource not accessible by integration`);
    // The parts are fields, read by what words the answer (src/action/accept.ts), never parsed from the message.
    expect([error.request, error.answer]).toEqual([`POST /repos/${O}/${R}/issues/5/comments`, '403 Resource not accessible by integration']);
    expect(posts(h)).toHaveLength(1);
    expect(h.gh.violations).toEqual([]);
  });

  it('500 three times then 200: retried with zero delay and succeeds', async () => {
    const tries = tryTimes();
    h = await startHarness({ fetch: tries.fetch });
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 500, times: 3 });
    const created = await h.api.createComment(O, R, 5, 'hello');
    expect(created.id).toBeGreaterThan(0);
    expect(posts(h)).toHaveLength(4);
    expect(h.gh.comments(O, R, 5)).toHaveLength(1);
    // retryAfterBaseMs 0: no wait before a retry. plugin-retry waits (n + 1)^2 times the base, so the
    // default base (1 s) would wait 1 + 4 + 9 = 14 s between these tries; half of it bounds the three
    // waits, which take no timer, only the little work between an answer and the next try (the bound
    // before, the whole call under 2 s, was within the pauses of a loaded machine).
    const waits = tries.waits();
    expect(waits).toHaveLength(3);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(7_000);
    expect(h.gh.violations).toEqual([]);
  });

  it('gives up after the configured retries with kind server', async () => {
    h = await startHarness({ retries: 2 });
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 502, times: 10, body: { message: 'Bad Gateway' } });
    const error = await caught(h.api.createComment(O, R, 5, 'hello'));
    expect(error).toMatchObject({ kind: 'server', status: 502 });
    expect(error.message).toBe(`POST /repos/${O}/${R}/issues/5/comments → 502 Bad Gateway`);
    expect(posts(h)).toHaveLength(3);
  });

  it('a dropped connection is retried, and reported as kind network when it persists', async () => {
    h = await startHarness({ retries: 1 });
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 'network', times: 1 });
    expect(await h.api.listIssueComments(O, R, 5)).toEqual({ comments: [], more: false });
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 'network', times: 5 });
    const error = await caught(h.api.listIssueComments(O, R, 5));
    expect(error).toMatchObject({ kind: 'network', status: null });
    // In our words, as the agent's client says its own, never undici's ("other side closed").
    expect(error.message).toBe(`GET /repos/${O}/${R}/issues/5/comments → network: GitHub's API closed the connection without answering (UND_ERR_SOCKET)`);
    expect(error.answer).toBe("network: GitHub's API closed the connection without answering (UND_ERR_SOCKET)");
    expect(gitHubTrouble(error)).toBe("GitHub's API closed the connection without answering (UND_ERR_SOCKET)");
    expect(h.gh.violations).toEqual([]);
  });

  it("a server that resets the connection, answers something other than HTTP, or refuses it, is said in our words, never Node's or undici's", async () => {
    const reset = createNetServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const garbage = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    const refused = createNetServer();
    const ports: number[] = [];
    for (const server of [reset, garbage, refused]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      ports.push((server.address() as AddressInfo).port);
    }
    await new Promise<void>((resolve) => refused.close(() => resolve()));
    const said = async (port: number | undefined): Promise<GitHubError> => {
      const api = createGitHubApi({ token: 'ghs_test', baseUrl: `http://127.0.0.1:${port}`, graphqlUrl: `http://127.0.0.1:${port}/graphql`, retries: 0, retryAfterBaseMs: 0, throttleWrites: false });
      return caught(api.listIssueComments(O, R, 5));
    };
    try {
      const e1 = await said(ports[0]);
      expect(e1).toMatchObject({ kind: 'network', status: null });
      expect(gitHubTrouble(e1)).toBe("GitHub's API closed the connection without answering (ECONNRESET)");
      expect(gitHubTrouble(await said(ports[1]))).toBe("GitHub's API gave an answer that is not valid HTTP");
      expect(gitHubTrouble(await said(ports[2]))).toBe(`the connection to GitHub's API failed: connection refused at 127.0.0.1:${ports[2]} (ECONNREFUSED)`);
    } finally {
      for (const server of [reset, garbage]) await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  // The waits below cut a try only once the fake holds it (heldDeadlines, test/github/helpers.ts): a real
  // 20 ms passed on a loaded machine before a try reached the fake, which then recorded 2 tries of 3.
  it('a request GitHub never answers is given up after the wait, retried, then named with the wait and the fix', async () => {
    h = await startHarness({ retries: 2, requestTimeoutMs: 20, heldDeadlines: true });
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 'hang', times: 3 });
    const error = await caught(h.api.listIssueComments(O, R, 5));
    expect(error).toMatchObject({ kind: 'network', status: null });
    expect(error.message).toBe(
      `GET /repos/${O}/${R}/issues/5/comments → network: no answer from GitHub's API within 20 ms (each of the 3 tries waits 20 ms): GitHub is slow or down; see https://www.githubstatus.com and re-run the job once it answers`,
    );
    expect(h.gh.requests.filter((r) => r.method === 'GET' && r.path === `/repos/${O}/${R}/issues/5/comments`)).toHaveLength(3);
  });

  it('a try GitHub never answers is retried, and the next answer is taken', async () => {
    h = await startHarness({ retries: 1, requestTimeoutMs: 1500, heldDeadlines: true });
    h.gh.addComments(O, R, 5, 1, { login: 'someone', type: 'User' });
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 'hang', times: 1 });
    expect((await h.api.listIssueComments(O, R, 5)).comments).toHaveLength(1);
  });

  it('an answer whose body stops coming is given up after the wait too, not read as empty', async () => {
    h = await startHarness({ retries: 1, requestTimeoutMs: 20, heldDeadlines: true });
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 'stall', times: 2 });
    const error = await caught(h.api.listIssueComments(O, R, 5));
    expect(error).toMatchObject({ kind: 'network', status: null });
    expect(error.message).toContain("no answer from GitHub's API within 20 ms");
  });

  it('a GraphQL request GitHub never answers is retried and then named the same way', async () => {
    h = await startHarness({ retries: 1, requestTimeoutMs: 250, heldDeadlines: true });
    h.gh.failNext({ path: '/graphql', operation: 'agentReplayBranchHistory', status: 'hang', times: 2 });
    const error = await caught(h.api.getBranchHistory(`${O}/${R}`, 'feature', 5));
    expect(error).toMatchObject({ kind: 'network', status: null });
    expect(error.message).toMatch(/^POST \/graphql ref history octo\/shop@feature → network: no answer from GitHub's API within 250 ms \(each of the 2 tries/);
    expect(h.gh.requests.filter((r) => r.operationName === 'agentReplayBranchHistory')).toHaveLength(2);
  });

  it('a primary rate limit is waited out (zero delay in tests) and retried', async () => {
    h = await startHarness();
    h.gh.failNext({
      method: 'POST',
      path: COMMENTS,
      status: 403,
      body: { message: 'API rate limit exceeded for installation ID 1.' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) },
    });
    await h.api.createComment(O, R, 5, 'hello');
    expect(posts(h)).toHaveLength(2);
    expect(h.logs.some((l) => l.startsWith('info: GitHub rate limit hit by POST'))).toBe(true);
  });

  it('a primary or secondary rate limit names the request as sent in the log (its pull request and comment), not its route template, as a 429 does', async () => {
    h = await startHarness();
    const reset = String(Math.floor(Date.now() / 1000));
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 403, body: { message: 'API rate limit exceeded for installation ID 1.' }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset } });
    await h.api.createComment(O, R, 5, 'hello');
    h.gh.failNext({ method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}', status: 403, body: { message: 'You have exceeded a secondary rate limit.' }, headers: { 'retry-after': '2' } });
    h.gh.addPull(O, R, { number: 5, headSha: 'a'.repeat(40) });
    await h.api.getPull(O, R, 5);
    // The primary limit's wait runs to x-ratelimit-reset, a whole second from now or less: its number is not the point here.
    const said = h.logs.filter((l) => l.includes('rate limit hit by')).map((l) => l.replace(/^(info: GitHub rate limit hit by .*; retrying in )\d+s/, '$1Ns'));
    expect(said).toEqual([
      `info: GitHub rate limit hit by POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments; retrying in Ns (1/2).`,
      `info: GitHub secondary rate limit hit by GET ${h.gh.url}/repos/${O}/${R}/pulls/5; retrying in 2s (1/2).`,
    ]);
    quotedAndSaid(h.logs.join('\n'), 'GitHub secondary rate limit hit by ...; retrying in <n>s');
    expect(h.gh.violations).toEqual([]);
  });

  it('a secondary rate limit that persists ends as kind rate_limited after a bounded number of retries', async () => {
    h = await startHarness();
    h.gh.failNext({
      method: 'POST',
      path: COMMENTS,
      status: 403,
      times: 10,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      headers: { 'retry-after': '1' },
    });
    const error = await caught(h.api.createComment(O, R, 5, 'hello'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 403 });
    expect(posts(h)).toHaveLength(3); // first attempt + rateLimitRetries (2)
    expect(h.logs.some((l) => l.startsWith('warn: GitHub secondary rate limit hit by POST') && l.includes('gave up after 2 retries'))).toBe(true);
  });

  it('a 429 without "secondary rate" in its message is retried after its Retry-After, a bounded number of times, each wait logged', async () => {
    h = await startHarness();
    h.gh.failNext({ method: 'GET', path: COMMENTS, status: 429, times: 20, body: { message: 'Too many requests' }, headers: { 'retry-after': '0' } });
    const error = await caught(h.api.listIssueComments(O, R, 5));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
    const gets = h.gh.requests.filter((r) => r.method === 'GET' && r.path === `/repos/${O}/${R}/issues/5/comments`);
    expect(gets).toHaveLength(3); // the first attempt + rateLimitRetries (2), not plugin-retry's 3 more
    const name = `GET ${h.gh.url}/repos/${O}/${R}/issues/5/comments?per_page=100`;
    expect(h.logs.filter((l) => !l.startsWith('warn: ') || l.includes('429'))).toEqual([
      `info: GitHub rate limit (429 Too Many Requests) hit by ${name}; retrying in 0s (1/2).`,
      `info: GitHub rate limit (429 Too Many Requests) hit by ${name}; retrying in 0s (2/2).`,
      `warn: GitHub rate limit (429 Too Many Requests) hit by ${name}; gave up after 2 retries.`,
    ]);
    expect(h.gh.violations).toEqual([]);
  });

  it('a 429 waits the seconds its Retry-After asks (60 without one), never more than the longest wait, through the injected sleep', async () => {
    const waits: number[] = [];
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms) });
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 429, times: 1, body: { message: 'Too many requests' }, headers: { 'retry-after': '7' } });
    await h.api.createComment(O, R, 5, 'hello');
    expect(waits).toEqual([7000]);
    expect(h.gh.comments(O, R, 5)).toHaveLength(1);

    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 429, times: 1, body: { message: 'Too many requests' } });
    await h.api.createComment(O, R, 5, 'again');
    expect(waits).toEqual([7000, 60_000]);

    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 429, times: 1, body: { message: 'Too many requests' }, headers: { 'retry-after': '500' } });
    const error = await caught(h.api.createComment(O, R, 5, 'late'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(waits).toEqual([7000, 60_000]);
    expect(h.logs.at(-1)).toBe(`warn: GitHub rate limit (429 Too Many Requests) hit by POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments; it resets in 500s, longer than the 120s we wait.`);
    expect(posts(h)).toHaveLength(5);
  });

  it("a secondary rate limit waits what its Retry-After says: 0 at once, a date until then, 60 s without one, never past the longest wait", async () => {
    const waits: number[] = [];
    const now = Date.parse('2026-12-05T03:00:00Z');
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms), now: () => now });
    // GitHub's clock agrees with the runner's: its answers' Date is the runner's now.
    const secondary = (headers: Record<string, string>): void =>
      h!.gh.failNext({ method: 'POST', path: COMMENTS, status: 403, times: 1, body: { message: 'You have exceeded a secondary rate limit.' }, headers: { date: new Date(now).toUTCString(), ...headers } });
    // plugin-throttling read these as Number(value) || 60: the 0 and the date waited 60 s.
    secondary({ 'retry-after': '0' });
    await h.api.createComment(O, R, 5, 'at once');
    secondary({ 'retry-after': new Date(now + 30_000).toUTCString() });
    await h.api.createComment(O, R, 5, 'until then');
    secondary({ 'retry-after': new Date(now - 5_000).toUTCString() });
    await h.api.createComment(O, R, 5, 'already passed');
    secondary({ 'retry-after': '7' });
    await h.api.createComment(O, R, 5, 'seconds');
    secondary({});
    await h.api.createComment(O, R, 5, 'none');
    expect(waits).toEqual([0, 30_000, 0, 7000, 60_000]);
    expect(h.gh.comments(O, R, 5)).toHaveLength(5);
    const name = `POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments`;
    expect(h.logs.filter((l) => l.includes('rate limit hit by'))).toEqual(
      [0, 30, 0, 7, 60].map((s) => `info: GitHub secondary rate limit hit by ${name}; retrying in ${s}s (1/2).`),
    );

    secondary({ 'retry-after': new Date(now + 600_000).toUTCString() });
    const error = await caught(h.api.createComment(O, R, 5, 'too late'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 403 });
    expect(waits).toHaveLength(5);
    expect(h.logs.at(-1)).toBe(`warn: GitHub secondary rate limit hit by ${name}; it resets in 600s, longer than the 120s we wait.`);
    expect(h.gh.violations).toEqual([]);
  });

  it("a secondary rate limit's Retry-After date is read against GitHub's Date, not the runner's clock", async () => {
    const waits: number[] = [];
    const now = Date.parse('2026-12-05T03:00:00Z');
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms), now: () => now });
    // GitHub's clock is 90 s ahead of the runner's: its date 45 s from its now is 135 s from ours.
    const github = now + 90_000;
    h.gh.failNext({
      method: 'POST',
      path: COMMENTS,
      status: 403,
      times: 1,
      body: { message: 'You have exceeded a secondary rate limit.' },
      headers: { date: new Date(github).toUTCString(), 'retry-after': new Date(github + 45_000).toUTCString() },
    });
    await h.api.createComment(O, R, 5, 'skewed');
    expect(waits).toEqual([45_000]);
    expect(h.gh.comments(O, R, 5)).toHaveLength(1);
    expect(h.logs.filter((l) => l.includes('rate limit hit by'))).toEqual([`info: GitHub secondary rate limit hit by POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments; retrying in 45s (1/2).`]);
  });

  // Reported: plugin-throttling counted a primary limit's wait from x-ratelimit-reset to the runner's
  // clock, so a runner 90 s behind GitHub waited 90 s more than GitHub asked, and one ahead retried
  // before the reset. The reset is a time of GitHub's clock: read against its answer's Date.
  it("a primary rate limit's x-ratelimit-reset is read against GitHub's Date, not the runner's clock: ahead, behind, not a date", async () => {
    const waits: number[] = [];
    const now = Date.parse('2026-12-05T03:00:00Z');
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms), now: () => now });
    const primary = (status: number, github: number | string, reset: number): void =>
      h!.gh.failNext({
        method: 'POST',
        path: COMMENTS,
        status,
        times: 1,
        body: { message: 'API rate limit exceeded for installation ID 1.' },
        headers: { date: typeof github === 'string' ? github : new Date(github).toUTCString(), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(reset / 1000)) },
      });
    // GitHub's clock 90 s ahead of the runner's, its reset 45 s from its now: 45 s and the second after.
    primary(403, now + 90_000, now + 90_000 + 45_000);
    await h.api.createComment(O, R, 5, 'github ahead');
    // GitHub's clock 90 s behind, its reset 10 s from its now (80 s before the runner's now): 11 s, not at once.
    primary(429, now - 90_000, now - 90_000 + 10_000);
    await h.api.createComment(O, R, 5, 'github behind');
    // A Date that is not an HTTP date: read against the runner's clock.
    primary(403, 'soon', now + 20_000);
    await h.api.createComment(O, R, 5, 'no date');
    expect(waits).toEqual([46_000, 11_000, 21_000]);
    expect(h.gh.comments(O, R, 5)).toHaveLength(3);
    const name = `POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments`;
    expect(h.logs.filter((l) => l.includes('rate limit hit by'))).toEqual([46, 11, 21].map((s) => `info: GitHub rate limit hit by ${name}; retrying in ${s}s (1/2).`));

    // A reset further than the longest wait by GitHub's clock (though not by the runner's) fails at once, saying when it resets.
    primary(403, now + 600_000, now + 600_000 + 300_000);
    const error = await caught(h.api.createComment(O, R, 5, 'too late'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 403 });
    expect(waits).toHaveLength(3);
    expect(h.logs.at(-1)).toBe(`warn: GitHub rate limit hit by ${name}; it resets in 301s, longer than the 120s we wait.`);
    expect(h.gh.violations).toEqual([]);
  });

  it("a GraphQL RATE_LIMITED error waits until its x-ratelimit-reset by GitHub's Date too, then is retried", async () => {
    const waits: number[] = [];
    const now = Date.parse('2026-12-05T03:00:00Z');
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms), now: () => now });
    h.gh.setBranch(`${O}/${R}`, 'feature', 'a'.repeat(40));
    const github = now + 90_000;
    h.gh.failNext({
      path: '/graphql',
      operation: 'agentReplayBranchHistory',
      status: 200,
      body: { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation ID 1.' }] },
      headers: { date: new Date(github).toUTCString(), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor((github + 30_000) / 1000)) },
    });
    expect(await h.api.getBranchHistory(`${O}/${R}`, 'feature', 1)).toHaveLength(1);
    expect(waits).toEqual([31_000]);
    expect(h.gh.requests.filter((r) => r.operationName === 'agentReplayBranchHistory')).toHaveLength(2);
  });

  it('a primary rate limit that persists is retried twice, each wait logged, then ends as kind rate_limited', async () => {
    const waits: number[] = [];
    const now = Date.parse('2026-12-05T03:00:00Z');
    h = await startHarness({ retryAfterBaseMs: 1000, sleep: async (ms) => void waits.push(ms), now: () => now });
    h.gh.failNext({
      method: 'POST',
      path: COMMENTS,
      status: 403,
      times: 10,
      body: { message: 'API rate limit exceeded for installation ID 1.' },
      headers: { date: new Date(now).toUTCString(), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 4) },
    });
    const error = await caught(h.api.createComment(O, R, 5, 'hello'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 403 });
    expect(posts(h)).toHaveLength(3);
    expect(waits).toEqual([5000, 5000]);
    expect(h.logs.at(-1)).toBe(`warn: GitHub rate limit hit by POST ${h.gh.url}/repos/${O}/${R}/issues/5/comments; gave up after 2 retries.`);
  });

  it('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('12', now)).toBe(12);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(undefined, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
    // Not dates, though V8's Date.parse reads them as days of 2001 (a wait of 0): no Retry-After, 60 s.
    for (const value of ['-1', '1 2', '7 soon']) expect(retryAfterSeconds(value, now), value).toBeNull();
    expect(retryAfterSeconds('1.5', now)).toBe(2);
  });

  it('never puts the token in an error message, even when GitHub echoes it', async () => {
    h = await startHarness();
    h.gh.failNext({ method: 'POST', path: COMMENTS, status: 422, body: { message: `Validation Failed for ${h.gh.token}` } });
    const error = await caught(h.api.createComment(O, R, 5, 'hello'));
    expect(error.kind).toBe('other');
    expect(error.message).toBe(`POST /repos/${O}/${R}/issues/5/comments → 422 Validation Failed for ***`);
    expect(JSON.stringify(error.message)).not.toContain(h.gh.token);
  });

  it('a wrong token is kind forbidden (401), not retried', async () => {
    h = await startHarness({ token: 'the-right-one' });
    const { createGitHubApi } = await import('../../src/github/api.js');
    const api = createGitHubApi({ token: 'wrong-token', baseUrl: h.gh.url, retryAfterBaseMs: 0, throttleWrites: false });
    const error = await caught(api.listIssueComments(O, R, 5));
    expect(error).toMatchObject({ kind: 'forbidden', status: 401 });
    expect(error.message).toBe(`GET /repos/${O}/${R}/issues/5/comments → 401 Bad credentials`);
    expect(h.gh.requests).toHaveLength(1);
  });
});

describe('createCommitOnBranch', () => {
  const HEAD = 'a'.repeat(40);

  it('commits the additions and deletions with the exact GraphQL payload', async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'feature', HEAD, { '.agent-replay/baselines/old.json': '{}' });
    const result = await h.api.createCommitOnBranch({
      repoWithOwner: `${O}/${R}`,
      branch: 'feature',
      expectedHeadOid: HEAD,
      message: { headline: 'agent-replay: accept 1 baseline', body: 'Accepted: refund-policy' },
      additions: [{ path: '.agent-replay/baselines/refund-policy.json', contents: '{"label":"refund-policy","reply":"30 días ✓"}\n' }],
      deletions: [{ path: '.agent-replay/baselines/old.json' }],
    });

    const graphql = h.gh.requests.filter((r) => r.path === '/graphql');
    expect(graphql).toHaveLength(1);
    expect(graphql[0]!.body).toEqual({
      query: `mutation agentReplayCommit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) {
    commit { oid url }
  }
}`,
      variables: {
        input: {
          branch: { repositoryNameWithOwner: 'octo/shop', branchName: 'feature' },
          expectedHeadOid: HEAD,
          message: { headline: 'agent-replay: accept 1 baseline', body: 'Accepted: refund-policy' },
          fileChanges: {
            additions: [
              {
                path: '.agent-replay/baselines/refund-policy.json',
                contents: 'eyJsYWJlbCI6InJlZnVuZC1wb2xpY3kiLCJyZXBseSI6IjMwIGTDrWFzIOKckyJ9Cg==',
              },
            ],
            deletions: [{ path: '.agent-replay/baselines/old.json' }],
          },
        },
      },
    });
    const branch = h.gh.branch(`${O}/${R}`, 'feature')!;
    expect(result).toEqual({ oid: branch.head, url: `https://github.com/octo/shop/commit/${branch.head}` });
    expect(branch.files).toEqual({ '.agent-replay/baselines/refund-policy.json': '{"label":"refund-policy","reply":"30 días ✓"}\n' });
    expect(h.gh.commits).toEqual([
      {
        repo: 'octo/shop',
        branch: 'feature',
        parent: HEAD,
        oid: branch.head,
        headline: 'agent-replay: accept 1 baseline',
        body: 'Accepted: refund-policy',
        additions: [{ path: '.agent-replay/baselines/refund-policy.json', contents: '{"label":"refund-policy","reply":"30 días ✓"}\n' }],
        deletions: ['.agent-replay/baselines/old.json'],
      },
    ]);
    expect(h.gh.violations).toEqual([]);
  });

  it('refuses with kind conflict when the head moved, and commits nothing', async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'feature', HEAD);
    h.gh.moveBranch(`${O}/${R}`, 'feature', 'b'.repeat(40));
    const error = await caught(
      h.api.createCommitOnBranch({
        repoWithOwner: `${O}/${R}`,
        branch: 'feature',
        expectedHeadOid: HEAD,
        message: { headline: 'accept' },
        additions: [{ path: 'x.json', contents: '{}' }],
      }),
    );
    expect(error).toMatchObject({ kind: 'conflict', status: null, graphqlTypes: ['STALE_DATA'] });
    expect(error.message).toBe(
      `POST /graphql createCommitOnBranch octo/shop@feature → STALE_DATA Expected branch to point to "${HEAD}" but it did not. Pull and try again.`,
    );
    expect(h.gh.commits).toEqual([]);
    expect(h.gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(1);
    expect(h.gh.violations).toEqual([]);
  });

  it('an unknown branch is kind not_found', async () => {
    h = await startHarness();
    const error = await caught(
      h.api.createCommitOnBranch({ repoWithOwner: `${O}/${R}`, branch: 'gone', expectedHeadOid: HEAD, message: { headline: 'x' }, additions: [] }),
    );
    expect(error.kind).toBe('not_found');
    expect(h.gh.violations).toEqual([]);
  });

  it('a GraphQL error with no type is said with its kind, in the same words on every surface', async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'feature', HEAD);
    h.gh.failNext({ path: '/graphql', operation: 'agentReplayCommit', status: 200, body: { data: null, errors: [{ message: 'Resource not accessible by integration' }] } });
    const error = await caught(
      h.api.createCommitOnBranch({ repoWithOwner: `${O}/${R}`, branch: 'feature', expectedHeadOid: HEAD, message: { headline: 'x' }, additions: [{ path: 'x.json', contents: '{}' }] }),
    );
    expect(error).toMatchObject({ kind: 'forbidden', status: null, graphqlTypes: [] });
    // The log's line (a failed job says the error's message), the warnings' words and the accept
    // job's refusal (its summary and the comment's notice) read the one answer, kind included.
    const answer = 'forbidden: Resource not accessible by integration';
    expect(error.message).toBe(`POST /graphql createCommitOnBranch octo/shop@feature → ${answer}`);
    expect(error.answer).toBe(answer);
    expect(gitHubTrouble(error)).toBe(`GitHub answered ${answer}`);
    expect(gitHubFailure(error, 'contents: write')).toBe(`GitHub answered ${answer}: the job's token lacks the contents: write permission; add it to the workflow's permissions`);
    expect(commitRefusal(error, 'feature')).toContain(`GitHub refused the commit on the branch feature (${answer}):`);
    expect(h.gh.commits).toEqual([]);
    expect(h.gh.violations).toEqual([]);
  });
});

describe('lookups', () => {
  it('viewerLogin: the GraphQL viewer, asked once', async () => {
    h = await startHarness();
    expect(await h.api.viewerLogin()).toBe('github-actions[bot]');
    expect(await h.api.viewerLogin()).toBe('github-actions[bot]');
    expect(h.gh.requests.map((r) => r.operationName)).toEqual(['agentReplayViewer']);
    expect(h.gh.violations).toEqual([]);
  });

  it('viewerLogin: a GraphQL 502 is retried like any 5xx', async () => {
    h = await startHarness();
    h.gh.failNext({ method: 'POST', path: '/graphql', status: 502, times: 2 });
    expect(await h.api.viewerLogin()).toBe('github-actions[bot]');
    expect(h.gh.requests.map((r) => r.path)).toEqual(['/graphql', '/graphql', '/graphql']);
    expect(h.gh.violations).toEqual([]);
  });

  it('viewerLogin: REST /user when GraphQL refuses and the token is a user', async () => {
    h = await startHarness({ viewer: { login: 'maintainer', type: 'User' }, graphqlViewerLogin: null });
    expect(await h.api.viewerLogin()).toBe('maintainer');
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('getCollaboratorPermission: role_name, and none for strangers', async () => {
    h = await startHarness();
    const roles = ['admin', 'maintain', 'write', 'triage', 'read'] as const;
    for (const role of roles) h.gh.setPermission(O, R, `${role}-user`, role);
    const got = await Promise.all(roles.map((role) => h!.api.getCollaboratorPermission(O, R, `${role}-user`)));
    expect(got).toEqual([...roles]);
    expect(await h.api.getCollaboratorPermission(O, R, 'stranger')).toBe('none');
    expect(h.gh.requests.at(-1)?.path).toBe(`/repos/${O}/${R}/collaborators/stranger/permission`);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('labels: lists all pages and removes one (already gone is fine)', async () => {
    h = await startHarness();
    const many = Array.from({ length: 120 }, (_, i) => `label-${i}`);
    h.gh.setLabels(O, R, 5, ['accept-baseline', 'needs review', ...many]);
    const names = await h.api.listIssueLabels(O, R, 5);
    expect(names).toHaveLength(122);
    expect(names.slice(0, 2)).toEqual(['accept-baseline', 'needs review']);
    await h.api.removeLabel(O, R, 5, 'needs review');
    await h.api.removeLabel(O, R, 5, 'accept-baseline');
    await h.api.removeLabel(O, R, 5, 'accept-baseline');
    expect(h.gh.labels(O, R, 5)).toEqual(many);
    expect(h.gh.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/repos/${O}/${R}/issues/5/labels/needs%20review`,
      `/repos/${O}/${R}/issues/5/labels/accept-baseline`,
      `/repos/${O}/${R}/issues/5/labels/accept-baseline`,
    ]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('getPull: same-repository branch, fork, and deleted fork', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 5, headSha: 'c'.repeat(40), headRef: 'fix-refunds' });
    h.gh.setLabels(O, R, 5, ['accept-baseline', 'bug']);
    h.gh.addPull(O, R, { number: 6, headSha: 'd'.repeat(40), headRef: 'patch-1', headRepo: 'stranger/shop' });
    h.gh.addPull(O, R, { number: 7, headSha: 'e'.repeat(40), headRef: 'patch-2', headRepo: null, state: 'closed' });
    expect(await h.api.getPull(O, R, 5)).toEqual({
      number: 5,
      headSha: 'c'.repeat(40),
      headRef: 'fix-refunds',
      headRepoFullName: 'octo/shop',
      baseRepoFullName: 'octo/shop',
      baseSha: '0'.repeat(40),
      isFork: false,
      state: 'open',
      labels: ['accept-baseline', 'bug'],
    });
    expect(await h.api.getPull(O, R, 6)).toMatchObject({ headRepoFullName: 'stranger/shop', isFork: true, labels: [] });
    expect(await h.api.getPull(O, R, 7)).toMatchObject({ headRepoFullName: null, isFork: true, state: 'closed' });
    expect((await caught(h.api.getPull(O, R, 99))).kind).toBe('not_found');
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('listOpenPullsForBranch: the open pull requests of a branch of this repository, or of a fork, with labels', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 5, headSha: 'c'.repeat(40), headRef: 'fix-refunds' });
    h.gh.setLabels(O, R, 5, ['accept-baseline', 'bug']);
    h.gh.addPull(O, R, { number: 6, headSha: 'd'.repeat(40), headRef: 'fix-refunds', headRepo: 'stranger/shop' });
    h.gh.addPull(O, R, { number: 4, headSha: 'e'.repeat(40), headRef: 'fix-refunds', state: 'closed' });
    h.gh.addPull(O, R, { number: 8, headSha: 'f'.repeat(40), headRef: 'other' });
    h.gh.setLabels(O, R, 5, ['confirm-cost']);
    expect(await h.api.listOpenPullsForBranch(O, R, 'fix-refunds')).toEqual([
      { number: 5, headSha: 'c'.repeat(40), headRef: 'fix-refunds', headRepoFullName: 'octo/shop', baseRepoFullName: 'octo/shop', baseSha: '0'.repeat(40), isFork: false, state: 'open', labels: ['confirm-cost'] },
    ]);
    expect(await h.api.listOpenPullsForBranch(O, R, 'nobody')).toEqual([]);
    expect(h.gh.requests.find((r) => r.method === 'GET' && r.path === `/repos/${O}/${R}/pulls`)?.query).toMatchObject({ head: `${O}:fix-refunds`, state: 'open' });
    // A fork's branch of that name: asked of its owner (head=stranger:fix-refunds).
    expect((await h.api.listOpenPullsForBranch(O, R, 'fix-refunds', 'stranger')).map((p) => [p.number, p.headRepoFullName])).toEqual([[6, 'stranger/shop']]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('dispatchWorkflow: starts the workflow on the branch; 403 and 404 are errors that say so', async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'fix-refunds', 'c'.repeat(40));
    h.gh.addWorkflow(O, R, 'agent-replay.yml');
    const res = await h.api.dispatchWorkflow(O, R, 'agent-replay.yml', 'fix-refunds');
    expect(res.runUrl).toMatch(/^https:\/\/github\.com\/octo\/shop\/actions\/runs\/\d+$/);
    expect(h.gh.dispatches).toEqual([{ repo: `${O}/${R}`, workflow: 'agent-replay.yml', ref: 'fix-refunds', inputs: null }]);
    expect(h.gh.requests.at(-1)?.body).toEqual({ ref: 'fix-refunds', return_run_details: true });

    h.gh.failNext({ method: 'POST', path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', status: 403, body: { message: 'Resource not accessible by integration' } });
    const forbidden = await caught(h.api.dispatchWorkflow(O, R, 'agent-replay.yml', 'fix-refunds'));
    expect(forbidden).toMatchObject({ kind: 'forbidden', status: 403 });
    expect(forbidden.message).toBe(`POST /repos/${O}/${R}/actions/workflows/agent-replay.yml/dispatches → 403 Resource not accessible by integration`);
    expect((await caught(h.api.dispatchWorkflow(O, R, 'missing.yml', 'fix-refunds'))).kind).toBe('not_found');
    expect(h.gh.dispatches).toHaveLength(1);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('getWorkflowRun: found, and null when missing', async () => {
    h = await startHarness();
    h.gh.addWorkflowRun(O, R, { id: 77, headSha: 'f'.repeat(40), status: 'completed', conclusion: 'failure' });
    expect(await h.api.getWorkflowRun(O, R, 77)).toEqual({ status: 'completed', conclusion: 'failure', headSha: 'f'.repeat(40) });
    expect(await h.api.getWorkflowRun(O, R, 78)).toBeNull();
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('listWorkflowRuns: the newest runs of one workflow on a branch and event that succeeded, at most `limit`', async () => {
    h = await startHarness();
    for (let i = 0; i < 14; i++) h.gh.addWorkflowRun(O, R, { id: 100 + i, headSha: String(i % 10).repeat(40), workflow: 'ci.yml', branch: 'main', event: 'push' });
    h.gh.addWorkflowRun(O, R, { id: 200, headSha: 'a'.repeat(40), workflow: 'ci.yml', branch: 'main', event: 'push', conclusion: 'failure' });
    h.gh.addWorkflowRun(O, R, { id: 201, headSha: 'b'.repeat(40), workflow: 'ci.yml', branch: 'feature', event: 'push' });
    h.gh.addWorkflowRun(O, R, { id: 202, headSha: 'c'.repeat(40), workflow: 'ci.yml', branch: 'main', event: 'pull_request' });
    h.gh.addWorkflowRun(O, R, { id: 203, headSha: 'd'.repeat(40), workflow: 'other.yml', branch: 'main', event: 'push', runAttempt: 2 });

    const runs = await h.api.listWorkflowRuns(O, R, 'ci.yml', { branch: 'main', event: 'push', status: 'success', limit: 10 });
    expect(runs.map((r) => r.id)).toEqual([113, 112, 111, 110, 109, 108, 107, 106, 105, 104]);
    expect(runs[0]).toMatchObject({ headSha: '3'.repeat(40), runAttempt: 1 });
    expect(h.gh.requests.at(-1)).toMatchObject({
      path: `/repos/${O}/${R}/actions/workflows/ci.yml/runs`,
      query: { branch: 'main', event: 'push', status: 'success', exclude_pull_requests: 'true', per_page: '10' },
    });
    expect(await h.api.listWorkflowRuns(O, R, 'other.yml', { branch: 'main', event: 'push', status: 'success', limit: 10 })).toEqual([
      { id: 203, headSha: 'd'.repeat(40), runAttempt: 2, createdAt: expect.stringMatching(/^2026-/) },
    ]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('artifacts: lists every page, filters by name, downloads the zip through the redirect', async () => {
    h = await startHarness();
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 1, 2, 3, 0xff]);
    const wanted = h.gh.addArtifact(O, R, 77, { name: 'agent-replay-results', zip });
    for (let i = 0; i < 120; i++) h.gh.addArtifact(O, R, 77, { name: `other-${i}`, zip: Buffer.from('x') });
    h.gh.addArtifact(O, R, 78, { name: 'agent-replay-results', zip: Buffer.from('another run') });

    const all = await h.api.listRunArtifacts(O, R, 77);
    expect(all).toHaveLength(121);
    expect(all[0]).toEqual({ id: wanted.id, name: 'agent-replay-results', expired: false, sizeInBytes: zip.length });
    expect(await h.api.listRunArtifacts(O, R, 77, 'agent-replay-results')).toEqual([all[0]]);

    const bytes = await h.api.downloadArtifactZip(O, R, wanted.id, zip.length);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes?.equals(zip)).toBe(true);
    expect(h.gh.requests.slice(-2).map((r) => r.path)).toEqual([
      `/repos/${O}/${R}/actions/artifacts/${wanted.id}/zip`,
      `/_fake/blobs/artifacts/${wanted.id}.zip`,
    ]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });

  it('an expired artifact is kind not_found (410)', async () => {
    h = await startHarness();
    const a = h.gh.addArtifact(O, R, 77, { name: 'old', zip: Buffer.from('x'), expired: true });
    const error = await caught(h.api.downloadArtifactZip(O, R, a.id, 1024));
    expect(error).toMatchObject({ kind: 'not_found', status: 410 });
    expect(h.gh.violations).toEqual([]);
  });
});

describe('getBranchHistory', () => {
  const HEAD = 'a'.repeat(40);

  it("reads a branch's newest commits back, newest first (oid, first parent, message), and null for no such branch", async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'feature', HEAD);
    const made = await h.api.createCommitOnBranch({
      repoWithOwner: `${O}/${R}`,
      branch: 'feature',
      expectedHeadOid: HEAD,
      message: { headline: 'Accept agent-replay baselines: greeting', body: 'Accepted the replies' },
      additions: [{ path: 'x.json', contents: '{}' }],
    });
    h.gh.pushOnTop(`${O}/${R}`, 'feature', 'c'.repeat(40), 'Fix a typo');
    expect(await h.api.getBranchHistory(`${O}/${R}`, 'feature', 2)).toEqual([
      { oid: 'c'.repeat(40), parent: made.oid, headline: 'Fix a typo', body: '' },
      { oid: made.oid, parent: HEAD, headline: 'Accept agent-replay baselines: greeting', body: 'Accepted the replies' },
    ]);
    expect(await h.api.getBranchHistory(`${O}/${R}`, 'gone', 2)).toBeNull();
    const reads = h.gh.requests.filter((r) => r.operationName === 'agentReplayBranchHistory');
    expect(reads.map((r) => (r.body as { variables: unknown }).variables)).toEqual([
      { owner: O, name: R, ref: 'refs/heads/feature', depth: 2 },
      { owner: O, name: R, ref: 'refs/heads/gone', depth: 2 },
    ]);
    expect(h.gh.violations).toEqual([]);
  });
});

describe('compareCommits and getContent', () => {
  const BASE = 'a'.repeat(40);

  it("reads each commit's author, committer and signature, the merge base, and a file's text at a commit (null when it has none)", async () => {
    h = await startHarness();
    h.gh.setBranch(`${O}/${R}`, 'feature', BASE, { 's/f.yml': 'label: a\nmessage: hi\n' });
    const made = await h.api.createCommitOnBranch({
      repoWithOwner: `${O}/${R}`,
      branch: 'feature',
      expectedHeadOid: BASE,
      message: { headline: 'Accept agent-replay baselines: a', body: 'Accepted the replies' },
      additions: [{ path: 's/baselines/a.json', contents: '{}' }],
    });
    h.gh.pushOnTop(`${O}/${R}`, 'feature', 'c'.repeat(40), 'Edit a fixture', { files: { 's/f.yml': 'label: a\nmessage: hello\n' }, author: 'someone' });
    const c = await h.api.compareCommits(O, R, BASE, 'c'.repeat(40));
    expect(c.mergeBase).toBe(BASE);
    expect(c.commits).toEqual([
      { sha: made.oid, message: 'Accept agent-replay baselines: a\n\nAccepted the replies', author: 'github-actions[bot]', committer: 'web-flow', verified: true },
      { sha: 'c'.repeat(40), message: 'Edit a fixture', author: 'someone', committer: 'someone', verified: false },
    ]);
    expect(c.files).toEqual([
      { path: 's/baselines/a.json', status: 'added' },
      { path: 's/f.yml', status: 'modified' },
    ]);
    const text = async (path: string, ref: string): Promise<string | null> => {
      const file = await h!.api.getContent(O, R, path, ref);
      return file?.kind === 'file' ? file.text : null;
    };
    expect(await text('s/f.yml', BASE)).toBe('label: a\nmessage: hi\n');
    expect(await text('s/f.yml', 'c'.repeat(40))).toBe('label: a\nmessage: hello\n');
    expect(await text('s/baselines/a.json', BASE)).toBeNull();
    expect(h.gh.requests.filter((r) => r.operation === 'GET /repos/{owner}/{repo}/contents/{path}').map((r) => r.query.ref)).toEqual([BASE, 'c'.repeat(40), BASE]);
    expect(h.gh.violations).toEqual([]);
    expect(h.gh.responseViolations).toEqual([]);
  });
});

describe('listLabelEvents', () => {
  it('reads when labels were applied, and by whom, from the pull request timeline (GraphQL), the newest `last`, oldest first', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 7, headSha: 'a'.repeat(40) });
    h.gh.setLabels(O, R, 7, ['bug']);
    h.gh.setLabels(O, R, 7, ['bug', 'accept-baseline']);
    h.gh.setLabels(O, R, 7, []);
    h.gh.setLabels(O, R, 7, ['Accept-Baseline'], 'labeler[bot]');
    const page = await h.api.listLabelEvents(O, R, 7, { last: 2, before: null });
    const events = page!.events;
    expect(events.map((e) => e.label)).toEqual(['accept-baseline', 'Accept-Baseline']);
    // Who applied it: GraphQL names a bot without the [bot] suffix.
    expect(events.map((e) => e.actor)).toEqual(['maintainer', 'labeler']);
    expect(Date.parse(events[1]!.createdAt)).toBeGreaterThan(Date.parse(events[0]!.createdAt));
    expect((h.gh.requests.at(-1)?.body as { variables: unknown }).variables).toEqual({ owner: O, name: R, number: 7, last: 2, before: null });
    expect(h.gh.violations).toEqual([]);
  });

  it('reads the timeline in pages, newest first: each page says where the one before it starts, the oldest that there is none', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 7, headSha: 'a'.repeat(40) });
    for (let i = 0; i < 150; i++) h.gh.setLabels(O, R, 7, [`l${i}`], 'relabel[bot]');
    const newest = await h.api.listLabelEvents(O, R, 7, { last: 100, before: null });
    expect(newest!.events.map((e) => e.label)).toEqual(Array.from({ length: 100 }, (_, i) => `l${50 + i}`));
    expect(newest!.before).toEqual(expect.any(String));
    const older = await h.api.listLabelEvents(O, R, 7, { last: 100, before: newest!.before });
    expect(older).toEqual({ events: h.gh.labelTimeline(O, R, 7).slice(0, 50).map((e) => ({ ...e, actor: 'relabel' })), before: null });
    expect(h.gh.violations).toEqual([]);
  });

  it('null for a pull request that does not exist: GitHub answers NOT_FOUND, and that is not thrown', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 7, headSha: 'a'.repeat(40) });
    expect(await h.api.listLabelEvents(O, R, 8, { last: 100, before: null })).toBeNull();
    expect(h.gh.requests.filter((r) => r.operationName === 'agentReplayLabelEvents')).toHaveLength(1);
    expect(h.gh.violations).toEqual([]);
  });
});

describe('commentLastEdit', () => {
  it('says who last edited a comment and when (GraphQL IssueComment.editor), a bot as REST names it; null for a comment that is gone', async () => {
    h = await startHarness();
    h.gh.addPull(O, R, { number: 7, headSha: 'a'.repeat(40) });
    const ours = h.gh.addComment(O, R, 7, { body: 'report' });
    const [listed] = (await h.api.listIssueComments(O, R, 7)).comments;
    expect(listed!.node_id).toBe(`IC_${ours.id}`);
    expect(await h.api.commentLastEdit(listed!.node_id)).toEqual({ editedAt: null, editor: null });
    await h.api.updateComment(O, R, ours.id, 'report, again');
    expect(await h.api.commentLastEdit(listed!.node_id)).toMatchObject({ editor: { login: 'github-actions[bot]', type: 'Bot' } });
    h.gh.editComment(ours.id, 'report, edited', undefined, { login: 'octo-admin', type: 'User' });
    const edit = await h.api.commentLastEdit(listed!.node_id);
    expect(edit).toEqual({ editedAt: h.gh.comments(O, R, 7)[0]!.updatedAt, editor: { login: 'octo-admin', type: 'User' } });
    expect(await h.api.commentLastEdit('IC_1')).toBeNull();
    expect(h.gh.violations).toEqual([]);
  });
});
