// Token usage read from each preset's responses (docs/latency.md, "Usage"), against one loopback
// server for the file that answers each path in a vendor's wire format. Shapes from the SDK types:
// npm `openai` (CompletionUsage, ResponseUsage; chunks with stream_options.include_usage),
// `@anthropic-ai/sdk` (Usage, MessageDeltaUsage), `@langchain/core` (UsageMetadata) and `ai` 5
// (a UI message stream's finish part carrying the route's messageMetadata).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { observeTurn, responseOnly } from '../../src/agent/observe.js';
import { readUsage } from '../../src/agent/usage.js';
import { scriptUsagePartial } from '../../src/evaluate/usage.js';
import { toTurn } from '../../src/replay/turns.js';
import { resolveConfigFile } from '../../src/suite/config-file.js';
import type { AgentClient, Clock } from '../../src/types.js';

type Reply = { type: string; body: string };
const sse = (events: unknown[]): Reply => ({ type: 'text/event-stream', body: events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('') });
const json = (body: unknown): Reply => ({ type: 'application/json', body: JSON.stringify(body) });

/** What each path answers; `/welcome-*` paths are never posted to (the welcome turn goes to agent.url too). */
const ROUTES: Record<string, (body: Record<string, unknown>) => Reply> = {
  '/chat': () => json({ choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 } }),
  '/chat-stream': () =>
    sse([
      { choices: [{ index: 0, delta: { content: 'h' } }], usage: null },
      { choices: [{ index: 0, delta: { content: 'i' }, finish_reason: 'stop' }], usage: null },
      { choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } },
      '[DONE]',
    ]),
  '/chat-none': () => json({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }),
  '/chat-bad': () => json({ choices: [{ message: { role: 'assistant', content: 'hi' } }], usage: { prompt_tokens: 'twelve', completion_tokens: 3 } }),
  '/responses': () =>
    json({ output: [{ type: 'message', content: [{ type: 'output_text', text: 'hi' }] }], usage: { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 25 } }),
  '/responses-stream': () =>
    sse([
      { type: 'response.output_text.delta', delta: 'hi' },
      { type: 'response.completed', response: { output: [], usage: { input_tokens: 21, output_tokens: 6, total_tokens: 27 } } },
    ]),
  '/anthropic': () =>
    json({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 10, output_tokens: 4, cache_creation_input_tokens: 100, cache_read_input_tokens: 50 } }),
  '/anthropic-stream': () =>
    sse([
      { type: 'message_start', message: { type: 'message', content: [], usage: { input_tokens: 25, output_tokens: 1, cache_creation_input_tokens: null, cache_read_input_tokens: 5 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 15, input_tokens: null } },
      { type: 'message_stop' },
    ]),
  '/langgraph': () =>
    json({
      messages: [
        { type: 'human', content: 'earlier' },
        { type: 'ai', content: 'earlier reply', usage_metadata: { input_tokens: 1000, output_tokens: 1000, total_tokens: 2000 } },
        { type: 'human', content: 'now' },
        { type: 'ai', content: '', tool_calls: [{ name: 'find', args: {}, id: 'c1' }], usage_metadata: { input_tokens: 40, output_tokens: 8, total_tokens: 48 } },
        { type: 'tool', content: 'found', tool_call_id: 'c1' },
        { type: 'ai', content: 'done', usage_metadata: { input_tokens: 60, output_tokens: 12, total_tokens: 72 } },
      ],
    }),
  '/vercel': () =>
    sse([
      { type: 'start', messageId: 'm1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'hi' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: 'stop', messageMetadata: { usage: { inputTokens: 33, outputTokens: 11, totalTokens: 44 } } },
      '[DONE]',
    ]),
  // AI SDK 7's LanguageModelUsage with a count the provider did not give: `inputTokens: undefined`,
  // which JSON drops (the details' undefined counts too).
  '/vercel-partial': () =>
    sse([
      { type: 'start' },
      { type: 'text-delta', id: 't', delta: 'hi' },
      { type: 'finish', messageMetadata: { usage: { inputTokenDetails: {}, outputTokens: 11, outputTokenDetails: { textTokens: 11 } } } },
      '[DONE]',
    ]),
  // ... and with no count at all.
  '/vercel-uncounted': () =>
    sse([{ type: 'start' }, { type: 'text-delta', id: 't', delta: 'hi' }, { type: 'finish', messageMetadata: { usage: { inputTokenDetails: {}, outputTokenDetails: {} } } }, '[DONE]']),
  '/vercel-none': () => sse([{ type: 'start' }, { type: 'text-delta', id: 't', delta: 'hi' }, { type: 'finish' }, '[DONE]']),
  '/native-welcome-bad': (body) =>
    body.start === true ? json({ reply: 'Welcome', route: null, usage: { tokens: 5 } }) : json({ reply: `echo ${String(body.message)}`, route: null, usage: { inputTokens: 9, outputTokens: 4 } }),
  '/native': (body) =>
    body.start === true
      ? json({ reply: 'Welcome', route: null, usage: { inputTokens: 3, outputTokens: 2 } })
      : json({ reply: `echo ${String(body.message)}`, route: null, usage: { inputTokens: 9, outputTokens: 4 } }),
};

let base = '';
let server: ReturnType<typeof createServer>;
beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = ROUTES[req.url ?? ''];
      const reply = route ? route(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : json({ error: 'no such path' });
      res.writeHead(route ? 200 : 404, { 'content-type': reply.type });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const clock: Clock = { now: () => 0, sleep: async () => undefined };

async function withClient<T>(agent: Record<string, unknown>, use: (c: AgentClient, warnings: string[]) => Promise<T>): Promise<T> {
  const resolved = resolveConfigFile(null, 'config.yml', { agent: { start: false, retries: 0, ...agent, url: `${base}${String(agent.url)}` } }, {});
  expect(resolved.errors).toEqual([]);
  const warnings: string[] = [];
  const c = createHttpAgentClient(resolved.config!.agent, { clock, random: () => 0, onWarning: (w) => warnings.push(w) });
  try {
    return await use(c, warnings);
  } finally {
    await c.close();
  }
}

const request = { session: 's1', message: 'Where is my order?', persona: null };

async function usageOf(agent: Record<string, unknown>): Promise<unknown> {
  return withClient(agent, async (c) => {
    const outcome = await c.converse(request);
    expect(outcome.kind).toBe('replied');
    return outcome.kind === 'replied' ? (outcome.usage ?? null) : undefined;
  });
}

describe('token usage from every preset', () => {
  it('openai-chat: usage {prompt_tokens, completion_tokens}, and the last chunk of a stream asked with include_usage', async () => {
    expect(await usageOf({ url: '/chat', preset: 'openai-chat', model: 'm' })).toEqual({ inputTokens: 12, outputTokens: 30 });
    expect(await usageOf({ url: '/chat-stream', preset: 'openai-chat', model: 'm', stream: true })).toEqual({ inputTokens: 7, outputTokens: 2 });
  });

  it('openai-responses: usage {input_tokens, output_tokens}, streamed on response.completed', async () => {
    expect(await usageOf({ url: '/responses', preset: 'openai-responses', model: 'm' })).toEqual({ inputTokens: 20, outputTokens: 5 });
    expect(await usageOf({ url: '/responses-stream', preset: 'openai-responses', model: 'm', stream: true })).toEqual({ inputTokens: 21, outputTokens: 6 });
  });

  it('anthropic-messages: cache reads and writes count as input; a stream takes message_start, then message_delta cumulative counts', async () => {
    expect(await usageOf({ url: '/anthropic', preset: 'anthropic-messages', model: 'm' })).toEqual({ inputTokens: 160, outputTokens: 4 });
    // 25 input + 5 cache read from message_start (a null input_tokens in the delta leaves them); 15 output from the delta.
    expect(await usageOf({ url: '/anthropic-stream', preset: 'anthropic-messages', model: 'm', stream: true })).toEqual({ inputTokens: 30, outputTokens: 15 });
  });

  it("langgraph: the sum of the turn's AI messages' usage_metadata (messages before the user's last message are not this turn's)", async () => {
    expect(await usageOf({ url: '/langgraph', preset: 'langgraph', assistantId: 'agent' })).toEqual({ inputTokens: 100, outputTokens: 20 });
  });

  it('vercel-ai: the usage the route puts in the finish part message metadata; none without it', async () => {
    expect(await usageOf({ url: '/vercel', preset: 'vercel-ai' })).toEqual({ inputTokens: 33, outputTokens: 11 });
    expect(await usageOf({ url: '/vercel-none', preset: 'vercel-ai' })).toBeNull();
  });

  it('vercel-ai: an AI SDK 7 usage without a count counts the one it has; with neither, none, and no warning', async () => {
    await withClient({ url: '/vercel-partial', preset: 'vercel-ai' }, async (c, warnings) => {
      const outcome = await c.converse(request);
      expect(outcome.kind === 'replied' ? outcome.usage : outcome).toEqual({ inputTokens: 0, outputTokens: 11 });
      expect(warnings).toEqual([]);
    });
    await withClient({ url: '/vercel-uncounted', preset: 'vercel-ai' }, async (c, warnings) => {
      const outcome = await c.converse(request);
      expect(outcome).toMatchObject({ kind: 'replied', reply: 'hi' });
      expect(outcome.kind === 'replied' && 'usage' in outcome).toBe(false);
      expect(warnings).toEqual([]);
    });
  });

  it('native: usage {inputTokens, outputTokens}; a fixture sums its welcome and message turns, a session keeps each turn', async () => {
    expect(await usageOf({ url: '/native', start: true })).toEqual({ inputTokens: 12, outputTokens: 6 });
    await withClient({ url: '/native', start: true }, async (c) => {
      const session = c.session({ session: 's', persona: null, mocks: [] });
      const welcome = await session.welcome();
      const first = await session.send('one', 1);
      expect([welcome?.kind === 'replied' ? welcome.usage : 'errored', first.kind === 'replied' ? first.usage : 'errored']).toEqual([
        { inputTokens: 3, outputTokens: 2 },
        { inputTokens: 9, outputTokens: 4 },
      ]);
    });
  });

  it("a session's welcome turn whose usage is of a shape not read says so, and its recorded turn too; one that reports none does not", async () => {
    // Read as none, it left the script's tokens the message turns' alone, not marked partial (docs/latency.md, "Usage").
    await withClient({ url: '/native-welcome-bad', start: true }, async (c, warnings) => {
      const session = c.session({ session: 's', persona: null, mocks: [] });
      const welcome = await session.welcome();
      const first = await session.send('one', 1);
      if (welcome?.kind !== 'replied' || first.kind !== 'replied') throw new Error('a turn errored');
      expect([welcome.usage ?? null, welcome.usageUnread]).toEqual([null, true]);
      expect([first.usage, first.usageUnread]).toEqual([{ inputTokens: 9, outputTokens: 4 }, undefined]);
      const turns = [toTurn(0, null, welcome, 0, (t) => t), toTurn(1, 'one', first, 0, (t) => t)];
      expect(turns.map((t) => [t.usage, t.usageUnread])).toEqual([
        [null, true],
        [{ inputTokens: 9, outputTokens: 4 }, undefined],
      ]);
      expect(scriptUsagePartial(turns)).toBe(true);
      expect(warnings).toHaveLength(1);
      // A script's welcome turn, named as its errors name it.
      expect(warnings[0]).toContain('turn 0 (welcome): the agent\'s response reports token usage in a shape agent-replay does not read (found an object with tokens)');
      // Its spans' tokens, when a span reader finds some, are the turn's: it is no longer unread.
      const fromSpans = { toolCalls: null, errors: [], usage: { inputTokens: 3, outputTokens: 1 }, latencyMs: null };
      const spanned = await observeTurn(welcome, { beforeSend: () => undefined, afterReply: async () => fromSpans });
      expect(spanned.kind === 'replied' ? [spanned.usage, spanned.usageUnread] : spanned).toEqual([{ inputTokens: 3, outputTokens: 1 }, undefined]);
      const kept = await observeTurn(welcome, responseOnly);
      expect(kept.kind === 'replied' ? [kept.usage ?? null, kept.usageUnread] : kept).toEqual([null, true]);
    });
    await withClient({ url: '/chat-none', preset: 'openai-chat', model: 'm' }, async (c) => {
      const turn = await c.session({ session: 's', persona: null, mocks: [] }).send('one', 1);
      expect(turn.kind === 'replied' && 'usageUnread' in turn).toBe(false);
    });
  });

  it('no usage reported: the outcome has none (and no warning)', async () => {
    await withClient({ url: '/chat-none', preset: 'openai-chat', model: 'm' }, async (c, warnings) => {
      const outcome = await c.converse(request);
      expect(outcome).toMatchObject({ kind: 'replied', reply: 'hi' });
      expect(outcome.kind === 'replied' && 'usage' in outcome).toBe(false);
      expect(warnings).toEqual([]);
    });
  });

  it('a malformed usage is ignored: the turn still replies, and one warning names what was found, however many turns', async () => {
    await withClient({ url: '/chat-bad', preset: 'openai-chat', model: 'm' }, async (c, warnings) => {
      const a = await c.converse(request);
      const b = await c.converse(request);
      expect([a, b].map((o) => [o.kind, o.kind === 'replied' ? (o.usage ?? null) : 'errored'])).toEqual([
        ['replied', null],
        ['replied', null],
      ]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('message turn: the agent\'s response reports token usage in a shape agent-replay does not read (found an object with prompt_tokens, completion_tokens)');
      expect(warnings[0]).toContain('docs/latency.md');
    });
  });
});

describe('readUsage', () => {
  it.each([
    [{ inputTokens: 1, outputTokens: 2 }, { kind: 'usage', usage: { inputTokens: 1, outputTokens: 2 } }],
    [{ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, { kind: 'usage', usage: { inputTokens: 0, outputTokens: 0 } }],
    [null, { kind: 'none' }],
    [undefined, { kind: 'none' }],
    [{ inputTokens: -1, outputTokens: 2 }, { kind: 'malformed', found: 'an object with inputTokens, outputTokens' }],
    [{ input_tokens: 1.5, output_tokens: 2 }, { kind: 'malformed', found: 'an object with input_tokens, output_tokens' }],
    // AI SDK 7's LanguageModelUsage: each count `number | undefined` (JSON drops an undefined one).
    [{ outputTokens: 7, inputTokenDetails: {}, outputTokenDetails: {} }, { kind: 'usage', usage: { inputTokens: 0, outputTokens: 7 } }],
    [{ inputTokens: 5, inputTokenDetails: { cacheReadTokens: 2 }, outputTokenDetails: {}, totalTokens: 5 }, { kind: 'usage', usage: { inputTokens: 5, outputTokens: 0 } }],
    [{ inputTokens: null, outputTokens: 3 }, { kind: 'usage', usage: { inputTokens: 0, outputTokens: 3 } }],
    [{ inputTokenDetails: {}, outputTokenDetails: {} }, { kind: 'none' }],
    [{ inputTokenDetails: {}, outputTokenDetails: {}, totalTokens: 12 }, { kind: 'none' }],
    [{ inputTokens: 'five', outputTokens: 3 }, { kind: 'malformed', found: 'an object with inputTokens, outputTokens' }],
    [{ prompt_tokens: 4 }, { kind: 'malformed', found: 'an object with prompt_tokens' }],
    [{ totalTokens: 10 }, { kind: 'malformed', found: 'an object with totalTokens' }],
    [{}, { kind: 'malformed', found: 'an empty object' }],
    ['12 tokens', { kind: 'malformed', found: 'a string' }],
  ])('%j -> %j', (value, expected) => {
    expect(readUsage(value)).toEqual(expected);
  });
});
