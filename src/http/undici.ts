// The two pieces of undici we use: the Agent (a keep-alive connection pool per origin) and the
// request API. Imported from their own files instead of undici's index, which also loads fetch,
// WebSocket, EventSource, caching, mocks and more: that halves the CLI bundle and its start time.

import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';
import type { TunnelStep } from './proxy-error.js';

export type Agent = UndiciAgent;
export const Agent = AgentImpl as unknown as typeof UndiciAgent;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

type Callback = (err: Error | null, data: Dispatcher.ResponseData) => void;
type Abort = (reason?: unknown) => void;

/** undici's handler of one request of its request API (lib/api/api-request.js): what is read of it here. */
interface UndiciRequestHandler {
  /** The signal's reason once it aborted (before that, null). */
  reason: unknown;
  /** Cuts the request; null until its connection is open (onConnect). */
  abort: Abort | null;
  onConnect(abort: Abort, context: unknown): void;
  onError(err: Error): void;
}
const RequestHandler = (apiRequest as { RequestHandler: new (opts: Dispatcher.RequestOptions, callback: Callback) => UndiciRequestHandler }).RequestHandler;

/** Errors a request was failed with because its signal was aborted before its connection opened. */
const cutConnecting = new WeakSet<object>();

/**
 * Whether `err` failed a request whose signal was aborted while its connection was still opening
 * (no socket yet: a host that never completes the handshake, a proxy that never answers CONNECT).
 */
export function abortedConnecting(err: unknown): boolean {
  return typeof err === 'object' && err !== null && cutConnecting.has(err);
}

/** The step a tunnel through a proxy was at when its request was cut (src/http/proxy-agent.ts), by the error the request failed with. */
const cutAtStep = new WeakMap<object, TunnelStep>();

/**
 * For an error of abortedConnecting() through a proxy: the step its tunnel was still at (connecting
 * to the proxy, waiting for its answer to CONNECT, the TLS handshake through the tunnel); null when
 * not known, or not through a proxy.
 */
export function connectingStep(err: unknown): TunnelStep | null {
  return typeof err === 'object' && err !== null ? (cutAtStep.get(err) ?? null) : null;
}

/** Per dispatcher, the requests cut while connecting that undici still holds (until their connection opens or fails). */
const held = new WeakMap<Dispatcher, number>();

/**
 * The handler's `abort` until its connection opens: undici's abort listener calls it (with the
 * signal's reason) when it finds one, so an abort fails the request at once instead of being noted
 * until then. One function for every request, not a closure per request.
 */
function cut(this: WatchedRequest, reason: unknown): void {
  const err = typeof reason === 'object' && reason !== null ? reason : new Error('the request was aborted before its connection opened');
  cutConnecting.add(err);
  // A ProxyAgent (src/http/proxy-agent.ts) says how far its tunnels still opening had got.
  const step = (this.dispatcher as { openingStep?: () => TunnelStep | null }).openingStep?.() ?? null;
  if (step !== null) cutAtStep.set(err, step);
  // Fails the request now (its callback, once; the abort listener removed). undici still holds it:
  // onConnect aborts it with the reason RequestHandler kept, or its connection fails it.
  this.onError(err as Error);
  this.holding = true;
  held.set(this.dispatcher, (held.get(this.dispatcher) ?? 0) + 1);
}

/** undici's RequestHandler, which an abort fails at once while its connection is still opening. */
class WatchedRequest extends RequestHandler {
  /** Cut while connecting, and still held by undici. */
  holding = false;
  constructor(
    opts: Dispatcher.RequestOptions,
    callback: Callback,
    readonly dispatcher: Dispatcher,
  ) {
    super(opts, callback);
    this.abort = cut;
  }

  override onConnect(abort: Abort, context: unknown): void {
    // From here undici's own abort ends it (RequestHandler aborts it at once if it was cut).
    this.abort = null;
    this.release();
    super.onConnect(abort, context);
  }

  override onError(err: Error): void {
    this.release();
    super.onError(err);
  }

  private release(): void {
    if (!this.holding) return;
    this.holding = false;
    const n = (held.get(this.dispatcher) ?? 1) - 1;
    if (n === 0) held.delete(this.dispatcher);
    else held.set(this.dispatcher, n);
  }
}

