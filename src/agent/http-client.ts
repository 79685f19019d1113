// The HTTP agent client (docs/presets.md): one undici dispatcher per client with keep-alive
// connections, an optional welcome turn, request templates and response paths from the mapping, a
// per-attempt deadline, retries with full-jitter backoff on network errors, 429 and 5xx (honouring
// retry-after-ms, else Retry-After), and every failure resolved as an errored outcome, never thrown.
//
// Retry policy: network errors (the request may never have reached the agent), 429 and 5xx are
// retried up to `config.retries` times. Timeouts are NOT retried: a timed-out turn has already
// cost `timeoutMs` (30 s by default), retrying would multiply a slow agent's cost, and the agent
// may have processed the turn, so a second attempt could advance the session twice. Nor is a 2xx
// answer whose body breaks off (the connection closed mid-stream): the agent had the turn. Other
// 4xx, invalid JSON and a missing reply are deterministic and not retried either.
//
// Every attempt is gated by an adaptive limit (http/limiter.ts): a 429 halves the requests in
// flight, unless it reads as a rate limit (http/retry.ts, rateLimitOf), which paces their starts
// instead, and successes grow them back to `config.concurrency`. A 429 spends no retry: the request waits its Retry-After holding
// no slot and goes again, within timeoutMs x attempts (http/retry.ts).
//
// Messages name the turn, the HTTP status, the path, and a short snippet of the body; they never
// contain header values or the URL (either may carry a token).

import type { EventEmitter } from 'node:events';
import { abortedConnecting, closeDispatcher, request } from '../http/undici.js';
import { cutStep, deadlineText, DIRECT, ProxyConnectError, proxyFault, proxyFaultText, proxyRefusal, unreachedProxy, type Network } from '../http/network.js';
import { answersTheSame, badAnswerText, connectionFailureText, NOT_HTTP, networkAddress, networkCause, networkErrorCode, otherNetworkFailureText } from '../http/error-code.js';
import { redirectTarget } from '../http/redirect.js';
import { NOT_TLS_FIX, notTls, tlsAlert, tlsAlertFix, tlsAlertText, tlsProblem } from '../http/tls.js';
import { CLOSED_FIX, HEADERS_FIX, NOT_HTTP_FIX } from '../agent-fixes.js';
import { protectionOf } from '../http/protection.js';
import { bodyText, decodedBody, UndecodableBody } from '../http/content-encoding.js';
import { basicAuthOf } from '../suite/url-credentials.js';
import { DECODED_MAPPING, type AgentConfig, type AgentMapping, type JsonValue, type ToolCallsFrom } from '../config.js';
import type { AgentClient, AgentOutcome, AgentRequest, AgentSession, Clock, ErrorKind, Route, SentTrace, SessionRequest, SessionTurn, TokenUsage, ToolCall, TurnTiming } from '../types.js';
import { traceContext } from './trace-context.js';
import { askedRetryAfterOf, attemptsText, rateLimitOf, realTimer, systemClock, throttleAllowance, withRetries, type AttemptResult, type Timer } from '../http/retry.js';
import { AdaptiveLimiter, heldAttempt, type Answered, type Outcome, type Pace } from '../http/limiter.js';
import { advertisedPace, spentQuota, type Spent } from '../http/ratelimit-policy.js';
import { TurnAbort } from '../http/turn-abort.js';
import { callsOnly, mapPersonaFields, mapResponse, mapSignals, noReplyAt, readReply, readToolCalls, welcomeReplyMissed } from './response.js';
import { compileTemplate, readPath, type CompiledTemplate } from './template.js';
import type { TemplateValues } from './template.js';
import { decodeBody, type DecodedReply } from './decode.js';
import { decodeEachToolCall, describeShape } from './tool-calls.js';
import { decodeEventStream, decodeNdjson, streamSoFar, watchFirstText, type CutStream, type ReplyPath } from './stream.js';
import { bodyUsage, NO_USAGE, type UsageRead } from './usage.js';
import { plusUsage } from '../evaluate/usage.js';
import { docsUrl } from '../version.js';
import { interruptedBy } from '../interrupt.js';
import { headOf, thousands, turnWords } from '../words.js';

export interface AgentClientDeps {
  /** Used for backoff waits and Retry-After dates; defaults to real time. */
  clock?: Clock;
  /** Jitter source in [0, 1); defaults to Math.random. */
  random?: () => number;
  /** Aborted when the run is interrupted: requests in flight are cancelled, no new one is sent. */
  signal?: AbortSignal;
  /** Told as each retried request is sent (counted in `spend`: docs/semantics.md, "Cost"). */
  onRetry?: () => void;
  /** Told as each request is sent, the first and every retry (counted in `spend`: docs/semantics.md, "Cost"). */
  onRequest?: () => void;
  /** Gates every request; default: an adaptive limit starting at `config.concurrency`. */
  limiter?: AdaptiveLimiter;
  /** Told once per client of a response whose token usage has no known shape (the usage is ignored, the turn is not an error). */
  onWarning?: (message: string) => void;
  /** Random bytes for each turn's `traceparent` (docs/traces.md, "traceparent"); defaults to node:crypto. */
  randomBytes?: (size: number) => Uint8Array;
  /** Told of each attempt's trace context just before it is sent (a span receiver keeps that trace's spans): a turn's retried attempts share its trace id, each with its own span id. */
  onTraceSent?: (trace: SentTrace) => void;
  /** Told of each answered turn: the body as its paths read it and the mapping that reads it (`probe` names where tool calls are). */
  observe?: (answered: { turn: 'welcome' | 'message'; json: unknown; mapping: AgentMapping }) => void;
  /** How the agent is reached: directly (the default) or through the environment's proxy (http/network.ts). */
  network?: Network;
  /** The connect timeout (to the agent, or to its proxy and its answer to CONNECT); default 10 s, or agent.timeoutMs when shorter. */
  connectTimeoutMs?: number;
  /** Starts each attempt's timeoutMs (http/retry.ts, Timer): a real timer when absent. */
  timer?: Timer;
  /** The suite's config file (Suite.configName: config.yml, or config.yaml), named by a stored error's fix; default: config.yml. */
  configName?: string;
}

/** undici's own connect timeout, the most a connection is given to open. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Longest body snippet quoted in an error message. */
export const SNIPPET_LENGTH = 200;
/** Responses larger than this are refused (an agent reply is a chat message, not a download). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

type Turn = 'welcome' | 'message';

/** `mapping` reads `json`: the configured one, or DECODED_MAPPING for a decoded or streamed body. */
type TurnResult = { ok: true; json: unknown; mapping: AgentMapping; usage: UsageRead } | ({ ok: false; errorKind: ErrorKind; error: string } & Unread & Begun);

/** The tool calls a stream cut early had begun, as read (docs/presets.md, "Streamed replies"): a fixture's errored record keeps them. */
type Begun = { begun?: ToolCall[] };

/**
 * A response that held neither a reply nor a tool call, as read anyway: a session turn keeps it
 * beside the error (`withoutReply`), for a turn observer that may find the turn's calls in its
 * spans (docs/traces.md, "Where tool calls come from").
 */
