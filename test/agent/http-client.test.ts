import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { defaultConfig, OPENAI_CHAT_MAPPING } from '../../src/config.js';
import { AdaptiveLimiter } from '../../src/http/limiter.js';
import type { AgentConfig } from '../../src/config.js';
import type { AgentClient, Clock } from '../../src/types.js';
import { nativeEcho, startAgentServer } from '../support/agent-server.js';
import { clientCertServer, HANDSHAKE_FAILURE_CODE } from '../support/proxy-server.js';
import type { AgentHandler, AgentServer } from '../support/agent-server.js';
import { quotedAndSaid } from '../support/troubleshooting.js';
import { heldTimeout } from '../support/held-timeout.js';

/** A clock that records every requested sleep and never waits. */
function fakeClock(now = Date.parse('2026-01-01T00:00:00Z')): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => now, sleep: async (ms) => void sleeps.push(ms) };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function serve(handler?: AgentHandler): Promise<AgentServer> {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  return server;
}

function client(overrides: Partial<AgentConfig>, clock: Clock = fakeClock(), random = () => 0.5): AgentClient {
  const c = createHttpAgentClient({ ...defaultConfig().agent, ...overrides }, { clock, random });
  cleanups.push(() => c.close());
  return c;
}

const request = { session: 'sess-1', message: 'Can I get my money back?', persona: 'returning-customer' };

