// undici's ProxyAgent from its own file (as src/http/undici.ts takes the Agent), imported only when
// the environment names a proxy (src/http/network.ts): a run without one does not load it.
//
// A tunnel (CONNECT, for https:// addresses) is opened by the `connect` API method, which undici's
// index adds to every dispatcher's prototype and its own files do not: the client to the proxy is
// made here, a Pool as undici makes it, with that method on it. A failure of that method is the
// proxy's (its TLS, a connection it closed, no answer to CONNECT in time), and is thrown as a
// ProxyConnectError, so that the clients name the proxy and not the server behind it
// (src/http/network.ts, proxyFault).

import type { Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';
import apiConnect from 'undici/lib/api/api-connect.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';
import { ProxyConnectError } from './proxy-error.js';

const UndiciProxy = ProxyAgentImpl as typeof UndiciProxyAgent;
const Pool = PoolImpl as new (origin: URL | string, options: object) => Dispatcher;

type Connect = (this: Dispatcher, options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;

/** The client to the proxy itself: a Pool that can open tunnels; a tunnel it cannot open fails as a ProxyConnectError. */
function proxyClient(origin: URL, options: object, timeoutMs: number): Dispatcher {
  const pool = new Pool(origin, options);
  const connect = (o: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> =>
    (apiConnect as Connect).call(pool, o).catch((err: unknown) => {
      throw new ProxyConnectError(err, timeoutMs);
    });
  return Object.assign(pool, { connect: connect as Dispatcher['connect'] });
}

/** undici's own connect timeout, when the client names none. */
const CONNECT_TIMEOUT_MS = 10_000;

export class ProxyAgent extends UndiciProxy {
  /**
   * `tunnelTimeoutMs` bounds the wait for the proxy's answer to a CONNECT: opening the tunnel is part
   * of connecting, and a request's own deadline does not stop a connection being opened (a proxy that
   * took the connection and never answered held every https:// request for undici's 300 s).
   */
  constructor(options: UndiciProxyAgent.Options, tunnelTimeoutMs: number = CONNECT_TIMEOUT_MS) {
    const factory = (origin: URL, o: object): Dispatcher => proxyClient(origin, { ...o, headersTimeout: tunnelTimeoutMs }, tunnelTimeoutMs);
    super({ ...options, clientFactory: factory as UndiciProxyAgent.Options['clientFactory'] });
  }
}