type Unread = { unread?: { json: unknown; mapping: AgentMapping; usage: UsageRead; timing?: TurnTiming } };

/** A posted turn: decoded, with the answered attempt's timing and the tokens it reported (null: none). */
type PostedTurn = ({ ok: true; json: unknown; mapping: AgentMapping; timing: TurnTiming; usage: TokenUsage | null; usageUnread?: true } | ({ ok: false; errorKind: ErrorKind; error: string; address?: string } & Unread & Begun)) & Traced;

/** The trace context the turn's last attempt carried (the answered one, when one answered); null when none was sent (the run was interrupted first) or the user's own `traceparent` is not one we can read. */
type Traced = { trace: SentTrace | null };

/**
 * A 2xx body as received: its media type (lower case, no parameters), text and timing on the
 * client's clock (docs/latency.md): from the request sent to the last byte read, and for an event
 * stream to the first non-empty text delta. Queueing behind the concurrency limit, backoff and
 * decoding are not counted.
 */
interface Received {
  mediaType: string;
  text: string;
  timing: TurnTiming;
  /** The pace the answer's rate limit headers advertise (http/ratelimit-policy.ts): the limiter paces at it. */
  advertised?: Pace | null;
  /** The wait until the agent's quota resets (and the header that said it), when its headers say none remains and it is within the time budget: the limiter holds the starts. */
  spent?: Spent | null;
}

interface AttemptFailure {
  errorKind: ErrorKind;
  /** The agent answered 429: the limiter halves the concurrency, unless `rateLimited`. */
  throttled?: boolean;
  /** The 429 reads as a rate limit over time (rateLimitOf): the limiter leaves the concurrency as it is and paces the starts. */
  rateLimited?: boolean;
  /** The pace the 429's rate limit headers advertise, as Received's. */
  advertised?: Pace | null;
  /** As Received's. */
  spent?: Spent | null;
  /** Builds the message once the number of attempts (and any rate-limit time) is known. */
  describe: (attempts: string) => string;
  /** Where a connection that failed was tried (`127.0.0.1:3000`), from the error, not its message; absent: not known, or not such a failure. */
  address?: string;
  /** The tool calls a stream that broke off (or outlived the deadline) had begun (Begun); absent: none. */
  begun?: ToolCall[];
}

type Attempt = AttemptResult<Received, AttemptFailure>;

