// The https:// proxy on the way to GitHub's API, for the words of an answer without TLS
// (src/github/errors.ts, networkWords): its TLS handshake is the first, so a plain-HTTP answer is
// most likely the proxy's (docs/action.md, "Accept: the label commits the reviewed replies").
//
// The route is @actions/http-client's, which @actions/github's fetch takes (its lib/proxy.js,
// getProxyUrl and checkBypass), not ours (src/http/network.ts, proxyFor): the words name the route
// the calls took. Its rules differ from ours: names under localhost (`app.localhost`) go through
// the proxy, any host beginning `127.` or `[::1]` goes directly, and NO_PROXY is split at commas
// only, each entry a host (it and its subdomains), `.host`, `host:port` or `*`: no CIDR range, no
// `*.host` (docs/configuration.md, "Behind a proxy").

import { proxyName } from '../http/network.js';
import type { HttpsProxy } from './errors.js';

/** The proxy @actions/http-client sends a request to `target` through, with the variable that named it; null when it goes directly. */
export function toolkitProxy(env: Record<string, string | undefined>, target: URL): { proxy: URL; variable: string } | null {
  if (toolkitBypass(env, target)) return null;
  const [lower, upper] = target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  const variable = env[lower] ? lower : upper;
  const value = env[variable];
  if (!value) return null;
  try {
    return { proxy: new URL(value), variable };
  } catch {
    // A value without a scheme is tried as http://; one that is not an address even so fails the toolkit's call itself.
    if (value.startsWith('http://') || value.startsWith('https://')) return null;
    try {
      return { proxy: new URL(`http://${value}`), variable };
    } catch {
      return null;
    }
  }
}

/** @actions/http-client's checkBypass: a loopback name as it tells one, or a NO_PROXY entry that matches. */
function toolkitBypass(env: Record<string, string | undefined>, target: URL): boolean {
  const host = target.hostname.toUpperCase();
  if (host === '') return false;
  if (host === 'LOCALHOST' || host.startsWith('127.') || host.startsWith('[::1]') || host.startsWith('[0:0:0:0:0:0:0:1]')) return true;
  const noProxy = env.no_proxy || env.NO_PROXY || '';
  const port = target.port ? Number(target.port) : target.protocol === 'http:' ? 80 : target.protocol === 'https:' ? 443 : null;
  const hosts = port === null ? [host] : [host, `${host}:${port}`];
  for (const item of noProxy.split(',').map((x) => x.trim().toUpperCase()).filter((x) => x !== '')) {
    if (item === '*' || hosts.some((h) => h === item || h.endsWith(`.${item}`) || (item.startsWith('.') && h.endsWith(item)))) return true;
  }
  return false;
}

/**
 * The https:// proxy that @actions/github's fetch reaches GITHUB_API_URL through (toolkitProxy), named
 * without credentials, with its variable; null when it goes directly, through an http:// proxy, or
 * the environment names no proxy that can be read.
 */
export function httpsProxyOf(env: Record<string, string | undefined>): HttpsProxy | null {
  try {
    const route = toolkitProxy(env, new URL(env.GITHUB_API_URL || 'https://api.github.com'));
    return route === null || route.proxy.protocol !== 'https:' ? null : { name: proxyName(route.proxy), variable: route.variable };
  } catch {
    // A GITHUB_API_URL that is not an address: the run's start says so (src/http/network.ts).
    return null;
  }
}
