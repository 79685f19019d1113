// The one Octokit factory. Everything that talks to GitHub goes through an instance built here, so
// retries, rate-limit handling and the API base URL are decided in one place.
//
// Retries come from two plugins that cover different failures:
// - @octokit/plugin-retry retries transient failures (5xx, network errors reported as 500) with a
//   quadratic backoff: (retryCount + 1)^2 * retryAfterBaseMs; not a TLS alert, a refused
//   certificate or a plain-HTTP answer to the handshake, the same on every try (lastingFailures).
// - @octokit/plugin-throttling spaces writes. It retries no rate limit: its handlers say no.
// - A primary rate limit (a 403 or 429 with an exhausted x-ratelimit-remaining, or a GraphQL
//   RATE_LIMITED error), a secondary one ("secondary rate" in its message) and any other 429 are
//   retried by the wrapper at the end of createOctokit, a limited number of times, each wait logged
//   (docs/action.md, "GitHub's rate limits"): a primary limit until a second after its
//   x-ratelimit-reset, the others after what their Retry-After asks: seconds, 0 (at once) or an HTTP
//   date (until then); 60 s without one, as GitHub advises. A reset and a date are times of GitHub's
//   clock, read against its answer's Date. The throttling plugin is not left to them: it reads
//   Retry-After as `Number(value) || 60`, so a `Retry-After: 0` and a date both waited 60 s, and the
//   reset against the runner's clock, so a runner's clock a minute behind GitHub's waited a minute
//   more (and its onRateLimit cannot be told another wait). plugin-retry never retries a 403 or a 429.
// - A try that GitHub does not finish answering within `requestTimeoutMs` (30 s; the answer's body
//   included) is given up and reported as a failed connection, which plugin-retry retries like any
//   other (docs/action.md, "When GitHub does not answer"): without it, undici waits 300 s per try.
// Tests pass `retryAfterBaseMs: 0` and `throttleWrites: false` so nothing ever sleeps.

import { GitHub, defaults as actionsDefaults, getOctokitOptions } from '@actions/github/lib/utils';
import type { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling, type ThrottlingOptions } from '@octokit/plugin-throttling';
import HeadersModule from 'undici/lib/web/fetch/headers.js';
import ResponseModule from 'undici/lib/web/fetch/response.js';
import { httpDate, serverNow } from '../http/http-date.js';
import { networkErrorCode } from '../http/error-code.js';
import { notTls, tlsAlert, tlsProblem } from '../http/tls.js';
import { inertText } from '../workflow-commands.js';
import { thousands } from '../words.js';

/**
 * A TLS alert in the handshake (a GitHub Enterprise Server, or a proxy on the way, that wants a client
 * certificate), a certificate Node refuses, or a server that answers the handshake in plain HTTP (an
 * https:// GITHUB_API_URL to a plain-HTTP port) is the same answer on every try: not retried, as the
 * agent's client does not retry it (docs/action.md, "When GitHub does not answer"). Registered before
 * plugin-retry, so that its error hook sees the failure first and gives this request no retries.
 */
function lastingFailures(octokit: Octokit): void {
  octokit.hook.error('request', (error, options) => {
    const code = networkErrorCode(error);
    if (tlsAlert(code) !== null || tlsProblem(code) !== null || notTls(code) !== null) options.request = { ...options.request, retries: 0 };
    throw error;
  });
}

const GitHubWithPlugins = GitHub.plugin(lastingFailures, retry, throttling);

/** The Octokit type used across `src/github/`. */
export type GitHubOctokit = InstanceType<typeof GitHubWithPlugins>;

