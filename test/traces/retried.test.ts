// A retried turn's spans (docs/traces.md, "Retried requests"): each attempt of a turn sends its own
// parent span id in the turn's trace, and the turn reads only the spans under the attempt that
// answered, its waterfall timed from that attempt's send. Checked with a real loopback agent that
// exports OTLP/JSON spans for each attempt before it answers (or fails), to the real receiver, and
// to a local store that answers Tempo's API for a whole run. Every clock is injected: the agent
// stamps its spans on the same virtual wall clock the span reader and the client's backoff use.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, observeTurns } from '../../src/agent/index.js';
import { parseTraceparent } from '../../src/agent/trace-context.js';
import { defaultConfig, type AgentConfig } from '../../src/config.js';
import { runCheck } from '../../src/engine.js';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import { traceObserver } from '../../src/traces/index.js';
import { startReceiver, type Timers } from '../../src/traces/receiver.js';
import type { AgentClient, Clock, SessionTurn } from '../../src/types.js';
import { startAgentServer, type AgentHandler, type AgentServer, type ReceivedRequest } from '../support/agent-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const T0 = 1_700_000_000_000;

/** The virtual wall clock: the client's backoff sleeps advance it; the agent stamps its spans with it. */
function wallClock(): Clock & { ms: number; pass(ms: number): void } {
  const wall = {
    ms: T0,
    now: () => wall.ms,
    pass: (ms: number) => {
      wall.ms += ms;
    },
    sleep: async (ms: number) => {
      wall.ms += ms;
    },
  };
  return wall;
}

interface SpanSpec {
  id: string;
  parent: string | null;
  name: string;
  /** Ms after the attempt arrived. */
  from: number;
  to: number;
  tool?: string;
}

const attr = (key: string, value: string): unknown => ({ key, value: { stringValue: value } });
const nanos = (ms: number): string => (BigInt(Math.round(ms)) * 1_000_000n).toString();

/** OTLP/JSON resourceSpans of one attempt's spans, in trace `traceId`, timed from `atMs`. */
function otlp(traceId: string, atMs: number, spans: SpanSpec[]): { resourceSpans: unknown[] } {
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'shop')] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: spans.map((s) => ({
              traceId,
              spanId: s.id,
              ...(s.parent === null ? {} : { parentSpanId: s.parent }),
              name: s.name,
              startTimeUnixNano: nanos(atMs + s.from),
              endTimeUnixNano: nanos(atMs + s.to),
              attributes: s.tool === undefined ? [] : [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', s.tool), attr('gen_ai.tool.call.arguments', '{"orderId":"1234"}')],
              status: {},
            })),
          },
        ],
      },
    ],
  };
}

/** One attempt's work as the agent exports it: its server span under the sent span id and a tool span under that, or (`crashed`) the tool span alone, its server span never ended. */
function attemptSpans(sentSpanId: string, n: number, tool: string, opts: { crashed?: boolean; roots?: boolean } = {}): SpanSpec[] {
  const server = `${String(n).padStart(2, '0')}${'a'.repeat(14)}`;
  const toolSpan: SpanSpec = { id: `${String(n).padStart(2, '0')}${'b'.repeat(14)}`, parent: opts.roots === true ? null : server, name: `execute_tool ${tool}`, from: 10, to: 60, tool };
  if (opts.crashed === true) return [toolSpan];
  return [{ id: server, parent: opts.roots === true ? null : sentSpanId, name: 'POST /chat', from: 2, to: 90 }, toolSpan];
}

type Exporter = (traceId: string, body: { resourceSpans: unknown[] }) => Promise<void>;

/**
 * The agent: the first attempt of each message exports a span of `issue_refund` (the failed
 * attempt's tool call) and then fails as `failure` says; the next attempt exports `lookup_order` and
 * answers. A message "hold" waits for `hold` before it answers; a welcome turn answers at once.
 */
