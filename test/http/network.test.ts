// Which requests go through the environment's proxy (docs/configuration.md, "Behind a proxy"): the
// variables as curl and GitHub's toolkit read them, loopback never proxied, NO_PROXY's forms, and a
// value that is not a proxy address stopped with its variable's name and never its value.

import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request } from '../../src/http/undici.js';
import { DIRECT, isLoopback, networkFrom, ProxyConnectError, proxyFor, proxyName, proxySettings } from '../../src/http/network.js';
import { networkErrorCode } from '../../src/http/error-code.js';
import { UserError } from '../../src/errors.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const via = (env: Record<string, string>, target: string): string | null => {
  const settings = proxySettings(env);
  if (settings === null) return null;
  const proxy = proxyFor(settings, new URL(target));
  return proxy === null ? null : proxyName(proxy);
};

describe('proxySettings and proxyFor', () => {
  it('no proxy variable: null, every request direct', () => {
    expect(proxySettings({})).toBeNull();
    expect(proxySettings({ NO_PROXY: 'example.com', HTTP_PROXY: '  ' })).toBeNull();
  });

  it('https_proxy for https addresses, http_proxy for http ones; the lower-case name first', () => {
    const env = { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'http://plain:8080' };
    expect(via(env, 'https://api.openai.com/v1')).toBe('http://lower:3128');
    expect(via(env, 'http://preview.example.com/chat')).toBe('http://plain:8080');
    // Only an https proxy named: http addresses go directly (curl does the same).
    expect(via({ HTTPS_PROXY: 'http://p:3128' }, 'http://preview.example.com/chat')).toBeNull();
    expect(via({ HTTP_PROXY: 'http://p:3128' }, 'https://preview.example.com/chat')).toBeNull();
  });

  it('a value without a scheme is taken as http://; the name shown never carries the credentials', () => {
    expect(via({ HTTPS_PROXY: 'proxy.corp:3128' }, 'https://x.example')).toBe('http://proxy.corp:3128');
    expect(via({ HTTPS_PROXY: 'http://ci-user:hunter2@proxy.corp:3128' }, 'https://x.example')).toBe('http://proxy.corp:3128');
    const settings = proxySettings({ HTTPS_PROXY: 'http://ci-user:hunter2@proxy.corp:3128' });
    // The credentials stay in the URL the proxy agent is given.
    expect(settings?.https?.password).toBe('hunter2');
  });

  it('loopback addresses never go through the proxy, NO_PROXY or not', () => {
    const env = { HTTP_PROXY: 'http://p:3128', HTTPS_PROXY: 'http://p:3128' };
    for (const target of ['http://localhost:3000/chat', 'http://127.0.0.1:8080/', 'http://127.1.2.3/', 'https://[::1]:8443/', 'http://agent.localhost/']) {
      expect(via(env, target), target).toBeNull();
    }
    expect(isLoopback('localhost.example.com')).toBe(false);
    expect(isLoopback('128.0.0.1')).toBe(false);
    expect(via(env, 'http://10.0.0.5/chat')).toBe('http://p:3128');
  });

  it('NO_PROXY: a host and its subdomains, a leading dot or *., a port, an IPv6 address, and * for all', () => {
    const env = { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'internal.corp, .svc.local *.preview.dev,api.example.com:8443,::2,10.1.2.3' };
    expect(via(env, 'https://internal.corp/x')).toBeNull();
    expect(via(env, 'https://agent.internal.corp/x')).toBeNull();
    expect(via(env, 'https://notinternal.corp/x')).toBe('http://p:3128');
    expect(via(env, 'https://a.svc.local/x')).toBeNull();
    expect(via(env, 'https://svc.local/x')).toBeNull();
    expect(via(env, 'https://pr-12.preview.dev/chat')).toBeNull();
    expect(via(env, 'https://api.example.com:8443/v1')).toBeNull();
    expect(via(env, 'https://api.example.com/v1')).toBe('http://p:3128');
    expect(via(env, 'https://[::2]/v1')).toBeNull();
    expect(via(env, 'https://10.1.2.3/v1')).toBeNull();
    expect(via(env, 'https://api.openai.com/v1')).toBe('http://p:3128');
    expect(via({ HTTPS_PROXY: 'http://p:3128', no_proxy: '*' }, 'https://api.openai.com/v1')).toBeNull();
    // The lower-case name first, as for the proxies.
    expect(via({ HTTPS_PROXY: 'http://p:3128', no_proxy: 'a.example', NO_PROXY: 'api.openai.com' }, 'https://api.openai.com/v1')).toBe('http://p:3128');
  });

  it('NO_PROXY: CIDR ranges, as curl reads them, match addresses written as IPs', () => {
    const env = { HTTPS_PROXY: 'http://p:3128', HTTP_PROXY: 'http://p:3128', NO_PROXY: '10.0.0.0/8, 192.168.4.0/22,fd00::/8,[2001:db8::]/32, 172.16.0.0/33, preview.dev' };
    expect(via(env, 'https://10.20.30.40/chat')).toBeNull();
    expect(via(env, 'http://10.255.255.255:8080/chat')).toBeNull();
    expect(via(env, 'https://11.0.0.1/chat')).toBe('http://p:3128');
    expect(via(env, 'https://192.168.7.1/chat')).toBeNull();
    expect(via(env, 'https://192.168.8.1/chat')).toBe('http://p:3128');
    expect(via(env, 'https://[fd12:3456::1]/chat')).toBeNull();
    expect(via(env, 'https://[2001:db8:1::5]:8443/chat')).toBeNull();
    expect(via(env, 'https://[2001:db9::5]/chat')).toBe('http://p:3128');
    // An impossible prefix is skipped, as curl skips it; the other entries still hold.
    expect(via(env, 'https://172.16.0.1/chat')).toBe('http://p:3128');
    expect(via(env, 'https://pr-3.preview.dev/chat')).toBeNull();
    // A range matches an address, not a name that may resolve into it (curl does not resolve either).
    expect(via(env, 'https://agent.internal/chat')).toBe('http://p:3128');
  });

  it('a value that is not a proxy address: a UserError naming the variable and the fix, never the value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ HTTPS_PROXY: 'socks5://u:pw-in-value@p:1080' }, /^HTTPS_PROXY names a socks5 proxy; .*http:\/\/host:port$/],
      [{ http_proxy: 'http://u:pw-in-value@[bad' }, /^http_proxy is not a proxy address agent-replay can read: give it as http:\/\/host:port/],
    ];
    for (const [env, message] of cases) {
      let thrown: unknown;
      try {
        proxySettings(env);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(UserError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('pw-in-value');
      if ('HTTPS_PROXY' in env) quotedAndSaid((thrown as Error).message, 'HTTPS_PROXY names a socks5 proxy; ...');
      else quotedAndSaid((thrown as Error).message, 'HTTPS_PROXY is not a proxy address agent-replay can read ...', { HTTPS_PROXY: 'http_proxy' });
    }
  });
});

