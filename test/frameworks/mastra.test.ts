// agent-replay against a real Mastra server (@mastra/core Agent and createTool with mockMastraTool,
// served by Mastra's Hono adapter), on Mastra's own fake model, through the CLI: the mastra preset
// on /generate and on /stream, mocks in requestContext.mocks, live tools, an agent error, probe, init.

import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ranForReal } from './mastra/db.js';
import { startMastra } from './mastra/server.js';
import { helloAndCrash, initConfig, makeProject, persona, probeOrder, refundLive, refundMocked, refundUnmocked, removeProjects, runSuite } from './support.js';

let server: ServerType;
let base: string;
let bodies: Record<string, unknown>[];
beforeAll(async () => {
  ({ server, base, bodies } = await startMastra());
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await removeProjects();
});
beforeEach(() => {
  ranForReal.length = 0;
  bodies.length = 0;
});

/** config.yml as `init --preset mastra` writes it, the URL line changed (and, for /stream, the stream line init comments for it). */
async function initProject(endpoint: 'generate' | 'stream'): Promise<string> {
  const text = await initConfig('mastra', 'http://localhost:4111/api/agents/support/generate', `${base}/api/agents/support/${endpoint}`);
  return endpoint === 'stream' ? text.replace('# stream: true ', 'stream: true   ') : text;
}

for (const endpoint of ['generate', 'stream'] as const) {
  describe(`Mastra server, /api/agents/support/${endpoint}`, () => {
    let config = '';
    beforeAll(async () => {
      config = await initProject(endpoint);
    });

    it('mocked mode: three turns with the whole history, tools answered from requestContext.mocks, nothing run for real', async () => {
      await refundMocked(config, `refund-mocked-${endpoint}`, ranForReal);
      const third = bodies.at(-1) as { messages: { role: string }[]; requestContext: { mocks: unknown[] } };
      expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(third.requestContext.mocks).toHaveLength(2);
    });

    it('live mode: no mocks, the tools run for real and are recorded as real calls', async () => {
      await refundLive(config, `refund-live-${endpoint}`, ranForReal);
    });

    it('mocked mode: a call no mock answers errors the script as an unmocked tool (the error the tool threw read from the steps), the real tool not run', async () => {
      await refundUnmocked(config, `refund-unmocked-${endpoint}`, ranForReal);
    });

    it('live mode: a tool that throws is a real call whose output is the error it threw, the same on /generate and /stream', async () => {
      const broken = `label: broken-${endpoint}\nopening: Order 0\nexpect:\n  toolCalled: [ { tool: find_order, input: { orderId: "0" } } ]\n`;
      const cwd = await makeProject({ config, personas: { 'broken.yml': broken } });
      const { results } = await runSuite(cwd);
      const p = persona(results, `broken-${endpoint}`);
      expect(p.errored, p.error ?? '').toBe(false);
      expect(p.turns[0]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '0' }, output: { error: 'the orders service is unavailable' }, mocked: false }]);
    });

    it('a fixture passes; an agent error is errored with the model\'s message, not a pass or an empty reply; a model that speaks before its tool call: the reply each endpoint gives', async () => {
      const { crash, lookUp } = await helloAndCrash(config);
      expect(crash.error).toContain('the scripted model crashed');
      // docs/frameworks/mastra.md, "Replies": /generate's text runs the two steps' texts together, as sent;
      // /stream keeps each step's text apart, as Mastra's and the AI SDK's chats show them.
      expect(lookUp.reply).toBe(endpoint === 'generate' ? 'Let me look that up.Order 1234 is delivered.' : 'Let me look that up.\n\nOrder 1234 is delivered.');
    });

    it('probe: one message, the reply printed, exit 0', async () => {
      await probeOrder(config);
    });
  });
}
