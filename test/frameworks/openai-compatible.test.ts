// agent-replay against a real OpenAI-compatible server from npm that runs offline:
// @dwmkerr/mock-llm (rules matched on the request with JMESPath, replies templated from it),
// preset openai-chat, through the CLI. A model API runs no tools: its tool calls are requests
// for the caller, so mocks and live mode read the same and nothing is an unmocked call.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStatuses, cli, fixture, makeProject, persona, removeProjects, ROOT, runSuite, startServerProcess } from './support.js';

const HERE = join(ROOT, 'test', 'frameworks');
let base: string;

beforeAll(async () => {
  base = await startServerProcess('mock-llm', 'server running on', (port) =>
    spawn(process.execPath, [join(HERE, 'node_modules', '@dwmkerr', 'mock-llm', 'dist', 'main.js'), '--config', join(HERE, 'openai-compatible', 'mock-llm.yaml')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
});
afterAll(async () => {
  await removeProjects();
});

const config = (extra = '') => `agent:\n  url: ${base}/v1/chat/completions\n  preset: openai-chat\n  model: gpt-test\n  retries: 0\n${extra}cost: { capUsd: 5 }\n`;

const script = (label: string, mocks: string) => `label: ${label}
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${mocks}expect:
  toolCalled: [ { tool: find_order, input: { orderId: "1234" }, match: exact } ]
  toolNotCalled: [ { tool: issue_refund } ]
`;

describe('OpenAI-compatible server (@dwmkerr/mock-llm)', () => {
  it('three turns with the whole history; the tool call read from tool_calls as a request (mocked and live alike)', async () => {
    const mocks = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { status: delivered } }\n`;
    const cwd = await makeProject({ config: config(), personas: { 'mocked.yml': script('refund-mocked', mocks), 'live.yml': script('refund-live', '') } });
    const { run, results } = await runSuite(cwd);
    for (const label of ['refund-mocked', 'refund-live']) {
      const p = persona(results, label);
      expect(p.errored, p.error ?? '').toBe(false);
      // Turn 3's reply quotes the first message and counts 4 messages: the whole conversation was
      // sent, the three user messages and turn 1's reply; turn 2 answered with a tool call and no
      // text, which adds no empty assistant message (docs/presets.md, "Conversation history").
      expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', '', 'Refund for: I want my money back (4 messages)']);
      expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: null, mocked: true }]);
      expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolNotCalled pass']);
    }
    expect(run.code).toBe(0);
  });

  it('toolCalled with exact input fails on a different call', async () => {
    const wrong = script('refund-wrong', '').replace('input: { orderId: "1234" }, match: exact', 'input: { orderId: 1234 }, match: exact');
    const cwd = await makeProject({ config: config(), personas: { 'wrong.yml': wrong } });
    const { run, results } = await runSuite(cwd);
    expect(checkStatuses(persona(results, 'refund-wrong'))).toEqual(['toolCalled fail', 'toolNotCalled pass']);
    expect(run.code).toBe(1);
  });

  it('fixtures: a reply, a streamed reply (chat completion chunks), and an agent error (HTTP 500)', async () => {
    const fixtures = {
      'hello.yml': 'label: hello\nmessage: hello there\nassert: { contains: "Which order" }\n',
      'crash.yml': 'label: crash\nmessage: please crash\nassert: { contains: "anything" }\n',
    };
    const cwd = await makeProject({ config: config(), fixtures });
    const { run, results } = await runSuite(cwd);
    expect(fixture(results, 'hello')).toMatchObject({ errored: false, reply: 'Which order is it about?', verdict: 'pass' });
    expect(fixture(results, 'crash').errored).toBe(true);
    expect(fixture(results, 'crash').error).toContain('500');
    expect(run.code).toBe(1);

    const streaming = await makeProject({ config: config('  stream: true\n'), fixtures: { 'hello.yml': fixtures['hello.yml'] } });
    const streamed = await runSuite(streaming);
    expect(fixture(streamed.results, 'hello')).toMatchObject({ errored: false, reply: 'Which order is it about?', verdict: 'pass' });
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    const cwd = await makeProject({ config: config() });
    const probe = await cli(cwd, ['probe', 'hello', '--assert', 'contains:Which order']);
    expect(probe.stdout).toContain('Which order is it about?');
    expect(probe.code, probe.stderr).toBe(0);
  });
});