/** undici / Node error codes that mean the agent could not be reached or the socket broke. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const INTERNAL_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED']);
/** A connection that was open and closed by the other side before an answer began (undici's 'other side closed', a reset, a broken pipe). */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export function createHttpAgentClient(config: AgentConfig, deps: AgentClientDeps = {}): AgentClient {
  // Parsed once: every request of the run goes to the same URL.
  const url = new URL(checkUrl(config.url));
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  // A user and password in agent.url are sent as basic auth, as curl sends them (undici's request
  // API would drop them silently), unless agent.headers gives its own Authorization
  // (docs/configuration.md, "config.yml").
  const headers = buildHeaders({ ...urlCredentials(url, config.headers), ...config.headers }, config.stream === true ? STREAM_ACCEPT : undefined);
  // Every turn carries a W3C trace context (docs/traces.md, "traceparent"): a fresh one per turn,
  // or the user's own header, sent unchanged.
  const tracing = traceContext(config.headers, deps.randomBytes);
  // The proxy the turns go through (null: none), named when it cannot be reached.
  const route = (deps.network ?? DIRECT).route(url);
  const dispatcher = (deps.network ?? DIRECT).dispatcher(url, {
    connections: Math.max(1, config.concurrency),
    pipelining: 1,
    maxResponseSize: MAX_RESPONSE_BYTES,
    // Connecting is bounded by the turn's deadline too (undici's own 10 s when that is longer): a
    // connection cut at the deadline is not left opening for longer (closing the client waits for it).
    connectTimeout: deps.connectTimeoutMs ?? Math.min(CONNECT_TIMEOUT_MS, config.timeoutMs),
  });
  const limiter = deps.limiter ?? new AdaptiveLimiter(config.concurrency, clock);
  const budgetMs = config.timeoutMs * (Math.max(0, config.retries) + 1);
  /** A spent quota's reset the limiter holds the starts for: one beyond the time budget fails the 429 that says it at once instead (withRetries). */
  const holdable = (spent: Spent | null): Spent | null => (spent !== null && spent.waitMs <= budgetMs ? spent : null);
  let closed = false;
  let usageWarned = false;
  let welcomeWarned = false;
  // The run's interrupt aborts every attempt in flight through one listener, instead of an
  // AbortSignal.any per attempt (weak references and a finalizer each, which outlive the request
  // and were a large part of what a big run promoted to the old generation).
  const inFlight = new Set<TurnAbort>();
  const onInterrupt = (): void => {
    for (const c of inFlight) c.abort(deps.signal?.reason);
  };
  deps.signal?.addEventListener('abort', onInterrupt, { once: true });

  async function attempt(body: string, turn: Turn, mapping: AgentMapping, sent: Record<string, string>): Promise<Attempt> {
    const controller = new TurnAbort();
    if (deps.signal?.aborted) controller.abort(deps.signal.reason);
    inFlight.add(controller);
    let timedOut = false;
    /** The status of a 2xx answer whose body is being read: set, a failure is not retried (the agent had the turn). */
    let answered: number | null = null;
    /** An event stream's text as far as it came: what a stream that broke off or outlived the deadline had sent (cutShort). */
    let streamed: string[] | null = null;
    const stop = (deps.timer ?? realTimer)(config.timeoutMs, () => {
      timedOut = true;
      controller.abort(new Error('agent-replay: turn deadline'));
    });
    try {
      const sentAt = clock.now();
      const response = await request(url, {
        dispatcher,
        method: 'POST',
        headers: sent,
        body,
        // An EventEmitter-shaped handle, which undici's request API accepts as its signal (src/http/turn-abort.ts).
        signal: controller as unknown as EventEmitter,
        headersTimeout: config.timeoutMs,
        bodyTimeout: config.timeoutMs,
      });
      const status = response.statusCode;
      if (status >= 200 && status < 300) {
        answered = status;
        // A stream is read to its end here, under the same deadline and size limit as any body.
        const mediaType = mediaTypeOf(response.headers['content-type']);
        // Compressed (gzip, deflate, br) though not asked to be: decoded, as fetch would.
        const body = decodedBody(response.body, response.headers['content-encoding'], MAX_RESPONSE_BYTES);
        if ('unknown' in body) {
          await response.body.dump().catch(() => undefined);
          const coding = body.unknown;
          return fail('http', false, null, () => `the agent's answer is encoded as "${coding}" (its Content-Encoding), which agent-replay cannot decode: answer uncompressed, or with gzip, deflate or br`);
        }
        let text: string;
        let firstAt: number | null = null;
        if (mediaType === 'text/event-stream') {
          const watch = watchFirstText(eventReplyPath(mapping));
          const decoder = new TextDecoder();
          const parts: string[] = [];
          streamed = parts;
          // When the first plain `data: ping` came: the reply's first token if the stream sends nothing else (stream.ts, watchFirstText).
          let pingAt: number | null = null;
          for await (const chunk of body) {
            const part = decoder.decode(chunk, { stream: true });
            parts.push(part);
            if (firstAt !== null) continue;
            const seen = watch.push(part);
            if (seen === 'text') firstAt = clock.now();
            else if (seen === 'ping') pingAt = clock.now();
          }
          const tail = decoder.decode();
          parts.push(tail);
          text = parts.join('');
          // The last event, when no blank line followed it, and a reply of nothing but `data: ping`.
          const last = firstAt === null ? watch.end(tail) : null;
          if (last !== null) firstAt = last === 'pings' ? (pingAt ?? clock.now()) : clock.now();
        } else {
          text = body === response.body ? await response.body.text() : await bodyText(body);
        }
        const doneAt = clock.now();
        const timing = { latencyMs: Math.max(0, doneAt - sentAt), firstTokenMs: firstAt === null ? null : Math.max(0, firstAt - sentAt) };
        return { ok: true, value: { mediaType, text, timing, advertised: advertisedPace(response.headers), spent: holdable(spentQuota(response.headers, clock.now())) } };
      }
      const retryable = status === 429 || status >= 500;
      const retryAfterMs = retryable ? askedRetryAfterOf(response.headers, clock.now()) : null;
      // Kept whether or not retries are left: the time budget may give up before they are spent
      // (http/retry.ts), and the error quotes it. Quoted as sent: a compressed error page is decoded
      // too (an unknown coding is not quoted).
      const kept = decodedBody(response.body, response.headers['content-encoding'], MAX_RESPONSE_BYTES);
      const text = 'unknown' in kept ? await response.body.dump().then(() => `(a body encoded as "${kept.unknown}")`, () => '') : await bodyText(kept).catch(() => '');
      // A redirect is not followed: a turn's body and headers go only where agent.url says. Where it
      // points is said, so that the fix (that address as agent.url) is in the message.
      const redirect = status >= 300 && status < 400 ? redirectTarget(response.headers.location, url) : null;
      // A preview's access control answering in place of the agent is named, so that its cause says
      // which header lets automation through (docs/troubleshooting.md, "The agent").
      const quoted = snippet(text);
      const protection = protectionOf(status, response.headers, redirect, quoted.startsWith('an HTML page'));
      const notes = `${redirect === null ? '' : ` (redirects to ${redirect})`}${protection === null ? '' : ` (protected by ${protection})`}`;
      const failed = fail('http', retryable, retryAfterMs, (n) => `agent returned HTTP ${status} after ${n}${notes}: ${quoted}`);
      if (status === 429 && !failed.ok) {
        failed.failure.throttled = true;
        failed.failure.rateLimited = rateLimitOf(response.headers, retryAfterMs);
        failed.failure.advertised = advertisedPace(response.headers);
        failed.throttled = true;
        // A spent quota's reset later than the Retry-After is the wait (held against the time budget as one).
        const spent = spentQuota(response.headers, clock.now());
        failed.failure.spent = holdable(spent);
        // Said to the retry loop: a spent quota is waited for, its reset due now too; a rate limit's 429 capped is said as one.
        if (spent !== null) failed.quotaSpent = true;
        if (failed.failure.rateLimited) failed.rateLimited = true;
        // Its window: the one a 429 without a wait spends no retry within, its headers' or else the one an
        // earlier answer named, as the limiter paces over it (1 s when none was named).
        const windowMs = failed.failure.advertised?.windowMs ?? limiter.quotaWindowMs;
        if (failed.failure.rateLimited && windowMs !== null) failed.windowMs = windowMs;
        if (spent !== null && spent.waitMs > (retryAfterMs ?? 0)) {
          failed.retryAfterMs = spent.waitMs;
          failed.resetBy = spent.header;
        }
      }
      return failed;
    } catch (err) {
      const code = networkErrorCode(err);
      // A proxy that never answered CONNECT times out as a request would: it is the proxy's, not the agent's.
      if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code) && !(err instanceof ProxyConnectError))) {
        // An answer begun (a stream still coming) is said apart from no answer: the agent is up, and
        // agent.timeoutMs bounds the whole answer (docs/presets.md, "Retries and timeouts").
        if (answered !== null) {
          const got = answered;
          const cut = cutShort(streamed, mapping);
          return withBegun(fail('timeout', false, null, () => `${deadlineText({ at: 'body', status: got }, 'the agent', `${thousands(config.timeoutMs)} ms`, route)} (agent.timeoutMs bounds the whole answer, a stream to its end${cut.said})`), cut.begun);
        }
        // The deadline came while the connection was still opening: agent.timeoutMs bounds connecting
        // too, and the message says the connection never opened, through the proxy if there is one.
        // Through a proxy, the step the tunnel stalled at is named (docs/configuration.md, "Behind a proxy").
        if (abortedConnecting(err)) {
          const text = deadlineText({ at: 'connecting', step: cutStep(route, err) }, 'the agent', `${thousands(config.timeoutMs)} ms`, route);
          return fail('timeout', false, null, () => `${text} (agent.timeoutMs bounds connecting too)`);
        }
        // Through a proxy, the connection was open: the proxy, or the agent behind it, did not answer.
        return fail('timeout', false, null, () => deadlineText({ at: 'answer' }, 'the agent', `${thousands(config.timeoutMs)} ms`, route));
      }
      if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
        // The limit is fixed: said with what it is, so that no one looks for a setting (docs/troubleshooting.md, "The agent").
        return fail('http', false, null, () => `agent response is larger than ${MAX_RESPONSE_BYTES / (1024 * 1024)} MiB, the most agent-replay reads of one answer (a fixed limit, not a setting)`);
      }
      // A proxy that wants credentials, or refuses those given, refuses them again on every attempt
      // (docs/configuration.md, "Behind a proxy"); a forwarding proxy's 407 comes as an invalid argument.
      if (/^the proxy refused the (?:tunnel \(CONNECT\)|request \(forwarded\)): HTTP 407/.test(errorMessage(err))) {
        return fail('network', false, null, (n) => `could not reach the agent after ${n}: ${errorMessage(err)}`);
      }
      if (code !== undefined && INTERNAL_CODES.has(code)) {
        return fail('internal', false, null, () => `request could not be sent: ${errorMessage(err)}`);
      }
      if (err instanceof UndecodableBody) return fail('http', false, null, () => err.message);
      // The proxy's own failure (its certificate, no answer to CONNECT, a connection it closed) is
      // named as the proxy's, with its fix, not taken for the agent's (docs/configuration.md, "Behind a proxy").
      const fault = route === null || answered !== null ? null : proxyFault(route, err);
      const faultText = route === null || fault === null ? null : proxyFaultText(route, fault);
      if (faultText !== null) {
        const retried = fault?.kind === 'no-answer' || fault?.kind === 'closed';
        return fail('network', retried, null, (n) => `${faultText.what}, after ${n}; ${faultText.fix}`);
      }
      // A certificate Node refuses is refused again on every attempt: not retried, and the fix (a CA
      // in NODE_EXTRA_CA_CERTS, a renewal, the host name) said, never "turn verification off"
      // (docs/troubleshooting.md, "The agent").
      const tls = tlsProblem(code);
      if (tls !== null) return fail('network', false, null, (n) => `the agent's TLS certificate is refused, after ${n}: ${tls.what} (${tls.code}); ${tls.fix}`);
      // A server that answered the TLS handshake with an alert (a client certificate it wants, no
      // TLS version in common): it is there and answers the same on every attempt, so not retried,
      // and said with what to check, never "could not reach" (docs/troubleshooting.md, "The agent").
      const alert = tlsAlert(code);
      if (alert !== null) return fail('network', false, null, (n) => `the agent ${tlsAlertText(alert, n)}; ${tlsAlertFix('agent-url (agent.url)')}`);
      // An https:// URL to a port that speaks plain HTTP: the server is there and answers the same
      // every time, so not retried, and said with the scheme to use, not "is the agent running?".
      const plain = notTls(code);
      if (plain !== null) return fail('network', false, null, (n) => `the agent answered without TLS, after ${n} (${plain}); ${NOT_TLS_FIX}`);
      if (answered !== null && deps.signal?.aborted === true) {
        // The run's interrupt (SIGINT, SIGTERM) cut an answer the agent had begun: said so, never
        // "could not reach", and a stream keeps the calls it had begun as a broken-off one does
        // (docs/presets.md, "Streamed replies").
        const got = answered;
        const by = interruptedBy(deps.signal);
        const cut = cutShort(streamed, mapping);
        return withBegun(fail('internal', false, null, () => `interrupted${by === null ? '' : ` by ${by}`} while the agent's answer (HTTP ${got}) was coming${cut.said === '' ? '' : ` (${cut.said.slice(2)})`}`), cut.begun);
      }
      if (answered !== null) {
        // The agent answered and its body broke off (not cut by the run's interrupt): it had the turn, so another attempt could
        // advance its session twice, as a timed-out one could (docs/presets.md, "Retries and timeouts").
        const got = answered;
        // In our words, not undici's ("other side closed"): a closed connection, else the error's code (src/http/error-code.ts).
        const broke = code !== undefined && CLOSED_CODES.has(code) ? `the connection was closed (${code})` : (otherNetworkFailureText(err) ?? errorMessage(err));
        const cut = cutShort(streamed, mapping);
        return withBegun(fail('network', false, null, (n) => `the agent's answer (HTTP ${got}) broke off before its end, after ${n}: ${broke} (not retried: the agent had the turn${cut.said})`), cut.begun);
      }
      // A connection that failed is said in the words every client uses, with the address it was
      // tried at, which the outcome also keeps as data (src/http/error-code.ts, connectionFailureText).
      const address = networkAddress(err);
      const failed = connectionFailureText(code, address);
      const words = failed ?? errorMessage(err);
      // Through a proxy, a connection that never opened is the proxy's: the agent's address was not
      // tried, so the fix is the proxy variable, not agent.url (docs/configuration.md, "Behind a proxy").
      const proxy = unreachedProxy(route, code);
      if (proxy !== null) {
        return triedAt(fail('network', true, null, (n) => `could not reach the proxy ${proxy.proxy} (${proxy.variable}) after ${n}: ${words}; check ${proxy.variable}, or NO_PROXY for hosts to reach directly`), address);
      }
      // A connection the agent accepted and closed before any answer (a crash on this request, a
      // keep-alive connection it closed, a proxy in front of it) reached it: say so, not "could not
      // reach" (docs/troubleshooting.md, "The agent").
      if (code !== undefined && CLOSED_CODES.has(code)) {
        // Through a tunnel the proxy opened (it answered CONNECT 200), the close may be the agent's or
        // the proxy's passing one on: the message names both (docs/troubleshooting.md, "The agent").
        if (route !== null) {
          return fail('network', true, null, (n) => `the connection to the agent, through the proxy ${route.proxy} (${route.variable}), was closed without an answer, after ${n} (${code})`);
        }
        // Said as the proxy's close is (src/http/network.ts, proxyFaultText), with the address the
        // connection was open to when the error names it (undici's does; Node's `read ECONNRESET`
        // does not), which the outcome also keeps as data.
        const to = address === null ? '' : ` at ${address}`;
        return triedAt(fail('network', true, null, (n) => `the agent${to} closed the connection without answering (${code}), after ${n}; ${CLOSED_FIX}`), address);
      }
      // Something answered at the agent's address, and not in HTTP (another service on its port) or
      // with a body of another length than its header says: reached, so not "could not reach"; in
      // our words, never llhttp's or undici's ("Response does not match the HTTP/1.1 protocol"), with
      // the address, from the error, else agent.url's host and port, kept as data (docs/troubleshooting.md, "The agent").
      // An answer that is not HTTP, or whose headers are over the size read, is not retried: the next
      // attempt gets the same (another service on the port, the same headers).
      const bad = failed === null && route === null ? badAnswerText(err) : null;
      if (bad !== null) {
        const at = address ?? hostAndPort(url);
        const fix = bad === NOT_HTTP ? NOT_HTTP_FIX : answersTheSame(bad) ? HEADERS_FIX : CLOSED_FIX;
        return triedAt(fail('network', !answersTheSame(bad), null, (n) => `the agent at ${at} gave ${bad}, after ${n}; ${fix}`), at);
      }
      // A proxy's refusal in its own words (src/http/network.ts, proxyRefusal); any other code in
      // ours (`a connection error (CODE)`), not Node's or undici's message.
      const other = failed === null ? (refusalOf(err) ?? otherNetworkFailureText(err)) : null;
      return triedAt(fail('network', true, null, (n) => `could not reach the agent after ${n}: ${failed === null ? (other ?? words) : `${failed}; ${unreachedFix(code)}`}`), address);
    } finally {
      stop();
      inFlight.delete(controller);
    }
  }

  /** Each mapping's body template, compiled on its first request: a request renders it without reading it again. */
  const templates = new WeakMap<AgentMapping, CompiledTemplate>();
  function bodyOf(mapping: AgentMapping, values: TemplateValues): string {
    let template = templates.get(mapping);
    if (template === undefined) templates.set(mapping, (template = compileTemplate(mapping.body)));
    return JSON.stringify(template(values) ?? null);
  }

  /** `name` starts error messages: a fixture's "welcome turn", "message turn"; a script's "turn 0 (welcome)", "turn 3". */
  async function postTurn(turn: Turn, mapping: AgentMapping, values: TemplateValues, name = `${turn} turn`): Promise<PostedTurn> {
    const body = bodyOf(mapping, values);
    if (deps.signal?.aborted) return { ok: false, errorKind: 'internal', error: `${name}: not sent, the run was interrupted`, trace: null };
    // One trace per turn: a retried attempt is the same turn, in the same trace, but under a parent
    // span id of its own, so that the spans of the attempt that answered can be told from those of
    // the attempts that failed (docs/traces.md, "Retried requests"). Each attempt's context is told
    // just before it is sent, after any wait for a slot or a backoff: its send time is the waterfall's 0.
    const first = tracing.next();
    // The latest attempt's trace context: the answered attempt's once the retries are over.
    const latest: Traced = { trace: null };
    let attempts = 0;
    const gated = (deadline: number | undefined, sending: () => void): Promise<Attempt> =>
      limiter.run(
        () => {
          // On the wire from here: the time budget counts from the first attempt's send, not its wait for a slot.
          sending();
          const { trace, header } = attempts++ === 0 ? first : tracing.again(first);
          latest.trace = trace;
          if (trace !== null) deps.onTraceSent?.(trace);
          // Counted as sent, once it has its slot: a retry the run's interruption stops while it
          // waits for one is not a retry made (docs/semantics.md, "Cost").
          deps.onRequest?.();
          if (attempts > 1) deps.onRetry?.();
          return attempt(body, turn, mapping, header === null ? headers : { ...headers, traceparent: header });
        },
        outcomeOf,
        {
          signal: deps.signal,
          aborted: () => fail('internal', false, null, () => 'not sent, the run was interrupted'),
          // Held past the time budget by a quota another turn's answer said is spent, by the pace, or by every slot taken: not sent (withRetries gives up).
          deadline,
          held: (hold) => ({ ...fail('http', true, hold.heldMs, () => 'not sent'), ...heldAttempt(hold) }),
        },
      );
    const result = await withRetries(gated, {
      retries: config.retries,
      backoffMs: config.backoffMs,
      clock,
      random,
      signal: deps.signal,
      budgetMs,
      freeThrottles: throttleAllowance(limiter.max),
    });
    const { trace } = latest;
    if (result.ok) {
      // Retries are load, not speed: the timing is the answered attempt's.
      const decoded = decodeReceived(result.value, turn, mapping, name, deps.configName);
      if (!decoded.ok) return decoded.unread === undefined ? { ...decoded, trace } : { ...decoded, unread: { ...decoded.unread, timing: result.value.timing }, trace };
      deps.observe?.({ turn, json: decoded.json, mapping: decoded.mapping });
      // A usage in a shape not read (usageUnread) is told apart from none: beside another turn's tokens, theirs are some turns' alone.
      return { ok: true, json: decoded.json, mapping: decoded.mapping, timing: result.value.timing, usage: usageOfTurn(decoded.usage, name), ...(decoded.usage.kind === 'malformed' ? { usageUnread: true as const } : {}), trace };
    }
    const { address, begun } = result.failure;
    return { ok: false, errorKind: result.failure.errorKind, error: `${name}: ${result.failure.describe(attemptsText(result))}`, trace, ...(address === undefined ? {} : { address }), ...(begun === undefined ? {} : { begun }) };
  }

  /**
   * A welcome answer with fields but nothing at the reply path config.yml sets for it: read as a
   * welcome with no greeting, as a silent one is, and said once for the whole client, since the path
   * is most likely mistyped (docs/presets.md, "Any JSON API"). `name` is the turn as its caller's errors
   * name it (a fixture's "welcome turn", a script's "turn 0 (welcome)"), as the once-told usage warning's is.
   */
  function checkWelcomeReply(json: unknown, mapping: AgentMapping, name: string): void {
    if (welcomeWarned) return;
    const missed = welcomeReplyMissed(json, mapping);
    if (missed === null) return;
    welcomeWarned = true;
    deps.onWarning?.(
      `${name}: ${missed}. The welcome is read as having no greeting; correct the path, or have the agent answer null or "" there when it greets no one ` +
        `(${docsUrl('presets.md', 'Any JSON API: templates and paths')}). Told once per run.`,
    );
  }

  /** A turn's tokens; a malformed usage is ignored, with one warning for the whole client. */
  function usageOfTurn(read: UsageRead, name: string): TokenUsage | null {
    if (read.kind === 'usage') return read.usage;
    if (read.kind === 'malformed' && !usageWarned) {
      usageWarned = true;
      deps.onWarning?.(
        `${name}: the agent's response reports token usage in a shape agent-replay does not read (found ${read.found}); ` +
          'its tokens are not counted and the turn is not an error. Send {inputTokens, outputTokens} or a vendor\'s own usage ' +
          `(${docsUrl('latency.md', 'Usage: tokens reported')}). Told once per run.`,
      );
    }
    return null;
  }

  async function converse(req: AgentRequest): Promise<AgentOutcome> {
    if (closed) return errored('internal', 'agent client is closed');
    try {
      const values: TemplateValues = { ...presetValues(config), session: req.session, message: req.message, persona: req.persona, model: config.model };
      let turns = 0;
      let opened: { route: Route | null; offTrack: unknown[] } | null = null;
      let welcomeLatencyMs: number | null = null;
      let welcomeUsage: TokenUsage | null = null;
      let welcomeUnread = false;
      if (config.start !== null) {
        const welcome = await postTurn('welcome', config.start, values);
        if (!welcome.ok) {
          const outcome = errored(welcome.errorKind, welcome.error, 0, null, welcome.address);
          // A welcome stream cut early: the calls it had begun, as received, as a message turn's are (AgentOutcome.toolCalls).
          return welcome.begun === undefined || outcome.kind !== 'errored' ? outcome : { ...outcome, toolCalls: welcome.begun };
        }
        turns++;
        req.onAnswered?.();
        checkWelcomeReply(welcome.json, welcome.mapping, 'welcome turn');
        const signals = mapSignals(welcome.json, welcome.mapping);
        if (signals.ended) {
          return errored('ended_in_welcome', 'conversation ended during the welcome turn; there is no reply', turns, welcome.usage);
        }
        opened = { route: signals.route, offTrack: signals.offTrack };
        welcomeLatencyMs = welcome.timing.latencyMs;
        welcomeUsage = welcome.usage;
        welcomeUnread = welcome.usageUnread === true;
      }
      const message = await postTurn('message', config.mapping, values);
      if (message.ok || message.unread !== undefined) req.onAnswered?.();
      // A response read but holding no reply was still answered (AgentOutcome.answered).
      // An errored fixture keeps the tokens its answered turns reported (docs/latency.md, "Usage").
      if (!message.ok) {
        const unread = message.unread === undefined ? null : usageOfTurn(message.unread.usage, 'message turn');
        const outcome = errored(message.errorKind, message.error, message.unread !== undefined ? turns + 1 : turns, plusUsage(welcomeUsage, unread), message.address);
        // A stream cut early: the calls it had begun, as received (AgentOutcome.toolCalls).
        return message.begun === undefined || outcome.kind !== 'errored' ? outcome : { ...outcome, toolCalls: message.begun };
      }
      turns++;
      const mapped = mapResponse(message.json, message.mapping);
      if (!mapped.ok) return errored('missing_reply', `message turn: ${mapped.error}`, turns, plusUsage(welcomeUsage, message.usage));
      // The message turn's tool calls, for a fixture's tool assertions (docs/traces.md, "Fixtures"): a
      // value of no known shape leaves them unread, said, and is not an error for the fixture.
      const calls = readToolCalls(message.json, message.mapping);
      return {
        kind: 'replied',
        ...mapped.turn,
        turns,
        ...(calls.ok ? { toolCalls: calls.value } : { toolCalls: null, toolCallsProblem: `the agent's tool calls could not be read: ${calls.error}` }),
        // A fixture's trace id is its message turn's (docs/traces.md, "traceparent").
        ...(message.trace === null ? {} : { traceId: message.trace.traceId, trace: message.trace }),
        ...(opened === null ? {} : { welcome: opened }),
        timing: message.timing,
        ...(welcomeLatencyMs === null ? {} : { welcomeLatencyMs }),
        // Only when reported: an outcome without tokens keeps its shape (the record says null).
        ...usageOrNothing(plusUsage(welcomeUsage, message.usage)),
        // The message turn's own, for a span reader (agent/observe.ts): only when the welcome turn's are beside them.
        ...(welcomeUsage !== null ? { messageUsage: message.usage } : {}),
        // The welcome turn's tokens unread beside the message turn's: `usage` is the message turn's
        // alone, left out of the change against the baselines as the opposite case is (docs/latency.md, "Usage").
        ...(welcomeUnread && message.usage !== null ? { welcomeUsageUnread: true as const } : {}),
      };
    } catch (err) {
      return errored('internal', `agent client failed: ${errorMessage(err)}`);
    }
  }

  /**
   * A persona script's session (docs/personas.md): the same session id, persona and mocks on every
   * turn, the welcome turn included. Each turn resolves as replied or errored, never throws.
   */
  function session(req: SessionRequest): AgentSession {
    const base = { ...presetValues(config), session: req.session, persona: req.persona, model: config.model, mocks: req.mocks as unknown as JsonValue };
    /** What `{{messages}}` sends: every message and reply so far (a welcome reply as the assistant's first). */
    const history: { role: 'user' | 'assistant'; content: string }[] = [];
    const turn = async (mapping: AgentMapping, kind: Turn, message: string, name: string): Promise<SessionTurn> => {
      if (closed) return { kind: 'errored', errorKind: 'internal', error: 'agent client is closed' };
      try {
        const asked = kind === 'welcome' ? [] : [{ role: 'user' as const, content: message }];
        const posted = await postTurn(kind, mapping, { ...base, message, messages: [...history, ...asked] }, name);
        if (posted.ok || posted.unread !== undefined) req.onAnswered?.();
        const traced = posted.trace === null ? {} : { trace: posted.trace };
        if (!posted.ok) {
          const unread = posted.unread;
          // A response read but holding no reply was still answered.
          // Its tokens are spent all the same (docs/latency.md, "Usage").
          const spent = unread === undefined ? null : usageOfTurn(unread.usage, name);
          // A stream cut short: the calls it had begun, as received (SessionTurn.toolCalls).
          const begun = posted.begun === undefined ? {} : { toolCalls: posted.begun };
          const failed: SessionTurn = { kind: 'errored', errorKind: posted.errorKind, error: posted.error, ...traced, ...(unread !== undefined ? { answered: true as const } : {}), ...usageOrNothing(spent), ...(posted.address === undefined ? {} : { address: posted.address }), ...begun };
          if (unread === undefined || unread.timing === undefined) return failed;
          const read = sessionTurn(unread.json, unread.mapping, kind, name);
          const withoutReply = read.kind === 'replied' ? read : read.withoutReply;
          if (withoutReply === undefined) return failed;
          return { ...failed, withoutReply: { ...withoutReply, reply: '', timing: unread.timing, ...usageOrNothing(spent), ...traced } };
        }
        if (kind === 'welcome') checkWelcomeReply(posted.json, posted.mapping, name);
        const answered = sessionTurn(posted.json, posted.mapping, kind, name);
        if (answered.kind !== 'replied') {
          if (answered.withoutReply === undefined) return { ...answered, ...traced, answered: true, ...usageOrNothing(posted.usage) };
          return { ...answered, ...traced, answered: true, ...usageOrNothing(posted.usage), withoutReply: { ...answered.withoutReply, timing: posted.timing, ...usageOrNothing(posted.usage), ...traced } };
        }
        // A reply of no text (only tool calls, or a silent welcome) adds no assistant message: the
        // calls are not replayed, and an empty one is refused by Anthropic's API ("all messages
        // must have non-empty content") (docs/presets.md, "Conversation history").
        history.push(...asked, ...(answered.reply === '' ? [] : [{ role: 'assistant' as const, content: answered.reply }]));
        // A usage in a shape not read is told apart from none (Turn.usageUnread): a welcome turn's, beside read ones, leaves the script's tokens partial.
        return { ...answered, timing: posted.timing, ...usageOrNothing(posted.usage), ...(posted.usageUnread === true ? { usageUnread: true as const } : {}), ...traced };
      } catch (err) {
        return { kind: 'errored', errorKind: 'internal', error: `agent client failed: ${errorMessage(err)}` };
      }
    };
    return {
      // The welcome turn has no user message: {{message}} is '' in its template. A script's errors name
      // its turns as every surface does (turnWords): "turn 0 (welcome): ...", "turn 3: ..." (a fixture's
      // two are its "welcome turn" and "message turn").
      welcome: async () => (config.start === null ? null : turn(config.start, 'welcome', '', turnWords(0))),
      send: async (message, n) => turn(config.mapping, 'message', message, turnWords(n)),
    };
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    deps.signal?.removeEventListener('abort', onInterrupt);
    // A request cut while its connection was still opening is not waited for (src/http/undici.ts).
    await closeDispatcher(dispatcher);
  }

  return { converse, session, close };
}

