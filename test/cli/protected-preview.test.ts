// A preview whose host answers in the agent's place, through the real CLI against real loopback
// servers (docs/troubleshooting.md, "The agent"): a protection's sign-in page (Vercel's 401, Netlify's
// 401, a redirect to Cloudflare Access, any 401/403 web page) is named as a protected preview with
// the header that lets automation through, and a certificate Node refuses is named with its fix
// (NODE_EXTRA_CA_CERTS for a private CA), tried once, never "turn verification off".

import { describe, expect, it } from 'vitest';
import { cli, makeProject, serve, useCleanup } from './helpers.js';
import { startProxy, tlsFront } from '../support/proxy-server.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

const FIXTURES = { 'f.yml': 'fixtures:\n  - { label: refund, message: "refund?", assert: { contains: "echo" } }\n  - { label: hours, message: "hours?", assert: { contains: "echo" } }\n' };

/** Retries on, as a real suite has them: what is not retried shows as one attempt. */
async function runAgainst(url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = await makeProject({ config: `agent:\n  url: ${url}\n  retries: 2\n  backoffMs: 0\n`, fixtures: FIXTURES });
  return cli(['run', '--markdown', 'report.md'], cwd);
}

const page = (title: string): string => `<!doctype html><html><head><title>${title}</title></head><body><p>${title}</p></body></html>`;

