// `http://localhost:PORT` reaches an agent (or a judge) listening on either loopback family only,
// whatever this machine's /etc/hosts says localhost is (src/http/localhost.ts), and a localhost
// with both families closed is still named as refused (docs/troubleshooting.md, "The agent").
// The servers' ports are below the system's ephemeral range (quietPort): a port given for port 0
// on one family is free on the other, where any process's next server on port 0 could be given it,
// and the client, trying 127.0.0.1 first, would reach that server instead of the one on ::1.

import { createServer as createHttpServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { instantClock, waitForAgent } from '../../src/agent/ready.js';
import { defaultConfig } from '../../src/config.js';
import { isLocalhostName, localhostLookup } from '../../src/http/localhost.js';
import { DIRECT } from '../../src/http/network.js';
import { closeDispatcher, request } from '../../src/http/undici.js';
import { createJudge } from '../../src/judge/index.js';
import type { Clock } from '../../src/types.js';

const clock: Clock = { now: () => 0, sleep: async () => undefined };
const ANSWER = JSON.stringify({ reply: 'Within 30 days.', choices: [{ index: 0, message: { role: 'assistant', content: '{"score": 1, "rationale": "ok"}' } }] });

/**
 * Ports the system never hands out for port 0 (nor as a client's source port), below its ephemeral
 * range (Linux 32768-60999 unless changed; macOS and Windows 49152-65535): a server on one family
 * at such a port has the same port closed on the other family, where a server listening on port 0
 * of any process on this machine could otherwise be given it.
 */
function quietPorts(): { from: number; to: number } | null {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    // Not Linux: the others' ranges start at 49152.
  }
  const from = 10000;
  const to = Math.min(low, 32768);
  return to - from >= 1000 ? { from, to } : null;
}

/** Listens on `port` of `host`: the server, or the error code (EADDRINUSE, EADDRNOTAVAIL). */
function listenAt(server: Server | NetServer, port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const failed = (e: NodeJS.ErrnoException): void => resolve(e.code ?? 'error');
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve(null);
    });
  });
}

/**
 * A port below the ephemeral range free on both loopback families now, tried from a start of this
 * process's own (another test process tries others), or 0 when none is (the system picks).
 */
async function quietPort(): Promise<number> {
  const range = quietPorts();
  if (range === null) return 0;
  const span = range.to - range.from;
  for (let i = 0; i < 50; i++) {
    const port = range.from + ((process.pid * 7919 + i * 104729) % span);
    const v4 = createServer();
    const v6 = createServer();
    const free = (await listenAt(v4, port, '127.0.0.1')) === null && ((await listenAt(v6, port, '::1')) ?? 'EADDRNOTAVAIL') !== 'EADDRINUSE';
    await Promise.all([v4, v6].map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
    if (free) return port;
  }
  return 0;
}

/**
 * A server on one loopback address only; null when this machine has no such address. Its port is
 * one the system hands out to no one (quietPort): on the other family it stays closed, as the
 * tests need, instead of being given to some other process's server listening on port 0.
 */
async function listenOn(host: '127.0.0.1' | '::1'): Promise<Server | null> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
  });
  return (await listenAt(server, await quietPort(), host)) === null ? server : null;
}

const portOf = (s: Server): number => (s.address() as AddressInfo).port;
const close = (s: Server | null): Promise<void> => new Promise((resolve) => (s === null ? resolve() : s.close(() => resolve())));

const v4 = await listenOn('127.0.0.1');
const v6 = await listenOn('::1');
const HAS_IPV6 = v6 !== null;
afterAll(async () => {
  await Promise.all([close(v4), close(v6)]);
});

/** What each client makes of `http://localhost:PORT`: the agent's turn, the readiness wait, a judge call. */
async function reach(port: number): Promise<{ agent: string; ready: string; judge: string }> {
  const base = `http://localhost:${port}`;
  const agent = createHttpAgentClient({ ...defaultConfig().agent, url: `${base}/chat`, start: null, retries: 0 }, { clock });
  const judge = createJudge({ provider: 'openai', baseUrl: base, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 0, backoffMs: 1, concurrency: 1, label: null }, { clock, random: () => 0.5 });
  try {
    const turn = await agent.converse({ session: 's', message: 'Can I get my money back?', persona: null });
    const ready = await waitForAgent({ url: `${base}/chat`, headers: {}, seconds: 1, clock: instantClock() }).then(
      (r) => `HTTP ${r?.status}`,
      (e: Error) => e.message,
    );
    const scored = await judge.score('c', 'r');
    return { agent: turn.kind === 'replied' ? turn.reply : turn.kind === 'errored' ? turn.error : 'neither replied nor errored', ready, judge: scored.ok ? `score ${scored.score}` : scored.reason };
  } finally {
    await Promise.all([agent.close(), judge.close()]);
  }
}

