// How agent-replay's own HTTP clients reach their servers (the agent, its readiness probe, the
// judge, the simulator, a trace store): directly, or through the proxy the environment names
// (docs/configuration.md, "Behind a proxy"). The variables are read as curl and GitHub's toolkit
// read them: `https_proxy` / `HTTPS_PROXY` for https addresses, `http_proxy` / `HTTP_PROXY` for
// http ones (the lower-case name first), `no_proxy` / `NO_PROXY` for the hosts to reach directly.
// Loopback addresses (localhost, 127.x.x.x, [::1]) are always reached directly, as GitHub's
// toolkit does: an agent started in the same job is never sent to a proxy.
//
// Each client talks to one origin (the agent's URL, the judge's base URL, ...), so the decision is
// made once, when its dispatcher is made. undici's ProxyAgent is loaded only when a proxy is set.

import { BlockList, isIP } from 'node:net';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { UserError } from '../errors.js';
import { networkErrorCode } from './error-code.js';
import { ProxyConnectError, type TunnelStep } from './proxy-error.js';
import { clientConnector, isLocalhostName, loopbackInTurn } from './localhost.js';
import { notTls, proxyCertificateFix, proxyPlainHttpFix, tlsAlert, tlsAlertFix, tlsAlertText, tlsProblem, type TlsAlert, type TlsProblem } from './tls.js';
import { abortedConnecting, Agent, connectingStep, OpeningSockets, watchOpening } from './undici.js';
import { thousands } from '../words.js';

/** One entry of NO_PROXY: a host (or a domain, with `suffix`), perhaps with a port (0: any). */
interface NoProxyEntry {
  host: string;
  suffix: boolean;
  port: number;
}

export interface ProxySettings {
  /** For http:// addresses (null: reached directly). */
  http: URL | null;
  /** For https:// addresses (null: reached directly). */
  https: URL | null;
  /** NO_PROXY's entries; `all` when it is `*`; `ranges`: its CIDR ranges (null: none). */
  noProxy: { all: boolean; entries: NoProxyEntry[]; ranges: BlockList | null };
  /** The variables `http` and `https` were read from, as spelled (`https_proxy` or `HTTPS_PROXY`). */
  variables: { http: string | null; https: string | null };
}

/** The proxy a client's requests go through: named without its credentials, and the variable that names it. */
export interface ProxyRoute {
  proxy: string;
  variable: string;
  /** The target's host, as NO_PROXY would name it. */
  host: string;
  /** An http:// target through an http:// proxy: the request is forwarded, not tunnelled (CONNECT). */
  forwarded: boolean;
}

export { ProxyConnectError };

/** Opens the connections of one client: `target` is the origin it talks to. */
export interface Network {
  dispatcher(target: string | URL, options: UndiciAgent.Options): Dispatcher;
  /** The proxy requests to `target` go through, named without its credentials; null: directly. */
  via(target: string | URL): string | null;
  /** The same, with the variable that names it (for a failure's fix); null: directly. */
  route(target: string | URL): ProxyRoute | null;
}

/**
 * The pool of a client that reaches `target` directly: a localhost address is tried on both
 * loopback families (src/http/localhost.ts); the sockets it is opening are held, for
 * closeDispatcher to destroy (src/http/undici.ts).
 */
function directAgent(target: string | URL, options: UndiciAgent.Options): Dispatcher {
  const url = typeof target === 'string' ? new URL(target) : target;
  const opening = new OpeningSockets();
  const connector = opening.track(clientConnector(options));
  return watchOpening(new Agent({ ...options, connect: isLocalhostName(url.hostname) ? loopbackInTurn(connector) : connector }), opening);
}

/** Every server reached directly. */
export const DIRECT: Network = { dispatcher: directAgent, via: () => null, route: () => null };

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function variable(env: Record<string, string | undefined>, name: string): { name: string; value: string } | null {
  for (const n of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[n]?.trim();
    if (value) return { name: n, value };
  }
  return null;
}

/**
 * A proxy variable's URL: `http://host:port` (as curl does, a value without a scheme is taken as
 * http://). Its credentials, if any, are kept for the proxy and never shown: the error names the
 * variable, not its value.
 */
function proxyUrl(v: { name: string; value: string }): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(v.value) ? v.value : `http://${v.value}`);
  } catch {
    throw new UserError(`${v.name} is not a proxy address agent-replay can read: give it as http://host:port (or http://user:password@host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError(`${v.name} names a ${url.protocol.replace(/:$/, '')} proxy; agent-replay reaches servers through an http:// or https:// proxy only: give it as http://host:port`);
  }
  if (url.hostname === '') throw new UserError(`${v.name} has no host: give it as http://host:port`);
  return url;
}