function usageOrNothing(usage: TokenUsage | null): { usage?: TokenUsage } {
  return usage === null ? {} : { usage };
}

/** What a streamed reply is asked for with (`agent.stream: true`, the vercel-ai preset). */
const STREAM_ACCEPT = 'text/event-stream';

/** The preset settings a template can refer to; an unset one is left out of the values. */
function presetValues(config: AgentConfig): Pick<TemplateValues, 'maxTokens' | 'assistantId'> {
  const out: Pick<TemplateValues, 'maxTokens' | 'assistantId'> = {};
  if (config.maxTokens !== undefined) out.maxTokens = config.maxTokens;
  if (config.assistantId !== undefined) out.assistantId = config.assistantId;
  return out;
}

function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * A 2xx body into JSON and the mapping that reads it: an event stream is decoded whatever the
 * mapping (DECODED_MAPPING reads it), NDJSON concatenates the reply path over its lines (the other
 * paths read the last line), JSON is parsed and, for a preset that decodes (mapping.decode),
 * decoded. Every failure names the turn and is not retried; a fix names `file`, the suite's config file.
 */
function decodeReceived(received: Received, turn: Turn, mapping: AgentMapping, name: string, file?: string): TurnResult {
  const { mediaType, text } = received;
  const failed = (errorKind: ErrorKind, error: string): TurnResult => ({ ok: false, errorKind, error: `${name}: ${error}` });
  if (mediaType === 'text/event-stream') {
    const decoded = decodeEventStream(text, eventReplyPath(mapping), toolCallsPath(mapping), file);
    // Events of the agent's own JSON, read by config.yml's reply path: as an NDJSON answer's lines.
    if ('byPath' in decoded) return { ok: true, json: decoded.byPath, mapping: onLastLine(mapping, 'event', decoded.toolCallsFrom), usage: bodyUsage(decoded.byPath.last) };
    if (!decoded.ok) {
      // A stream that ended as its format ends but held nothing to read was answered without a reply,
      // as a whole body can be: kept as read (its usage, and for a span reader the turn as calls-only).
      if ('cut' in decoded) return { ...failed('http', decoded.error), ...begunOf(decoded.cut) };
      if (decoded.read === undefined) return failed('http', decoded.error);
      // A welcome turn may legitimately say nothing, as a welcome whose body holds no reply.
      if (turn === 'welcome') return asRead(decoded.read, DECODED_MAPPING);
      // A stream of no events (only keep-alives) was read by no format: config.yml's reply path is not in question.
      const hint = 'noEvents' in decoded ? '' : streamIgnoresReplyPath(mapping);
      return { ok: false, errorKind: 'missing_reply', error: `${name}: ${decoded.error}${hint}`, unread: readWithoutReply(decoded.read, DECODED_MAPPING) };
    }
    return asRead(decoded.value, DECODED_MAPPING);
  }
  if (mediaType === 'application/x-ndjson' || mediaType === 'application/jsonl' || mediaType === 'application/jsonlines') {
    const decoded = decodeNdjson(text, (line) => readPath(line, mapping.reply), toolCallsPath(mapping));
    if (!decoded.ok) return failed('invalid_json', decoded.error);
    return { ok: true, json: { reply: decoded.reply, last: decoded.last, toolCalls: decoded.toolCalls, ...(decoded.textAt === undefined ? {} : { textAt: decoded.textAt }) }, mapping: onLastLine(mapping, 'line', decoded.toolCallsFrom), usage: bodyUsage(decoded.last) };
  }
  // A welcome turn may legitimately answer with no body (e.g. 204): nothing to check.
  if (turn === 'welcome' && text.trim() === '') return { ok: true, json: {}, mapping, usage: NO_USAGE };
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    return failed('invalid_json', `response is not valid JSON: ${snippet(text)}`);
  }
  if (mapping.decode === undefined) return { ok: true, json, mapping, usage: bodyUsage(json) };
  const decoded = decodeBody(mapping.decode, json);
  if (!decoded.ok) return failed('missing_reply', decoded.error);
  // Never a silent "": an answer with no text and no tool call names what it held (docs/presets.md, "Presets").
  if (decoded.value.reply === undefined && turn === 'message') {
    const why = decoded.value.why ?? `no reply text and no tool call could be read from the response (${describeShape(json)})`;
    return { ok: false, errorKind: 'missing_reply', error: `${name}: ${why}`, unread: readWithoutReply(decoded.value, { ...mapping, decode: undefined }) };
  }
  return asRead(decoded.value, { ...mapping, decode: undefined });
}