describe('a protected preview is named as one, with the header that lets automation through', () => {
  it("Vercel's Deployment Protection (401, its sign-in page): x-vercel-protection-bypass and the Protection Bypass for Automation", async () => {
    const host = await serve(() => ({ status: 401, headers: { 'content-type': 'text/html; charset=utf-8', server: 'Vercel', 'x-vercel-id': 'fra1::abc' }, body: page('Authentication Required') }));
    const r = await runAgainst(host.url);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: HTTP 401 from ${host.url} (Vercel's Deployment Protection): the preview is protected: set x-vercel-protection-bypass in agent.headers in config.yml to the secret of its Protection Bypass for Automation`,
    );
    expect(r.stdout).toContain('agent returned HTTP 401 after 1 attempt (protected by Vercel\'s Deployment Protection): an HTML page titled "Authentication Required"');
    expect(r.stdout).not.toMatch(/not (?:valid )?JSON/);
  });

  it('a redirect to a Cloudflare Access sign-in: its service token headers; nothing is sent there', async () => {
    const host = await serve(() => ({ status: 302, headers: { location: 'https://myteam.cloudflareaccess.com/cdn-cgi/access/login/preview.example.com?kid=abc123' } }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: HTTP 302 from ${host.url} to a sign-in page of Cloudflare Access (https://myteam.cloudflareaccess.com/cdn-cgi/access/login/preview.example.com): the preview is protected: give a service token of Cloudflare Access in agent.headers in config.yml, as CF-Access-Client-Id and CF-Access-Client-Secret`,
    );
    expect(r.stdout + r.stderr).not.toContain('abc123');
    expect(host.requests.map((q) => q.method)).toEqual(['POST', 'POST']);
  });

  it("Netlify's password page (401): its credentials, or Deploy Previews left open", async () => {
    const host = await serve(() => ({ status: 401, headers: { 'content-type': 'text/html', server: 'Netlify', 'x-nf-request-id': '01J' }, body: page('Password Protected Site') }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: HTTP 401 from ${host.url} (Netlify's password protection): the preview is protected: leave Deploy Previews unprotected, or protect them with Basic-Auth and give its user and password in --agent-url (agent.url) as https://user:password@host/...`,
    );
  });

  it('a 401 asking for basic auth (nginx, a Basic-Auth rule): the user and password in the URL', async () => {
    const host = await serve(() => ({ status: 401, headers: { 'content-type': 'text/html', 'www-authenticate': 'Basic realm="preview"' }, body: page('401 Authorization Required') }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: HTTP 401 from ${host.url} (basic auth): the preview asks for a user and password: give them in --agent-url (agent.url) as https://user:password@host/... (sent as basic auth), or an Authorization header in agent.headers in config.yml`,
    );
  });

  it('any other 403 web page: a page in place of the agent, and the headers that let automation through', async () => {
    const host = await serve(() => ({ status: 403, headers: { 'content-type': 'text/html' }, body: page('Forbidden') }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: HTTP 403 from ${host.url}, a web page in place of the agent: the preview is protected: give the header that lets automation through in agent.headers in config.yml, e.g. Vercel's x-vercel-protection-bypass, Cloudflare Access's CF-Access-Client-Id and CF-Access-Client-Secret`,
    );
  });

  it("the agent's own 401 (JSON, a missing key) is not a protected preview", async () => {
    const host = await serve(() => ({ status: 401, headers: { server: 'Vercel' }, json: { error: 'missing api key' } }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(`  cause: all 2: HTTP 401 from ${host.url}: the agent refused the request: check the key or token it expects in agent.headers in config.yml`);
  });
});

describe('an answer over the size limit', () => {
  it('says the limit and that it is fixed, and where to look', async () => {
    const host = await serve(() => ({ headers: { 'content-type': 'application/json' }, body: `{"reply":"${'x'.repeat(9 * 1024 * 1024)}"}` }));
    const r = await runAgainst(host.url);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: a response too large from ${host.url}: an answer is read up to 8 MiB, a fixed limit: if the URL serves a file, not the agent, check --agent-url (agent.url); else see what makes the agent answer that much (a stream that never ends)`,
    );
    expect(r.stdout).toContain('agent response is larger than 8 MiB, the most agent-replay reads of one answer (a fixed limit, not a setting)');
  });
});

describe('a certificate Node refuses', () => {
  it('self-signed: named with NODE_EXTRA_CA_CERTS, tried once, verification never advised off', async () => {
    const agent = await serve();
    const tls = await tlsFront(Number(new URL(agent.url).port));
    try {
      const url = `https://127.0.0.1:${tls.port}/chat`;
      const r = await runAgainst(url);
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n')[1]).toBe(
        `  cause: all 2: the TLS certificate of ${url} is refused: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT): point NODE_EXTRA_CA_CERTS at that CA's certificate (a PEM file) in the environment agent-replay runs in`,
      );
      expect(r.stdout).toContain("the agent's TLS certificate is refused, after 1 attempt: ");
      quotedAndSaid(r.stdout, "the agent's TLS certificate is refused, after 1 attempt: self-signed, or signed by a CA Node does not trust (DEPTH_ZERO_SELF_SIGNED_CERT); ...");
      expect(r.stdout + r.stderr).not.toMatch(/NODE_TLS_REJECT_UNAUTHORIZED|rejectUnauthorized|insecure/i);
      expect(agent.requests).toEqual([]);
    } finally {
      await tls.close();
    }
  });
});

describe('an https:// URL to a server that speaks plain HTTP (https://localhost:3000 for a dev server)', () => {
  it('is named as such with the http:// URL to use, tried once: not "could not reach" nor "is the agent running?"', async () => {
    const agent = await serve();
    const url = `${agent.url.replace(/^http:/, 'https:')}/chat`;
    const r = await runAgainst(url);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 2: ${url} answered without TLS (ERR_SSL_WRONG_VERSION_NUMBER): the server speaks plain HTTP there, not HTTPS: write the URL with http:// in --agent-url (agent.url): ${agent.url}/chat`,
    );
    expect(r.stdout).toContain('the agent answered without TLS, after 1 attempt (ERR_SSL_WRONG_VERSION_NUMBER)');
    quotedAndSaid(r.stdout, 'the agent answered without TLS, after 1 attempt (ERR_SSL_WRONG_VERSION_NUMBER); the server speaks plain HTTP at that address, not HTTPS: write the URL with http://');
    expect(r.stdout).not.toContain('SSL routines');
    expect(r.stdout).not.toContain('agent is running');
  });
});

describe('a proxy that refuses the credentials (407)', () => {
  it('is asked once per turn, not retried, and the cause says the credentials given may be the wrong ones', async () => {
    const agent = await serve();
    const proxy = await startProxy({ hosts: { 'agent.test': Number(new URL(agent.url).port) }, requireAuth: `Basic ${Buffer.from('ci:right').toString('base64')}` });
    try {
      const cwd = await makeProject({ config: 'agent:\n  url: https://agent.test/chat\n  retries: 2\n  backoffMs: 0\n  start: false\n', fixtures: { 'f.yml': 'fixtures:\n  - { label: refund, message: "refund?" }\n' } });
      const r = await cli(['run'], cwd, { HTTPS_PROXY: `http://ci:wr0ng@127.0.0.1:${new URL(proxy.url).port}` });
      expect(proxy.seen).toHaveLength(1);
      expect(r.stdout.split('\n')[1]).toBe(
        '  cause: the proxy refused to connect to https://agent.test/chat (HTTP 407): the proxy wants credentials, or refused those given: check the user and password in HTTPS_PROXY (http://user:password@host:port)',
      );
      expect(r.stdout + r.stderr).not.toContain('wr0ng');
    } finally {
      await proxy.close();
    }
  });
});
