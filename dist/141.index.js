export const id = 141;
export const ids = [141];
export const modules = {

/***/ 38141:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   startReceiver: () => (/* binding */ startReceiver)
/* harmony export */ });
/* unused harmony exports MAX_BODY_BYTES, realTimers, MAX_SPANS_PER_TRACE */
/* harmony import */ var node_http__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(37067);
/* harmony import */ var node_http__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_http__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(38522);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_zlib__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(83916);
/* harmony import */ var _otlp_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(49102);
/* harmony import */ var _map_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(91764);
// The OTLP/HTTP receiver (docs/traces.md, "Receive: an OTLP/HTTP receiver"): `POST /v1/traces` on
// 127.0.0.1 only, protobuf and JSON bodies, gzip, a 16 MB limit after decompression (413, and the
// receiver keeps serving), answers as the OTLP specification says (200 with an
// ExportTraceServiceResponse in the request's encoding, 400 for a body that is no OTLP trace data,
// 415 for another content type or encoding). It keeps only the spans of trace ids registered by the
// run, and is a `SpanSource`: a turn's spans are complete when the span whose parent is the span id
// its answered attempt sent has arrived (spans are exported when they end; each attempt of a turn
// registers its own span id: docs/traces.md, "Retried requests"), or at `waitMs`; spans of a turn
// that arrive after its spans were handed over change nothing for it and are counted (`late`).





/** The largest body accepted, after decompression (docs/traces.md, "Receive: an OTLP/HTTP receiver"). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const realTimers = {
    after(ms, fire) {
        const t = setTimeout(fire, ms);
        t.unref();
        return () => clearTimeout(t);
    },
};
/**
 * The most spans kept for one trace (docs/traces.md, "Limits on what a turn's spans can hold"): five
 * times what a turn is read from, room for the turns of a trace a fixed traceparent shares.
 */
