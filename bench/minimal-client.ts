// The practical floor of the machine for a replay (docs/performance.md, "How the bench measures"):
// a minimal client that sends exactly the requests the engine sends for a bench suite (the same
// bodies, headers and turns) with C workers over one undici pool of C keep-alive connections, reads
// and parses each reply, and does nothing else: no suite to load, no evaluation, no record. Run
// side by side with the engine against the same bench agent, its wall time is what the engine's is
// compared with.
//
//   node bench/minimal-client.mjs <requestsFile> <agentUrl> <concurrency> [--liftoff-only]
//
// --liftoff-only (the cold start): the V8 flag the CLI sets for itself (src/runtime.ts), set the
// way the CLI sets it: at run time, once the modules are loaded. Given on node's command line
// instead, the flag changes V8's flag hash before Node loads its own internal modules, whose
// embedded code cache is then rejected: each is compiled from source, about 20 ms more of a start
// that the CLI does not pay (docs/performance.md, "2026-12-03: the minimal client's flag").
//
// Its cold start (one request, `npm run bench -- cold`) is measured as the CLI's is: a bundled file
// started by node, until it exits.
//
// requestsFile: JSON {"headers": {...}, "items": [[body, body, ...], ...]}: one array of request
// bodies per item (a fixture: one; a persona script: its turns, sent in order).
// stdout: one JSON line {"wallMs", "cpuMs", "requests", "failed", "maxRssKb", "latency"}: latency is
// the p50 and mean of its own time per request (sent to the reply read), beside which the bench
// puts the latencyMs the engine recorded for the same requests (docs/latency.md).

import { readFile } from 'node:fs/promises';
// The two undici files the engine loads (src/http/undici.ts), not undici's index: the least code
// that sends these requests, which is what its cold start is compared with (docs/performance.md).
import { setFlagsFromString } from 'node:v8';
import { Agent, request } from '../src/http/undici.js';

const [file, agentUrl, concurrencyText, flag] = process.argv.slice(2);
if (file === undefined || agentUrl === undefined || concurrencyText === undefined || (flag !== undefined && flag !== '--liftoff-only')) {
  process.stderr.write('usage: minimal-client <requestsFile> <agentUrl> <concurrency> [--liftoff-only]\n');
  process.exit(2);
}
if (flag !== undefined) setFlagsFromString(flag);
const concurrency = Number(concurrencyText);
const url = new URL(agentUrl);
const { headers, items } = JSON.parse(await readFile(file, 'utf8')) as { headers: Record<string, string>; items: string[][] };

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const dispatcher = new Agent({ connections: concurrency, pipelining: 1 });
let next = 0;
let requests = 0;
let failed = 0;
const times: number[] = [];
const worker = async (): Promise<void> => {
  for (let i = next++; i < items.length; i = next++) {
    for (const body of items[i] as string[]) {
      requests++;
      try {
        const sent = performance.now();
        const res = await request(url, { dispatcher, method: 'POST', headers, body });
        const reply = (await res.body.json()) as { reply?: unknown };
        times.push(performance.now() - sent);
        if (res.statusCode !== 200 || typeof reply.reply !== 'string') failed++;
      } catch {
        failed++;
      }
    }
  }
};
await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, requests, failed, maxRssKb: process.resourceUsage().maxRSS, latency: summary(times) })}\n`);

/** p50 (nearest rank) and mean of the request times, ms. */
function summary(values: number[]): { p50Ms: number; meanMs: number } | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50Ms: sorted[Math.ceil(sorted.length / 2) - 1] as number, meanMs: values.reduce((a, b) => a + b, 0) / values.length };
}