function flakyAgent(wall: { now(): number; pass?(ms: number): void }, exportSpans: Exporter, failure: 'http 503' | 'reset' | 'none', opts: { crashed?: boolean; roots?: boolean; hold?: Promise<void>; arrived?: () => void } = {}): AgentHandler {
  const seen = new Map<string, number>();
  return async (req: ReceivedRequest) => {
    const sent = parseTraceparent(String(req.headers.traceparent));
    if (sent === null) throw new Error('no traceparent');
    const body = req.json as { message?: string; start?: boolean };
    // A welcome turn (a run's fixture has one) answers at once.
    if (body.start === true) return { json: { reply: 'Welcome!' } };
    const message = String(body.message);
    const attempt = (seen.get(message) ?? 0) + 1;
    seen.set(message, attempt);
    const failing = failure !== 'none' && attempt === 1;
    const spans = attemptSpans(sent.spanId, req.index + 1, failing ? 'issue_refund' : 'lookup_order', { crashed: failing && opts.crashed === true, roots: opts.roots === true });
    await exportSpans(sent.traceId, otlp(sent.traceId, wall.now(), spans));
    if (message === 'hold') {
      opts.arrived?.();
      await opts.hold;
    }
    if (failing) return failure === 'reset' ? 'destroy' : { status: 503, headers: { 'retry-after': '2' }, json: { error: 'busy' } };
    // The answer takes 100 ms; it reports no tool calls (an agent that answers with text alone).
    wall.pass?.(100);
    return { json: { reply: 'Order 1234 is on its way.' } };
  };
}

async function serve(handler: AgentHandler): Promise<AgentServer> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  return server;
}

/** The agent client, its spans read from a real receiver on 127.0.0.1, as a run wires them (engine.ts). */
async function tracedClient(
  wall: ReturnType<typeof wallClock>,
  agent: (exportSpans: Exporter) => AgentHandler,
  opts: { config?: Partial<AgentConfig>; limiter?: AdaptiveLimiter; timers?: Timers } = {},
): Promise<{ client: AgentClient; server: AgentServer }> {
  const { config = {}, limiter, timers } = opts;
  const receiver = await startReceiver({ port: 0, waitMs: 2000, ...(timers === undefined ? {} : { timers }) });
  cleanups.push(() => receiver.close());
  const exportSpans: Exporter = async (_traceId, body) => {
    const res = await fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
  };
  const server = await serve(agent(exportSpans));
  const observer = traceObserver(receiver, { endpoint: `${receiver.endpoint}/v1/traces`, receiving: true, waitMs: 2000, now: wall.now });
  const raw = createHttpAgentClient(
    { ...defaultConfig().agent, url: server.url, start: null, retries: 1, backoffMs: 1000, ...config },
    { clock: wall, random: () => 0.5, onTraceSent: (trace) => observer.beforeSend(trace), ...(limiter === undefined ? {} : { limiter }) },
  );
  cleanups.push(() => raw.close());
  return { client: observeTurns(raw, observer), server };
}

const replied = (turn: SessionTurn): SessionTurn & { kind: 'replied' } => {
  if (turn.kind !== 'replied') throw new Error(`expected a reply, got ${JSON.stringify(turn)}`);
  return turn;
};

/** The answered attempt's spans, as the record keeps them: the server span 2 ms and its tool 10 ms after that attempt was sent. */
const ANSWERED_WATERFALL = [
  { name: 'POST /chat', kind: 'other', tool: null, startMs: 2, durationMs: 88, depth: 0, status: 'unset' },
  { name: 'execute_tool lookup_order', kind: 'tool', tool: 'lookup_order', startMs: 10, durationMs: 50, depth: 1, status: 'unset' },
];

