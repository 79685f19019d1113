// One reading of a network error's code (src/http/error-code.ts) for the agent's client, its
// readiness probe, the judge and the simulator: through causes and an AggregateError's errors.
// The AggregateError is a real one: a host whose name gives an IPv6 address this machine cannot
// reach (2001:db8::/32, documentation only: it times out, or is unreachable at once) and 127.0.0.1,
// where nothing listens, as a runner without IPv6 sees a host with both records. Node copies the
// first address's code (ETIMEDOUT) onto it and leaves its message empty.

import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Dispatcher } from 'undici';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { describePollError, instantClock, waitForAgent } from '../../src/agent/ready.js';
import { defaultConfig } from '../../src/config.js';
import { networkErrorCode, networkErrorText, otherNetworkFailureText } from '../../src/http/error-code.js';
import type { Network } from '../../src/http/network.js';
import { Agent } from '../../src/http/undici.js';
import { judgeOutcome } from '../../src/assertions/judge.js';
import { causeLine, causeOf } from '../../src/evaluate/causes.js';
import { createJudge } from '../../src/judge/index.js';
import { createMeaningJudge } from '../../src/judge/meaning.js';
import { createSimulator } from '../../src/simulator/index.js';
import { createGitHubApi } from '../../src/github/api.js';
import { networkWords } from '../../src/github/errors.js';
import { httpsProxyOf } from '../../src/github/proxy.js';
import { createQuerySource } from '../../src/traces/query.js';
import { clientCertServer, HANDSHAKE_FAILURE_CODE, tlsFront } from '../support/proxy-server.js';
import type { Clock } from '../../src/types.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const clock: Clock = { now: () => 0, sleep: async () => undefined };

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

type Lookup = (host: string, options: object, callback: (err: Error | null, addresses: { address: string; family: number }[]) => void) => void;
/** `two.test` is an unreachable IPv6 address, then 127.0.0.1. */
const twoAddresses: Lookup = (_host, _options, callback) =>
  callback(null, [
    { address: '2001:db8::1', family: 6 },
    { address: '127.0.0.1', family: 4 },
  ]);
const connect = { lookup: twoAddresses, autoSelectFamily: true, autoSelectFamilyAttemptTimeout: 10 };

/** Every client's connections resolve `two.test` so, and go direct. */
const TWO_ADDRESSES: Network = {
  dispatcher: (_target, options): Dispatcher => new Agent({ ...options, connect: { ...(typeof options.connect === 'object' ? options.connect : {}), ...connect } }),
  via: () => null,
  route: () => null,
};

/** The real error of a connection to both addresses. */
async function aggregateError(port: number): Promise<unknown> {
  const { connect: netConnect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = netConnect({ host: 'two.test', port, ...connect });
    socket.on('error', resolve);
    socket.on('connect', () => resolve(new Error('connected')));
  });
}

