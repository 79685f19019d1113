// One JSON POST to a judge endpoint, with a timeout per attempt and retries (the shared loop of
// http/retry.ts) on network errors, timeouts, 429 and 5xx (honouring retry-after-ms, else
// Retry-After). Unlike an agent turn, a judge call is retried after a timeout: scoring has no side
// effect to repeat.
// An answer compressed though not asked to be (gzip, deflate, br) is decoded, held to
// MAX_RESPONSE_BYTES once decoded (docs/judges.md, "Compressed answers").
// A 429 spends no retry: the call waits its Retry-After holding no slot and goes again, within
// timeoutMs x attempts (http/retry.ts).
// Never throws for what the network or the server did: a failure is a reason string that says what
// was observed. A fault of ours (a body that could not be made) is thrown, as it came.

import type { Dispatcher } from 'undici';
import { cutStep, deadlineText, lastingFault, ProxyConnectError, proxyFault, proxyFaultText, proxyRefusal, unreachedProxy, type DeadlineCut, type ProxyRoute } from '../http/network.js';
import type { TunnelStep } from '../http/proxy-error.js';
import { redirectTarget } from '../http/redirect.js';
import { NOT_TLS_FIX, notTls, tlsAlert, tlsAlertFix, tlsAlertText, tlsProblem } from '../http/tls.js';
import { answersTheSame, badAnswerText, connectionFailureText, NOT_HTTP, networkAddress, networkErrorCode, otherNetworkFailureText } from '../http/error-code.js';
import { abortedConnecting, request } from '../http/undici.js';
import { bodyText, decodedBody, UndecodableBody } from '../http/content-encoding.js';
import type { Clock } from '../types.js';
import { askedRetryAfterOf, attemptsText, rateLimitOf, realTimer, throttleAllowance, withRetries, type Timer } from '../http/retry.js';
import { heldAttempt, type AdaptiveLimiter, type Held, type Pace } from '../http/limiter.js';
import { advertisedPace, spentQuota, type Spent } from '../http/ratelimit-policy.js';
import { baseUrlSetting, STREAMED } from '../judge-url-setting.js';
import { snippet } from './parse.js';
import { shownJson, thousands } from '../words.js';
import { atTopLevel } from '../assertions/format.js';

/**
 * A failure keeps the HTTP status and the start of the body when the server answered, so that the
 * caller can tell an endpoint that refuses a request's shape (client.ts, structured output).
 * `reached`: something answered at the server's address, and not with an HTTP status to act on (an
 * answer that is not valid HTTP, a body of another length than its header says, an answer that did
 * not end or broke off, a TLS port that answered without TLS, a body that is not JSON or in a coding
 * not read): the server is not "unreachable" (docs/troubleshooting.md, "Not evaluated").
 */
export type PostResult = { ok: true; json: unknown; /** Set when more than one attempt was made: the last answered `failedOk`'s error. */ attempts?: number } | { ok: false; reason: string; status?: number; body?: string; reached?: true };

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  /** The JSON body; a function is asked again for each attempt (the judge's mode may change meanwhile). */
  body: unknown;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  backoffMs: number;
  clock: Clock;
  random: () => number;
  /** Told as each retried request is sent (counted in `spend`: docs/semantics.md, "Cost"). */
  onRetry?: () => void;
  /** Gates every attempt; a 429 halves the judge's concurrency, unless it reads as a rate limit (rateLimitOf): that paces the starts. */
  limiter: AdaptiveLimiter;
  /** Aborted when the run is interrupted: nothing more is sent, a request in flight is abandoned. */
  signal?: AbortSignal;
  /**
   * Told of an HTTP failure while the attempt still holds its slot, before a call waiting for the
   * slot is sent: the judge turns to the plain prompt here (structured.ts), so that call is plain.
   */
  onHttpFailure?: (failure: { status: number; body: string; reason: string }) => void;
  /** The proxy the calls go through (null or absent: none), named when it cannot be reached. */
  proxy?: ProxyRoute | null;
  /**
   * Whether a 2xx JSON answer carries an error worth another attempt (a gateway's upstream failure
   * in an HTTP 200: structured.ts, transientError): retried as a 5xx is, within `retries`; when
   * they are spent, the last such answer is the result, with its attempts.
   */
  failedOk?: (json: unknown) => boolean;
  /** The server, as a deadline's words name it ("the judge", "the simulator"; src/http/network.ts, deadlineText). */
  peer: string;
  /** Its key, as a key no header can carry names it (notSentWords), when not the peer's own: a panel member's. */
  key?: string;
  /** Starts each attempt's timeoutMs (http/retry.ts, Timer): a real timer when absent. */
  timer?: Timer;
}