function parseNoProxy(value: string): ProxySettings['noProxy'] {
  const entries: NoProxyEntry[] = [];
  let all = false;
  let ranges: BlockList | null = null;
  for (const raw of value.split(/[,\s]+/)) {
    const item = raw.toLowerCase();
    if (item === '') continue;
    if (item === '*') {
      all = true;
      continue;
    }
    // A CIDR range (10.0.0.0/8, fd00::/8), as curl reads it: it matches addresses written as IPs.
    const cidr = /^\[?([0-9a-f:.]+)\]?\/(\d{1,3})$/.exec(item);
    if (cidr !== null) {
      const family = isIP(cidr[1] as string);
      const bits = Number(cidr[2]);
      if (family !== 0 && bits <= (family === 4 ? 32 : 128)) {
        ranges ??= new BlockList();
        ranges.addSubnet(cidr[1] as string, bits, family === 4 ? 'ipv4' : 'ipv6');
      }
      continue;
    }
    // An IPv6 address written without brackets (::1) is the whole item; else host[:port].
    const m = /^[0-9a-f:]*:[0-9a-f:]*:[0-9a-f:.]*$/.test(item) ? [item, `[${item}]`] : /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(item);
    if (m === null) continue;
    const host = (m[1] as string).replace(/^\*?\./, '');
    entries.push({ host, suffix: !host.startsWith('['), port: m[2] === undefined ? 0 : Number(m[2]) });
  }
  return { all, entries, ranges };
}

/** The proxies the environment names; null when it names none. Throws a UserError for a value that is not a proxy address. */
export function proxySettings(env: Record<string, string | undefined>): ProxySettings | null {
  const http = variable(env, 'http_proxy');
  const https = variable(env, 'https_proxy');
  if (http === null && https === null) return null;
  const noProxy = variable(env, 'no_proxy');
  return {
    http: http === null ? null : proxyUrl(http),
    https: https === null ? null : proxyUrl(https),
    noProxy: parseNoProxy(noProxy?.value ?? ''),
    variables: { http: http?.name ?? null, https: https?.name ?? null },
  };
}

/** localhost (and names under it), 127.0.0.0/8, ::1: never proxied. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '[::1]' || h === '[0:0:0:0:0:0:0:1]';
}

/** The proxy a request to `target` goes through, or null when it goes directly. */
export function proxyFor(settings: ProxySettings, target: URL): URL | null {
  const proxy = target.protocol === 'https:' ? settings.https : target.protocol === 'http:' ? settings.http : null;
  if (proxy === null) return null;
  const host = target.hostname.toLowerCase();
  if (isLoopback(host) || settings.noProxy.all) return null;
  const ip = host.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(ip);
  if (family !== 0 && settings.noProxy.ranges?.check(ip, family === 4 ? 'ipv4' : 'ipv6') === true) return null;
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  for (const e of settings.noProxy.entries) {
    if (e.port !== 0 && e.port !== port) continue;
    // `example.com` and `.example.com` both match example.com and its subdomains, as curl does.
    if (host === e.host || (e.suffix && host.endsWith(`.${e.host}`))) return null;
  }
  return proxy;
}

/**
 * undici's words for a proxy that would not open a tunnel ("Proxy response (407) !== 200 when HTTP
 * Tunneling") or forward a request, as the clients say it: null for any other error.
 */
export function proxyRefusal(message: string): string | null {
  // A forwarding proxy's 407 (an http:// address through HTTP_PROXY): undici's "Proxy Authentication Required (407)".
  if (/^Proxy Authentication Required \(407\)/.test(message)) return 'the proxy refused the request (forwarded): HTTP 407, proxy authentication required';
  const status = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message)?.[1];
  if (status === undefined) return null;
  return `the proxy refused the tunnel (CONNECT): HTTP ${status}${status === '407' ? ', proxy authentication required' : ''}`;
}

/**
 * Error codes of a connection that never opened (refused, a name that did not resolve, no route, no
 * answer in time): through a proxy, the connection is the proxy's, since the server behind it is
 * reached by the proxy itself (docs/configuration.md, "Behind a proxy").
 */
const UNREACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The proxy a request failed to reach, when it went through one and `code` says the connection never opened; else null. */
export function unreachedProxy(route: ProxyRoute | null, code: string | null | undefined): ProxyRoute | null {
  return route !== null && code != null && UNREACHED.has(code) ? route : null;
}