describe('networkFrom', () => {
  it('no proxy: the direct network, which names no proxy', async () => {
    expect(await networkFrom({ PATH: '/usr/bin' })).toBe(DIRECT);
    expect(DIRECT.via('https://api.openai.com')).toBeNull();
  });

  it('a proxy: says which origins go through it, and gives each a dispatcher that closes', async () => {
    const network = await networkFrom({ HTTPS_PROXY: 'http://u:pw@127.0.0.1:9', NO_PROXY: 'judge.internal' });
    expect(network.via('https://api.openai.com/v1')).toBe('http://127.0.0.1:9');
    expect(network.via('https://judge.internal/v1')).toBeNull();
    expect(network.via('http://127.0.0.1:3000/chat')).toBeNull();
    const proxied = network.dispatcher('https://api.openai.com/v1', { connections: 2 });
    const direct = network.dispatcher('http://127.0.0.1:3000/chat', { connections: 2 });
    expect(proxied.constructor.name).toBe('ProxyAgent');
    expect(direct.constructor.name).toBe('Agent');
    await Promise.all([proxied.close(), direct.close()]);
  });

  // undici's own connect timeout is 10 s; this test's budget is 5 s, so it fails unless the
  // client's 150 ms reaches the connection to the proxy.
  it("a client's connect timeout holds for its connection to the proxy", { timeout: 5_000 }, async () => {
    // An https:// proxy that accepts the connection and never answers the TLS handshake.
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const network = await networkFrom({ HTTPS_PROXY: `https://localhost:${port}` });
      // Both ways a client names it (the judge: connect.timeout; the readiness probe: connectTimeout), at once.
      const errors = await Promise.all(
        [{ connect: { timeout: 150 } }, { connectTimeout: 150 }].map(async (options) => {
          const dispatcher = network.dispatcher('https://judge.example/v1', options);
          const error = await request('https://judge.example/v1/chat', { dispatcher, method: 'GET' }).then(
            () => null,
            (e: Error & { code?: string }) => e,
          );
          await dispatcher.destroy();
          // The proxy's failure (src/http/proxy-agent.ts), around undici's.
          return error instanceof ProxyConnectError ? networkErrorCode(error) : error;
        }),
      );
      expect(errors).toEqual(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);
      expect(sockets.length).toBeGreaterThanOrEqual(2);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  // undici's proxy client waits 300 s for an answer to CONNECT; this test's budget is 5 s.
  it("a client's connect timeout holds for the proxy's answer to CONNECT (a proxy that takes the connection and never answers)", { timeout: 5_000 }, async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const network = await networkFrom({ HTTPS_PROXY: `http://127.0.0.1:${port}` });
      const errors = await Promise.all(
        [{ connect: { timeout: 150 } }, { connectTimeout: 150 }].map(async (options) => {
          const dispatcher = network.dispatcher('https://judge.example/v1', options);
          const error = await request('https://judge.example/v1/chat', { dispatcher, method: 'GET' }).then(
            () => null,
            (e: Error & { code?: string }) => e,
          );
          await dispatcher.destroy();
          // The proxy's failure, with the time it was given: not taken for the server's headers timeout.
          return error instanceof ProxyConnectError ? [networkErrorCode(error), error.timeoutMs] : error;
        }),
      );
      expect(errors).toEqual([
        ['UND_ERR_HEADERS_TIMEOUT', 150],
        ['UND_ERR_HEADERS_TIMEOUT', 150],
      ]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
