// agent-replay against the real LangGraph API dev server (`langgraphjs dev`, in-memory, offline)
// serving two graphs on a fake chat model, tools answering from config.configurable.mocks: "agent",
// langchain 1.5's createAgent (langgraph/agent.ts, the graph docs/frameworks/langgraph.md shows),
// and "react", the previous createReactAgent (langgraph/graph.ts); preset langgraph (/runs/wait),
// through the CLI.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatuses, cli, fixture, initConfig, makeProject, persona, REFUND_MOCKS, refundScript, removeProjects, ROOT, runSuite } from './support.js';

const HERE = join(ROOT, 'test', 'frameworks');
let server: ChildProcess;
let base: string;
let log = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(join(HERE, 'node_modules', '.bin', 'langgraphjs'), ['dev', '--port', String(port), '--host', '127.0.0.1', '--no-browser', '--no-reload', '--config', 'langgraph/langgraph.json'], {
    cwd: HERE,
    detached: true, // its own process group: afterAll ends the server and the workers it starts
    env: { ...process.env, LANGSMITH_TRACING: 'false', LANGCHAIN_TRACING_V2: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const onData = (): void => {
      if (log.includes('Server running at')) resolve();
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.on('exit', (code) => reject(new Error(`langgraphjs dev exited (${code}):\n${log}`)));
  });
});
afterAll(async () => {
  if (server.pid !== undefined && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  await removeProjects();
});

let graphId = 'agent';
const config = () => `agent:\n  url: ${base}/runs/wait\n  preset: langgraph\n  assistantId: ${graphId}\n  concurrency: 1\n  timeoutMs: 30000\ncost: { capUsd: 5 }\n`;

for (const [id, api] of [['agent', 'createAgent'], ['react', 'createReactAgent']] as const) describe(`LangGraph API dev server (${api})`, () => {
  beforeAll(() => {
    graphId = id;
  });
  it('mocked mode: three turns with the whole history, tools answered from config.configurable.mocks', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-mocked', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-mocked');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
    expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]); // the mock's output: answered by a mock
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(p.verdict).toBe('pass');
    expect(run.code).toBe(0);
  });

  it('live mode: no mocks, the graph runs its tools for real, recorded as real calls, not errors', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-live', '') } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-live');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is delivered.', 'Refund R-LIVE-1234 is on its way.']);
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(run.code).toBe(0);
  });

  // langgraph/agent.ts's find_order reads the example db, whose order 0 throws (graph.ts's does not).
  if (id === 'agent') it('a tool that throws (order 0): the tool node answers the model with an error tool message; recorded as a real call whose output is {error}', async () => {
    const failing = 'label: order-zero\nopening: Order 0\nexpect:\n  toolCalled: [ { tool: find_order, input: { orderId: "0" } } ]\n';
    const cwd = await makeProject({ config: config(), personas: { 'zero.yml': failing } });
    const { results } = await runSuite(cwd);
    const p = persona(results, 'order-zero');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns[0]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '0' }, output: { error: expect.stringContaining('the orders service is unavailable') as unknown }, mocked: false }]);
    expect(checkStatuses(p)).toEqual(['toolCalled pass']);
  });

  it('mocked mode: a call no mock answers errors the script (unmocked tool)', async () => {
    const onlyFind = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: lost } }\n`;
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-unmocked', onlyFind) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-unmocked');
    expect(p.errored).toBe(true);
    expect(p.errorKind, p.error ?? '').toBe('unmocked_tool');
    expect(p.error).toContain('issue_refund');
    expect(run.code).toBe(1);
  });

  it('toolCalled / toolNotCalled fail on what the graph did', async () => {
    const wrong = `label: refund-wrong
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${REFUND_MOCKS}expect:
  toolCalled: [ { tool: issue_refund, input: { reason: "money back" } } ]
  toolNotCalled: [ { tool: find_order } ]
`;
    const cwd = await makeProject({ config: config(), personas: { 'wrong.yml': wrong } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-wrong');
    expect(checkStatuses(p)).toEqual(['toolCalled fail', 'toolNotCalled fail']);
    expect(p.verdict).toBe('fail');
    expect(run.code).toBe(1);
  });

  it('fixtures: a reply, a streamed reply (/runs/stream), and an agent error (the graph throws)', async () => {
    const cwd = await makeProject({
      config: config(),
      fixtures: {
        'hello.yml': 'label: hello\nmessage: I want my money back\nassert: { contains: "Which order" }\n',
        'crash.yml': 'label: crash\nmessage: please crash\nassert: { contains: "anything" }\n',
      },
    });
    const { run, results } = await runSuite(cwd);
    expect(fixture(results, 'hello')).toMatchObject({ errored: false, reply: 'Which order is it about?', verdict: 'pass' });
    const crash = fixture(results, 'crash');
    expect(crash.errored).toBe(true);
    expect(crash.error).toContain('the scripted model crashed');
    expect(run.code).toBe(1);

    const streaming = await makeProject({
      config: `agent:\n  url: ${base}/runs/stream\n  preset: langgraph\n  assistantId: ${graphId}\n  stream: true\ncost: { capUsd: 5 }\n`,
      fixtures: { 'order.yml': 'label: order\nmessage: Order 1234\nassert: { contains: "delivered" }\n' },
    });
    const streamed = await runSuite(streaming);
    expect(fixture(streamed.results, 'order')).toMatchObject({ errored: false, reply: 'Order 1234 is delivered.', verdict: 'pass' });
  });

  it('init --preset langgraph with the URL line changed (and assistantId, for the second graph): the three-turn mocked script passes', async () => {
    const text = (await initConfig('langgraph', 'http://localhost:2024/runs/wait', `${base}/runs/wait`)).replace('assistantId: agent ', `assistantId: ${graphId} `);
    expect(text).toContain(`  assistantId: ${graphId} `);
    const cwd = await makeProject({ config: text, personas: { 'refund.yml': refundScript('refund-init', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-init');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    const cwd = await makeProject({ config: config() });
    const probe = await cli(cwd, ['probe', 'Order 1234', '--assert', 'contains:delivered']);
    expect(probe.stdout).toContain('Order 1234 is delivered.');
    expect(probe.code, probe.stderr).toBe(0);
  });
});