const MAX_SPANS_PER_TRACE = 5 * _map_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_TURN_SPANS */ .Hy;
/** Starts the receiver on 127.0.0.1; a port in use is a user error naming the setting to change. */
async function startReceiver(opts) {
    const timers = opts.timers ?? realTimers;
    const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
    const traces = new Map();
    // Spans of trace ids this run never sent: an agent that does not continue the incoming
    // traceparent exports every turn's spans under a trace of its own (docs/traces.md, "When spans do
    // not arrive"). Once a span of a sent trace has come, the agent does continue it: other traces are
    // its health checks and the like, and say nothing about a turn whose spans did not come.
    let foreign = 0;
    let matched = false;
    const accept = (spans) => {
        // Turns are woken once the whole body is in: one export may list the top span before its
        // children, and those children belong to the turn, not to its late spans.
        const ended = [];
        for (const span of spans) {
            const state = traces.get(span.traceId);
            if (!state) {
                foreign += 1;
                continue;
            }
            matched = true;
            // Kept up to a bound: an exporter that floods one trace does not grow the run's memory without end.
            const kept = state.spans.length < MAX_SPANS_PER_TRACE;
            if (kept)
                state.spans.push(span);
            // A span after the turn's spans were handed over changes nothing for that turn; it is kept
            // for a later turn of the same trace (a traceparent fixed in agent.headers).
            if (state.collected) {
                if (kept)
                    state.lateKept.push({ span, read: state.reads });
                else
                    state.lateDropped.set(state.reads, (state.lateDropped.get(state.reads) ?? 0) + 1);
                continue;
            }
            if (span.parentSpanId !== null && state.sentSpanIds.has(span.parentSpanId)) {
                state.topsEnded.add(span.parentSpanId);
                if (state.wake?.spanId === span.parentSpanId)
                    ended.push(state);
            }
        }
        for (const state of ended)
            state.wake?.fire();
    };
    const server = (0,node_http__WEBPACK_IMPORTED_MODULE_0__.createServer)((req, res) => handle(req, res, maxBody, accept));
    // A slow or stalled exporter must not hold a socket for ever.
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
    await listen(server, opts.port);
    const port = server.address().port;
    const stateOf = (traceId, sentSpanId) => {
        let state = traces.get(traceId);
        if (!state) {
            state = { sentSpanIds: new Set([sentSpanId]), spans: [], topsEnded: new Set(), collected: false, collectedSpanId: null, reads: 0, lateKept: [], lateDropped: new Map(), wake: null };
            traces.set(traceId, state);
        }
        return state;
    };
    return {
        port,
        endpoint: `http://127.0.0.1:${String(port)}`,
        register(traceId, sentSpanId) {
            const state = stateOf(traceId, sentSpanId);
            // A trace id registered again after its spans were handed over is a new turn in the same
            // trace (a traceparent fixed in agent.headers): it reads every span of the trace so far, and
            // is complete when a span under the sent span id arrives after it was registered. Before
            // then, it is another attempt of the same turn, under a span id of its own.
            if (state.collected)
                Object.assign(state, { sentSpanIds: new Set([sentSpanId]), topsEnded: new Set(), collected: false, collectedSpanId: null });
            else
                state.sentSpanIds.add(sentSpanId);
        },
        collect(traceId, sentSpanId, signal) {
            const state = stateOf(traceId, sentSpanId);
            return new Promise((resolve) => {
                const finish = () => {
                    cancel();
                    signal?.removeEventListener('abort', finish);
                    state.wake = null;
                    state.collected = true;
                    state.collectedSpanId = sentSpanId;
                    state.reads += 1;
                    const spans = [...state.spans].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
                    resolve({ spans, complete: state.topsEnded.has(sentSpanId), read: state.reads });
                };
                let cancel = () => undefined;
                if (state.topsEnded.has(sentSpanId) || signal?.aborted)
                    return finish();
                state.wake = { spanId: sentSpanId, fire: finish };
                cancel = timers.after(opts.waitMs, finish);
                signal?.addEventListener('abort', finish, { once: true });
            });
        },
        foreign: () => (matched ? 0 : foreign),
        late(traceId, read) {
            const state = traces.get(traceId);
            if (state === undefined)
                return 0;
            // The spans that came after this turn's read and before the next turn of the trace was sent.
            const kept = state.lateKept.filter((l) => read === undefined || l.read === read).map((l) => l.span);
            let dropped = 0;
            for (const [r, n] of state.lateDropped)
                if (read === undefined || r === read)
                    dropped += n;
            // A retried turn's late spans are those of its answered attempt (docs/traces.md, "Retried
            // requests"), told apart now that the spans they hang from have had time to arrive.
            if (state.sentSpanIds.size <= 1 || state.collectedSpanId === null || kept.length === 0)
                return kept.length + dropped;
            const turns = new Set((0,_map_js__WEBPACK_IMPORTED_MODULE_4__/* .spansOfAttempt */ .Ci)(state.spans, state.collectedSpanId, true));
            return kept.filter((s) => turns.has(s)).length + dropped;
        },
        close() {
            for (const state of traces.values())
                state.wake?.fire();
            return new Promise((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
            });
        },
    };
}
function listen(server, port) {
    return new Promise((resolve, reject) => {
        const failed = (e) => {
            if (e.code === 'EADDRINUSE') {
                reject(new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .UserError */ .yo(`traces.receive.port ${String(port)} is in use on 127.0.0.1: another process (perhaps another OTLP receiver or collector) listens there; choose another port, or port: 0 for any free one`));
            }
            else if (e.code === 'EACCES') {
                reject(new _errors_js__WEBPACK_IMPORTED_MODULE_2__/* .UserError */ .yo(`traces.receive.port ${String(port)} may not be opened by this user: choose a port above 1023, or port: 0 for any free one`));
            }
            else
                reject(e);
        };
        server.once('error', failed);
        server.listen(port, '127.0.0.1', () => {
            server.off('error', failed);
            resolve();
        });
    });
}
/** One request: route, content type and encoding, the body within its limit, then the answer. */
function handle(req, res, maxBody, accept) {
    const path = (req.url ?? '').split('?')[0];
    const encoding = encodingOf(req.headers['content-type']);
    if (path !== '/v1/traces')
        return answer(req, res, 404, encoding ?? 'json', `no such path ${path ?? ''}: spans are received at POST /v1/traces`);
    if (req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        return answer(req, res, 405, encoding ?? 'json', 'spans are received with POST /v1/traces');
    }
    if (encoding === null)
        return answer(req, res, 415, 'json', `content type ${req.headers['content-type'] ?? '(none)'} is not supported: send application/x-protobuf or application/json`);
    const contentEncoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
    if (contentEncoding !== 'gzip' && contentEncoding !== 'identity' && contentEncoding !== '') {
        return answer(req, res, 415, encoding, `content encoding ${contentEncoding} is not supported: send gzip or no encoding`);
    }
    readBody(req, contentEncoding === 'gzip', maxBody).then((body) => {
        if (body === 'too large')
            return answer(req, res, 413, encoding, `the body is over ${String(maxBody)} bytes after decompression: export smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE)`);
        if (body === 'bad gzip')
            return answer(req, res, 400, encoding, 'the body is not valid gzip');
        let read;
        try {
            read = encoding === 'protobuf' ? (0,_otlp_js__WEBPACK_IMPORTED_MODULE_3__/* .spansOfProtobuf */ .OA)(body) : (0,_otlp_js__WEBPACK_IMPORTED_MODULE_3__/* .spansOfOtlp */ .Gu)(JSON.parse(body.toString('utf8')));
        }
        catch (e) {
            const message = e instanceof _otlp_js__WEBPACK_IMPORTED_MODULE_3__/* .OtlpFormatError */ .dA ? e.message : `not JSON: ${e instanceof Error ? e.message : String(e)}`;
            return answer(req, res, 400, encoding, message);
        }
        accept(read.spans);
        const { body: out } = (0,_otlp_js__WEBPACK_IMPORTED_MODULE_3__/* .exportResponse */ .yK)(encoding, read);
        send(res, 200, encoding, out);
    }, () => answer(req, res, 400, encoding, 'the body could not be read'));
}
function encodingOf(contentType) {
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/x-protobuf' || type === 'application/protobuf')
        return 'protobuf';
    if (type === 'application/json')
        return 'json';
    return null;
}
/**
 * The body, decompressed as it streams in, or 'too large' as soon as it passes `max` bytes (nothing
 * more is read or kept: a gzip bomb stops at the limit), or 'bad gzip'.
 */
