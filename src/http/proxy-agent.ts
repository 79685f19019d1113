// undici's ProxyAgent from its own file (as src/http/undici.ts takes the Agent), imported only when
// the environment names a proxy (src/http/network.ts): a run without one does not load it.
//
// A tunnel (CONNECT, for https:// addresses) is opened by the `connect` API method, which undici's
// index adds to every dispatcher's prototype and its own files do not: the client to the proxy is
// made here, a Pool as undici makes it, with that method on it. A failure of that method is the
// proxy's (its TLS, a connection it closed, no answer to CONNECT in time), and is thrown as a
// ProxyConnectError, so that the clients name the proxy and not the server behind it
// (src/http/network.ts, proxyFault).
//
// The steps of a tunnel still opening are counted through ProxyAgent's public options only
// (clientFactory, factory): no field of undici's is looked up, so a rename inside undici cannot
// silently drop a step from the deadline's message (test/http/proxy-faults.test.ts, "a deadline
// through a proxy names the step it stalled at", fails if it does).

import type { Dispatcher, ProxyAgent as UndiciProxyAgent } from 'undici';
import apiConnect from 'undici/lib/api/api-connect.js';
import PoolImpl from 'undici/lib/dispatcher/pool.js';
import ProxyAgentImpl from 'undici/lib/dispatcher/proxy-agent.js';
import { isLocalhostName, loopbackInTurn } from './localhost.js';
import { ProxyConnectError, type TunnelStep } from './proxy-error.js';
import { OpeningSockets, watchOpening } from './undici.js';

const UndiciProxy = ProxyAgentImpl as typeof UndiciProxyAgent;
const Pool = PoolImpl as new (origin: URL | string, options: object) => Dispatcher;

type Connect = (this: Dispatcher, options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
/** undici's connector: opens a socket and calls back once it is ready (or failed). */
type Connector = (options: object, callback: (err: Error | null, socket: unknown) => void) => unknown;
type LoopbackConnector = Parameters<typeof loopbackInTurn>[0];

/**
 * The tunnels a ProxyAgent is opening: `proxy`, the connections to the proxy still opening; `connect`,
 * the CONNECTs not answered (a tunnel asked is counted there from the start, its connection to the
 * proxy too); `tunnels`, every tunnel from its start until it is ready or failed. A tunnel whose
 * CONNECT was answered and is not ready yet is in the TLS handshake with the server through it.
 */
interface Opening {
  proxy: number;
  connect: number;
  tunnels: number;
}

/** `connector`, with the connections it is opening counted under `key`. */
function counted(connector: Connector, opening: Opening, key: 'proxy' | 'tunnels'): Connector {
  return (options, callback) => {
    opening[key]++;
    return connector(options, (err, socket) => {
      opening[key]--;
      callback(err, socket);
    });
  };
}

/** The client to the proxy itself: a Pool that can open tunnels; a tunnel it cannot open fails as a ProxyConnectError. */
function proxyClient(origin: URL, options: { connect?: unknown; headersTimeout: number }, timeoutMs: number, opening: Opening, sockets: OpeningSockets): Dispatcher {
  // The connections to the proxy (undici's connector for it, from proxyTls) are counted while they open.
  const o = typeof options.connect === 'function' ? { ...options, connect: counted(options.connect as Connector, opening, 'proxy') } : options;
  const pool = new Pool(origin, o);
  const connect = (c: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => {
    opening.connect++;
    return (apiConnect as Connect).call(pool, c).then(
      (data) => {
        opening.connect--;
        // The tunnel is the pool's no longer: held until it closes, for a close that cuts it (closeDispatcher).
        sockets.hold(data.socket);
        return data;
      },
      (err: unknown) => {
        opening.connect--;
        throw new ProxyConnectError(err, timeoutMs);
      },
    );
  };
  return Object.assign(pool, { connect: connect as Dispatcher['connect'] });
}

/** undici's own connect timeout, when the client names none. */
const CONNECT_TIMEOUT_MS = 10_000;

export class ProxyAgent extends UndiciProxy {
  /** The tunnels being opened, at each step: read when a request's deadline cuts it (openingStep). */
  private readonly opening: Opening;

  /**
   * `tunnelTimeoutMs` bounds the wait for the proxy's answer to a CONNECT: opening the tunnel is part
   * of connecting, and a request's own deadline does not stop a connection being opened (a proxy that
   * took the connection and never answered held every https:// request for undici's 300 s).
   */
  constructor(options: UndiciProxyAgent.Options, tunnelTimeoutMs: number = CONNECT_TIMEOUT_MS) {
    const opening: Opening = { proxy: 0, connect: 0, tunnels: 0 };
    // The sockets to the proxy still opening, and the tunnels: destroyed by a close that cuts a request (src/http/undici.ts, closeDispatcher).
    const sockets = new OpeningSockets();
    // A proxy at localhost is reached on 127.0.0.1, then on ::1 when refused (src/http/localhost.ts):
    // its connector, undici's from proxyTls, is given to the client that tunnels (clientFactory) and
    // to the one that forwards http:// requests (factory, called with the proxy's address).
    const proxy = new URL(options.uri);
    const toProxy = <O extends { connect?: unknown }>(o: O): O => {
      if (typeof o.connect !== 'function') return o;
      const tracked = sockets.track(o.connect as LoopbackConnector);
      return { ...o, connect: isLocalhostName(proxy.hostname) ? loopbackInTurn(tracked) : tracked };
    };
    const clientFactory = (origin: URL, o: { connect?: unknown }): Dispatcher => proxyClient(origin, { ...toProxy(o), headersTimeout: tunnelTimeoutMs }, tunnelTimeoutMs, opening, sockets);
    // The pool of each server behind the proxy is made by `factory` with the Agent's options, whose
    // connector opens the whole tunnel (CONNECT, then TLS with the server for https://): each tunnel
    // is counted from its start until it is ready or failed (a forwarding proxy's own pool, made with
    // the proxy's address, gets its connector to the proxy instead).
    const agentFactory = options.factory ?? ((origin: string | URL, o: object): Dispatcher => new Pool(origin, o));
    const factory = (origin: string | URL, o: { connect?: unknown }): Dispatcher => {
      if (String(origin) === proxy.href) return agentFactory(origin, toProxy(o) as never);
      return agentFactory(origin, (typeof o.connect === 'function' ? { ...o, connect: counted(o.connect as Connector, opening, 'tunnels') } : o) as never);
    };
    super({ ...options, clientFactory: clientFactory as UndiciProxyAgent.Options['clientFactory'], factory: factory as UndiciProxyAgent.Options['factory'] });
    this.opening = opening;
    watchOpening(this as unknown as Dispatcher, sockets);
  }

  /**
   * The step the tunnels still opening are at, the earliest when they differ (src/http/undici.ts
   * asks when a request's deadline cuts it while connecting); null: none opening.
   */
  openingStep(): TunnelStep | null {
    const { proxy, connect, tunnels } = this.opening;
    if (proxy > 0) return 'proxy';
    if (connect > 0) return 'connect';
    // Tunnels started whose CONNECT was answered: in the TLS handshake through the tunnel.
    if (tunnels > connect) return 'tls';
    return null;
  }
}