describe('localhost: both loopback families', () => {
  it('localhost names are told apart from other hosts; the lookup answers 127.0.0.1 then ::1, or the family asked for', async () => {
    expect(['localhost', 'LOCALHOST', 'agent.localhost', 'localhost.'].map(isLocalhostName)).toEqual([true, true, true, true]);
    expect(['localhost.example.com', 'mylocalhost', '127.0.0.1'].map(isLocalhostName)).toEqual([false, false, false]);
    const lookup = (options: object): Promise<unknown> => new Promise((resolve, reject) => localhostLookup('localhost', options, (err, address, family) => (err ? reject(err) : resolve(Array.isArray(address) ? address : { address, family }))));
    expect(await lookup({ all: true })).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await lookup({ all: true, family: 6 })).toEqual([{ address: '::1', family: 6 }]);
    expect(await lookup({})).toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('an agent and a judge listening on 127.0.0.1 only are reached at http://localhost:PORT', async () => {
    if (v4 === null) throw new Error('no 127.0.0.1 on this machine');
    expect(await reach(portOf(v4))).toEqual({ agent: 'Within 30 days.', ready: 'HTTP 200', judge: 'score 1' });
  });

  // Skipped on a machine without an IPv6 loopback (`ip -6 addr show lo` shows no ::1), the reason in its name.
  it.skipIf(!HAS_IPV6)(`an agent and a judge listening on ::1 only are reached at http://localhost:PORT${HAS_IPV6 ? '' : ' (skipped: this machine has no ::1 on its loopback)'}`, async () => {
    expect(await reach(portOf(v6 as Server))).toEqual({ agent: 'Within 30 days.', ready: 'HTTP 200', judge: 'score 1' });
  });

  it('an event loop busy past 250 ms while connecting to 127.0.0.1 does not give the connection up (no timer between the families)', async () => {
    // Node's family autoselection gave an attempt 250 ms by a timer, which a loop busy for longer
    // ran out while the connection had been made: it was dropped, ::1 (closed here) tried, and the
    // request failed (nodejs/node#54359).
    if (v4 === null) throw new Error('no 127.0.0.1 on this machine');
    const url = `http://localhost:${portOf(v4)}/chat`;
    const dispatcher = DIRECT.dispatcher(url, { connectTimeout: 5000 });
    try {
      const sent = request(url, { method: 'POST', body: '{}', dispatcher });
      // Blocks the loop once the connection is under way (its lookup answers on the next tick).
      process.nextTick(() => {
        const until = Date.now() + 300;
        while (Date.now() < until) {
          // busy: a replay's JSON parsing, judging, rendering
        }
      });
      const got = await sent.then(
        async (r) => `HTTP ${r.statusCode} ${await r.body.text()}`,
        (e: Error) => `failed: ${e.name} ${e.message}`,
      );
      expect(got).toBe(`HTTP 200 ${ANSWER}`);
    } finally {
      await closeDispatcher(dispatcher);
    }
  });

  it('the servers\' ports are below the ephemeral range: no server another process starts on port 0 can take the other family\'s side of them', () => {
    const range = quietPorts();
    if (range === null) return; // an ephemeral range that leaves no room below it: the system picks
    for (const server of [v4, v6]) if (server !== null) expect(portOf(server)).toBeLessThan(range.to);
  });

  it('localhost with both families closed: each client says the connection was refused', async () => {
    // A port the system hands out to no one, free on both families (quietPort): not one a closed
    // server on port 0 had, which the system may give the next server that asks, on either family.
    let port = await quietPort();
    if (port === 0) {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
    const got = await reach(port);
    expect(got.agent).toMatch(/^message turn: could not reach the agent after 1 attempt: connection refused at 127\.0\.0\.1:\d+ \(ECONNREFUSED\); nothing listens there: check agent-url \(agent\.url\) and that the agent is running$/);
    expect(got.ready).toMatch(/^agent not ready after 1 s: \d+ polls \(GET\), the last one got connection refused at 127\.0\.0\.1:\d+ \(ECONNREFUSED\);/);
    // The judge in --wait-for-agent's words for it, at the address the agent's client names.
    expect(got.judge).toBe(`connection refused at 127.0.0.1:${port} (ECONNREFUSED)`);
  });
});
