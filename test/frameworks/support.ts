// Shared by the real-framework tests: a suite folder in a temp project, the real CLI run as a child
// process (`node --import tsx src/cli.ts ...`, as a user runs it), results.json read back, and a
// small node:http JSON helper for routes. Each CLI child ends with the test that started it
// (test/support/children.ts): a run that hangs (a receiver that never hears its spans, an agent
// that never answers) is killed when its test times out, not left running past the file. The
// scenarios every framework's route is put through (the refund script mocked, live, with a call no
// mock answers and with checks that fail; a fixture and an agent error; probe) run and check what is
// the same for every framework here, and hand back the run for each file's own assertions; the
// traces tests' route servers (`serveReplies`) and their run against the receiver (`runTraced`) too.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
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

/** The route servers serveReplies started: closed by removeProjects. */
const routes: Server[] = [];

/** Ends the CLI children a hook started (initConfig in a beforeAll), closes the servers serveReplies started, then removes the projects; each file's afterAll. */
export async function removeProjects(): Promise<void> {
  await endChildren();
  for (const server of routes.splice(0)) await new Promise((r) => server.close(r));
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

/** A port free on 127.0.0.1 now (a server that takes its port on its command line). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * A framework's server as a child process (a beforeAll's): `start` spawns it on the free `port` it
 * is given, with its output piped; it is ready once that output says `ready`. It ends with the file
 * (removeProjects); `group`: it was spawned `detached` and its process group (the workers it
 * starts) ends with it. Its base URL, `http://127.0.0.1:<port>`.
 */
export async function startServerProcess(name: string, ready: string, start: (port: number) => ChildProcess, { group = false } = {}): Promise<string> {
  const port = await freePort();
  const server = start(port);
  endWithTest(server, { group });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      log += d.toString();
      if (log.includes(ready)) resolve();
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.on('exit', (code) => reject(new Error(`${name} exited (${code}):\n${log}`)));
  });
  return `http://127.0.0.1:${port}`;
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
  /** The message turn's tool calls; absent: none. */
  toolCalls?: ToolCallRecord[];
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

/** The checks of the refund script when all goes as it says. */
const ALL_PASS = ['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass'];

/** What a real tool ran: the framework's db records each call (each file empties it before each test). */
type RanForReal = { tool: string; input: unknown }[];

/**
 * The refund script in mocked mode (REFUND_MOCKS) against the route `config` names: three turns
 * with the whole history, the tools answered by the mocks, every check passing, exit 0, and nothing
 * run for real (`ranForReal`, where the framework's tools run in this process).
 */
export async function refundMocked(config: string, label: string, ranForReal?: RanForReal): Promise<{ run: CliRun; p: PersonaResult; results: Results }> {
  const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(label, REFUND_MOCKS) } });
  const { run, results } = await runSuite(cwd);
  const p = persona(results, label);
  expect(p.errored, p.error ?? '').toBe(false);
  expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
  // The third turn needed the first: the refund's reason is the opening message; the mock's output: answered by a mock.
  expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]);
  expect(checkStatuses(p)).toEqual(ALL_PASS);
  expect(p.verdict).toBe('pass');
  if (ranForReal) expect(ranForReal).toEqual([]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return { run, p, results };
}

/** The refund script in live mode (no mocks): the tools run for real, recorded as real calls (not errors), every check passing, exit 0. */
export async function refundLive(config: string, label: string, ranForReal?: RanForReal): Promise<{ run: CliRun; p: PersonaResult }> {
  const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(label, '') } });
  const { run, results } = await runSuite(cwd);
  const p = persona(results, label);
  expect(p.errored, p.error ?? '').toBe(false);
  expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is delivered.', 'Refund R-LIVE-1234 is on its way.']);
  // A tool's JSON text (the SDKs pass tool results on as text) is read back as the object.
  expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
  if (ranForReal) expect(ranForReal.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
  expect(checkStatuses(p)).toEqual(ALL_PASS);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return { run, p };
}

