// The https:// proxy on the way to GitHub's API, for the words of an answer without TLS
// (src/github/errors.ts, networkWords): its TLS handshake is the first, so a plain-HTTP answer is
// most likely the proxy's (docs/action.md, "Accept: the label commits the reviewed replies").

import { proxyFor, proxyName, proxySettings } from '../http/network.js';
import type { HttpsProxy } from './errors.js';

/**
 * The https:// proxy that @actions/github's fetch reaches GITHUB_API_URL through, as the
 * environment names it (HTTPS_PROXY, NO_PROXY, read as src/http/network.ts reads them), with its
 * variable; null when it goes directly, through an http:// proxy, or the environment names no
 * proxy that can be read.
 */
export function httpsProxyOf(env: Record<string, string | undefined>): HttpsProxy | null {
  try {
    const settings = proxySettings(env);
    const proxy = settings === null ? null : proxyFor(settings, new URL(env.GITHUB_API_URL || 'https://api.github.com'));
    return settings === null || proxy?.protocol !== 'https:' ? null : { name: proxyName(proxy), variable: settings.variables.https ?? 'HTTPS_PROXY' };
  } catch {
    // A proxy variable or GITHUB_API_URL that is not an address: the run's start says so (src/http/network.ts).
    return null;
  }
}
