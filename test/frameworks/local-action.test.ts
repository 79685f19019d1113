// The Action's check mode under GitHub's local action runner (@github/local-action): it imports
// src/main.ts and calls its exported run() with the inputs of a .env file, against a loopback
// agent; the test reads the outputs it sets and the results.json they name.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

let agent: Server;
let agentUrl: string;
let work: string;
const resultsDir = join(ROOT, '.tmp', `local-action-${process.pid}`);

beforeAll(async () => {
  agent = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const { message } = JSON.parse(body || '{}') as { message?: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ reply: message === 'refund?' ? 'Refunds take 5 days.' : 'Welcome to the shop!' }));
    });
  });
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
  agentUrl = `http://127.0.0.1:${(agent.address() as { port: number }).port}/chat`;
  work = await mkdtemp(join(tmpdir(), 'agent-replay-local-action-'));
});
afterAll(async () => {
  await new Promise((r) => agent.close(r));
  await rm(work, { recursive: true, force: true });
  await rm(resultsDir, { recursive: true, force: true });
});

function localAction(envFile: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = join(ROOT, 'test', 'frameworks', 'node_modules', '.bin', 'local-action');
  return new Promise((resolve) => {
    // cwd: the repository (local-action runs `npm exec tsx`, which the root's devDependencies provide).
    execFile(bin, ['run', ROOT, 'src/main.ts', envFile], { cwd: ROOT, env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` }, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `::set-output name=N::V` lines, as local-action's @actions/core stand-in prints them. */
function outputsOf(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^::set-output name=([^:]+)::(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('@github/local-action runs the exported run()', () => {
  it('check mode against a loopback agent: outputs set, results.json written, fail-on: failed fails the step', async () => {
    const suite = join(work, '.agent-replay');
    await mkdir(join(suite, 'fixtures'), { recursive: true });
    await writeFile(join(suite, 'config.yml'), `agent:\n  url: ${agentUrl}\ncost: { capUsd: 1 }\n`);
    await writeFile(join(suite, 'fixtures', 'greeting.yml'), 'label: greeting\nmessage: hello\nassert: { contains: Welcome }\n');
    await writeFile(join(suite, 'fixtures', 'refund.yml'), 'label: refund\nmessage: refund?\nassert: { contains: "30 days" }\n');
    await writeFile(join(work, 'event.json'), '{}');
    const envFile = join(work, '.env');
    await writeFile(
      envFile,
      [
        'INPUT_MODE=check',
        'INPUT_FAIL-ON=failed',
        `INPUT_DIR=${suite}`,
        `INPUT_RESULTS-PATH=${join(resultsDir, 'results.json')}`,
        'GITHUB_EVENT_NAME=push',
        `GITHUB_EVENT_PATH=${join(work, 'event.json')}`,
        'GITHUB_REPOSITORY=octo/shop',
        `GITHUB_SHA=${'f'.repeat(40)}`,
        'GITHUB_RUN_ID=1',
        '',
      ].join('\n'),
    );
    const run = await localAction(envFile);
    const outputs = outputsOf(run.stdout);
    expect(outputs, run.stdout + run.stderr).toMatchObject({ passed: '1', failed: '1', errored: '0', 'newly-failing': '0', gate: 'failed' });
    expect(run.stdout).toMatch(/^::error::agent-replay gate failed: 1 fixture failing \(refund\)$/m);
    const results = JSON.parse(await readFile(outputs['results-path']!, 'utf8')) as { fixtures: { label: string; verdict: string; reply: string }[] };
    expect(results.fixtures.map((f) => [f.label, f.verdict, f.reply]).sort()).toEqual([
      ['greeting', 'pass', 'Welcome to the shop!'],
      ['refund', 'fail', 'Refunds take 5 days.'],
    ]);
  });
});
