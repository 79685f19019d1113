// Query clients for trace stores (docs/traces.md, "Query: a trace store"): after a turn, its trace is
// fetched by id from Tempo (`/api/v2/traces/<id>`, or `/api/traces/<id>` on a Tempo without the v2
// API: its `{batches}` form), Jaeger (`/api/v3/traces/<id>`, OTLP JSON under `result`) or Langfuse
// (`/api/public/v2/observations?traceId=<id>`, page by page, or `/api/public/traces/<id>` on a Langfuse
// without the v2 API; basic auth from `public:secret`). Stores take a moment to index what
// they receive: a 404, a 429 or a 5xx is asked again until `waitMs`, as is an answer that does not
// yet hold the span under the span id the answered attempt sent (the turn's top span, which ends
// last; a failed attempt's top span is not it: docs/traces.md, "Retried requests"). The key goes in a
// header and never into a message; errors name the URL (without user or password) and the status.
// Tempo's answers as its source writes them (docs/traces.md, "Query: Tempo"): v2 answers a trace
// not yet indexed with 200 and an empty trace, and a truncated one with `status: "PARTIAL"`; an
// unknown route is its router's `404 page not found` (a gateway's: an HTML page).

import { parseRetryAfter, type Timer } from '../http/retry.js';
import { serverNow } from '../http/http-date.js';
import { cutStep, deadlineText, DIRECT, lastingFault, proxyFault, proxyFaultText, proxyRefusal, unreachedProxy, type Network } from '../http/network.js';
import { NOT_TLS_FIX, notTls, tlsAlert, tlsAlertFix, tlsAlertText, tlsProblem } from '../http/tls.js';
import { connectionFailureText, networkAddress, networkErrorCode, networkErrorText, otherNetworkFailureText } from '../http/error-code.js';
import { abortedConnecting, closeDispatcher, request } from '../http/undici.js';
import type { Span, SpanSource, TracesConfig, TurnSpans } from '../types.js';
import { spansOfLangfuse, spansOfLangfusePage } from './langfuse.js';
import { spansOfOtlp } from './otlp.js';
import { decodedBody, UndecodableBody } from '../http/content-encoding.js';
import { TraceStoreError } from './store-error.js';
import { headOf, thousands } from '../words.js';

/** The clock of the polling, injected so that tests wait for nothing. */
export interface PollClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realPollClock: PollClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** The pause before asking again: short at first (stores index within a second or two), then at most 1 s. */
export const POLL_DELAYS_MS = [100, 200, 400, 800, 1000] as const;
/** A trace's answer larger than this is refused (a turn's trace is far smaller). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Langfuse v2 observations asked per page (its most), and the most pages one turn's trace may take. */
const LANGFUSE_PAGE = 1000;
const LANGFUSE_MAX_PAGES = 10;
/** One request's time limit (each poll also stops at waitMs), and undici's own connect timeout. */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a request may run past the turn's `waitMs` before it is cut off. */
const REQUEST_GRACE_MS = 1000;

export type StoreQuery = NonNullable<TracesConfig['query']>;

export interface QuerySourceOptions extends StoreQuery {
  waitMs: number;
  clock?: PollClock;
  /** How the store is reached: directly (the default) or through the environment's proxy (http/network.ts). */
  network?: Network;
  /** The connect timeout (to the store, or to its proxy); default 10 s, or waitMs and its second when shorter. */
  connectTimeoutMs?: number;
  /** How long a request may run past waitMs before it is cut off; default 1 s (tests give a short one). */
  graceMs?: number;
  /** undici's wait for an answer, and between the bytes of its body; default 10 s (tests give a short one). */
  requestTimeoutMs?: number;
  /** Starts each collect's cut-off (waitMs and its grace): a real timer by default; a test fires it once its server (or proxy) holds the request (http/retry.ts, Timer). */
  timer?: Timer;
}

/** The cut-off on the real clock; unref'd, so that it keeps no process alive. */
const realCutOff: Timer = (ms, cut) => {
  const t = setTimeout(cut, ms);
  t.unref?.();
  return () => clearTimeout(t);
};

export { TraceStoreError };