export interface OctokitLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface CreateOctokitOptions {
  /** GITHUB_TOKEN or a PAT. Only ever sent in the Authorization header. */
  token: string;
  /** REST base URL: GITHUB_API_URL in production, the loopback fake in tests. */
  baseUrl: string;
  /** GraphQL endpoint (GITHUB_GRAPHQL_URL). Default: `${baseUrl}/graphql` (`/api/graphql` on GHES). */
  graphqlUrl?: string;
  log?: OctokitLog;
  /** Retries after the first attempt on 5xx / network errors (plugin-retry). Default 3. */
  retries?: number;
  /** Base of every retry delay in ms, for both plugins. Default 1000 (GitHub's delays are in seconds). Tests: 0. */
  retryAfterBaseMs?: number;
  /** How many times a request hit by a primary or secondary rate limit is retried. Default 2. */
  rateLimitRetries?: number;
  /** Longest wait (seconds) we accept before retrying a rate-limited request; beyond it we fail. Default 120. */
  maxRateLimitWaitSeconds?: number;
  /**
   * Space writes as GitHub asks (plugin-throttling: one write a second, one notifying write every
   * three seconds). Default true. Tests pass false so they do not sleep.
   */
  throttleWrites?: boolean;
  /** Overrides the fetch implementation (default: @actions/github's proxy-aware fetch). */
  fetch?: typeof fetch;
  /**
   * How long one try of a request may take, from sending it to the end of the answer's body, in
   * ms. Default 30000. A try that takes longer is retried like a dropped connection. Tests: a few ms.
   */
  requestTimeoutMs?: number;
  /** How a wait before retrying a 429 or a secondary rate limit is slept (default: a timer). Tests: record the waits asked for. */
  sleep?: (ms: number) => Promise<void>;
  /** The time a Retry-After date or a primary limit's reset is counted from when GitHub's answer has no Date (default: Date.now). Tests: a fixed time. */
  now?: () => number;
}

/**
 * Statuses that plugin-retry never retries: retrying cannot change the answer.
 * Rate-limited 403s and 429s are the throttling plugin's business, not this list's.
 */
const DO_NOT_RETRY: readonly number[] = [
  400, // Bad Request: our request is malformed; it will stay malformed.
  401, // Unauthorized: the token is missing, expired or revoked.
  403, // Forbidden: the token lacks a permission (rate limits are handled by throttling).
  404, // Not Found: also what GitHub answers for a repository the token cannot see.
  410, // Gone: e.g. an expired artifact, a disabled feature.
  422, // Unprocessable Entity: validation failed (body too long, unknown label...).
  429, // Too Many Requests: retried after its Retry-After (throttling, or retryTooManyRequests), never at once.
  451, // Unavailable For Legal Reasons: DMCA takedown; no retry will lift it.
];

/** How long one try of a request may take by default (GitHub itself ends a request after 10 s). */
export const REQUEST_TIMEOUT_MS = 30_000;

// The answer rebuilt below is undici's Response, the class of the answers @actions/github's fetch
// gives (scripts/actions-undici.mjs), loaded with it. Node's global Response and Headers are
// another copy of undici, Node's own, which Node loads on their first use: 25-50 ms of CPU in each
// Action run that asked GitHub anything (docs/performance.md, "The Action's undici").
const { Headers } = HeadersModule;
const { Response } = ResponseModule;

/** Statuses whose answer has no body: a Response built with one throws. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * The words of a request that had no whole answer within `timeoutMs` on each of its `tries`: the
 * wait in seconds when it is whole seconds, else in ms, numbers grouped ("1,500 ms", "1,200 s").
 * src/action/github-words.ts, deadlineWords, reads its head back.
 */
export function noAnswerText(timeoutMs: number, tries: number): string {
  const wait = timeoutMs % 1000 === 0 ? `${thousands(timeoutMs / 1000)} s` : `${thousands(timeoutMs)} ms`;
  return `no answer from GitHub's API within ${wait} (each of the ${thousands(tries)} tries waits ${wait}): GitHub is slow or down; see https://www.githubstatus.com and re-run the job once it answers`;
}

/**
 * `base` with a bounded wait: a try that has not received its whole answer (status, headers and
 * body) after `timeoutMs` is aborted and fails as a dropped connection does (a TypeError with a
 * cause), which @octokit/request reports as a 500 without a response and plugin-retry retries. An
 * AbortError would not be retried: @octokit/request rethrows it as it is. The body is read here,
 * under the same wait, since @octokit/request reads a cut-off JSON body as an empty text.
 */
function boundedFetch(base: typeof fetch, timeoutMs: number, tries: number, maxBodyBytes = Infinity): typeof fetch {
  return async (input, init) => {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
    try {
      const res = await base(input, { ...init, signal });
      const body = NULL_BODY_STATUSES.has(res.status) ? null : maxBodyBytes === Infinity ? await res.arrayBuffer() : await bodyAtMost(res, maxBodyBytes);
      if (body === OVER_LIMIT) {
        // Not an error, which plugin-retry would retry (the same bytes again): an empty answer that says so.
        const headers = new Headers(res.headers);
        headers.delete('content-length');
        headers.set(OVER_LIMIT_HEADER, String(maxBodyBytes));
        return new Response(null, { status: res.status, statusText: res.statusText, headers });
      }
      const answer = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
      Object.defineProperty(answer, 'url', { value: res.url });
      return answer;
    } catch (error) {
      if (!timer.signal.aborted || init?.signal?.aborted) throw error;
      // Named as every client names its peer at a deadline (src/http/network.ts, deadlineText).
      throw new TypeError('fetch failed', { cause: new Error(noAnswerText(timeoutMs, tries)) });
    } finally {
      clearTimeout(timeout);
    }
  };
}

