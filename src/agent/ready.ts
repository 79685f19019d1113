// Readiness: before the first fixture, wait until the agent answers at all. A preview that is still
// starting (connection refused, or the host's 502/503/504 while it boots) would otherwise turn every
// fixture into an error and spend the run. GET only: nothing is sent that costs anything.

import { abortedConnecting, closeDispatcher, request } from '../http/undici.js';
import { cutStep, deadlineText, DIRECT, lastingFault, proxyFault, proxyFaultText, proxyRefusal, unreachedProxy, type Network, type ProxyRoute } from '../http/network.js';
import { realTimer, sleepUnlessAborted, systemClock, type Timer } from '../http/retry.js';
import { UserError } from '../errors.js';
import type { Clock } from '../types.js';
import { interruptedBy } from '../interrupt.js';
import { NOT_TLS_FIX, notTls, tlsAlert, tlsAlertFix, tlsAlertText, tlsProblem } from '../http/tls.js';
import { answersTheSame, badAnswerText, connectionFailureText, networkAddress, networkErrorCode, NOT_HTTP } from '../http/error-code.js';
import { HEADERS_FIX, NOT_HTTP_FIX } from '../agent-fixes.js';
import { basicAuthOf } from '../suite/url-credentials.js';
import { docsUrl } from '../version.js';
import { thousands } from '../words.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';

/** The longest `wait-for-agent` allowed: 10 minutes, in seconds. */
export const MAX_WAIT_FOR_AGENT_S = 600;

/** Answers that mean "the host is up but the agent is not there yet". */
const NOT_READY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
/** One poll waits at most this long for an answer, and at least MIN_POLL_TIMEOUT_MS (also the last one, at the deadline). */
const POLL_TIMEOUT_MS = 10_000;
const MIN_POLL_TIMEOUT_MS = 2_000;

/** The agent never answered within the wait: the run stops before the first fixture. */
export class AgentNotReady extends UserError {
  override name = 'AgentNotReady';
  /** The suite's config file, where agent.waitForAgent is set (Suite.configName: config.yml, or config.yaml). */
  configName: string = NEW_CONFIG_NAME;
  constructor(
    readonly seconds: number,
    readonly polls: number,
    /** What the last poll observed ("HTTP 503", "connection refused (ECONNREFUSED)"). */
    readonly lastObserved: string,
    message = `agent not ready after ${seconds} s: ${pollsText(polls, lastObserved)}; nothing was replayed and nothing was spent. ` +
      'Check that the preview deployed and that the agent URL is right, or raise wait-for-agent (agent.waitForAgent) if it starts slowly.',
  ) {
    super(message);
  }
}

/**
 * The wait was cut short by an interrupt (Ctrl-C, SIGTERM, a cancelled job): not a slow agent, so
 * no advice to wait longer; the CLI exits 130 / 143 for it as for any interrupted run (docs/cli.md,
 * "The gate and the exit status").
 */
export class AgentWaitInterrupted extends AgentNotReady {
  override name = 'AgentWaitInterrupted';
  constructor(seconds: number, polls: number, lastObserved: string, signal: AbortSignal | undefined) {
    const by = interruptedBy(signal);
    super(seconds, polls, lastObserved, `interrupted${by === null ? '' : ` by ${by}`} while waiting for the agent, after ${seconds} s: ${pollsText(polls, lastObserved)}; nothing was replayed and nothing was spent`);
  }
}

function pollsText(polls: number, lastObserved: string): string {
  return `${polls} ${polls === 1 ? 'poll' : 'polls'} (GET), the last one got ${lastObserved}`;
}

