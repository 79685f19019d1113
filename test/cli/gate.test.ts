// The default gate through the real CLI against real loopback servers: a broken preview (a closed
// port, a wrong path answering the host's HTML 404 page, an SPA host answering 200 text/html) is
// "Not verified" and exits 1, with one grouped cause and the setting to check; a clean run exits 0.

import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { serializeRecord } from '../../src/record/index.js';
import { fixture, run } from '../report/fixtures.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

useCleanup();

const FIXTURES = {
  'f.yml':
    'fixtures:\n' +
    ['refund', 'hours', 'shipping', 'returns', 'greeting'].map((l) => `  - { label: ${l}, message: "${l}?", assert: { contains: "echo" } }\n`).join(''),
};

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/api/chat`;
}

let request = 0;
/** A host's 404 page, different on every request (a request id), as real hosts send it. */
const notFoundPage = (): { status: number; headers: Record<string, string>; body: string } => ({
  status: 404,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>404: This page could not be found</title></head><body><h1>404</h1><p>request ${++request}</p></body></html>`,
});

/** What an SPA host answers for any path: its index.html, 200 text/html. */
const spaShell = (): { status: number; headers: Record<string, string>; body: string } => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Shop</title></head>\n<body><div id="root"></div><script src="/assets/index.js"></script></body>\n</html>\n',
});

async function runAgainst(url: string, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string; cwd: string }> {
  const cwd = await makeProject({ config: agentConfig(url), fixtures: FIXTURES });
  const r = await cli(['run', '--markdown', 'report.md', '--junit', 'junit.xml', ...extra], cwd);
  return { ...r, cwd };
}

