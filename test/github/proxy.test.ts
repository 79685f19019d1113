// The route the GitHub path's words name is @actions/http-client's own (src/github/proxy.ts): the
// decision is checked against its getProxyUrl, the copy @actions/github loads and the top-level one,
// for the cases where its rules and ours (src/http/network.ts) part.

import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { httpsProxyOf, toolkitProxy } from '../../src/github/proxy.js';
import { getProxyUrl as topLevelProxyUrl } from '@actions/http-client/lib/proxy';

/** The @actions/http-client that @actions/github itself loads (its own dependency, resolved from its folder). */
const githubs = createRequire(new URL('../../node_modules/@actions/github/package.json', import.meta.url))('@actions/http-client/lib/proxy') as { getProxyUrl: (url: URL) => URL | undefined };

const VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
afterEach(() => {
  for (const v of VARIABLES) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});

/** What @actions/http-client (`get`) decides for `url` under `env`: the proxy's address, or null. */
function theirs(get: (url: URL) => URL | undefined, env: Record<string, string>, url: string): string | null {
  for (const v of VARIABLES) delete process.env[v];
  Object.assign(process.env, env);
  return get(new URL(url))?.href ?? null;
}

const PROXY = 'https://proxy.corp.example:3128';
const CASES: [string, Record<string, string>, string][] = [
  // Names under localhost go through the proxy (ours reach them directly).
  ['a name under localhost', { HTTPS_PROXY: PROXY }, 'https://ghe.localhost/api/v3'],
  ['localhost', { HTTPS_PROXY: PROXY }, 'https://localhost:8443/api/v3'],
  ['127.x', { HTTPS_PROXY: PROXY }, 'https://127.0.0.1:8443/api/v3'],
  ['a name beginning 127.', { HTTPS_PROXY: PROXY }, 'https://127.0.0.1.nip.io/api/v3'],
  ['[::1]', { HTTPS_PROXY: PROXY }, 'https://[::1]:8443/api/v3'],
  // NO_PROXY: no CIDR range, commas only, no `*.host`.
  ['a CIDR range', { HTTPS_PROXY: PROXY, NO_PROXY: '10.0.0.0/8' }, 'https://10.1.2.3/api/v3'],
  ['entries separated by spaces', { HTTPS_PROXY: PROXY, NO_PROXY: 'other.example corp.example' }, 'https://ghe.corp.example/api/v3'],
  ['*.host', { HTTPS_PROXY: PROXY, NO_PROXY: '*.corp.example' }, 'https://ghe.corp.example/api/v3'],
  ['a host and its subdomains', { HTTPS_PROXY: PROXY, NO_PROXY: 'other.example, corp.example' }, 'https://ghe.corp.example/api/v3'],
  ['.host', { HTTPS_PROXY: PROXY, NO_PROXY: '.corp.example' }, 'https://ghe.corp.example/api/v3'],
  ['host:port', { HTTPS_PROXY: PROXY, NO_PROXY: 'ghe.corp.example:443' }, 'https://ghe.corp.example/api/v3'],
  ['host:another port', { HTTPS_PROXY: PROXY, NO_PROXY: 'ghe.corp.example:8443' }, 'https://ghe.corp.example/api/v3'],
  ['*', { HTTPS_PROXY: PROXY, NO_PROXY: '*' }, 'https://api.github.com'],
  ['lower-case no_proxy first', { HTTPS_PROXY: PROXY, no_proxy: 'other.example', NO_PROXY: 'github.com' }, 'https://api.github.com'],
  // The variable: lower case first, an empty one passed over; http:// addresses take HTTP_PROXY.
  ['lower-case https_proxy first', { https_proxy: 'https://lower.example:3128', HTTPS_PROXY: PROXY }, 'https://api.github.com'],
  ['an empty https_proxy', { https_proxy: '', HTTPS_PROXY: PROXY }, 'https://api.github.com'],
  ['an http:// API', { HTTPS_PROXY: PROXY, HTTP_PROXY: 'https://plain.example:3128' }, 'http://ghe.corp.example/api/v3'],
  ['a proxy without its scheme', { HTTPS_PROXY: 'proxy.corp.example' }, 'https://api.github.com'],
  ['no proxy', {}, 'https://api.github.com'],
];

describe("the GitHub path's proxy, as @actions/http-client decides it", () => {
  it.each(CASES)('%s', (_what, env, url) => {
    const ours = toolkitProxy(env, new URL(url))?.proxy.href ?? null;
    expect(ours).toBe(theirs(githubs.getProxyUrl, env, url));
    expect(ours).toBe(theirs(topLevelProxyUrl, env, url));
  });

  it('the words name the proxy the calls took, with its variable, where our own rules would reach GitHub directly', () => {
    expect(httpsProxyOf({ GITHUB_API_URL: 'https://ghe.localhost/api/v3', HTTPS_PROXY: PROXY })).toEqual({ name: PROXY, variable: 'HTTPS_PROXY' });
    expect(httpsProxyOf({ GITHUB_API_URL: 'https://10.1.2.3/api/v3', HTTPS_PROXY: PROXY, NO_PROXY: '10.0.0.0/8' })).toEqual({ name: PROXY, variable: 'HTTPS_PROXY' });
    expect(httpsProxyOf({ GITHUB_API_URL: 'https://ghe.corp.example/api/v3', HTTPS_PROXY: PROXY, NO_PROXY: '*.corp.example' })).toEqual({ name: PROXY, variable: 'HTTPS_PROXY' });
    // An http:// API goes through HTTP_PROXY's proxy: an https:// one there is the handshake's.
    expect(httpsProxyOf({ GITHUB_API_URL: 'http://ghe.corp.example/api/v3', HTTP_PROXY: 'https://user:pw@plain.example:3128' })).toEqual({ name: 'https://plain.example:3128', variable: 'HTTP_PROXY' });
    // Direct: NO_PROXY names it as the toolkit reads it, or an http:// proxy.
    expect(httpsProxyOf({ GITHUB_API_URL: 'https://ghe.corp.example/api/v3', HTTPS_PROXY: PROXY, NO_PROXY: 'corp.example' })).toBeNull();
    expect(httpsProxyOf({ GITHUB_API_URL: 'https://ghe.corp.example/api/v3', HTTPS_PROXY: 'http://proxy.corp.example:3128' })).toBeNull();
  });
});
