// The agent-side example of honouring mocks (docs/personas.md, "The protocol additions") is real
// code: it is cut out of that page, given a tiny agent for its two declared functions, compiled
// (esbuild, as the bench does) and served on 127.0.0.1; a loopback client then checks the wire.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The TypeScript block of docs/personas.md that starts with the node:http import. */
async function docSnippet(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'personas.md'), 'utf8');
  const start = page.indexOf("```ts\nimport { createServer } from 'node:http';");
  if (start < 0) throw new Error('docs/personas.md has no ```ts block starting with the node:http import');
  return page.slice(start + '```ts\n'.length, page.indexOf('```', start + 5));
}

// Stands in for the user's agent: looks an order up through callTool, and records real calls.
const AGENT = `
const realCalls = [];
async function realTool(tool, input) { realCalls.push({ tool, input }); return { real: true }; }
async function runAgent(session, message, callTool) {
  const order = await callTool('find_order', { orderId: message, session });
  return { reply: 'order: ' + JSON.stringify(order), route: { conversation: 'refunds', stage: 'lookup' }, ended: false, outcome: null };
}
globalThis.__docAgent = { realCalls };
`;

let server: Server;
let url: string;
let dir: string;
beforeAll(async () => {
  const snippet = await docSnippet();
  expect(snippet).toContain('.listen(3000);');
  const esbuild = await import('esbuild');
  const code = (await esbuild.transform(snippet, { loader: 'ts', format: 'esm' })).code
    .replace('createServer(', 'globalThis.__docServer = createServer(')
    .replace(/\.listen\((?:3000|3e3)\)/, ".listen(0, '127.0.0.1')");
  // esbuild writes 3000 as 3e3: the port must be replaced whatever its spelling, or the test
  // listens on the documented port 3000 for real (and fails where something else has it).
  expect(code).toContain(".listen(0, '127.0.0.1')");
  dir = await mkdtemp(join(tmpdir(), 'agent-replay-doc-agent-'));
  const file = join(dir, 'agent.mjs');
  await writeFile(file, `${AGENT}\n${code}`);
  await import(pathToFileURL(file).href);
  server = (globalThis as unknown as { __docServer: Server }).__docServer;
  if (!server.listening) await new Promise((done) => server.once('listening', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

async function turn(body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe("docs/personas.md's agent example", () => {
  it('answers a tool from a subset mock and reports the call as mocked', async () => {
    const out = await turn({ session: 's', message: '1234', mocks: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } }] });
    expect(out).toMatchObject({ reply: 'order: {"status":"delivered"}', toolCalls: [{ tool: 'find_order', input: { orderId: '1234', session: 's' }, output: { status: 'delivered' }, mocked: true }], errors: [], outcome: null });
  });

  it('refuses an exact mock with fewer keys or another type, and reports unmocked_tool', async () => {
    const out = await turn({ session: 's', message: '1234', mocks: [{ tool: 'find_order', input: { orderId: '1234' }, match: 'exact', output: 1 }, { tool: 'find_order', input: { orderId: 1234 }, output: 2 }] });
    expect(out.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234', session: 's' }, output: null, mocked: false }]);
    expect(out.errors).toEqual([{ kind: 'unmocked_tool', tool: 'find_order', message: 'no mock answers find_order' }]);
  });

  it('calls the real tool only when no mocks are sent', async () => {
    const realCalls = (globalThis as unknown as { __docAgent: { realCalls: unknown[] } }).__docAgent.realCalls;
    const before = realCalls.length;
    await turn({ session: 's', message: '1', mocks: [] });
    expect(realCalls.length).toBe(before);
    const out = await turn({ session: 's', message: '1' });
    expect(realCalls.length).toBe(before + 1);
    expect(out).toMatchObject({ reply: 'order: {"real":true}', toolCalls: [], errors: [] });
  });
});
