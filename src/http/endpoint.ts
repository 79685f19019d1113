// A URL as a record may keep it (docs/results-json.md): its scheme, host and path, without the
// credentials (`user:pass@`), query or fragment a URL may carry a secret in. Pure.

/** `https://host/path` of a URL (no credentials, query or fragment, no trailing `/`); null when it is not a URL. */
export function urlEndpoint(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}
