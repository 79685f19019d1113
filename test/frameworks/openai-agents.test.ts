// agent-replay against a real OpenAI Agents SDK route (Agent, function tools wrapped by
// mockAgentsTool, a Model implementation with no network) answering with the SDK's own items in
// the Responses shape; preset openai-responses with a body that adds {{mocks}}, through the CLI.

import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkStatuses, fixture, helloAndCrash, LOOK_UP_FIXTURE, makeProject, persona, probeOrder, REFUND_MOCKS, refundLive, refundMocked, refundScript, refundUnmocked, refundWrong, removeProjects, runSuite, streamedOrder } from './support.js';
import { LIST_REPLY, ranForReal, startRoute } from './openai-agents/route.js';
import { decodeEventStream, parseEventStream } from '../../src/agent/stream.js';
import { POST } from './openai-agents/agent-route.js';
import { ranForReal as ranForRealDocs } from './openai-agents/db.js';
import { serveFetch } from './vercel-ai/serve-fetch.js';

let server: Server;
let url: string;
beforeAll(async () => {
  ({ server, url } = await startRoute());
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await removeProjects();
});
beforeEach(() => {
  ranForReal.length = 0;
});

const config = (extra = '') => `agent:
  url: ${url}
  preset: openai-responses
  model: scripted
  request:
    body: { model: "{{model}}", input: "{{messages}}", store: false, mocks: "{{mocks}}" }
  concurrency: 1
  retries: 0
${extra}cost: { capUsd: 5 }
`;

describe('OpenAI Agents SDK route', () => {
  it('mocked mode: three turns with the whole history, tools answered from the run context mocks', async () => {
    // The mock's output reaches the SDK as JSON text (as it passes tool results on), read back as the object.
    await refundMocked(config(), 'refund-mocked', ranForReal);
  });

  it('live mode: no mocks, the function tools run for real, recorded as real calls, not errors', async () => {
    // The SDK's function_call_result holds the tool's JSON text: read back as the object.
    await refundLive(config(), 'refund-live', ranForReal);
  });

  it('mocked mode: a call no mock answers errors the script (unmocked tool), the real tool not run', async () => {
    await refundUnmocked(config(), 'refund-unmocked', ranForReal);
  });

  it('toolCalled / toolNotCalled fail on what the agent did', async () => {
    await refundWrong(config(), '  toolCalled: [ { tool: issue_refund, input: { orderId: "9" } } ]\n  toolNotCalled: [ { tool: find_order, input: { orderId: "1234" } } ]\n');
  });

  // The SDK's text stream cuts a reply of several lines into chunks that hold newlines: each line of a
  // chunk on its own data: line reads back whole; the chunks written as one data: line each would lose
  // the lines after every newline, which agent-replay says rather than recording the reply short.
  it('streamed: a reply of several lines arrives whole; written one data: line per chunk, the lost lines are said', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: [{ role: 'user', content: 'list my order' }], stream: true }) });
    const body = await res.text();
    expect(decodeEventStream(body)).toEqual({ ok: true, value: { reply: LIST_REPLY, toolCalls: null } });
    const chunks = parseEventStream(body).map((e) => e.data);
    expect(chunks.some((c) => c.includes('\n'))).toBe(true);
    const naive = chunks.map((c) => `data: ${c}\n\n`).join('');
    expect(decodeEventStream(naive)).toMatchObject({ ok: false, error: expect.stringMatching(/^stream event \d+ holds a line that is no event-stream field \("/) });
  });

  it('streamed: a run that fails after its first words sends an error event, read as the error, not as the reply so far', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: [{ role: 'user', content: 'please fail midway' }], stream: true }) });
    const body = await res.text();
    expect(decodeEventStream(body)).toEqual({ ok: false, error: 'the stream sent an error event: the scripted model failed midway' });
    // The same stream ended without the error event is a reply of the first words: why the route must send it.
    expect(decodeEventStream(body.slice(0, body.indexOf('event: error')))).toEqual({ ok: true, value: { reply: 'Let me ', toolCalls: null } });
  });

  it('fixtures: a reply, an agent error (the run throws: HTTP 500), a model that speaks before its tool call, and a streamed run (text stream)', async () => {
    const { crash, lookUp } = await helloAndCrash(config());
    expect(crash.error).toContain('500');
    // Two message items (one before the function_call, one after its result): both read, a blank line
    // between (docs/frameworks/openai-agents.md, "Replies").
    expect(lookUp.reply).toBe('Let me look that up.\n\nOrder 1234 is delivered.');
    const streamed = await streamedOrder(config('  stream: true\n').replace('store: false,', 'store: false, stream: true,'));
    // The SDK's text stream sends the deltas alone, nothing between the two messages: read as sent, as the
    // route's client shows it, they run together (docs/frameworks/openai-agents.md, "Streaming").
    expect(streamed.lookUp.reply).toBe('Let me look that up.Order 1234 is delivered.');
  });

  it('a custom mapping (response.toolCalls at the run items the SDK serializes) reads the calls and their outputs', async () => {
    const custom = `agent:
  url: ${url.replace('/v1/responses', '/agent')}
  request:
    body: { input: "{{messages}}", mocks: "{{mocks}}" }
  response: { reply: reply, toolCalls: items }
  retries: 0
cost: { capUsd: 5 }
`;
    const cwd = await makeProject({ config: custom, personas: { 'refund.yml': refundScript('refund-custom', REFUND_MOCKS) }, fixtures: { 'look-up.yml': LOOK_UP_FIXTURE } });
    const { run, results } = await runSuite(cwd);
    // `reply` at the SDK's finalOutput: the run's last message alone; what the model said before its
    // tool call is not in it (docs/frameworks/openai-agents.md, "Replies").
    expect(fixture(results, 'look-up')).toMatchObject({ errored: false, reply: 'Order 1234 is delivered.', verdict: 'pass' });
    const p = persona(results, 'refund-custom');
    expect(p.errored, p.error ?? '').toBe(false);
    // No welcome turn: a custom body without agent.start sends none.
    expect(p.turns.map((t) => t.index)).toEqual([1, 2, 3]);
    // The SDK's function_call_result holds the JSON text of the mock's output: read back as the object, and answered by the mock.
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'in-transit-mock' }, mocked: true }]);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(run.code).toBe(0);
  });

  it('probe: one message, the reply printed, exit 0', async () => {
    await probeOrder(config());
  });
});

describe('the docs route (docs/frameworks/openai-agents.md, as written)', () => {
  let docs: { server: Server; url: string };
  beforeAll(async () => {
    docs = await serveFetch(POST, '/api/agent');
  });
  afterAll(async () => {
    await new Promise((r) => docs.server.close(r));
  });
  beforeEach(() => {
    ranForRealDocs.length = 0;
  });
  const docsConfig = () => config().replace(url, docs.url);

  it('mocked mode: three turns, the tools answered from the mocks, nothing run for real', async () => {
    await refundMocked(docsConfig(), 'docs-mocked', ranForRealDocs);
  });

  it('live mode: the tools run for real and are recorded as real calls', async () => {
    await refundLive(docsConfig(), 'docs-live', ranForRealDocs);
  });
});