/**
 * `cursor`: Langfuse v2's next page (null: the last page; absent for the other APIs).
 * `retryAfterMs`: the wait a 429 or 503 asked for (Retry-After), 0 without one.
 */
type Answer = { kind: 'spans'; spans: Span[]; cursor?: string | null } | { kind: 'not found' } | { kind: 'failed'; why: string; retryAfterMs: number } | { kind: 'missing route' } | { kind: 'cut'; why: string };

/** The codes of a connection closed under a request (undici's, and Node's reset and broken pipe). */
const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** How far a request had got when a deadline cut it: its connection still opening, waiting for the answer, or reading its body (with the answer's status). */
type Stage = { at: 'connecting' } | { at: 'answer' } | { at: 'body'; status: number };

export function createQuerySource(opts: QuerySourceOptions): SpanSource {
  const clock = opts.clock ?? realPollClock;
  const headers = headersOf(opts);
  const base = opts.url.replace(/\/+$/, '');
  // Connecting is bounded by the wait too (undici's own 10 s when that is longer), as the agent's
  // client bounds it by agent.timeoutMs: a store whose address takes no connection (or no TLS
  // handshake) is not left opening once its request is cut off, and closing the client, at the
  // run's end, waits for nothing longer (docs/traces.md, "Query: a trace store").
  const graceMs = opts.graceMs ?? REQUEST_GRACE_MS;
  const connectTimeout = opts.connectTimeoutMs ?? Math.min(REQUEST_TIMEOUT_MS, opts.waitMs + graceMs);
  const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const dispatcher = (opts.network ?? DIRECT).dispatcher(base, { connections: 8, headersTimeout: requestTimeout, bodyTimeout: requestTimeout, connectTimeout });
  // The proxy the queries go through (null: none), named when it cannot be reached, as the agent's client names it.
  const route = (opts.network ?? DIRECT).route(base);
  // Tempo and Langfuse: the v2 API first; one without it is asked the v1 way from then on (Tempo's
  // router answers "404 page not found"; a Langfuse before v4 answers 404, or 501 on some v3).
  let v1 = false;

  const pathOf = (traceId: string, cursor: string | null): string => {
    if (opts.kind === 'jaeger') return `/api/v3/traces/${traceId}`;
    if (opts.kind === 'langfuse') {
      if (v1) return `/api/public/traces/${traceId}`;
      // Every group of fields the spans are read from; input and output whole (not clipped at 200 characters).
      return `/api/public/v2/observations?traceId=${traceId}&fields=core,basic,io,metadata,model,usage&limit=${String(LANGFUSE_PAGE)}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    }
    return v1 ? `/api/traces/${traceId}` : `/api/v2/traces/${traceId}`;
  };

  /** Langfuse v2: every page of the trace's observations, as one answer. */
  const askPages = async (traceId: string, signal: AbortSignal | undefined): Promise<Answer> => {
    const spans: Span[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < LANGFUSE_MAX_PAGES; page++) {
      const answer = await ask(traceId, signal, cursor);
      if (answer.kind !== 'spans') return answer;
      // One at a time: a store that ignores the page's limit may send more than push(...) takes arguments.
      for (const span of answer.spans) spans.push(span);
      if (answer.cursor == null) return { kind: 'spans', spans };
      cursor = answer.cursor;
    }
    throw new TraceStoreError(`langfuse has more than ${String(LANGFUSE_PAGE * LANGFUSE_MAX_PAGES)} observations for trace ${traceId}: not one turn's trace`);
  };

  const ask = async (traceId: string, signal: AbortSignal | undefined, cursor: string | null = null): Promise<Answer> => {
    const url = `${base}${pathOf(traceId, cursor)}`;
    const shown = shownUrl(url);
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    /** The answer's Date, which a Retry-After date is read against (http-date.ts, serverNow). */
    let date: string | string[] | undefined;
    let stage: Stage = { at: 'answer' };
    try {
      const res = await request(url, { method: 'GET', headers, dispatcher, signal: signal ?? null });
      status = res.statusCode;
      stage = { at: 'body', status };
      retryAfter = res.headers['retry-after'];
      date = res.headers.date;
      // Compressed though not asked to be (a proxy in front of the store): decoded as the agent's
      // answers are (docs/traces.md, "Query"), readText holding the size limit on the decoded bytes.
      const decoded = decodedBody(res.body, res.headers['content-encoding'], Number.MAX_SAFE_INTEGER, `${opts.kind}'s answer to GET ${shown}`);
      if ('unknown' in decoded) {
        await res.body.dump().catch(() => undefined);
        throw new TraceStoreError(`${opts.kind}'s answer to GET ${shown} is encoded as "${decoded.unknown}" (its Content-Encoding), which agent-replay cannot decode: answer uncompressed, or with gzip, deflate or br`);
      }
      text = await readText(decoded, shown);
    } catch (e) {
      if (e instanceof TraceStoreError) throw e;
      if (e instanceof UndecodableBody) throw new TraceStoreError(e.message);
      if (abortedConnecting(e)) stage = { at: 'connecting' };
      // Cut off a second after waitMs (or by the run's interrupt): how far it got, in the agent client's words.
      if (signal?.aborted) return { kind: 'cut', why: `GET ${shown} failed: ${stalled(stage, `traces.waitMs (${thousands(opts.waitMs)} ms) and ${thousands(graceMs)} ms more (the cut-off of each request)`, e)}` };
      // A certificate Node refuses is refused again on every poll: not asked again until waitMs, the
      // fix said at once, as the agent's client says it; a proxy's is named as the proxy's
      // (docs/traces.md, "Query: a trace store").
      const fault = proxyFault(route, e);
      const faultText = route === null || fault === null ? null : proxyFaultText(route, fault);
      if (faultText !== null && lastingFault(fault)) throw new TraceStoreError(`GET ${shown} failed: ${faultText.what}; ${faultText.fix}`);
      const tls = tlsProblem(networkErrorCode(e));
      if (tls !== null) throw new TraceStoreError(`GET ${shown} failed: the store's TLS certificate is refused: ${tls.what} (${tls.code}); ${tls.fix}`);
      // An alert in the TLS handshake (a store that wants a client certificate) answers so on every
      // poll too: said at once, in the agent client's words (src/tls-alert.ts), with the store's setting.
      const alert = tlsAlert(networkErrorCode(e));
      if (alert !== null) throw new TraceStoreError(`GET ${shown} failed: the store ${tlsAlertText(alert)}; ${tlsAlertFix('traces.query.url')}`);
      // An https:// URL to a port that speaks plain HTTP answers so on every poll: said at once, in the
      // agent client's words (src/http/tls.ts), with the store's setting; never "a connection error".
      const plain = notTls(networkErrorCode(e));
      if (plain !== null) throw new TraceStoreError(`GET ${shown} failed: the store answered without TLS (${plain}); ${NOT_TLS_FIX} in traces.query.url`);
      if (faultText !== null) return { kind: 'failed', why: `GET ${shown} failed: ${faultText.what}; ${faultText.fix}`, retryAfterMs: 0 };
      // Through a proxy, a connection that never opened is the proxy's: the store's address was not
      // tried, so the fix is the proxy's variable, not traces.query.url (docs/configuration.md, "Behind a proxy").
      const proxy = unreachedProxy(route, networkErrorCode(e));
      // undici's own limits, in the same words: connecting (the connect timeout), the answer (10 s).
      const limit = proxy === null ? undiciLimit(networkErrorCode(e)) : null;
      if (limit !== null) {
        const within = `${thousands(limit.at === 'connecting' ? connectTimeout : requestTimeout)} ms (${limit.name}, ${String(networkErrorCode(e))})`;
        return { kind: 'failed', why: `GET ${shown} failed: ${stalled({ at: limit.at }, within, e)}`, retryAfterMs: 0 };
      }
      // undici's wait between two bytes of the body (10 s): past a waitMs of about 9 s it comes before
      // the cut-off, and is said in the cut-off's words, with what it bounds.
      if (networkErrorCode(e) === 'UND_ERR_BODY_TIMEOUT' && stage.at === 'body') {
        return { kind: 'failed', why: `GET ${shown} failed: the store's answer (HTTP ${String(stage.status)}) did not end: nothing more of it came within ${thousands(requestTimeout)} ms (the wait between its bytes, UND_ERR_BODY_TIMEOUT)`, retryAfterMs: 0 };
      }
      // A connection that failed, in the words every client says it in, with the address it was tried at (src/http/error-code.ts).
      const code = networkErrorCode(e);
      // An answer begun and cut (a closed connection): the store was reached, and answered.
      if (stage.at === 'body' && code !== undefined && CLOSED_CODES.has(code)) {
        return { kind: 'failed', why: `GET ${shown} failed: the store's answer (HTTP ${String(stage.status)}) broke off before its end: the connection was closed (${code})`, retryAfterMs: 0 };
      }
      const failed = connectionFailureText(code, networkAddress(e));
      // Any other error in our words too, never undici's or Node's message: a proxy's refusal, an
      // answer that is not valid HTTP, else its code (src/http/error-code.ts, otherNetworkFailureText).
      const other = (): string => (e instanceof Error ? proxyRefusal(e.message) : null) ?? otherNetworkFailureText(e) ?? networkErrorText(e);
      const why =
        proxy !== null
          ? `could not reach the proxy ${proxy.proxy} (${proxy.variable}): ${failed ?? other()}; check ${proxy.variable}, or NO_PROXY for hosts to reach directly`
          : failed === null
            ? other()
            : `${failed}; ${code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'check the host name in traces.query.url' : 'check traces.query.url and that the store is running'}`;
      return { kind: 'failed', why: `GET ${shown} failed: ${why}`, retryAfterMs: 0 };
    }
    // Langfuse v2 answers a trace it has nothing for with 200 and no data: a 404 (or 501) is the API missing.
    if (opts.kind === 'langfuse' && !v1 && (status === 404 || status === 501)) return { kind: 'missing route' };
    if (status === 404) {
      if (noSuchRoute(text)) {
        if (opts.kind === 'tempo' && !v1) return { kind: 'missing route' };
        // Tempo: the v2 route was missing too.
        const asked = opts.kind === 'tempo' ? `GET ${shownUrl(`${base}/api/v2/traces/${traceId}`)} and for GET ${shown}` : `GET ${shown}`;
        throw new TraceStoreError(`${opts.kind} answered HTTP 404 (no such page, not a missing trace) for ${asked}: is traces.query.url ${API_ADDRESS[opts.kind]}?`);
      }
      // Langfuse says why in JSON: only its LangfuseNotFoundError is a trace not stored yet (a
      // deployment without this endpoint answers 404 too, with another error).
      const refusal = opts.kind === 'langfuse' ? langfuseRefusal(text) : null;
      if (refusal !== null) throw new TraceStoreError(`langfuse answered HTTP 404 for GET ${shown}: "${refusal}"`);
      return { kind: 'not found' };
    }
    // Langfuse answers a query its database gave up on 422 "Request timed out": asked again.
    const busy = opts.kind === 'langfuse' && status === 422 && /timed out/i.test(text);
    if (status === 429 || status >= 500 || busy) return { kind: 'failed', why: `${opts.kind} answered HTTP ${String(status)} for GET ${shown}${busy ? ' ("Request timed out")' : ''}`, retryAfterMs: parseRetryAfter(retryAfter, serverNow({ date }, clock.now())) ?? 0 };
    if (status < 200 || status > 299) throw new TraceStoreError(`${opts.kind} answered HTTP ${String(status)} for GET ${shown}${storeSaid(opts.kind, status, text)}${hintOf(opts.kind, status, text)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TraceStoreError(`${opts.kind} answered GET ${shown} with HTTP ${String(status)} but not JSON: is traces.query.url the store's API address?`);
    }
    // Tempo v2 hands over part of a trace (too large, or pruned) as `status: "PARTIAL"`: the calls it
    // left out are unknown, so the turn's spans are not read at all.
    const partial = opts.kind === 'tempo' ? partialOf(body) : null;
    if (partial !== null) throw new TraceStoreError(`tempo answered GET ${shown} with part of the trace (status PARTIAL${partial === '' ? '' : `: ${partial}`}), so the turn's tool calls are unknown: raise Tempo's max_bytes_per_trace, or turn off its span pruning for this trace`);
    try {
      if (opts.kind === 'langfuse' && !v1) {
        const page = spansOfLangfusePage(body, traceId);
        return { kind: 'spans', spans: page.spans.filter((s) => s.traceId === traceId), cursor: page.cursor };
      }
      return { kind: 'spans', spans: spansOf(opts.kind, body).filter((s) => s.traceId === traceId) };
    } catch (e) {
      throw new TraceStoreError(`${opts.kind} answered GET ${shown} with JSON that is not a trace (${e instanceof Error ? e.message : String(e)}): is traces.query.kind right?`);
    }
  };

  /** A request cut at `stage` by a limit (`within`: "traces.waitMs (2,000 ms) and its second", "100 ms (the connect timeout, ...)"), in the agent client's words. */
  function stalled(stage: Stage, within: string, e: unknown): string {
    return deadlineText(stage.at === 'connecting' ? { at: 'connecting', step: cutStep(route, e) } : stage, 'the store', within, route);
  }

  return {
    register() {
      // A store needs no registration: the trace is asked for by id after the turn.
    },
    async collect(traceId, sentSpanId, given) {
      const deadline = clock.now() + opts.waitMs;
      // No request outlives the wait by more than a second: a store that answers a byte at a time,
      // or never, is cut off there (undici's own timeouts only bound the gaps between bytes).
      // A timer, not the poll clock: it bounds what the network takes, not the polling.
      const cutOff = new AbortController();
      const stop = (opts.timer ?? realCutOff)(opts.waitMs + graceMs, () => cutOff.abort());
      const signal = given === undefined ? cutOff.signal : AbortSignal.any([given, cutOff.signal]);
      try {
        return await collectUntil(traceId, sentSpanId, signal, deadline, cutOff.signal);
      } finally {
        stop();
      }
    },
    late() {
      // Spans a store indexes after the turn was read are not asked for again.
      return 0;
    },
    close() {
      return closeDispatcher(dispatcher);
    },
  };

  async function collectUntil(traceId: string, sentSpanId: string, signal: AbortSignal, deadline: number, cutOff: AbortSignal): Promise<TurnSpans> {
      let latest: Span[] = [];
      let answered = false;
      // The last attempt's failure (a 429, a 5xx, no connection); null after a 404 or an answer.
      let failure: string | null = null;
      for (let attempt = 0; ; attempt++) {
        const answer = opts.kind === 'langfuse' && !v1 ? await askPages(traceId, signal) : await ask(traceId, signal);
        if (answer.kind === 'missing route') {
          v1 = true;
          continue;
        }
        // A request the cut-off stopped, nothing answered before it: the store's failure, with how far the request got.
        if (answer.kind === 'cut' && cutOff.aborted && !answered) throw new TraceStoreError(answer.why);
        failure = answer.kind === 'failed' ? answer.why : null;
        if (answer.kind === 'spans') {
          answered = true;
          latest = answer.spans;
          if (latest.some((s) => s.parentSpanId === sentSpanId)) return done(latest, true);
        }
        const left = deadline - clock.now();
        if (left <= 0 || signal?.aborted) break;
        // A store that limits its rate (Langfuse Cloud: 15 to 100 requests a minute) says when to ask again.
        const pause = Math.max(POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)]!, answer.kind === 'failed' ? answer.retryAfterMs : 0);
        await clock.sleep(Math.min(pause, left), signal);
      }
      // A store that failed until the end and never answered is a failure to report, not a turn without spans.
      if (!answered && failure !== null && !signal.aborted) throw new TraceStoreError(`${failure}, until traces.waitMs (${thousands(opts.waitMs)} ms) passed`);
      return done(latest, false);
  }
}

