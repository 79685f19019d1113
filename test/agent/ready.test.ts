// Readiness (docs/action.md, "Preview deployments"): before the first fixture, GET the agent URL
// with backoff until it answers with anything but a connection error or 502/503/504. Real loopback
// servers; a clock whose sleep returns at once and moves virtual time on, so nothing really waits.

import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentNotReady, instantClock, waitForAgent } from '../../src/agent/ready.js';
import { runCheck } from '../../src/engine.js';
import { createJudge } from '../../src/judge/index.js';
import { Interrupted } from '../../src/interrupt.js';
import { cli, makeProject, useCleanup } from '../cli/helpers.js';
import { tlsFront } from '../support/proxy-server.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

interface Seen {
  method: string;
  path: string;
  key: string | undefined;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});
useCleanup();

/** Answers `notReady` (503 by default) to the first `k` requests, then `answer` (a native reply to POSTs). */
async function agentStartingAfter(k: number, notReady = 503): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', key: req.headers['x-preview-key'] as string | undefined });
      if (seen.length <= k) {
        res.writeHead(notReady, { 'content-type': 'text/plain' }).end('starting');
      } else if (req.method === 'GET') {
        res.writeHead(405, { allow: 'POST' }).end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: 'Welcome to the shop!', route: { conversation: 'c', stage: 's' }, ended: false }));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`, seen };
}

/** A port nothing listens on: it was bound, then closed. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/api/chat`;
}

