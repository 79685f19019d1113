// The error of a proxy that failed while opening a tunnel, thrown by src/http/proxy-agent.ts and
// read by src/http/network.ts (proxyFault): in a file of its own, which imports neither.

/**
 * The proxy failed while opening a tunnel (CONNECT) to a server behind it (src/http/proxy-agent.ts):
 * its own TLS refused, a connection it closed or never opened, no answer in time. Its message is
 * the cause's; its code is its own, so that undici fails the requests waiting for the connection (a
 * socket closed while connecting, UND_ERR_SOCKET, made undici open another, for ever).
 */
export class ProxyConnectError extends Error {
  override name = 'ProxyConnectError';
  readonly code = 'UND_ERR_PRX_CONNECT';
  constructor(
    cause: unknown,
    /** The wait for the proxy's answer to CONNECT. */
    readonly timeoutMs: number,
  ) {
    super(cause instanceof Error && cause.message !== '' ? cause.message : 'the proxy failed while opening a tunnel (CONNECT)', { cause });
  }
}

/**
 * How far a tunnel through a proxy had got while it was still opening (src/http/proxy-agent.ts):
 * `proxy`, connecting to the proxy (its TLS too, for an https:// proxy); `connect`, waiting for its
 * answer to CONNECT; `tls`, the TLS handshake with the server through the tunnel.
 */
export type TunnelStep = 'proxy' | 'connect' | 'tls';