/** What went wrong at the proxy, when the proxy itself failed (not the server behind it); `unreached`: see UNREACHED. */
export type ProxyFault =
  /** The proxy's own certificate (an https:// proxy). */
  | { kind: 'tls'; tls: TlsProblem }
  /** The proxy answered its own TLS handshake with an alert (an https:// proxy that wants a client certificate, or shares no TLS version). */
  | { kind: 'alert'; alert: TlsAlert }
  /** The proxy answered its own TLS handshake in plain HTTP (an https:// proxy URL for a proxy that speaks http://): `code`, OpenSSL's. */
  | { kind: 'not-tls'; code: string }
  /** A certificate refused through the tunnel: the proxy's, if it inspects TLS, else the server's. */
  | { kind: 'intercepted'; tls: TlsProblem }
  /** No answer to CONNECT within the connect timeout. */
  | { kind: 'no-answer'; timeoutMs: number }
  /** A connection to the proxy closed or reset before any answer. */
  | { kind: 'closed'; code: string }
  /** The request's deadline came while its tunnel was still opening, at `step` (null: not known). */
  | { kind: 'stalled'; step: TunnelStep | null }
  | { kind: 'unreached'; code: string };

const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * The proxy's part in a failed request through `route` (null: none, or no proxy): a failure while
 * opening the tunnel is the proxy's, as is a forwarding proxy's connection closed before an answer;
 * a certificate refused through a tunnel may be the proxy's (docs/configuration.md, "Behind a proxy").
 */
export function proxyFault(route: ProxyRoute | null, err: unknown): ProxyFault | null {
  if (route === null) return null;
  if (abortedConnecting(err)) return { kind: 'stalled', step: connectingStep(err) };
  const code = networkErrorCode(err);
  if (code === undefined) return null;
  const tls = tlsProblem(code);
  if (err instanceof ProxyConnectError) {
    if (tls !== null) return { kind: 'tls', tls };
    const alert = tlsAlert(code);
    if (alert !== null) return { kind: 'alert', alert };
    // Only a connection to the proxy fails so inside a tunnel's opening (the TLS with the server comes
    // after it): an https:// proxy URL for a proxy that speaks plain HTTP, the same on every attempt.
    const plain = notTls(code);
    if (plain !== null) return { kind: 'not-tls', code: plain };
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return { kind: 'no-answer', timeoutMs: err.timeoutMs };
    if (UNREACHED.has(code)) return { kind: 'unreached', code };
    return { kind: 'closed', code };
  }
  if (UNREACHED.has(code)) return { kind: 'unreached', code };
  if (tls !== null) return route.forwarded ? null : { kind: 'intercepted', tls };
  if (route.forwarded && CLOSED.has(code)) return { kind: 'closed', code };
  return null;
}

/**
 * Is the proxy's fault one it gives on every attempt (its certificate, one refused through it, an
 * alert in its TLS handshake, plain HTTP in answer to it), so that a client neither retries it nor waits for it?
 */
export function lastingFault(fault: ProxyFault | null): boolean {
  return fault?.kind === 'tls' || fault?.kind === 'intercepted' || fault?.kind === 'alert' || fault?.kind === 'not-tls';
}

/**
 * A proxy's fault in words: what happened, naming the proxy (without credentials) and its variable, and the fix; null for `unreached`, which the
 * clients word themselves. `the proxy http://proxy.corp:3128 (HTTPS_PROXY) did not answer CONNECT
 * within 10,000 ms (the connect timeout)`.
 */
export function proxyFaultText(route: ProxyRoute, fault: ProxyFault): { what: string; fix: string } | null {
  const at = `the proxy ${route.proxy} (${route.variable})`;
  const direct = `or name ${route.host} in NO_PROXY to reach it directly`;
  switch (fault.kind) {
    case 'tls': {
      const { tls } = fault;
      return { what: `the TLS certificate of ${at} is refused: ${tls.what} (${tls.code})`, fix: proxyCertificateFix(tls, route.variable, direct) };
    }
    case 'alert':
      return { what: `${at} ${tlsAlertText(fault.alert)}`, fix: `${tlsAlertFix(route.variable, 'the proxy')}, ${direct}` };
    case 'not-tls':
      return { what: `${at} answered without TLS (${fault.code})`, fix: proxyPlainHttpFix(route.variable, direct) };
    case 'intercepted': {
      const { tls } = fault;
      return {
        what: `the TLS certificate for ${route.host}, through ${at}, is refused: ${tls.what} (${tls.code})`,
        fix: proxyCertificateFix(tls, route.variable, direct, route.host),
      };
    }
    case 'no-answer':
      return { what: `${at} did not answer CONNECT within ${thousands(fault.timeoutMs)} ms (the connect timeout)`, fix: `check that the proxy is up and lets ${route.host} through, ${direct}` };
    case 'closed':
      return { what: `${at} closed the connection without answering (${fault.code})`, fix: `see the proxy's log (it may refuse ${route.host}, or limit connections), ${direct}` };
    case 'unreached':
    case 'stalled':
      return null;
  }
}