describe('waitForAgent', () => {
  it('polls with GET and backoff while the agent answers 503, and is ready at the first other answer', async () => {
    const agent = await agentStartingAfter(3);
    const clock = instantClock();
    const lines: string[] = [];
    const ready = await waitForAgent({ url: agent.url, headers: { 'X-Preview-Key': 'k1' }, seconds: 30, clock, log: (l) => lines.push(l) });
    // 3 x 503, then 405 (a GET on a POST endpoint is an answer: the server is up)
    expect(ready).toEqual({ polls: 4, waitedMs: 500 + 1000 + 2000, status: 405 });
    expect(agent.seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET', 'GET']);
    expect(agent.seen.every((s) => s.path === '/api/chat' && s.key === 'k1')).toBe(true);
    expect(lines[0]).toBe('agent not ready yet (HTTP 503); next poll in 0.5 s');
    expect(lines.at(-1)).toBe('agent ready: HTTP 405 after 4 polls');
  });

  it.each([502, 504])('treats %i as not ready', async (status) => {
    const agent = await agentStartingAfter(1, status);
    expect(await waitForAgent({ url: agent.url, headers: {}, seconds: 5, clock: instantClock() })).toMatchObject({ polls: 2 });
  });

  it('gives up after the wait with one clear failure, naming what the last poll got', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER);
    const clock = instantClock();
    const error = await waitForAgent({ url: agent.url, headers: {}, seconds: 20, clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentNotReady);
    const e = error as AgentNotReady;
    // polls at 0, 0.5, 1.5, 3.5, 7.5, 15.5 and 20 s (the last backoff is cut at the deadline)
    expect(e.polls).toBe(7);
    expect(clock.now()).toBe(20_000);
    expect(e.message).toMatch(/^agent not ready after 20 s: 7 polls \(GET\), the last one got HTTP 503; nothing was replayed and nothing was spent\./);
    quotedAndSaid(e.message, 'agent not ready after <N> s: ... nothing was replayed and nothing was spent');
    expect(agent.seen.every((s) => s.method === 'GET')).toBe(true);
  });

  it('a closed port (connection refused) never becomes ready', async () => {
    const error = await waitForAgent({ url: await closedPortUrl(), headers: {}, seconds: 3, clock: instantClock() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentNotReady);
    expect((error as Error).message).toContain('agent not ready after 3 s');
    // At the address tried, as the agent's client says it (never the URL, whose path may hold a token).
    expect((error as AgentNotReady).lastObserved).toMatch(/^connection refused at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
  });

  it("a host name that does not resolve is named, with the run's secrets redacted (a host read from ${NAME})", async () => {
    const wait = (redact?: (text: string) => string): Promise<unknown> =>
      waitForAgent({ url: 'http://preview-4711.invalid:3000/api/chat', headers: {}, seconds: 0.1, clock: instantClock(), ...(redact === undefined ? {} : { redact }) }).catch((e: unknown) => e);
    expect((await wait()) as AgentNotReady).toMatchObject({ lastObserved: expect.stringMatching(/^the host name preview-4711\.invalid did not resolve \((?:ENOTFOUND|EAI_AGAIN)\)$/) as unknown });
    const hidden = (await wait((t) => t.replaceAll('preview-4711', '***'))) as AgentNotReady;
    expect(hidden.lastObserved).toMatch(/^the host name \*\*\*\.invalid did not resolve/);
    expect(hidden.message).not.toContain('preview-4711');
  });

  it('a poll cut at its timeout says how far it got, in the agent client\'s words: no connection opened, or no answer', async () => {
    // Takes the TCP connection and says nothing: an https:// poll never finishes its TLS handshake
    // (connecting), an http:// one is never answered.
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const wait = (url: string): Promise<unknown> => waitForAgent({ url, headers: {}, seconds: 0.1, clock: instantClock(), pollTimeoutMs: 100 }).catch((e: unknown) => e);
      const connecting = await wait(`https://127.0.0.1:${port}/api/chat`);
      expect((connecting as AgentNotReady).message).toMatch(/^agent not ready after 0\.1 s: 2 polls \(GET\), the last one got no connection to the agent opened within 100 ms; nothing was replayed/);
      const unanswered = await wait(`http://127.0.0.1:${port}/api/chat`);
      expect((unanswered as AgentNotReady).lastObserved).toBe('no answer from the agent within 100 ms');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it('a server that resets every connection: the poll says what happened in the judge\'s words for it, not "a connection error"', async () => {
    const resets = createNetServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((r) => resets.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(resets.address() as AddressInfo).port}`;
    const judge = createJudge({ provider: 'openai', baseUrl: url, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 0, backoffMs: 0, concurrency: 1, label: null }, { clock: instantClock(), random: () => 0.5 });
    try {
      const error = await waitForAgent({ url: `${url}/api/chat`, headers: {}, seconds: 0.1, clock: instantClock() }).catch((e: unknown) => e);
      expect((error as AgentNotReady).lastObserved).toBe('the connection was closed without an answer (ECONNRESET)');
      expect(await judge.score('c', 'r')).toEqual({ ok: false, reason: 'the connection was closed without an answer (ECONNRESET)' });
    } finally {
      await judge.close();
      await new Promise((r) => resets.close(r));
    }
  });

  it('a certificate Node refuses ends the wait at the first poll, naming the fix (waiting would not change it)', async () => {
    const agent = await agentStartingAfter(0);
    const tls = await tlsFront(Number(new URL(agent.url).port));
    try {
      const lines: string[] = [];
      const clock = instantClock();
      const ready = await waitForAgent({ url: `https://127.0.0.1:${tls.port}/api/chat`, headers: {}, seconds: 60, clock, log: (l) => lines.push(l) });
      expect(ready).toEqual({ polls: 1, waitedMs: 0, status: null });
      expect(lines).toEqual([
        "agent's TLS certificate is refused (DEPTH_ZERO_SELF_SIGNED_CERT): self-signed, or signed by a CA Node does not trust; not waiting for it: point NODE_EXTRA_CA_CERTS at that CA's certificate (a PEM file) in the environment agent-replay runs in",
      ]);
    } finally {
      await tls.close();
    }
  });

  it('an https:// URL to a port that speaks plain HTTP ends the wait at the first poll, naming http:// (the server is up)', async () => {
    const agent = await agentStartingAfter(0);
    const lines: string[] = [];
    const ready = await waitForAgent({ url: agent.url.replace(/^http:/, 'https:'), headers: {}, seconds: 60, clock: instantClock(), log: (l) => lines.push(l) });
    expect(ready).toEqual({ polls: 1, waitedMs: 0, status: null });
    expect(lines).toEqual(['agent answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER); not waiting for it: the server speaks plain HTTP at that address, not HTTPS: write the URL with http://']);
  });

  it('an answer with headers over the size read ends the wait at the first poll, as the turns do not retry it', async () => {
    // undici gives up at 16 KB of headers (UND_ERR_HEADERS_OVERFLOW): the agent answers the same on every poll.
    let connections = 0;
    const big = createNetServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nset-cookie: ${'a'.repeat(70_000)}\r\ncontent-length: 0\r\n\r\n`));
    });
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    try {
      const lines: string[] = [];
      const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/api/chat`;
      const ready = await waitForAgent({ url, headers: {}, seconds: 60, clock: instantClock(), log: (l) => lines.push(l) });
      expect(ready).toEqual({ polls: 1, waitedMs: 0, status: null });
      expect(lines).toEqual([
        'agent gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW); not waiting for it: see what makes the agent, or a proxy in front of it, send that many headers (a cookie set on every answer, a header that grows)',
      ]);
      expect(connections).toBe(1);
    } finally {
      await new Promise((r) => big.close(r));
    }
  });

  it('a redirect is an answer, said as one that is not followed', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER, 302);
    const lines: string[] = [];
    expect(await waitForAgent({ url: agent.url, headers: {}, seconds: 5, clock: instantClock(), log: (l) => lines.push(l) })).toMatchObject({ polls: 1, status: 302 });
    expect(lines).toEqual([
      'agent answered HTTP 302 after 1 poll: the server is up, but redirects, and redirects are not followed: if the items error with HTTP 302, their cause names where it points (a sign-in page: a protected preview)',
    ]);
  });

  it('a 401 or 403 is an answer, said as a refusal that the items\' cause will name', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER, 401);
    const lines: string[] = [];
    expect(await waitForAgent({ url: agent.url, headers: {}, seconds: 5, clock: instantClock(), log: (l) => lines.push(l) })).toMatchObject({ polls: 1, status: 401 });
    expect(lines).toEqual([
      "agent answered HTTP 401 after 1 poll: the server is up, but refuses a request without the header it expects (a protected preview's bypass header, the agent's key): if the items error with HTTP 401, their cause names it",
    ]);
  });

  it("sends the URL's user and password as basic auth, as the turns do: a host whose basic auth answers 401 is not taken as the agent", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(req.headers.authorization === `Basic ${Buffer.from('preview:s3cret').toString('base64')}` ? 405 : 401).end();
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://preview:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
    expect(await waitForAgent({ url, headers: {}, seconds: 5, clock: instantClock() })).toMatchObject({ polls: 1, status: 405 });
    expect(seen).toEqual([`Basic ${Buffer.from('preview:s3cret').toString('base64')}`]);
    // agent.headers' own Authorization wins, as on the turns.
    expect(await waitForAgent({ url, headers: { Authorization: 'Bearer t' }, seconds: 5, clock: instantClock() })).toMatchObject({ status: 401 });
    expect(seen.at(-1)).toBe('Bearer t');
  });

  it('0 seconds: no wait and no request', async () => {
    const agent = await agentStartingAfter(0);
    expect(await waitForAgent({ url: agent.url, headers: {}, seconds: 0, clock: instantClock() })).toBeNull();
    expect(agent.seen).toEqual([]);
  });
});

