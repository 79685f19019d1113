// The two pieces of undici we use: the Agent (a keep-alive connection pool per origin) and the
// request API. Imported from their own files instead of undici's index, which also loads fetch,
// WebSocket, EventSource, caching, mocks and more: that halves the CLI bundle and its start time.

import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import AgentImpl from 'undici/lib/dispatcher/agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

export type Agent = UndiciAgent;
export const Agent = AgentImpl as unknown as typeof UndiciAgent;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** The abort handles a request takes: an AbortSignal, or an EventEmitter-shaped one (src/http/turn-abort.ts). */
type AbortHandle = {
  aborted: boolean;
  reason?: unknown;
  addEventListener?: (event: 'abort', listener: () => void) => void;
  removeEventListener?: (event: 'abort', listener: () => void) => void;
  on?: (event: 'abort', listener: () => void) => unknown;
  removeListener?: (event: 'abort', listener: () => void) => unknown;
};

type Callback = (err: Error | null, data: Dispatcher.ResponseData) => void;

/** Errors a request was failed with because its signal was aborted before its connection opened. */
const cutConnecting = new WeakSet<object>();

/**
 * Whether `err` failed a request whose signal was aborted while its connection was still opening
 * (no socket yet: a host that never completes the handshake, a proxy that never answers CONNECT).
 */
export function abortedConnecting(err: unknown): boolean {
  return typeof err === 'object' && err !== null && cutConnecting.has(err);
}

/**
 * `undici.request(url, opts)` with an explicit dispatcher.
 *
 * An aborted signal fails the request at once, even while its connection is still opening: undici
 * only notes the reason until the request has a socket, so a request's deadline did not cut a
 * connection that never opened (a host that never completed the handshake held it for undici's 10 s
 * connect timeout, a proxy that never closed a connection it dropped, for ever). The request undici
 * still holds is aborted when its connection opens, or fails with it.
 */
export function request(url: string | URL, opts: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher, ...rest } = opts;
  const signal = (rest.signal ?? null) as AbortHandle | null;
  return new Promise((resolve, reject) => {
    let connected = false;
    let settled = false;
    const onAbort = (): void => {
      if (connected || settled) return;
      settled = true;
      unlisten();
      const reason = signal?.reason;
      const err = typeof reason === 'object' && reason !== null ? reason : new Error('the request was aborted before its connection opened');
      cutConnecting.add(err);
      reject(err);
    };
    const unlisten = (): void => {
      if (signal === null) return;
      if (signal.removeEventListener !== undefined) signal.removeEventListener('abort', onAbort);
      else signal.removeListener?.('abort', onAbort);
    };
    const callback: Callback = (err, data) => {
      if (settled) {
        // Cut while connecting: what undici gives back later is nobody's.
        if (err === null) data.body.destroy();
        return;
      }
      settled = true;
      unlisten();
      if (err !== null) reject(err);
      else resolve(data);
    };
    // The request's handler is told when its connection is open (onConnect): from then on, undici's
    // own abort ends it.
    const watched = {
      dispatch(o: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        const legacy = handler as { onConnect?: (...args: unknown[]) => unknown };
        const onConnect = legacy.onConnect;
        legacy.onConnect = function (this: unknown, ...args: unknown[]) {
          connected = true;
          return onConnect?.apply(this, args);
        };
        return dispatcher.dispatch(o, handler);
      },
    };
    (apiRequest as (this: unknown, o: Dispatcher.RequestOptions, cb: Callback) => void).call(
      watched,
      { ...rest, origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname, method: rest.method ?? 'GET' },
      callback,
    );
    if (signal !== null && !settled && !connected) {
      if (signal.aborted) onAbort();
      else if (signal.addEventListener !== undefined) signal.addEventListener('abort', onAbort);
      else signal.on?.('abort', onAbort);
    }
  });
}