/**
 * The reply path config.yml gives (`agent.response.reply`, or the welcome's own), read on each event
 * of a stream of no known format (docs/presets.md, "Streamed replies"); undefined: the path is the
 * preset's, and such events are skipped.
 */
function eventReplyPath(mapping: AgentMapping): ReplyPath | undefined {
  if (mapping.ownReply !== true) return undefined;
  const path = mapping.reply;
  return (event) => readPath(event, path);
}

/**
 * The tool-call path (`agent.response.toolCalls`, or the preset's), read on each line of an NDJSON
 * answer and each event of a stream of the agent's own JSON, the calls joined (docs/presets.md,
 * "Streamed replies"); undefined: the mapping reads no tool calls.
 */
function toolCallsPath(mapping: AgentMapping): ReplyPath | undefined {
  const path = mapping.toolCalls;
  if (path === null) return undefined;
  return (event) => readPath(event, path);
}

/**
 * For a stream of a known format with no reply: config.yml's `agent.response.reply`, when it sets
 * one, is not what failed, since such a stream is read by its format (docs/presets.md, "Streamed
 * replies"); said with its line, so that the path is not taken for the cause.
 */
function streamIgnoresReplyPath(mapping: AgentMapping): string {
  return mapping.replyAt === undefined ? '' : `; agent.response.reply, set at ${mapping.replyAt.at}, is read only on events of no known format, and this stream is read by its format`;
}