const FIXTURES = { 'suite.yml': 'fixtures:\n  - { label: greeting, message: hello, assert: { contains: Welcome } }\n' };

describe('the engine waits before the first fixture', () => {
  it('replays once the agent answers; the GETs come before the first POST', async () => {
    const agent = await agentStartingAfter(2);
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\n  start: false\n  waitForAgent: 30\n`, fixtures: FIXTURES });
    const result = await runCheck({ dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['failed'], commit: null }, { clock: instantClock() });
    expect(result.kind).toBe('ran');
    expect(result.kind === 'ran' && result.record.tallies.passed).toBe(1);
    expect(agent.seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET', 'POST']);
  });

  it('when the agent never answers: AgentNotReady, and not one POST (nothing replayed, nothing spent)', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER);
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\n  start: false\n  waitForAgent: 30\n`, fixtures: FIXTURES });
    const run = runCheck({ dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['failed'], commit: null, waitForAgent: 4 }, { clock: instantClock() });
    await expect(run).rejects.toThrow(/^agent not ready after 4 s/); // the option wins over agent.waitForAgent
    expect(agent.seen.length).toBeGreaterThan(0);
    expect(agent.seen.filter((s) => s.method !== 'GET')).toEqual([]);
  });
});

describe('agent.waitForAgent in config.yml and --wait-for-agent', () => {
  it.each(['601', '-1', '1.5', '"30"'])('config agent.waitForAgent: %s is an error at its line', async (value) => {
    const cwd = await makeProject({ config: `agent:\n  url: http://127.0.0.1:9/chat\n  waitForAgent: ${value}\n`, fixtures: FIXTURES });
    const run = await cli(['validate'], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/config\.yml:3:\d+/);
    expect(run.stderr).toContain('agent.waitForAgent');
    expect(run.stderr).toContain(value === '"30"' ? 'number' : 'whole number');
  });

  it('run --wait-for-agent: exit 2 and one line when the agent is not ready; a bad value is a usage error', async () => {
    const cwd = await makeProject({ config: `agent:\n  url: ${await closedPortUrl()}\n  start: false\n`, fixtures: FIXTURES });
    const run = await cli(['run', '--wait-for-agent', '3'], cwd, {}, { engine: { clock: instantClock() } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('agent-replay: agent not ready after 3 s:');
    expect(run.stderr).toMatch(/the last one got connection refused at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    // The fix in the CLI's words: the flag (report/terminal.ts cliWords), not the Action's input.
    expect(run.stderr).toContain('or raise --wait-for-agent (agent.waitForAgent) if it starts slowly.');
    const bad = await cli(['run', '--wait-for-agent', 'soon'], cwd);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--wait-for-agent must be a whole number of seconds from 0 to 600, got "soon"');
  });
});

describe('an interrupted wait', () => {
  it('stops at once when the run is interrupted, without another poll', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER);
    const interrupt = new AbortController();
    // a clock whose sleeps never end: only the interrupt, pressed while it sleeps, can end the wait
    const signals: (AbortSignal | undefined)[] = [];
    const stuck = {
      now: () => 0,
      sleep: (_ms: number, signal?: AbortSignal) => {
        signals.push(signal);
        queueMicrotask(() => interrupt.abort());
        return new Promise<void>(() => undefined);
      },
    };
    const waiting = waitForAgent({ url: agent.url, headers: {}, seconds: 60, clock: stuck, signal: interrupt.signal });
    await expect(waiting).rejects.toThrow('interrupted while waiting for the agent, after 0 s: 1 poll (GET), the last one got HTTP 503; nothing was replayed and nothing was spent');
    expect(agent.seen).toHaveLength(1);
    // The sleep was given the interrupt, with which the real clock clears its timer: none outlives the wait.
    expect(signals.map((signal) => signal?.aborted)).toEqual([true]);
  });

  it('run: Ctrl-C during --wait-for-agent exits 130 and says it was interrupted, not that the agent was slow', async () => {
    const agent = await agentStartingAfter(Number.MAX_SAFE_INTEGER);
    const cwd = await makeProject({ config: `agent:\n  url: ${agent.url}\n`, fixtures: { 'a.yml': 'label: a\nmessage: hi\n' } });
    const interrupt = new AbortController();
    // The user presses Ctrl-C while the wait sleeps between two polls.
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void ((now += ms), interrupt.abort(new Interrupted('SIGINT'))) };
    const run = await cli(['run', '--wait-for-agent', '60'], cwd, {}, { signal: interrupt.signal, engine: { clock } });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('agent-replay: interrupted by SIGINT while waiting for the agent, after 1 s: 1 poll (GET), the last one got HTTP 503; nothing was replayed and nothing was spent');
    expect(run.stderr).not.toContain('raise wait-for-agent');
    expect(agent.seen.map((s) => s.method)).toEqual(['GET']);
  });
});
