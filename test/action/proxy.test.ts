// Check mode on a runner behind a proxy (docs/configuration.md, "Behind a proxy"): the bundled
// Action, with HTTP_PROXY in its environment as a self-hosted runner's, reaches the agent through a
// real proxy on 127.0.0.1 that alone resolves `agent.test`, and GitHub's API (the fake, named
// `github.test`, which the proxy alone resolves too) through tunnels (CONNECT) it opens; a host in
// NO_PROXY is reached directly. Each request to the fake is checked against GitHub's OpenAPI
// description (test/support/github-server.ts), and the comment is posted as usual.

import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentServer } from '../support/agent-server.js';
import type { FakeGitHub } from '../support/github-server.js';
import { startProxy, type ProxyServer } from '../support/proxy-server.js';
import { tempDir } from '../support/temp.js';
import { HEAD, makeWorkspace, pullPayload, runAction, useServers } from './harness.js';

let agent: AgentServer;
let gh: FakeGitHub;
useServers(
  (req) => ({ json: { reply: `echo: ${String((req.json as { message?: unknown } | undefined)?.message)}` } }),
  (g) => {
    g.addPull('octo', 'shop', { number: 7, headSha: HEAD });
  },
  (a, g) => {
    agent = a;
    gh = g;
  },
);

const ghPortOf = (g: FakeGitHub): number => Number(new URL(g.url).port);

let proxy: ProxyServer | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
});

describe('check mode behind a proxy', () => {
  it('the agent through HTTP_PROXY, the log naming it; the run passes and comments', async () => {
    const port = Number(new URL(agent.url).port);
    const ghPort = ghPortOf(gh);
    proxy = await startProxy({ hosts: { 'agent.test': port, 'github.test': ghPort } });
    const before = agent.requests.length;
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: hello, message: hello, assert: { contains: "echo: hello" } }\n', config: 'agent:\n  retries: 0\n  start: false\n' });
    // What Node loaded, written at the exit by a preload.
    const probe = await tempDir('agent-replay-loads-');
    await writeFile(join(probe, 'preload.mjs'), `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(join(probe, 'loaded'))}, process.moduleLoadList.join('\\n')));\n`);
    const run = await runAction({
      gh,
      workspace,
      inputs: { 'agent-url': `http://agent.test:${port}/chat` },
      event: { name: 'pull_request', payload: pullPayload() },
      env: { HTTP_PROXY: proxy.url, NODE_OPTIONS: `--import=${join(probe, 'preload.mjs')}`, GITHUB_API_URL: `http://github.test:${ghPort}`, GITHUB_GRAPHQL_URL: `http://github.test:${ghPort}/graphql` },
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`network: the agent (http://agent.test:${port}) through the proxy ${proxy.url}`);
    // The agent's request forwarded; GitHub's API (GITHUB_API_URL http://github.test:PORT, which only
    // the proxy resolves) reached through tunnels, as @actions/github's fetch opens them for any address.
    const lines = proxy.seen.map((s) => s.line);
    expect(lines[0]).toBe(`POST http://agent.test:${port}/chat`);
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines.slice(1))).toEqual(new Set([`CONNECT github.test:${ghPort}`]));
    expect(run.stdout + run.stderr).not.toContain('GitHub failed');
    expect(agent.requests.length - before).toBe(1);
    expect(run.outputs).toMatchObject({ gate: 'passed', 'comment-status': 'created' });
    expect(gh.comments('octo', 'shop', 7)).toHaveLength(1);
    expect(gh.violations).toEqual([]);
    // Neither node:http2 nor node:zlib: undici's HTTP/2 client and fetch's decoders are loaded on first use (scripts/bundle.mjs, lazyModules).
    const loaded = (await readFile(join(probe, 'loaded'), 'utf8')).split('\n');
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((m) => m === 'NativeModule http2' || m === 'NativeModule zlib')).toEqual([]);
  });

  it('wait-for-agent through a proxy nothing listens on: the comment names the proxy and says to check HTTP_PROXY, not the agent URL', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const { port } = dead.address() as AddressInfo;
    await new Promise((resolve) => dead.close(resolve));
    const workspace = await makeWorkspace({ fixtures: 'fixtures:\n  - { label: hello, message: hello, assert: { contains: "echo: hello" } }\n', config: 'agent:\n  retries: 0\n  start: false\n' });
    const run = await runAction({
      gh,
      workspace,
      inputs: { 'agent-url': 'http://agent.test:8080/chat', 'wait-for-agent': '5' },
      event: { name: 'pull_request', payload: pullPayload() },
      // GitHub's API at 0.0.0.0 (this machine on Linux, and not a loopback name, which @actions/http-client
      // never proxies): named in NO_PROXY, it is reached directly, and the dead proxy is never tried for it.
      env: { HTTP_PROXY: `http://ci-user:pr0xy-pw@127.0.0.1:${port}`, NO_PROXY: 'example.org,0.0.0.0', GITHUB_API_URL: `http://0.0.0.0:${ghPortOf(gh)}`, GITHUB_GRAPHQL_URL: `http://0.0.0.0:${ghPortOf(gh)}/graphql` },
    });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const body = gh.comments('octo', 'shop', 7).at(-1)?.body ?? '';
    expect(body).toContain(`the last one got connection refused \\(ECONNREFUSED\\) at the proxy http\\://127.0.0.1\\:${port} \\(HTTP\\_PROXY\\)`);
    expect(body).toContain('check HTTP\\_PROXY, or NO\\_PROXY for hosts to reach directly');
    expect(body).not.toContain('Check that the preview deployed');
    expect(run.stdout + body).not.toContain('pr0xy-pw');
    expect(gh.violations).toEqual([]);
  });
});
