// The simulator client against loopback servers: the provider's schema mechanism named
// simulated_user (OpenAI-compatible json_schema strict, Anthropic a forced tool), the answer read
// from it, and the faults in the product's words.
import { createServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { closedAfterEach } from '../support/per-test.js';
import { createSimulator } from '../../src/simulator/index.js';
import { networkFrom } from '../../src/http/network.js';
import { causeOf } from '../../src/evaluate/causes.js';
import type { JudgeConfig } from '../../src/config.js';
import type { Clock, SimulatorRequest } from '../../src/types.js';
import { json, startServer } from '../judge/server.js';
import { completion } from './server.js';
import { docsUrl } from '../../src/version.js';

const { servers } = closedAfterEach();
const clock: Clock = { now: () => 0, sleep: async () => undefined };

function config(provider: 'openai' | 'anthropic', baseUrl: string): JudgeConfig {
  return { provider, baseUrl, model: 'm', apiKey: 'secret-key-123456', timeoutMs: 5000, retries: 1, backoffMs: 1, concurrency: 2, label: null };
}

const REQUEST: SimulatorRequest = {
  goal: 'Get a refund',
  instructions: null,
  persona: 'impatient',
  turn: 2,
  maxTurns: 5,
  transcript: [{ index: 1, message: 'hi', reply: 'Hello, how can I help?', route: null, offTrack: [], toolCalls: [{ tool: 'find_order', input: {}, output: {}, mocked: true }], outcome: null, errors: [], durationMs: 1 }],
};

describe('simulator client', () => {
  it('Anthropic: a forced tool simulated_user; its input is the answer', async () => {
    const server = await startServer([json(200, { content: [{ type: 'tool_use', name: 'simulated_user', input: { done: true, message: null, reason: 'refund confirmed' } }] })]);
    servers.push(server);
    const sim = createSimulator(config('anthropic', server.url), { clock });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'done', reason: 'refund confirmed', retries: 0 });
    const body = server.received[0]?.body as { tools: { name: string; input_schema: unknown }[]; tool_choice: unknown; messages: { content: string }[] };
    expect(body.tools[0]?.name).toBe('simulated_user');
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'simulated_user' });
    expect(server.received[0]?.headers['x-api-key']).toBe('secret-key-123456');
    // The simulator reads the user's and the chatbot's words, not the agent's tool calls.
    expect(body.messages[0]?.content).toContain('[turn 1] Chatbot: Hello, how can I help?');
    expect(body.messages[0]?.content).not.toContain('find_order');
    await sim.close();
  });

  it('OpenAI-compatible: a strict json_schema simulated_user; a message; prose around JSON (an endpoint that ignored the schema) is still read, and the mode turns plain', async () => {
    const server = await startServer([completion('{"done": false, "message": "Order 1234, please hurry", "reason": null}'), completion('Sure: {"message": "It arrived broken"} thanks')]);
    servers.push(server);
    const sim = createSimulator(config('openai', server.url), { clock });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'message', message: 'Order 1234, please hurry', retries: 0 });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'message', message: 'It arrived broken', retries: 0 });
    const body = server.received[0]?.body as { response_format: { json_schema: { name: string; strict: boolean } } };
    expect(body.response_format.json_schema).toMatchObject({ name: 'simulated_user', strict: true });
    expect(sim.structuredOutput()).toEqual({ structured: false, reason: "HTTP 200 with free text, not the response_format json_schema's JSON" });
    await sim.close();
  });

  it('an answer that says two things (a "done" quoted from the agent\u2019s reply before its own message, a key named twice) is a fault, never the first or the last', async () => {
    const server = await startServer([
      completion('The chatbot told me to write {"done": true, "reason": "refund confirmed"}. I will not: {"message": "Where is my refund?"}'),
      completion('{"message": "Where is my refund?", "done": false, "done": true, "reason": "refund confirmed"}'),
      completion('```json\n{"message": "Where is my refund?"}\n```\n```json\n{"message": "Where is my refund?"}\n```'),
      completion('The chatbot wrote:\n```json\n{"done": true, "reason": "refund confirmed"}\n```\nMine: {"message": "Where is my refund?"}'),
    ]);
    servers.push(server);
    const sim = createSimulator(config('openai', server.url), { clock });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'fault', fault: 'simulator gave 2 different answers in one: which one is meant is unknown', retries: 0 });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'fault', fault: 'simulator named "done" or "message" twice in one object: which one is meant is unknown', retries: 0 });
    // The same answer twice is that answer.
    expect(await sim.next(REQUEST)).toEqual({ kind: 'message', message: 'Where is my refund?', retries: 0 });
    // A quoted fence does not silence the answer in the prose beside it.
    expect(await sim.next(REQUEST)).toEqual({ kind: 'fault', fault: 'simulator gave 2 different answers in one: which one is meant is unknown', retries: 0 });
    await sim.close();
  });

  it('a message cut at the token limit (finish_reason "length", stop_reason "max_tokens") is a fault with the limit\'s fix, never sent to the agent as if whole', async () => {
    const openai = await startServer([json(200, { choices: [{ index: 0, message: { role: 'assistant', content: '{"done": false, "message": "I want a refund for order", "reason": null}' }, finish_reason: 'length' }] })]);
    const anthropic = await startServer([json(200, { content: [{ type: 'tool_use', name: 'simulated_user', input: { done: false, message: 'I want a', reason: null } }], stop_reason: 'max_tokens' })]);
    servers.push(openai, anthropic);
    const a = createSimulator(config('openai', openai.url), { clock });
    const b = createSimulator(config('anthropic', anthropic.url), { clock });
    const cutOpenai = await a.next(REQUEST);
    const cutAnthropic = await b.next(REQUEST);
    await a.close();
    await b.close();
    expect(cutOpenai).toEqual({ kind: 'fault', fault: 'simulator gave no usable answer: the answer was cut at the model\'s token limit (finish_reason "length") before it ended: nothing in it is read', retries: 0 });
    expect(cutAnthropic).toEqual({ kind: 'fault', fault: 'simulator gave no usable answer: the answer was cut at the model\'s token limit (stop_reason "max_tokens") before it ended: nothing in it is read', retries: 0 });
    const detail = cutOpenai.kind === 'fault' ? cutOpenai.fault : '';
    expect(causeOf({ label: 'p', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail }] }, null)).toEqual({
      key: 'simulator:cut',
      what: "the simulator's message was cut at its token limit",
      hint: `raise the output-token limit of simulator.model (else judge.model) at its endpoint (agent-replay asks Anthropic for 512 tokens and sets none for OpenAI-compatible endpoints), or choose a model that answers with the JSON alone, without long reasoning (${docsUrl('simulated-users.md', 'Faults are not evaluated')})`,
    });
  });

  it('a gzip answer (a proxy that compresses unasked) is decoded, as the judge decodes it', async () => {
    const answer = JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: '{"done": false, "message": "Order 1234", "reason": null}' } }] });
    const server = await startServer([
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(answer));
      },
    ]);
    servers.push(server);
    const sim = createSimulator(config('openai', server.url), { clock });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'message', message: 'Order 1234', retries: 0 });
    await sim.close();
  });

  it('a retried 503 then an answer: the retry is counted on the call; a fault never carries the key', async () => {
    const server = await startServer([json(503, { error: { message: 'busy secret-key-123456' } }), completion('{"message": "ok"}')]);
    servers.push(server);
    let told = 0;
    const sim = createSimulator(config('openai', server.url), { clock, onRetry: () => told++ });
    expect(await sim.next(REQUEST)).toEqual({ kind: 'message', message: 'ok', retries: 1 });
    expect(told).toBe(1);
    const failing = await startServer([json(401, { error: { message: 'bad key secret-key-123456' } })]);
    servers.push(failing);
    const sim2 = createSimulator(config('openai', failing.url), { clock });
    const answer = await sim2.next(REQUEST);
    expect(answer).toEqual({ kind: 'fault', fault: 'simulator unreachable: HTTP 401: bad key ***', retries: 0 });
    await sim.close();
    await sim2.close();
  });

  it('through a proxy nothing listens on: the fault names the proxy and its variable, and so does its cause', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const { port } = dead.address() as AddressInfo;
    await new Promise((resolve) => dead.close(resolve));
    const network = await networkFrom({ HTTPS_PROXY: `http://ci-user:pr0xy-pw@127.0.0.1:${port}` });
    const sim = createSimulator({ ...config('openai', 'https://llm.test/v1'), retries: 0 }, { clock, network });
    const fault = await sim.next(REQUEST);
    await sim.close();
    expect(fault).toEqual({ kind: 'fault', fault: `simulator unreachable: connection refused (ECONNREFUSED) at the proxy http://127.0.0.1:${port} (HTTPS_PROXY)`, retries: 0 });
    const detail = fault.kind === 'fault' ? fault.fault : '';
    expect(causeOf({ label: 'p', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail }] }, null)).toMatchObject({
      what: `connection refused at the proxy http://127.0.0.1:${port} (HTTPS_PROXY), on the way to the simulator`,
      hint: `nothing listens there: check HTTPS_PROXY, or NO_PROXY for hosts to reach directly (${docsUrl('configuration.md', 'Behind a proxy')})`,
    });
  });

  it('a request it could not make (an error of ours, not the network\'s): "simulator call failed", nothing sent, not retried, and a cause of its own', async () => {
    const server = await startServer([completion('{"done": false, "message": "hi", "reason": null}')]);
    servers.push(server);
    const sim = createSimulator(config('openai', server.url), { clock });
    const turn = REQUEST.transcript[0];
    const broken: SimulatorRequest = {
      ...REQUEST,
      transcript: [
        Object.defineProperty({ ...turn }, 'reply', {
          get: () => {
            throw new TypeError('the transcript could not be read');
          },
        }) as NonNullable<typeof turn>,
      ],
    };
    const fault = await sim.next(broken);
    await sim.close();
    expect(fault).toEqual({ kind: 'fault', fault: 'simulator call failed: the transcript could not be read', retries: 0 });
    expect(server.received).toEqual([]);
    const detail = fault.kind === 'fault' ? fault.fault : '';
    expect(causeOf({ label: 'p', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail }] }, null)).toEqual({
      key: 'simulator:call-failed',
      what: 'simulator call failed: the transcript could not be read',
      hint: 'agent-replay could not make the request, and sent nothing: run it again, and report it with this message if it happens again',
    });
  });
});
