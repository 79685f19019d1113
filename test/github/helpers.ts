// Shared set-up for the tests of src/github: a fake GitHub and an api pointed at it, with
// zero-delay retries and no write spacing so nothing sleeps.

import { createGitHubApi, type GitHubApi } from '../../src/github/api.js';
import type { OctokitLog } from '../../src/github/octokit.js';
import { startFakeGitHub, type FakeGitHub, type FakeGitHubOptions } from '../support/github-server.js';

export const MARKER = 'pr-comment';

export function hasMarker(body: string, marker: string): boolean {
  return body.includes(`<!-- agent-replay:marker=${marker} -->`);
}

export function withMarker(text: string, marker = MARKER): string {
  return `<!-- agent-replay:marker=${marker} -->\n${text}`;
}

export interface Harness {
  gh: FakeGitHub;
  api: GitHubApi;
  logs: string[];
}

/**
 * `sleep` and `retryAfterBaseMs` for a test of the waits asked for: the waits are recorded by the
 * injected sleep, never slept.
 */
export async function startHarness(options: FakeGitHubOptions & { retries?: number; retryAfterBaseMs?: number; requestTimeoutMs?: number; sleep?: (ms: number) => Promise<void>; now?: () => number } = {}): Promise<Harness> {
  const gh = await startFakeGitHub(options);
  const logs: string[] = [];
  const log: OctokitLog = {
    debug: () => undefined,
    info: (m) => logs.push(`info: ${m}`),
    warn: (m) => logs.push(`warn: ${m}`),
    error: (m) => logs.push(`error: ${m}`),
  };
  const api = createGitHubApi({
    token: gh.token,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    log,
    retries: options.retries ?? 3,
    retryAfterBaseMs: options.retryAfterBaseMs ?? 0,
    throttleWrites: false,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  return { gh, api, logs };
}
