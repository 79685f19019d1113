// The real Mastra server for the example agent (mastra/index.ts, the file docs/frameworks/mastra.md
// shows): Mastra's Hono adapter (@mastra/hono MastraServer, the routes `mastra dev` serves under
// /api) on @hono/node-server, on 127.0.0.1.

import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { MastraServer } from '@mastra/hono';
import { Hono } from 'hono';
import type { Mastra } from '@mastra/core';
import { mastra as example } from './index.js';

/** Serves a Mastra instance: the example agent's (mastra/index.ts) unless another is given (mastra/chat.ts, with a chatRoute). */
export async function startMastra(mastra: Mastra = example): Promise<{ server: ServerType; base: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const app = new Hono();
  // What the agent received, for the history assertions.
  app.use('*', async (c, next) => {
    if (c.req.method === 'POST') bodies.push((await c.req.raw.clone().json()) as Record<string, unknown>);
    await next();
  });
  await new MastraServer({ app: app as never, mastra }).init();
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve({ server, base: `http://127.0.0.1:${info.port}`, bodies }));
  });
}