/**
 * The header of an answer whose body was longer than a capped fetch reads (`cappedFetch`): its
 * value is the cap; the body is left out.
 */
export const OVER_LIMIT_HEADER = 'x-agent-replay-over-limit';
const OVER_LIMIT = Symbol('over the limit');

/** The body, or OVER_LIMIT as soon as it passes `max` bytes (by its Content-Length, or as read: the rest is not read). */
async function bodyAtMost(res: Response, max: number): Promise<ArrayBuffer | typeof OVER_LIMIT> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    return OVER_LIMIT;
  }
  if (res.body === null) return new ArrayBuffer(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > max) {
      // Leaving the loop early cancels the stream: nothing more is read.
      return OVER_LIMIT;
    }
    chunks.push(chunk);
  }
  const all = Buffer.concat(chunks);
  return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) as ArrayBuffer;
}

/**
 * A fetch like the Octokit's (the same base fetch, the same bounded wait) that reads at most
 * `maxBodyBytes` of an answer's body: past it, the answer comes back empty with OVER_LIMIT_HEADER
 * (docs/action.md, "Accept: the label commits the reviewed replies": an artifact over 256 MB is
 * refused, its download stopped).
 */
export function cappedFetch(options: CreateOctokitOptions, maxBodyBytes: number): typeof fetch {
  return boundedFetch(baseFetchOf(options), options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, (options.retries ?? 3) + 1, maxBodyBytes);
}

function baseFetchOf(options: CreateOctokitOptions): typeof fetch {
  return options.fetch ?? (actionsDefaults.request as { fetch?: typeof fetch } | undefined)?.fetch ?? fetch;
}

/** Seconds to wait for a secondary rate limit or a 429 without a Retry-After: GitHub's advice for a secondary rate limit. */
const TOO_MANY_REQUESTS_FALLBACK_S = 60;

/**
 * Retry-After in whole seconds (a number of seconds, rounded up, or an HTTP date), or null when
 * absent or neither (a negative number, garbage: V8's Date.parse reads "-1" as a day of 2001).
 */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text));
  const at = httpDate(text);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

interface RequestErrorLike {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | undefined>; data?: { errors?: unknown } };
}

/**
 * The limits this file's wrapper retries (see the top of this file), told apart as plugin-throttling
 * tells them: a secondary rate limit (a 403 or 429, or a GraphQL answer, whose message says
 * "secondary rate"), a primary one (the same with an exhausted x-ratelimit-remaining, or a GraphQL
 * RATE_LIMITED error), or another 429. Null for anything else.
 */
function retriedLimit(error: unknown, url: string): { what: 'secondary' | 'primary' | 'tooMany'; error: RequestErrorLike } | null {
  if (typeof error !== 'object' || error === null) return null;
  const e = error as RequestErrorLike;
  const message = typeof e.message === 'string' ? e.message : '';
  const graphql = new URL(url, 'http://github.test').pathname.startsWith('/graphql') && e.status !== 401;
  const limited = e.response !== undefined && (graphql || e.status === 403 || e.status === 429);
  if (limited && /\bsecondary rate\b/i.test(message)) return { what: 'secondary', error: e };
  const errors = e.response?.data?.errors;
  if (limited && (e.response?.headers?.['x-ratelimit-remaining'] === '0' || (Array.isArray(errors) && errors.some((x) => (x as { type?: unknown } | null)?.type === 'RATE_LIMITED')))) return { what: 'primary', error: e };
  if (e.status === 429) return { what: 'tooMany', error: e };
  return null;
}

/**
 * The seconds until a second after a primary limit's x-ratelimit-reset (epoch seconds), GitHub's
 * advice, counted from `serverNow`, GitHub's now by its answer's Date; never below 0. Null without a
 * reset in whole seconds.
 */
export function resetSeconds(value: string | undefined, serverNow: number): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d+$/.test(text)) return null;
  return Math.max(0, Math.ceil((Number(text) * 1000 - serverNow) / 1000) + 1);
}

/** Without a log given: Octokit's warnings on stderr, none of them a workflow command in a CI log (../workflow-commands.ts). */
const consoleLog: OctokitLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message) => console.warn(inertText(message)),
  error: (message) => console.error(inertText(message)),
};