describe('the default gate fails a broken preview as Not verified, with one cause and the setting to check', () => {
  it('a closed port', async () => {
    const url = await closedPort();
    const r = await runAgainst(url);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      'agent-replay: Not verified: 5 errored',
      `  cause: all 5: connection refused at ${url}: nothing listens there: check --agent-url (agent.url) and that the agent is running; set --wait-for-agent (agent.waitForAgent) if it starts slowly`,
    ]);
    expect(r.stderr).toContain(`gate failed: not verified: 5 errored (all 5: connection refused at ${url}: `);
    expect(r.stdout + r.stderr).not.toMatch(/\bfail(?:ed|ure|ing)? \d|newly failing/);
    const md = await readFile(join(r.cwd, 'report.md'), 'utf8');
    expect(md).toContain('### ⚪ Not verified: 5 errored\n**Cause**: all 5\\: connection refused at `');
    expect(await readFile(join(r.cwd, 'junit.xml'), 'utf8')).toContain('<property name="verified" value="false"/>');
    // The record names the endpoint the causes quote.
    expect((await readResults(join(r.cwd, '.agent-replay', 'results', 'results.json'))).agent.endpoint).toBe(url);
  });

  it('a wrong path answering the HTML 404 page: one cause, whatever the bodies', async () => {
    const host = await serve(() => notFoundPage());
    const url = host.url.replace(/\/chat$/, '/api/chat');
    const r = await runAgainst(url);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('agent-replay: Not verified: 5 errored');
    expect(lines[1]).toBe(`  cause: all 5: HTTP 404 from ${url}: check --agent-url (agent.url): the path is probably wrong`);
    // The five items are listed once, under their one cause.
    const errored = lines.slice(lines.indexOf('Errored (5): not a failure') + 1);
    expect(errored[0]).toBe(`  all 5: HTTP 404 from ${url}: check --agent-url (agent.url): the path is probably wrong`);
    expect(errored.filter((l) => /^ {4}! /.test(l))).toHaveLength(5);
    expect(r.stderr).toContain(`gate failed: not verified: 5 errored (all 5: HTTP 404 from ${url}: check --agent-url (agent.url)`);
  });

  it('a URL that redirects: the address it redirects to and the setting, as redirects are not followed; a sign-in page names the protection', async () => {
    const moved = await serve(() => ({ status: 308, headers: { location: '/api/chat?from=slash' }, body: 'Redirecting...' }));
    const url = moved.url.replace(/\/chat$/, '/api/chat/');
    const r = await runAgainst(url);
    expect(r.code).toBe(1);
    const to = `${new URL(url).origin}/api/chat`;
    expect(r.stdout.split('\n')[1]).toBe(`  cause: all 5: HTTP 308 from ${url} to ${to}: redirects are not followed (a message is never sent on to another address): set --agent-url (agent.url) to that address`);
    expect(r.stdout).toContain(`agent returned HTTP 308 after 1 attempt (redirects to ${to}): Redirecting...`);
    quotedAndSaid(r.stdout, 'agent returned HTTP 308 after <n> attempts (redirects to <address>): ...', { '<n> attempts': '1 attempt' });
    // Nothing was sent to the address redirected to: each fixture's one POST went to the URL given.
    expect(moved.requests.map((q) => q.path)).toEqual(Array(5).fill('/api/chat/'));
    const signIn = await serve(() => ({ status: 307, headers: { location: 'https://vercel.com/sso-api?url=https%3A%2F%2Fpreview&nonce=abc123' } }));
    const s = await runAgainst(signIn.url);
    expect(s.stdout.split('\n')[1]).toBe(
      `  cause: all 5: HTTP 307 from ${signIn.url} to a sign-in page of Vercel's Deployment Protection (https://vercel.com/sso-api): the preview is protected: set x-vercel-protection-bypass in agent.headers in config.yml to the secret of its Protection Bypass for Automation`,
    );
    // The query (a nonce, the page's state) is not repeated anywhere.
    expect(s.stdout + s.stderr).not.toContain('abc123');
  });

  it('an SPA host answering 200 text/html', async () => {
    const host = await serve(() => spaShell());
    const r = await runAgainst(host.url);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[1]).toBe(
      `  cause: all 5: an HTML page instead of JSON from ${host.url}: the URL serves a web page (a site or an SPA), not the agent: check --agent-url (agent.url)`,
    );
  });

  it('a judge that is not configured and a regex that does not compile: not evaluated, Not verified, exit 1, each cause named', async () => {
    const agent = await serve();
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: {
        'f.yml':
          'fixtures:\n' +
          '  - { label: polite, message: hi, assert: { judge: "The reply is polite." } }\n' +
          '  - { label: kind, message: hello, assert: { judge: "The reply is kind." } }\n' +
          '  - { label: broken-pattern, message: hey, assert: { regex: "(unclosed" } }\n',
      },
    });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('agent-replay: Not verified: 3 new');
    expect(lines[1]).toBe('  cause: 2 of 3: no judge configured: add a judge section to config.yml (judge assertions and criteria need one) (and 1 other cause)');
    expect(r.stderr).toContain('gate failed: not verified: 3 not evaluated (2 of 3: no judge configured: ');
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    expect(record.fixtures.map((f) => [f.label, f.verdict])).toEqual([
      ['polite', 'not_evaluated'],
      ['kind', 'not_evaluated'],
      ['broken-pattern', 'not_evaluated'],
    ]);
  });

  it('--fail-on newly_failing is the lenient gate: the same run exits 0, still headed Not verified', async () => {
    const r = await runAgainst(await closedPort(), ['--fail-on', 'newly_failing']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('agent-replay: Not verified: 5 errored');
  });

  it("the terminal shows what the agent said, clipped, naming the record that holds the rest", async () => {
    const reply = Array.from({ length: 9 }, (_, i) => `Line ${i + 1}: we open at 10:00.`).join('\n');
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      return { json: { reply: body.start === true ? 'Welcome' : reply, route: { conversation: 'hours', stage: 'answer' } } };
    });
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: hours\nmessage: When do you open?\nassert: { contains: "9:00" }\n' } });
    const r = await cli(['run', '--out', 'out/r.json'], cwd);
    expect(r.code).toBe(0); // a new fixture that fails is not a regression
    expect(r.stdout).toContain(
      '  + hours · fail · no baseline · .agent-replay/fixtures/f.yml:1\n' +
        '      reply does not contain "9:00"\n' +
        '      reply:\n' +
        '        Line 1: we open at 10:00.\n' +
        '        Line 2: we open at 10:00.\n' +
        '        Line 3: we open at 10:00.\n' +
        '        Line 4: we open at 10:00.\n' +
        '        ... 5 more lines (full text in out/r.json)\n',
    );
  });

  it('a clean run passes the default gate: exit 0, verified', async () => {
    const agent = await serve();
    const r = await runAgainst(agent.url);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('agent-replay: No new failures: 5 new');
    expect(r.stderr).not.toContain('gate failed');
    expect(await readFile(join(r.cwd, 'junit.xml'), 'utf8')).toContain('<property name="verified" value="true"/>');
  });
});

