// Secrets walked end to end (docs/security.md, "Secrets"): one in-process run against a loopback
// agent that echoes what it was sent in every way it can, and every output the run writes or prints
// (results.json, the markdown report, JUnit, report.html, the PR comment, the job summary, the
// terminal) read for each secret.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, makeProject, serve, useCleanup, type CliRun } from '../cli/helpers.js';
import { DEFAULT_CONTEXT, renderComment, renderSummary } from '../../src/report/index.js';
import type { RunRecord } from '../../src/types.js';
import type { AgentReply } from '../support/agent-server.js';

useCleanup();

const KEY = 'sk-agent-7Hq2Lm9Px4Rt';
/** Written into config.yml, in the agent URL's query and path: no `${NAME}`. */
const QUERY_KEY = 'qk-literal-8Jd3Fs2Wq';
const PATH_TOKEN = 'AbCdEf0123456789XyZw';

const MESSAGES = ['sse', 'split', 'redirect', 'query', 'query-error', 'basic', 'usage'] as const;

let outputs: Record<string, string>;
let fixtures: Map<string, RunRecord['fixtures'][number]>;

describe('secrets walked end to end', () => {
  beforeAll(async () => {
    const agent = await serve((req): AgentReply => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' } } };
      const auth = String(req.headers.authorization);
      const key = auth.replace(/^Bearer /, '');
      const reply = (text: string, more: Record<string, unknown> = {}): AgentReply => ({ json: { reply: text, route: { conversation: 'c', stage: 's' }, ...more } });
      const stream = (text: string): AgentReply => ({ headers: { 'content-type': 'text/event-stream' }, body: text });
      switch (body.message) {
        case 'sse':
          return stream(`data: ${JSON.stringify({ choices: [{ delta: { content: `you sent ${auth}` } }] })}\n\ndata: [DONE]\n\n`);
        case 'split':
          return stream(`data: part ${key.slice(0, 9)}\n\ndata: ${key.slice(9)} end\n\n`);
        case 'redirect':
          return { status: 302, headers: { location: `http://127.0.0.1:1/login/${key}?token=${key}` }, body: '' };
        case 'query':
          return reply(`you asked ${req.path}`);
        case 'query-error':
          return { status: 500, headers: { 'content-type': 'text/plain' }, body: `no route for ${req.path}` };
        case 'basic':
          return reply(`upstream sent Authorization: Basic ${Buffer.from(`shop:${key}`).toString('base64')}`);
        case 'usage':
          return reply('ok', { usage: { [key]: 1 } });
        default:
          return reply('?');
      }
    });
    const url = `${agent.url.replace(/\/chat$/, '')}/hooks/${PATH_TOKEN}/chat?api_key=${QUERY_KEY}`;
    const cwd = await makeProject({
      config: `agent:\n  url: ${url}\n  retries: 0\n  backoffMs: 0\n  headers: { Authorization: "Bearer \${AGENT_KEY}" }\n`,
      fixtures: { 'f.yml': `fixtures:\n${MESSAGES.map((m) => `  - { label: ${m}, message: ${m} }`).join('\n')}\n` },
    });
    const r: CliRun = await cli(['run', '--markdown', 'report.md', '--junit', 'junit.xml', '--html', 'report.html', '--fail-on', 'none', '--confirm-cost'], cwd, { AGENT_KEY: KEY });
    expect(r.code, r.stderr).toBe(0);
    // The key reached the agent, at the address as written (so every echo is real).
    expect(agent.requests.every((q) => q.headers.authorization === `Bearer ${KEY}` && q.path === `/hooks/${PATH_TOKEN}/chat?api_key=${QUERY_KEY}`)).toBe(true);
    const results = await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8');
    const record = JSON.parse(results) as RunRecord;
    fixtures = new Map(record.fixtures.map((f) => [f.label, f]));
    outputs = {
      results,
      markdown: await readFile(join(cwd, 'report.md'), 'utf8'),
      junit: await readFile(join(cwd, 'junit.xml'), 'utf8'),
      html: await readFile(join(cwd, 'report.html'), 'utf8'),
      comment: renderComment(record, DEFAULT_CONTEXT),
      summary: renderSummary(record, DEFAULT_CONTEXT),
      stdout: r.stdout,
      stderr: r.stderr,
    };
  });

  const nowhere = (text: string): void => {
    for (const [name, out] of Object.entries(outputs)) expect(out, name).not.toContain(text);
  };

  it('a key echoed in a stream, whole or split across two events, and in a redirect', () => {
    expect(fixtures.get('sse')?.reply).toBe('you sent Bearer ***');
    expect(fixtures.get('split')?.reply).toBe('part *** end');
    expect(fixtures.get('redirect')?.error).toContain('(redirects to http://127.0.0.1:1/login/***)');
    nowhere(KEY);
    nowhere(KEY.slice(0, 9));
  });

  it('a key written in the agent URL\'s query or path, echoed with the address the agent was asked at', () => {
    expect(fixtures.get('query')?.reply).toBe('you asked /hooks/***/chat?api_key=***');
    expect(fixtures.get('query-error')?.error).toContain('no route for /hooks/***/chat?api_key=***');
    nowhere(QUERY_KEY);
    nowhere(PATH_TOKEN);
  });

  it('a key echoed inside base64 (basic auth of user:key)', () => {
    expect(fixtures.get('basic')?.reply).toMatch(/^upstream sent Authorization: Basic c2hvcDp\*\*\*\w{0,2}=*$/);
    nowhere(Buffer.from(KEY).toString('base64').slice(4, -4));
    nowhere(Buffer.from(`shop:${KEY}`).toString('base64').slice(8, -4));
  });

  it('a warning that quotes the agent\'s answer (the keys of its usage)', () => {
    expect(outputs.stderr).toContain('(found an object with ***)');
    nowhere(KEY);
  });
});

describe('secrets walked end to end: a trace store', () => {
  it('a token in the store\'s address is in neither the run\'s log line nor the record', async () => {
    const agent = await serve((req): AgentReply => ((req.json as { start?: boolean } | undefined)?.start === true ? { json: { reply: 'Welcome!' } } : { json: { reply: 'ok' } }));
    const store = await serve((): AgentReply => ({ status: 404, body: '' }));
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 0\ntraces:\n  query: { kind: tempo, url: "${store.url.replace(/\/chat$/, '')}/t/${PATH_TOKEN}" }\n  waitMs: 0\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: hi, assert: { toolCalled: { tool: x } } }\n' },
    });
    const r = await cli(['run', '--fail-on', 'none'], cwd);
    const results = await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8');
    expect(r.stderr).toContain('traces: reading spans from tempo at http://127.0.0.1:');
    for (const [name, out] of Object.entries({ results, stdout: r.stdout, stderr: r.stderr })) expect(out, name).not.toContain(PATH_TOKEN);
  });
});