describe('networkErrorCode and networkErrorText', () => {
  it("an AggregateError: the address that answered (ECONNREFUSED), not the one given up on that Node's own code copies", async () => {
    const port = await closedPort();
    const err = (await aggregateError(port)) as AggregateError & { code: string };
    expect(err).toBeInstanceOf(AggregateError);
    expect(err.message).toBe('');
    expect(['ETIMEDOUT', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EINVAL']).toContain(err.code);
    expect(networkErrorCode(err)).toBe('ECONNREFUSED');
    expect(networkErrorText(err)).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(describePollError(err)).toBe('connection refused (ECONNREFUSED)');
    expect(describePollError(err, `127.0.0.1:${port}`)).toBe(`connection refused at 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('a code no words are had for: `a connection error (CODE)`, never its message', () => {
    const err = new TypeError('fetch failed', { cause: Object.assign(new Error('decryption failed or bad record mac'), { code: 'ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC' }) });
    expect(otherNetworkFailureText(err)).toBe('a connection error (ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)');
  });

  it('a cause chain: the innermost code (a wrapper around a certificate error; fetch-style TypeError with none of its own)', () => {
    const tls = Object.assign(new Error('Hostname/IP does not match certificate'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    const wrapped = Object.assign(new Error('Secure Proxy Connection failed', { cause: tls }), { code: 'UND_ERR_PRX_TLS' });
    expect(networkErrorCode(wrapped)).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(networkErrorCode(new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }))).toBe('ECONNRESET');
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(networkErrorCode(loop)).toBeUndefined();
    expect(networkErrorCode('not an error')).toBeUndefined();
  });
});

describe('the clients, at a host with an unreachable IPv6 address and a closed IPv4 one', () => {
  it('each names the refusal, with the address that refused', async () => {
    const port = await closedPort();
    const base = `http://two.test:${port}`;
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: `${base}/chat`, start: null, retries: 0 }, { clock, network: TWO_ADDRESSES });
    const judgeConfig = { provider: 'openai' as const, baseUrl: base, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 0, backoffMs: 1, concurrency: 1, label: null };
    const judge = createJudge(judgeConfig, { clock, random: () => 0.5, network: TWO_ADDRESSES });
    const simulator = createSimulator(judgeConfig, { clock, network: TWO_ADDRESSES });
    try {
      const turn = await agent.converse({ session: 's', message: 'hi', persona: null });
      expect(turn.kind === 'errored' ? turn.error : turn.kind).toBe(
        `message turn: could not reach the agent after 1 attempt: connection refused at 127.0.0.1:${port} (ECONNREFUSED); nothing listens there: check agent-url (agent.url) and that the agent is running`,
      );
      // The address is kept as data beside the words, for the cause (src/evaluate/causes.ts).
      expect(turn.kind === 'errored' ? turn.address : turn.kind).toBe(`127.0.0.1:${port}`);
      const ready = await waitForAgent({ url: `${base}/chat`, headers: {}, seconds: 1, clock: instantClock(), network: TWO_ADDRESSES }).then(
        () => 'ready',
        (e: Error) => e.message,
      );
      expect(ready).toContain(`the last one got connection refused at 127.0.0.1:${port} (ECONNREFUSED);`);
      expect(await judge.score('c', 'r')).toEqual({ ok: false, reason: `connection refused at 127.0.0.1:${port} (ECONNREFUSED)` });
      expect(await simulator.next({ goal: 'g', instructions: null, persona: null, turn: 1, maxTurns: 2, transcript: [] })).toEqual({ kind: 'fault', fault: `simulator unreachable: connection refused at 127.0.0.1:${port} (ECONNREFUSED)`, retries: 0 });
    } finally {
      await Promise.all([agent.close(), judge.close(), simulator.close()]);
    }
  });
});

describe('the clients, at a port where something other than HTTP answers (another service on it)', () => {
  it('each says it answered, in our words, never "unreachable", and none asks it again (one connection each)', async () => {
    let connections = 0;
    const garbage = createServer((socket) => {
      connections++;
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    const judgeConfig = { provider: 'openai' as const, baseUrl: `http://${host}/v1`, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 2, backoffMs: 1, concurrency: 1, label: null };
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: `http://${host}/chat`, start: null, retries: 2 }, { clock });
    const judge = createJudge(judgeConfig, { clock, random: () => 0.5 });
    const meaning = createMeaningJudge(judgeConfig, { clock, random: () => 0.5 });
    const simulator = createSimulator(judgeConfig, { clock });
    const seen: string[] = [];
    try {
      const fix = (who: string, setting: string): string => `something other than ${who}'s HTTP server answers there: check the port in ${setting}`;
      const turn = await agent.converse({ session: 's', message: 'hi', persona: null });
      expect(turn.kind === 'errored' ? turn.error : turn.kind).toBe(`message turn: the agent at ${host} gave an answer that is not valid HTTP, after 1 attempt; ${fix('the agent', 'agent-url (agent.url)')}`);
      const judged = await judge.score('c', 'r');
      expect(judgeOutcome(judged, 0.7).detail).toBe(`judge gave no usable answer: the judge at ${host} gave an answer that is not valid HTTP; ${fix('the judge', 'judge-base-url (judge.baseUrl)')}`);
      expect(await meaning.ask({ before: [], message: 'm', baseline: 'a', now: 'b' })).toEqual({
        ok: false,
        reason: `meaning judge gave no usable answer: the meaning judge at ${host} gave an answer that is not valid HTTP; ${fix('the meaning judge', 'meaning.baseUrl (else judge-base-url (judge.baseUrl))')}`,
        reused: false,
      });
      expect(await simulator.next({ goal: 'g', instructions: null, persona: null, turn: 1, maxTurns: 2, transcript: [] })).toEqual({
        kind: 'fault',
        fault: `simulator gave no usable answer: the simulator at ${host} gave an answer that is not valid HTTP; ${fix('the simulator', 'simulator.baseUrl (else judge-base-url (judge.baseUrl))')}`,
        retries: 0,
      });
      // --wait-for-agent ends at its first poll: the port answers the same on every poll.
      const ready = await waitForAgent({ url: `http://${host}/chat`, headers: {}, seconds: 60, clock: instantClock(), log: (l) => seen.push(l) });
      expect(ready).toMatchObject({ polls: 1, status: null });
      expect(seen).toEqual([`agent gave an answer that is not valid HTTP; not waiting for it: ${fix('the agent', 'agent-url (agent.url)')}`]);
      expect(connections).toBe(5);
    } finally {
      await Promise.all([agent.close(), judge.close(), meaning.close(), simulator.close()]);
      await new Promise<void>((resolve) => garbage.close(() => resolve()));
    }
  });
});

describe('the clients, at a TLS server that requires a client certificate (it answers the handshake with an alert)', () => {
  it('each names the alert and what to check, never "unreachable" nor "a connection error", and none asks it again (one connection each)', async () => {
    const mtls = await clientCertServer();
    const host = `127.0.0.1:${mtls.port}`;
    const judgeConfig = { provider: 'openai' as const, baseUrl: `https://${host}/v1`, model: 'm', apiKey: 'k', timeoutMs: 2000, retries: 2, backoffMs: 1, concurrency: 1, label: null };
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: `https://${host}/chat`, start: null, retries: 2 }, { clock });
    const judge = createJudge(judgeConfig, { clock, random: () => 0.5 });
    const meaning = createMeaningJudge(judgeConfig, { clock, random: () => 0.5 });
    const simulator = createSimulator(judgeConfig, { clock });
    const seen: string[] = [];
    const alert = `handshake failure (${HANDSHAKE_FAILURE_CODE})`;
    const fix = (setting: string, server = 'the server'): string =>
      `check whether ${server} asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in ${setting} is its https:// port (http:// for a plain HTTP one)`;
    try {
      const turn = await agent.converse({ session: 's', message: 'hi', persona: null });
      expect(turn.kind === 'errored' ? turn.error : turn.kind).toBe(`message turn: the agent answered the TLS handshake with an alert, after 1 attempt: ${alert}; ${fix('agent-url (agent.url)')}`);
      const judged = await judge.score('c', 'r');
      expect(judged).toEqual({ ok: false, reason: `it answered the TLS handshake with an alert: ${alert}; ${fix('judge-base-url (judge.baseUrl)')}`, answered: true });
      // Over its 200 characters, the item's detail keeps what happened, not a fix cut mid-sentence; its cause says the fix whole (src/evaluate/causes.ts).
      expect(judgeOutcome(judged, 0.7).detail).toBe(`judge gave no usable answer: it answered the TLS handshake with an alert: ${alert}`);
      quotedAndSaid(judgeOutcome(judged, 0.7).detail, 'judge gave no usable answer: it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)', {
        ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: HANDSHAKE_FAILURE_CODE,
      });
      const judgeCause = causeOf({ label: 'f', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail: judgeOutcome(judged, 0.7).detail }] }, null);
      const judgeLine = judgeCause === null ? 'no cause' : causeLine({ ...judgeCause, labels: ['f'] }, 1);
      quotedAndSaid(judgeLine, 'the judge answered the TLS handshake with an alert: ...');
      quotedAndSaid(judgeLine, 'check whether the server asks for a client certificate ...');
      expect(await meaning.ask({ before: [], message: 'm', baseline: 'a', now: 'b' })).toEqual({
        ok: false,
        reason: `meaning judge gave no usable answer: it answered the TLS handshake with an alert: ${alert}; ${fix('meaning.baseUrl (else judge-base-url (judge.baseUrl))')}`,
        reused: false,
      });
      expect(await simulator.next({ goal: 'g', instructions: null, persona: null, turn: 1, maxTurns: 2, transcript: [] })).toEqual({
        kind: 'fault',
        fault: `simulator gave no usable answer: it answered the TLS handshake with an alert: ${alert}; ${fix('simulator.baseUrl (else judge-base-url (judge.baseUrl))')}`,
        retries: 0,
      });
      // --wait-for-agent ends at its first poll: the server answers the same on every poll.
      const ready = await waitForAgent({ url: `https://${host}/chat`, headers: {}, seconds: 60, clock: instantClock(), log: (l) => seen.push(l) });
      expect(ready).toMatchObject({ polls: 1, status: null });
      expect(seen).toEqual([`agent answered the TLS handshake with an alert: ${alert}; not waiting for it: ${fix('agent-url (agent.url)')}`]);
      // GitHub's API and a trace store say it in the same words, each with its own setting; the store asks once, not until traces.waitMs.
      // Asked with retries: an alert is the same answer on every try, so none is made (src/github/octokit.ts).
      const github = createGitHubApi({ token: 't', baseUrl: `https://${host}`, retries: 2, retryAfterBaseMs: 0, throttleWrites: false });
      await expect(github.listIssueComments('o', 'r', 5)).rejects.toThrow(
        `GET /repos/o/r/issues/5/comments → network: GitHub's API answered the TLS handshake with an alert: ${alert}; ${fix('GITHUB_API_URL', "GitHub's API, or a proxy on its way (HTTPS_PROXY),")}`,
      );
      const store = createQuerySource({ kind: 'tempo', url: `https://${host}`, apiKey: null, waitMs: 60_000, clock: instantClock() });
      try {
        await expect(store.collect('0'.repeat(32), '1'.repeat(16))).rejects.toThrow(
          new RegExp(`^GET https://${host}/api/v2/traces/0{32} failed: the store answered the TLS handshake with an alert: ${alert.replace(/[()/]/g, '\\$&')}; ${fix('traces.query.url').replace(/[().]/g, '\\$&')}$`),
        );
      } finally {
        await store.close();
      }
      expect(mtls.connections()).toBe(7);
    } finally {
      await Promise.all([agent.close(), judge.close(), meaning.close(), simulator.close()]);
      await mtls.close();
    }
  });
});