describe('a retried turn reads what its answered attempt did (receiver)', () => {
  it("a 503 after the first attempt called a tool: the turn holds the second attempt's tool alone, its waterfall timed from that attempt's send", async () => {
    const wall = wallClock();
    const { client, server } = await tracedClient(wall, (exportSpans) => flakyAgent(wall, exportSpans, 'http 503'));
    const turn = replied(await client.session({ session: 'S', persona: null, mocks: [] }).send('Where is order 1234?', 1));
    // Two attempts in one trace, each under its own parent span id; the turn keeps the answered one's.
    const sent = server.requests.map((r) => parseTraceparent(String(r.headers.traceparent)));
    expect(sent).toHaveLength(2);
    expect(sent[1]?.traceId).toBe(sent[0]?.traceId);
    expect(sent[1]?.spanId).not.toBe(sent[0]?.spanId);
    expect(turn.trace).toEqual(sent[1]);
    expect(turn.toolCalls).toEqual([{ tool: 'lookup_order', input: { orderId: '1234' }, output: null, mocked: false, source: 'trace' }]);
    expect(turn.spans).toEqual({ count: 2, ignored: 1, late: 0 });
    expect(turn.time).toEqual({ modelMs: 0, toolMs: 50, otherMs: 50, tools: { lookup_order: 50 } });
    // The second attempt went out 2 s after the first (its Retry-After): its spans start 2 and 10 ms after it.
    expect(turn.waterfall).toEqual(ANSWERED_WATERFALL);
  });

  it('a connection reset after the first attempt exported a tool span whose own parent never ended (the process died): that span is not the turn\'s', async () => {
    const wall = wallClock();
    const { client, server } = await tracedClient(wall, (exportSpans) => flakyAgent(wall, exportSpans, 'reset', { crashed: true }));
    const turn = replied(await client.session({ session: 'S', persona: null, mocks: [] }).send('Where is order 1234?', 1));
    expect(server.requests).toHaveLength(2);
    expect(turn.toolCalls?.map((c) => c.tool)).toEqual(['lookup_order']);
    expect(turn.waterfall).toEqual(ANSWERED_WATERFALL);
  });

  it("a fixture's message turn: the same, through the fixture's outcome", async () => {
    const wall = wallClock();
    const { client } = await tracedClient(wall, (exportSpans) => flakyAgent(wall, exportSpans, 'http 503'));
    const outcome = await client.converse({ session: 'F', message: 'Where is order 1234?', persona: null });
    expect(outcome).toMatchObject({ kind: 'replied', toolCalls: [{ tool: 'lookup_order', source: 'trace' }], spans: { count: 2 }, waterfall: ANSWERED_WATERFALL });
  });

  it("a wait for the concurrency limit is not the turn's time: the waterfall starts when the request was sent", async () => {
    const wall = wallClock();
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let arrived = (): void => undefined;
    const holding = new Promise<void>((resolve) => (arrived = resolve));
    const { client } = await tracedClient(wall, (exportSpans) => flakyAgent(wall, exportSpans, 'none', { hold, arrived }), { config: { concurrency: 1 }, limiter: new AdaptiveLimiter(1, wall) });
    const first = client.session({ session: 'A', persona: null, mocks: [] }).send('hold', 1);
    await holding;
    // The second turn waits for the only slot while 3 s pass.
    const second = client.session({ session: 'B', persona: null, mocks: [] }).send('Where is order 1234?', 1);
    wall.ms += 3000;
    release();
    replied(await first);
    expect(replied(await second).waterfall).toEqual(ANSWERED_WATERFALL);
  });

  it('an agent whose spans are roots of the trace (it does not continue the parent span id): a turn sent once reads them all; a retried one reads none, and says why', async () => {
    // No span is under a sent span id, so no turn is complete: traces.waitMs passes at once.
    const timers: Timers = { after: (_ms, fire) => (queueMicrotask(fire), () => undefined) };
    const once = wallClock();
    const single = await tracedClient(once, (exportSpans) => flakyAgent(once, exportSpans, 'none', { roots: true }), { timers });
    const read = replied(await single.client.session({ session: 'S', persona: null, mocks: [] }).send('Where is order 1234?', 1));
    expect(read.toolCalls?.map((c) => c.tool)).toEqual(['lookup_order']);
    expect(read.spans).toMatchObject({ count: 2 });

    const twice = wallClock();
    const retried = await tracedClient(twice, (exportSpans) => flakyAgent(twice, exportSpans, 'http 503', { roots: true }), { timers });
    const unknown = replied(await retried.client.session({ session: 'S', persona: null, mocks: [] }).send('Where is order 1234?', 1));
    expect(unknown.toolCalls).toBeNull();
    expect(unknown.spans).toEqual({ count: 0, ignored: 0, late: 0 });
    expect(unknown.toolCallsProblem).toMatch(
      /^no spans of the answered attempt for trace [0-9a-f]{32} within 2 s: the turn was retried, and none of the trace's 4 spans is under the traceparent of the attempt that answered \(a failed attempt's spans are not the turn's\); does the agent start its spans under the incoming traceparent, and export them to http:\/\/127\.0\.0\.1:\d+\/v1\/traces\?$/,
    );
  });
});