describe('items under one cause: the shared error text is said once, each item only adds what differs', () => {
  const six = {
    'f.yml': 'fixtures:\n' + ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `  - { label: item-${l}, message: "${l}?", assert: { contains: "echo" } }\n`).join(''),
  };
  const count = (text: string, word: string): number => text.split(word).length - 1;

  it('6 fixtures against a closed port: ECONNREFUSED once in the terminal and once in the comment, every item listed', async () => {
    const url = await closedPort();
    const cwd = await makeProject({ config: agentConfig(url), fixtures: six });
    const r = await cli(['run', '--markdown', 'report.md', '--confirm-cost'], cwd);
    expect(r.code).toBe(1);
    const md = await readFile(join(cwd, 'report.md'), 'utf8');
    expect(count(r.stdout, 'ECONNREFUSED')).toBe(1);
    expect(count(md, 'ECONNREFUSED')).toBe(1);
    expect(r.stdout).toContain(
      `\n    each: welcome turn: could not reach the agent after 1 attempt: connection refused at ${new URL(url).host} (ECONNREFUSED); nothing listens there: check --agent-url (agent.url) and that the agent is running\n`,
    );
    for (const l of ['a', 'b', 'c', 'd', 'e', 'f']) {
      expect(r.stdout).toMatch(new RegExp(`\\n {4}! item-${l} · errored · no reply · [^\\n]*f\\.yml:\\d+\\n`));
      expect(count(md, `<b>item-${l}</b>`)).toBe(1);
    }
  });

  it('30 fixtures answered HTTP 503: the status is named by the headline, the group and its shared text, not once per item', async () => {
    const labels = Array.from({ length: 30 }, (_, i) => `case-${i}`);
    const fixtures = { 'f.yml': 'fixtures:\n' + labels.map((l) => `  - { label: ${l}, message: "${l}?", assert: { contains: "echo" } }\n`).join('') };
    const host = await serve(() => ({ status: 503, json: { error: 'upstream unavailable' } }));
    const cwd = await makeProject({ config: agentConfig(host.url), fixtures });
    const r = await cli(['run', '--markdown', 'report.md', '--confirm-cost'], cwd);
    expect(r.code).toBe(1);
    expect(count(r.stdout, 'HTTP 503')).toBe(3);
    const md = await readFile(join(cwd, 'report.md'), 'utf8');
    expect(count(md, 'upstream unavailable')).toBe(1);
    for (const l of labels) expect(r.stdout).toContain(`! ${l} · errored`);
  });
});


describe('the gate reason on stderr', () => {
  it('carries no terminal control sequence or bidi override from a recorded error (a record from an artifact)', async () => {
    const cwd = await makeProject({});
    const error = 'agent said \u001b[31mred\u001b]8;;http://evil.example\u0007link\u009b31m \u202Eevil';
    const record = run([fixture('x', { reply: null, route: null, verdict: null, errored: true, error, errorKind: 'agent_error', detail: error, drift: null })]);
    await writeFile(join(cwd, 'r.json'), serializeRecord(record));
    const r = await cli(['report', '--results', 'r.json'], cwd);
    expect(r.code).toBe(1);
    const line = r.stderr.split('\n').find((l) => l.startsWith('gate failed: ')) ?? '';
    expect(line).toContain('agent said');
    // eslint-disable-next-line no-control-regex
    expect(line).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E]/);
  });
});

describe('report says what it wrote', () => {
  it('names each file it wrote, as run does, and nothing when it wrote none', async () => {
    const cwd = await makeProject({});
    await writeFile(join(cwd, 'r.json'), serializeRecord(run([fixture('x')])));
    const r = await cli(['report', '--results', 'r.json', '--out', 'merged.json', '--markdown', 'c.md', '--html', 'r.html'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\nresults: ${join(cwd, 'merged.json')}\nmarkdown: ${join(cwd, 'c.md')}\nhtml: ${join(cwd, 'r.html')}\n`);
    const bare = await cli(['report', '--results', 'r.json'], cwd);
    expect(bare.stdout).not.toMatch(/^(results|markdown|html): /m);
  });
});
