// `localhost` (and any name under it) is the loopback interface, both families of it: 127.0.0.1
// and ::1 (RFC 6761), as curl resolves it without asking the system. The system's answer differs
// from machine to machine (an /etc/hosts with only `127.0.0.1 localhost`, or `::1` first), and an
// agent started in the same job may listen on either family only (a dev server bound to ::1, a
// Python server bound to 127.0.0.1). A client given `http://localhost:PORT` tries both, 127.0.0.1
// first and ::1 only when 127.0.0.1 is refused: the same URL reaches the agent whichever family it
// listens on (docs/troubleshooting.md, "The agent"). There is no timer between the two: Node's own
// family autoselection gives up an attempt after 250 ms, and on an event loop busy for longer than
// that (a run replaying many fixtures at once) it dropped a 127.0.0.1 connection that had been
// made, then failed on ::1 (nodejs/node#54359).

import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns';
import type { buildConnector } from 'undici';
import buildUndiciConnector from 'undici/lib/core/connect.js';

/** `localhost` and the names under it (`agent.localhost`), as the URL spells the host. */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family: number) => void;

/**
 * A `lookup` for net.connect: localhost names answer both loopback addresses (or the one of the
 * family asked for); any other name is the system's.
 */
export function localhostLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  if (!isLocalhostName(hostname)) {
    systemLookup(hostname, options, callback);
    return;
  }
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
  const addresses = family === 4 || family === 6 ? LOOPBACK.filter((a) => a.family === family) : LOOPBACK;
  const answer = addresses.map((a) => ({ ...a }));
  process.nextTick(() => (options.all === true ? callback(null, answer, 0) : callback(null, answer[0]!.address, answer[0]!.family)));
}

/** undici's connector: opens a socket to `options.hostname` and calls back once it is ready (or failed). */
type Connector = buildConnector.connector;

/**
 * What a failed attempt on one loopback family says: the agent is not there (refused), or this
 * machine has no such address; either way the other family is tried.
 */
const OTHER_FAMILY_CODES = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EAFNOSUPPORT']);
const tryOther = (err: Error | null): boolean => err !== null && OTHER_FAMILY_CODES.has((err as NodeJS.ErrnoException).code ?? '');

/**
 * `connector` reaching a localhost name on 127.0.0.1, then on ::1 when 127.0.0.1 is refused; no
 * timer between them. When both fail so, the 127.0.0.1 failure is the one reported (`connect
 * ECONNREFUSED 127.0.0.1:PORT`). TLS still names the host as the URL spells it (undici takes the
 * server name from `host`, not from the address connected to).
 */
export function loopbackInTurn(connector: Connector): Connector {
  return (options, callback) => {
    if (!isLocalhostName(options.hostname)) return connector(options, callback);
    const [first, second] = LOOPBACK.map((a) => a.address) as [string, string];
    connector({ ...options, hostname: first }, (...firstTry) => {
      if (!tryOther(firstTry[0])) {
        callback(...firstTry);
        return;
      }
      connector({ ...options, hostname: second }, (...secondTry) => callback(...(tryOther(secondTry[0]) ? firstTry : secondTry)));
    });
  };
}

/** undici's connect options, as a client's pool is given them (src/http/network.ts). */
interface ClientConnectOptions {
  connect?: buildConnector.BuildOptions | Connector | undefined;
  connectTimeout?: number | null | undefined;
  maxCachedSessions?: number | null | undefined;
  allowH2?: boolean | undefined;
}

/** undici's connector for a client, built from the client's options as undici builds its own (a client with a connector of its own: that one). */
export function clientConnector(options: ClientConnectOptions): Connector {
  if (typeof options.connect === 'function') return options.connect;
  return buildUndiciConnector({
    ...(options.maxCachedSessions != null ? { maxCachedSessions: options.maxCachedSessions } : {}),
    ...(options.allowH2 !== undefined ? { allowH2: options.allowH2 } : {}),
    ...(options.connectTimeout != null ? { timeout: options.connectTimeout } : {}),
    ...options.connect,
  });
}