/** The largest answer read from a judge, simulator or meaning judge: received, and decoded (docs/judges.md, "Compressed answers"). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

type Attempt =
  /** `spent`: the wait until the server's quota resets, when its headers say none remains (ratelimit-policy.ts, spentQuota). */
  | { kind: 'ok'; json: unknown; advertised?: Pace | null; spent?: Spent | null }
  | { kind: 'fatal'; reason: string; reached?: true }
  | { kind: 'http'; status: number; message: string | null; body: string; retryAfterMs: number | null; rateLimited?: boolean; advertised?: Pace | null; spent?: Spent | null }
  /** `reached`: as PostResult's. */
  | { kind: 'network'; reason: string; fix?: string; reached?: true }
  /**
   * `connecting`: the deadline came while the connection was still opening; `step`: how far its
   * tunnel through a proxy had got; `status`: the answer's headers had come, and its body had not ended.
   */
  | { kind: 'timeout'; connecting?: boolean; step?: TunnelStep | null; status?: number };

/**
 * A server's error message as a reason quotes it after its status (`HTTP 500: <its message>`): as it
 * is, or quoted (JSON) when it holds "; ", begins with a quote, or leaves a parenthesis or a quote
 * open, so that a panel's reason, which puts "; " and the next member's label after it, never reads
 * its words as a member's (src/evaluate/causes.ts, memberReasons), as a member's label is quoted (memberLabel).
 */
function serverMessage(message: string): string {
  return message.includes('; ') || message.startsWith('"') || !atTopLevel(`${message}; `, message.length) ? shownJson(message) : message;
}

/** The provider's own error message, when the body carries one (`{error: {message}}`). */
function errorMessage(text: string): string | null {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === 'object' && json !== null) {
      const error = (json as Record<string, unknown>).error;
      if (typeof error === 'string') return error;
      if (typeof error === 'object' && error !== null) {
        const message = (error as Record<string, unknown>).message;
        if (typeof message === 'string') return message;
      }
      const message = (json as Record<string, unknown>).message;
      if (typeof message === 'string') return message;
    }
  } catch {
    // not JSON: no message to quote
  }
  return null;
}

