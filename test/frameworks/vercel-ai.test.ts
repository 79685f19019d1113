// agent-replay against real Vercel AI SDK chat routes, driven through the CLI: AI SDK 7 (the route
// docs/frameworks/vercel-ai.md shows, vercel-ai/chat-route.ts, on MockLanguageModelV4: await
// convertToModelMessages, toUIMessageStream + createUIMessageStreamResponse) and the previous major,
// AI SDK 5 (vercel-ai/route.ts on `ai-v5`, MockLanguageModelV2, pipeUIMessageStreamToResponse).

import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, helloAndCrash, initConfig, makeProject, probeOrder, refundLive, refundMocked, refundUnmocked, refundWrong, removeProjects } from './support.js';
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
    await refundMocked(config(), 'refund-mocked', ranForReal);
    // What the route received on the third turn: useChat's body, the history with distinct ids, the mocks beside it.
    const third = bodies.at(-1) as { messages: { id: string; role: string }[]; mocks: unknown[] };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(new Set(third.messages.map((m) => m.id)).size).toBe(5);
    expect(third.mocks).toHaveLength(2);
  });

  it('live mode: no mocks, the server tools run for real and are recorded as real calls, not errors', async () => {
    await refundLive(config(), 'refund-live', ranForReal);
  });

  it('mocked mode: a call no mock answers is an unmocked tool, the script errored, the real tool not run', async () => {
    await refundUnmocked(config(), 'refund-unmocked', ranForReal);
  });

  it('toolCalled / toolNotCalled fail on what the route did (input matching, exact)', async () => {
    await refundWrong(config(), '  toolCalled: [ { tool: issue_refund, input: { orderId: "1234" , reason: "money back" }, match: exact } ]\n  toolNotCalled: [ { tool: find_order, input: { orderId: "1234" } } ]\n');
  });

  it('a fixture: the streamed reply read to the end; an agent error is errored, not a pass; a model that speaks before its tool call: both steps\' texts, a blank line between', async () => {
    const { crash, lookUp } = await helloAndCrash(config());
    expect(crash.error).toMatch(/error/i);
    // Two steps (the sentence and the call, then the answer), shown apart by useChat (docs/frameworks/vercel-ai.md, "Replies").
    expect(lookUp.reply).toBe('Let me look that up.\n\nOrder 1234 is delivered.');
  });

  it('usage: the totalUsage the route sends as finish message metadata is each turn\'s tokens, summed per script and run', async () => {
    const { p, results } = await refundMocked(config(), 'refund-tokens', ranForReal);
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
    await refundMocked(await initConfig('vercel-ai', 'http://localhost:3000/api/chat', url), 'refund-init', ranForReal);
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    await probeOrder(config());
    expect(ranForReal).toEqual([{ tool: 'find_order', input: { orderId: '1234' } }]);

    // --preset: a config.yml with only the URL probes the route as the vercel-ai preset.
    const bare = await makeProject({ config: `agent:\n  url: ${url}\ncost: { capUsd: 5 }\n` });
    const preset = await cli(bare, ['probe', 'I want my money back', '--preset', 'vercel-ai']);
    expect(preset.stdout).toContain('Which order is it about?');
    expect(preset.code, preset.stderr).toBe(0);
  });
}
});
