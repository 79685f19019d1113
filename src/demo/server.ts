// The embedded example agent (native protocol) and the demo judge (OpenAI-compatible), on one
// loopback server with an ephemeral port. Deterministic rules, so the demo shows every verdict
// and drift value on every run. The judge is a keyword rule, not a model, and says so.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEMO_JUDGE_LABEL = 'demo judge (keyword rules, not a real model)';

interface Turn {
  reply: string;
  route: { conversation: string; stage: string };
  ended?: boolean;
  status?: number;
}

const WELCOME: Turn = { reply: 'Welcome to Example Outfitters! How can I help?', route: { conversation: 'welcome', stage: 'greeting' } };

/** The agent's answers, keyed by the exact user message. */
const ANSWERS: Record<string, Turn> = {
  'Can I get my money back?': {
    reply: 'Yes: you can return anything within 30 days for a full refund.',
    route: { conversation: 'refunds', stage: 'policy' },
  },
  'How long is the warranty?': {
    reply: 'Our warranty covers manufacturing defects for one year.',
    route: { conversation: 'warranty', stage: 'terms' },
  },
  'When are you open?': {
    reply: 'We are open Monday to Saturday, 9:00 to 18:00.',
    route: { conversation: 'store-info', stage: 'hours' },
  },
  'Where is your nearest store?': {
    reply: 'Our flagship store is at Torstraße 1 in Berlin.',
    route: { conversation: 'store-info', stage: 'locator' },
  },
  'Do you have a discount code for me?': {
    reply: 'We do not hand out codes in chat, but our newsletter has seasonal offers.',
    route: { conversation: 'sales', stage: 'offers' },
  },
  hello: { reply: 'Welcome back! What can I do for you today?', route: { conversation: 'welcome', stage: 'greeting' } },
  'Do you sell hiking boots?': {
    reply: 'Yes, we stock hiking boots from three brands.',
    route: { conversation: 'catalogue', stage: 'search' },
  },
  'aaaa?': { reply: `${'a'.repeat(40)}!`, route: { conversation: 'fallback', stage: 'echo' } },
  'My parcel arrived broken.': {
    reply: 'I am so sorry to hear that. I can send a replacement today or refund you, whichever you prefer.',
    route: { conversation: 'complaints', stage: 'resolution' },
  },
  'What do you think of your competitors?': {
    reply: 'Every shop has its strengths; ours is free repairs for life.',
    route: { conversation: 'smalltalk', stage: 'opinion' },
  },
  'Check my order status': {
    reply: '',
    route: { conversation: 'orders', stage: 'lookup' },
    status: 503,
  },
};

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

function agentTurn(body: Record<string, unknown>): { status: number; body: unknown } {
  if (body.start === true) {
    // A persona the shop has blocked: the conversation ends during the welcome turn.
    if (body.persona === 'blocked-customer') {
      return { status: 200, body: { reply: 'This conversation has been closed.', route: { conversation: 'welcome', stage: 'closed' }, offTrack: [], ended: true } };
    }
    return { status: 200, body: { ...WELCOME, offTrack: [], ended: false } };
  }
  const message = typeof body.message === 'string' ? body.message : '';
  const turn = ANSWERS[message];
  if (turn === undefined) {
    return { status: 200, body: { reply: "Sorry, I didn't catch that.", route: { conversation: 'fallback', stage: 'unknown' }, offTrack: ['unrecognised'], ended: false } };
  }
  if (turn.status !== undefined) return { status: turn.status, body: { error: 'order service unavailable' } };
  return { status: 200, body: { reply: turn.reply, route: turn.route, offTrack: [], ended: false } };
}

/**
 * Scores by keyword: a reply that says sorry scores 0.9, any other 0.2. A criterion that asks for
 * an opinion gets prose with no score back, to show a judge answer that cannot be used.
 */
function judgeTurn(body: Record<string, unknown>): unknown {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const criterion = /Criterion:\n([^\n]*)/.exec(text)?.[1] ?? '';
  const reply = /<reply>\n([\s\S]*)\n<\/reply>/.exec(text)?.[1] ?? '';
  let content: string;
  if (/opinion/i.test(criterion)) {
    content = 'I think this reply is rather diplomatic overall, but I would not want to put a number on it.';
  } else {
    content = JSON.stringify(
      /\bsorry\b/i.test(reply)
        ? { score: 0.9, rationale: 'The reply apologises and offers a concrete remedy.' }
        : { score: 0.2, rationale: 'The reply does not acknowledge the problem.' },
    );
  }
  return { id: 'demo', object: 'chat.completion', model: 'demo-judge', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}

export interface DemoServer {
  agentUrl: string;
  judgeBaseUrl: string;
  close(): Promise<void>;
}

export async function startDemoServer(): Promise<DemoServer> {
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      if (req.method === 'POST' && req.url === '/api/chat') {
        const out = agentTurn(body);
        send(res, out.status, out.body);
      } else if (req.method === 'POST' && req.url === '/judge/v1/chat/completions') {
        send(res, 200, judgeTurn(body));
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
