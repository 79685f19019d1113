// `localhost` (and any name under it) is the loopback interface, both families of it: 127.0.0.1
// and ::1 (RFC 6761), as curl resolves it without asking the system. The system's answer differs
// from machine to machine (an /etc/hosts with only `127.0.0.1 localhost`, or `::1` first), and an
// agent started in the same job may listen on either family only (a dev server bound to ::1, a
// Python server bound to 127.0.0.1). A client given `http://localhost:PORT` tries both, 127.0.0.1
// first, the next one at once when one is refused (Node's family autoselection): the same URL reaches
// the agent whichever family it listens on (docs/troubleshooting.md, "The agent").

import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as systemLookup } from 'node:dns';

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

/** The connect options that make a client to `target` reach localhost on either family (none for another host). */
export function localhostConnect(target: URL): { lookup: typeof localhostLookup; autoSelectFamily: true } | null {
  return isLocalhostName(target.hostname) ? { lookup: localhostLookup, autoSelectFamily: true } : null;
}
