// An https:// proxy that answered its own TLS handshake in plain HTTP (docs/configuration.md,
// "Behind a proxy"): what to do, in words. Pure, so that the clients (src/http/network.ts,
// src/github/errors.ts) and the report's causes (src/evaluate/causes.ts) say it alike.

/**
 * The fix for a proxy named with https:// in `variable` that speaks plain HTTP at that address:
 * `the proxy speaks plain HTTP at that address, not HTTPS: write its URL with http:// in HTTPS_PROXY`;
 * with `direct` (`or name agent.test in NO_PROXY to reach it directly`), the other fixes after it:
 * the proxy's own TLS, then the host reached without it.
 */
export function proxyPlainHttpFix(variable: string, direct: string | null = null): string {
  const fix = `the proxy speaks plain HTTP at that address, not HTTPS: write its URL with http:// in ${variable}`;
  return direct === null ? fix : `${fix}, or turn TLS on at the proxy if it should speak HTTPS there, ${direct}`;
}
