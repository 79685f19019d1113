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
 * A fetch whose try is cut at its deadline (requestTimeoutMs) only once the fake holds it (a 'hang'
 * or 'stall' fault): a real wait of a few ms, which a loaded machine lets pass before the try reached
 * the fake (not recorded, or sent to the next fault) or before an answer came, cuts nothing else.
 */
function heldDeadlines(gh: FakeGitHub): typeof fetch {
  const waiting: (() => void)[] = [];
  gh.onHeld = () => waiting.shift()?.();
  return async (input, init) => {
    const own = new AbortController();
    let held = false;
    const hold = (): void => {
      held = true;
      if (init?.signal?.aborted === true) own.abort(init.signal.reason);
    };
    waiting.push(hold);
    init?.signal?.addEventListener('abort', () => void (held && own.abort(init.signal?.reason)), { once: true });
    try {
      return await fetch(input, { ...init, signal: own.signal });
    } finally {
      if (waiting.includes(hold)) waiting.splice(waiting.indexOf(hold), 1);
    }
  };
}

/**
 * `sleep` and `retryAfterBaseMs` for a test of the waits asked for: the waits are recorded by the
 * injected sleep, never slept. `heldDeadlines`: a try's deadline cuts it only once the fake holds it.
 * `fetch`: the one each try goes through (a test's own: tryTimes).
 */
export async function startHarness(options: FakeGitHubOptions & { retries?: number; retryAfterBaseMs?: number; requestTimeoutMs?: number; heldDeadlines?: boolean; fetch?: typeof fetch; sleep?: (ms: number) => Promise<void>; now?: () => number } = {}): Promise<Harness> {
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
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.heldDeadlines === true ? { fetch: heldDeadlines(gh) } : {}),
  });
  return { gh, api, logs };
}

/**
 * A fetch that notes when each try was sent and when its answer's headers came (performance.now()):
 * the wait before a retry is the time from one try's answer to the next try, which the retry library
 * (plugin-retry's timer) takes and no test can inject.
 */
export function tryTimes(): { fetch: typeof fetch; waits: () => number[] } {
  const sent: number[] = [];
  const answered: number[] = [];
  return {
    fetch: async (input, init) => {
      sent.push(performance.now());
      const res = await fetch(input, init);
      answered.push(performance.now());
      return res;
    },
    waits: () => answered.slice(0, sent.length - 1).map((at, i) => sent[i + 1]! - at),
  };
}
