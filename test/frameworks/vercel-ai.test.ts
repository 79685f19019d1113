// agent-replay against real Vercel AI SDK chat routes, driven through the CLI: AI SDK 7 (the route
// docs/frameworks/vercel-ai.md shows, vercel-ai/chat-route.ts, on MockLanguageModelV4: await
// convertToModelMessages, toUIMessageStream + createUIMessageStreamResponse) and the previous major,
// AI SDK 5 (vercel-ai/route.ts on `ai-v5`, MockLanguageModelV2, pipeUIMessageStreamToResponse).

import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkStatuses, cli, fixture, initConfig, makeProject, persona, REFUND_MOCKS, refundScript, removeProjects, runSuite } from './support.js';
import { POST } from './vercel-ai/chat-route.js';
import { ranForReal as ranForReal7 } from './vercel-ai/db.js';
import { ranForReal as ranForReal5, startRoute } from './vercel-ai/route.js';
import { serveFetch } from './vercel-ai/serve-fetch.js';

const ROUTES = [
  { name: 'AI SDK 7 (the docs route)', start: () => serveFetch(POST, '/api/chat'), ranForReal: ranForReal7 },
  { name: 'AI SDK 5', start: startRoute, ranForReal: ranForReal5 },
];

afterAll(async () => {
  await removeProjects();
});

for (const route of ROUTES) describe(`Vercel AI SDK chat route, ${route.name}`, () => {
let server: Server;
let url: string;
let bodies: Record<string, unknown>[];
const ranForReal = route.ranForReal;
beforeAll(async () => {
  ({ server, url, bodies } = await route.start());
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  ranForReal.length = 0;
  bodies.length = 0;
});

const config = () => `agent:\n  url: ${url}\n  preset: vercel-ai\n  concurrency: 1\ncost: { capUsd: 5 }\n`;

{
  it('mocked mode: three turns with the whole history, tools answered by the mocks helper, nothing run for real', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-mocked', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-mocked');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
    // The third turn needed the first: the refund's reason is the opening message.
    expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]); // the mock's output: answered by a mock
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(p.verdict).toBe('pass');
    expect(ranForReal).toEqual([]);
    expect(run.code).toBe(0);
    // What the route received on the third turn: useChat's body, the history with distinct ids, the mocks beside it.
    const third = bodies.at(-1) as { messages: { id: string; role: string }[]; mocks: unknown[] };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(new Set(third.messages.map((m) => m.id)).size).toBe(5);
    expect(third.mocks).toHaveLength(2);
  });

  it('live mode: no mocks, the server tools run for real and are recorded as real calls, not errors', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-live', '') } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-live');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is delivered.', 'Refund R-LIVE-1234 is on its way.']);
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
    expect(ranForReal.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(run.code).toBe(0);
  });

  it('mocked mode: a call no mock answers is an unmocked tool, the script errored, the real tool not run', async () => {
    const onlyFind = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: lost } }\n`;
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-unmocked', onlyFind) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-unmocked');
    expect(p.errored).toBe(true);
    expect(p.errorKind, p.error ?? "").toBe("unmocked_tool");
    expect(p.error).toContain('issue_refund');
    expect(ranForReal).toEqual([]);
    expect(run.code).toBe(1);
  });

  it('toolCalled / toolNotCalled fail on what the route did (input matching, exact)', async () => {
    const wrong = `label: refund-wrong
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${REFUND_MOCKS}expect:
  toolCalled: [ { tool: issue_refund, input: { orderId: "1234" , reason: "money back" }, match: exact } ]
  toolNotCalled: [ { tool: find_order, input: { orderId: "1234" } } ]
`;
    const cwd = await makeProject({ config: config(), personas: { 'wrong.yml': wrong } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-wrong');
    expect(checkStatuses(p)).toEqual(['toolCalled fail', 'toolNotCalled fail']);
    expect(p.verdict).toBe('fail');
    expect(run.code).toBe(1);
  });

  it('a fixture: the streamed reply read to the end; an agent error is errored, not a pass', async () => {
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
    expect(crash.error).toMatch(/error/i);
    expect(run.code).toBe(1);
  });

  it('usage: the totalUsage the route sends as finish message metadata is each turn\'s tokens, summed per script and run', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-tokens', REFUND_MOCKS) } });
    const { results } = await runSuite(cwd);
    const p = persona(results, 'refund-tokens');
    expect(p.errored, p.error ?? '').toBe(false);
    // The scripted model reports 10 in and 5 out per step: one step for the question, two (tool call, then text) after.
    expect(p.turns.map((t) => t.usage)).toEqual([
      { inputTokens: 10, outputTokens: 5 },
      { inputTokens: 20, outputTokens: 10 },
      { inputTokens: 20, outputTokens: 10 },
    ]);
    expect(p.usage).toEqual({ inputTokens: 50, outputTokens: 25 });
    expect(results.usage).toEqual({ inputTokens: 50, outputTokens: 25 });
  });

  it('init --preset vercel-ai with the URL line changed: the three-turn mocked script passes as it is', async () => {
    const cwd = await makeProject({ config: await initConfig('vercel-ai', 'http://localhost:3000/api/chat', url), personas: { 'refund.yml': refundScript('refund-init', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-init');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(ranForReal).toEqual([]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    const cwd = await makeProject({ config: config() });
    const probe = await cli(cwd, ['probe', 'Order 1234', '--assert', 'contains:delivered']);
    expect(probe.stdout).toContain('Order 1234 is delivered.');
    expect(probe.code, probe.stderr).toBe(0);
    expect(ranForReal).toEqual([{ tool: 'find_order', input: { orderId: '1234' } }]);

    // --preset: a config.yml with only the URL probes the route as the vercel-ai preset.
    const bare = await makeProject({ config: `agent:\n  url: ${url}\ncost: { capUsd: 5 }\n` });
    const preset = await cli(bare, ['probe', 'I want my money back', '--preset', 'vercel-ai']);
    expect(preset.stdout).toContain('Which order is it about?');
    expect(preset.code, preset.stderr).toBe(0);
  });
}
});