/** The calls a stream cut early had begun, read as a whole stream's are; one the reader refuses is left out, the error naming it (stream.ts, begunCalls). */
function begunOf(cut: CutStream): Begun {
  const read = decodeEachToolCall(cut.toolCalls);
  return read.value.length > 0 ? { begun: read.value } : {};
}

/** A decoded body as its paths read it: the value, the mapping that reads it, and its tokens. */
function asRead(value: DecodedReply, mapping: AgentMapping): TurnResult {
  return { ok: true, json: value, mapping: readDecoded(mapping, value), usage: value.usage ?? NO_USAGE };
}

/** A decoded body that held no reply, kept as read with the reply '' (a calls-only turn for a span reader). */
function readWithoutReply(value: DecodedReply, mapping: AgentMapping): NonNullable<Unread['unread']> {
  return { json: { ...value, reply: '' }, mapping: readDecoded(mapping, value), usage: value.usage ?? NO_USAGE };
}

/** A decoded body whose format does not report tool calls: its calls are "not reported", not "none". */
function readDecoded(mapping: AgentMapping, value: DecodedReply): AgentMapping {
  if (value.toolCalls === null) return { ...mapping, toolCalls: null };
  // An error names a call by where the vendor sent it, never by its place in the decoded list (response.ts, toolCallsAt).
  return value.toolCallItems === undefined ? mapping : { ...mapping, toolCallItems: value.toolCallItems };
}

