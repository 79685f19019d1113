// The chatRoute alternative of docs/frameworks/mastra.md, as written: the example agent served by
// the real Mastra server with @mastra/ai-sdk's chatRoute (mastra/chat.ts, the page's code block),
// replayed with the vercel-ai preset and the page's config.yml (its URL pointed at this server), on
// Mastra's own fake model. Its own file: a second Mastra instance for the same agent, in its own worker.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mastra } from './mastra/chat.js';
import { ranForReal } from './mastra/db.js';
import { startMastra } from './mastra/server.js';
import { checkStatuses, makeProject, persona, REFUND_MOCKS, refundScript, removeProjects, ROOT, runSuite } from './support.js';

let server: ServerType;
let base: string;
beforeAll(async () => {
  ({ server, base } = await startMastra(mastra));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await removeProjects();
});
beforeEach(() => {
  ranForReal.length = 0;
});

/** The page's config.yml block under "The alternative: a chatRoute", its URL line pointed at this server. */
function docsConfig(): string {
  const page = readFileSync(join(ROOT, 'docs', 'frameworks', 'mastra.md'), 'utf8');
  const section = page.slice(page.indexOf('## The alternative: a chatRoute'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/frameworks/mastra.md: no yaml block under "The alternative: a chatRoute"');
  const example = 'url: http://localhost:4111/chat/support';
  if (!block.includes(example)) throw new Error(`docs/frameworks/mastra.md: the chatRoute config has no "${example}" line`);
  return `${block.replace(example, `url: ${base}/chat/support`)}cost: { capUsd: 5 }\n`;
}

describe('Mastra chatRoute with the vercel-ai preset (docs/frameworks/mastra.md, "The alternative: a chatRoute")', () => {
  it('mocked mode: three turns with the whole history, the mocks reach the tools through requestContext, nothing run for real', async () => {
    const cwd = await makeProject({ config: docsConfig(), personas: { 'refund.yml': refundScript('chat-mocked', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'chat-mocked');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
    expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(ranForReal).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('live mode: no mocks, the tools run for real and are recorded as real calls', async () => {
    const cwd = await makeProject({ config: docsConfig(), personas: { 'refund.yml': refundScript('chat-live', '') } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'chat-live');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
    expect(ranForReal.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
    expect(run.code).toBe(0);
  });
});