describe('native protocol', () => {
  it('opens the session with a welcome turn, then sends the message in the same session', async () => {
    const server = await serve((req) => {
      const body = req.json as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'welcome', stage: 'greeting' }, offTrack: ['early'], ended: false } };
      return { json: { reply: 'Within 30 days.', route: { conversation: 'refunds', stage: 'policy' }, offTrack: [{ reason: 'x' }], ended: true } };
    });
    const outcome = await client({ url: server.url }).converse(request);
    expect(outcome).toEqual({
      traceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      trace: { traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) },
      kind: 'replied',
      reply: 'Within 30 days.',
      route: { conversation: 'refunds', stage: 'policy' },
      offTrack: [{ reason: 'x' }],
      ended: true,
      turns: 2,
      // Where the welcome turn landed (shown by `agent-replay probe`'s route trace).
      welcome: { route: { conversation: 'welcome', stage: 'greeting' }, offTrack: ['early'] },
      // The fake clock stands still: both turns took 0 ms (measured: the "latency" tests below).
      timing: { latencyMs: 0, firstTokenMs: null },
      welcomeLatencyMs: 0,
      // The response has no toolCalls key: the message turn reports none (docs/traces.md, "Fixtures").
      toolCalls: null,
    });
    expect(server.requests.map((r) => [r.method, r.path, r.json])).toEqual([
      ['POST', '/chat', { session: 'sess-1', persona: 'returning-customer', start: true }],
      ['POST', '/chat', { session: 'sess-1', message: 'Can I get my money back?', persona: 'returning-customer' }],
    ]);
  });

  it('sends a null persona as null', async () => {
    const server = await serve();
    await client({ url: server.url }).converse({ ...request, persona: null });
    expect(server.requests[1]?.json).toEqual({ session: 'sess-1', message: 'Can I get my money back?', persona: null });
  });

  it('skips the welcome turn when there is no start step', async () => {
    const server = await serve();
    const outcome = await client({ url: server.url, start: null }).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'echo: Can I get my money back?', route: { conversation: 'echo', stage: 'reply' }, turns: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("sends a user and password of the URL as basic auth, as curl does, unless the headers give an Authorization", async () => {
    const server = await serve();
    const withUser = server.url.replace('http://', 'http://preview%40acme:p%3Ass@');
    await client({ url: withUser, start: null }).converse(request);
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('preview@acme:p:ss').toString('base64')}`);
    await client({ url: withUser, start: null, headers: { Authorization: 'Bearer own' } }).converse(request);
    expect(server.requests[1]?.headers.authorization).toBe('Bearer own');
  });

  it('sends JSON headers and the configured headers', async () => {
    const server = await serve();
    await client({ url: server.url, start: null, headers: { Authorization: 'Bearer secret-token', 'X-Tenant': 'acme' } }).converse(request);
    const headers = server.requests[0]?.headers;
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer secret-token',
      'x-tenant': 'acme',
    });
  });
});

/** A custom mapping that reads the reply at `reply` and nothing else. */
function replyOnly(body: AgentConfig['mapping']['body'], reply: string): AgentConfig['mapping'] {
  return { body, reply, conversation: null, stage: null, ended: null, offTrack: null, toolCalls: null, outcome: null, errors: null, absentToolCallsAreNone: false };
}

describe('other mappings', () => {
  it('speaks the openai-chat preset', async () => {
    const server = await serve((req) => {
      const body = req.json as { messages: { content: string }[] };
      return { json: { id: 'c1', choices: [{ index: 0, message: { role: 'assistant', content: `You said: ${body.messages[0]?.content}` } }] } };
    });
    const outcome = await client({ url: server.url, preset: 'openai-chat', model: 'gpt-4o-mini', mapping: OPENAI_CHAT_MAPPING, start: null }).converse(request);
    expect(outcome).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), trace: { traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) }, kind: 'replied', reply: 'You said: Can I get my money back?', route: null, offTrack: [], ended: false, turns: 1, timing: { latencyMs: 0, firstTokenMs: null }, toolCalls: [] });
    expect(server.requests[0]?.json).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Can I get my money back?' }],
      temperature: 0,
    });
  });

  it('speaks a Rasa-style REST channel with a custom mapping', async () => {
    const server = await serve((req) => {
      const body = req.json as { sender: string; message: string };
      return { json: [{ recipient_id: body.sender, text: `Hi ${body.sender}` }, { recipient_id: body.sender, text: 'second' }] };
    });
    const outcome = await client({
      url: server.url,
      start: null,
      mapping: replyOnly({ sender: '{{session}}', message: '{{message}}' }, '0.text'),
    }).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'Hi sess-1', route: null, turns: 1 });
    expect(server.requests[0]?.json).toEqual({ sender: 'sess-1', message: 'Can I get my money back?' });
  });

  it('renders each request from its own values: the bytes sent, fixture after fixture, and for a script on the same client', async () => {
    // The body template is read once per client (docs/performance.md): a later request must not send an earlier one's values.
    const server = await serve(() => ({ json: { text: 'ok' } }));
    const mapping = replyOnly(
      { id: '{{session}}', q: 'Q: {{message}} ({{persona}}/{{model}}){{unknown}}', '2': ['{{persona}}', 3, null, { m: '{{mocks}}', all: '{{messages}}' }], tools: '{{mocks}}', n: 'mocks={{mocks}}', ui: '{{uiMessages}}' },
      'text',
    );
    const c = client({ url: server.url, start: null, model: 'm-1', mapping });
    await c.converse(request);
    await c.converse({ session: 'sess-2', message: 'And "quoted"?', persona: null });
    const script = c.session({ session: 'sess-3', persona: 'p', mocks: [{ tool: 't', match: 'subset', output: 1 }] });
    await script.send('hi', 1);
    expect(server.requests.map((r) => r.body)).toEqual([
      '{"2":["returning-customer",3,null,{"all":[{"role":"user","content":"Can I get my money back?"}]}],"id":"sess-1","q":"Q: Can I get my money back? (returning-customer/m-1){{unknown}}","n":"mocks=","ui":[{"id":"sess-1-1","role":"user","parts":[{"type":"text","text":"Can I get my money back?"}]}]}',
      '{"2":[null,3,null,{"all":[{"role":"user","content":"And \\"quoted\\"?"}]}],"id":"sess-2","q":"Q: And \\"quoted\\"? (/m-1){{unknown}}","n":"mocks=","ui":[{"id":"sess-2-1","role":"user","parts":[{"type":"text","text":"And \\"quoted\\"?"}]}]}',
      '{"2":["p",3,null,{"m":[{"tool":"t","match":"subset","output":1}],"all":[{"role":"user","content":"hi"}]}],"id":"sess-3","q":"Q: hi (p/m-1){{unknown}}","tools":[{"tool":"t","match":"subset","output":1}],"n":"mocks=[{\\"tool\\":\\"t\\",\\"match\\":\\"subset\\",\\"output\\":1}]","ui":[{"id":"sess-3-1","role":"user","parts":[{"type":"text","text":"hi"}]}]}',
    ]);
  });
});

describe('retries', () => {
  it('retries a 500 and succeeds, sleeping a jittered backoff', async () => {
    let calls = 0;
    const server = await serve(() => (++calls === 1 ? { status: 500, body: 'boom' } : { json: { reply: 'ok' } }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null, backoffMs: 100 }, clock, () => 0.5).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok', turns: 1 });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([50]);
  });

  it('honours Retry-After on a 429', async () => {
    let calls = 0;
    const server = await serve(() => (++calls === 1 ? { status: 429, headers: { 'retry-after': '2' }, body: 'slow down' } : { json: { reply: 'ok' } }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok' });
    // The Retry-After and a jitter of up to backoffMs (250 x random 0.5), so refused requests do not return together.
    expect(clock.sleeps).toEqual([2125]);
  });

  it('a 429 halves the limit when it reads as too many in flight, and leaves it when it reads as a rate limit', async () => {
    const cases: [Record<string, string>, number[]][] = [
      [{}, [8, 4]],
      [{ 'retry-after': '0' }, [8, 4]],
      [{ 'retry-after-ms': '500' }, [8, 4]],
      [{ 'retry-after': '1' }, [8]],
      [{ 'retry-after-ms': '1500' }, [8]],
      [{ 'retry-after': '0', 'x-ratelimit-remaining-requests': '0' }, [8]],
      [{ RateLimit: 'limit=5, remaining=0, reset=1' }, [8]],
    ];
    for (const [headers, history] of cases) {
      let calls = 0;
      const server = await serve(() => (++calls === 1 ? { status: 429, headers, body: 'slow down' } : { json: { reply: 'ok' } }));
      // The limiter keeps the client's clock, as a run's does.
      const clock = fakeClock();
      const limiter = new AdaptiveLimiter(8, clock);
      const c = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null }, { clock, random: () => 0.5, limiter });
      cleanups.push(() => c.close());
      expect(await c.converse(request)).toMatchObject({ kind: 'replied', reply: 'ok' });
      expect(limiter.history, JSON.stringify(headers)).toEqual(history);
    }
  });

  it('honours retry-after-ms before Retry-After, as the OpenAI SDK does', async () => {
    let calls = 0;
    const server = await serve(() => (++calls === 1 ? { status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '2' }, body: 'slow down' } : { json: { reply: 'ok' } }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok' });
    // 1500 ms and a jitter of up to backoffMs (250 x random 0.5).
    expect(clock.sleeps).toEqual([1625]);
    // A 503 that spends a retry waits it too, without the jitter, as a Retry-After.
    calls = 0;
    const busy = await serve(() => (++calls === 1 ? { status: 503, headers: { 'retry-after-ms': '700' } } : { json: { reply: 'ok' } }));
    const clock2 = fakeClock();
    expect(await client({ url: busy.url, start: null }, clock2).converse(request)).toMatchObject({ kind: 'replied', reply: 'ok' });
    expect(clock2.sleeps).toEqual([700]);
  });

  it('gives up after retries + 1 attempts on a persistent 503, quoting the status and a short snippet', async () => {
    const server = await serve(() => ({ status: 503, body: `Service Unavailable ${'z'.repeat(500)}` }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null, retries: 2, backoffMs: 100 }, clock, () => 1 - Number.EPSILON).converse(request);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([99, 199]);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'http' });
    if (outcome.kind !== 'errored') throw new Error('expected errored');
    expect(outcome.error).toMatch(/^message turn: agent returned HTTP 503 after 3 attempts: Service Unavailable z+…$/);
    expect(outcome.error.length).toBeLessThanOrEqual('message turn: agent returned HTTP 503 after 3 attempts: '.length + 200);
  });

  it('retries the welcome turn too, honouring a Retry-After date', async () => {
    const clock = fakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const server = await serve((req) =>
      // A date is read against the answer's Date (the server's now; Node's own would be today's).
      req.index === 0 ? { status: 503, headers: { date: 'Thu, 01 Jan 2026 00:00:00 GMT', 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' } } : { json: { reply: 'ok' } },
    );
    const outcome = await client({ url: server.url }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok', turns: 2 });
    expect(server.requests.map((r) => (r.json as { start?: boolean }).start ?? false)).toEqual([true, true, false]);
    expect(clock.sleeps).toEqual([3000]);
  });

  it('a 429 whose Retry-After asks for longer than the time budget is given up at once, naming what it asked, not the 60 s cap', async () => {
    const server = await serve(() => ({ status: 429, headers: { 'retry-after': '3600' }, body: 'come back in an hour' }));
    const clock = fakeClock();
    // The default budget: timeoutMs 30000 x 3 attempts.
    const outcome = await client({ url: server.url, start: null }, clock).converse(request);
    // It waited the 60 s cap, sent the request again 59 minutes early, and then said the server asked for 60000 ms.
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(outcome).toMatchObject({
      kind: 'errored',
      error:
        "message turn: agent returned HTTP 429 after 1 attempt (rate limited: the server's Retry-After asks for 3,600,000 ms, more than the 90,000 ms left of the time budget of 90,000 ms, timeoutMs x attempts; given up at once instead of waiting): come back in an hour",
    });
    quotedAndSaid(outcome.kind === 'errored' ? outcome.error : '', "agent returned HTTP 429 after <n> attempts (rate limited: the server's Retry-After asks for <ms> ms, more than the <ms> ms left of the time budget ...)", { '<n> attempts': '1 attempt' });
    // Within the budget the wait stays capped at 60 s, as before (docs/presets.md, "Retries and timeouts").
    const soon = await serve((req) => (req.index === 0 ? { status: 429, headers: { 'retry-after': '75' } } : { json: { reply: 'ok' } }));
    const clock2 = fakeClock();
    expect(await client({ url: soon.url, start: null }, clock2).converse(request)).toMatchObject({ kind: 'replied', reply: 'ok' });
    expect(clock2.sleeps).toEqual([60_125]);
  });

  // A 5xx spends a retry, yet its retry is held to the time budget too: a 503 asking for 60 s was
  // waited and sent again twice, ending 120 s into a budget of 15 s (docs/configuration.md, "Adaptive concurrency").
  it("a 503 whose Retry-After would end past the time budget is given up at once, its body quoted, no retry sent past it", async () => {
    const server = await serve(() => ({ status: 503, headers: { 'retry-after': '60' }, body: 'down for maintenance' }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null, timeoutMs: 5000, retries: 2 }, clock).converse(request);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    // The body is kept though retries were left: the budget, not the retries, ended it.
    expect(outcome).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error:
        "message turn: agent returned HTTP 503 after 1 attempt (the server's Retry-After asks for 60,000 ms, more than the 15,000 ms left of the time budget of 15,000 ms, timeoutMs x attempts; given up at once instead of waiting: raise timeoutMs or retries to cover the wait): down for maintenance",
    });
  });

  // The throttled backoff (a 429 without Retry-After spends no retry) that would end past the time
  // budget is not begun: the turn is given up with the time spent and the wait that did not fit
  // (docs/troubleshooting.md, "The agent"; docs/configuration.md, "Adaptive concurrency").
  it('429s without a Retry-After until the next backoff would pass the time budget: given up, saying the time spent and the wait', async () => {
    const server = await serve(() => ({ status: 429, body: 'too many requests' }));
    const clock = fakeClock();
    // Budget 5000 ms x 2 attempts; backoffs at random 0.5: 2000, 4000, then 8000, past it. Concurrency 4: 3 free 429s.
    const outcome = await client({ url: server.url, start: null, timeoutMs: 5000, retries: 1, backoffMs: 4000 }, clock).converse(request);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([2000, 4000]);
    expect(outcome).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: agent returned HTTP 429 after 3 attempts (rate limited: 6,000 ms spent, waiting 8,000 ms more would pass the time budget of 10,000 ms, timeoutMs x attempts): too many requests',
    });
    quotedAndSaid(outcome.kind === 'errored' ? outcome.error : '', 'agent returned HTTP 429 after <n> attempts (rate limited: ... would pass the time budget of <ms> ms, timeoutMs x attempts)');
    // 429s that each take 29 s of a 30 s timeout: the time spent is past the budget before any wait.
    let t = 0;
    const slow = await serve(() => {
      t += 29_000;
      return { status: 429, body: 'too many requests' };
    });
    const moving: Clock & { sleeps: number[] } = { sleeps: [], now: () => t, sleep: async (ms) => void (moving.sleeps.push(ms), (t += ms)) };
    const late = await client({ url: slow.url, start: null, timeoutMs: 30_000, retries: 1 }, moving).converse(request);
    expect(slow.requests).toHaveLength(3);
    // It said "87,375 ms spent, waiting 500 ms more would pass the time budget of 60,000 ms": passed already.
    // The third attempt was sent at 58,375 ms, 1,625 ms before the budget's end, and had its whole
    // timeoutMs (the budget bounds when a retry is sent, not how long it runs): it said 87,375 ms
    // past a budget of 60,000 without why (docs/configuration.md, "Adaptive concurrency").
    expect(moving.sleeps).toEqual([125, 250]);
    expect(late).toMatchObject({
      kind: 'errored',
      error:
        'message turn: agent returned HTTP 429 after 3 attempts (rate limited: 87,375 ms spent, past the time budget of 60,000 ms, timeoutMs x attempts, which the last attempt ran past: sent with 1,625 ms of it left, it had its whole timeoutMs): too many requests',
    });
    quotedAndSaid(late.kind === 'errored' ? late.error : '', 'agent returned HTTP 429 after <n> attempts (rate limited: <ms> ms spent, past the time budget of <ms> ms, timeoutMs x attempts, which the last attempt ran past: ...)', { '<n> attempts': '3 attempts' });
  });

  it('counts a retry as it is sent: one an interrupted run stops while it waits for a slot is not counted', async () => {
    // One slot: the first session's 503 frees it for the second session, which hangs in it; the first one's retry waits for it.
    let hung: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const server = await serve((req) => {
      if ((req.json as { session: string }).session === 'a') return { status: 503, body: 'busy' };
      hung();
      return 'hang';
    });
    const interrupt = new AbortController();
    let retries = 0;
    let requests = 0;
    // One clock for the client and its limiter, as in a run: the retry's deadline is on it.
    const clock = fakeClock();
    const c = createHttpAgentClient(
      { ...defaultConfig().agent, url: server.url, start: null, retries: 2, backoffMs: 0 },
      { clock, random: () => 0.5, signal: interrupt.signal, limiter: new AdaptiveLimiter(1, clock), onRetry: () => void retries++, onRequest: () => void requests++ },
    );
    cleanups.push(() => c.close());
    const a = c.converse({ ...request, session: 'a' });
    const b = c.converse({ ...request, session: 'b' });
    await hanging;
    interrupt.abort();
    await Promise.all([a, b]);
    expect(server.requests.map((r) => (r.json as { session: string }).session)).toEqual(['a', 'b']);
    expect({ requests, retries }).toEqual({ requests: 2, retries: 0 });
  });

  // The budget is the turn's from when it was first sent: a first attempt that waited 25 s for a slot
  // left 5 s of a 30 s budget, and a Retry-After of 10 s gave the turn up (docs/configuration.md).
  it('the time budget counts from when the turn was first sent, not from its wait for a slot', async () => {
    const server = await serve((req) => (req.index === 0 ? { status: 429, headers: { 'retry-after': '10' }, body: 'slow down' } : { json: { reply: 'ok' } }));
    let t = 0;
    const clock: Clock = { now: () => t, sleep: async (ms) => void (t += ms) };
    const limiter = new AdaptiveLimiter(1, clock);
    const c = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, timeoutMs: 10_000, retries: 2 }, { clock, random: () => 0.5, limiter });
    cleanups.push(() => c.close());
    // The one slot is another turn's for 25 s of the 30 s budget (10000 ms x 3 attempts).
    const other = await limiter.acquire();
    const turn = c.converse(request);
    await new Promise((resolve) => setImmediate(resolve));
    t += 25_000;
    limiter.release(other, 'success');
    expect(await turn).toMatchObject({ kind: 'replied', reply: 'ok' });
    expect(server.requests).toHaveLength(2);
  });

  it('a 503 whose Retry-After is neither seconds nor a date waits the backoff, not 0', async () => {
    for (const value of ['-1', '1 2']) {
      const server = await serve((req) => (req.index === 0 ? { status: 503, headers: { 'retry-after': value } } : { json: { reply: 'ok' } }));
      const clock = fakeClock();
      expect(await client({ url: server.url, start: null, backoffMs: 100 }, clock).converse(request)).toMatchObject({ kind: 'replied', reply: 'ok' });
      // It was read as a date of 2001: a wait of 0, the retry at once.
      expect(clock.sleeps, value).toEqual([50]);
    }
  });

  it('does not retry a 400', async () => {
    const server = await serve(() => ({ status: 400, json: { error: 'bad request' } }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null, retries: 3 }, clock).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'http', error: 'message turn: agent returned HTTP 400 after 1 attempt: {"error":"bad request"}' });
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries a dropped connection', async () => {
    let calls = 0;
    const server = await serve(() => (++calls === 1 ? 'destroy' : { json: { reply: 'ok' } }));
    const clock = fakeClock();
    const outcome = await client({ url: server.url, start: null }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok' });
    expect(clock.sleeps).toHaveLength(1);
  });

  it('does not retry an answer that breaks off after its status: the agent had the turn (a JSON body or a stream)', async () => {
    const json = await serve(() => ({ body: '{"reply":"Within 30', breakOff: true }));
    const clock = fakeClock();
    const outcome = await client({ url: json.url, start: null, retries: 2 }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'network' });
    if (outcome.kind !== 'errored') throw new Error('expected errored');
    // In our words, not undici's ("other side closed").
    expect(outcome.error).toBe("message turn: the agent's answer (HTTP 200) broke off before its end, after 1 attempt: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn)");
    quotedAndSaid(outcome.error, "the agent's answer (HTTP 200) broke off before its end, after <n> attempts: the connection was closed (UND_ERR_SOCKET) (not retried: the agent had the turn)", { '<n> attempts': '1 attempt' });
    expect(json.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    const stream = await serve(() => ({ headers: { 'content-type': 'text/event-stream' }, body: 'data: {"choices":[{"delta":{"content":"Within"}}]}\n\n', breakOff: true }));
    const streamed = await client({ url: stream.url, start: null, retries: 2, stream: true }).converse(request);
    expect(streamed).toMatchObject({ kind: 'errored', errorKind: 'network', error: expect.stringContaining("the agent's answer (HTTP 200) broke off") });
    expect(stream.requests).toHaveLength(1);
  });

  it('says a connection the agent took and closed without answering as closed, not as unreachable, and retries it', async () => {
    // The agent reads the request, then closes (or resets) the connection: it was reached.
    for (const close of ['destroy', 'reset'] as const) {
      let requests = 0;
      const http = createHttpServer((req) => {
        requests++;
        req.resume();
        req.on('end', () => (close === 'reset' ? req.socket.resetAndDestroy() : req.socket.destroy()));
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
      const clock = fakeClock();
      const port = (http.address() as AddressInfo).port;
      const outcome = await client({ url: `http://127.0.0.1:${port}/chat`, start: null, retries: 2 }, clock).converse(request);
      expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'network' });
      if (outcome.kind !== 'errored') throw new Error('expected errored');
      // In our words, never Node's or undici's ("read ECONNRESET", "other side closed"); the address
      // when the error names it (undici's close does, Node's reset does not), kept as data too.
      const fix = "see the agent's log for a crash on the request, or a proxy in front of it that closes connections";
      expect(outcome.error).toBe(
        close === 'reset'
          ? `message turn: the agent closed the connection without answering (ECONNRESET), after 3 attempts; ${fix}`
          : `message turn: the agent at 127.0.0.1:${port} closed the connection without answering (UND_ERR_SOCKET), after 3 attempts; ${fix}`,
      );
      expect(outcome.address).toBe(close === 'reset' ? undefined : `127.0.0.1:${port}`);
      if (close === 'reset') quotedAndSaid(outcome.error, 'the agent closed the connection without answering (ECONNRESET), ...');
      else {
        quotedAndSaid(
          outcome.error,
          "the agent at 127.0.0.1:3000 closed the connection without answering (UND_ERR_SOCKET), after <n> attempts; see the agent's log for a crash on the request, or a proxy in front of it that closes connections",
          { '127.0.0.1:3000': `127.0.0.1:${port}` },
        );
      }
      expect(requests).toBe(3);
      expect(clock.sleeps).toHaveLength(2);
    }
  });

  it("says a port that answers something other than HTTP as answered, in our words, never llhttp's, with the address kept as data; not retried", async () => {
    // Another service on the agent's port (an SSH server): it answered, so not "could not reach", nor "Response does not match the HTTP/1.1 protocol".
    // It answers the same on a retry: one connection, not agent.retries + 1 (docs/troubleshooting.md, "The agent").
    const garbage = await rawServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    const outcome = await client({ url: `http://127.0.0.1:${garbage.port}/chat`, start: null, retries: 2 }).converse(request);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'network' });
    if (outcome.kind !== 'errored') throw new Error('expected errored');
    expect(outcome.error).toBe(`message turn: the agent at 127.0.0.1:${garbage.port} gave an answer that is not valid HTTP, after 1 attempt; something other than the agent's HTTP server answers there: check the port in agent-url (agent.url)`);
    quotedAndSaid(outcome.error, "the agent at 127.0.0.1:3000 gave an answer that is not valid HTTP, after 1 attempt; something other than the agent's HTTP server answers there: check the port in agent-url (agent.url)", { '127.0.0.1:3000': `127.0.0.1:${garbage.port}` });
    expect(outcome.address).toBe(`127.0.0.1:${garbage.port}`);
    expect(garbage.connections()).toBe(1);
  });

  it('says an answer whose headers are over the size read as answered, with what to look at; not retried', async () => {
    // undici gives up at 16 KB of headers (UND_ERR_HEADERS_OVERFLOW): the agent answered, so not "could not reach the agent: a connection error (...)".
    const big = await rawServer((socket) => socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nset-cookie: ${'a'.repeat(70_000)}\r\ncontent-length: 2\r\n\r\n{}`)));
    const outcome = await client({ url: `http://127.0.0.1:${big.port}/chat`, start: null, retries: 2 }).converse(request);
    if (outcome.kind !== 'errored') throw new Error('expected errored');
    expect(outcome.error).toBe(
      `message turn: the agent at 127.0.0.1:${big.port} gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW), after 1 attempt; see what makes the agent, or a proxy in front of it, send that many headers (a cookie set on every answer, a header that grows)`,
    );
    quotedAndSaid(
      outcome.error,
      'the agent at 127.0.0.1:3000 gave an answer with headers of more than 16 KB, the most read (UND_ERR_HEADERS_OVERFLOW), after 1 attempt; see what makes the agent, or a proxy in front of it, send that many headers (a cookie set on every answer, a header that grows)',
      { '127.0.0.1:3000': `127.0.0.1:${big.port}` },
    );
    expect(big.connections()).toBe(1);
  });

  it('says a server that answers the TLS handshake with an alert (it wants a client certificate) as answered, with what to check; not retried', async () => {
    // A TLS server that requires a client certificate, as a mutual-TLS gateway does: it answers, so not "could not reach the agent: a connection error (...)".
    const mtls = await clientCertServer();
    try {
      const outcome = await client({ url: `https://127.0.0.1:${mtls.port}/chat`, start: null, retries: 2 }).converse(request);
      expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'network' });
      if (outcome.kind !== 'errored') throw new Error('expected errored');
      expect(outcome.error).toBe(
        `message turn: the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure (${HANDSHAKE_FAILURE_CODE}); check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in agent-url (agent.url) is its https:// port (http:// for a plain HTTP one)`,
      );
      quotedAndSaid(
        outcome.error,
        'the agent answered the TLS handshake with an alert, after 1 attempt: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE); check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts (agent-replay offers TLS 1.2 and 1.3), and that the URL in agent-url (agent.url) is its https:// port (http:// for a plain HTTP one)',
        { ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: HANDSHAKE_FAILURE_CODE },
      );
      expect(mtls.connections()).toBe(1);
    } finally {
      await mtls.close();
    }
    // Another alert by its name: protocol_version (70), no TLS version in common.
    const version = await rawServer((socket) => socket.once('data', () => socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]))));
    const other = await client({ url: `https://127.0.0.1:${version.port}/chat`, start: null, retries: 1 }).converse(request);
    if (other.kind !== 'errored') throw new Error('expected errored');
    expect(other.error).toMatch(/^message turn: the agent answered the TLS handshake with an alert, after 1 attempt: protocol version \(ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION\); /);
    quotedAndSaid(other.error, 'protocol version (ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION)');
    expect(version.connections()).toBe(1);
  });

  it('reports a refused connection as a network error after retries', async () => {
    const port = await freePort();
    const clock = fakeClock();
    const outcome = await client({ url: `http://127.0.0.1:${port}/chat`, retries: 2 }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'errored', errorKind: 'network' });
    if (outcome.kind !== 'errored') throw new Error('expected errored');
    expect(outcome.error).toMatch(/^welcome turn: could not reach the agent after 3 attempts: .*ECONNREFUSED/);
    expect(clock.sleeps).toHaveLength(2);
  });
});

