// Query clients (docs/traces.md, "Query: a trace store") against loopback servers that answer as
// Tempo (both forms), Jaeger v3 and Langfuse do, with 404s before the trace is indexed; the clock is
// injected, so the polling waits for nothing.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readTurnSpans } from '../../src/traces/map.js';
import { createQuerySource, TraceStoreError, type PollClock, type QuerySourceOptions } from '../../src/traces/query.js';
import { networkFrom } from '../../src/http/network.js';
import type { SpanSource } from '../../src/types.js';
import { bodyBegun, heldTimeout } from '../support/held-timeout.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SENT = '00f067aa0ba902b7';
const TOP = '53995c3f42cd8ad8';
const TOOL = 'a1b2c3d4e5f60718';
const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}
type Reply = { status: number; body: string };

const servers: Server[] = [];
const sources: SpanSource[] = [];
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close();
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A store on 127.0.0.1 answering each request with the next reply of `route(path)` (the last one repeats). */
async function store(route: (path: string) => Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const count = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    seen.push({ path, headers: req.headers });
    const replies = route(path);
    const n = count.get(path) ?? 0;
    count.set(path, n + 1);
    const reply = replies[Math.min(n, replies.length - 1)]!;
    res.writeHead(reply.status, { 'content-type': reply.body.startsWith('{') ? 'application/json' : 'text/plain' });
    res.end(reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, seen };
}

/** A port nothing listens on (on 127.0.0.1, and so far as it goes, on ::1). */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A clock whose sleeps pass at once and move time on. */
function clock(): PollClock & { slept: number[] } {
  let t = 1_000_000;
  const slept: number[] = [];
  return { slept, now: () => t, sleep: async (ms) => void (slept.push(ms), (t += ms)) };
}

function source(opts: Omit<QuerySourceOptions, 'clock'>, c = clock()): SpanSource {
  const s = createQuerySource({ ...opts, clock: c });
  sources.push(s);
  return s;
}

const NOT_FOUND: Reply = { status: 404, body: 'trace not found' };
/** Langfuse v2's request for TRACE's observations (the first page), and its answer on a Langfuse v3 that does not serve it (route gate). */
const V2_PATH = `/api/public/v2/observations?traceId=${TRACE}&fields=core,basic,io,metadata,model,usage&limit=1000`;
const V2_GATED: Reply = { status: 404, body: JSON.stringify({ message: 'The observations v2 API is only available in a Langfuse v4 write mode. Learn more at https://langfuse.com/docs/v4', error: 'LangfuseNotFoundError' }) };

/** Tempo's span: base64 ids, enum names, nanoseconds as text (its protobuf-JSON mapping). */
const tempoSpans = (withTop: boolean): unknown[] => [
  ...(withTop ? [{ traceId: b64(TRACE), spanId: b64(TOP), parentSpanId: b64(SENT), name: 'POST /api/chat', kind: 'SPAN_KIND_SERVER', startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000002900000000', status: {} }] : []),
  {
    traceId: b64(TRACE),
    spanId: b64(TOOL),
    parentSpanId: b64(TOP),
    name: 'execute_tool lookup_order',
    kind: 'SPAN_KIND_INTERNAL',
    startTimeUnixNano: '1700000000500000000',
    endTimeUnixNano: '1700000002400000000',
    attributes: [
      { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
      { key: 'gen_ai.tool.name', value: { stringValue: 'lookup_order' } },
      { key: 'retries', value: { intValue: '2' } },
    ],
    status: { code: 'STATUS_CODE_ERROR', message: 'order service unavailable' },
  },
];
const RESOURCE = { attributes: [{ key: 'service.name', value: { stringValue: 'support-agent' } }] };
const TOOL_SPAN = {
  traceId: TRACE,
  spanId: TOOL,
  parentSpanId: TOP,
  name: 'execute_tool lookup_order',
  startMs: 1_700_000_000_500,
  endMs: 1_700_000_002_400,
  status: 'error',
  statusMessage: 'order service unavailable',
  attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', retries: 2 },
  service: 'support-agent',
};

describe('Tempo', () => {
  it('asks /api/v2/traces/<id> until the trace is indexed; reads its base64 ids and enum names', async () => {
    const v2 = JSON.stringify({ trace: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ scope: { name: 'agent' }, spans: tempoSpans(true) }] }] }, metrics: { inspectedBytes: '1' } });
    const s = await store(() => [NOT_FOUND, NOT_FOUND, { status: 200, body: v2 }]);
    const c = clock();
    const src = source({ kind: 'tempo', url: `${s.url}/tempo/`, apiKey: 'glc_token_1234', waitMs: 5000 }, c);
    src.register(TRACE, SENT);
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(got.spans.map((x) => x.spanId)).toEqual([TOP, TOOL]);
    expect(got.spans[1]).toEqual(TOOL_SPAN);
    expect(s.seen.map((x) => x.path)).toEqual([`/tempo/api/v2/traces/${TRACE}`, `/tempo/api/v2/traces/${TRACE}`, `/tempo/api/v2/traces/${TRACE}`]);
    expect(s.seen[0]!.headers.authorization).toBe('Bearer glc_token_1234');
    expect(c.slept).toEqual([100, 200]);
    expect(src.late(TRACE)).toBe(0);
  });

  it('a compressed answer (a proxy in front of the store) is decoded; a coding it cannot decode, or a body that is not its coding, is an error naming it', async () => {
    const v2 = JSON.stringify({ trace: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ scope: { name: 'agent' }, spans: tempoSpans(true) }] }] } });
    const answers: { coding: string; body: Buffer }[] = [
      { coding: 'gzip', body: gzipSync(v2) },
      { coding: 'br', body: brotliCompressSync(v2) },
      { coding: 'zstd', body: Buffer.from(v2) },
      { coding: 'gzip', body: Buffer.from('not gzip at all') },
    ];
    let n = 0;
    const server = createServer((_req, res) => {
      const a = answers[Math.min(n++, answers.length - 1)]!;
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': a.coding });
      res.end(a.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    for (const coding of ['gzip', 'br']) {
      const src = source({ kind: 'tempo', url, apiKey: null, waitMs: 5000 });
      src.register(TRACE, SENT);
      const got = await src.collect(TRACE, SENT);
      expect(got.complete, coding).toBe(true);
      expect(got.spans.map((x) => x.spanId), coding).toEqual([TOP, TOOL]);
    }
    const zstd = source({ kind: 'tempo', url, apiKey: null, waitMs: 5000 });
    zstd.register(TRACE, SENT);
    await expect(zstd.collect(TRACE, SENT)).rejects.toThrow(/tempo's answer to GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/traces\/\w+ is encoded as "zstd" \(its Content-Encoding\), which agent-replay cannot decode/);
    const broken = source({ kind: 'tempo', url, apiKey: null, waitMs: 5000 });
    broken.register(TRACE, SENT);
    await expect(broken.collect(TRACE, SENT)).rejects.toThrow(/says it is encoded as gzip, but it is not/);
    expect(n).toBe(4);
  });

  it('a Tempo without the v2 API is asked /api/traces/<id>: its {batches} form, older instrumentationLibrarySpans too', async () => {
    const v1 = JSON.stringify({ batches: [{ resource: RESOURCE, instrumentationLibrarySpans: [{ instrumentationLibrary: { name: 'agent' }, spans: tempoSpans(true) }] }] });
    const s = await store((path) => (path.startsWith('/api/v2/') ? [{ status: 404, body: '404 page not found\n' }] : [NOT_FOUND, { status: 200, body: v1 }]));
    const src = source({ kind: 'tempo', url: s.url, apiKey: 'user-1:password-2', waitMs: 5000 });
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(got.spans[1]).toEqual(TOOL_SPAN);
    expect(s.seen.map((x) => x.path)).toEqual([`/api/v2/traces/${TRACE}`, `/api/traces/${TRACE}`, `/api/traces/${TRACE}`]);
    // user:password is basic auth (Grafana Cloud's instance id and token).
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user-1:password-2').toString('base64')}`);
  });
});

