// A fetch-style route handler (`POST(req: Request): Promise<Response>`, as Next.js app routes
// export it) served on node:http at 127.0.0.1, recording the bodies it received.

import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';

export function serveFetch(handler: (req: Request) => Promise<Response>, path: string): Promise<{ server: Server; url: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST') bodies.push(JSON.parse(text) as Record<string, unknown>);
      const response = await handler(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'POST' ? text : undefined }));
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      if (response.body === null) res.end();
      else Readable.fromWeb(response.body as never).pipe(res);
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    resolve({ server, url: `http://127.0.0.1:${address.port}${path}`, bodies });
  }));
}
