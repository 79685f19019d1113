import { describe, expect, it } from 'vitest';
import { answerFromMocks, findMock, mockAgentsTool, mockLangGraphTool, mockMastraTool, mockTools, readMocks, UnmockedToolError } from '../../src/mocks/index.js';

const mocks = [
  { tool: 'find_order', input: { orderId: '1234' }, match: 'subset', output: { status: 'delivered' } },
  { tool: 'find_order', output: { status: 'unknown' } },
  { tool: 'issue_refund', input: { orderId: '1234', amount: 10 }, match: 'exact', output: { refunded: true } },
];

describe('agent-replay/mocks: the engine matching rule', () => {
  it('answers a call with the first mock that matches, in the script order', () => {
    expect(answerFromMocks(mocks, 'find_order', { orderId: '1234', verbose: true })).toEqual({ mocked: true, output: { status: 'delivered' } });
    expect(answerFromMocks(mocks, 'find_order', { orderId: '99' })).toEqual({ mocked: true, output: { status: 'unknown' } });
  });

  it('compares JSON values without coercion, exact means exact', () => {
    expect(findMock(readMocks(mocks), 'issue_refund', { orderId: '1234', amount: 10 })?.output).toEqual({ refunded: true });
    expect(() => answerFromMocks(mocks, 'issue_refund', { orderId: '1234', amount: '10' })).toThrow(UnmockedToolError);
    expect(() => answerFromMocks(mocks, 'issue_refund', { orderId: '1234', amount: 10, note: 'x' })).toThrow(/no mock answers issue_refund\(\{"orderId":"1234","amount":10,"note":"x"\}\)/);
  });

  it('subset arrays match distinct elements in any order', () => {
    const list = [{ tool: 'tag', input: { tags: ['b', 'a'] }, output: 'ok' }];
    expect(answerFromMocks(list, 'tag', { tags: ['a', 'c', 'b'] })).toEqual({ mocked: true, output: 'ok' });
    expect(() => answerFromMocks(list, 'tag', { tags: ['a', 'a'] })).toThrow(UnmockedToolError);
  });

  it('no mocks (absent, null or []) is live mode: the tool runs', () => {
    for (const none of [undefined, null, []]) expect(answerFromMocks(none, 'find_order', {})).toEqual({ mocked: false });
  });

  it('refuses a malformed mocks list, naming the entry', () => {
    expect(() => readMocks('x')).toThrow(/expected a list of mocks/);
    expect(() => readMocks([{ input: {} }])).toThrow(/entry 0 must be an object with a string "tool"/);
    expect(() => readMocks([{ tool: 't', match: 'fuzzy', output: 1 }])).toThrow(/entry 0 \(t\): match must be "exact" or "subset", got "fuzzy"/);
    expect(() => readMocks([{ tool: 't' }])).toThrow(/entry 0 \(t\) has no "output"/);
  });
});

describe('agent-replay/mocks: framework wrappers', () => {
  it('Vercel AI SDK: wraps execute; live mode returns the very same tools; client tools untouched', async () => {
    const ran: unknown[] = [];
    const findOrder = { description: 'find', execute: async (input: { orderId: string }) => (ran.push(input), { status: 'real' }) };
    const clientTool = { description: 'ask the user' };
    const tools = { find_order: findOrder, ask: clientTool };
    expect(mockTools(tools, undefined)).toBe(tools);
    const mocked = mockTools(tools, mocks);
    expect(mocked.ask).toBe(clientTool);
    expect(mocked.find_order.description).toBe('find');
    expect(await mocked.find_order.execute({ orderId: '1234' })).toEqual({ status: 'delivered' });
    expect(ran).toEqual([]);
    expect(await mockTools(tools, []).find_order.execute({ orderId: '1' })).toEqual({ status: 'real' });
    expect(ran).toEqual([{ orderId: '1' }]);
    expect(() => mockTools({ issue_refund: { execute: () => 'refunded for real' } }, mocks).issue_refund.execute()).toThrow(UnmockedToolError);
  });

  it('LangGraph JS: reads config.configurable.mocks', () => {
    const fn = mockLangGraphTool('find_order', (input: { orderId: string }, config: unknown) => ({ status: 'real', input, config: config !== undefined }));
    expect(fn({ orderId: '1234' }, { configurable: { mocks, thread_id: 't' } })).toEqual({ status: 'delivered' });
    expect(fn({ orderId: '1234' }, { configurable: {} })).toEqual({ status: 'real', input: { orderId: '1234' }, config: true });
    expect(fn({ orderId: '1234' }, undefined)).toEqual({ status: 'real', input: { orderId: '1234' }, config: false });
  });

  it('OpenAI Agents SDK: reads the run context mocks, parses JSON-text arguments', () => {
    const options = mockAgentsTool({ name: 'find_order', description: 'find', execute: (input: { orderId: string }) => `real ${input.orderId}` });
    expect(options.name).toBe('find_order');
    expect(options.description).toBe('find');
    // The SDK calls execute(input, runContext, details).
    const execute = options.execute as (input: unknown, runContext: unknown) => unknown;
    expect(execute({ orderId: '1234' }, { context: { mocks } })).toBe('{"status":"delivered"}');
    expect(execute('{"orderId":"1234"}', { context: { mocks } })).toBe('{"status":"delivered"}');
    expect(execute({ orderId: '7' }, { context: {} })).toBe('real 7');
  });

  it('Mastra: reads requestContext.mocks (a RequestContext with get, or a plain object); no mocks runs the tool', async () => {
    const execute = mockMastraTool('find_order', (input: { orderId: string }, context: unknown) => `real ${input.orderId}${context === undefined ? '' : ' with context'}`);
    // Mastra calls execute(inputData, context); context.requestContext is a RequestContext (a Map-like get).
    const requestContext = new Map<string, unknown>([['mocks', mocks]]);
    expect(await execute({ orderId: '1234' }, { requestContext })).toEqual({ status: 'delivered' });
    expect(await execute({ orderId: '1234' }, { requestContext: { mocks } })).toEqual({ status: 'delivered' });
    expect(await execute({ orderId: '7' }, { requestContext: new Map() })).toBe('real 7 with context');
    expect(await execute({ orderId: '7' }, undefined)).toBe('real 7');
    await expect(execute({ orderId: '7' }, { requestContext: { mocks: [{ tool: 'other', output: 1 }] } })).rejects.toThrow(UnmockedToolError);
  });
});
