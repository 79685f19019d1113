// A real HTTP server on 127.0.0.1 (port 0) that answers from a script and records what it got.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export type Responder = (res: ServerResponse, req: Received) => void;

export interface TestServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Closes the connection without any answer. */
export const hangUp: Responder = (res) => {
  res.socket?.destroy();
};

/** Never answers. */
export const silence: Responder = () => undefined;

/** Serves the responders in order; the last one repeats. */
export async function startServer(responders: Responder[]): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(r);
      const responder = responders[Math.min(received.length - 1, responders.length - 1)];
      responder?.(res, r);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A test file's servers, each closed after the test that started it, and what else `closeAfter`
 * is given (a judge's client), closed before them. Call once at the file's top (it registers the
 * afterEach there).
 */
export function serversPerTest(): { serve: (...responders: Responder[]) => Promise<TestServer>; closeAfter: (close: () => Promise<void>) => void } {
  const servers: TestServer[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    async serve(...responders) {
      const s = await startServer(responders);
      servers.push(s);
      return s;
    },
    closeAfter: (close) => void closers.push(close),
  };
}