/**
 * A clock the loopback server moves: the handler sets `t` before it answers, so the client reads
 * exact times. `nextRead` resolves at the client's next reading (after it saw a chunk).
 */
function steppedClock(): Clock & { t: number; nextRead(): Promise<void> } {
  let waiters: (() => void)[] = [];
  const clock = {
    t: 1000,
    now(): number {
      const woken = waiters;
      waiters = [];
      // Woken after this read returns: the value read is the one set before the chunk was sent.
      const value = clock.t;
      queueMicrotask(() => woken.forEach((w) => w()));
      return value;
    },
    sleep: async () => undefined,
    nextRead: () => new Promise<void>((resolve) => void waiters.push(resolve)),
  };
  return clock;
}

describe('latency (docs/latency.md)', () => {
  it('measures each turn from the request sent to the last byte, welcome turn apart', async () => {
    const clock = steppedClock();
    const server = await serve((req) => {
      const body = req.json as Record<string, unknown>;
      clock.t += body.start === true ? 40 : 120;
      return nativeEcho(req);
    });
    const outcome = await client({ url: server.url }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', timing: { latencyMs: 120, firstTokenMs: null }, welcomeLatencyMs: 40 });
  });

  it('measures the attempt that answered, not the failed ones before it or the backoff', async () => {
    const clock = steppedClock();
    let calls = 0;
    const server = await serve(() => {
      clock.t += ++calls === 1 ? 5000 : 70;
      return calls === 1 ? { status: 503, body: 'busy' } : { json: { reply: 'ok' } };
    });
    const outcome = await client({ url: server.url, start: null, retries: 1 }, clock).converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'ok', timing: { latencyMs: 70, firstTokenMs: null } });
  });

  it('times a streamed reply to its first text delta, well before its last byte', async () => {
    const clock = steppedClock();
    const http = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void (async () => {
          clock.t += 50;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: {"type":"start"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"Within "}\n\n');
          await clock.nextRead();
          clock.t += 350;
          res.end('data: {"type":"text-delta","id":"t","delta":"30 days."}\n\ndata: {"type":"finish"}\n\n');
        })();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/chat`;
    const c = client({ url, start: null, stream: true }, clock);
    const outcome = await c.converse(request);
    expect(outcome).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', timing: { latencyMs: 400, firstTokenMs: 50 } });
    const turn = await c.session({ session: 'S', persona: null, mocks: [] }).send('again', 1);
    expect(turn).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', timing: { latencyMs: 400, firstTokenMs: 50 } });
  });
});

describe('latency of a streamed reply led by keep-alives (docs/latency.md)', () => {
  /** A server that sends `first`, waits for the client's next read of the clock, adds 300 ms, then sends `rest` and ends. */
  async function twoPart(clock: ReturnType<typeof steppedClock>, first: string, rest: string): Promise<string> {
    const http = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void (async () => {
          clock.t += 50;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(first);
          await clock.nextRead();
          clock.t += 300;
          res.end(rest);
        })();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}/chat`;
  }

  it('a reply of nothing but `data: ping` is timed to its first ping; pings before the text are not its first token', async () => {
    const only = steppedClock();
    const pings = await twoPart(only, ': keep-alive\n\ndata: ping\n\n', 'data: ping\n\ndata: [DONE]\n\n');
    expect(await client({ url: pings, start: null, stream: true }, only).converse(request)).toMatchObject({ kind: 'replied', reply: 'pingping', timing: { latencyMs: 350, firstTokenMs: 50 } });
    const led = steppedClock();
    const text = await twoPart(led, 'data: ping\n\n', 'data: Within 30 days.\n\ndata: ping\n\n');
    expect(await client({ url: text, start: null, stream: true }, led).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', timing: { latencyMs: 350, firstTokenMs: 350 } });
  });

  it('a reply whose only text event ends the body without a blank line is timed too', async () => {
    const plain = steppedClock();
    const last = await twoPart(plain, 'data: ping\n\n', 'data: Within 30 days.');
    expect(await client({ url: last, start: null, stream: true }, plain).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.', timing: { latencyMs: 350, firstTokenMs: 350 } });
  });
});

describe('errored replays', () => {
  it('times out on an agent that never answers, without retrying', async () => {
    // The turn's timeout fired once the server holds the request: a real 200 ms, then 600 ms, lost
    // the race to a loaded machine (a load of 24), which gave up before the server had recorded it.
    const { timer, fire, started } = heldTimeout();
    const server = await serve(() => {
      fire();
      return 'hang';
    });
    const clock = fakeClock();
    const c = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, timeoutMs: 5000, retries: 2 }, { clock, random: () => 0.5, timer });
    cleanups.push(() => c.close());
    const outcome = await c.converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'timeout', error: 'message turn: no answer from the agent within 5,000 ms' });
    expect(started).toEqual([5000]);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('reports invalid JSON with a snippet', async () => {
    const server = await serve(() => ({ body: '<html>Bad gateway</html>' }));
    const outcome = await client({ url: server.url, start: null }).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'invalid_json', error: 'message turn: response is not valid JSON: an HTML page reading "Bad gateway"' });
  });

  it('names a web page by its title instead of quoting its markup', async () => {
    const page = '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>404: This page could not be found</title><style>body{}</style></head>\n<body><h1>404</h1></body></html>';
    const notFound = await serve(() => ({ status: 404, body: page }));
    expect(await client({ url: notFound.url, start: null, retries: 0 }).converse(request)).toMatchObject({
      kind: 'errored',
      error: 'message turn: agent returned HTTP 404 after 1 attempt: an HTML page titled "404: This page could not be found"',
    });
    const spa = await serve(() => ({ body: '<!doctype html><html><head><script>var x = "<b>";</script></head><body><div id="root"></div></body></html>' }));
    expect(await client({ url: spa.url, start: null }).converse(request)).toMatchObject({ error: 'message turn: response is not valid JSON: an HTML page with no text' });
  });

  it('names the welcome turn when it fails', async () => {
    const server = await serve(() => ({ body: 'not json' }));
    const outcome = await client({ url: server.url }).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'invalid_json', error: 'welcome turn: response is not valid JSON: not json' });
    expect(server.requests).toHaveLength(1);
  });

  it('accepts an empty welcome body', async () => {
    const server = await serve((req) => ((req.json as { start?: boolean }).start ? { status: 204 } : { json: { reply: 'ok' } }));
    expect(await client({ url: server.url }).converse(request)).toMatchObject({ kind: 'replied', reply: 'ok', turns: 2 });
  });

  it('reports a conversation that ended during the welcome turn', async () => {
    const server = await serve(() => ({ json: { reply: 'Bye', ended: true } }));
    const outcome = await client({ url: server.url }).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'ended_in_welcome', error: 'conversation ended during the welcome turn; there is no reply', answered: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a missing reply with the path and what was found', async () => {
    const server = await serve(() => ({ json: { answer: 'wrong field' } }));
    const outcome = await client({ url: server.url, start: null }).converse(request);
    expect(outcome).toEqual({ kind: 'errored', errorKind: 'missing_reply', error: 'message turn: response has no string at "reply" (found nothing; the response is an object (keys: answer); its text may be at "answer")', answered: 1 });
  });

  it('never puts header values in error messages', async () => {
    const server = await serve(() => ({ status: 401, body: 'unauthorized' }));
    const outcome = await client({ url: server.url, start: null, headers: { Authorization: 'Bearer very-secret' } }).converse(request);
    expect(JSON.stringify(outcome)).not.toContain('very-secret');
  });

  it('refuses to be created without a URL', () => {
    expect(() => createHttpAgentClient({ ...defaultConfig().agent, url: null })).toThrow(/agent url is not configured/);
    expect(() => createHttpAgentClient({ ...defaultConfig().agent, url: 'ftp://x/?token=abc' })).toThrow(/http or https/);
  });

  it('resolves calls made after close as errored', async () => {
    const server = await serve();
    const c = createHttpAgentClient({ ...defaultConfig().agent, url: server.url });
    await c.close();
    await c.close();
    expect(await c.converse(request)).toEqual({ kind: 'errored', errorKind: 'internal', error: 'agent client is closed' });
  });
});

