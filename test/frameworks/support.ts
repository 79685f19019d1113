// Shared by the real-framework tests: a suite folder in a temp project, the real CLI run as a child
// process (`node --import tsx src/cli.ts ...`, as a user runs it), results.json read back, and a
// small node:http JSON helper for routes. Each CLI child ends with the test that started it
// (test/support/children.ts): a run that hangs (a receiver that never hears its spans, an agent
// that never answers) is killed when its test times out, not left running past the file.

import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endChildren, endWithTest } from '../support/children.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');

export interface Suite {
  config: string;
  fixtures?: Record<string, string>;
  personas?: Record<string, string>;
}

const temps: string[] = [];

/** A temp project holding `.agent-replay/` (config.yml, fixtures/, personas/). */
export async function makeProject(suite: Suite): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-fw-'));
  temps.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await mkdir(join(dir, 'personas'), { recursive: true });
  await writeFile(join(dir, 'config.yml'), suite.config);
  for (const [name, text] of Object.entries(suite.fixtures ?? {})) await writeFile(join(dir, 'fixtures', name), text);
  for (const [name, text] of Object.entries(suite.personas ?? {})) await writeFile(join(dir, 'personas', name), text);
  return cwd;
}

/** Ends the CLI children a hook started (initConfig in a beforeAll), then removes the projects; each file's afterAll. */
export async function removeProjects(): Promise<void> {
  await endChildren();
  for (const t of temps.splice(0)) await rm(t, { recursive: true, force: true });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI in `cwd`; it ends with the test (or, started in a hook, with the file's removeProjects). */
export function cli(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', TSX, join(ROOT, 'src', 'cli.ts'), ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    endWithTest(child);
  });
}

/**
 * config.yml for a traces test: the agent at `url`, one turn at a time, no retry, and agent-replay's
 * own receiver on a free port (`traces.receive.port: 0`), its URL said in the run's log line.
 */
export function receiverConfig(url: string): string {
  return `agent:\n  url: ${url}\n  concurrency: 1\n  retries: 0\n  backoffMs: 0\ntraces:\n  receive: { port: 0 }\n  waitMs: 5000\n`;
}

/** The run's log line that gives the receiver's URL (docs/traces.md). */
const RECEIVER_LINE = /^traces: receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+) \(set OTEL_EXPORTER_OTLP_ENDPOINT to it\)$/;

/**
 * `run` in a child process, as `cli` does, with `onReceiver` given the trace receiver's URL from
 * the run's log line as it comes (the test's route sends its spans there while the run goes on).
 */
export function runStreaming(cwd: string, onReceiver: (url: string) => void): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src', 'cli.ts'), 'run', '--out', 'results.json', '--fail-on', 'none', '--confirm-cost'], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    endWithTest(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString();
      stderr += text;
      for (const line of text.split('\n')) {
        const url = RECEIVER_LINE.exec(line)?.[1];
        if (url !== undefined) onReceiver(url);
      }
    });
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export interface ToolCallRecord {
  tool: string;
  input: unknown;
  output: unknown;
  mocked: boolean;
}
export interface TurnRecord {
  index: number;
  message: string | null;
  reply: string | null;
  toolCalls: ToolCallRecord[] | null;
  usage?: TokenCounts | null;
}
/** Tokens reported, as results.json keeps them (docs/latency.md, "Usage"). */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}
export interface CheckRecord {
  kind: string;
  status: string;
  detail: string;
  expected: unknown;
}
export interface PersonaResult {
  label: string;
  errored: boolean;
  error: string | null;
  errorKind: string | null;
  verdict: string | null;
  turns: TurnRecord[];
  checks: CheckRecord[];
  usage?: TokenCounts | null;
}
export interface FixtureResult {
  label: string;
  errored: boolean;
  error: string | null;
  reply: string | null;
  verdict: string | null;
}
export interface Results {
  fixtures: FixtureResult[];
  personas: PersonaResult[];
  usage?: TokenCounts | null;
}

/**
 * The refund persona script the framework tests replay against each framework's support agent:
 * three turns, find_order then issue_refund called with the order, the refund confirmed on turn 3.
 * `mocks` is its mocks block (REFUND_MOCKS, one of its own, or '' for live mode).
 */
export const refundScript = (label: string, mocks: string): string => `label: ${label}
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${mocks}expect:
  toolCalled:
    - { tool: find_order, input: { orderId: "1234" } }
    - { tool: issue_refund, input: { orderId: "1234", reason: I want my money back }, match: exact }
  toolNotCalled: [ { tool: escalate } ]
  reply: [ { contains: "is on its way", turn: 3 } ]
`;

/** Both tools answered by mocks: the order in transit, refund R-MOCK. */
export const REFUND_MOCKS = `mocks:
  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: in-transit-mock } }
  - { tool: issue_refund, input: { orderId: "1234" }, output: { refundId: R-MOCK } }
`;

/** `run --out results.json` in the project, and the record it wrote. */
export async function runSuite(cwd: string, args: string[] = []): Promise<{ run: CliRun; results: Results }> {
  const run = await cli(cwd, ['run', '--out', 'results.json', '--fail-on', 'failed,errored', ...args]);
  const text = await readFile(join(cwd, 'results.json'), 'utf8').catch(() => {
    throw new Error(`no results.json (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  });
  return { run, results: JSON.parse(text) as Results };
}

export function persona(results: Results, label: string): PersonaResult {
  const p = results.personas.find((x) => x.label === label);
  if (!p) throw new Error(`no persona ${label} in results.json: ${results.personas.map((x) => x.label).join(', ')}`);
  return p;
}

export function fixture(results: Results, label: string): FixtureResult {
  const f = results.fixtures.find((x) => x.label === label);
  if (!f) throw new Error(`no fixture ${label} in results.json: ${results.fixtures.map((x) => x.label).join(', ')}`);
  return f;
}

/** Each check as "kind status" for compact assertions. */
export function checkStatuses(p: PersonaResult): string[] {
  return p.checks.map((c) => `${c.kind} ${c.status}`);
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/**
 * config.yml as `agent-replay init --preset <preset>` writes it, with one line changed: the
 * commented example URL becomes `url:` the server under test.
 */
export async function initConfig(preset: string, exampleUrl: string, url: string): Promise<string> {
  const cwd = await makeProject({ config: '' });
  const init = await cli(cwd, ['init', '--preset', preset, '--dir', '.agent-replay-init']);
  if (init.code !== 0) throw new Error(`init --preset ${preset} failed:\n${init.stderr}`);
  const text = await readFile(join(cwd, '.agent-replay-init', 'config.yml'), 'utf8');
  const line = `# url: ${exampleUrl}`;
  if (!text.includes(line)) throw new Error(`init --preset ${preset} wrote no "${line}" line:\n${text}`);
  return text.replace(line, `url: ${url}`);
}
