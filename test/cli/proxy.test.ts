// Behind a proxy (docs/configuration.md, "Behind a proxy"): `run` reaches the agent and the judge
// through the proxy the environment names, against a real proxy on 127.0.0.1 (test/support/
// proxy-server.ts) that alone can resolve `agent.test` and `judge.test`: a request that did not go
// through it cannot connect. http:// addresses are forwarded, https:// ones tunnelled (CONNECT)
// with TLS end to end; loopback addresses and NO_PROXY's hosts are reached directly; the proxy's
// credentials reach the proxy and nothing else.

import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startServer, type TestServer } from '../judge/server.js';
import { startProxy, tlsFront, TEST_CA_FILE, type ProxyServer } from '../support/proxy-server.js';
import { instantClock } from '../../src/agent/ready.js';
import { agentConfig, byLabel, cli, makeProject, readResults, scriptedAgent, serve, spawnCli, useCleanup } from './helpers.js';
import { docsUrl } from '../../src/version.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

/** src/cli.ts bundled once per test run (test/support/entry-bundles.ts). */
const CLI = inject('cliBundle');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

const portOf = (url: string): number => Number(new URL(url).port);

async function proxy(hosts: Record<string, number>, requireAuth: string | null = null): Promise<ProxyServer> {
  const p = await startProxy({ hosts, requireAuth });
  closers.push(() => p.close());
  return p;
}

async function judge(): Promise<TestServer> {
  const server = await startServer([
    (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: 'polite enough', score: 0.9 }) } }] }));
    },
  ]);
  closers.push(() => server.close());
  return server;
}