/**
 * `undici.request(url, opts)` with an explicit dispatcher.
 *
 * An aborted signal fails the request at once, even while its connection is still opening: undici
 * only notes the reason until the request has a socket, so a request's deadline did not cut a
 * connection that never opened (a host that never completed the handshake held it for undici's 10 s
 * connect timeout, a proxy that never closed a connection it dropped, for ever). The request undici
 * still holds is aborted when its connection opens, or fails with it. This makes nothing per request
 * that undici's own request API does not (docs/performance.md, "2026-12-05 (afternoon)"): the handler
 * is undici's, with `cut` as its abort until the connection opens.
 */
export function request(url: string | URL, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher, ...rest } = opts;
  const o = rest as Dispatcher.RequestOptions;
  o.origin = u.origin;
  o.path = u.search ? `${u.pathname}${u.search}` : u.pathname;
  o.method = rest.method ?? 'GET';
  return new Promise((resolve, reject) => {
    let handler: WatchedRequest;
    try {
      handler = new WatchedRequest(o, (err, data) => (err === null ? resolve(data) : reject(err)), dispatcher);
      dispatcher.dispatch(o, handler as unknown as Dispatcher.DispatchHandler);
    } catch (err) {
      reject(err as Error);
      return;
    }
    // A signal aborted before the request was made: undici noted its reason; failed now unless the
    // connection is already open (then undici has aborted it).
    if (handler.reason !== null && handler.abort === cut) handler.abort(handler.reason);
  });
}

/** What undici's connectors return and destroy: the socket being opened. */
interface OpeningSocket {
  destroy(err?: Error): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/** undici's connector: opens a socket (returned) and calls back once it is ready, or failed. */
type Connector = (options: never, callback: (err: Error | null, socket: unknown) => void) => unknown;

/**
 * The sockets a dispatcher is still opening (src/http/network.ts, src/http/proxy-agent.ts). undici
 * gives up on one only at its connect timeout, and the process cannot exit while one is open: a
 * dispatcher closed holding a request cut while connecting destroys them (closeDispatcher), so that
 * the run's end, and the CLI's exit, wait for none of them.
 */
export class OpeningSockets {
  private readonly sockets = new Set<OpeningSocket>();

  /** `connector`, with each socket it opens held here until it is ready or failed. */
  track<C extends Connector>(connector: C): C {
    return ((options: never, callback: (err: Error | null, socket: unknown) => void) => {
      let settled = false;
      const socket = connector(options, (err, ready) => {
        settled = true;
        this.sockets.delete(socket as OpeningSocket);
        callback(err, ready);
      }) as OpeningSocket | undefined;
      if (!settled && socket != null) this.sockets.add(socket);
      return socket;
    }) as C;
  }

  /** `socket`, held here until it closes (a tunnel through a proxy, from its CONNECT until then). */
  hold(socket: OpeningSocket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Destroys every socket held: its connector fails with `err`. */
  destroyAll(err: Error): void {
    for (const s of this.sockets) s.destroy(err);
    this.sockets.clear();
  }
}

/** Per dispatcher, the sockets it is opening (watchOpening). */
const openingOf = new WeakMap<Dispatcher, OpeningSockets>();

/** `dispatcher`, whose sockets still opening `opening` holds: closeDispatcher destroys them with it. */
export function watchOpening<D extends Dispatcher>(dispatcher: D, opening: OpeningSockets): D {
  openingOf.set(dispatcher, opening);
  return dispatcher;
}

/**
 * Closes a client's dispatcher: as `close()` does (the requests in flight end first), but at once
 * when it holds a request cut while its connection was still opening, which close() would wait for
 * until that connection opens or times out; the sockets it is still opening are destroyed then,
 * which undici would leave to their connect timeout (the process could not exit until then).
 */
export function closeDispatcher(dispatcher: Dispatcher): Promise<void> {
  if (!held.has(dispatcher)) return dispatcher.close();
  const destroyed = dispatcher.destroy();
  openingOf.get(dispatcher)?.destroyAll(new Error('the client was closed while this connection was still opening'));
  return destroyed;
}
