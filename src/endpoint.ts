// A URL as a record and a report may name it (docs/results-json.md; docs/security.md, "Secrets"):
// its scheme, host and path, never the credentials (`user:pass@`), query or fragment a URL may
// carry a secret in, and no path segment that looks like a token, configured as a secret or not.
// The one place the agent's URL (a cause's "HTTP 404 from ...") and every judge's address (the
// judge fingerprint, the meaning judge, calibration.json) are cut down. Pure.

/** Redacts nothing. */
const asIs = (text: string): string => text;

/** What a path segment that looks like a token reads as. */
const HIDDEN = '***';

/**
 * A path segment that reads as a credential rather than a name: a run of 16 or more letters and
 * digits mixing both (`sk-live-4f9aC2...`, a 32-digit hex key), or 24 or more characters of a
 * key's alphabet in upper and lower case with digits (a base64url token). A model or deployment
 * name (`gpt-4o-mini-2024-07-18`), a version (`v1`, `2024-06-01`) or a word is none of these.
 */
export function looksLikeToken(segment: string): boolean {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // A `%` that starts no escape: read as written.
  }
  const mixed = (s: string): boolean => /[A-Za-z]/.test(s) && /\d/.test(s);
  if ((text.match(/[A-Za-z0-9]{16,}/g) ?? []).some(mixed)) return true;
  return text.length >= 24 && /^[A-Za-z0-9_\-.~+=]+$/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text) && /\d/.test(text);
}

/** A path with every segment that looks like a token written `***`. */
function hideTokens(path: string): string {
  return path
    .split('/')
    .map((s) => (looksLikeToken(s) ? HIDDEN : s))
    .join('/');
}

export interface EndpointOptions {
  /**
   * A base address its client appends its own path to after dropping the address's trailing `/`
   * (a judge's `baseUrl`): a trailing `/` is no part of what is asked, and is dropped, as records
   * have always kept a judge's address. Otherwise (the agent's URL, asked as written) the path is
   * kept as written, a trailing `/` included: `https://x/a` and `https://x/a/` are two URLs to a server.
   */
  base?: boolean;
}

/**
 * `https://host/path` of a URL: no credentials, query or fragment, a path segment that looks like
 * a token as `***`, then `redact` (the run's configured secrets: a host read from `${NAME}`, a
 * secret in the path that does not look like one). Null when it is not a URL.
 */
export function urlEndpoint(url: string | null, redact: (text: string) => string = asIs, options: EndpointOptions = {}): string | null {
  if (url === null) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const path = options.base === true ? u.pathname.replace(/\/+$/, '') : u.pathname;
  // Configured secrets first: a whole address read from `${NAME}` is one, and reads as `***` whole.
  return hideTokens(redact(`${u.protocol}//${u.host}${path}`));
}

/**
 * An address as a record or baseline written before tokens in a path were hidden may hold it, read
 * as urlEndpoint writes it now (`https://x/key/sk-...` is `https://x/key/***`): a panel's
 * addresses, joined by ", ", each so. Its path is everything after the host. What a record holds
 * already is unchanged.
 */
export function hideEndpointTokens(endpoint: string): string {
  return endpoint
    .split(', ')
    .map((one) => {
      const host = one.indexOf('//');
      const path = host === -1 ? -1 : one.indexOf('/', host + 2);
      return path === -1 ? one : `${one.slice(0, path)}${hideTokens(one.slice(path))}`;
    })
    .join(', ');
}

/**
 * Two records' addresses of a judge name the same one: equal once each is read as a record writes
 * it now (a record from before tokens in a path were hidden is the same judge as a new one), or
 * unknown on either side (a record from before addresses were kept is not another judge for
 * lacking one).
 */
export function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || hideEndpointTokens(a) === hideEndpointTokens(b);
}
