export const id = 322;
export const ids = [322];
export const modules = {

/***/ 56322:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  createQuerySource: () => (/* binding */ createQuerySource)
});

// UNUSED EXPORTS: POLL_DELAYS_MS, TraceStoreError, realPollClock

// EXTERNAL MODULE: ./src/http/retry.ts
var retry = __webpack_require__(28902);
// EXTERNAL MODULE: ./src/http/network.ts
var network = __webpack_require__(76782);
// EXTERNAL MODULE: ./src/http/undici.ts
var undici = __webpack_require__(51150);
// EXTERNAL MODULE: ./src/agent/tool-calls.ts
var tool_calls = __webpack_require__(86655);
// EXTERNAL MODULE: ./src/traces/otlp.ts + 1 modules
var otlp = __webpack_require__(49102);
;// CONCATENATED MODULE: ./src/traces/langfuse.ts
// Langfuse's observations -> `Span` (docs/traces.md, "Query: Langfuse"), from either API: v2's
// `GET /api/public/v2/observations?traceId=<id>` (Langfuse v4, and Cloud since the v1 trace endpoint
// was removed there: `{data, meta: {cursor}}`, input and output as text) or v1's
// `GET /api/public/traces/<id>` (TraceWithFullDetails: `observations`). Each observation is a span:
// its id, parentObservationId, name, startTime / endTime (ISO), and level ERROR as status error with
// its statusMessage. Langfuse keeps an OpenTelemetry span's attributes in the observation's metadata:
// under `attributes` (v1, and rows v4 copied from v3), or flattened into `attributes.<key>` keys (v4);
// every value as text (a number as "123", a list as its JSON text; the whole map sometimes as JSON
// text). They are kept as they come (the span mapping reads a count given as text); and a TOOL or
// GENERATION observation also gets the GenAI semantic-convention attributes its own fields say (tool
// name, input and output; model and usage), unless the span had them, so the span mapping reads a
// tool call or a model call whichever SDK reported it to Langfuse.


/** The spans of a v1 trace answer (`observations`); throws on a body that is no Langfuse trace. */
function spansOfLangfuse(body) {
    if (!isObject(body) || !Array.isArray(body.observations))
        throw new Error('not a Langfuse trace: expected an object with observations');
    const traceId = typeof body.id === 'string' ? body.id.toLowerCase() : '';
    return spansOfObservations(body.observations, traceId);
}
/** One page of v2 observations: its spans and the cursor of the next page (null: the last). Throws on a body that is no such page. */
function spansOfLangfusePage(body, traceId) {
    if (!isObject(body) || !Array.isArray(body.data))
        throw new Error('not Langfuse observations: expected an object with data');
    const meta = isObject(body.meta) ? body.meta : {};
    const cursor = typeof meta.cursor === 'string' && meta.cursor !== '' ? meta.cursor : null;
    return { spans: spansOfObservations(body.data, traceId), cursor };
}
function spansOfObservations(observations, traceId) {
    const out = [];
    for (const o of observations) {
        if (!isObject(o) || typeof o.id !== 'string')
            continue;
        const startMs = timeOf(o.startTime);
        if (startMs === null)
            continue;
        const endMs = timeOf(o.endTime);
        const metadata = objectOf(o.metadata);
        const attributes = attributesOf(nested(metadata, 'attributes'));
        const type = typeof o.type === 'string' ? o.type.toUpperCase() : 'SPAN';
        const name = typeof o.name === 'string' && o.name !== '' ? o.name : type.toLowerCase();
        attributes['langfuse.observation.type'] = type;
        if (type === 'TOOL')
            toolAttributes(attributes, name, o);
        if (type === 'GENERATION')
            generationAttributes(attributes, o);
        const error = o.level === 'ERROR';
        const serviceName = nested(metadata, 'resourceAttributes')?.['service.name'];
        out.push({
            traceId: typeof o.traceId === 'string' && o.traceId !== '' ? o.traceId.toLowerCase() : traceId,
            spanId: o.id.toLowerCase(),
            parentSpanId: typeof o.parentObservationId === 'string' && o.parentObservationId !== '' ? o.parentObservationId.toLowerCase() : null,
            name,
            startMs,
            endMs: endMs === null || endMs < startMs ? startMs : endMs,
            status: error ? 'error' : 'unset',
            statusMessage: error && typeof o.statusMessage === 'string' && o.statusMessage !== '' ? o.statusMessage : null,
            attributes,
            service: typeof serviceName === 'string' && serviceName !== '' ? serviceName : null,
        });
    }
    return out.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}