describe('Tempo, as its source answers (grafana/tempo: modules/frontend/combiner, gorilla/mux)', () => {
  const whole = JSON.stringify({ trace: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(true) }] }] }, metrics: { inspectedBytes: '2048' } });
  // v2 answers a trace it has not indexed yet with 200 and an empty trace (trace_by_id_v2.go), not 404.
  const empty: Reply = { status: 200, body: '{"trace":{},"metrics":{"inspectedBytes":"0"}}' };

  it('v2: an empty trace is asked again until the trace is indexed; traces.query.headers go with every request (a tenant)', async () => {
    const s = await store(() => [empty, empty, { status: 200, body: whole }]);
    const c = clock();
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, headers: { 'X-Scope-OrgID': 'team-a' }, waitMs: 5000 }, c);
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(got.spans.map((x) => x.spanId)).toEqual([TOP, TOOL]);
    expect(c.slept).toEqual([100, 200]);
    expect(s.seen.map((x) => x.headers['x-scope-orgid'])).toEqual(['team-a', 'team-a', 'team-a']);
    expect(s.seen.every((x) => x.headers.accept === 'application/json' && x.headers.authorization === undefined)).toBe(true);
  });

  it('a multi-tenant Tempo asked without a tenant ("no org id") says which setting names it', async () => {
    const s = await store(() => [{ status: 401, body: 'no org id\n' }]);
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 5000 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `tempo answered HTTP 401 for GET ${s.url}/api/v2/traces/${TRACE}: this Tempo is multi-tenant: name the tenant with traces.query.headers: { X-Scope-OrgID: <tenant> }`,
    );
    expect(s.seen).toHaveLength(1);
  });

  it('v1: an empty 404 is a trace not indexed yet, asked again', async () => {
    const v1 = JSON.stringify({ batches: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(true) }] }] });
    const s = await store((path) => (path.startsWith('/api/v2/') ? [{ status: 404, body: '404 page not found\n' }] : [{ status: 404, body: '' }, { status: 404, body: '' }, { status: 200, body: v1 }]));
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 5000 });
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(s.seen.map((x) => x.path)).toEqual([`/api/v2/traces/${TRACE}`, `/api/traces/${TRACE}`, `/api/traces/${TRACE}`, `/api/traces/${TRACE}`]);
  });

  it('a URL that is not Tempo\u2019s API (both routes "404 page not found", or a gateway\u2019s HTML 404) is an error at once, not a trace never found', async () => {
    for (const page of ['404 page not found\n', '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>']) {
      const s = await store(() => [{ status: 404, body: page }]);
      const c = clock();
      const src = source({ kind: 'tempo', url: `${s.url}/grafana`, apiKey: null, waitMs: 5000 }, c);
      await expect(src.collect(TRACE, SENT)).rejects.toThrow(
        `tempo answered HTTP 404 (no such page, not a missing trace) for GET ${s.url}/grafana/api/v2/traces/${TRACE} and for GET ${s.url}/grafana/api/traces/${TRACE}: is traces.query.url Tempo's HTTP API address (with its http_api_prefix, if it has one)?`,
      );
      expect(s.seen.map((x) => x.path)).toEqual([`/grafana/api/v2/traces/${TRACE}`, `/grafana/api/traces/${TRACE}`]);
      expect(c.slept).toEqual([]);
    }
  });

  it('v2 "404 trace not found" (a Tempo that says so) and an empty 404 (an access policy) stay a trace not found: no switch to v1', async () => {
    for (const body of ['trace not found', '']) {
      const s = await store(() => [{ status: 404, body }]);
      const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 300 });
      expect(await src.collect(TRACE, SENT)).toEqual({ spans: [], complete: false });
      expect(new Set(s.seen.map((x) => x.path))).toEqual(new Set([`/api/v2/traces/${TRACE}`]));
    }
  });

  it('part of a trace (v2 status PARTIAL, v1 422) is an error with Tempo\u2019s reason: the calls it left out are unknown, never taken as not made', async () => {
    const partial = JSON.stringify({ trace: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(true).slice(0, 1) }] }] }, status: 'PARTIAL', message: 'Trace exceeds maximum size of 5000000 bytes, a partial trace is returned' });
    const s = await store(() => [{ status: 200, body: partial }]);
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 5000 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `tempo answered GET ${s.url}/api/v2/traces/${TRACE} with part of the trace (status PARTIAL: Trace exceeds maximum size of 5000000 bytes, a partial trace is returned), so the turn's tool calls are unknown: raise Tempo's max_bytes_per_trace, or turn off its span pruning for this trace`,
    );
    expect(s.seen).toHaveLength(1);
    const v1 = await store((path) => (path.startsWith('/api/v2/') ? [{ status: 404, body: '404 page not found\n' }] : [{ status: 422, body: 'trace exceeds max size' }]));
    const src1 = source({ kind: 'tempo', url: v1.url, apiKey: null, waitMs: 5000 });
    await expect(src1.collect(TRACE, SENT)).rejects.toThrow(
      `tempo answered HTTP 422 for GET ${v1.url}/api/traces/${TRACE} ("trace exceeds max size"): the trace is over Tempo's size limit (max_bytes_per_trace), so the turn's tool calls are unknown`,
    );
  });
});