function done(spans: Span[], complete: boolean): TurnSpans {
  return { spans: [...spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs), complete };
}

function spansOf(kind: StoreQuery['kind'], body: unknown): Span[] {
  if (kind === 'langfuse') return spansOfLangfuse(body);
  const data = body as Record<string, unknown> | null;
  // Jaeger: {result: {resourceSpans}}; Tempo v2: {trace: {resourceSpans}}; Tempo v1: {batches}.
  if (kind === 'jaeger') return spansOfOtlp(data?.result ?? data).spans;
  return spansOfOtlp(data && typeof data === 'object' && 'trace' in data ? (data.trace ?? {}) : data).spans;
}

/**
 * A 404 that says the route does not exist rather than the trace: the Go router's `404 page not
 * found` (a Tempo without the route, or a path that is not Tempo's API), or an HTML page (a proxy's
 * or a gateway's). Tempo's own "not found yet" is an empty body (v1, and v2 behind an access
 * policy) or "trace not found" (older Tempos).
 */
function noSuchRoute(text: string): boolean {
  return /page not found/i.test(text) || /^\s*</.test(text);
}

/** Where each store's API is, for a message about a URL that is not it. */
const API_ADDRESS: Record<StoreQuery['kind'], string> = {
  tempo: "Tempo's HTTP API address (with its http_api_prefix, if it has one)",
  jaeger: "Jaeger's query address (port 16686, with its base path, if it has one)",
  langfuse: "Langfuse's address (https://cloud.langfuse.com, or your own deployment's)",
};