/** The refund script in mocked mode with find_order's mock alone: the call to issue_refund no mock answers errors the script (unmocked tool), the real tool not run, exit 1. */
export async function refundUnmocked(config: string, label: string, ranForReal?: RanForReal): Promise<{ run: CliRun; p: PersonaResult }> {
  const onlyFind = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: lost } }\n`;
  const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(label, onlyFind) } });
  const { run, results } = await runSuite(cwd);
  const p = persona(results, label);
  expect(p.errored).toBe(true);
  expect(p.errorKind, p.error ?? '').toBe('unmocked_tool');
  expect(p.error).toContain('issue_refund');
  if (ranForReal) expect(ranForReal).toEqual([]);
  expect(run.code).toBe(1);
  return { run, p };
}

/** The refund conversation (mocked) with `checks` (its `expect:` block's lines) that the agent's calls fail: toolCalled and toolNotCalled fail, the verdict fail, exit 1. */
export async function refundWrong(config: string, checks: string): Promise<{ run: CliRun; p: PersonaResult }> {
  const wrong = `label: refund-wrong
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${REFUND_MOCKS}expect:
${checks}`;
  const cwd = await makeProject({ config, personas: { 'wrong.yml': wrong } });
  const { run, results } = await runSuite(cwd);
  const p = persona(results, 'refund-wrong');
  expect(checkStatuses(p)).toEqual(['toolCalled fail', 'toolNotCalled fail']);
  expect(p.verdict).toBe('fail');
  expect(run.code).toBe(1);
  return { run, p };
}

/** A fixture where the model says "Let me look that up." before its find_order call, then answers (scripted-model.ts). */
export const LOOK_UP_FIXTURE = 'label: look-up\nmessage: Please look up order 1234\nassert: { contains: "Order 1234 is delivered." }\n';

/**
 * Three fixtures: `hello` passes with the model's question; `crash` (the scripted model throws) is
 * errored, not a pass; exit 1. And `look-up` (LOOK_UP_FIXTURE; live: the real tool runs): it passes,
 * its tool call recorded; its reply is each framework's to assert (docs/frameworks/<x>.md,
 * "Replies"). `crash` and `look-up` are returned.
 */
export async function helloAndCrash(config: string): Promise<{ run: CliRun; crash: FixtureResult; lookUp: FixtureResult }> {
  const cwd = await makeProject({
    config,
    fixtures: {
      'hello.yml': 'label: hello\nmessage: I want my money back\nassert: { contains: "Which order" }\n',
      'crash.yml': 'label: crash\nmessage: please crash\nassert: { contains: "anything" }\n',
      'look-up.yml': LOOK_UP_FIXTURE,
    },
  });
  const { run, results } = await runSuite(cwd);
  expect(fixture(results, 'hello')).toMatchObject({ errored: false, reply: 'Which order is it about?', verdict: 'pass' });
  const lookUp = fixture(results, 'look-up');
  expect(lookUp, lookUp.error ?? '').toMatchObject({ errored: false, verdict: 'pass' });
  expect(lookUp.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
  const crash = fixture(results, 'crash');
  expect(crash.errored).toBe(true);
  expect(run.code).toBe(1);
  return { run, crash, lookUp };
}

/**
 * Two fixtures against a streaming `config`: `order`, the streamed reply read to the end, and it
 * passes; `look-up`, the model speaking before its tool call (LOOK_UP_FIXTURE), returned for its reply.
 */
export async function streamedOrder(config: string): Promise<{ lookUp: FixtureResult }> {
  const cwd = await makeProject({ config, fixtures: { 'order.yml': 'label: order\nmessage: Order 1234\nassert: { contains: "delivered" }\n', 'look-up.yml': LOOK_UP_FIXTURE } });
  const { results } = await runSuite(cwd);
  expect(fixture(results, 'order')).toMatchObject({ errored: false, reply: 'Order 1234 is delivered.', verdict: 'pass' });
  const lookUp = fixture(results, 'look-up');
  expect(lookUp, lookUp.error ?? '').toMatchObject({ errored: false, verdict: 'pass' });
  return { lookUp };
}

/** `probe` with one message: the reply printed, exit 0. */
export async function probeOrder(config: string): Promise<void> {
  const cwd = await makeProject({ config });
  const probe = await cli(cwd, ['probe', 'Order 1234', '--assert', 'contains:delivered']);
  expect(probe.stdout).toContain('Order 1234 is delivered.');
  expect(probe.code, probe.stderr).toBe(0);
}

/**
 * A route for the traces tests, on node:http at 127.0.0.1: `reply` is given the request's JSON body
 * and headers, and its text is answered as `{reply}` (the native protocol, no tool calls in the
 * body: they can only come from the spans). Closed by removeProjects.
 */
export async function serveReplies(reply: (body: Record<string, unknown>, headers: IncomingHttpHeaders) => Promise<string>): Promise<string> {
  const server = createServer((req, res) => {
    void (async () => {
      const text = await reply(await readJson(req), req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reply: text }));
    })();
  });
  routes.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A fixture of a traces run, with what the spans gave it (docs/traces.md). */
export type TracedFixture = FixtureResult & { checks?: { status: string }[]; toolCalls?: unknown[]; usage?: unknown; time?: { tools?: Record<string, number> } | null; spans?: { count: number; ignored: number; late: number } };

/**
 * The suite run against the route `start` serves (`receiverConfig`), as runStreaming runs it: the
 * route is given the receiver's URL once the run's log line said it (a function: the route is
 * started first). The run exits 0 and said a loopback URL; its results.json is returned.
 */
export async function runTraced(start: (receiver: () => string) => Promise<string>, suite: Omit<Suite, 'config'>): Promise<{ results: Results; fixtures: TracedFixture[] }> {
  let receiver = '';
  const url = await start(() => receiver);
  const cwd = await makeProject({ config: receiverConfig(url), ...suite });
  const r = await runStreaming(cwd, (said) => (receiver = said));
  expect(r.code, r.stderr).toBe(0);
  expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const results = JSON.parse(await readFile(join(cwd, 'results.json'), 'utf8')) as Results;
  return { results, fixtures: results.fixtures as TracedFixture[] };
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
