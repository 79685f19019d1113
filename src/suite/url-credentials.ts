// The credentials an address may carry (docs/security.md, "Secrets"): in its user and password,
// secrets as written, decoded, and in the basic auth form a request sends them in; in its query and
// path, a key the server reads from there. An address that does not parse is read for them all
// the same, since its error quotes it as written.

import { looksLikeToken } from '../endpoint.js';
import { SECRET_KEY } from './secret-key.js';

/**
 * The credentials in a URL: its user and password (a token may be the user alone, as in
 * `https://TOKEN@host/`), as written, decoded, and as the basic auth header encodes them; a query
 * parameter's value when its name names a credential or the value looks like a token
 * (`?api_key=...`, `?code=...`, `?sig=...`), and a path segment that looks like a token
 * (`/hooks/AbCd...`), as written and decoded: an agent or a server that echoes the address it
 * was asked at quotes them.
 */
export function urlCredentialSecrets(url: string | null | undefined): string[] {
  if (url === null || url === undefined) return [];
  return [...new Set([...userinfoSecrets(url), ...queryAndPathSecrets(url)])];
}

function userinfoSecrets(url: string): string[] {
  const userinfo = userinfoOf(url);
  if (userinfo === null) return [];
  const colon = userinfo.indexOf(':');
  const username = colon === -1 ? userinfo : userinfo.slice(0, colon);
  const pass = colon === -1 ? '' : userinfo.slice(colon + 1);
  if (username === '' && pass === '') return [];
  const secret = pass !== '' ? [pass, decoded(pass)] : [username, decoded(username)];
  return [...secret, basicCredentials(username, pass)];
}

/** Query parameter names that carry a key besides the credential names of config.yml: Google's `key`, Azure Functions' `code`, a SAS `sig`. */
const QUERY_KEY = /^(?:key|code|sig)$/i;

/** The query's keys and the path's tokens, as written and decoded; from the text after the host when the address does not parse. */
function queryAndPathSecrets(url: string): string[] {
  const m = /^[a-z][a-z0-9+.-]*:\/*[^/?#]*([^?#]*)(?:\?([^#]*))?/i.exec(url.trim());
  if (m === null) return [];
  const out: string[] = [];
  for (const pair of (m[2] ?? '').split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const name = decoded(pair.slice(0, eq).replace(/\+/g, ' '));
    const value = pair.slice(eq + 1);
    // A `${NAME}` there is a secret once substituted (substituteEnv), not as the reference written.
    if (value !== '' && !value.includes('${') && (SECRET_KEY.test(name) || QUERY_KEY.test(name) || looksLikeToken(value))) out.push(value, decoded(value.replace(/\+/g, ' ')));
  }
  for (const segment of (m[1] ?? '').split('/')) if (looksLikeToken(segment)) out.push(segment, decoded(segment));
  return out;
}

/**
 * The basic auth credentials (base64 of `user:password`, each decoded) a request to `url` sends
 * for the user and password it carries (docs/configuration.md, "config.yml"); null when it carries
 * neither.
 */
export function basicAuthOf(url: URL): string | null {
  if (url.username === '' && url.password === '') return null;
  return basicCredentials(url.username, url.password);
}

function basicCredentials(user: string, password: string): string {
  return Buffer.from(`${decoded(user)}:${decoded(password)}`, 'utf8').toString('base64');
}

/** A percent-encoded part of a URL, decoded; as written when it is not valid percent-encoding. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The user and password part of an address, as written: from the parsed URL when it parses, else
 * what stands between `scheme://` and the last `@` before the path (`http://u:p@host:99999/`,
 * `http://u:p@ho st/` do not parse, and are quoted as written in their error).
 */
function userinfoOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return null;
    return parsed.password === '' ? parsed.username : `${parsed.username}:${parsed.password}`;
  } catch {
    const m = /^[a-z][a-z0-9+.-]*:\/*([^/?#]*)@/i.exec(url.trim());
    return m ? (m[1] as string) : null;
  }
}
