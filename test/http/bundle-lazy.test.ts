// What a start does not use is loaded on first use in the bundles (scripts/bundle.mjs, lazyModules;
// docs/performance.md, "2026-12-06 (morning): what an Action start loads"): undici's HTTP/2 client
// with node:http2, node:zlib for undici's fetch, `tunnel` for @actions/http-client; and node:http is
// required, never imported (under Node 24 an import of it loads Node's own undici). A small entry
// that imports those modules as the Action does is bundled with the bundles' options and run as a
// plain child process (not the Action): it reads process.moduleLoadList after a plain request, then
// asks for each part (a gzip body, an h2 server, a proxy for @actions/http-client) and shows it
// loaded and working. The Action's own start is checked in test/action/proxy.test.ts.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsUndici, BUNDLE_OPTIONS, lazyModules } from '../../scripts/bundle.mjs';
import { startProxy, TEST_CA_FILE, type ProxyServer } from '../support/proxy-server.js';
import { tempDir } from '../support/temp.js';

// Run in the child: one plain request, what is loaded then, then each part when it is needed. A
// `tunnel` evaluated at start would not see NODE_DEBUG, set after it: its debug lines say it was
// evaluated when the proxy's agent was made.
const PROBE = `
import fetchModule from 'undici/lib/web/fetch/index.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import { HttpClient } from '@actions/http-client';
import { STATUS_CODES } from 'node:http';
const [plainUrl, gzipUrl, h2Url, proxied, ca] = process.argv.slice(2);
const loaded = () => ({ http2: process.moduleLoadList.includes('NativeModule http2'), zlib: process.moduleLoadList.includes('NativeModule zlib') });
const out = { statusText: STATUS_CODES[200] };
out.plain = await (await fetchModule.fetch(plainUrl)).text();
out.atStart = loaded();
out.gzip = await (await fetchModule.fetch(gzipUrl)).text();
out.afterGzip = loaded();
const dispatcher = new Agent({ allowH2: true, connect: { ca, servername: 'agent.test' } });
out.h2 = await (await fetchModule.fetch(h2Url, { dispatcher })).text();
out.afterH2 = loaded();
await dispatcher.close();
process.env.NODE_DEBUG = 'tunnel';
const res = await new HttpClient('probe').get(proxied);
out.proxied = await res.readBody();
console.log(JSON.stringify(out));
`;

let dir: string;
let plain: Server;
let h2: Http2SecureServer;
let proxy: ProxyServer;
const portOf = (s: { address(): AddressInfo | string | null }): number => (s.address() as AddressInfo).port;

beforeAll(async () => {
  dir = await tempDir('agent-replay-lazy-');
  const built = build({
    ...BUNDLE_OPTIONS,
    stdin: { contents: PROBE, resolveDir: process.cwd(), sourcefile: 'probe.mjs', loader: 'js' },
    splitting: false,
    outfile: join(dir, 'probe.mjs'),
    target: 'node20',
    logLevel: 'error',
    plugins: [actionsUndici, lazyModules],
  });
  plain = createHttpServer((req, res) => {
    if (req.url === '/gzip') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('inflated'));
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`plain ${req.url}`);
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  h2 = createSecureServer({ cert: readFileSync(TEST_CA_FILE), key: readFileSync(TEST_CA_FILE.replace(/\.crt$/, '.key')) }, (req, res) => {
    res.end(`over HTTP/${req.httpVersion}`);
  });
  await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
  proxy = await startProxy({ hosts: { 'agent.test': portOf(plain) } });
  await built;
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => plain?.close(resolve));
  await new Promise((resolve) => h2?.close(resolve));
});

describe('the bundles load on first use what a start does not use', () => {
  it('neither node:http2 nor node:zlib after a plain request; zlib for a gzip body, http2 for an h2 server, tunnel for a proxy, each working', async () => {
    const base = `http://127.0.0.1:${portOf(plain)}`;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(dir, 'probe.mjs'), `${base}/plain`, `${base}/gzip`, `https://127.0.0.1:${portOf(h2)}/`, `http://agent.test:${portOf(plain)}/through`, readFileSync(TEST_CA_FILE, 'utf8')],
      { env: { PATH: process.env.PATH ?? '', HTTP_PROXY: proxy.url }, timeout: 20_000 },
    );
    expect(JSON.parse(stdout)).toEqual({
      statusText: 'OK',
      plain: 'plain /plain',
      atStart: { http2: false, zlib: false },
      gzip: 'inflated',
      afterGzip: { http2: false, zlib: true },
      h2: 'over HTTP/2.0',
      afterH2: { http2: true, zlib: true },
      proxied: 'plain /through',
    });
    // @actions/http-client's agent for the proxy is tunnel's, made (and tunnel evaluated) on this request.
    expect(stderr).toMatch(/^TUNNEL: making CONNECT request/m);
    expect(proxy.seen.map((s) => s.line)).toEqual([`CONNECT agent.test:${portOf(plain)}`]);
  });

  it("requires node:http where a module imports it (ours, @actions/http-client's): Node 24 loads its own undici for an import of it", async () => {
    const text = await readFile(join(dir, 'probe.mjs'), 'utf8');
    expect(text).toMatch(/\bhttp\.globalAgent\b/);
    expect(text.match(/\b(?:from|import)\s*"(?:node:)?http"/g)).toBeNull();
  });
});