/**
 * Where a request through `route` stood at its deadline, in words: a tunnel still opening at `step`
 * (src/http/proxy-error.ts), or `answer`, its connection open and no answer back. The clients put it
 * in their deadline's message (`no connection through the proxy ... opened within 200 ms, stalled
 * waiting for the proxy's answer to CONNECT`).
 */
export function stallText(route: ProxyRoute, step: TunnelStep | 'answer'): string {
  switch (step) {
    case 'proxy':
      return 'stalled connecting to the proxy';
    case 'connect':
      return "stalled waiting for the proxy's answer to CONNECT";
    case 'tls':
      return `stalled in the TLS handshake with ${route.host} through the tunnel`;
    case 'answer':
      return route.forwarded ? 'the proxy took the request, and no answer came back' : `the tunnel to ${route.host} opened, and no answer came through it`;
  }
}

/**
 * How far a request had got when a deadline cut it: its connection still opening (through a proxy,
 * at `step`; null: not known), open with no answer back, or answered (`status`, its headers) with
 * the body not ended.
 */
export type DeadlineCut = { at: 'connecting'; step: TunnelStep | null } | { at: 'answer' } | { at: 'body'; status: number };

/**
 * A request cut by a deadline, in the one pattern every client says it in (the agent's,
 * `--wait-for-agent`'s, the judge's and the simulator's, a trace store's), `who` naming the server
 * ("the agent", "the judge", "the store"): `no connection to the agent opened within 200 ms`
 * (through a proxy, naming it and the step its tunnel stalled at), `no answer from the agent within
 * 200 ms` (the connection opened; through a proxy, with what came of the request there), `the
 * agent's answer (HTTP 200) did not end within 200 ms` (the headers came, the body stopped).
 * `within` is the limit as said ("200 ms", "traces.waitMs (2,000 ms) and 1,000 ms more").
 */
export function deadlineText(cut: DeadlineCut, who: string, within: string, route: ProxyRoute | null): string {
  const through = route === null ? '' : ` through the proxy ${route.proxy} (${route.variable})`;
  if (cut.at === 'connecting') {
    const step = route === null || cut.step === null ? '' : `, ${stallText(route, cut.step)}`;
    return `no connection${through} to ${who} opened within ${within}${step}`;
  }
  if (cut.at === 'body') return `${who}'s answer (HTTP ${cut.status}) did not end within ${within}`;
  const none = `no answer from ${who} within ${within}`;
  return route === null ? none : `${none}${through}: ${stallText(route, 'answer')}`;
}

/** The step a request cut while connecting through `route` had got to (null: not known, or no proxy). */
export function cutStep(route: ProxyRoute | null, err: unknown): TunnelStep | null {
  const fault = proxyFault(route, err);
  return fault?.kind === 'stalled' ? fault.step : null;
}

/** How a proxy is named in a log line: its host, never its credentials. */
export function proxyName(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/**
 * The network of a run: DIRECT when the environment names no proxy, else one that sends each
 * client's requests through the proxy for its origin (undici's ProxyAgent, loaded now: a tunnel
 * (CONNECT) for https addresses, the request itself forwarded for http ones).
 */
export async function networkFrom(env: Record<string, string | undefined>): Promise<Network> {
  const settings = proxySettings(env);
  if (settings === null) return DIRECT;
  const { ProxyAgent } = await import('./proxy-agent.js');
  const proxyOf = (target: string | URL): URL | null => proxyFor(settings, typeof target === 'string' ? new URL(target) : target);
  return {
    dispatcher(target, options) {
      const proxy = proxyOf(target);
      if (proxy === null) return directAgent(target, options);
      // The client's connect timeout holds through the proxy too: undici's ProxyAgent opens its
      // connections (to the proxy, and TLS through the tunnel) with its own 10 s unless told.
      const timeout = options.connectTimeout ?? (typeof options.connect === 'object' ? options.connect.timeout : undefined);
      // A proxy at localhost is reached on either loopback family, as the agent is (src/http/proxy-agent.ts).
      const connect = timeout == null ? {} : { proxyTls: { timeout }, requestTls: { timeout } };
      // The same timeout bounds the proxy's answer to a CONNECT (src/http/proxy-agent.ts).
      return new ProxyAgent({ ...options, uri: proxy.href, proxyTunnel: false, ...connect }, timeout ?? undefined);
    },
    via(target) {
      const proxy = proxyOf(target);
      return proxy === null ? null : proxyName(proxy);
    },
    route(target) {
      const url = typeof target === 'string' ? new URL(target) : target;
      const proxy = proxyOf(url);
      if (proxy === null) return null;
      const variable = (url.protocol === 'https:' ? settings.variables.https : settings.variables.http) ?? (url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY');
      return { proxy: proxyName(proxy), variable, host: url.hostname, forwarded: url.protocol === 'http:' && proxy.protocol === 'http:' };
    },
  };
}
