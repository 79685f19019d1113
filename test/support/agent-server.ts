// A tiny loopback agent for tests: a real node:http server on 127.0.0.1, port 0.
//
//   const agent = await startAgentServer((req) => ({ json: { reply: `echo ${String(req.json?.message)}` } }));
//   ... createHttpAgentClient({ ...config, url: agent.url }) ...
//   agent.requests      // every request received: method, path, headers, raw body, parsed json
//   agent.connections   // how many TCP connections were opened (keep-alive checks)
//   await agent.close() // also destroys connections that are still open or hanging
//
// The handler may return a response (`json` is serialised; `body` is sent raw; with `breakOff` the
// status, headers and body are sent and then the socket is cut, before the body's end; with `hold`
// they are sent and the answer is left open, never ended, until close()), 'hang' to
// never answer, or 'destroy' to cut the socket without a response. It may be async.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  /** 0-based index across the server's lifetime. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export type AgentReply =
  | { status?: number; headers?: Record<string, string>; json?: unknown; body?: string | Buffer; breakOff?: true; hold?: true }
  | 'hang'
  | 'destroy';

export type AgentHandler = (request: ReceivedRequest) => AgentReply | Promise<AgentReply>;

export interface AgentServer {
  url: string;
  requests: ReceivedRequest[];
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * The native protocol (docs/presets.md, "The native protocol"): welcome turns answer "Welcome",
 * message turns echo the message.
 */
export const nativeEcho: AgentHandler = (req) => {
  const body = (req.json ?? {}) as Record<string, unknown>;
  if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: [], ended: false } };
  return { json: { reply: `echo: ${String(body.message)}`, route: { conversation: 'echo', stage: 'reply' }, offTrack: [], ended: false } };
};

export async function startAgentServer(handler: AgentHandler = nativeEcho): Promise<AgentServer> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received: ReceivedRequest = {
        index: requests.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
      };
      requests.push(received);
      Promise.resolve(handler(received)).then(
        (reply) => send(res, reply),
        (err: unknown) => send(res, { status: 500, body: `test handler threw: ${String(err)}` }),
      );
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/chat`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: AgentReply): void {
  if (reply === 'hang') return;
  if (reply === 'destroy') {
    res.socket?.destroy();
    return;
  }
  const body = reply.body ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
  if (reply.breakOff === true) res.write(body, () => res.socket?.destroy());
  else if (reply.hold === true) res.write(body);
  else res.end(body);
}
