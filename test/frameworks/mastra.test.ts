// agent-replay against a real Mastra server (@mastra/core Agent and createTool with mockMastraTool,
// served by Mastra's Hono adapter), on Mastra's own fake model, through the CLI: the mastra preset
// on /generate and on /stream, mocks in requestContext.mocks, live tools, an agent error, probe, init.

import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ranForReal } from './mastra/db.js';
import { startMastra } from './mastra/server.js';
import { checkStatuses, cli, fixture, initConfig, makeProject, persona, REFUND_MOCKS, refundScript, removeProjects, runSuite } from './support.js';

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
      const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(`refund-mocked-${endpoint}`, REFUND_MOCKS) } });
      const { run, results } = await runSuite(cwd);
      const p = persona(results, `refund-mocked-${endpoint}`);
      expect(p.errored, p.error ?? '').toBe(false);
      expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
      expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]);
      expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
      expect(ranForReal).toEqual([]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const third = bodies.at(-1) as { messages: { role: string }[]; requestContext: { mocks: unknown[] } };
      expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
      expect(third.requestContext.mocks).toHaveLength(2);
    });

    it('live mode: no mocks, the tools run for real and are recorded as real calls', async () => {
      const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(`refund-live-${endpoint}`, '') } });
      const { run, results } = await runSuite(cwd);
      const p = persona(results, `refund-live-${endpoint}`);
      expect(p.errored, p.error ?? '').toBe(false);
      expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
      expect(ranForReal.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
      expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
      expect(run.code).toBe(0);
    });

    it('mocked mode: a call no mock answers errors the script as an unmocked tool (the error the tool threw read from the steps), the real tool not run', async () => {
      const onlyFind = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: lost } }\n`;
      const cwd = await makeProject({ config, personas: { 'refund.yml': refundScript(`refund-unmocked-${endpoint}`, onlyFind) } });
      const { results } = await runSuite(cwd);
      const p = persona(results, `refund-unmocked-${endpoint}`);
      expect(p.errored).toBe(true);
      expect(p.error).toContain('issue_refund');
      expect(ranForReal).toEqual([]);
    });

    it('live mode: a tool that throws is a real call whose output is the error it threw, the same on /generate and /stream', async () => {
      const broken = `label: broken-${endpoint}\nopening: Order 0\nexpect:\n  toolCalled: [ { tool: find_order, input: { orderId: "0" } } ]\n`;
      const cwd = await makeProject({ config, personas: { 'broken.yml': broken } });
      const { results } = await runSuite(cwd);
      const p = persona(results, `broken-${endpoint}`);
      expect(p.errored, p.error ?? '').toBe(false);
      expect(p.turns[0]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '0' }, output: { error: 'the orders service is unavailable' }, mocked: false }]);
    });

    it('a fixture passes; an agent error is errored with the model\'s message, not a pass or an empty reply', async () => {
      const cwd = await makeProject({
        config,
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
    });

    it('probe: one message, the reply printed, exit 0', async () => {
      const cwd = await makeProject({ config });
      const probe = await cli(cwd, ['probe', 'Order 1234', '--assert', 'contains:delivered']);
      expect(probe.stdout).toContain('Order 1234 is delivered.');
      expect(probe.code, probe.stderr).toBe(0);
    });
  });
}