/** metadata[key] as a map: the object (or JSON text) under it, merged with the `key.<name>` keys v4 flattens it into. */
function nested(metadata, key) {
    if (metadata === null)
        return null;
    // By name in a Map: a name is the agent's, and may be `constructor` or `__proto__`.
    const out = new Map(Object.entries(objectOf(metadata[key]) ?? {}));
    const prefix = `${key}.`;
    for (const [k, v] of Object.entries(metadata))
        if (k.startsWith(prefix) && k.length > prefix.length && !out.has(k.slice(prefix.length)))
            out.set(k.slice(prefix.length), v);
    return out.size === 0 ? null : Object.fromEntries(out);
}
/** The attributes a span names its tool by, in each convention (docs/traces.md, "Tool calls"). */
const TOOL_NAME_KEYS = ['gen_ai.tool.name', 'ai.toolCall.name', 'tool.name'];
function toolAttributes(attributes, name, o) {
    attributes['gen_ai.operation.name'] ??= 'execute_tool';
    // The observation's name is the span's, and an AI SDK tool span is named "ai.toolCall": a tool
    // name the span gave in its own convention is the tool's (docs/traces.md, "Query: Langfuse").
    if (!TOOL_NAME_KEYS.some((k) => typeof attributes[k] === 'string' && attributes[k] !== ''))
        attributes['gen_ai.tool.name'] = name;
    if (o.input !== undefined && o.input !== null)
        attributes['gen_ai.tool.call.arguments'] ??= textOf(o.input);
    if (o.output !== undefined && o.output !== null)
        attributes['gen_ai.tool.call.result'] ??= textOf(o.output);
}
function generationAttributes(attributes, o) {
    attributes['gen_ai.operation.name'] ??= 'chat';
    if (typeof o.model === 'string' && o.model !== '')
        attributes['gen_ai.request.model'] ??= o.model;
    // usageDetails (input, output, total) is current; usage (input, output) is v1's deprecated form.
    const details = objectOf(o.usageDetails) ?? {};
    const usage = objectOf(o.usage) ?? {};
    const input = numberOf(details.input) ?? numberOf(usage.input);
    const output = numberOf(details.output) ?? numberOf(usage.output);
    if (input !== null)
        attributes['gen_ai.usage.input_tokens'] = numberOf(attributes['gen_ai.usage.input_tokens']) ?? input;
    if (output !== null)
        attributes['gen_ai.usage.output_tokens'] = numberOf(attributes['gen_ai.usage.output_tokens']) ?? output;
}
/** metadata.attributes: values kept as Langfuse returns them (text); a value of another type, as it comes, or as JSON text. */
function attributesOf(map) {
    // Defined, never set: a key named `__proto__` is kept as a key.
    return Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, attributeValue(value)]));
}
function attributeValue(value) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        return value;
    if (Array.isArray(value) && value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)))
        return value;
    return jsonText(value);
}
/** JSON text of a value, or, nesting deeper than a tool call's input may, the text an OTLP attribute that does reads as (otlp.ts): JSON.stringify would recurse past the stack. */
function jsonText(value) {
    return (0,tool_calls/* nestsDeeperThan */.ix)(value, tool_calls/* MAX_TOOL_CALL_DEPTH */.Ti) ? otlp/* TOO_DEEP_TEXT */.oc : JSON.stringify(value);
}
/** An object, or the object a JSON text holds (Langfuse returns nested metadata either way), or null. */
function objectOf(v) {
    if (isObject(v))
        return v;
    if (typeof v === 'string' && v.startsWith('{')) {
        try {
            const parsed = JSON.parse(v);
            return isObject(parsed) ? parsed : null;
        }
        catch {
            return null;
        }
    }
    return null;
}
function numberOf(v) {
    if (typeof v === 'number' && Number.isFinite(v))
        return v;
    if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v))
        return Number(v);
    return null;
}
function textOf(v) {
    return typeof v === 'string' ? v : jsonText(v);
}
function timeOf(v) {
    if (typeof v !== 'string' || v === '')
        return null;
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
}
function isObject(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// EXTERNAL MODULE: ./src/http/content-encoding.ts
var content_encoding = __webpack_require__(54775);
// EXTERNAL MODULE: ./src/traces/store-error.ts
var store_error = __webpack_require__(12120);
;// CONCATENATED MODULE: ./src/traces/query.ts
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







const realPollClock = {
    now: () => Date.now(),
    sleep: (ms, signal) => new Promise((resolve) => {
        const t = setTimeout(done, ms);
        function done() {
            clearTimeout(t);
            signal?.removeEventListener('abort', done);
            resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
    }),
};
/** The pause before asking again: short at first (stores index within a second or two), then at most 1 s. */
const POLL_DELAYS_MS = [100, 200, 400, 800, 1000];
/** A trace's answer larger than this is refused (a turn's trace is far smaller). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Langfuse v2 observations asked per page (its most), and the most pages one turn's trace may take. */
const LANGFUSE_PAGE = 1000;
const LANGFUSE_MAX_PAGES = 10;
/** One request's time limit (each poll also stops at waitMs). */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a request may run past the turn's `waitMs` before it is cut off. */
const REQUEST_GRACE_MS = 1000;

function createQuerySource(opts) {
    const clock = opts.clock ?? realPollClock;
    const headers = headersOf(opts);
    const base = opts.url.replace(/\/+$/, '');
    const dispatcher = (opts.network ?? network/* DIRECT */.yc).dispatcher(base, { connections: 8, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
    // Tempo and Langfuse: the v2 API first; one without it is asked the v1 way from then on (Tempo's
    // router answers "404 page not found"; a Langfuse before v4 answers 404, or 501 on some v3).
    let v1 = false;
    const pathOf = (traceId, cursor) => {
        if (opts.kind === 'jaeger')
            return `/api/v3/traces/${traceId}`;
        if (opts.kind === 'langfuse') {
            if (v1)
                return `/api/public/traces/${traceId}`;
            // Every group of fields the spans are read from; input and output whole (not clipped at 200 characters).
            return `/api/public/v2/observations?traceId=${traceId}&fields=core,basic,io,metadata,model,usage&limit=${String(LANGFUSE_PAGE)}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        }
        return v1 ? `/api/traces/${traceId}` : `/api/v2/traces/${traceId}`;
    };
    /** Langfuse v2: every page of the trace's observations, as one answer. */
    const askPages = async (traceId, signal) => {
        const spans = [];
        let cursor = null;
        for (let page = 0; page < LANGFUSE_MAX_PAGES; page++) {
            const answer = await ask(traceId, signal, cursor);
            if (answer.kind !== 'spans')
                return answer;
            // One at a time: a store that ignores the page's limit may send more than push(...) takes arguments.
            for (const span of answer.spans)
                spans.push(span);
            if (answer.cursor == null)
                return { kind: 'spans', spans };
            cursor = answer.cursor;
        }
        throw new store_error/* TraceStoreError */.h(`langfuse has more than ${String(LANGFUSE_PAGE * LANGFUSE_MAX_PAGES)} observations for trace ${traceId}: not one turn's trace`);
    };
    const ask = async (traceId, signal, cursor = null) => {
        const url = `${base}${pathOf(traceId, cursor)}`;
        const shown = shownUrl(url);
        let status;
        let text;
        let retryAfter;
        try {
            const res = await (0,undici/* request */.E)(url, { method: 'GET', headers, dispatcher, signal: signal ?? null });
            status = res.statusCode;
            retryAfter = res.headers['retry-after'];
            // Compressed though not asked to be (a proxy in front of the store): decoded as the agent's
            // answers are (docs/traces.md, "Query"), readText holding the size limit on the decoded bytes.
            const decoded = (0,content_encoding/* decodedBody */.jh)(res.body, res.headers['content-encoding'], Number.MAX_SAFE_INTEGER, `${opts.kind}'s answer to GET ${shown}`);
            if ('unknown' in decoded) {
                await res.body.dump().catch(() => undefined);
                throw new store_error/* TraceStoreError */.h(`${opts.kind}'s answer to GET ${shown} is encoded as "${decoded.unknown}" (its Content-Encoding), which agent-replay cannot decode: answer uncompressed, or with gzip, deflate or br`);
            }
            text = await readText(decoded, shown);
        }
        catch (e) {
            if (e instanceof store_error/* TraceStoreError */.h)
                throw e;
            if (e instanceof content_encoding/* UndecodableBody */.JO)
                throw new store_error/* TraceStoreError */.h(e.message);
            if (signal?.aborted)
                return { kind: 'not found' };
            return { kind: 'failed', why: `GET ${shown} failed: ${e instanceof Error ? e.message : String(e)}`, retryAfterMs: 0 };
        }
        // Langfuse v2 answers a trace it has nothing for with 200 and no data: a 404 (or 501) is the API missing.
        if (opts.kind === 'langfuse' && !v1 && (status === 404 || status === 501))
            return { kind: 'missing route' };
        if (status === 404) {
            if (noSuchRoute(text)) {
                if (opts.kind === 'tempo' && !v1)
                    return { kind: 'missing route' };
                // Tempo: the v2 route was missing too.
                const asked = opts.kind === 'tempo' ? `GET ${shownUrl(`${base}/api/v2/traces/${traceId}`)} and for GET ${shown}` : `GET ${shown}`;
                throw new store_error/* TraceStoreError */.h(`${opts.kind} answered HTTP 404 (no such page, not a missing trace) for ${asked}: is traces.query.url ${API_ADDRESS[opts.kind]}?`);
            }
            // Langfuse says why in JSON: only its LangfuseNotFoundError is a trace not stored yet (a
            // deployment without this endpoint answers 404 too, with another error).
            const refusal = opts.kind === 'langfuse' ? langfuseRefusal(text) : null;
            if (refusal !== null)
                throw new store_error/* TraceStoreError */.h(`langfuse answered HTTP 404 for GET ${shown}: "${refusal}"`);
            return { kind: 'not found' };
        }
        // Langfuse answers a query its database gave up on 422 "Request timed out": asked again.
        const busy = opts.kind === 'langfuse' && status === 422 && /timed out/i.test(text);
        if (status === 429 || status >= 500 || busy)
            return { kind: 'failed', why: `${opts.kind} answered HTTP ${String(status)} for GET ${shown}${busy ? ' ("Request timed out")' : ''}`, retryAfterMs: (0,retry/* parseRetryAfter */.mu)(retryAfter, clock.now()) ?? 0 };
        if (status < 200 || status > 299)
            throw new store_error/* TraceStoreError */.h(`${opts.kind} answered HTTP ${String(status)} for GET ${shown}${storeSaid(opts.kind, status, text)}${hintOf(opts.kind, status, text)}`);
        let body;
        try {
            body = JSON.parse(text);
        }
        catch {
            throw new store_error/* TraceStoreError */.h(`${opts.kind} answered GET ${shown} with HTTP ${String(status)} but not JSON: is traces.query.url the store's API address?`);
        }
        // Tempo v2 hands over part of a trace (too large, or pruned) as `status: "PARTIAL"`: the calls it
        // left out are unknown, so the turn's spans are not read at all.
        const partial = opts.kind === 'tempo' ? partialOf(body) : null;
        if (partial !== null)
            throw new store_error/* TraceStoreError */.h(`tempo answered GET ${shown} with part of the trace (status PARTIAL${partial === '' ? '' : `: ${partial}`}), so the turn's tool calls are unknown: raise Tempo's max_bytes_per_trace, or turn off its span pruning for this trace`);
        try {
            if (opts.kind === 'langfuse' && !v1) {
                const page = spansOfLangfusePage(body, traceId);
                return { kind: 'spans', spans: page.spans.filter((s) => s.traceId === traceId), cursor: page.cursor };
            }
            return { kind: 'spans', spans: spansOf(opts.kind, body).filter((s) => s.traceId === traceId) };
        }
        catch (e) {
            throw new store_error/* TraceStoreError */.h(`${opts.kind} answered GET ${shown} with JSON that is not a trace (${e instanceof Error ? e.message : String(e)}): is traces.query.kind right?`);
        }
    };
    return {
        register() {
            // A store needs no registration: the trace is asked for by id after the turn.
        },
        async collect(traceId, sentSpanId, given) {
            const deadline = clock.now() + opts.waitMs;
            // No request outlives the wait by more than a second: a store that answers a byte at a time,
            // or never, is cut off there (undici's own timeouts only bound the gaps between bytes).
            // A real timer, whatever the poll clock: it bounds what the network takes, not the polling.
            const cutOff = new AbortController();
            const timer = setTimeout(() => cutOff.abort(), opts.waitMs + REQUEST_GRACE_MS);
            timer.unref?.();
            const signal = given === undefined ? cutOff.signal : AbortSignal.any([given, cutOff.signal]);
            try {
                return await collectUntil(traceId, sentSpanId, signal, deadline);
            }
            finally {
                clearTimeout(timer);
            }
        },
        late() {
            // Spans a store indexes after the turn was read are not asked for again.
            return 0;
        },
        close() {
            return dispatcher.close();
        },
    };
    async function collectUntil(traceId, sentSpanId, signal, deadline) {
        let latest = [];
        let answered = false;
        // The last attempt's failure (a 429, a 5xx, no connection); null after a 404 or an answer.
        let failure = null;
        for (let attempt = 0;; attempt++) {
            const answer = opts.kind === 'langfuse' && !v1 ? await askPages(traceId, signal) : await ask(traceId, signal);
            if (answer.kind === 'missing route') {
                v1 = true;
                continue;
            }
            failure = answer.kind === 'failed' ? answer.why : null;
            if (answer.kind === 'spans') {
                answered = true;
                latest = answer.spans;
                if (latest.some((s) => s.parentSpanId === sentSpanId))
                    return done(latest, true);
            }
            const left = deadline - clock.now();
            if (left <= 0 || signal?.aborted)
                break;
            // A store that limits its rate (Langfuse Cloud: 15 to 100 requests a minute) says when to ask again.
            const pause = Math.max(POLL_DELAYS_MS[Math.min(attempt, POLL_DELAYS_MS.length - 1)], answer.kind === 'failed' ? answer.retryAfterMs : 0);
            await clock.sleep(Math.min(pause, left), signal);
        }
        // A store that failed until the end and never answered is a failure to report, not a turn without spans.
        if (!answered && failure !== null && !signal.aborted)
            throw new store_error/* TraceStoreError */.h(`${failure}, until traces.waitMs (${String(opts.waitMs)} ms) passed`);
        return done(latest, false);
    }
}
function done(spans, complete) {
    return { spans: [...spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs), complete };
}
function spansOf(kind, body) {
    if (kind === 'langfuse')
        return spansOfLangfuse(body);
    const data = body;
    // Jaeger: {result: {resourceSpans}}; Tempo v2: {trace: {resourceSpans}}; Tempo v1: {batches}.
    if (kind === 'jaeger')
        return (0,otlp/* spansOfOtlp */.Gu)(data?.result ?? data).spans;
    return (0,otlp/* spansOfOtlp */.Gu)(data && typeof data === 'object' && 'trace' in data ? (data.trace ?? {}) : data).spans;
}
/**
 * A 404 that says the route does not exist rather than the trace: the Go router's `404 page not
 * found` (a Tempo without the route, or a path that is not Tempo's API), or an HTML page (a proxy's
 * or a gateway's). Tempo's own "not found yet" is an empty body (v1, and v2 behind an access
 * policy) or "trace not found" (older Tempos).
 */
function noSuchRoute(text) {
    return /page not found/i.test(text) || /^\s*</.test(text);
}
/** Where each store's API is, for a message about a URL that is not it. */
const API_ADDRESS = {
    tempo: "Tempo's HTTP API address (with its http_api_prefix, if it has one)",
    jaeger: "Jaeger's query address (port 16686, with its base path, if it has one)",
    langfuse: "Langfuse's address (https://cloud.langfuse.com, or your own deployment's)",
};
/** A Langfuse 404 that is not LangfuseNotFoundError: its message (clipped), else null. */
function langfuseRefusal(text) {
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        return null;
    }
    if (body === null || typeof body !== 'object')
        return null;
    const { error, message } = body;
    if (typeof error !== 'string' || error === 'LangfuseNotFoundError' || typeof message !== 'string')
        return null;
    return oneLine(message, 200);
}
/** Tempo v2's `status: "PARTIAL"`: its message (clipped to one line), '' without one; null for a whole trace. */
function partialOf(body) {
    if (body === null || typeof body !== 'object')
        return null;
    const { status, message } = body;
    if (status !== 'PARTIAL' && status !== 1)
        return null;
    return typeof message === 'string' ? oneLine(message, 300) : '';
}
/** What Tempo said with a 422 (a trace over its size limit: "trace exceeds max size"), quoted; '' otherwise. */
function storeSaid(kind, status, text) {
    if (kind !== 'tempo' || status !== 422 || text.trim() === '' || /^\s*[<{[]/.test(text))
        return '';
    return ` ("${oneLine(text, 200)}")`;
}
function oneLine(text, max) {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
/** The store's auth: Langfuse's basic auth from public:secret; for Tempo and Jaeger, user:password as basic auth, any other key as a bearer token; then `headers` (a Tempo tenant's X-Scope-OrgID). */
function headersOf(opts) {
    const headers = { accept: 'application/json', ...opts.headers };
    const key = opts.apiKey;
    if (key === null)
        return headers;
    if (opts.kind === 'langfuse' || key.includes(':'))
        headers.authorization = `Basic ${Buffer.from(key, 'utf8').toString('base64')}`;
    else
        headers.authorization = `Bearer ${key}`;
    return headers;
}
function hintOf(kind, status, text) {
    // Tempo with multitenancy on answers a request without a tenant "no org id".
    if (kind === 'tempo' && status === 401 && /no org id/i.test(text))
        return ': this Tempo is multi-tenant: name the tenant with traces.query.headers: { X-Scope-OrgID: <tenant> }';
    if (status === 422 && kind === 'tempo')
        return ': the trace is over Tempo\u2019s size limit (max_bytes_per_trace), so the turn\u2019s tool calls are unknown';
    if (status === 401 || status === 403)
        return kind === 'langfuse' ? ': check traces.query.apiKey ("public:secret" of the project the agent sends its traces to)' : ': check traces.query.apiKey';
    if (status === 400)
        return ': is traces.query.kind right for this store?';
    return '';
}
async function readText(body, shown) {
    const chunks = [];
    let size = 0;
    for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > MAX_ANSWER_BYTES) {
            // Leaving the loop ends a decoded body's reading too (its generator's finally).
            body.destroy?.();
            throw new store_error/* TraceStoreError */.h(`the answer to GET ${shown} is over ${String(MAX_ANSWER_BYTES)} bytes: not one turn's trace`);
        }
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
}
/** A URL as shown in messages: no user, password (up to the last `@` before the host, as URLs read it) or query string. */
function shownUrl(url) {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/, '');
}


/***/ })

};