/** One line of at most `max` characters, never half a surrogate pair (parse.ts, snippet). */
const oneLine = (text: string, max: number): string => snippet(text, max);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** A connection closed under a request: undici's, and Node's reset and broken pipe. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function describeNetworkError(err: unknown, route: ProxyRoute | null, url: string, peer: string, key?: string): Attempt {
  const code = networkErrorCode(err);
  // The proxy's own failure (its certificate, no answer to CONNECT, a connection it closed) is named
  // as the proxy's, with its fix; a certificate, or an alert in the proxy's handshake, is refused again on every attempt (docs/configuration.md, "Behind a proxy").
  const fault = route === null ? null : proxyFault(route, err);
  const text = route === null || fault === null ? null : proxyFaultText(route, fault);
  if (text !== null) {
    return lastingFault(fault) ? { kind: 'fatal', reason: `${text.what}; ${text.fix}` } : { kind: 'network', reason: text.what, fix: text.fix };
  }
  if (code && TIMEOUT_CODES.has(code) && !(err instanceof ProxyConnectError)) return { kind: 'timeout' };
  // A request undici will not send (a key with a line break, or a character outside Latin-1, in its
  // header): nothing went out, and nothing would on a retry; said in our words, never the key.
  if (code === 'UND_ERR_INVALID_ARG') return { kind: 'fatal', reason: `the request was not sent: ${notSentWords(err, peer, key)}` };
  // A certificate Node refuses is refused again on every attempt: not retried, its fix said, never
  // "turn verification off" (docs/troubleshooting.md, "Not evaluated").
  const tls = tlsProblem(code);
  if (tls !== null) return { kind: 'fatal', reason: `its TLS certificate is refused: ${tls.what} (${tls.code}); ${tls.fix}` };
  // A server that answered the TLS handshake with an alert (a client certificate it wants, no TLS
  // version in common) answers so on every attempt: not retried, said with what to check; it
  // answered, so reached, not "unreachable" (docs/troubleshooting.md, "Not evaluated").
  const alert = tlsAlert(code);
  if (alert !== null) return { kind: 'fatal', reason: `it ${tlsAlertText(alert)}; ${tlsAlertFix(baseUrlSetting(peer))}`, reached: true };
  // An https:// base URL to a port that speaks plain HTTP answers so on every attempt: said as such,
  // with the scheme to write in the peer's own setting, as the agent's client says it; something
  // answered, so it was reached, not "unreachable" (docs/troubleshooting.md, "Not evaluated").
  const plain = notTls(code);
  if (plain !== null) return { kind: 'fatal', reason: `it answered without TLS (${plain}): ${NOT_TLS_FIX} in ${baseUrlSetting(peer)}`, reached: true };
  // Through a proxy, a connection that never opened is the proxy's: named with its variable, not
  // taken for the judge's (docs/configuration.md, "Behind a proxy").
  // The words are the ones --wait-for-agent says them in (http/error-code.ts, connectionFailureText).
  const proxy = unreachedProxy(route, code);
  if (proxy !== null && code) return { kind: 'network', reason: `${connectionFailureText(code) ?? `a connection error (${code})`} at the proxy ${proxy.proxy} (${proxy.variable})` };
  // undici's connect timeout is judge.timeoutMs: a connection that never opened, as when the deadline cuts it.
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', connecting: true, step: null };
  if (code === 'UND_ERR_CLOSED') return { kind: 'network', reason: 'the connection was closed (UND_ERR_CLOSED)' };
  // With the address it was tried at, as the agent's client says it (http/error-code.ts, networkAddress):
  // read from the error, an address and port or a host name, never the base URL's path, which may hold a token.
  const words = connectionFailureText(code, route === null ? networkAddress(err) : null);
  if (words !== null) return { kind: 'network', reason: words };
  const message = err instanceof Error ? err.message : String(err);
  const refused = proxyRefusal(message);
  // A proxy that wants credentials, or refuses those given, refuses them again on every attempt:
  // not retried, as the agent's client does not (docs/configuration.md, "Behind a proxy").
  if (refused !== null) return { kind: refused.includes('HTTP 407') ? 'fatal' : 'network', reason: refused };
  // Something answered at the server's address, and not in HTTP (another service on its port), or
  // with a body of another length than its header says: reached, and said so in our words, never
  // llhttp's or undici's, with the address (the error's, else the base URL's host and port, never
  // its path), as the agent's client says it (docs/troubleshooting.md, "Not evaluated").
  // An answer that is not HTTP, or whose headers are over the size read, is not retried: the next
  // attempt gets the same (another service on the port, the same headers) (docs/troubleshooting.md, "Not evaluated").
  const bad = route === null ? badAnswerText(err) : null;
  if (bad !== null) {
    const at = networkAddress(err) ?? hostAndPort(url);
    if (bad === NOT_HTTP) return { kind: 'fatal', reason: `${peer} at ${at} gave ${bad}; something other than ${peer}'s HTTP server answers there: check the port in ${baseUrlSetting(peer)}`, reached: true };
    if (answersTheSame(bad)) return { kind: 'fatal', reason: `${peer} at ${at} gave ${bad}`, reached: true };
    return { kind: 'network', reason: `${peer} at ${at} gave ${bad}`, reached: true };
  }
  // Any other code in our words too (`a connection error (CODE)`). Every error a request gets from
  // the network or the server carries a code (undici's errors, Node's system and TLS errors; an
  // HTTPParserError without one is read by its name above): one with none is not the network's but a
  // fault of ours (a body that could not be made), thrown for the client that asked to say
  // (`judge call failed: ...`), never retried nor called a network error.
  const other = otherNetworkFailureText(err);
  if (other === null) throw err;
  return { kind: 'network', reason: other };
}

/**
 * Why undici refused to send a request (InvalidArgumentError, `invalid authorization header`): the
 * key's header is the only one of a user's making, so that is the fix, after "; " as every fix of a
 * reason is (src/assertions/format.ts, FIX_START): an item's detail over its bound then leaves it
 * whole to the cause line instead of cutting it mid-sentence; any other argument by its name.
 * `own`: the key as the client names it, when not the peer's (a panel member's, src/judge/panel.ts).
 */
