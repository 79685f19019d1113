// A certificate Node refuses (docs/troubleshooting.md, "The agent"): what the code means and what to
// do, in words. Verification is never turned off by agent-replay, nor is turning it off advised: a
// private CA is trusted through NODE_EXTRA_CA_CERTS, as for any Node tool.

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
    };
  }
  if (EXPIRED.has(code)) {
    const what = code === 'CERT_NOT_YET_VALID' ? 'not valid yet' : code === 'CERT_REVOKED' ? 'revoked' : 'expired';
    return { code, kind: 'expired', what, fix: code === 'CERT_NOT_YET_VALID' ? "check the runner's clock, or renew the certificate" : 'renew the certificate' };
  }
  if (WRONG_NAME.has(code)) {
    return { code, kind: 'name', what: 'made out to another host name', fix: 'use a host name the certificate names in the URL' };
  }
  return null;
}

/**
 * The codes of a TLS handshake the server answered without TLS: an `https://` URL to a port that
 * speaks plain HTTP (a dev server reached as `https://localhost:3000`). The server answers the same
 * on every attempt, so it is not retried and a wait for it ends at once (docs/troubleshooting.md,
 * "The agent").
 */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

/** The code when it says the server answered without TLS (see NOT_TLS); null otherwise. */
export function notTls(code: string | undefined): string | null {
  return code !== undefined && NOT_TLS.has(code) ? code : null;
}

/** What a server that answered without TLS is told, after the code: the scheme to use. */
export const NOT_TLS_FIX = 'the server speaks plain HTTP at that address, not HTTPS: write the URL with http://';

// A TLS alert's words live apart from the network code, so that the report's causes read them too (docs/architecture.md, 'The import rule').
export { tlsAlert, tlsAlertFix, tlsAlertText, type TlsAlert } from '../tls-alert.js';
