// The one error type that leaves `src/github/`. Its message names the request and what GitHub
// said (`POST /repos/o/r/issues/5/comments → 403 Resource not accessible by integration`),
// never the token.

import { badAnswerText, connectionFailureText, networkAddress, networkErrorCode, otherNetworkFailureText } from '../http/error-code.js';
import { NOT_TLS_FIX, notTls, proxyPlainHttpFix, tlsAlert, tlsAlertFix, tlsAlertText } from '../http/tls.js';
import { headOf, shownJson } from '../words.js';

/** An https:// proxy on the way to GitHub's API, named without credentials, with the variable that names it (src/github/proxy.ts). */
export interface HttpsProxy {
  name: string;
  variable: string;
}

export type GitHubErrorKind = 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'server' | 'network' | 'other';

export class GitHubError extends Error {
  override readonly name = 'GitHubError';
  /** HTTP status, or null for a GraphQL error or a request that never got an answer. */
  readonly status: number | null;
  readonly kind: GitHubErrorKind;
  /** The request, e.g. `POST /repos/o/r/issues/5/comments` or `POST /graphql createCommitOnBranch`. */
  readonly request: string;
  /** GraphQL error types when the failure came from GraphQL (`STALE_DATA`, `FORBIDDEN`...). */
  readonly graphqlTypes: readonly string[];
  /** What GitHub said, or what became of the connection in our words, without the request: `Bad Gateway`, `GitHub's API closed the connection without answering (UND_ERR_SOCKET)`. */
  readonly detail: string;
  /**
   * The message after the request: the status (else the GraphQL types, else the kind) and the
   * detail, `403 Resource not accessible by integration`, `STALE_DATA Expected branch ...`,
   * `network: no answer from GitHub's API within 30 s ...`. Read it, never the message's text.
   */
  readonly answer: string;

