// A TLS alert the server answered the handshake with, read from OpenSSL's code, and what to check
// (docs/troubleshooting.md, "The agent"): pure, so that the clients (src/http/tls.ts re-exports it)
// and the report's causes (src/evaluate/causes.ts) say it in the same words.

/** A TLS alert the server answered the handshake with (see tlsAlert). */
export interface TlsAlert {
  code: string;
  /** The alert's name in words: "handshake failure", "certificate required", "protocol version". */
  name: string;
}

/**
 * The alert a server answered the TLS handshake with, read from OpenSSL's code:
 * `ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE` (a TLS 1.2 server that wants a client certificate, or
 * shares no cipher), `ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, `ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION`
 * (no TLS version in common). The server is there and answers the same on every attempt, so it is
 * not retried and a wait for it ends at once (docs/troubleshooting.md, "The agent"). Null for any other code.
 */
export function tlsAlert(code: string | undefined): TlsAlert | null {
  const name = code === undefined ? undefined : /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13|SSL\/TLS)_ALERT_([A-Z0-9_]+)$/.exec(code)?.[1];
  return code === undefined || name === undefined ? null : { code, name: name.toLowerCase().replaceAll('_', ' ') };
}

/** What to check when the server answered the handshake with an alert, `setting` being where its URL is written. */
export function tlsAlertFix(setting: string): string {
  return `check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in ${setting} is its https:// port (http:// for a plain HTTP one)`;
}