/** The mapping for `{reply, last, toolCalls}`: the joined reply and tool calls, every other path read on the last line (or stream event). */
function onLastLine(mapping: AgentMapping, unit: 'line' | 'event', toolCallsFrom: ToolCallsFrom): AgentMapping {
  const on = (path: string | null): string | null => (path === null ? null : path === '' ? 'last' : `last.${path}`);
  return {
    ...mapping,
    decode: undefined,
    reply: 'reply',
    replyPerLine: mapping.reply,
    ...(unit === 'event' ? { replyPerEvent: true as const } : {}),
    conversation: on(mapping.conversation),
    stage: on(mapping.stage),
    ended: on(mapping.ended),
    offTrack: on(mapping.offTrack),
    // Read on every line or event and joined (stream.ts, JoinedCalls): a call may come in pieces.
    // An error names a call by the path as configured and the line or event it came in, never by its place in the joined list.
    toolCalls: mapping.toolCalls === null ? null : 'toolCalls',
    ...(mapping.toolCalls === null ? {} : { toolCallsPerLine: { path: mapping.toolCalls, from: toolCallsFrom } }),
    outcome: on(mapping.outcome),
    errors: on(mapping.errors),
    // The refusal is a sibling of the reply (openai-chat): read on the last line, as the other paths are.
    ...(mapping.refusal === undefined ? {} : { refusal: on(mapping.refusal)! }),
  };
}

/**
 * One session turn mapped: reply, route, signals and the persona fields. A welcome turn may have no
 * reply (''); a message turn whose reply is null but that reports tool calls (an OpenAI assistant
 * message that only calls tools has content null) has the reply ''.
 */