/** A clock whose sleep returns at once and moves its time on (tests: no real waiting). */
export function instantClock(start = 0): Clock {
  let now = start;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

/** One GET: the HTTP status, or a thrown error when no answer came (connection error, timeout); `timer` starts its timeoutMs (a real timer when absent). */
export type Probe = (url: string, headers: Record<string, string>, timeoutMs: number, network?: Network, timer?: Timer) => Promise<number>;

export interface WaitForAgentOptions {
  url: string;
  /** The agent's configured headers (a protected preview may need them to answer). */
  headers: Record<string, string>;
  seconds: number;
  clock?: Clock;
  probe?: Probe;
  /** Stops the wait (the run was interrupted). */
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** How the agent is reached: directly (the default) or through the environment's proxy. */
  network?: Network;
  /** Hides the run's secrets in what a poll observed (a host name read from `${NAME}`); default: none. */
  redact?: (text: string) => string;
  /** One poll's longest wait; default: 10 s, at least 2 s, the rest of the wait when that is shorter (tests give a short one). */
  pollTimeoutMs?: number;
  /** Starts each poll's timeout (http/retry.ts, Timer): a real timer when absent. */
  timer?: Timer;
  /** The suite's config file (Suite.configName), named by the fix of an agent not ready; default: config.yml. */
  configName?: string;
}

export interface Ready {
  polls: number;
  waitedMs: number;
  /** The answer's status; null: a certificate Node refuses, or a proxy's 407, ended the wait (waiting would not change it; the items say so). */
  status: number | null;
}

/**
 * The wait ended with polls that never reached the proxy in front of the agent: the fix is the
 * proxy's variable, not the agent's URL (docs/configuration.md, "Behind a proxy").
 */
export class ProxyNotReached extends AgentNotReady {
  override name = 'ProxyNotReached';
  constructor(
    seconds: number,
    polls: number,
    lastObserved: string,
    readonly proxy: ProxyRoute,
  ) {
    super(seconds, polls, lastObserved, `agent not ready after ${seconds} s: ${pollsText(polls, lastObserved)}; nothing was replayed and nothing was spent. ${proxyAdvice(proxy)}`);
  }
}

/** What fixes a proxy the polls never reached. */
export function proxyAdvice(proxy: ProxyRoute): string {
  return `The polls go through the proxy in ${proxy.variable} and never reached it: check ${proxy.variable}, or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')}).`;
}

/**
 * What a failed poll observed, in words, without the URL (which may carry a token): `address`, where
 * the connection was tried (networkAddress: an address and port, or a host name), as the agent's
 * client names it; null: none named.
 */
export function describePollError(e: unknown, address: string | null = null): string {
  const code = networkErrorCode(e);
  // In the judge's words for the same failures (http/error-code.ts).
  const words = connectionFailureText(code, address);
  if (words !== null) return words;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || (e as Error).name === 'TimeoutError') return 'no answer in time';
  // An answer that is not one HTTP reads, in the agent client's words (a body of another length, headers over the size read).
  const bad = badAnswerText(e);
  if (bad !== null) return bad;
  return code ? `a connection error (${code})` : 'a connection error';
}

/**
 * A poll cut at its timeout, in the agent client's words: no connection opened (through a proxy,
 * with the step its tunnel stalled at), or the connection opened and no answer came; null: the poll
 * did not time out. The body is not waited for: any status is an answer.
 */
function pollTimeout(e: unknown, timeoutMs: number, route: ProxyRoute | null): string | null {
  const code = networkErrorCode(e);
  if (abortedConnecting(e) || (route === null && code === 'UND_ERR_CONNECT_TIMEOUT')) return deadlineText({ at: 'connecting', step: cutStep(route, e) }, 'the agent', `${thousands(timeoutMs)} ms`, route);
  if (code !== 'UND_ERR_HEADERS_TIMEOUT' && (e as Error | null)?.name !== 'TimeoutError') return null;
  return deadlineText({ at: 'answer' }, 'the agent', `${thousands(timeoutMs)} ms`, route);
}

/**
 * Polls `url` with GET until it answers with anything but 502/503/504 (a 404 or 405 is an answer:
 * the server is up), backing off from 0.5 s to 10 s. Throws AgentNotReady when `seconds` pass
 * without such an answer. `seconds` 0: no wait, no poll.
 */