describe("GitHub's API at a server whose certificate Node refuses", () => {
  it('is asked once, not retried (the same certificate comes on every try), and says the certificate', async () => {
    const front = await tlsFront(1);
    try {
      const github = createGitHubApi({ token: 't', baseUrl: `https://127.0.0.1:${front.port}`, retries: 2, retryAfterBaseMs: 0, throttleWrites: false });
      await expect(github.listIssueComments('o', 'r', 5)).rejects.toThrow(/^GET \/repos\/o\/r\/issues\/5\/comments → network: .*DEPTH_ZERO_SELF_SIGNED_CERT/);
      expect(front.connections()).toBe(1);
    } finally {
      await front.close();
    }
  });
});

describe("GitHub's API reached through an https:// proxy that speaks plain HTTP", () => {
  it('names the proxy and its variable, not GITHUB_API_URL; an http:// proxy, or none on the way, leaves GitHub\'s API named', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const { connect } = await import('node:tls');
    const plain = createHttpServer((_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      // The error a TLS handshake with a plain-HTTP server gives on this machine (the proxy's, through an https:// one).
      const error = await new Promise<Error>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port, servername: 'proxy.corp.example' }, () => resolve(new Error('handshake completed')));
        socket.on('error', resolve);
      });
      const code = networkErrorCode(error) ?? '';
      expect(code).toMatch(/^(?:ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)$/);
      const env = { GITHUB_API_URL: 'https://ghe.corp.example/api/v3', HTTPS_PROXY: `https://user:secret@proxy.corp.example:${port}` };
      expect(networkWords(error, httpsProxyOf(env))).toBe(
        `the proxy https://proxy.corp.example:${port} (HTTPS_PROXY) answered without TLS (${code}); the proxy speaks plain HTTP at that address, not HTTPS: write its URL with http:// in HTTPS_PROXY (if it does speak TLS, GitHub's API behind it answered without TLS: write GITHUB_API_URL with http://)`,
      );
      expect(networkWords(error, httpsProxyOf({ ...env, HTTPS_PROXY: undefined, https_proxy: `https://proxy.corp.example:${port}` }))).toContain('(https_proxy) answered without TLS');
      const api = `GitHub's API answered without TLS (${code}); the server speaks plain HTTP at that address, not HTTPS: write the URL with http:// in GITHUB_API_URL`;
      expect(networkWords(error, httpsProxyOf({ ...env, HTTPS_PROXY: `http://proxy.corp.example:${port}` }))).toBe(api);
      expect(networkWords(error, httpsProxyOf({ ...env, NO_PROXY: 'corp.example' }))).toBe(api);
      expect(networkWords(error, httpsProxyOf({ GITHUB_API_URL: env.GITHUB_API_URL }))).toBe(api);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});

describe("GitHub's API reached with https:// at a port that speaks plain HTTP", () => {
  it('is asked once, not retried (the same plain-HTTP answer comes on every try), and says it in the agent client\'s words with GITHUB_API_URL', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    let connections = 0;
    const plain = createHttpServer((_req, res) => res.end('{}'));
    plain.on('connection', () => connections++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      const github = createGitHubApi({ token: 't', baseUrl: `https://127.0.0.1:${port}`, retries: 2, retryAfterBaseMs: 0, throttleWrites: false });
      const error = await github.listIssueComments('o', 'r', 5).then(
        () => null,
        (e: unknown) => e,
      );
      // The code as this machine's OpenSSL names a plain-HTTP answer to the handshake (src/http/tls.ts, NOT_TLS).
      expect((error as Error).message).toMatch(
        /^GET \/repos\/o\/r\/issues\/5\/comments → network: GitHub's API answered without TLS \((?:ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG)\); the server speaks plain HTTP at that address, not HTTPS: write the URL with http:\/\/ in GITHUB_API_URL$/,
      );
      expect(connections).toBe(1);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