function readBody(req, gzip, max) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        let done = false;
        const source = gzip ? req.pipe((0,node_zlib__WEBPACK_IMPORTED_MODULE_1__.createGunzip)()) : req;
        const finish = (v) => {
            if (done)
                return;
            done = true;
            resolve(v);
        };
        source.on('data', (chunk) => {
            if (done)
                return;
            size += chunk.length;
            if (size > max) {
                chunks.length = 0;
                if (gzip) {
                    req.unpipe();
                    source.destroy();
                }
                source.pause();
                finish('too large');
                return;
            }
            chunks.push(chunk);
        });
        source.on('end', () => finish(Buffer.concat(chunks, size)));
        source.on('error', (e) => (gzip && !done ? finish('bad gzip') : done ? undefined : reject(e)));
        if (gzip)
            req.on('error', (e) => (done ? undefined : reject(e)));
    });
}
/** An error answer: a google.rpc.Status in the request's encoding; the connection is closed when the body was not read whole. */
function answer(req, res, status, encoding, message) {
    if (!req.complete) {
        // The rest of the body is not read: close the connection once the answer is out.
        res.setHeader('connection', 'close');
        res.on('finish', () => req.destroy());
    }
    send(res, status, encoding, (0,_otlp_js__WEBPACK_IMPORTED_MODULE_3__/* .statusBody */ .zQ)(encoding, status === 413 ? 8 : 3, message));
}
function send(res, status, encoding, body) {
    res.statusCode = status;
    res.setHeader('content-type', encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json');
    res.end(body);
}


/***/ })

};
