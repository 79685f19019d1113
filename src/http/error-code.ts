// A network error's code (ECONNREFUSED, UND_ERR_SOCKET, DEPTH_ZERO_SELF_SIGNED_CERT, ...), read the
// same way by every client (the agent's, its readiness probe, the judge and the simulator, a trace
// store), wherever undici and Node put it:
// - on the error itself;
// - on its cause: a wrapper's own code says less than what it wraps (undici's SecureProxyConnectionError,
//   UND_ERR_PRX_TLS, around the certificate error; fetch's `TypeError: fetch failed`, with none);
// - on an AggregateError's errors: a host with two addresses, localhost's two families among them
//   (src/http/localhost.ts), each tried in turn. Node copies the first one's code onto the
//   AggregateError, and its message is empty; the error kept is the first that names a certificate
//   problem, else the first that is an answer (a refusal, a reset), not an address given up on (an
//   IPv6 address a runner cannot route times out after Node's 250 ms and the next one is tried; an
//   absent IPv6 loopback answers EADDRNOTAVAIL), else the first.

import { maxHeaderSize } from 'node:http';
import { tlsProblem } from './tls.js';

/** The codes of an address given up on, or whose family this machine lacks: another address's answer says more. */
const GIVEN_UP = new Set(['ETIMEDOUT', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH', 'EINVAL']);

/** How deep a chain of causes is followed (a cycle ends sooner). */
const MAX_DEPTH = 8;

/** The error that carries a network error's code, and that code; null when none in the chain has one. */
export function networkCause(err: unknown): { code: string; error: Error | { code: string; message?: unknown } } | null {
  return causeOf(err, new Set(), 0);
}

/** A network error's code, through its causes and an AggregateError's errors (undefined: none). */
export function networkErrorCode(err: unknown): string | undefined {
  return networkCause(err)?.code;
}

/**
 * A network error in words for a message: its own message, else (an AggregateError's is empty) the
 * message of the error its code came from, with the code when the words do not say it.
 */
export function networkErrorText(err: unknown): string {
  const cause = networkCause(err);
  const own = err instanceof Error ? err.message : String(err);
  const text = own !== '' ? own : cause !== null && typeof cause.error.message === 'string' && cause.error.message !== '' ? cause.error.message : err instanceof Error ? err.name : '';
  if (cause === null || text.includes(cause.code)) return text;
  return text === '' ? cause.code : `${text} (${cause.code})`;
}

/**
 * A connection that failed, in the words every client says it in (the agent's turns and a trace
 * store's requests, the judge's and the simulator's reasons, `--wait-for-agent`'s polls), by its
 * code, with the address it was tried at when the client gives it, never in Node's own message
 * (`connect ECONNREFUSED 127.0.0.1:3000`).
 */
const CLOSED = (address: string): string => `the connection${address === '' ? '' : ` to ${address}`} was closed without an answer`;
const UNRESOLVED = (address: string): string => `the host name${address === '' ? '' : ` ${address}`} did not resolve`;
const CONNECTION_WORDS: Readonly<Record<string, (address: string) => string>> = {
  ECONNREFUSED: (address) => `connection refused${address === '' ? '' : ` at ${address}`}`,
  ECONNRESET: CLOSED,
  EPIPE: CLOSED,
  UND_ERR_SOCKET: CLOSED,
  ENOTFOUND: UNRESOLVED,
  EAI_AGAIN: UNRESOLVED,
  EHOSTUNREACH: (address) => `no route to the host${address === '' ? '' : ` ${address}`}`,
  ENETUNREACH: (address) => `the network is unreachable${address === '' ? '' : ` (to ${address})`}`,
  ETIMEDOUT: (address) => `no connection${address === '' ? '' : ` to ${address}`} opened in time`,
  UND_ERR_CONNECT_TIMEOUT: (address) => `no connection${address === '' ? '' : ` to ${address}`} opened within the connect timeout`,
};

/**
 * A failed connection in words, with its code: `connection refused (ECONNREFUSED)`; with the
 * `address` it was tried at (networkAddress), `connection refused at 127.0.0.1:3000 (ECONNREFUSED)`,
 * `the host name agent.test did not resolve (ENOTFOUND)`. Null for a code of no such failure.
 */
export function connectionFailureText(code: string | undefined, address: string | null = null): string | null {
  const words = code === undefined ? undefined : CONNECTION_WORDS[code];
  return words === undefined ? null : `${words(address ?? '')} (${code})`;
}

/**
 * Where a connection that failed was tried, read from the error Node or undici made (never from its
 * message): `127.0.0.1:3000`, `[::1]:3000`, or the host name that did not resolve; a connection
 * closed under undici (`UND_ERR_SOCKET`), by the socket's remote end it keeps. Null when it says
 * none (a reset read by Node, `read ECONNRESET`; a connect timeout).
 */
export function networkAddress(err: unknown): string | null {
  const cause = networkCause(err);
  if (cause === null) return null;
  const { address, port, hostname, socket } = cause.error as { address?: unknown; port?: unknown; hostname?: unknown; socket?: { remoteAddress?: unknown; remotePort?: unknown } | null };
  if (typeof address === 'string' && address !== '') return hostPort(address, port);
  if (typeof hostname === 'string' && hostname !== '') return hostname;
  // undici's SocketError: the socket's ends, as it saw them when the connection closed.
  const remote = socket?.remoteAddress;
  return typeof remote === 'string' && remote !== '' ? hostPort(remote, socket?.remotePort) : null;
}

function hostPort(address: string, port: unknown): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return typeof port === 'number' ? `${host}:${port}` : host;
}

/**
 * A network error of no failed connection that connectionFailureText words, in words of ours
 * rather than Node's or undici's message: an answer that is not valid HTTP (undici's
 * HTTPParserError, with llhttp's `HPE_` code when it has one), a body of another length than its
 * header says, headers over the size read, or `a connection error (CODE)`, as `--wait-for-agent` says any other. Null for an
 * error with no code (not the network's: its own message says more).
 */
export function otherNetworkFailureText(err: unknown): string | null {
  const code = networkErrorCode(err);
  return badAnswerText(err) ?? (code === undefined ? null : `a connection error (${code})`);
}

/** badAnswerText's words for an answer that is not HTTP (another service on the port), which a client tells apart: it is not retried. */
export const NOT_HTTP = 'an answer that is not valid HTTP';

/**
 * An answer that came and was not one HTTP reads, in otherNetworkFailureText's words: not valid
 * HTTP (another service on the port), a body of another length than its header says, or headers
 * over the size read. Something
 * answered, so the server was reached: a client says so, never "could not reach". Null for any other error.
 */
export function badAnswerText(err: unknown): string | null {
  const code = networkErrorCode(err);
  // llhttp's code (HPE_INVALID_CONSTANT, ...) is left out: undici gives it on some reads of the same answer and not on others, and it tells a user nothing the words do not.
  if (parserError(err) || code?.startsWith('HPE_') === true) return NOT_HTTP;
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return `a body of another length than its Content-Length (${code})`;
  // undici reads at most Node's --max-http-header-size of headers (16 KB unless set): it gives up on the rest.
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return `an answer with headers of more than ${Math.round(maxHeaderSize / 1024)} KB, the most read (${code})`;
  return null;
}

/**
 * Is badAnswerText's answer one the server gives again on every attempt (not HTTP: another service
 * on the port; headers over the limit), so that a client does not retry it?
 */
export function answersTheSame(bad: string): boolean {
  return bad === NOT_HTTP || bad.endsWith('(UND_ERR_HEADERS_OVERFLOW)');
}

/** Is undici's HTTPParserError the error, or one it wraps (fetch's `TypeError: fetch failed`, Octokit's RequestError around it)? */
function parserError(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > MAX_DEPTH) return false;
  return err.name === 'HTTPParserError' || parserError(err.cause, depth + 1);
}

function causeOf(err: unknown, seen: Set<unknown>, depth: number): ReturnType<typeof networkCause> {
  if (err === null || typeof err !== 'object' || seen.has(err) || depth > MAX_DEPTH) return null;
  seen.add(err);
  const { errors, cause, code } = err as { errors?: unknown; cause?: unknown; code?: unknown };
  if (Array.isArray(errors) && errors.length > 0) {
    const found = errors.map((e) => causeOf(e, seen, depth + 1)).filter((c) => c !== null);
    const kept = found.find((c) => tlsProblem(c.code) !== null) ?? found.find((c) => !GIVEN_UP.has(c.code)) ?? found[0];
    if (kept !== undefined) return kept;
  }
  const inner = causeOf(cause, seen, depth + 1);
  if (inner !== null) return inner;
  return typeof code === 'string' && code !== '' ? { code, error: err as { code: string } } : null;
}
