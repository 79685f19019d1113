// One measured replay, in its own process: the real CLI path (`agent-replay run --out
// results.json`: load the suite, replay, evaluate, write the record, print the terminal report)
// against the bench agent. Prints one JSON line on stdout for bench/run.ts.
//
//   node --import tsx bench/replay-child.ts <suiteDir> <agentUrl> <concurrency> [phases]
//
// wallMs runs from just before the CLI's main() to just after it (suite loading and the write of
// results.json included); replayMs is the record's own duration (replay only). maxRssKb is the
// process's peak resident set, taken before the record is read back to count its verdicts; cpuMs
// the process's CPU time (user + system, all threads) over the same span.
// `phases`: also print process.memoryUsage() at the points the progress printer sees (stderr),
// to see where the memory goes.

import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { main } from '../src/cli/main.js';
import { tuneRuntime } from '../src/runtime.js';

// The same V8 settings as the CLI's (src/cli/process.ts), so the figures are the CLI's.
tuneRuntime();

const [dir, agentUrl, concurrencyText, phases] = process.argv.slice(2);
if (dir === undefined || agentUrl === undefined || concurrencyText === undefined) {
  process.stderr.write('usage: replay-child.ts <suiteDir> <agentUrl> <concurrency> [phases]\n');
  process.exit(2);
}

let peakSampledRss = 0;
const sampler = setInterval(() => {
  peakSampledRss = Math.max(peakSampledRss, process.memoryUsage.rss());
}, 50);
sampler.unref();

const mem = (): string => {
  const m = process.memoryUsage();
  const f = (v: number): string => `${(v / 1048576).toFixed(1)}`;
  return `rss ${f(m.rss)} heapUsed ${f(m.heapUsed)} heapTotal ${f(m.heapTotal)} external ${f(m.external)} arrayBuffers ${f(m.arrayBuffers)} MB`;
};

const out = path.join(path.dirname(path.resolve(dir)), 'results.json');
let stderr = '';
let stdoutChars = 0;
const rssBeforeKb = Math.round(process.memoryUsage.rss() / 1024);
if (phases) process.stderr.write(`before: ${mem()}\n`);
let lastPhase = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const code = await main(['run', '--dir', dir, '--agent-url', agentUrl, '--concurrency', concurrencyText, '--confirm-cost', '--out', out], {
  stdout: (t) => void (stdoutChars += t.length),
  stderr: (t) => {
    if (stderr.length < 4000) stderr += t;
    if (phases && performance.now() - lastPhase > 250) {
      lastPhase = performance.now();
      process.stderr.write(`${(lastPhase - t0).toFixed(0)} ms: ${mem()}\n`);
    }
  },
  isTTY: phases !== undefined,
  color: false,
  env: {},
  cwd: path.dirname(path.resolve(dir)),
  // As src/cli/process.ts does: the run watches an interrupt signal (the agent client then combines it with each request's deadline).
  signal: new AbortController().signal,
});
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
const maxRssKb = process.resourceUsage().maxRSS;
if (phases) process.stderr.write(`after: ${mem()}\n`);

if (code !== 0) {
  process.stdout.write(`${JSON.stringify({ error: `agent-replay run exited ${code}`, detail: stderr.slice(0, 1000) })}\n`);
  process.exit(1);
}
const record = JSON.parse(await readFile(out, 'utf8')) as {
  durationMs: number;
  fixtures: { errored: boolean; verdict: string | null; latencyMs?: number | null; spans?: { count: number } | null }[];
  personas: { errored: boolean; verdict: string | null }[];
};
await rm(out);
const items = [...record.fixtures, ...record.personas];
// What the engine recorded as each fixture's latency (docs/latency.md): p50 (nearest rank) and mean.
const latencies = record.fixtures.flatMap((f) => (typeof f.latencyMs === 'number' ? [f.latencyMs] : [])).sort((a, b) => a - b);
const latency = latencies.length === 0 ? null : { p50Ms: latencies[Math.ceil(latencies.length / 2) - 1] as number, meanMs: latencies.reduce((a, b) => a + b, 0) / latencies.length };
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    replayMs: record.durationMs,
    // Fixtures and persona scripts alike: one item each.
    fixtures: items.length,
    errored: items.filter((f) => f.errored).length,
    passed: items.filter((f) => !f.errored && f.verdict === 'pass').length,
    rssBeforeKb,
    maxRssKb,
    sampledPeakRssKb: Math.round(peakSampledRss / 1024),
    cpuMs: (cpu.user + cpu.system) / 1000,
    terminalChars: stdoutChars,
    latency,
    // Fixtures whose record holds spans (bench/traces.ts): 0 without `traces:`.
    spanned: record.fixtures.filter((f) => (f.spans?.count ?? 0) > 0).length,
  })}\n`,
);