function notSentWords(err: unknown, peer: string, own?: string): string {
  const header = /^invalid (\S+) header$/.exec(err instanceof Error ? err.message : '')?.[1];
  if (header === 'authorization' || header === 'x-api-key') {
    const key =
      own ??
      (peer === 'the simulator'
        ? "the simulator's key (simulator.apiKey, else the judge's)"
        : peer === 'the meaning judge'
          ? "the meaning judge's key (meaning.apiKey, else the judge's)"
          : 'the judge key (judge.apiKey)');
    return `${key} holds a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG); check its value, or that of the variable it is read from`;
  }
  return `undici refused ${header === undefined ? 'one of its arguments' : `its ${header} header`} (UND_ERR_INVALID_ARG)`;
}

/** A URL's host and port, the default port said (`127.0.0.1:11434`, `api.openai.com:443`). */
function hostAndPort(raw: string): string {
  const url = new URL(raw);
  return `${url.hostname}:${url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port}`;
}

const INTERRUPTED: Attempt = { kind: 'fatal', reason: 'not judged: the run was interrupted' };

async function attempt(opts: PostOptions): Promise<Attempt> {
  if (opts.signal?.aborted) return INTERRUPTED;
  const controller = new AbortController();
  let timedOut = false;
  const stop = (opts.timer ?? realTimer)(opts.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  /** The answer's status, once its headers came: a deadline after that cut its body, not the wait for an answer. */
  let status: number | null = null;
  try {
    const res = await request(opts.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...opts.headers },
      body: JSON.stringify(typeof opts.body === 'function' ? (opts.body as () => unknown)() : opts.body),
      dispatcher: opts.dispatcher,
      signal: opts.signal ? AbortSignal.any([controller.signal, opts.signal]) : controller.signal,
    });
    status = res.statusCode;
    const answered = res.statusCode >= 200 && res.statusCode < 300;
    const body = decodedBody(res.body, res.headers['content-encoding'], MAX_RESPONSE_BYTES, 'response');
    let text: string;
    if ('unknown' in body) {
      await res.body.dump().catch(() => undefined);
      // An answer came, in a form not read: reached, not "unreachable" (docs/troubleshooting.md, "Not evaluated").
      if (answered) return { kind: 'fatal', reason: `response is encoded as "${body.unknown}" (its Content-Encoding), which agent-replay cannot decode: answer uncompressed, or with gzip, deflate or br`, reached: true };
      text = `(a body encoded as "${body.unknown}")`;
    } else if (answered) {
      text = await bodyText(body);
    } else {
      // An error answer that is not what its coding says, or over the size limit (an error page of
      // megabytes), is quoted as nothing: its status stands, and a 5xx is retried as any.
      text = await bodyText(body).catch((err: unknown) => {
        if (err instanceof UndecodableBody || networkErrorCode(err) === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return '';
        throw err;
      });
    }
    if (answered) {
      try {
        return { kind: 'ok', json: JSON.parse(text) as unknown, advertised: advertisedPace(res.headers), spent: spentQuota(res.headers, opts.clock.now()) };
      } catch {
        // A stream agent-replay did not ask for (no "stream": true is sent): a proxy or an endpoint that streams every answer.
        if (/^text\/event-stream\b/i.test(String(res.headers['content-type'] ?? '')) || /^\s*(?:data|event):/.test(text)) {
          return { kind: 'fatal', reason: `${STREAMED}, which agent-replay does not ask for: "${oneLine(text, 80)}"`, reached: true };
        }
        return { kind: 'fatal', reason: `response is not JSON: "${oneLine(text, 80)}"`, reached: true };
      }
    }
    if (res.statusCode >= 300 && res.statusCode < 400) {
      const to = redirectTarget(res.headers.location, new URL(opts.url));
      const message = `${to === null ? 'a redirect' : `redirects to ${to}`}, which is not followed: give the address it redirects to as the base URL`;
      return { kind: 'http', status: res.statusCode, message, body: oneLine(text, 1000), retryAfterMs: null };
    }
    const message = errorMessage(text);
    const retryAfterMs = askedRetryAfterOf(res.headers, opts.clock.now());
    const rateLimited = res.statusCode === 429 && rateLimitOf(res.headers, retryAfterMs);
    const spent = res.statusCode === 429 ? spentQuota(res.headers, opts.clock.now()) : null;
    return { kind: 'http', status: res.statusCode, message: message ? serverMessage(oneLine(message, 120)) : null, body: oneLine(text, 1000), retryAfterMs, rateLimited, advertised: rateLimited ? advertisedPace(res.headers) : null, spent };
  } catch (err) {
    // A body that stopped after the headers (undici's wait between its bytes is timeoutMs too) is
    // said as the answer that did not end, not as no answer (docs/troubleshooting.md, "Not evaluated").
    if (status !== null && (timedOut || networkErrorCode(err) === 'UND_ERR_BODY_TIMEOUT') && opts.signal?.aborted !== true) return { kind: 'timeout', status };
    if (timedOut) {
      return { kind: 'timeout', connecting: abortedConnecting(err), step: cutStep(opts.proxy ?? null, err) };
    }
    if (opts.signal?.aborted) return INTERRUPTED;
    // Too large, or not what its coding says: the same answer again would be too.
    if (networkErrorCode(err) === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { kind: 'fatal', reason: `response is larger than ${MAX_RESPONSE_BYTES / 1_048_576} MiB`, reached: true };
    if (err instanceof UndecodableBody) return { kind: 'fatal', reason: err.message, reached: true };
    // The answer's headers came and its connection closed before the body's end: the server was
    // reached and answered, so not "closed without an answer"; retried as any network error.
    const code = networkErrorCode(err);
    if (status !== null && code !== undefined && CLOSED_CODES.has(code)) return { kind: 'network', reason: `${opts.peer}'s answer (HTTP ${status}) broke off before its end: the connection was closed (${code})`, reached: true };
    return describeNetworkError(err, opts.proxy ?? null, opts.url, opts.peer, opts.key);
  } finally {
    stop();
  }
}

/** A 429's wait: its Retry-After, or its spent quota's reset when that is later. */
function waitOf(a: Extract<Attempt, { kind: 'http' }>): number | null {
  return a.spent != null && a.spent.waitMs > (a.retryAfterMs ?? 0) ? a.spent.waitMs : a.retryAfterMs;
}

function retryable(a: Attempt): boolean {
  if (a.kind === 'network' || a.kind === 'timeout') return true;
  return a.kind === 'http' && (a.status === 429 || a.status >= 500);
}

function describe(a: Attempt, result: Parameters<typeof attemptsText>[0], timeoutMs: number, proxy: ProxyRoute | null, peer: string): string {
  const attempts = result.attempts;
  const times = attempts === 1 && result.throttled === undefined && result.budget === undefined ? '' : ` after ${attemptsText(result)}`;
  switch (a.kind) {
    case 'http':
      return `HTTP ${a.status}${times}${a.message ? `: ${a.message}` : ''}`;
    case 'network':
      return `${a.reason}${times}${a.fix === undefined ? '' : `; ${a.fix}`}`;
    case 'timeout': {
      // timeoutMs bounds connecting too: a connection that never opened is said apart from a slow
      // answer, and an answer whose body stopped after its headers from both, in the agent client's
      // words (through a proxy, the proxy, or the judge behind it, did not answer).
      const cut: DeadlineCut = a.status !== undefined ? { at: 'body', status: a.status } : a.connecting === true ? { at: 'connecting', step: a.step ?? null } : { at: 'answer' };
      // A retry given up for a rate limit (a spent quota holding it past the time budget), or for its
      // wait passing the budget, says that cause, as an HTTP or network failure does (docs/troubleshooting.md, "Not evaluated").
      if (result.throttled !== undefined || result.budget !== undefined) return `${deadlineText(cut, peer, `${thousands(timeoutMs)} ms`, proxy)}, given up after ${attemptsText(result)}`;
      return `${deadlineText(cut, peer, `${thousands(timeoutMs)} ms`, proxy)}${attempts === 1 ? '' : ` (${attempts} attempts)`}`;
    }
    case 'fatal':
      return a.reason;
    case 'ok':
      return 'ok';
  }
}

export async function postJson(opts: PostOptions): Promise<PostResult> {
  const { onRetry, ...loop } = opts;
  let sent = 0;
  const budgetMs = opts.timeoutMs * (Math.max(0, opts.retries) + 1);
  // A spent quota's reset the limiter holds the starts for: one beyond the time budget fails the 429 that says it at once instead (withRetries).
  const holdable = (spent: Spent | null | undefined): Spent | null => (spent != null && spent.waitMs <= budgetMs ? spent : null);
  const result = await withRetries(
    async (deadline, sending) => {
      // Held past the time budget by a quota another call's answer said is spent, by the pace, or by every slot taken: not sent (withRetries gives up).
      let held: Held | null = null;
      const a = await opts.limiter.run(
        async () => {
          // On the wire from here: the time budget counts from the first attempt's send, not its wait for a slot.
          sending();
          // A retry is counted as sent, once it has its slot: one the run's interruption stops while
          // it waits for one is not a retry made (docs/semantics.md, "Cost").
          if (sent++ > 0) onRetry?.();
          const r = await attempt(opts);
          if (r.kind === 'http') opts.onHttpFailure?.({ status: r.status, body: r.body, reason: `HTTP ${r.status}${r.message ? `: ${r.message}` : ''}` });
          return r;
        },
        (r) =>
          r.kind === 'ok'
            ? r.advertised || r.spent
              ? { outcome: 'success', waitMs: null, advertised: r.advertised ?? null, spent: holdable(r.spent) }
              : 'success'
            : r.kind === 'http' && r.status === 429
              ? r.rateLimited === true
                ? { outcome: 'rate-limited', waitMs: waitOf(r), advertised: r.advertised ?? null, spent: holdable(r.spent) }
                : 'throttled'
              : 'other',
        {
          signal: opts.signal,
          aborted: () => INTERRUPTED,
          deadline,
          held: (hold) => {
            held = hold;
            return INTERRUPTED;
          },
        },
      );
      // An HTTP 200 that carries a passing failure (docs/configuration.md, "Structured output"): retried as a 5xx.
      if (a.kind === 'ok' && opts.failedOk?.(a.json) === true) return { ok: false, failure: a as Attempt, retryable: true, retryAfterMs: null, throttled: false };
      if (a.kind === 'ok') return { ok: true, value: a.json };
      const hold = held as Held | null;
      if (hold !== null) return { ok: false, failure: a, ...heldAttempt(hold) };
      const throttled = a.kind === 'http' && a.status === 429;
      // A spent quota's reset later than the Retry-After is the wait (held against the time budget as one).
      const resetBy = a.kind === 'http' && a.spent != null && a.spent.waitMs > (a.retryAfterMs ?? 0) ? { resetBy: a.spent.header } : {};
      // Said to the retry loop: a spent quota is waited for, its reset due now too; a rate limit's 429 capped is said as one.
      const quota = throttled && a.spent != null ? { quotaSpent: true } : {};
      // With its window, its headers' or else the one an earlier answer named, as the limiter paces
      // over it: a 429 without a wait spends no retry within it (1 s when none was named).
      const windowMs = a.kind === 'http' ? (a.advertised?.windowMs ?? opts.limiter.quotaWindowMs) : null;
      const rateLimited = throttled && a.rateLimited === true ? { rateLimited: true, ...(windowMs === null ? {} : { windowMs }) } : {};
      return { ok: false, failure: a, retryable: retryable(a), retryAfterMs: a.kind === 'http' ? waitOf(a) : null, throttled, ...resetBy, ...quota, ...rateLimited };
    },
    { ...loop, budgetMs, freeThrottles: throttleAllowance(opts.limiter.max) },
  );
  if (result.ok) return { ok: true, json: result.value };
  if (result.failure.kind === 'ok') return result.attempts > 1 ? { ok: true, json: result.failure.json, attempts: result.attempts } : { ok: true, json: result.failure.json };
  const reason = describe(result.failure, result, opts.timeoutMs, opts.proxy ?? null, opts.peer);
  const failure = result.failure;
  if (failure.kind === 'http') return { ok: false, reason, status: failure.status, body: failure.body };
  // An answer began, or came and was not HTTP: the server was reached.
  const reached = failure.kind === 'timeout' ? failure.status !== undefined : failure.reached === true;
  return reached ? { ok: false, reason, reached: true } : { ok: false, reason };
}
