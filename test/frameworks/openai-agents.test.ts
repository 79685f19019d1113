// agent-replay against a real OpenAI Agents SDK route (Agent, function tools wrapped by
// mockAgentsTool, a Model implementation with no network) answering with the SDK's own items in
// the Responses shape; preset openai-responses with a body that adds {{mocks}}, through the CLI.

import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkStatuses, cli, fixture, makeProject, persona, REFUND_MOCKS, refundScript, removeProjects, runSuite } from './support.js';
import { ranForReal, startRoute } from './openai-agents/route.js';
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
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-mocked', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-mocked');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
    // The mock's output (JSON text as the SDK passes tool results on, read back as the object): answered by a mock.
    expect(p.turns[2]!.toolCalls).toEqual([{ tool: 'issue_refund', input: { orderId: '1234', reason: 'I want my money back' }, output: { refundId: 'R-MOCK' }, mocked: true }]);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(p.verdict).toBe('pass');
    expect(ranForReal).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('live mode: no mocks, the function tools run for real, recorded as real calls, not errors', async () => {
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-live', '') } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-live');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is delivered.', 'Refund R-LIVE-1234 is on its way.']);
    // The SDK's function_call_result holds the tool's JSON text: read back as the object.
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
    expect(ranForReal.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(run.code).toBe(0);
  });

  it('mocked mode: a call no mock answers errors the script (unmocked tool), the real tool not run', async () => {
    const onlyFind = `mocks:\n  - { tool: find_order, input: { orderId: "1234" }, output: { orderId: "1234", status: lost } }\n`;
    const cwd = await makeProject({ config: config(), personas: { 'refund.yml': refundScript('refund-unmocked', onlyFind) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-unmocked');
    expect(p.errored).toBe(true);
    expect(p.errorKind, p.error ?? '').toBe('unmocked_tool');
    expect(p.error).toContain('issue_refund');
    expect(ranForReal).toEqual([]);
    expect(run.code).toBe(1);
  });

  it('toolCalled / toolNotCalled fail on what the agent did', async () => {
    const wrong = `label: refund-wrong
opening: I want my money back
followUps: ["Order 1234", "It arrived broken"]
${REFUND_MOCKS}expect:
  toolCalled: [ { tool: issue_refund, input: { orderId: "9" } } ]
  toolNotCalled: [ { tool: find_order, input: { orderId: "1234" } } ]
`;
    const cwd = await makeProject({ config: config(), personas: { 'wrong.yml': wrong } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'refund-wrong');
    expect(checkStatuses(p)).toEqual(['toolCalled fail', 'toolNotCalled fail']);
    expect(p.verdict).toBe('fail');
    expect(run.code).toBe(1);
  });

  it('fixtures: a reply, an agent error (the run throws: HTTP 500), and a streamed run (text stream)', async () => {
    const cwd = await makeProject({
      config: config(),
      fixtures: {
        'hello.yml': 'label: hello\nmessage: I want my money back\nassert: { contains: "Which order" }\n',
        'crash.yml': 'label: crash\nmessage: please crash\nassert: { contains: "anything" }\n',
      },
    });
    const { run, results } = await runSuite(cwd);
    expect(fixture(results, 'hello')).toMatchObject({ errored: false, reply: 'Which order is it about?', verdict: 'pass' });
    const crash = fixture(results, 'crash');
    expect(crash.errored).toBe(true);
    expect(crash.error).toContain('500');
    expect(run.code).toBe(1);

    const streaming = await makeProject({
      config: config('  stream: true\n').replace('store: false,', 'store: false, stream: true,'),
      fixtures: { 'order.yml': 'label: order\nmessage: Order 1234\nassert: { contains: "delivered" }\n' },
    });
    const streamed = await runSuite(streaming);
    expect(fixture(streamed.results, 'order')).toMatchObject({ errored: false, reply: 'Order 1234 is delivered.', verdict: 'pass' });
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
    const cwd = await makeProject({ config: custom, personas: { 'refund.yml': refundScript('refund-custom', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
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
    const cwd = await makeProject({ config: config() });
    const probe = await cli(cwd, ['probe', 'Order 1234', '--assert', 'contains:delivered']);
    expect(probe.stdout).toContain('Order 1234 is delivered.');
    expect(probe.code, probe.stderr).toBe(0);
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
    const cwd = await makeProject({ config: docsConfig(), personas: { 'refund.yml': refundScript('docs-mocked', REFUND_MOCKS) } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'docs-mocked');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns.map((t) => t.reply)).toEqual(['Which order is it about?', 'Order 1234 is in-transit-mock.', 'Refund R-MOCK is on its way.']);
    expect(checkStatuses(p)).toEqual(['toolCalled pass', 'toolCalled pass', 'toolNotCalled pass', 'reply pass']);
    expect(ranForRealDocs).toEqual([]);
    expect(run.code).toBe(0);
  });

  it('live mode: the tools run for real and are recorded as real calls', async () => {
    const cwd = await makeProject({ config: docsConfig(), personas: { 'refund.yml': refundScript('docs-live', '') } });
    const { run, results } = await runSuite(cwd);
    const p = persona(results, 'docs-live');
    expect(p.errored, p.error ?? '').toBe(false);
    expect(p.turns[1]!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { orderId: '1234', status: 'delivered', source: 'orders-db' }, mocked: false }]);
    expect(ranForRealDocs.map((c) => c.tool)).toEqual(['find_order', 'issue_refund']);
    expect(run.code).toBe(0);
  });
});
