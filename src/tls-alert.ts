// A TLS alert the server answered the handshake with, read from OpenSSL's code, and what to check
// (docs/troubleshooting.md, "The agent"): pure, so that the clients (src/http/tls.ts re-exports it;
// the agent's, the judge's, a trace store's, GitHub's API, an https:// proxy) and the report's causes
// (src/evaluate/causes.ts) say it in the same words.

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

/**
 * The alert in words, after the server it came from: `answered the TLS handshake with an alert:
 * handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)`; `after`: the attempts, for the agent's
 * client (`..., after 1 attempt: handshake failure (...)`).
 */
export function tlsAlertText(alert: TlsAlert, after: string | null = null): string {
  return `answered the TLS handshake with an alert${after === null ? '' : `, after ${after}`}: ${alert.name} (${alert.code})`;
}

/**
 * What to check when a server answered the handshake with an alert, `setting` being where its URL
 * is written and `server` what answered ("the server"; "the proxy" for an https:// proxy;
 * "GitHub's API, or a proxy on its way,"). `more`: said of 2 or more servers (a panel's members',
 * each its own URL): "whether the servers ask ..., which TLS versions they accept, ... their https:// ports".
 */
export function tlsAlertFix(setting: string, server = 'the server', more = false): string {
  if (more) {
    return `check whether the servers ask for a client certificate (agent-replay presents none), which TLS versions they accept (agent-replay offers TLS 1.2 and 1.3), and that the URLs in ${setting} are their https:// ports (http:// for plain HTTP ones)`;
  }
  return `check whether ${server} asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in ${setting} is its https:// port (http:// for a plain HTTP one)`;
}
