// A real HTTP proxy on 127.0.0.1 for the proxy tests (docs/configuration.md, "Behind a proxy"): it
// forwards absolute-form requests (`POST http://agent.test:8080/chat`, what a client sends a proxy
// for an http:// address) and opens CONNECT tunnels (what it sends for an https:// one). Host names
// are resolved through `hosts` only, so a name such as `agent.test` is reachable through the proxy
// and nowhere else: a request that did not go through it cannot connect.
//
// `tlsFront` puts TLS in front of a plain loopback server, with the test certificate in
// test/support/tls/ (made for this purpose only: `agent.test` and `judge.test`, self-signed, the
// child process trusts it through NODE_EXTRA_CA_CERTS).

import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

export const TEST_CA_FILE = join(import.meta.dirname, 'tls', 'proxy-test.crt');

export interface ProxiedRequest {
  kind: 'forward' | 'connect';
  /** `POST http://agent.test:8080/chat` or `CONNECT agent.test:8443`. */
  line: string;
  /** The Proxy-Authorization header as sent (null: none). */
  auth: string | null;
}

export interface ProxyServer {
  url: string;
  seen: ProxiedRequest[];
  /** How many connections came (a TLS handshake sent to it as to an https:// proxy is one, and no request in `seen`). */
  connections(): number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** Host name -> the loopback port it stands for. */
  hosts: Record<string, number>;
  /** The only Proxy-Authorization accepted (`Basic ...`); others are answered 407. Null: none asked. */
  requireAuth?: string | null;
  /**
   * A proxy at fault, for every CONNECT and forwarded request (each still recorded in `seen`): `reset`
   * resets the connection, `close` closes it, `silent` never answers.
   */
  fault?: 'reset' | 'close' | 'silent';
  /** The loopback address it listens on: 127.0.0.1 (the default) or ::1. */
  host?: '127.0.0.1' | '::1';
}

/** What a proxy at fault does to the connection it was asked on. */
function misbehave(fault: NonNullable<ProxyOptions['fault']>, socket: Socket): void {
  if (fault === 'reset') socket.resetAndDestroy();
  else if (fault === 'close') socket.end();
}

export async function startProxy(o: ProxyOptions): Promise<ProxyServer> {
  const seen: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const portOf = (host: string): number | null => o.hosts[host.toLowerCase()] ?? null;
  const authOf = (headers: IncomingHttpHeaders): string | null => {
    const a = headers['proxy-authorization'];
    return typeof a === 'string' ? a : null;
  };
  const refused = (auth: string | null): boolean => o.requireAuth != null && auth !== o.requireAuth;

  const server = createServer((req, res) => {
    const auth = authOf(req.headers);
    seen.push({ kind: 'forward', line: `${req.method} ${req.url}`, auth });
    if (o.fault !== undefined) {
      misbehave(o.fault, req.socket);
      return;
    }
    if (refused(auth)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('not an absolute-form request');
      return;
    }
    const port = portOf(target.hostname);
    if (port === null) {
      res.writeHead(502).end(`unknown host ${target.hostname}`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: '127.0.0.1', port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const auth = authOf(req.headers);
    seen.push({ kind: 'connect', line: `CONNECT ${req.url}`, auth });
    if (o.fault !== undefined) {
      misbehave(o.fault, client);
      return;
    }
    if (refused(auth)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host = '', portText = ''] = (req.url ?? '').split(':');
    const port = portOf(host);
    if (port === null || portText === '') {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      pipeBoth(client, upstream, sockets);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const host = o.host ?? '127.0.0.1';
  const { port, close } = await listen(server, sockets, host);
  return { url: `http://${host === '::1' ? '[::1]' : host}:${port}`, seen, connections: () => connections, close };
}

/** Pipes two sockets both ways; either one's error ends both. `upstream` is closed with the server. */
function pipeBoth(a: Socket, upstream: Socket, sockets: Set<Socket>): void {
  track(upstream, sockets);
  a.pipe(upstream);
  upstream.pipe(a);
  upstream.on('error', () => a.destroy());
  a.on('error', () => upstream.destroy());
}

function track(socket: Socket, sockets: Set<Socket>): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
}

/** Listens on a free loopback port; `close` also destroys every socket still open (the server's and `sockets`). */
async function listen(server: Server, sockets: Set<Socket>, host = '127.0.0.1'): Promise<{ port: number; close(): Promise<void> }> {
  server.on('connection', (s: Socket) => track(s, sockets));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** TLS (the test certificate) in front of a plain server on `port`; resolves with the TLS port. `connections`: how many came. */
export async function tlsFront(port: number): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTlsServer(
    { key: readFileSync(join(import.meta.dirname, 'tls', 'proxy-test.key')), cert: readFileSync(TEST_CA_FILE) },
    (secure) => pipeBoth(secure, connect(port, '127.0.0.1'), sockets),
  );
  server.on('connection', () => connections++);
  const listening = await listen(server, sockets);
  return { ...listening, connections: () => connections };
}

/**
 * The code Node gives clientCertServer's handshake_failure alert: OpenSSL 3.2 renamed its reason
 * "sslv3 alert handshake failure" to "ssl/tls alert handshake failure" (Node 20 has OpenSSL 3.0,
 * Node 24 3.5).
 */
export const HANDSHAKE_FAILURE_CODE = ((): string => {
  const [major = 0, minor = 0] = process.versions.openssl.split('.').map(Number);
  return major > 3 || (major === 3 && minor >= 2) ? 'ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE' : 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE';
})();

/**
 * A TLS server (the test certificate) that requires a client certificate, as a mutual-TLS gateway
 * does: TLS 1.2 at most, so that it refuses a client without one during the handshake, with a
 * handshake_failure alert, before the client has read its certificate. `connections`: how many came.
 */
export async function clientCertServer(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createTlsServer(
    { key: readFileSync(join(import.meta.dirname, 'tls', 'proxy-test.key')), cert: readFileSync(TEST_CA_FILE), requestCert: true, rejectUnauthorized: true, maxVersion: 'TLSv1.2' },
    (secure) => secure.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'),
  );
  server.on('connection', () => connections++);
  server.on('tlsClientError', () => undefined);
  const listening = await listen(server, sockets);
  return { ...listening, connections: () => connections };
}
