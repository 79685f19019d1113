// Tools and time from traces, end to end (docs/traces.md): the real CLI (`run`, `accept`) against a
// loopback agent that answers with text alone and exports OTLP/JSON spans for each turn, with
// explicit start and end times (no waiting): to agent-replay's receiver (`traces.receive`, port 0,
// read from the run's log line), or kept for a local server that serves them over Tempo's API
// (`traces.query`). The engine's clock is injected and advanced by each turn's span times alone, so a
// turn "takes" as long as its spans say, with no sleep.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock, RunRecord } from '../../src/types.js';
import { cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';
import type { ReceivedRequest } from '../support/agent-server.js';

useCleanup();

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length > 0) {
    const s = servers.pop()!;
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

interface Scene {
  /** Where spans go: the receiver's endpoint (receive mode), read from the run's log; null in query mode. */
  receiver: string | null;
  /** trace id -> OTLP/JSON resourceSpans (query mode's store). */
  store: Map<string, unknown>;
  /** lookup_order's duration in ms. */
  toolMs: number;
  /** The name the spans give lookup_order (the agent's: it may be `__proto__`). */
  toolName: string;
  /** Messages whose spans are never exported (the turn still takes its time). */
  silent: Set<string>;
  /** The engine's clock runs ahead by each turn's span time. */
  virtualMs: number;
}

const attr = (key: string, value: string | number): unknown => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
const nanos = (ms: number): string => (BigInt(Math.round(ms)) * 1_000_000n).toString();

/** One turn's spans: the agent's server span (child of the sent span), a model call, and the tool. */
function turnSpans(traceId: string, sentSpanId: string, message: string, toolMs: number, n: number, lookup = 'lookup_order'): { spans: unknown; totalMs: number } {
  const t0 = Date.now();
  const id = (k: number): string => (n * 16 + k).toString(16).padStart(16, '0');
  const broken = message.includes('broken');
  const unmocked = message.includes('refund');
  const toolName = unmocked ? 'issue_refund' : lookup;
  const toolError = broken ? 'database unavailable' : unmocked ? 'agent-replay: no mock answers issue_refund({"orderId":"1234"})' : null;
  const totalMs = 10 + 100 + 10 + toolMs + 50;
  const spans = [
    { traceId, spanId: id(1), parentSpanId: sentSpanId, name: 'POST /chat', kind: 2, startTimeUnixNano: nanos(t0), endTimeUnixNano: nanos(t0 + totalMs), attributes: [], status: {} },
    {
      traceId,
      spanId: id(2),
      parentSpanId: id(1),
      name: 'chat gpt-test',
      kind: 3,
      startTimeUnixNano: nanos(t0 + 10),
      endTimeUnixNano: nanos(t0 + 110),
      attributes: [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.usage.input_tokens', 12), attr('gen_ai.usage.output_tokens', 5)],
      status: {},
    },
    {
      traceId,
      spanId: id(3),
      parentSpanId: id(1),
      name: `execute_tool ${toolName}`,
      kind: 1,
      startTimeUnixNano: nanos(t0 + 120),
      endTimeUnixNano: nanos(t0 + 120 + toolMs),
      attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', toolName), attr('gen_ai.tool.call.arguments', '{"orderId":"1234"}'), attr('gen_ai.tool.call.result', '{"status":"shipped"}')],
      status: toolError === null ? {} : { code: 2, message: toolError },
    },
  ];
  return { spans: { resourceSpans: [{ resource: { attributes: [attr('service.name', 'shop')] }, scopeSpans: [{ scope: { name: 'test' }, spans }] }] }, totalMs };
}

/** A welcome turn's spans: the server span alone, 20 ms. */
function welcomeSpans(traceId: string, sentSpanId: string, n: number): { spans: unknown; totalMs: number } {
  const t0 = Date.now();
  const span = { traceId, spanId: (n * 16 + 1).toString(16).padStart(16, '0'), parentSpanId: sentSpanId, name: 'POST /chat', kind: 2, startTimeUnixNano: nanos(t0), endTimeUnixNano: nanos(t0 + 20), attributes: [], status: {} };
  return { spans: { resourceSpans: [{ resource: { attributes: [attr('service.name', 'shop')] }, scopeSpans: [{ scope: { name: 'test' }, spans: [span] }] }] }, totalMs: 20 };
}

/** The agent: text alone (native protocol, no toolCalls key); its spans exported before it answers. */
function textAgent(scene: Scene): (req: ReceivedRequest) => Promise<{ json: unknown }> {
  let n = 0;
  return async (req) => {
    const body = (req.json ?? {}) as { start?: boolean; message?: string };
    const message = String(body.message);
    const parent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(req.headers.traceparent));
    if (parent !== null) {
      const { spans, totalMs } = body.start === true ? welcomeSpans(parent[1]!, parent[2]!, ++n) : turnSpans(parent[1]!, parent[2]!, message, scene.toolMs, ++n, scene.toolName);
      // A silent turn takes its time all the same: its spans are made, never exported.
      scene.virtualMs += totalMs;
      if (!scene.silent.has(message)) {
        if (scene.receiver !== null) {
          const res = await fetch(`${scene.receiver}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spans) });
          expect(res.status).toBe(200);
        } else scene.store.set(parent[1]!, spans);
      }
    }
    if (body.start === true) return { json: { reply: 'Welcome!', route: null, offTrack: [], ended: false } };
    return { json: { reply: `About ${message}: your order is on its way.`, route: null, offTrack: [], ended: false } };
  };
}

/** A local store that answers Tempo's v2 API from the scene's spans. */
async function tempo(scene: Scene): Promise<string> {
  const server = createServer((req, res) => {
    const id = /^\/api\/v2\/traces\/([0-9a-f]{32})$/.exec(req.url ?? '')?.[1];
    const spans = id === undefined ? undefined : scene.store.get(id);
    if (spans === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('trace not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ trace: spans }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const FIXTURES = {
  'order-status.yaml': `label: order-status
message: Where is order 1234?
assert: [ { contains: "on its way" }, { toolCalled: { tool: lookup_order, input: { orderId: "1234" } } }, { toolNotCalled: { tool: issue_refund } } ]
`,
  'order-broken.yaml': `label: order-broken
message: My order 1234 is broken
assert: { contains: "on its way" }
`,
  'order-silent.yaml': `label: order-silent
message: Where is order 777?
assert: [ { contains: "on its way" }, { toolCalled: { tool: lookup_order } } ]
`,
};

const PERSONAS = {
  'shop.yaml': `personas:
  - label: order-script
    opening: Where is order 1234?
    followUps: [ Thanks ]
    mocks: [ { tool: lookup_order, input: { orderId: "1234" }, output: { status: shipped } } ]
    unmockedTools: allow
    expect:
      toolCalled: [ { tool: lookup_order, input: { orderId: "1234" } } ]
      toolNotCalled: [ { tool: issue_refund } ]
  - label: refund-script
    opening: I want a refund for 1234
    mocks: [ { tool: lookup_order, output: { status: shipped } } ]
    expect: { toolCalled: [ { tool: lookup_order } ] }
  - label: broken-script
    opening: It arrived broken
    expect: { toolCalled: [ { tool: lookup_order } ] }
  - label: silent-script
    opening: Where is order 777?
    followUps: [ Where is order 1234? ]
    mocks: [ { tool: lookup_order, output: { status: shipped } } ]
    expect: { toolCalled: [ { tool: lookup_order } ] }
`,
};

/**
 * The engine's clock: the scene's virtual time alone, which only the agent's turns advance (by their
 * spans' time), so that a turn's latency is its spans' time whatever a loaded machine adds (real time
 * beside it put 2.9 s past 3.0 s once a turn took a second of it). Nothing in these runs sleeps on it.
 */
function engineClock(scene: Scene): Clock {
  return { now: () => scene.virtualMs, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
}

async function runOnce(mode: 'receive' | 'query', scene: Scene, cwd: string, out: string): Promise<{ record: RunRecord; stdout: string; stderr: string }> {
  let stderr = '';
  const r = await cli(['run', '--out', out, '--fail-on', 'none', '--confirm-cost'], cwd, {}, {
    stderr: (t) => {
      stderr += t;
      const url = /traces: receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+) \(set OTEL_EXPORTER_OTLP_ENDPOINT to it\)/.exec(t)?.[1];
      if (url !== undefined && mode === 'receive') scene.receiver = url;
    },
    engine: { clock: engineClock(scene) },
  });
  expect(r.code, stderr).toBe(0);
  return { record: await readResults(`${cwd}/${out}`), stdout: r.stdout, stderr };
}

async function project(mode: 'receive' | 'query', scene: Scene, suite: { fixtures: Record<string, string>; personas: Record<string, string> } = { fixtures: FIXTURES, personas: PERSONAS }): Promise<string> {
  const agent = await serve(textAgent(scene));
  const traces = mode === 'receive' ? 'traces:\n  receive: { port: 0 }\n  waitMs: 400\n' : `traces:\n  query: { kind: tempo, url: ${await tempo(scene)} }\n  waitMs: 400\n`;
  return makeProject({ config: `agent:\n  url: ${agent.url}\n  concurrency: 1\n  retries: 0\n  backoffMs: 0\n${traces}`, ...suite });
}

const scene = (): Scene => ({ receiver: null, store: new Map(), toolMs: 200, toolName: 'lookup_order', silent: new Set(['Where is order 777?']), virtualMs: 0 });

/** The record without what differs from run to run: ids, times, durations, the run's own metadata. */
function stable(record: RunRecord): unknown {
  const volatile = new Set(['traceId', 'durationMs', 'latencyMs', 'firstTokenMs', 'welcomeLatencyMs', 'waterfall', 'time', 'startedAt', 'finishedAt', 'session']);
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return typeof v === 'string' ? v.replace(/no spans for trace [0-9a-f]{32} within 0\.4 s.*$/, 'no spans within 0.4 s <where>').replace(/127\.0\.0\.1:\d+/g, '<host>') : v;
    return Object.fromEntries(Object.entries(v).filter(([k]) => !volatile.has(k)).map(([k, x]) => [k, strip(x)]));
  };
  return strip({ fixtures: record.fixtures, personas: record.personas });
}

describe('tools and time from traces (receive mode)', () => {
  it('reads tool calls, errors and usage from the spans of an agent that answers with text alone', async () => {
    const s = scene();
    const cwd = await project('receive', s);
    const { record, stderr } = await runOnce('receive', s, cwd, 'r.json');
    expect(stderr).toMatch(/traces: receiving OTLP\/HTTP on http:\/\/127\.0\.0\.1:\d+ \(set OTEL_EXPORTER_OTLP_ENDPOINT to it\)/);
    const f = new Map(record.fixtures.map((x) => [x.label, x]));
    const status = f.get('order-status')!;
    expect(status.verdict).toBe('pass');
    expect(status.checks?.map((c) => c.status)).toEqual(['pass', 'pass', 'pass']);
    expect(status.toolCalls).toEqual([{ tool: 'lookup_order', input: { orderId: '1234' }, output: { status: 'shipped' }, mocked: false, source: 'trace' }]);
    expect(status.spans).toEqual({ count: 3, ignored: 1, late: 0 });
    expect(status.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(status.time?.tools).toEqual({ lookup_order: 200 });
    expect(status.waterfall?.map((w) => [w.name, w.kind, w.depth])).toEqual([
      ['POST /chat', 'other', 0],
      ['chat gpt-test', 'model', 1],
      ['execute_tool lookup_order', 'tool', 1],
    ]);
    // A thrown tool error in a span: the fixture is errored with the span's message.
    const broken = f.get('order-broken')!;
    expect(broken.errored).toBe(true);
    expect(broken.error).toContain('span execute_tool lookup_order failed: database unavailable');
    // Spans that never arrive: the tool check is not evaluated, with the cause; the rest still runs.
    const silent = f.get('order-silent')!;
    expect(silent.verdict).toBe('not_evaluated');
    const check = silent.checks?.[1];
    expect(silent.checks?.[0]?.status).toBe('pass');
    expect(check?.status).toBe('not_evaluated');
    expect(check?.detail).toMatch(/^no spans for trace [0-9a-f]{32} within 0\.4 s: none came to http:\/\/127\.0\.0\.1:\d+\/v1\/traces for this request; does the agent export there, with a span for each request it answers\?$/);

    const p = new Map(record.personas.map((x) => [x.label, x]));
    const script = p.get('order-script')!;
    expect(script.verdict).toBe('pass');
    expect(script.checks.map((c) => `${c.kind}:${c.status}`)).toEqual(['toolCalled:pass', 'toolNotCalled:pass']);
    expect(script.turns[1]?.toolCalls?.[0]).toMatchObject({ tool: 'lookup_order', source: 'trace' });
    // Mocked mode: the refund the agent ran for real (its span threw the mocks' error) errors the script.
    const refund = p.get('refund-script')!;
    expect(refund.errored).toBe(true);
    expect(refund.errorKind).toBe('unmocked_tool');
    // A thrown tool error in a span errors the script with the span's message.
    const brokenScript = p.get('broken-script')!;
    expect(brokenScript.errored).toBe(true);
    // Mocked mode and a turn whose spans never came: not evaluated (an unmocked call there could not be seen), never failed.
    const silentScript = p.get('silent-script')!;
    expect(silentScript.verdict).toBe('not_evaluated');
    expect(silentScript.checks[0]?.detail).toMatch(/^turn 1: no spans for trace [0-9a-f]{32} within 0\.4 s: none came to http:\/\/127\.0\.0\.1:\d+\/v1\/traces for this request; does the agent export there, with a span for each request it answers\? \(mocked mode/);
    expect(brokenScript.error).toBe('turn 1: the agent reported an error (span_error, tool lookup_order): span execute_tool lookup_order failed: database unavailable');
  });

  it('names the tool that grew in the slower line, through accept then a rerun', async () => {
    const s = scene();
    const cwd = await project('receive', s);
    await runOnce('receive', s, cwd, 'r1.json');
    const accepted = await cli(['accept', '--results', 'r1.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    // The baselines keep each turn's time split from its spans.
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'order-status.json'), 'utf8')) as { time?: unknown };
    expect(stored.time).toMatchObject({ modelMs: 100, toolMs: 200, tools: { lookup_order: 200 } });
    const storedScript = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'order-script.json'), 'utf8')) as { transcript: { time?: unknown }[] };
    expect(storedScript.transcript.map((t) => (t.time as { toolMs?: number } | undefined)?.toolMs)).toEqual([0, 200, 200]);
    s.toolMs = 1900;
    const { record, stdout } = await runOnce('receive', s, cwd, 'r2.json');
    const status = record.fixtures.find((x) => x.label === 'order-status')!;
    expect(status.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 1900 });
    // The turn's latency is its spans' time (10 + 100 + 10 + the tool + 50 ms): 370 ms, then 2,070 ms.
    expect(stdout).toContain('order-status · pass · still passing · slower: 370 ms → 2.1 s (tool lookup_order 200 ms → 1.9 s)');
    const script = record.personas.find((x) => x.label === 'order-script')!;
    expect(script.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 400, latencyMs: 3800 });
  });
});

// A script without tool checks or mocks, so that a turn whose spans never came still lets it pass
// and be accepted (docs/traces.md, "When spans do not arrive").
const CHAT = {
  'chat.yaml': `personas:
  - label: chat-script
    opening: Where is order 1234?
    followUps: [ Any news on 1234? ]
    expect: { reply: [ { contains: "on its way" } ] }
`,
};

describe('the slower step of a script whose turn was timed on one side only (docs/traces.md, "Slower")', () => {
  it('leaves that turn out of both sides: the step is compared over the same turns', async () => {
    const s = scene();
    // Accepted while the second message turn's spans never came: its time is not split in the baseline.
    s.silent = new Set(['Any news on 1234?']);
    const cwd = await project('receive', s, { fixtures: {}, personas: CHAT });
    const first = await runOnce('receive', s, cwd, 'r1.json');
    expect(first.record.personas[0]?.verdict).toBe('pass');
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'chat-script.json'), 'utf8')) as { transcript: { time?: { toolMs: number } }[] };
    expect(stored.transcript.map((t) => t.time?.toolMs)).toEqual([0, 200, undefined]);

    // Now every turn's spans come, and lookup_order takes 1.9 s on both message turns. The second
    // turn's 1.9 s has no baseline split to compare with: the step is turn 1's, 200 ms → 1.9 s,
    // not the two turns' 3.8 s against the one turn's 200 ms.
    s.silent = new Set();
    s.toolMs = 1900;
    const second = await runOnce('receive', s, cwd, 'r2.json');
    const script = second.record.personas[0]!;
    expect(script.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 200, latencyMs: 1900 });
    expect(second.stdout).toContain('(tool lookup_order 200 ms → 1.9 s)');

    // The reverse: accepted with every turn timed (1.9 s each), then the second turn's spans do not
    // come while lookup_order takes 4 s: turn 1's 1.9 s → 4.0 s, not both turns' 3.8 s → 4.0 s.
    expect((await cli(['accept', '--results', 'r2.json'], cwd)).code).toBe(0);
    s.silent = new Set(['Any news on 1234?']);
    s.toolMs = 4000;
    const third = await runOnce('receive', s, cwd, 'r3.json');
    expect(third.record.personas[0]?.slower?.step).toEqual({ kind: 'tool', name: 'lookup_order', baselineMs: 1900, latencyMs: 4000 });
  });
});

describe('a tool named like an object\'s own machinery, through accept then a rerun (docs/traces.md, "Time")', () => {
  it('a tool named __proto__ keeps its time in the baseline and names the slower step with it', async () => {
    const s = scene();
    s.toolName = '__proto__';
    s.silent = new Set();
    const cwd = await project('receive', s, { fixtures: {}, personas: CHAT });
    await runOnce('receive', s, cwd, 'r1.json');
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);
    const stored = JSON.parse(await readFile(join(cwd, '.agent-replay', 'baselines', 'chat-script.json'), 'utf8')) as { transcript: { time?: { tools?: object } }[] };
    expect(stored.transcript.map((t) => (t.time?.tools === undefined ? null : Object.entries(t.time.tools)))).toEqual([null, [['__proto__', 200]], [['__proto__', 200]]]);
    s.toolMs = 1900;
    const { record, stdout } = await runOnce('receive', s, cwd, 'r2.json');
    // Read back from the baseline, the tool took 200 ms on each turn, not 0.
    expect(record.personas[0]?.slower?.step).toEqual({ kind: 'tool', name: '__proto__', baselineMs: 400, latencyMs: 3800 });
    expect(stdout).toContain('(tool __proto__ 400 ms → 3.8 s)');
  });
});

describe('tools and time from traces (query mode: Tempo)', () => {
  it('gives the same record as the receiver for the same spans', async () => {
    const received = scene();
    const a = await readStable('receive', received);
    const queried = scene();
    const b = await readStable('query', queried);
    expect(b).toEqual(a);
  });
});

async function readStable(mode: 'receive' | 'query', s: Scene): Promise<unknown> {
  const cwd = await project(mode, s);
  return stable((await runOnce(mode, s, cwd, 'r.json')).record);
}
