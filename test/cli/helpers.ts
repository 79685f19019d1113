// Shared helpers for the CLI tests: a temp project holding a `.agent-replay` suite, an in-process
// `main(argv, io)` with captured output, and loopback agents that are closed after each test.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { main, type CliIO } from '../../src/cli/main.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { runRecordSchema } from '../../src/record/schema.js';
import type { Baseline, RunRecord } from '../../src/types.js';
import { startAgentServer, type AgentHandler, type AgentServer } from '../support/agent-server.js';
import { endWithTest } from '../support/children.js';

const cleanups: (() => Promise<void>)[] = [];

/** Registers the after-each cleanup; call once at the top of a test file. */
export function useCleanup(): void {
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()?.();
  });
}

export async function serve(handler?: AgentHandler): Promise<AgentServer> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  return server;
}

export interface SuiteSpec {
  /** Text of `.agent-replay/config.yml`; omitted: no config file. */
  config?: string;
  /** File name under fixtures/ -> YAML text. */
  fixtures?: Record<string, string>;
  /** File name under personas/ -> YAML text. */
  personas?: Record<string, string>;
  baselines?: Baseline[];
}

/** A fresh temp directory (removed after the test) holding `.agent-replay/` as described. */
export async function makeProject(spec: SuiteSpec): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-cli-'));
  cleanups.push(() => rm(cwd, { recursive: true, force: true }));
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  if (spec.config !== undefined) await writeFile(join(dir, 'config.yml'), spec.config);
  for (const [name, text] of Object.entries(spec.fixtures ?? {})) await writeFile(join(dir, 'fixtures', name), text);
  if (spec.personas) await mkdir(join(dir, 'personas'), { recursive: true });
  for (const [name, text] of Object.entries(spec.personas ?? {})) await writeFile(join(dir, 'personas', name), text);
  if (spec.baselines && spec.baselines.length > 0) {
    await mkdir(join(dir, 'baselines'), { recursive: true });
    for (const b of spec.baselines) await writeFile(join(dir, 'baselines', `${b.label}.json`), serializeBaseline(b));
  }
  return cwd;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(argv: string[], cwd: string, env: Record<string, string | undefined> = {}, extra: Partial<CliIO> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    color: false,
    env,
    cwd,
    now: () => new Date('2026-12-01T12:00:00.000Z'),
    ...extra,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/**
 * The bundled CLI (`cli`: test/support/entry-bundles.ts's, from `inject('cliBundle')`) in a child
 * process, in `cwd`, with `env` as its whole environment; its exit status and output. The child
 * ends with the test that started it (test/support/children.ts): a test that fails or times out
 * while it runs (an agent that never answers) leaves no process behind.
 */
export function spawnCli(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    endWithTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Reads and validates a results.json against the record schema. */
export async function readResults(path: string): Promise<RunRecord> {
  const data: unknown = JSON.parse(await readFile(path, 'utf8'));
  return runRecordSchema.parse(data);
}

export function byLabel(record: RunRecord): Map<string, RunRecord['fixtures'][number]> {
  return new Map(record.fixtures.map((f) => [f.label, f]));
}

/** Every file under `root`, relative, sorted. */
export async function listTree(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(join(dir, e.name), r);
      else out.push(r);
    }
  };
  await walk(root, '');
  return out.sort();
}

export function baseline(label: string, reply: string, route: Baseline['route'], verdict: Baseline['verdict']): Baseline {
  return { label, reply, route, verdict, acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40) };
}

/** Config for a loopback agent: no retries wait, a config header optional. */
export function agentConfig(url: string, extra = ''): string {
  return `agent:\n  url: ${url}\n  retries: 0\n  backoffMs: 0\n${extra}`;
}

/**
 * The native protocol, welcome turn answered, message turns answered by `answers`
 * (message -> reply text, route {conversation: 'c', stage: message}); other messages echo.
 */
export function scriptedAgent(answers: Record<string, string | { status: number }>): AgentHandler {
  return (req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
    const message = String(body.message);
    const answer = answers[message];
    if (answer !== undefined && typeof answer !== 'string') return { status: answer.status, json: { error: 'agent broke' } };
    return { json: { reply: answer ?? `echo: ${message}`, route: { conversation: 'c', stage: message }, offTrack: [], ended: false } };
  };
}
