// The Action's check mode under GitHub's local action runner (@github/local-action): it imports
// src/main.ts and calls its exported run() with the inputs of a .env file, against a loopback
// agent; the test reads the outputs it sets and the results.json they name. The second test runs
// the dogfood workflow's Action step (.github/workflows/dogfood.yml) with the inputs that workflow
// gives, against the demo agent started as the workflow starts it, on a pull request of a fake
// GitHub: it checks the demo agent, writes its job summary and posts the comment.

import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endWithTest } from '../support/children.js';
import { startFakeGitHub } from '../support/github-server.js';
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

/**
 * local-action in `cwd`; it ends with the test (test/support/children.ts). It starts `npm exec tsx`
 * and the Action under it: it runs in its own process group, and the whole group is killed when the
 * test fails or times out while it runs, not its first process alone.
 */
function localAction(envFile: string, cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  const bin = join(ROOT, 'test', 'frameworks', 'node_modules', '.bin', 'local-action');
  return new Promise((resolve, reject) => {
    // cwd: the repository, or a workspace whose node_modules is the repository's (local-action runs
    // `npm exec tsx`, which the root's devDependencies provide).
    const child = spawn(bin, ['run', ROOT, 'src/main.ts', envFile], { cwd, detached: true, env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    endWithTest(child, { group: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
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

interface WorkflowStep {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
}

/** The dogfood workflow's name, its demo step's command and its Action step's `with:` inputs. */
async function dogfood(): Promise<{ name: string; demoRun: string; inputs: Record<string, string> }> {
  const workflow = parse(await readFile(join(ROOT, '.github', 'workflows', 'dogfood.yml'), 'utf8')) as { name: string; jobs: Record<string, { steps: WorkflowStep[] }> };
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
  const action = steps.find((s) => s.uses === './');
  const demo = steps.find((s) => s.id === 'demo');
  if (!action || !demo?.run) throw new Error('.github/workflows/dogfood.yml: no `uses: ./` step, or no step with id demo');
  return { name: workflow.name, demoRun: demo.run, inputs: Object.fromEntries(Object.entries(action.with ?? {}).map(([k, v]) => [k, String(v)])) };
}

/** `name=value` lines (the $GITHUB_OUTPUT format scripts/demo-agent.ts writes). */
function outputLines(text: string): Record<string, string> {
  return Object.fromEntries(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** The workflow's expressions, evaluated as the runner would: only the demo step's outputs are known here. */
function evaluate(value: string, demo: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    const m = /^steps\.demo\.outputs\.([\w-]+)$/.exec(expr);
    const v = m ? demo[m[1]!] : undefined;
    if (v === undefined) throw new Error(`dogfood.yml: this test cannot evaluate \${{ ${expr} }}: teach it, or keep the Action's inputs to the demo step's outputs`);
    return v;
  });
}

describe('the dogfood workflow\'s Action step under @github/local-action', () => {
  it('with the inputs dogfood.yml gives, checks the demo agent on a pull request: summary written, comment posted, outputs set', { timeout: 180_000 }, async () => {
    const { name, demoRun, inputs } = await dogfood();
    // 1. the demo agent, started by the command the workflow runs
    const started = /node --import tsx (scripts\/demo-agent\.ts) (\S+)/.exec(demoRun);
    expect(started, demoRun).not.toBeNull();
    const ws = await mkdtemp(join(tmpdir(), 'agent-replay-dogfood-'));
    const demoFile = join(ws, 'demo-agent.env');
    // it ends with the test (test/support/children.ts)
    const demoAgent = spawn(process.execPath, ['--import', 'tsx', join(ROOT, started![1]!), demoFile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    endWithTest(demoAgent);
    // it prints one line once the file is written
    await new Promise<void>((resolve, reject) => {
      demoAgent.stdout.once('data', () => resolve());
      demoAgent.once('exit', (code) => reject(new Error(`scripts/demo-agent.ts exited with ${code} before it listened`)));
    });
    const demoOutputs = outputLines(await readFile(demoFile, 'utf8'));
    expect(demoOutputs).toMatchObject({ 'agent-url': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/chat$/) });

    // 2. the checkout: the suite the inputs name, at the same relative path; the repository's node_modules for tsx
    const given = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, evaluate(v, demoOutputs)]));
    await cp(join(ROOT, given.dir!), join(ws, given.dir!), { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(ws, 'node_modules'), 'dir');

    // 3. a pull request on a fake GitHub, and the runner's environment
    const gh = await startFakeGitHub();
    const head = 'a'.repeat(40);
    gh.addPull('agent-replay', 'agent-replay', { number: 12, headSha: head });
    const event = { action: 'synchronize', number: 12, pull_request: { number: 12, head: { sha: head, ref: 'feature', repo: { full_name: 'agent-replay/agent-replay' } }, base: { ref: 'main', repo: { full_name: 'agent-replay/agent-replay' } }, labels: [] }, sender: { login: 'maintainer', type: 'User' } };
    await writeFile(join(ws, 'event.json'), JSON.stringify(event));
    const summary = join(ws, 'summary.md');
    await writeFile(summary, '');
    const envFile = join(ws, '.env');
    await writeFile(
      envFile,
      [
        ...Object.entries(given).map(([k, v]) => `INPUT_${k.toUpperCase()}=${v}`),
        // the default ${{ github.token }} of action.yml, as the runner evaluates it
        `INPUT_GITHUB-TOKEN=${gh.token}`,
        'GITHUB_EVENT_NAME=pull_request',
        `GITHUB_EVENT_PATH=${join(ws, 'event.json')}`,
        `GITHUB_STEP_SUMMARY=${summary}`,
        `GITHUB_API_URL=${gh.url}`,
        `GITHUB_GRAPHQL_URL=${gh.graphqlUrl}`,
        'GITHUB_REPOSITORY=agent-replay/agent-replay',
        `GITHUB_WORKFLOW=${name}`,
        `GITHUB_SHA=${head}`,
        'GITHUB_RUN_ID=1',
        'GITHUB_RUN_ATTEMPT=1',
        'AGENT_REPLAY_TEST_NO_DELAYS=1',
        '',
      ].join('\n'),
    );
    try {
      const run = await localAction(envFile, ws);
      const outputs = outputsOf(run.stdout);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(Number(outputs.passed), run.stdout).toBeGreaterThan(0);
      expect(outputs).toMatchObject({ gate: 'passed', 'comment-status': 'created' });
      // the demo agent answered: its replies are in the record
      // in the workspace, where action.yml's default results-path puts a suite outside .agent-replay:
      // in a folder named after the suite (docs/action.md, "Two suites in one repository")
      expect(outputs['results-path']).toBe(join(ws, 'agent-replay-results', 'examples-demo-.agent-replay', 'results.json'));
      const results = JSON.parse(await readFile(outputs['results-path']!, 'utf8')) as { fixtures: { label: string; reply: string | null }[] };
      expect(results.fixtures.length).toBeGreaterThan(0);
      expect(results.fixtures.filter((f) => typeof f.reply === 'string' && f.reply.length > 0).length).toBeGreaterThan(0);
      // the job summary and the one comment
      const written = await readFile(summary, 'utf8');
      expect(written).toContain(results.fixtures[0]!.label);
      const comments = gh.comments('agent-replay', 'agent-replay', 12);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain(results.fixtures[0]!.label);
      expect(gh.violations).toEqual([]);
    } finally {
      await gh.close();
      await rm(ws, { recursive: true, force: true });
    }
  });
});
