// The embedded example agent (native protocol with the persona scripts' tool mocks, demo/agent.ts)
// and the demo judge (OpenAI-compatible, demo/judge.ts; the demo simulator, demo/simulator.ts, on its endpoint), on one loopback server with an ephemeral
// port. Deterministic rules, so the demo shows every verdict and drift value on every run. The
// judge is a keyword rule, not a model, and says so.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DemoAgent } from './agent.js';
import { judgeTurn } from './judge.js';
import { isSimulatorRequest, simulatorTurn } from './simulator.js';

export const DEMO_JUDGE_LABEL = 'demo judge (keyword rules, not a real model)';

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface DemoServer {
  agentUrl: string;
  judgeBaseUrl: string;
  close(): Promise<void>;
}

export async function startDemoServer(): Promise<DemoServer> {
  const agent = new DemoAgent();
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      if (req.method === 'POST' && req.url === '/api/chat') {
        const out = agent.handle(body);
        send(res, out.status, out.body);
      } else if (req.method === 'POST' && req.url === '/judge/v1/chat/completions') {
        // The demo simulator shares the judge's endpoint, as a simulator without its own section shares the judge's.
        send(res, 200, isSimulatorRequest(body) ? simulatorTurn(body) : judgeTurn(body));
      } else {
        send(res, 404, { error: 'not found' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    agentUrl: `http://127.0.0.1:${port}/api/chat`,
    judgeBaseUrl: `http://127.0.0.1:${port}/judge/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
