// A TLS handshake the server answered without TLS, in words (docs/troubleshooting.md, "The agent").

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
// A certificate's words live apart from the network code, so that the report's causes read them too (docs/architecture.md, 'The import rule').
export { proxyCertificateFix, tlsProblem, type TlsProblem } from '../tls-certificate.js';
// A proxy's plain-HTTP fix lives apart from the network code, so that the report's causes read it too (docs/architecture.md, 'The import rule').
export { proxyPlainHttpFix } from '../tls-plain.js';
