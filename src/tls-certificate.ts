// A certificate Node refuses (docs/troubleshooting.md, "The agent"): what the code means and what to
// do, in words. Verification is never turned off by agent-replay, nor is turning it off advised: a
// private CA is trusted through NODE_EXTRA_CA_CERTS, as for any Node tool. Pure, so that the clients
// (src/http/tls.ts re-exports it) and the report's causes (src/evaluate/causes.ts) say it in the same words.

/** The OpenSSL / Node codes of a certificate that is not trusted, by what fixes it. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED']);
const WRONG_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

export interface TlsProblem {
  code: string;
  /** Which kind of fix: a CA to trust, a certificate to renew, a host name to use. */
  kind: 'untrusted' | 'expired' | 'name';
  /** What is wrong with the certificate, e.g. "expired". */
  what: string;
  /** What to do. */
  fix: string;
  /** What to do, said of 2 or more certificates refused (a panel's members', each its own server's). */
  more: string;
}

/** The certificate problem an error code names; null when the code is not one. */
export function tlsProblem(code: string | undefined): TlsProblem | null {
  if (code === undefined) return null;
  if (UNTRUSTED.has(code)) {
    return {
      code,
      kind: 'untrusted',
      what: 'self-signed, or signed by a CA Node does not trust',
      fix: 'point NODE_EXTRA_CA_CERTS at that CA\'s certificate (a PEM file) in the environment agent-replay runs in',
      more: "point NODE_EXTRA_CA_CERTS at their CAs' certificates (one PEM file holds them all) in the environment agent-replay runs in",
    };
  }
  if (EXPIRED.has(code)) {
    const what = code === 'CERT_NOT_YET_VALID' ? 'not valid yet' : code === 'CERT_REVOKED' ? 'revoked' : 'expired';
    const fix = code === 'CERT_NOT_YET_VALID' ? "check the runner's clock, or renew the certificate" : 'renew the certificate';
    return { code, kind: 'expired', what, fix, more: `${fix}s` };
  }
  if (WRONG_NAME.has(code)) {
    return { code, kind: 'name', what: 'made out to another host name', fix: 'use a host name the certificate names in the URL', more: 'use host names the certificates name in the URLs' };
  }
  return null;
}

/**
 * What to do about a certificate refused on the way through a proxy (docs/configuration.md, "Behind a
 * proxy"): the proxy's own (`host` null), or one presented for `host` through its tunnel (a proxy
 * that inspects TLS presents its own). `variable` names the proxy; `direct` is how to go around it
 * ("or name agent.test in NO_PROXY to reach it directly").
 */
export function proxyCertificateFix(tls: TlsProblem, variable: string, direct: string, host: string | null = null): string {
  if (host !== null) return `a proxy that inspects TLS presents its own: point NODE_EXTRA_CA_CERTS at the proxy's CA certificate (a PEM file), ${direct}; if it is ${host}'s own certificate: ${tls.fix}`;
  return tls.kind === 'untrusted'
    ? `point NODE_EXTRA_CA_CERTS at the proxy's CA certificate (a PEM file), ${direct}`
    : tls.kind === 'expired'
      ? `the proxy's certificate must be renewed (${tls.fix}), ${direct}`
      : `give the proxy in ${variable} by a host name its certificate names, ${direct}`;
}