/** The bundled CLI in a child process with exactly `env` (plus PATH and HOME). */
const spawnWith = (args: string[], cwd: string, env: Record<string, string>): ReturnType<typeof spawnCli> =>
  spawnCli(CLI, args, cwd, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', CI: 'true', ...env });

/** An address nothing listens on: its port was bound, then closed. */
async function deadProxy(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

/** One request per fixture: no welcome turn. */
const NO_WELCOME = '  start: false\n';
const FIXTURE = 'fixtures:\n  - { label: refund, message: refund, assert: { contains: "30 days" } }\n';

describe('run behind a proxy', () => {
  it('HTTP_PROXY: an http:// agent is reached through the proxy (its readiness GET and its turns forwarded), and the log says so', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const p = await proxy({ 'agent.test': portOf(agent.url) });
    const cwd = await makeProject({ config: agentConfig(`http://agent.test:${portOf(agent.url)}/chat`, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    // The readiness wait's GET goes the same way as the turns.
    const r = await cli(['run', '--out', 'results.json', '--wait-for-agent', '5'], cwd, { HTTP_PROXY: p.url });
    expect(r.code).toBe(0);
    expect(byLabel(await readResults(join(cwd, 'results.json'))).get('refund')?.verdict).toBe('pass');
    expect(p.seen.map((s) => s.line)).toEqual([`GET http://agent.test:${portOf(agent.url)}/chat`, `POST http://agent.test:${portOf(agent.url)}/chat`]);
    expect(agent.requests.map((q) => q.method)).toEqual(['GET', 'POST']);
    expect(r.stderr).toContain(`network: the agent (http://agent.test:${portOf(agent.url)}) through the proxy ${p.url}`);
  });

  it('HTTPS_PROXY with credentials: the agent and the judge over https, each through a tunnel, TLS end to end; the password is sent to the proxy and shown nowhere', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Yes, within 30 days, and politely.' }));
    const j = await judge();
    const agentTls = await tlsFront(portOf(agent.url));
    const judgeTls = await tlsFront(portOf(j.url));
    closers.push(agentTls.close, judgeTls.close);
    const auth = `Basic ${Buffer.from('ci-user:pr0xy-s3cret').toString('base64')}`;
    const p = await proxy({ 'agent.test': agentTls.port, 'judge.test': judgeTls.port }, auth);
    const config = `${agentConfig(`https://agent.test:${agentTls.port}/chat`, NO_WELCOME)}judge: { provider: openai, baseUrl: "https://judge.test:${judgeTls.port}/v1", model: m1, apiKey: k, retries: 0, backoffMs: 0 }\ncost: { capUsd: 5 }\n`;
    const fixtures = 'fixtures:\n  - { label: refund, message: refund, assert: [{ contains: "30 days" }, { judge: "The reply is polite", threshold: 0.5 }] }\n';
    const cwd = await makeProject({ config, fixtures: { 'f.yml': fixtures } });
    const r = await spawnWith(['run', '--out', 'results.json'], cwd, {
      HTTPS_PROXY: `http://ci-user:pr0xy-s3cret@127.0.0.1:${portOf(p.url)}`,
      NODE_EXTRA_CA_CERTS: TEST_CA_FILE,
    });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const item = byLabel(await readResults(join(cwd, 'results.json'))).get('refund');
    expect(item?.verdict).toBe('pass');
    expect(item?.reply).toBe('Yes, within 30 days, and politely.');
    expect(p.seen.map((s) => s.line).sort()).toEqual([`CONNECT agent.test:${agentTls.port}`, `CONNECT judge.test:${judgeTls.port}`]);
    expect(p.seen.every((s) => s.auth === auth)).toBe(true);
    expect(j.received).toHaveLength(1);
    expect(r.stderr).toContain(`network: the agent (https://agent.test:${agentTls.port}) through the proxy http://127.0.0.1:${portOf(p.url)}`);
    expect(r.stderr).toContain(`network: the judge (https://judge.test:${judgeTls.port}) through the proxy http://127.0.0.1:${portOf(p.url)}`);
    const written = await readFile(join(cwd, 'results.json'), 'utf8');
    for (const text of [r.stdout, r.stderr, written]) expect(text).not.toContain('pr0xy-s3cret');
  });

  it('a proxy that refuses the credentials (407): the fixture is errored with the refusal, the password shown nowhere', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const agentTls = await tlsFront(portOf(agent.url));
    closers.push(agentTls.close);
    const p = await proxy({ 'agent.test': agentTls.port }, `Basic ${Buffer.from('ci-user:right').toString('base64')}`);
    const cwd = await makeProject({ config: agentConfig(`https://agent.test:${agentTls.port}/chat`, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await spawnWith(['run', '--out', 'results.json', '--markdown', 'comment.md'], cwd, {
      HTTPS_PROXY: `http://ci-user:wr0ng-pw@127.0.0.1:${portOf(p.url)}`,
      NODE_EXTRA_CA_CERTS: TEST_CA_FILE,
    });
    const item = byLabel(await readResults(join(cwd, 'results.json'))).get('refund');
    expect(item?.errored).toBe(true);
    expect(item?.error).toBe('message turn: could not reach the agent after 1 attempt: the proxy refused the tunnel (CONNECT): HTTP 407, proxy authentication required');
    expect(agent.requests).toHaveLength(0);
    // The comment names the cause and the fix once, under the Not verified headline.
    const comment = await readFile(join(cwd, 'comment.md'), 'utf8');
    expect(comment).toContain(`**Cause**: the proxy refused to connect to \`https://agent.test:${agentTls.port}/chat\` \\(HTTP 407\\)\\: the proxy wants credentials, or refused those given\\: check the user and password in HTTPS\\_PROXY`);
    const written = await readFile(join(cwd, 'results.json'), 'utf8');
    for (const text of [r.stdout, r.stderr, written, comment]) expect(text).not.toContain('wr0ng-pw');
  });

  it('loopback agents and NO_PROXY hosts are reached directly: the proxy sees nothing', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const p = await proxy({ 'agent.test': portOf(agent.url) });
    const loopback = await makeProject({ config: agentConfig(agent.url, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const direct = await cli(['run', '--out', 'results.json'], loopback, { HTTP_PROXY: p.url });
    expect(direct.code).toBe(0);
    expect(direct.stderr).not.toContain('network:');
    // NO_PROXY names agent.test: reached directly, where the name does not resolve.
    const named = await makeProject({ config: agentConfig(`http://agent.test:${portOf(agent.url)}/chat`, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const bypassed = await cli(['run', '--out', 'results.json'], named, { HTTP_PROXY: p.url, NO_PROXY: '.test' });
    const item = byLabel(await readResults(join(named, 'results.json'))).get('refund');
    expect(item?.errored).toBe(true);
    expect(item?.error).toMatch(/agent\.test/);
    expect(bypassed.stderr).not.toContain('network:');
    expect(p.seen).toEqual([]);
    expect(agent.requests).toHaveLength(1);
  });

  it('probe goes the same way as run: through the proxy, its readiness GET too', async () => {
    const agent = await serve(scriptedAgent({ 'Can I return it?': 'Within 30 days.' }));
    const p = await proxy({ 'agent.test': portOf(agent.url) });
    const cwd = await makeProject({ config: agentConfig(`http://agent.test:${portOf(agent.url)}/chat`, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['probe', 'Can I return it?', '--wait-for-agent', '5'], cwd, { HTTP_PROXY: p.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Within 30 days.');
    expect(p.seen.map((s) => s.line)).toEqual([`GET http://agent.test:${portOf(agent.url)}/chat`, `POST http://agent.test:${portOf(agent.url)}/chat`]);
  });

  it('a proxy variable that is not a proxy address stops the run before anything is sent, naming the variable', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const cwd = await makeProject({ config: agentConfig(agent.url, NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--out', 'results.json'], cwd, { HTTPS_PROXY: 'socks5://u:s0cks-pw@proxy.corp:1080' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('HTTPS_PROXY names a socks5 proxy; agent-replay reaches servers through an http:// or https:// proxy only: give it as http://host:port');
    expect(r.stderr).not.toContain('s0cks-pw');
    expect(agent.requests).toHaveLength(0);
  });
});

describe('a proxy that cannot be reached', () => {
  it('the agent: the cause names the proxy and its variable, not agent.url, and never its credentials', async () => {
    const dead = await deadProxy();
    const cwd = await makeProject({ config: agentConfig('http://agent.test:8080/api/chat', NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--out', 'results.json'], cwd, { HTTP_PROXY: `http://ci-user:pr0xy-pw@${dead}` });
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: connection refused at the proxy http://${dead} (HTTP_PROXY), on the way to http://agent.test:8080/api/chat: nothing listens there: check HTTP_PROXY, or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`,
    );
    const item = byLabel(await readResults(join(cwd, 'results.json'))).get('refund');
    expect(item?.error).toBe(`message turn: could not reach the proxy http://${dead} (HTTP_PROXY) after 1 attempt: connection refused at ${dead} (ECONNREFUSED); check HTTP_PROXY, or NO_PROXY for hosts to reach directly`);
    quotedAndSaid(
      item?.error ?? '',
      'could not reach the proxy http://proxy.corp:3128 (HTTPS_PROXY) after <n> attempts: connection refused at <proxy address> (ECONNREFUSED); check HTTPS_PROXY, or NO_PROXY for hosts to reach directly',
      { 'proxy.corp:3128': dead, HTTPS_PROXY: 'HTTP_PROXY', '<n> attempts': '1 attempt' },
    );
    expect(item?.errorAddress).toBe(dead);
    const written = await readFile(join(cwd, 'results.json'), 'utf8');
    for (const text of [r.stdout, r.stderr, written]) expect(text).not.toContain('pr0xy-pw');
  });

  it('the judge: not evaluated with the proxy and its variable as the cause, not judge.baseUrl', async () => {
    const dead = await deadProxy();
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const config = `${agentConfig(agent.url, NO_WELCOME)}judge: { provider: openai, baseUrl: "https://judge.test/v1", model: m1, apiKey: k, retries: 0, backoffMs: 0 }\ncost: { capUsd: 5 }\n`;
    const fixtures = 'fixtures:\n  - { label: refund, message: refund, assert: { judge: "The reply is polite", threshold: 0.5 } }\n';
    const cwd = await makeProject({ config, fixtures: { 'f.yml': fixtures } });
    const r = await cli(['run', '--out', 'results.json'], cwd, { https_proxy: `http://ci-user:pr0xy-pw@${dead}` });
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: connection refused at the proxy http://${dead} (https_proxy), on the way to the judge: nothing listens there: check https_proxy, or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`,
    );
    expect(agent.requests).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain('pr0xy-pw');
  });

  it('--wait-for-agent: the wait names the proxy and says to check its variable, not the agent URL', async () => {
    const dead = await deadProxy();
    const cwd = await makeProject({ config: agentConfig('https://agent.test/api/chat', NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--wait-for-agent', '3'], cwd, { HTTPS_PROXY: `http://ci-user:pr0xy-pw@${dead}` }, { engine: { clock: instantClock() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the last one got connection refused (ECONNREFUSED) at the proxy http://${dead} (HTTPS_PROXY); nothing was replayed and nothing was spent.`);
    expect(r.stderr).toContain('The polls go through the proxy in HTTPS_PROXY and never reached it: check HTTPS_PROXY, or NO_PROXY for hosts to reach directly');
    expect(r.stderr).not.toContain('--agent-url');
    expect(r.stderr).not.toContain('pr0xy-pw');
  });
});

describe('a proxy at fault', () => {
  it("an https:// proxy whose certificate Node refuses: the cause names the proxy, its variable and its fix, not the agent's certificate; the password shown nowhere", async () => {
    const p = await proxy({});
    const front = await tlsFront(portOf(p.url));
    closers.push(front.close);
    const cwd = await makeProject({ config: agentConfig('https://agent.test/api/chat', NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--out', 'results.json', '--wait-for-agent', '5'], cwd, { HTTPS_PROXY: `https://ci-user:pr0xy-pw@127.0.0.1:${front.port}` }, { engine: { clock: instantClock() } });
    const fix = "point NODE_EXTRA_CA_CERTS at the proxy's CA certificate (a PEM file), or name agent.test in NO_PROXY to reach it directly";
    expect(r.stderr).toContain(`the TLS certificate of the proxy https://127.0.0.1:${front.port} (HTTPS_PROXY) is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT); not waiting for the agent: ${fix}`);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: the TLS certificate of the proxy https://127.0.0.1:${front.port} (HTTPS_PROXY) is refused, on the way to https://agent.test/api/chat: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT): ${fix}`,
    );
    const written = await readFile(join(cwd, 'results.json'), 'utf8');
    expect(byLabel(await readResults(join(cwd, 'results.json'))).get('refund')?.error).toContain(`the TLS certificate of the proxy https://127.0.0.1:${front.port} (HTTPS_PROXY) is refused`);
    for (const text of [r.stdout, r.stderr, written]) {
      expect(text).not.toContain('pr0xy-pw');
      expect(text).not.toContain("agent's TLS certificate");
    }
    expect(p.seen).toEqual([]);
  });
});

describe('a proxy that refuses the credentials (407), before the judge and the wait', () => {
  it('the judge: the tunnel is asked once, not retried, and the cause is the proxy\'s credentials', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const p = await proxy({ 'judge.test': 1 }, `Basic ${Buffer.from('ci-user:right').toString('base64')}`);
    const config = `${agentConfig(agent.url, NO_WELCOME)}judge: { provider: openai, baseUrl: "https://judge.test/v1", model: m1, apiKey: k, retries: 2, backoffMs: 0 }\ncost: { capUsd: 5 }\n`;
    const fixtures = 'fixtures:\n  - { label: refund, message: refund, assert: { judge: "The reply is polite", threshold: 0.5 } }\n';
    const cwd = await makeProject({ config, fixtures: { 'f.yml': fixtures } });
    const r = await cli(['run', '--out', 'results.json'], cwd, { HTTPS_PROXY: `http://ci-user:wr0ng-pw@127.0.0.1:${portOf(p.url)}` });
    expect(p.seen.map((s) => s.line)).toEqual(['CONNECT judge.test:443']);
    expect(r.stdout.split('\n')[1]).toBe(
      '  cause: the proxy refused to connect to the judge (HTTP 407): the proxy wants credentials, or refused those given: check the user and password in HTTPS_PROXY (http://user:password@host:port)',
    );
    expect(r.stdout + r.stderr).not.toContain('wr0ng-pw');
  });

  it('--wait-for-agent: the wait ends at the first 407, and the turn errors with it, tried once', async () => {
    const p = await proxy({ 'agent.test': 1 }, `Basic ${Buffer.from('ci-user:right').toString('base64')}`);
    const cwd = await makeProject({ config: agentConfig('https://agent.test/api/chat', NO_WELCOME), fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--wait-for-agent', '30'], cwd, { HTTPS_PROXY: `http://ci-user:wr0ng-pw@127.0.0.1:${portOf(p.url)}` }, { engine: { clock: instantClock() } });
    expect(p.seen.map((s) => s.line)).toEqual(['CONNECT agent.test:443', 'CONNECT agent.test:443']);
    expect(r.stderr).toContain(`the proxy http://127.0.0.1:${portOf(p.url)} (HTTPS_PROXY) answered HTTP 407, proxy authentication required; not waiting for the agent: check the user and password in HTTPS_PROXY`);
    expect(r.stdout).toContain('cause: the proxy refused to connect to https://agent.test/api/chat (HTTP 407)');
    expect(r.stdout + r.stderr).not.toContain('wr0ng-pw');
  });
});

describe('a forwarding proxy (HTTP_PROXY) that answers 407', () => {
  it('--wait-for-agent ends at its 407 (not a connection error polled for the whole wait), and the turn is errored with it, tried once, not an internal error', async () => {
    const agent = await serve(scriptedAgent({ refund: 'Within 30 days.' }));
    const p = await proxy({ 'agent.test': portOf(agent.url) }, `Basic ${Buffer.from('ci-user:right').toString('base64')}`);
    const cwd = await makeProject({ config: `agent:\n  url: http://agent.test:${portOf(agent.url)}/chat\n  retries: 2\n  backoffMs: 0\n${NO_WELCOME}`, fixtures: { 'f.yml': FIXTURE } });
    const r = await cli(['run', '--wait-for-agent', '30'], cwd, { HTTP_PROXY: `http://ci-user:wr0ng-pw@127.0.0.1:${portOf(p.url)}` }, { engine: { clock: instantClock() } });
    expect(p.seen.map((s) => s.line)).toEqual([`GET http://agent.test:${portOf(agent.url)}/chat`, `POST http://agent.test:${portOf(agent.url)}/chat`]);
    expect(r.stderr).toContain(`the proxy http://127.0.0.1:${portOf(p.url)} (HTTP_PROXY) answered HTTP 407, proxy authentication required; not waiting for the agent: check the user and password in HTTP_PROXY`);
    // The turn, sent once, errors with the proxy's refusal and its fix, not an internal error.
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: the proxy refused to connect to http://agent.test:${portOf(agent.url)}/chat (HTTP 407): the proxy wants credentials, or refused those given: check the user and password in HTTP_PROXY (http://user:password@host:port)`,
    );
    expect(agent.requests).toHaveLength(0);
    expect(r.stdout + r.stderr).not.toContain('wr0ng-pw');
  });
});