describe('Jaeger', () => {
  it('asks /api/v3/traces/<id> (OTLP JSON under result: hex ids, enum numbers) after its "No traces found" 404s', async () => {
    const otlp = JSON.stringify({
      result: {
        resourceSpans: [
          {
            resource: RESOURCE,
            scopeSpans: [
              {
                scope: { name: 'agent' },
                spans: [
                  { traceId: TRACE, spanId: TOP, parentSpanId: SENT, name: 'POST /api/chat', kind: 2, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000002900000000', status: {} },
                  { ...TOOL_JSON, status: { code: 2, message: 'order service unavailable' } },
                ],
              },
            ],
          },
        ],
      },
    });
    const s = await store(() => [{ status: 404, body: '{"error":{"httpCode":404,"message":"No traces found"}}' }, { status: 200, body: otlp }]);
    const src = source({ kind: 'jaeger', url: s.url, apiKey: null, waitMs: 5000 });
    const got = await src.collect(TRACE, SENT);
    expect(got).toMatchObject({ complete: true });
    expect(got.spans[1]).toEqual(TOOL_SPAN);
    expect(s.seen.map((x) => x.path)).toEqual([`/api/v3/traces/${TRACE}`, `/api/v3/traces/${TRACE}`]);
    expect(s.seen[0]!.headers.authorization).toBeUndefined();
  });
});

const TOOL_JSON = {
  traceId: TRACE,
  spanId: TOOL,
  parentSpanId: TOP,
  name: 'execute_tool lookup_order',
  kind: 1,
  startTimeUnixNano: '1700000000500000000',
  endTimeUnixNano: '1700000002400000000',
  attributes: [
    { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
    { key: 'gen_ai.tool.name', value: { stringValue: 'lookup_order' } },
    { key: 'retries', value: { intValue: '2' } },
  ],
};

describe('Langfuse', () => {
  const KEY = 'pk-lf-1234:sk-lf-5678';
  const trace = {
    id: TRACE,
    timestamp: '2023-11-14T22:13:20.000Z',
    name: 'POST /api/chat',
    htmlPath: `/project/p1/traces/${TRACE}`,
    latency: 2.9,
    totalCost: 0.0001,
    scores: [],
    observations: [
      { id: TOP, traceId: TRACE, type: 'AGENT', name: 'POST /api/chat', startTime: '2023-11-14T22:13:20.000Z', endTime: '2023-11-14T22:13:22.900Z', level: 'DEFAULT', statusMessage: null, parentObservationId: SENT, metadata: { resourceAttributes: { 'service.name': 'support-agent' } } },
      {
        id: 'c0ffee00c0ffee00',
        traceId: TRACE,
        type: 'GENERATION',
        name: 'chat gpt-4o-mini',
        startTime: '2023-11-14T22:13:20.010Z',
        endTime: '2023-11-14T22:13:20.450Z',
        model: 'gpt-4o-mini',
        level: 'DEFAULT',
        statusMessage: null,
        parentObservationId: TOP,
        usage: { input: 1, output: 1, total: 2, unit: 'TOKENS' },
        usageDetails: { input: 120, output: 30, total: 150 },
        // Langfuse keeps metadata as text in places: read back either way.
        metadata: JSON.stringify({ attributes: { 'gen_ai.system': 'openai' }, resourceAttributes: { 'service.name': 'support-agent' } }),
      },
      {
        id: TOOL,
        traceId: TRACE,
        type: 'TOOL',
        name: 'lookup_order',
        startTime: '2023-11-14T22:13:20.500Z',
        endTime: '2023-11-14T22:13:22.400Z',
        level: 'ERROR',
        statusMessage: 'order service unavailable',
        parentObservationId: TOP,
        input: { orderId: 'A1' },
        output: null,
        metadata: {},
      },
    ],
  };

  it('Langfuse v4 (and Cloud): /api/public/v2/observations page by page; no data until stored; flattened metadata and text input read as v1\u2019s', async () => {
    // As langfuse/langfuse writes them: {data, meta: {cursor}} (web/src/pages/api/public/v2/observations),
    // OTel attributes flattened into "attributes.<key>" (packages/shared/src/server/otel/utils.ts), input and output as text.
    const page1 = {
      data: [
        { id: TOOL, traceId: TRACE, type: 'TOOL', name: 'lookup_order', startTime: '2023-11-14T22:13:20.500Z', endTime: '2023-11-14T22:13:22.400Z', level: 'ERROR', statusMessage: 'order service unavailable', parentObservationId: TOP, input: '{"orderId":"A1"}', output: null, metadata: { 'attributes.gen_ai.tool.call.id': 'call_1', 'resourceAttributes.service.name': 'support-agent' } },
      ],
      meta: { cursor: 'eyJsYXN0IjoxfQ==' },
    };
    const page2 = {
      data: [
        { id: 'c0ffee00c0ffee00', traceId: TRACE, type: 'GENERATION', name: 'chat gpt-4o-mini', startTime: '2023-11-14T22:13:20.010Z', endTime: '2023-11-14T22:13:20.450Z', level: 'DEFAULT', statusMessage: null, parentObservationId: TOP, model: 'gpt-4o-mini', usageDetails: { input: 120, output: 30, total: 150 }, metadata: { 'attributes.gen_ai.usage.input_tokens': '120', 'attributes.gen_ai.system': 'openai' } },
        { id: TOP, traceId: TRACE, type: 'AGENT', name: 'POST /api/chat', startTime: '2023-11-14T22:13:20.000Z', endTime: '2023-11-14T22:13:22.900Z', level: 'DEFAULT', parentObservationId: SENT, metadata: { attributes: { 'http.route': '/api/chat' } } },
      ],
      meta: {},
    };
    let calls = 0;
    const s = await store((path) => {
      if (!path.startsWith('/api/public/v2/observations')) return [{ status: 500, body: 'unexpected' }];
      if (path.includes('cursor=')) return [{ status: 200, body: JSON.stringify(page2) }];
      calls++;
      return calls === 1 ? [{ status: 200, body: '{"data":[],"meta":{}}' }] : [{ status: 200, body: '{"data":[],"meta":{}}' }, { status: 200, body: JSON.stringify(page1) }];
    });
    const c = clock();
    const src = source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 }, c);
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(s.seen.map((x) => x.path)).toEqual([V2_PATH, V2_PATH, `${V2_PATH}&cursor=eyJsYXN0IjoxfQ%3D%3D`]);
    expect(c.slept).toEqual([100]);
    expect(got.spans.map((x) => [x.spanId, x.name, x.service])).toEqual([
      [TOP, 'POST /api/chat', null],
      ['c0ffee00c0ffee00', 'chat gpt-4o-mini', null],
      [TOOL, 'lookup_order', 'support-agent'],
    ]);
    expect(got.spans[0]!.attributes).toEqual({ 'http.route': '/api/chat', 'langfuse.observation.type': 'AGENT' });
    expect(got.spans[1]!.attributes).toEqual({ 'gen_ai.usage.input_tokens': 120, 'gen_ai.system': 'openai', 'langfuse.observation.type': 'GENERATION', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.output_tokens': 30 });
    expect(got.spans[2]).toMatchObject({ status: 'error', statusMessage: 'order service unavailable', attributes: { 'gen_ai.tool.call.id': 'call_1', 'langfuse.observation.type': 'TOOL', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.arguments': '{"orderId":"A1"}' } });
  });

  it('Langfuse: an AI SDK tool observation (named "ai.toolCall", as its span) is a call of the tool its span names, as the receiver reads it', async () => {
    // Langfuse names an observation after its span and types an AI SDK ai.toolCall span TOOL
    // (packages/shared/src/server/otel/ObservationTypeMapper.ts); the span's attributes keep the tool's name.
    const page = {
      data: [
        { id: TOP, traceId: TRACE, type: 'SPAN', name: 'ai.generateText', startTime: '2023-11-14T22:13:20.000Z', endTime: '2023-11-14T22:13:22.900Z', level: 'DEFAULT', parentObservationId: SENT, metadata: { 'attributes.ai.operationId': 'ai.generateText' } },
        {
          id: TOOL, traceId: TRACE, type: 'TOOL', name: 'ai.toolCall', startTime: '2023-11-14T22:13:20.500Z', endTime: '2023-11-14T22:13:22.400Z', level: 'DEFAULT', parentObservationId: TOP,
          input: '{"orderId":"A1"}', output: '{"status":"shipped"}',
          metadata: { 'attributes.ai.operationId': 'ai.toolCall', 'attributes.ai.toolCall.name': 'lookup_order', 'attributes.ai.toolCall.args': '{"orderId":"A1"}', 'attributes.ai.toolCall.result': '{"status":"shipped"}' },
        },
      ],
      meta: {},
    };
    const s = await store(() => [{ status: 200, body: JSON.stringify(page) }]);
    const got = await source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 }).collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    const reading = readTurnSpans(got.spans, { traceId: TRACE, latencyMs: 3000 }, { toolCalls: null, usage: null });
    expect(reading.toolCalls).toEqual([{ tool: 'lookup_order', input: { orderId: 'A1' }, output: { status: 'shipped' }, mocked: false, source: 'trace' }]);
    expect(reading.time?.tools).toEqual({ lookup_order: 1900 });
  });

  it('Langfuse: attributes named like an object\u2019s own machinery (constructor, toString, __proto__) are kept, nested or flattened', async () => {
    const observation = {
      id: TOP,
      traceId: TRACE,
      type: 'SPAN',
      name: 'work',
      startTime: '2023-11-14T22:13:20.000Z',
      endTime: '2023-11-14T22:13:21.000Z',
      parentObservationId: SENT,
      // As the agent's spans and Langfuse's JSON give them: `__proto__` an own key of the parsed text.
      metadata: JSON.parse('{"attributes": {"__proto__": "p"}, "attributes.constructor": "c", "attributes.toString": "t"}') as unknown,
    };
    const s = await store(() => [{ status: 200, body: JSON.stringify({ data: [observation], meta: {} }) }]);
    const got = await source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 }, clock()).collect(TRACE, SENT);
    expect(Object.entries(got.spans[0]!.attributes)).toEqual([['__proto__', 'p'], ['constructor', 'c'], ['toString', 't'], ['langfuse.observation.type', 'SPAN']]);
  });

  it('Langfuse: a tool input or an attribute nesting 100,000 levels reads as a text saying so, its observation kept', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const observation = `{"id": "${TOP}", "traceId": "${TRACE}", "type": "TOOL", "name": "lookup", "startTime": "2023-11-14T22:13:20.000Z", "endTime": "2023-11-14T22:13:21.000Z", "parentObservationId": "${SENT}", "input": ${deep}, "metadata": {"attributes": {"k": ${deep}}}}`;
    const s = await store(() => [{ status: 200, body: `{"data": [${observation}], "meta": {}}` }]);
    const got = await source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 }, clock()).collect(TRACE, SENT);
    expect(got.spans[0]!.attributes).toMatchObject({ k: '(not read: nests deeper than 256 levels of lists and maps)', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.arguments': '(not read: nests deeper than 256 levels of lists and maps)' });
  });

  it('Langfuse: a page of 130,000 observations (a store that ignores the limit asked for) is read, with no RangeError', async () => {
    const one = (i: number): string => `{"id":"${i.toString(16).padStart(16, '0')}","startTime":"2023-11-14T22:13:20.000Z","parentObservationId":"${SENT}"}`;
    const body = `{"data":[${Array.from({ length: 130_000 }, (_, i) => one(i + 1)).join(',')}],"meta":{}}`;
    const s = await store(() => [{ status: 200, body }]);
    const got = await source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 }, clock()).collect(TRACE, SENT);
    expect(got.spans).toHaveLength(130_000);
  });

  it('a Langfuse without the v2 API (before v4) is asked /api/public/traces/<id> with basic auth from public:secret; observations become spans', async () => {
    const s = await store((path) => (path.startsWith('/api/public/v2/') ? [V2_GATED] : [{ status: 404, body: '{"message":"Trace not found"}' }, { status: 200, body: JSON.stringify(trace) }]));
    const src = source({ kind: 'langfuse', url: s.url, apiKey: KEY, waitMs: 30_000 });
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(s.seen.map((x) => x.path)).toEqual([V2_PATH, `/api/public/traces/${TRACE}`, `/api/public/traces/${TRACE}`]);
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(KEY).toString('base64')}`);
    expect(got.spans).toEqual([
      { traceId: TRACE, spanId: TOP, parentSpanId: SENT, name: 'POST /api/chat', startMs: 1_700_000_000_000, endMs: 1_700_000_002_900, status: 'unset', statusMessage: null, attributes: { 'langfuse.observation.type': 'AGENT' }, service: 'support-agent' },
      {
        traceId: TRACE,
        spanId: 'c0ffee00c0ffee00',
        parentSpanId: TOP,
        name: 'chat gpt-4o-mini',
        startMs: 1_700_000_000_010,
        endMs: 1_700_000_000_450,
        status: 'unset',
        statusMessage: null,
        attributes: { 'gen_ai.system': 'openai', 'langfuse.observation.type': 'GENERATION', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 30 },
        service: 'support-agent',
      },
      {
        traceId: TRACE,
        spanId: TOOL,
        parentSpanId: TOP,
        name: 'lookup_order',
        startMs: 1_700_000_000_500,
        endMs: 1_700_000_002_400,
        status: 'error',
        statusMessage: 'order service unavailable',
        attributes: { 'langfuse.observation.type': 'TOOL', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.call.arguments': '{"orderId":"A1"}' },
        service: null,
      },
    ]);
  });
});

describe('Jaeger and Langfuse, as their sources answer (jaegertracing/jaeger apiv3/http_gateway.go; langfuse/langfuse withMiddlewares.ts)', () => {
  it('a 404 that is no route (Jaeger 2.16+ "404 page not found", an HTML page) is an error at once naming the address to check', async () => {
    for (const page of ['404 page not found\n', '<!doctype html><title>Not Found</title>']) {
      const s = await store(() => [{ status: 404, body: page }]);
      const c = clock();
      const src = source({ kind: 'jaeger', url: `${s.url}/jaeger`, apiKey: null, waitMs: 5000 }, c);
      await expect(src.collect(TRACE, SENT)).rejects.toThrow(
        `jaeger answered HTTP 404 (no such page, not a missing trace) for GET ${s.url}/jaeger/api/v3/traces/${TRACE}: is traces.query.url Jaeger's query address (port 16686, with its base path, if it has one)?`,
      );
      expect(s.seen).toHaveLength(1);
      expect(c.slept).toEqual([]);
    }
  });

  it('Langfuse: LangfuseNotFoundError is a trace not stored yet, asked again; a 404 with another error (an events_only deployment) is an error with its message', async () => {
    const notYet: Reply = { status: 404, body: JSON.stringify({ message: `Trace ${TRACE} not found within authorized project`, error: 'LangfuseNotFoundError' }) };
    const s = await store((path) => (path.startsWith('/api/public/v2/') ? [V2_GATED] : [notYet]));
    const src = source({ kind: 'langfuse', url: s.url, apiKey: 'pk:sk', waitMs: 300 });
    expect(await src.collect(TRACE, SENT)).toEqual({ spans: [], complete: false });
    expect(s.seen.map((x) => x.path)).toEqual([V2_PATH, ...Array.from({ length: 3 }, () => `/api/public/traces/${TRACE}`)]);
    const message = 'This endpoint is not available on deployments running in Langfuse v4 events_only mode. Learn more about Langfuse v4 at: https://langfuse.com/docs/v4';
    const off = await store((path) => (path.startsWith('/api/public/v2/') ? [V2_GATED] : [{ status: 404, body: JSON.stringify({ message, error: 'NotFoundError' }) }]));
    const src2 = source({ kind: 'langfuse', url: off.url, apiKey: 'pk:sk', waitMs: 5000 });
    await expect(src2.collect(TRACE, SENT)).rejects.toThrow(`langfuse answered HTTP 404 for GET ${off.url}/api/public/traces/${TRACE}: "${message}"`);
    expect(off.seen).toHaveLength(2);
  });

  it('Langfuse: 422 "Request timed out" (its database gave up) is asked again; another 422 is an error', async () => {
    const timedOut: Reply = { status: 422, body: JSON.stringify({ message: 'Request timed out', error: 'ApiError' }) };
    const s = await store(() => [timedOut]);
    const src = source({ kind: 'langfuse', url: s.url, apiKey: 'pk:sk', waitMs: 300 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(`langfuse answered HTTP 422 for GET ${s.url}/api/public/v2/observations ("Request timed out"), until traces.waitMs (300 ms) passed`);
    expect(s.seen).toHaveLength(3);
    const big = await store(() => [{ status: 422, body: JSON.stringify({ message: 'Payload too large', error: 'PayloadTooLargeError' }) }]);
    const src2 = source({ kind: 'langfuse', url: big.url, apiKey: 'pk:sk', waitMs: 300 });
    await expect(src2.collect(TRACE, SENT)).rejects.toThrow(`langfuse answered HTTP 422 for GET ${big.url}/api/public/v2/observations`);
    expect(big.seen).toHaveLength(1);
  });

  it('a 429 with Retry-After is asked again no sooner than it says (Langfuse Cloud: 15 requests a minute on its smallest plan)', async () => {
    const whole = JSON.stringify({ result: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(true) }] }] } });
    const seen: number[] = [];
    const server = createServer((req, res) => {
      seen.push(seen.length);
      if (seen.length === 1) {
        res.writeHead(429, { 'retry-after': '3', 'content-type': 'text/plain' });
        res.end('Too Many Requests');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(whole);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const c = clock();
    const src = source({ kind: 'jaeger', url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, apiKey: null, waitMs: 10_000 }, c);
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(true);
    expect(c.slept).toEqual([3000]);
  });
  // A Retry-After date is a time of the store's clock: read against its answer's Date, not ours (a
  // clock of ours far behind the store's waited the minute's cap for a 3 s Retry-After).
  it("a 429's Retry-After date is read against the answer's Date, the store's now, not the runner's clock", async () => {
    const whole = JSON.stringify({ result: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(true) }] }] } });
    let n = 0;
    const server = createServer((req, res) => {
      if (++n === 1) {
        res.writeHead(429, { date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT', 'content-type': 'text/plain' });
        res.end('Too Many Requests');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(whole);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const c = clock(); // 1970: far behind the store's 2026
    const src = source({ kind: 'jaeger', url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, apiKey: null, waitMs: 10_000 }, c);
    expect((await src.collect(TRACE, SENT)).complete).toBe(true);
    expect(c.slept).toEqual([3000]);
  });
});

describe('waiting and failing', () => {
  it('a store that takes the connection and never finishes the TLS handshake: the request and closing the client end at the connect timeout, not undici\'s 10 s', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${String((silent.address() as AddressInfo).port)}`;
    // By default the shorter of 10 s and waitMs with its second; shorter here, so that the test waits for little.
    // A clock past waitMs at its second reading: one request, then the failure.
    let t = 0;
    const late: PollClock = { now: () => (t += 2500), sleep: () => Promise.resolve() };
    const src = createQuerySource({ kind: 'tempo', url, apiKey: null, waitMs: 2000, clock: late, connectTimeoutMs: 100 });
    // The request ends at the connect timeout: its words are the connect timeout's (100 ms), which a
    // loaded machine can only make late, never the cut-off's (waitMs and its second, 3 s: the timeout
    // given no connectTimeoutMs) nor undici's 10 s.
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `GET ${url}/api/v2/traces/${TRACE} failed: no connection to the store opened within 100 ms (the connect timeout, UND_ERR_CONNECT_TIMEOUT), until traces.waitMs (2,000 ms) passed`,
    );
    // Closing then waits for nothing: a connection still opening would hold it until undici's 10 s
    // (as it did before the connect timeout was bounded). Half of that: far past what a loaded machine
    // takes to close a client with nothing in flight.
    const closing = performance.now();
    await src.close();
    expect(performance.now() - closing).toBeLessThan(5_000);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a trace never found: at waitMs no spans, incomplete; the sleeps add up to waitMs', async () => {
    const s = await store(() => [NOT_FOUND]);
    const c = clock();
    const src = source({ kind: 'jaeger', url: s.url, apiKey: null, waitMs: 2000 }, c);
    expect(await src.collect(TRACE, SENT)).toEqual({ spans: [], complete: false });
    expect(c.slept).toEqual([100, 200, 400, 800, 500]);
    expect(s.seen).toHaveLength(6);
  });

  it('a trace without the span under the sent span is asked again; at waitMs its spans are handed over, incomplete', async () => {
    const partial = JSON.stringify({ trace: { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ spans: tempoSpans(false) }] }] } });
    const s = await store(() => [{ status: 200, body: partial }]);
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 300 });
    const got = await src.collect(TRACE, SENT);
    expect(got.complete).toBe(false);
    expect(got.spans).toEqual([TOOL_SPAN]);
    expect(s.seen).toHaveLength(3);
  });

  it('a refused key is an error at once, naming the URL without user or password and the status, never the key', async () => {
    const s = await store(() => [{ status: 401, body: '{"message":"Invalid credentials"}' }]);
    const url = s.url.replace('http://', 'http://admin:pw-9999@');
    const src = source({ kind: 'langfuse', url, apiKey: 'pk-lf-1:sk-lf-secret-2', waitMs: 5000 });
    const error = await src.collect(TRACE, SENT).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TraceStoreError);
    expect((error as Error).message).toBe(`langfuse answered HTTP 401 for GET ${s.url}/api/public/v2/observations: check traces.query.apiKey ("public:secret" of the project the agent sends its traces to)`);
    expect((error as Error).message).not.toMatch(/secret-2|pw-9999/);
    expect(s.seen).toHaveLength(1);
  });

  it('an https:// URL to a port that speaks plain HTTP: said as the agent\'s client says it, with the scheme to write, and not asked again until waitMs', async () => {
    const s = await store(() => [NOT_FOUND]);
    const url = s.url.replace('http://', 'https://');
    const c = clock();
    const error = await source({ kind: 'tempo', url, apiKey: null, waitMs: 60_000 }, c).collect(TRACE, SENT).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TraceStoreError);
    expect((error as Error).message).toBe(
      `GET ${url}/api/v2/traces/${TRACE} failed: the store answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER); the server speaks plain HTTP at that address, not HTTPS: write the URL with http:// in traces.query.url`,
    );
    // Stopped at once: no wait, and the store never read a request (its TLS handshake was plain HTTP's 400).
    expect(c.slept).toEqual([]);
    expect(s.seen).toEqual([]);
  });

  it('a password holding "@" is not shown either: the user and password end at the last "@" before the host, as URLs read them', async () => {
    const s = await store(() => [{ status: 401, body: '{"message":"Invalid credentials"}' }]);
    const url = s.url.replace('http://', 'http://admin:p@ss-9999@');
    const error = await source({ kind: 'tempo', url, apiKey: null, waitMs: 5000 }).collect(TRACE, SENT).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TraceStoreError);
    expect((error as Error).message).toContain(`for GET ${s.url}/api/v2/traces/${TRACE}`);
    expect((error as Error).message).not.toMatch(/ss-9999|admin/);
  });

  it('a store failing until waitMs is an error with its last status; a failure then a 404 is a turn without spans', async () => {
    const down = await store(() => [{ status: 503, body: 'unavailable' }]);
    const src = source({ kind: 'jaeger', url: down.url, apiKey: null, waitMs: 300 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(`jaeger answered HTTP 503 for GET ${down.url}/api/v3/traces/${TRACE}, until traces.waitMs (300 ms) passed`);
    const flaky = await store(() => [{ status: 503, body: 'unavailable' }, NOT_FOUND]);
    const src2 = source({ kind: 'jaeger', url: flaky.url, apiKey: null, waitMs: 300 });
    expect(await src2.collect(TRACE, SENT)).toEqual({ spans: [], complete: false });
  });

  it('a store behind a proxy that cannot be reached names the proxy and its variable, as the agent client does, never its credentials', async () => {
    const port = await closedPort();
    const network = await networkFrom({ HTTPS_PROXY: `http://user:pw-5555@127.0.0.1:${port}` });
    const src = source({ kind: 'tempo', url: 'https://tempo.example', apiKey: null, waitMs: 300, network });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `GET https://tempo.example/api/v2/traces/${TRACE} failed: could not reach the proxy http://127.0.0.1:${port} (HTTPS_PROXY): connection refused at 127.0.0.1:${port} (ECONNREFUSED); check HTTPS_PROXY, or NO_PROXY for hosts to reach directly, until traces.waitMs (300 ms) passed`,
    );
  });

  it('a store at localhost with both loopback families closed names the refusal (an AggregateError, whose own message is empty)', async () => {
    const port = await closedPort();
    const src = source({ kind: 'jaeger', url: `http://localhost:${port}`, apiKey: null, waitMs: 300 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(`GET http://localhost:${port}/api/v3/traces/${TRACE} failed: connection refused at 127.0.0.1:${port} (ECONNREFUSED); check traces.query.url and that the store is running, until traces.waitMs (300 ms) passed`);
  });

  it("a store's other failures are said in our words, never undici's or Node's message: an answer that broke off, one that is not HTTP", async () => {
    // Answers 200 and closes before the end of its body: reached, and answering; not "closed without an answer".
    const broke = createNetServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"trace":')));
    // Answers with something else than HTTP.
    const garbage = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    const ports: string[] = [];
    for (const server of [broke, garbage]) {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      ports.push(String((server.address() as AddressInfo).port));
    }
    try {
      const a = source({ kind: 'tempo', url: `http://127.0.0.1:${ports[0]}`, apiKey: null, waitMs: 100 });
      await expect(a.collect(TRACE, SENT)).rejects.toThrow(
        `GET http://127.0.0.1:${ports[0]}/api/v2/traces/${TRACE} failed: the store's answer (HTTP 200) broke off before its end: the connection was closed (UND_ERR_SOCKET), until traces.waitMs (100 ms) passed`,
      );
      const b = source({ kind: 'tempo', url: `http://127.0.0.1:${ports[1]}`, apiKey: null, waitMs: 100 });
      await expect(b.collect(TRACE, SENT)).rejects.toThrow(`GET http://127.0.0.1:${ports[1]}/api/v2/traces/${TRACE} failed: an answer that is not valid HTTP, until traces.waitMs (100 ms) passed`);
    } finally {
      for (const server of [broke, garbage]) await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an answer that is not a trace names the setting to check', async () => {
    const s = await store(() => [{ status: 200, body: '<html>login</html>' }]);
    const src = source({ kind: 'tempo', url: s.url, apiKey: null, waitMs: 300 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(`tempo answered GET ${s.url}/api/v2/traces/${TRACE} with HTTP 200 but not JSON: is traces.query.url the store's API address?`);
    const lf = await store(() => [{ status: 200, body: '{"items": []}' }]);
    const src2 = source({ kind: 'langfuse', url: lf.url, apiKey: 'a:b', waitMs: 300 });
    await expect(src2.collect(TRACE, SENT)).rejects.toThrow(/with JSON that is not a trace \(not Langfuse observations: expected an object with data\): is traces.query.kind right\?/);
  });
});

describe('a store that answers slowly', () => {
  // Before, a body sent a byte at a time kept the turn waiting without end (undici's body timeout
  // bounds only the gap between bytes): the test's own timeout is the failure.
  it('a body that never ends is cut off a second after traces.waitMs, and said so: the answer did not end', { timeout: 8_000 }, async () => {
    const sockets = new Set<NodeJS.Timeout>();
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"trace":');
      const drip = setInterval(() => res.write(' '), 100);
      sockets.add(drip);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    // The cut-off fired once the client has the body's first byte (its status kept), not a real 250 ms
    // that a loaded machine could let pass before the headers came ("no answer" then).
    const cut = heldTimeout();
    const src = createQuerySource({ kind: 'tempo', url, apiKey: null, waitMs: 200, graceMs: 50, timer: cut.timer, network: bodyBegun(cut.fire) });
    sources.push(src);
    // Nothing answered before the cut-off: the store's failure, with how far the request got, not a turn without spans.
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `GET ${url}/api/v2/traces/${TRACE} failed: the store's answer (HTTP 200) did not end within traces.waitMs (200 ms) and 50 ms more (the cut-off of each request)`,
    );
    for (const t of sockets) clearInterval(t);
  });

  // With traces.waitMs of 9 s or more, undici's 10 s between two bytes of a body comes before the
  // cut-off (waitMs and its second): its own words ("Body Timeout Error") were shown. Here 100 ms.
  it("a body that stops before its end for undici's body timeout is said in the same words as a cut-off: the answer did not end", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"trace":');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    // The cut-off far past the body timeout; the poll clock passes waitMs at the first pause.
    const src = source({ kind: 'tempo', url, apiKey: null, waitMs: 100, graceMs: 60_000, requestTimeoutMs: 100 });
    await expect(src.collect(TRACE, SENT)).rejects.toThrow(
      `GET ${url}/api/v2/traces/${TRACE} failed: the store's answer (HTTP 200) did not end: nothing more of it came within 100 ms (the wait between its bytes, UND_ERR_BODY_TIMEOUT), until traces.waitMs (100 ms) passed`,
    );
    server.closeAllConnections();
  });

  it('a store cut off before it answered names the step, in the agent client\'s words: no connection opened, or no answer', async () => {
    // Takes the TCP connection and says nothing: https:// never finishes its TLS handshake, http:// is never answered.
    // The cut-off fired once the store has the client's first bytes (its TLS hello, its request), not a
    // real 100 ms that a loaded machine could let pass before the connection opened ("no connection" for http:// too).
    const cut = heldTimeout();
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => {
      sockets.push(socket);
      socket.once('data', cut.fire);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = String((silent.address() as AddressInfo).port);
    try {
      // A connect timeout far past the cut-off: the cut-off is what ends the request.
      const tls = createQuerySource({ kind: 'tempo', url: `https://127.0.0.1:${port}`, apiKey: null, waitMs: 50, graceMs: 50, connectTimeoutMs: 60_000, clock: clock(), timer: cut.timer });
      sources.push(tls);
      await expect(tls.collect(TRACE, SENT)).rejects.toThrow(
        `GET https://127.0.0.1:${port}/api/v2/traces/${TRACE} failed: no connection to the store opened within traces.waitMs (50 ms) and 50 ms more (the cut-off of each request)`,
      );
      const plain = createQuerySource({ kind: 'jaeger', url: `http://127.0.0.1:${port}`, apiKey: null, waitMs: 50, graceMs: 50, connectTimeoutMs: 60_000, clock: clock(), timer: cut.timer });
      sources.push(plain);
      await expect(plain.collect(TRACE, SENT)).rejects.toThrow(
        `GET http://127.0.0.1:${port}/api/v3/traces/${TRACE} failed: no answer from the store within traces.waitMs (50 ms) and 50 ms more (the cut-off of each request)`,
      );
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
