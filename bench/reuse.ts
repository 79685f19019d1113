// `npm run bench -- reuse`: judge reuse (docs/fixtures.md, "Judge reuse") measured in judge calls,
// not milliseconds.
//
// 1,000 fixtures of which 200 are judged, a loopback agent and a loopback OpenAI-compatible judge
// (both in this process, so the bench can change what the agent answers and count what the judge
// received). The real CLI, spawned like a user runs it: `run`, `accept`, `run` with no reply
// changed (target: 0 judge calls), then `run` with the agent answering differently for 10 judged
// labels (target: 10 judge calls). The counts are those the judge server saw, checked against the
// record's `spend`.

import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'src/cli.ts');
/** tsx by its resolved URL: the CLI runs in the temporary project folder, where `tsx` alone does not resolve. */
const TSX = import.meta.resolve('tsx');

export interface ReuseFigures {
  fixtures: number;
  judged: number;
  /** Judge requests the server received during each step. */
  first: number;
  unchanged: number;
  changed: number;
  /** `spend` of the rerun records, for the cross-check. */
  unchangedSpend: { judgeCalls: number; judgeReused: number };
  changedSpend: { judgeCalls: number; judgeReused: number };
  accepted: string;
}

interface Loopback {
  url: string;
  count(): number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

function body(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The agent echoes; a message listed in `changed` gets another answer. */
async function startAgent(changed: Set<string>): Promise<Loopback> {
  let n = 0;
  const server = createServer(async (req, res) => {
    const { message } = JSON.parse(await body(req)) as { message: string };
    n++;
    const reply = changed.has(message) ? `A different answer to ${message}` : `echo: ${message}`;
    const text = JSON.stringify({ reply, route: { conversation: 'echo', stage: 'reply' }, offTrack: [], ended: false });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  const url = await listen(server);
  return { url: `${url}/chat`, count: () => n, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** An OpenAI-compatible judge that scores everything 0.9 and counts the requests it received. */
async function startJudge(): Promise<Loopback> {
  let n = 0;
  const server = createServer(async (req, res) => {
    await body(req);
    n++;
    const text = JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"score": 0.9, "rationale": "answers the question"}' } }] });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  const url = await listen(server);
  return { url, count: () => n, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/** The real CLI (tsx over src/cli.ts), in the project folder; resolves with its stdout, rejects on a non-zero exit. */
function cli(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`agent-replay ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`))));
  });
}

const label = (i: number): string => `q-${String(i).padStart(5, '0')}`;
const message = (i: number): string => `Question ${String(i).padStart(5, '0')}: can I return my order within 30 days?`;

/** Every fifth fixture is judged: 200 of 1,000. */
async function makeSuite(cwd: string, n: number, agentUrl: string, judgeUrl: string): Promise<void> {
  const dir = path.join(cwd, '.agent-replay');
  await mkdir(path.join(dir, 'fixtures'), { recursive: true });
  await writeFile(
    path.join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  start: false\n  retries: 0\n  concurrency: 16\n` +
      `judge: { provider: openai, baseUrl: "${judgeUrl}", model: bench-judge, apiKey: bench-key, retries: 0 }\ncost: { capUsd: 1000 }\n`,
  );
  const perFile = 10;
  for (let f = 0; f * perFile < n; f++) {
    const items: string[] = [];
    for (let i = f * perFile; i < Math.min(n, (f + 1) * perFile); i++) {
      const assert = i % 5 === 0 ? '{ judge: "Answers whether the order can be returned", threshold: 0.7 }' : '{ contains: "30 days" }';
      items.push(`  - label: ${label(i)}\n    message: "${message(i)}"\n    assert: ${assert}`);
    }
    await writeFile(path.join(dir, 'fixtures', `group-${String(f).padStart(4, '0')}.yml`), `fixtures:\n${items.join('\n')}\n`);
  }
}

async function spendOf(file: string): Promise<{ judgeCalls: number; judgeReused: number }> {
  const record = JSON.parse(await readFile(file, 'utf8')) as { spend?: { judgeCalls: number; judgeReused: number } };
  return { judgeCalls: record.spend?.judgeCalls ?? -1, judgeReused: record.spend?.judgeReused ?? -1 };
}

export async function measureReuse(root: string, n = 1000, changedCount = 10): Promise<ReuseFigures> {
  const cwd = path.join(root, 'reuse');
  await mkdir(cwd, { recursive: true });
  const changed = new Set<string>();
  const agent = await startAgent(changed);
  const judge = await startJudge();
  try {
    await makeSuite(cwd, n, agent.url, judge.url);
    const judged = Math.ceil(n / 5);
    const commit = '1'.repeat(40);
    await cli(cwd, ['run', '--out', 'r1.json', '--commit', commit, '--fail-on', 'none']);
    const first = judge.count();
    const acceptOut = await cli(cwd, ['accept', '--results', 'r1.json']);
    const accepted = /^\d+ accepted, \d+ refused, \d+ unchanged$/m.exec(acceptOut)?.[0] ?? acceptOut.trim().split('\n').at(-1) ?? '';

    await cli(cwd, ['run', '--out', 'r2.json', '--commit', '2'.repeat(40), '--fail-on', 'none']);
    const unchanged = judge.count() - first;

    // The agent answers differently for `changedCount` judged labels (every fifth fixture).
    for (let k = 0; k < changedCount; k++) changed.add(message(k * 5));
    const before = judge.count();
    await cli(cwd, ['run', '--out', 'r3.json', '--commit', '3'.repeat(40), '--fail-on', 'none']);
    const changedCalls = judge.count() - before;
    return {
      fixtures: n,
      judged,
      first,
      unchanged,
      changed: changedCalls,
      unchangedSpend: await spendOf(path.join(cwd, 'r2.json')),
      changedSpend: await spendOf(path.join(cwd, 'r3.json')),
      accepted,
    };
  } finally {
    await Promise.all([agent.close(), judge.close()]);
  }
}