describe('content-encoding (RFC 9110: a request without Accept-Encoding accepts any)', () => {
  it('decodes a gzip, deflate or br answer, a stream too, as fetch would', async () => {
    const json = await serve(() => ({ headers: { 'content-encoding': 'gzip' }, body: gzipSync('{"reply":"Within 30 days."}') }));
    expect(await client({ url: json.url, start: null }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days.' });
    const deflated = await serve(() => ({ headers: { 'content-encoding': 'deflate' }, body: deflateSync('{"reply":"déjà"}') }));
    expect(await client({ url: deflated.url, start: null }).converse(request)).toMatchObject({ kind: 'replied', reply: 'déjà' });
    const events = 'data: {"choices":[{"delta":{"content":"Within 30 days €"}}]}\n\ndata: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const stream = await serve(() => ({ headers: { 'content-type': 'text/event-stream', 'content-encoding': 'br' }, body: brotliCompressSync(events) }));
    expect(await client({ url: stream.url, start: null, stream: true }).converse(request)).toMatchObject({ kind: 'replied', reply: 'Within 30 days €' });
  });

  it('reads deflate raw or zlib-wrapped, and a body cut before its trailer, as fetch does', async () => {
    // Servers send "deflate" both ways (RFC 1951 raw, or RFC 1950's zlib wrapper): fetch reads both.
    const raw = await serve(() => ({ headers: { 'content-encoding': 'deflate' }, body: deflateRawSync('{"reply":"raw"}') }));
    expect(await client({ url: raw.url, start: null }).converse(request)).toMatchObject({ kind: 'replied', reply: 'raw' });
    // A gzip body that ends cleanly without its 8-byte trailer: fetch gives what it holds.
    const whole = gzipSync('{"reply":"no trailer"}');
    const cut = await serve(() => ({ headers: { 'content-encoding': 'gzip' }, body: whole.subarray(0, whole.length - 8) }));
    expect(await client({ url: cut.url, start: null }).converse(request)).toMatchObject({ kind: 'replied', reply: 'no trailer' });
  });

  it('quotes a compressed error answer decoded', async () => {
    const server = await serve(() => ({ status: 401, headers: { 'content-encoding': 'gzip' }, body: gzipSync('{"error":"invalid token"}') }));
    expect(await client({ url: server.url, start: null }).converse(request)).toEqual({ kind: 'errored', errorKind: 'http', error: 'message turn: agent returned HTTP 401 after 1 attempt: {"error":"invalid token"}' });
  });

  it('says what is wrong with a coding it cannot decode, a body that is not what its coding says, or one that unpacks past the limit', async () => {
    const zstd = await serve(() => ({ headers: { 'content-encoding': 'zstd' }, body: 'whatever' }));
    const undecoded = await client({ url: zstd.url, start: null }).converse(request);
    expect(undecoded).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the agent\'s answer is encoded as "zstd" (its Content-Encoding), which agent-replay cannot decode: answer uncompressed, or with gzip, deflate or br',
    });
    quotedAndSaid(undecoded.kind === 'errored' ? undecoded.error : '', 'the agent\'s answer is encoded as "zstd" (its Content-Encoding), which agent-replay cannot decode ...');
    const lying = await serve(() => ({ headers: { 'content-encoding': 'gzip' }, body: '{"reply":"plain"}' }));
    expect(await client({ url: lying.url, start: null, retries: 2 }).converse(request)).toEqual({
      kind: 'errored',
      errorKind: 'http',
      error: 'message turn: the agent\'s answer says it is encoded as gzip, but it is not (incorrect header check)',
    });
    expect(lying.requests).toHaveLength(1);
    // 9 MiB of spaces is a 9 KiB gzip body: the decoded bytes are held to the limit too.
    const bomb = await serve(() => ({ headers: { 'content-encoding': 'gzip' }, body: gzipSync(`{"reply":"x"${' '.repeat(9 * 1024 * 1024)}}`) }));
    expect(await client({ url: bomb.url, start: null }).converse(request)).toEqual({ kind: 'errored', errorKind: 'http', error: 'message turn: agent response is larger than 8 MiB, the most agent-replay reads of one answer (a fixed limit, not a setting)' });
  });
});

