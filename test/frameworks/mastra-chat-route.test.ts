// The chatRoute alternative of docs/frameworks/mastra.md, as written: the example agent served by
// the real Mastra server with @mastra/ai-sdk's chatRoute (mastra/chat.ts, the page's code block),
// replayed with the vercel-ai preset and the page's config.yml (its URL pointed at this server), on
// Mastra's own fake model. Its own file: a second Mastra instance for the same agent, in its own worker.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeEventStream } from '../../src/agent/stream.js';
import { mastra } from './mastra/chat.js';
import { ranForReal } from './mastra/db.js';
import { startMastra } from './mastra/server.js';
import { refundLive, refundMocked, removeProjects, ROOT } from './support.js';

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
    await refundMocked(docsConfig(), 'chat-mocked', ranForReal);
  });

  it('live mode: no mocks, the tools run for real and are recorded as real calls', async () => {
    await refundLive(docsConfig(), 'chat-live', ranForReal);
  });

  // The page says the same agent gives the same reply on /stream and through a chatRoute: the step
  // before the tool call and the one after, a blank line between (decoded from the route's own
  // answer to useChat's body, no CLI run; mastra.test.ts runs the /stream side).
  it('a model that speaks before its tool call: both steps\' texts, a blank line between, as on /stream', async () => {
    const body = { id: 's1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Please look up order 1234' }] }] };
    const res = await fetch(`${base}/chat/support`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(decodeEventStream(await res.text())).toMatchObject({
      ok: true,
      value: { reply: 'Let me look that up.\n\nOrder 1234 is delivered.', toolCalls: [{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }] },
    });
  });
});
