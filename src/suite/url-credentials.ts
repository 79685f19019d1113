// The credentials an address may carry in its user and password (docs/security.md, "Secrets"):
// secrets as written, decoded, and in the basic auth form a request sends them in. An address that
// does not parse is read for them all the same, since its error quotes it as written.

/**
 * The credentials in a URL's user and password (a token may be the user alone, as in
 * `https://TOKEN@host/`), as written, decoded, and as the basic auth header encodes them.
 */
export function urlCredentialSecrets(url: string | null | undefined): string[] {
  if (url === null || url === undefined) return [];
  const userinfo = userinfoOf(url);
  if (userinfo === null) return [];
  const colon = userinfo.indexOf(':');
  const username = colon === -1 ? userinfo : userinfo.slice(0, colon);
  const pass = colon === -1 ? '' : userinfo.slice(colon + 1);
  if (username === '' && pass === '') return [];
  const secret = pass !== '' ? [pass, decoded(pass)] : [username, decoded(username)];
  return [...new Set([...secret, basicCredentials(username, pass)])];
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