describe('connections', () => {
  it('reuses one keep-alive connection across sequential conversations', async () => {
    const server = await serve();
    const c = client({ url: server.url, concurrency: 4 });
    for (let i = 0; i < 20; i++) {
      const outcome = await c.converse({ ...request, session: `s-${i}` });
      expect(outcome).toMatchObject({ kind: 'replied', turns: 2 });
    }
    expect(server.requests).toHaveLength(40);
    // undici's pool marks a connection free on its 'drain' event, a tick after the body is read,
    // so a turn sent immediately after the previous one may open a second connection; then the
    // two are reused for all 40 requests.
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('reuses the connection after error responses', async () => {
    const server = await serve((req) => (req.index % 2 === 0 ? { status: 500, body: 'x'.repeat(10_000) } : { json: { reply: 'ok' } }));
    const c = client({ url: server.url, start: null, retries: 1 });
    for (let i = 0; i < 10; i++) expect(await c.converse(request)).toMatchObject({ kind: 'replied' });
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('runs concurrency conversations in parallel on at most concurrency connections', async () => {
    // The server holds every request until four are in flight at once: no timers, no sleeping.
    let inFlight = 0;
    let release: () => void = () => undefined;
    const allIn = new Promise<void>((resolve) => (release = resolve));
    const server = await serve(async (req) => {
      if (++inFlight === 4) release();
      await allIn;
      return { json: { reply: `r${req.index}` } };
    });
    const c = client({ url: server.url, start: null, concurrency: 4 });
    const outcomes = await Promise.all(Array.from({ length: 4 }, (_, i) => c.converse({ ...request, session: `s-${i}` })));
    expect(outcomes.every((o) => o.kind === 'replied')).toBe(true);
    expect(server.connections).toBe(4);
  });
});

/** A TCP server on 127.0.0.1 that answers as `onSocket` does (not HTTP), counting the connections it gets; closed after the test. */
async function rawServer(onSocket: (socket: Socket) => void): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
