// `npm run bench -- traces`: the overhead of receiving spans (docs/traces.md, "Receive: an OTLP/HTTP
// receiver"). 1,000 fixtures at C=8 against the loopback agent (L=50 ms) whose every turn exports five
// spans of its trace as OTLP/HTTP JSON to the run's receiver (bench/agent-spans.ts), against the same
// suite run without `traces:` and the same agent exporting the same spans to a sink that reads and
// drops them (as an instrumented agent exports to its own collector whether or not agent-replay
// reads its spans): what is compared is agent-replay's receiving, not the agent's exporting. A
// third run, an agent that exports nothing, is printed beside it (the agent's own cost of
// exporting, on the same two cores). Rounds alternate and the medians are compared.
// Target: with traces within 1.05 x without.
//
// The receiver's port is fixed per bench run (a free port found first), because the agent is started
// before agent-replay and learns the receiver's URL from BENCH_OTLP_URL, as an agent in a workflow
// learns it from OTEL_EXPORTER_OTLP_ENDPOINT. The row is a pass only when every fixture's record
// holds its five spans (the replay child counts them) and the agent exported every turn.

import { appendFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';

export interface TracesAgent {
  url: string;
  stats(): Promise<{ requests: number; exported?: number; exportFailed?: number }>;
  stop(): Promise<void>;
}

export interface TracesFigures {
  wallMs: number;
  cpuMs: number;
  fixtures: number;
  errored: number;
  passed: number;
  /** Fixtures whose record holds spans (`spans.count` > 0); absent from a replay child that does not count them. */
  spanned?: number;
}

export interface TracesDeps {
  root: string;
  reps: number;
  startAgent(latencyMs: number, env: Record<string, string>): Promise<TracesAgent>;
  makeSuite(root: string, name: string, n: number, agentUrl: string): Promise<string>;
  /** One replay child run; null when it failed (the caller notes why). */
  replay(name: string, dir: string, agentUrl: string, concurrency: number): Promise<TracesFigures | null>;
  row(figure: string, measured: string, target: string, ok: boolean | null): void;
  notes: string[];
}

const N = 1000;
const CONCURRENCY = 8;
const LATENCY_MS = 50;
const FACTOR = 1.05;
const SPANS_PER_TURN = 5;

/** A port free on 127.0.0.1 just now (the receiver binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The `traces:` section of the traced suite's config.yml. */
export function tracesSection(port: number): string {
  return `traces:\n  receive: { port: ${port} }\n  waitMs: 5000\n`;
}

/**
 * An OTLP/HTTP sink on 127.0.0.1: reads each export to its end and answers 200 with an empty
 * ExportTraceServiceResponse, as a collector does. Runs in the bench's own process.
 */
async function startSink(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = createHttpServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    received: () => received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const sec = (v: number): string => `${(v / 1000).toFixed(3)} s`;

export async function tracesCase(d: TracesDeps): Promise<void> {
  const name = `${N} fixtures, ${SPANS_PER_TURN} spans per turn, C=${CONCURRENCY}, L=${LATENCY_MS} ms`;
  const port = await freePort();
  const sink = await startSink();
  const silentAgent = await d.startAgent(LATENCY_MS, {});
  const plainAgent = await d.startAgent(LATENCY_MS, { BENCH_OTLP_URL: sink.url });
  const tracedAgent = await d.startAgent(LATENCY_MS, { BENCH_OTLP_URL: `http://127.0.0.1:${port}/v1/traces` });
  try {
    const silentDir = await d.makeSuite(d.root, `traces-silent-${N}`, N, silentAgent.url);
    const plainDir = await d.makeSuite(d.root, `traces-plain-${N}`, N, plainAgent.url);
    const tracedDir = await d.makeSuite(d.root, `traces-traced-${N}`, N, tracedAgent.url);
    await appendFile(path.join(tracedDir, 'config.yml'), tracesSection(port));
    const silent: TracesFigures[] = [];
    const plain: TracesFigures[] = [];
    const traced: TracesFigures[] = [];
    let exported = 0;
    let exportFailed = 0;
    for (let rep = 0; rep < d.reps; rep++) {
      const q = await d.replay(`${name}: an agent that exports nothing`, silentDir, silentAgent.url, CONCURRENCY);
      if (q !== null) silent.push(q);
      const p = await d.replay(`${name}: without traces`, plainDir, plainAgent.url, CONCURRENCY);
      await tracedAgent.stats();
      const t = await d.replay(`${name}: with traces`, tracedDir, tracedAgent.url, CONCURRENCY);
      // The agent's last exports may still be on their way when the run ends: they changed nothing.
      const seen = await tracedAgent.stats();
      if (p === null || t === null) break;
      plain.push(p);
      traced.push(t);
      exported = seen.exported ?? 0;
      exportFailed = seen.exportFailed ?? 0;
    }
    if (plain.length === 0 || traced.length === 0) {
      d.row(`${name}: wall with traces`, 'ERROR', `<= ${FACTOR.toFixed(2)}x without traces`, false);
      return;
    }
    const withWall = median(traced.map((f) => f.wallMs));
    const withoutWall = median(plain.map((f) => f.wallMs));
    const ratio = withWall / withoutWall;
    const spanned = Math.min(...traced.map((f) => f.spanned ?? 0));
    const allPassed = [...plain, ...traced].every((f) => f.errored === 0 && f.passed === N);
    const read = spanned === N;
    if (!read) d.notes.push(`${name}: ${spanned}/${N} fixtures recorded spans: is the receiver wired into runs (config traces.receive)?`);
    if (!allPassed) d.notes.push(`${name}: not every fixture passed in every round`);
    const of = d.reps > 1 ? ` (median of ${d.reps})` : '';
    d.row(
      `${name}: wall with traces${of}`,
      `${sec(withWall)} = ${ratio.toFixed(3)}x without traces ${sec(withoutWall)} (the agent exporting to a sink)`,
      `<= ${FACTOR.toFixed(2)}x without traces`,
      ratio <= FACTOR && read && allPassed,
    );
    if (silent.length > 0) {
      const silentWall = median(silent.map((f) => f.wallMs));
      d.row('  the agent exporting nothing (its own cost of exporting, beside)', `${sec(silentWall)}: with traces ${(withWall / silentWall).toFixed(3)}x, without ${(withoutWall / silentWall).toFixed(3)}x`, '', null);
    }
    d.row('  exports the sink read (every round)', `${sink.received()}`, `${N * plain.length}`, null);
    d.row('  fixtures whose record holds their spans', `${spanned}/${N}`, `${N}/${N}`, read);
    d.row('  agent exports (last round)', `${exported} turns exported, ${exportFailed} failed`, `${N}, 0 failed`, null);
    const cpu = (fs: TracesFigures[]): string => `${(median(fs.map((f) => f.cpuMs)) / N).toFixed(2)} ms`;
    d.row('  CPU time per fixture, with / without traces', `${cpu(traced)} / ${cpu(plain)}`, '', null);
  } finally {
    await silentAgent.stop();
    await plainAgent.stop();
    await tracedAgent.stop();
    await sink.stop();
  }
}
