// Redirects are not followed by agent-replay's clients (undici's request API does not, and a turn's
// or a judge call's body and headers must go only to the address configured): an error says where
// a redirect points instead, so the fix is in the message (docs/presets.md, "Retries and timeouts").

/**
 * Where a redirect's Location points, resolved against the request's URL: its origin and path only
 * (a query may carry a sign-in page's state or a token), at most 200 characters; null when there
 * is no http(s) Location.
 */
export function redirectTarget(location: string | string[] | undefined, from: URL): string | null {
  const value = Array.isArray(location) ? location[0] : location;
  if (value === undefined || value.trim() === '') return null;
  let to: URL;
  try {
    to = new URL(value.trim(), from);
  } catch {
    return null;
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return null;
  const shown = `${to.origin}${to.pathname}`;
  return shown.length > 200 ? `${shown.slice(0, 199)}\u2026` : shown;
}
