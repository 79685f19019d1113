// The bench agent's span export (bench/agent-spans.ts, for `npm run bench -- traces`): the real
// agent process with BENCH_OTLP_URL set sends five spans of each turn's trace to the real receiver,
// complete (the server span under the sent span id), read as one tool call and a time split.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parentOf, turnSpansBody } from '../../bench/agent-spans.js';
import { readTurnSpans } from '../../src/traces/map.js';
import { spansOfOtlp } from '../../src/traces/otlp.js';
import { startReceiver, type Receiver } from '../../src/traces/receiver.js';
import { endWithTest } from '../support/children.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

/**
 * The bench agent as bench/run.ts starts it, with spans exported to `otlpUrl`. It is killed when
 * the test ends, and the test waits for it to exit (test/support/children.ts): closing its stdin
 * (bench/run.ts's way to end it) asked it to stop but waited for nothing, and the agent could
 * outlive the test and the file.
 */
async function agent(otlpUrl: string): Promise<{ url: string; stats: () => Promise<{ exported: number; exportFailed: number }> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/agent-server.ts'), '0'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_OTLP_URL: otlpUrl },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  endWithTest(child);
  const lines = createInterface({ input: child.stdout! });
  const next = (): Promise<string> => new Promise((resolve) => lines.once('line', resolve));
  const { url } = JSON.parse(await next()) as { url: string };
  return {
    url,
    async stats() {
      const line = next();
      child.stdin!.write('stats\n');
      return JSON.parse(await line) as { exported: number; exportFailed: number };
    },
  };
}

describe('the bench agent exports five spans per turn', () => {
  it('reads a traceparent, and only a valid one', () => {
    expect(parentOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toEqual({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' });
    expect(parentOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7')).toBeNull();
    expect(parentOf(undefined)).toBeNull();
  });

  it('five spans in the turn trace: the server span under the sent span, one tool, two model calls', () => {
    const parent = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) };
    const { spans, rejected } = spansOfOtlp(JSON.parse(turnSpansBody(parent, 1_000_000, 1_000_050)));
    expect(rejected).toBe(0);
    expect(spans).toHaveLength(5);
    expect(spans.every((s) => s.traceId === parent.traceId)).toBe(true);
    expect(spans.filter((s) => s.parentSpanId === parent.spanId).map((s) => s.name)).toEqual(['POST /chat']);
    const read = readTurnSpans(spans, { traceId: parent.traceId, latencyMs: 50 }, { toolCalls: null, usage: null });
    expect(read.toolCalls).toEqual([{ tool: 'lookup_order', input: { orderId: '1234' }, output: { status: 'delivered' }, mocked: false, source: 'trace' }]);
    expect(read.time).toEqual({ modelMs: 36, toolMs: 10, otherMs: 4, tools: { lookup_order: 10 } });
    expect(read.counts).toEqual({ count: 5, ignored: 2 });
  });

  it('the real agent process sends them to the real receiver after its reply, complete', { timeout: 30_000 }, async () => {
    const r = await startReceiver({ port: 0, waitMs: 10_000 });
    receivers.push(r);
    const a = await agent(`${r.endpoint}/v1/traces`);
    const traceId = randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    r.register(traceId, spanId);
    const res = await fetch(a.url, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${spanId}-01` }, body: JSON.stringify({ session: 's', message: 'hi' }) });
    expect(res.status).toBe(200);
    const got = await r.collect(traceId, spanId);
    expect(got.complete).toBe(true);
    expect(got.spans.map((s) => s.name).sort()).toEqual(['POST /chat', 'chat bench-model', 'chat bench-model', 'execute_tool lookup_order', 'invoke_agent bench']);
    expect(got.spans.every((s) => s.service === 'bench-agent')).toBe(true);
    // A request without a traceparent exports nothing.
    await fetch(a.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: 's', message: 'hi' }) });
    expect(await a.stats()).toMatchObject({ exported: 1, exportFailed: 0 });
  });
});