/** Always passes a job straight through: a Bottleneck group without spacing (tests only). */
const unspacedGroup = {
  key: () => ({
    schedule: (...args: unknown[]) => {
      const fn = args.find((a): a is (...rest: unknown[]) => unknown => typeof a === 'function');
      return Promise.resolve(fn ? fn() : undefined);
    },
  }),
} as unknown as NonNullable<ThrottlingOptions['write']>;

export function createOctokit(options: CreateOctokitOptions): GitHubOctokit {
  const log = options.log ?? consoleLog;
  const retries = options.retries ?? 3;
  const baseMs = options.retryAfterBaseMs ?? 1000;
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const maxWait = options.maxRateLimitWaitSeconds ?? 120;
  const boundFetch = boundedFetch(baseFetchOf(options), options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, retries + 1);

  // The request as sent (its parameters in the path: which pull request, which comment), not its
  // route template, for every wait said in the log (docs/action.md, "GitHub's rate limits").
  const sentName = (request: { method: string; url: string }, client: unknown): string => {
    try {
      const sent = (client as GitHubOctokit).request.endpoint.parse(request as Parameters<GitHubOctokit['request']['endpoint']['parse']>[0]);
      return `${sent.method} ${sent.url}`;
    } catch {
      return `${request.method} ${request.url}`;
    }
  };
  const onLimit =
    (what: string) =>
    (retryAfter: number, request: { method: string; url: string }, client: unknown, retryCount: number): boolean => {
      const name = sentName(request, client);
      if (retryCount >= rateLimitRetries) {
        log.warn(`GitHub ${what} hit by ${name}; gave up after ${retryCount} retries.`);
        return false;
      }
      if (retryAfter > maxWait) {
        log.warn(`GitHub ${what} hit by ${name}; it resets in ${retryAfter}s, longer than the ${maxWait}s we wait.`);
        return false;
      }
      log.info(`GitHub ${what} hit by ${name}; retrying in ${retryAfter}s (${retryCount + 1}/${rateLimitRetries}).`);
      return true;
    };

  const throttle: ThrottlingOptions = {
    retryAfterBaseValue: baseMs,
    // Retried by the wrapper below, until the reset read against GitHub's Date (see the top of this file).
    onRateLimit: () => false,
    // Retried by the wrapper below, after the Retry-After GitHub gave (see the top of this file).
    onSecondaryRateLimit: () => false,
    ...(options.throttleWrites === false
      ? { write: unspacedGroup, notifications: unspacedGroup, search: unspacedGroup }
      : {}),
  };

  const octokit = new GitHubWithPlugins(
    getOctokitOptions(options.token, {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      log: { debug: log.debug, info: log.info, warn: log.warn, error: log.error },
      // Retries are set on the plugin, NOT as `request.retries`: plugin-retry retries every failed
      // request whose `request.retries` is set, so setting it globally would bypass doNotRetry.
      retry: { doNotRetry: [...DO_NOT_RETRY], retries, retryAfterBaseValue: baseMs },
      throttle,
      // Keep @actions/github's proxy-aware fetch (a `request` option replaces the defaults' one), with a bounded wait.
      request: { ...actionsDefaults.request, fetch: boundFetch },
    }),
  );
  if (options.graphqlUrl) octokit.graphql = octokit.graphql.defaults({ url: options.graphqlUrl });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const say = { secondary: onLimit('secondary rate limit'), primary: onLimit('rate limit'), tooMany: onLimit('rate limit (429 Too Many Requests)') };
  octokit.hook.wrap('request', async (request, requestOptions) => {
    for (let retryCount = 0; ; retryCount++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const limit = retriedLimit(error, requestOptions.url);
        if (limit === null) throw error;
        // A primary limit until a second after its reset; 0 is at once, a date until then, none 60 s
        // (docs/action.md, "GitHub's rate limits"). A reset and a date are times of GitHub's clock:
        // read against its answer's Date, not the runner's clock.
        const headers = limit.error.response?.headers ?? {};
        const github = serverNow(headers, now());
        const retryAfter = (limit.what === 'primary' ? resetSeconds(headers['x-ratelimit-reset'], github) : retryAfterSeconds(headers['retry-after'], github)) ?? TOO_MANY_REQUESTS_FALLBACK_S;
        // The request as sent (its parameters in the path), not its route template.
        if (!say[limit.what](retryAfter, requestOptions, octokit, retryCount)) throw error;
        await sleep(retryAfter * baseMs);
      }
    }
  });
  return octokit;
}
