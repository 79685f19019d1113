// The bench's loopback agent, run as its own process so that its work neither counts in the
// measured process's RSS nor competes on its event loop. Native protocol; every request is answered
// after setTimeout(latency), so one fixture (welcome turn disabled) costs exactly one latency.
//
//   node --import tsx bench/agent-server.ts <latencyMs> [capacity] [perSecond] [retryAfter]
//   capacity > 0: a request that arrives while `capacity` are in flight is answered 429 at once,
//   as a rate-limited agent does; "throttled" in stats counts them.
//   perSecond > 0: likewise for a request above `perSecond` accepted in the current second.
//   retryAfter: the Retry-After header of those 429s (seconds; absent when not given).
//   stdout, first line: {"url": "http://127.0.0.1:PORT/chat"}
//   stdin "stats\n" -> stdout {"requests": n, "connections": n, "maxInFlight": n, "sample": ...} (counters reset)
//   sample: the body and headers of the first request since the last stats, so that the bench's
//   minimal client sends exactly what the engine sent
//   stdin closed -> exit
//   BENCH_OTLP_URL=http://127.0.0.1:PORT/v1/traces: after each reply to a request with a
//   `traceparent`, five spans of that trace are posted there as OTLP/HTTP JSON (bench/agent-spans.ts);
//   "exported" and "exportFailed" in stats count the turns.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportTurnSpans, parentOf, turnSpansBody } from './agent-spans.js';

const latency = Number(process.argv[2] ?? '0');
const capacity = Number(process.argv[3] ?? '0');
const perSecond = Number(process.argv[4] ?? '0');
const retryAfter = process.argv[5];
/** Requests accepted in the second `second` (epoch seconds). */
let second = 0;
let acceptedThisSecond = 0;
let throttled = 0;
const otlpUrl = process.env.BENCH_OTLP_URL ?? '';
let exported = 0;
let exportFailed = 0;
let requests = 0;
let connections = 0;
let inFlight = 0;
let maxInFlight = 0;
let sample: { body: string; headers: Record<string, string> } | null = null;
/** The headers the engine sets (src/agent/http-client.ts buildHeaders), as received. */
const SAMPLED_HEADERS = ['content-type', 'accept', 'user-agent'];

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    requests++;
    if (sample === null) {
      const headers: Record<string, string> = {};
      for (const name of SAMPLED_HEADERS) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
      sample = { body: Buffer.concat(chunks).toString('utf8'), headers };
    }
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      acceptedThisSecond = 0;
    }
    const overRate = perSecond > 0 && acceptedThisSecond >= perSecond;
    if ((capacity > 0 && inFlight >= capacity) || overRate) {
      throttled++;
      res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
      res.end(overRate ? '{"error":"too many requests this second"}' : '{"error":"too many requests in flight"}');
      return;
    }
    acceptedThisSecond++;
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    let message = '';
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: unknown };
      message = String(body.message);
    } catch {
      message = '(not JSON)';
    }
    const parent = otlpUrl === '' ? null : parentOf(req.headers.traceparent);
    const startedMs = Date.now();
    const answer = (): void => {
      inFlight--;
      const body = JSON.stringify({ reply: `echo: ${message}`, route: { conversation: 'echo', stage: 'reply' }, offTrack: [], ended: false });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
      if (parent !== null) {
        void exportTurnSpans(otlpUrl, turnSpansBody(parent, startedMs, Date.now())).then((ok) => (ok ? exported++ : exportFailed++));
      }
    };
    if (latency > 0) setTimeout(answer, latency);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.on('connection', () => connections++);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/chat` })}\n`);
});

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    if (line === 'stats') {
      process.stdout.write(`${JSON.stringify({ requests, connections, maxInFlight, throttled, sample, exported, exportFailed })}\n`);
      sample = null;
      exported = 0;
      exportFailed = 0;
      requests = 0;
      throttled = 0;
      connections = 0;
      maxInFlight = 0;
    }
  }
});
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
