// A protected preview (docs/troubleshooting.md, "The agent"): the host's access control answers in
// place of the agent, with a sign-in page (401, 403) or a redirect to one. Which one it is, read
// from the answer's headers and where it redirects, so that the error names the protection and its
// cause the header that lets automation through.

/** The protections named, as an error says them ("protected by ..."). */
export const VERCEL = "Vercel's Deployment Protection";
export const CLOUDFLARE_ACCESS = 'Cloudflare Access';
export const NETLIFY = "Netlify's password protection";
export const BASIC_AUTH = 'basic auth';

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(', ') : value ?? '').toLowerCase();
}

/**
 * The protection that answered, or null: a 401 or 403 web page from Vercel's or Netlify's edge, a
 * 401 asking for basic auth, or a redirect to Vercel's sign-in or to a Cloudflare Access team
 * domain. An agent's own 401 (JSON, a missing token) is not one.
 */
export function protectionOf(status: number, headers: Record<string, string | string[] | undefined>, redirect: string | null, html: boolean): string | null {
  if (redirect !== null) {
    const host = URL.canParse(redirect) ? new URL(redirect).hostname.toLowerCase() : '';
    if (host === 'cloudflareaccess.com' || host.endsWith('.cloudflareaccess.com')) return CLOUDFLARE_ACCESS;
    if (host === 'vercel.com' && new URL(redirect).pathname.startsWith('/sso')) return VERCEL;
    return null;
  }
  // A user and password asked for (nginx, Netlify's Basic-Auth, a proxy in front): page or not.
  if (status === 401 && /^\s*basic\b/.test(headerOf(headers, 'www-authenticate'))) return BASIC_AUTH;
  if ((status !== 401 && status !== 403) || !html) return null;
  const server = headerOf(headers, 'server');
  if (server.includes('vercel') || headerOf(headers, 'x-vercel-id') !== '') return VERCEL;
  if (status === 401 && (server.includes('netlify') || headerOf(headers, 'x-nf-request-id') !== '')) return NETLIFY;
  return null;
}