export async function waitForAgent(o: WaitForAgentOptions): Promise<Ready | null> {
  if (o.seconds <= 0) return null;
  const clock = o.clock ?? systemClock;
  const probe = o.probe ?? httpProbe;
  const start = clock.now();
  const deadline = start + o.seconds * 1000;
  let delay = FIRST_DELAY_MS;
  let polls = 0;
  const interrupted = (): boolean => o.signal?.aborted === true;
  // A user and password in the URL are sent as basic auth, as the turns send them (docs/configuration.md,
  // "config.yml"): a host whose basic auth answers 401 before the agent is up is not taken as ready.
  const basic = URL.canParse(o.url) ? basicAuthOf(new URL(o.url)) : null;
  const headers = basic === null || Object.keys(o.headers).some((n) => n.toLowerCase() === 'authorization') ? o.headers : { authorization: `Basic ${basic}`, ...o.headers };
  const route = o.network?.route(o.url) ?? null;
  // Where a poll's connection failed, reached directly (through a proxy, the proxy is named instead):
  // an address and port, or a host name, with the run's secrets redacted (a host read from ${NAME}).
  const triedAt = (e: unknown): string | null => {
    const address = route === null ? networkAddress(e) : null;
    return address === null ? null : (o.redact ?? ((t: string) => t))(address);
  };
  for (;;) {
    polls++;
    /** The proxy this poll could not reach (null: it was reached, or there is none). */
    let unreached: ProxyRoute | null = null;
    const timeoutMs = o.pollTimeoutMs ?? Math.max(MIN_POLL_TIMEOUT_MS, Math.min(POLL_TIMEOUT_MS, deadline - clock.now()));
    let observed: string;
    try {
      const status = await probe(o.url, headers, timeoutMs, o.network, o.timer);
      if (!NOT_READY_STATUSES.has(status)) {
        o.log?.(readyLine(status, polls));
        return { polls, waitedMs: clock.now() - start, status };
      }
      observed = `HTTP ${status}`;
    } catch (e) {
      // The proxy's certificate (or one presented through it), or an alert in its handshake, is refused on every poll too: named as
      // the proxy's, with its fix (docs/configuration.md, "Behind a proxy").
      const fault = proxyFault(route, e);
      const faultText = route === null || fault === null ? null : proxyFaultText(route, fault);
      if (faultText !== null && lastingFault(fault)) {
        o.log?.(`${faultText.what}; not waiting for the agent: ${faultText.fix}`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // A certificate Node refuses is refused on every poll: waiting does not change it. The wait
      // ends and says what fixes it; each item then errors with it, tried once
      // (docs/troubleshooting.md, "The agent").
      const tls = tlsProblem(networkErrorCode(e));
      if (tls !== null) {
        o.log?.(`agent's TLS certificate is refused (${tls.code}): ${tls.what}; not waiting for it: ${tls.fix}`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // A server that answers the TLS handshake with an alert answers so on every poll: the wait
      // ends and says what to check (docs/troubleshooting.md, "The agent").
      const alert = tlsAlert(networkErrorCode(e));
      if (alert !== null) {
        o.log?.(`agent ${tlsAlertText(alert)}; not waiting for it: ${tlsAlertFix('agent-url (agent.url)')}`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // An https:// URL to a port that speaks plain HTTP answers so on every poll: the server is up.
      const plain = notTls(networkErrorCode(e));
      if (plain !== null) {
        o.log?.(`agent answered without TLS (${plain}); not waiting for it: ${NOT_TLS_FIX}`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // Something other than HTTP answers at the agent's address (another service on its port), or
      // an answer with headers over the size read: it answers so on every poll, so the wait ends
      // and says what to check, as the turns do not retry it; each item then errors with it, tried
      // once (docs/troubleshooting.md, "The agent").
      const bad = route === null ? badAnswerText(e) : null;
      if (bad !== null && answersTheSame(bad)) {
        o.log?.(`agent gave ${bad}; not waiting for it: ${bad === NOT_HTTP ? NOT_HTTP_FIX : HEADERS_FIX}`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // A proxy that wants credentials, or refuses those given, refuses every poll: the wait ends
      // and says so; each item then errors with it, tried once (docs/configuration.md, "Behind a proxy").
      const refused = e instanceof Error ? proxyRefusal(e.message) : null;
      if (refused !== null && refused.includes('HTTP 407') && route !== null) {
        o.log?.(`the proxy ${route.proxy} (${route.variable}) answered HTTP 407, proxy authentication required; not waiting for the agent: check the user and password in ${route.variable} (http://user:password@host:port)`);
        return { polls, waitedMs: clock.now() - start, status: null };
      }
      // A proxy that never answered CONNECT, or closed the connection, was not passed either.
      unreached = unreachedProxy(route, networkErrorCode(e)) ?? (fault?.kind === 'no-answer' || fault?.kind === 'closed' ? route : null);
      const at = unreached === null ? '' : ` at the proxy ${unreached.proxy} (${unreached.variable})`;
      const seen =
        fault?.kind === 'no-answer'
          ? `no answer to CONNECT within ${thousands(fault.timeoutMs)} ms (the connect timeout)`
          : fault?.kind === 'closed' ? (connectionFailureText(fault.code) ?? `the connection was closed without an answer (${fault.code})`) : (pollTimeout(e, timeoutMs, route) ?? describePollError(e, triedAt(e)));
      observed = unreached === null ? (refused ?? seen) : `${seen}${at}`;
    }
    const remaining = deadline - clock.now();
    if (interrupted()) throw new AgentWaitInterrupted(Math.round((clock.now() - start) / 1000), polls, observed, o.signal);
    if (remaining <= 0) throw Object.assign(unreached === null ? new AgentNotReady(o.seconds, polls, observed) : new ProxyNotReached(o.seconds, polls, observed, unreached), { configName: o.configName ?? NEW_CONFIG_NAME });
    o.log?.(`agent not ready yet (${observed}); next poll in ${(Math.min(delay, remaining) / 1000).toFixed(1)} s`);
    await sleepUnlessAborted(clock, Math.min(delay, remaining), o.signal);
    if (interrupted()) throw new AgentWaitInterrupted(Math.round((clock.now() - start) / 1000), polls, observed, o.signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}

/**
 * What the wait saw when it ended. Any answer but 502/503/504 means the server is up; a 404 is
 * said apart, because it is also what a wrong path answers (a GET on a POST-only route answers
 * 405, or 404 on some servers), so the path is worth a look when the items then error.
 */
export function readyLine(status: number, polls: number): string {
  const after = `after ${polls} ${polls === 1 ? 'poll' : 'polls'}`;
  if (status === 404) {
    return `agent answered HTTP 404 ${after}: the server is up, but the path is probably wrong (a GET on a POST-only route may also answer 404); if the items error with HTTP 404, check agent-path or agent.url`;
  }
  if (status >= 300 && status < 400) {
    return `agent answered HTTP ${status} ${after}: the server is up, but redirects, and redirects are not followed: if the items error with HTTP ${status}, their cause names where it points (a sign-in page: a protected preview)`;
  }
  if (status === 401 || status === 403) {
    return `agent answered HTTP ${status} ${after}: the server is up, but refuses a request without the header it expects (a protected preview's bypass header, the agent's key): if the items error with HTTP ${status}, their cause names it`;
  }
  return `agent ready: HTTP ${status} ${after}`;
}

/** A real GET through its own connection pool, closed afterwards; the body is discarded. */
export const httpProbe: Probe = async (url, headers, timeoutMs, network = DIRECT, timer = realTimer) => {
  const dispatcher = network.dispatcher(url, { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  // Aborted as AbortSignal.timeout aborts: a TimeoutError, which pollTimeout reads.
  const timeout = new AbortController();
  const stop = timer(timeoutMs, () => timeout.abort(new DOMException('The operation timed out.', 'TimeoutError')));
  try {
    const res = await request(url, { dispatcher, method: 'GET', headers, signal: timeout.signal });
    await res.body.dump().catch(() => undefined);
    return res.statusCode;
  } finally {
    stop();
    await closeDispatcher(dispatcher).catch(() => undefined);
  }
};
