// agent-replay against the real LangGraph API dev server (`langgraphjs dev`, in-memory, offline)
// serving two graphs on a fake chat model, tools answering from config.configurable.mocks: "agent",
// langchain 1.5's createAgent (langgraph/agent.ts, the graph docs/frameworks/langgraph.md shows),
// and "react", the previous createReactAgent (langgraph/graph.ts); preset langgraph (/runs/wait),
// through the CLI.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatuses, helloAndCrash, initConfig, makeProject, persona, probeOrder, refundLive, refundMocked, refundUnmocked, refundWrong, removeProjects, ROOT, runSuite, startServerProcess, streamedOrder } from './support.js';

const HERE = join(ROOT, 'test', 'frameworks');
let base: string;

beforeAll(async () => {
  base = await startServerProcess(
    'langgraphjs dev',
    'Server running at',
    (port) =>
      spawn(join(HERE, 'node_modules', '.bin', 'langgraphjs'), ['dev', '--port', String(port), '--host', '127.0.0.1', '--no-browser', '--no-reload', '--config', 'langgraph/langgraph.json'], {
        cwd: HERE,
        detached: true, // its own process group: it ends with the workers it starts
        env: { ...process.env, LANGSMITH_TRACING: 'false', LANGCHAIN_TRACING_V2: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    { group: true },
  );
});
afterAll(async () => {
  await removeProjects();
});

let graphId = 'agent';
const config = () => `agent:\n  url: ${base}/runs/wait\n  preset: langgraph\n  assistantId: ${graphId}\n  concurrency: 1\n  timeoutMs: 30000\ncost: { capUsd: 5 }\n`;

for (const [id, api] of [['agent', 'createAgent'], ['react', 'createReactAgent']] as const) describe(`LangGraph API dev server (${api})`, () => {
  beforeAll(() => {
    graphId = id;
  });
  it('mocked mode: three turns with the whole history, tools answered from config.configurable.mocks', async () => {
    await refundMocked(config(), 'refund-mocked');
  });

  it('live mode: no mocks, the graph runs its tools for real, recorded as real calls, not errors', async () => {
    await refundLive(config(), 'refund-live');
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
    await refundUnmocked(config(), 'refund-unmocked');
  });

  it('toolCalled / toolNotCalled fail on what the graph did', async () => {
    await refundWrong(config(), '  toolCalled: [ { tool: issue_refund, input: { reason: "money back" } } ]\n  toolNotCalled: [ { tool: find_order } ]\n');
  });

  it('fixtures: a reply, a streamed reply (/runs/stream), an agent error (the graph throws), and a model that speaks before its tool call', async () => {
    const { crash, lookUp } = await helloAndCrash(config());
    expect(crash.error).toContain('the scripted model crashed');
    // The state holds two AI messages with text (the sentence beside the call, then the answer), both
    // shown by the chat: both are the reply, a blank line between (docs/frameworks/langgraph.md, "Replies").
    expect(lookUp.reply).toBe('Let me look that up.\n\nOrder 1234 is delivered.');
    const streamed = await streamedOrder(`agent:\n  url: ${base}/runs/stream\n  preset: langgraph\n  assistantId: ${graphId}\n  stream: true\ncost: { capUsd: 5 }\n`);
    // The last values event holds the same state: the same reply as /runs/wait.
    expect(streamed.lookUp.reply).toBe('Let me look that up.\n\nOrder 1234 is delivered.');
  });

  it('init --preset langgraph with the URL line changed (and assistantId, for the second graph): the three-turn mocked script passes', async () => {
    const text = (await initConfig('langgraph', 'http://localhost:2024/runs/wait', `${base}/runs/wait`)).replace('assistantId: agent ', `assistantId: ${graphId} `);
    expect(text).toContain(`  assistantId: ${graphId} `);
    await refundMocked(text, 'refund-init');
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    await probeOrder(config());
  });
});