function sessionTurn(json: unknown, mapping: AgentMapping, kind: Turn, name: string): SessionTurn {
  const fields = mapPersonaFields(json, mapping);
  if (!fields.ok) return { kind: 'errored', errorKind: 'invalid_response', error: `${name}: ${fields.error}` };
  const signals = mapSignals(json, mapping);
  const raw = readReply(json, mapping);
  let reply: string;
  if (typeof raw === 'string') reply = raw;
  else if (kind === 'welcome' || ((raw === null || raw === undefined) && callsOnly(json, mapping))) reply = '';
  else {
    const error = `${name}: ${noReplyAt(json, mapping.reply, raw, mapping)}`;
    // No reply and no call in the body: the calls may be in the turn's spans (docs/traces.md).
    const withoutReply = raw === null || raw === undefined ? { withoutReply: { kind: 'replied' as const, reply: '', ...signals, ...fields.fields } } : {};
    return { kind: 'errored', errorKind: 'missing_reply', error, ...withoutReply };
  }
  return { kind: 'replied', reply, ...signals, ...fields.fields };
}

/** How the limiter reads an attempt: success, a 429 of either kind, or neither (a timeout, a 500, a network error). */
function outcomeOf(a: Attempt): Outcome | Answered {
  if (a.ok) return a.value.advertised || a.value.spent != null ? { outcome: 'success', waitMs: null, advertised: a.value.advertised ?? null, spent: a.value.spent ?? null } : 'success';
  if (a.failure.throttled !== true) return 'other';
  const advertised = a.failure.advertised ?? null;
  // A spent quota is said by rate limit headers, which make the 429 a rate limit's (rateLimitOf).
  const spent = a.failure.spent ?? null;
  return a.failure.rateLimited === true ? { outcome: 'rate-limited', waitMs: a.retryAfterMs, advertised, spent } : 'throttled';
}

function fail(
  errorKind: ErrorKind,
  retryable: boolean,
  retryAfterMs: number | null,
  describe: (attempts: string) => string,
): Attempt {
  return { ok: false, failure: { errorKind, describe }, retryable, retryAfterMs };
}

/**
 * What an event stream cut short (its body broke off, or the deadline came while it was still
 * coming) had sent, for its error ("; anthropic stream, 9 characters received, 2 tool calls begun:
 * track_order, refund") and its record (the calls begun), as a stream that ended early says them
 * (docs/presets.md, "Streamed replies"); a stream of the agent's own JSON is read by the mapping's
 * paths, as a whole one is; nothing for another body, or a stream of plain text (it has no tool calls).
 */
function cutShort(streamed: string[] | null, mapping: AgentMapping): { said: string; begun?: ToolCall[] } {
  const soFar = streamed === null ? null : streamSoFar(streamed.join(''), eventReplyPath(mapping), toolCallsPath(mapping), mapping.toolCalls ?? undefined);
  if (soFar === null) return { said: '' };
  return { said: `; ${soFar.said}`, ...begunOf(soFar.cut) };
}

/** A failed attempt that keeps the tool calls its stream had begun (none: as it is). */
function withBegun(attempt: Attempt, begun: ToolCall[] | undefined): Attempt {
  if (!attempt.ok && begun !== undefined) attempt.failure.begun = begun;
  return attempt;
}

/** A failed attempt that keeps where its connection was tried (null: not known). */
function triedAt(attempt: Attempt, address: string | null): Attempt {
  if (!attempt.ok && address !== null) attempt.failure.address = address;
  return attempt;
}

/** A URL's host and port, the default port said (`127.0.0.1:3000`, `[::1]:443`, `agent.test:80`). */
function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port}`;
}

/** What to do about an agent that could not be reached, by the error's code (docs/troubleshooting.md, "The agent"). */
function unreachedFix(code: string | undefined): string {
  if (code === 'ECONNREFUSED') return 'nothing listens there: check agent-url (agent.url) and that the agent is running';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'check the host name in agent-url (agent.url)';
  return 'check agent-url (agent.url) and that the agent is running';
}

function errored(errorKind: ErrorKind, error: string, answered = 0, usage: TokenUsage | null = null, address?: string): AgentOutcome {
  return { kind: 'errored', errorKind, error, ...(answered > 0 ? { answered } : {}), ...usageOrNothing(usage), ...(address === undefined ? {} : { address }) };
}

function checkUrl(value: string | null): string {
  if (value === null || value.trim() === '') throw new Error('agent url is not configured (agent.url, --agent-url or the agent-url input)');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error('agent url is not a valid absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`agent url must use http or https, not ${parsed.protocol}`);
  return value;
}

/** `authorization: Basic ...` from the URL's user and password; none when it has neither or `headers` names Authorization. */
function urlCredentials(url: URL, headers: Record<string, string>): Record<string, string> {
  const basic = basicAuthOf(url);
  if (basic === null || Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return {};
  return { authorization: `Basic ${basic}` };
}

/** JSON content type and accept, then the configured headers (which win, case-insensitively). */
export function buildHeaders(configured: Record<string, string>, accept = 'application/json'): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': 'application/json',
    accept,
    'user-agent': 'agent-replay',
  };
  for (const [name, value] of Object.entries(configured)) {
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
    out[name] = value;
  }
  return out;
}

/** The body, whitespace collapsed, at most SNIPPET_LENGTH characters. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  // A web page (a host's 404 page, an SPA's index.html) says what it is by its title; its markup
  // would only repeat the same noise under every item.
  if (/^(?:<!--[\s\S]*?-->\s*)*<(?:!doctype html|html[\s>])/i.test(flat)) {
    const clip = (t: string): string => (t.length <= 80 ? t : `${headOf(t, 79)}…`);
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(flat)?.[1]?.trim() ?? '';
    if (title !== '') return `an HTML page titled "${clip(title)}"`;
    const visible = flat.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    return visible === '' ? 'an HTML page with no text' : `an HTML page reading "${clip(visible)}"`;
  }
  return flat.length <= SNIPPET_LENGTH ? flat : `${headOf(flat, SNIPPET_LENGTH - 1)}…`;
}

/** A proxy's refusal in its words (http/network.ts, proxyRefusal), from the error, or the one an empty AggregateError's code came from; null: none. */
function refusalOf(err: unknown): string | null {
  const cause = err instanceof AggregateError && err.message === '' ? networkCause(err) : null;
  if (cause !== null && cause.error !== err) return refusalOf(cause.error);
  return err instanceof Error ? proxyRefusal(err.message) : null;
}

function errorMessage(err: unknown): string {
  // An AggregateError (a host with two addresses) says nothing itself: the error its code came from does (http/error-code.ts).
  const cause = err instanceof AggregateError && err.message === '' ? networkCause(err) : null;
  if (cause !== null && cause.error !== err) return errorMessage(cause.error);
  if (err instanceof Error) {
    const refused = refusalOf(err);
    if (refused !== null) return refused;
    const code = networkErrorCode(err);
    const message = err.message || err.name;
    return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
  }
  return String(err);
}