/** A Langfuse 404 that is not LangfuseNotFoundError: its message (clipped), else null. */
function langfuseRefusal(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object') return null;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error !== 'string' || error === 'LangfuseNotFoundError' || typeof message !== 'string') return null;
  return oneLine(message, 200);
}

/** Tempo v2's `status: "PARTIAL"`: its message (clipped to one line), '' without one; null for a whole trace. */
function partialOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const { status, message } = body as { status?: unknown; message?: unknown };
  if (status !== 'PARTIAL' && status !== 1) return null;
  return typeof message === 'string' ? oneLine(message, 300) : '';
}

/** What Tempo said with a 422 (a trace over its size limit: "trace exceeds max size"), quoted; '' otherwise. */
function storeSaid(kind: StoreQuery['kind'], status: number, text: string): string {
  if (kind !== 'tempo' || status !== 422 || text.trim() === '' || /^\s*[<{[]/.test(text)) return '';
  return ` ("${oneLine(text, 200)}")`;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${headOf(line, max - 1)}…` : line;
}

/** The store's auth: Langfuse's basic auth from public:secret; for Tempo and Jaeger, user:password as basic auth, any other key as a bearer token; then `headers` (a Tempo tenant's X-Scope-OrgID). */
function headersOf(opts: StoreQuery): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const key = opts.apiKey;
  if (key === null) return headers;
  if (opts.kind === 'langfuse' || key.includes(':')) headers.authorization = `Basic ${Buffer.from(key, 'utf8').toString('base64')}`;
  else headers.authorization = `Bearer ${key}`;
  return headers;
}

function hintOf(kind: StoreQuery['kind'], status: number, text: string): string {
  // Tempo with multitenancy on answers a request without a tenant "no org id".
  if (kind === 'tempo' && status === 401 && /no org id/i.test(text)) return ': this Tempo is multi-tenant: name the tenant with traces.query.headers: { X-Scope-OrgID: <tenant> }';
  if (status === 422 && kind === 'tempo') return ": the trace is over Tempo's size limit (max_bytes_per_trace), so the turn's tool calls are unknown";
  if (status === 401 || status === 403) return kind === 'langfuse' ? ': check traces.query.apiKey ("public:secret" of the project the agent sends its traces to)' : ': check traces.query.apiKey';
  if (status === 400) return ': is traces.query.kind right for this store?';
  return '';
}

async function readText(body: AsyncIterable<Uint8Array> & { destroy?: () => void }, shown: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      // Leaving the loop ends a decoded body's reading too (its generator's finally).
      body.destroy?.();
      throw new TraceStoreError(`the answer to GET ${shown} is over ${thousands(MAX_ANSWER_BYTES)} bytes: not one turn's trace`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A URL as shown in messages: no user, password (up to the last `@` before the host, as URLs read it) or query string. */
function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/, '');
}

/** undici's timeout of `code` before an answer: the step it bounds and its name; null for another error. */
function undiciLimit(code: string | undefined): { at: 'connecting' | 'answer'; name: string } | null {
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { at: 'connecting', name: 'the connect timeout' };
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return { at: 'answer', name: 'the wait for an answer' };
  return null;
}
