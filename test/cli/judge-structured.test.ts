// Structured output end to end (docs/configuration.md, "Structured output"): `run` against a real
// loopback agent and a real loopback OpenAI-compatible judge; the record and the surfaces say
// whether the judge used the schema mechanism or fell back to the plain prompt.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/types.js';
import { startServer, type Received, type TestServer } from '../judge/server.js';
import { agentConfig, byLabel, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';

useCleanup();

const judges: TestServer[] = [];
afterEach(async () => {
  while (judges.length > 0) await judges.pop()?.close();
});

const sentStructured = (r: Received): boolean => typeof r.body === 'object' && r.body !== null && 'response_format' in r.body;

/** A loopback OpenAI-compatible judge; `refuse`: a 400 naming response_format to any call that carries it. */
async function startJudge(refuse: boolean): Promise<TestServer> {
  const server = await startServer([
    (res, req) => {
      if (refuse && sentStructured(req)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", param: 'response_format' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: 'fine', score: 0.9 }) } }] }));
    },
  ]);
  judges.push(server);
  return server;
}

const FIXTURES = [
  'fixtures:',
  '  - { label: a, message: a, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: b, message: b, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '  - { label: c, message: c, assert: { judge: "The reply is polite", threshold: 0.5 } }',
  '',
].join('\n');

async function project(refuse: boolean): Promise<{ cwd: string; judge: TestServer }> {
  const agent = await serve(scriptedAgent({ a: 'hello', b: 'hi there', c: 'good day' }));
  const judge = await startJudge(refuse);
  // One conversation at a time: every judge call after the first refusal is sent plain.
  const config = `${agentConfig(agent.url, '  concurrency: 1\n')}judge: { provider: openai, baseUrl: "${judge.url}", model: m1, apiKey: k, retries: 0, backoffMs: 0, concurrency: 1 }\ncost: { capUsd: 5 }\n`;
  return { cwd: await makeProject({ config, fixtures: { 'f.yml': FIXTURES } }), judge };
}

async function run(cwd: string): Promise<{ record: RunRecord; stdout: string; stderr: string }> {
  const r = await cli(['run', '--out', 'r.json', '--commit', '1'.repeat(40), '--fail-on', 'none', '--markdown', 'c.md'], cwd);
  expect(r.code).toBe(0);
  return { record: await readResults(join(cwd, 'r.json')), stdout: r.stdout, stderr: r.stderr };
}

describe('judge structured output through the CLI', () => {
  it('every call carries the schema and the record says the judge used it; the surfaces say nothing more', async () => {
    const { cwd, judge } = await project(false);
    const { record, stdout } = await run(cwd);
    expect(judge.received.map(sentStructured)).toEqual([true, true, true]);
    expect(record.judge).toEqual({ name: 'openai m1', structured: true });
    expect([...byLabel(record).values()].map((f) => f.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(`${stdout}`).not.toContain('refused structured output');
    expect(await readFile(join(cwd, 'c.md'), 'utf8')).not.toContain('refused structured output');
  });

  it('a judge that refuses it gets one refused call, then plain calls; the verdicts come out and the record and surfaces say so', async () => {
    const { cwd, judge } = await project(true);
    const { record, stdout, stderr } = await run(cwd);
    expect(judge.received.map(sentStructured)).toEqual([true, false, false, false]);
    expect([...byLabel(record).values()].map((f) => [f.verdict, f.score])).toEqual([
      ['pass', 0.9],
      ['pass', 0.9],
      ['pass', 0.9],
    ]);
    // The refused call is not a failure and not counted as a judge call of its own.
    expect(record.tallies).toMatchObject({ passed: 3, notEvaluated: 0, errored: 0 });
    expect(record.spend).toMatchObject({ judgeCalls: 3 });
    expect(record.judge).toEqual({
      name: 'openai m1',
      structured: false,
      structuredFallback: "HTTP 400: Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
    });
    const reason = "HTTP 400: Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.";
    const line = `judge: the endpoint refused structured output (${reason}); the judge used the plain prompt for the rest of the run`;
    expect(`${stdout}${stderr}`.split('\n').filter((l) => l.includes('refused structured output'))).toHaveLength(1);
    expect(`${stdout}${stderr}`).toContain(line);
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    // The endpoint's words are untrusted text: a code span in markdown.
    expect(md.split('\n').filter((l) => l.includes('refused structured output'))).toEqual([line.replace(reason, `\`${reason}\``)]);
  });
});