  constructor(init: {
    request: string;
    status: number | null;
    kind: GitHubErrorKind;
    detail: string;
    graphqlTypes?: readonly string[];
    cause?: unknown;
  }) {
    // A kind stands where a status would, with a colon before its words: "→ network: no answer from GitHub's API within 30 s".
    const outcome = init.status !== null ? String(init.status) : init.graphqlTypes?.length ? init.graphqlTypes.join(',') : init.detail.trim() === '' ? init.kind : `${init.kind}:`;
    const answer = `${outcome} ${init.detail.trim()}`.trim();
    super(`${init.request} → ${answer}`, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.answer = answer;
    this.request = init.request;
    this.status = init.status;
    this.kind = init.kind;
    this.graphqlTypes = init.graphqlTypes ?? [];
    this.detail = init.detail.trim();
  }
}

/** A connection that was open and closed by GitHub's side before any answer (undici's 'other side closed', a reset, a broken pipe). */
const CLOSED_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * A request to GitHub's API that got no answer, in our words rather than undici's or Node's message
 * (`other side closed`), as the agent's client says its own (src/http/error-code.ts): `GitHub's API
 * closed the connection without answering (UND_ERR_SOCKET)`, `the connection to GitHub's API
 * failed: connection refused at 127.0.0.1:443 (ECONNREFUSED)`, `GitHub's API answered the TLS
 * handshake with an alert: handshake failure (...); check whether ...`, `GitHub's API answered
 * without TLS (ERR_SSL_WRONG_VERSION_NUMBER); ... write the URL with http:// in GITHUB_API_URL` (through
 * an https:// `proxy`, HTTPS_PROXY's (src/github/proxy.ts): the proxy and its variable instead). Null for an error with no network
 * code (the request's deadline says its own words: src/github/octokit.ts).
 */
export function networkWords(error: unknown, proxy: HttpsProxy | null = null): string | null {
  const code = networkErrorCode(error);
  if (code !== undefined && CLOSED_CODES.has(code)) return `GitHub's API closed the connection without answering (${code})`;
  const bad = badAnswerText(error);
  if (bad !== null) return `GitHub's API gave ${bad}`;
  // An alert in the TLS handshake (a GitHub Enterprise Server, or a proxy on the way, that wants a
  // client certificate): in the words the agent's client says it in (src/tls-alert.ts), with GitHub's fix.
  const alert = tlsAlert(code);
  if (alert !== null) return `GitHub's API ${tlsAlertText(alert)}; ${tlsAlertFix('GITHUB_API_URL', "GitHub's API, or a proxy on its way (HTTPS_PROXY),")}`;
  // An https:// URL to a port that speaks plain HTTP: in the agent client's words (src/http/tls.ts), with GitHub's setting.
  const plain = notTls(code);
  if (plain !== null) {
    // Through an https:// proxy the first TLS handshake is the proxy's: a plain-HTTP answer is most likely its.
    if (proxy !== null) {
      return `the proxy ${proxy.name} (${proxy.variable}) answered without TLS (${plain}); ${proxyPlainHttpFix(proxy.variable)} (if it does speak TLS, GitHub's API behind it answered without TLS: write GITHUB_API_URL with http://)`;
    }
    return `GitHub's API answered without TLS (${plain}); ${NOT_TLS_FIX} in GITHUB_API_URL`;
  }
  const failed = connectionFailureText(code, networkAddress(error)) ?? otherNetworkFailureText(error);
  return failed === null ? null : `the connection to GitHub's API failed: ${failed}`;
}

export function isGitHubError(error: unknown): error is GitHubError {
  return error instanceof GitHubError;
}

interface HttpErrorLike {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

interface GraphqlErrorLike {
  errors: { type?: string; message?: string }[];
}

function isHttpError(error: unknown): error is HttpErrorLike {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}

function isGraphqlError(error: unknown): error is GraphqlErrorLike {
  return typeof error === 'object' && error !== null && Array.isArray((error as { errors?: unknown }).errors);
}

function dataMessage(data: unknown): string | null {
  if (typeof data === 'string' && data.length > 0) return headOf(data, 300);
  if (typeof data === 'object' && data !== null) {
    const { message, errors } = data as { message?: unknown; errors?: unknown };
    if (typeof message === 'string') {
      const extra = Array.isArray(errors) && errors.length > 0 ? `: ${headOf(shownJson(errors), 300)}` : '';
      return `${message}${extra}`;
    }
  }
  return null;
}

function kindOfStatus(status: number, message: string, headers: Record<string, string | undefined>): GitHubErrorKind {
  const rateLimited =
    status === 429 ||
    (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(message)));
  if (rateLimited) return 'rate_limited';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'server';
  return 'other';
}

function kindOfGraphqlTypes(types: readonly string[], messages: string): GitHubErrorKind {
  if (types.includes('STALE_DATA') || /Expected branch to point to/i.test(messages)) return 'conflict';
  if (types.includes('RATE_LIMITED')) return 'rate_limited';
  if (types.includes('FORBIDDEN') || /not accessible by integration/i.test(messages)) return 'forbidden';
  if (types.includes('NOT_FOUND')) return 'not_found';
  return 'other';
}

/**
 * Turns whatever Octokit threw into a GitHubError naming `request`. `redact` removes secrets from
 * anything GitHub echoed back.
 */
export function toGitHubError(error: unknown, request: string, redact: (text: string) => string = (t) => t, proxy: HttpsProxy | null = null): GitHubError {
  if (error instanceof GitHubError) return error;
  if (isGraphqlError(error) && !isHttpError(error)) {
    const types = error.errors.map((e) => e.type).filter((t): t is string => typeof t === 'string');
    const messages = error.errors.map((e) => e.message ?? '').filter((m) => m.length > 0).join('; ');
    return new GitHubError({
      request,
      status: null,
      kind: kindOfGraphqlTypes(types, messages),
      detail: redact(messages || 'GraphQL error'),
      graphqlTypes: types,
      cause: error,
    });
  }
  if (isHttpError(error)) {
    // Octokit reports a request that never got an answer (DNS, refused, reset) as a 500 with no response.
    if (error.response === undefined) {
      return new GitHubError({ request, status: null, kind: 'network', detail: redact(networkWords(error, proxy) ?? error.message), cause: error });
    }
    const headers = error.response.headers ?? {};
    const detail = dataMessage(error.response.data) ?? error.message;
    return new GitHubError({
      request,
      status: error.status,
      kind: kindOfStatus(error.status, detail, headers),
      detail: redact(detail),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GitHubError({ request, status: null, kind: 'network', detail: redact(networkWords(error, proxy) ?? message), cause: error });
}