describe('a retried turn reads what its answered attempt did (a trace store, through a run)', () => {
  /** A store answering Tempo's v2 API with every span exported to a trace so far. */
  async function tempo(store: Map<string, unknown[]>): Promise<string> {
    const server: Server = createServer((req, res) => {
      const id = /^\/api\/v2\/traces\/([0-9a-f]{32})$/.exec(req.url ?? '')?.[1];
      const spans = id === undefined ? undefined : store.get(id);
      if (spans === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('trace not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ trace: { resourceSpans: spans } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  }

  it("a fixture whose first attempt called issue_refund and failed with a 503: its record holds the second attempt's lookup_order alone, and toolNotCalled passes", async () => {
    const store = new Map<string, unknown[]>();
    const exportSpans: Exporter = async (traceId, body) => {
      store.set(traceId, [...(store.get(traceId) ?? []), ...body.resourceSpans]);
    };
    // Span times on the real clock here: the run's span reader reads it.
    const agent = await serve(flakyAgent({ now: Date.now }, exportSpans, 'http 503'));
    const url = await tempo(store);
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-retried-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const dir = join(cwd, '.agent-replay');
    await mkdir(join(dir, 'fixtures'), { recursive: true });
    await writeFile(join(dir, 'config.yml'), `agent:\n  url: ${agent.url}\n  retries: 1\n  concurrency: 1\ntraces:\n  query: { kind: tempo, url: "${url}" }\n  waitMs: 2000\n`);
    await writeFile(
      join(dir, 'fixtures', 'f.yml'),
      'fixtures:\n  - { label: order, message: Where is order 1234?, assert: [ { contains: "on its way" }, { toolCalled: { tool: lookup_order } }, { toolNotCalled: { tool: issue_refund } } ] }\n',
    );
    const result = await runCheck({ dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null }, { clock: { now: () => 1_000_000, sleep: async () => undefined } });
    if (result.kind !== 'ran') throw new Error(`expected a run, got ${result.kind}: ${JSON.stringify(result.kind === 'config_errors' ? result.errors : null)}`);
    expect(agent.requests.map((r) => (r.json as { start?: boolean }).start === true)).toEqual([true, false, false]);
    const fixture = result.record.fixtures[0];
    expect(fixture?.toolCalls?.map((c) => [c.tool, c.source])).toEqual([['lookup_order', 'trace']]);
    expect(fixture?.spans).toEqual({ count: 2, ignored: 1, late: 0 });
    expect(fixture?.waterfall?.map((w) => [w.name, w.depth])).toEqual([['POST /chat', 0], ['execute_tool lookup_order', 1]]);
    expect(fixture?.verdict).toBe('pass');
  });
});
