// Fixture tool assertions (docs/traces.md, "Fixtures") against a real HTTP agent on 127.0.0.1 that
// reports its tool calls in the OpenAI chat shape, the AI SDK's UI message stream and the native
// protocol: matched as persona scripts match theirs, not evaluated when the turn reports none.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { createRegexPool } from '../../src/assertions/index.js';
import { FIXTURE_NO_TOOL_CALLS } from '../../src/assertions/tools.js';
import { parseRecord, serializeRecord } from '../../src/record/index.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import { resolveConfigFile } from '../../src/suite/config-file.js';
import type { Assertion, Fixture } from '../../src/types.js';
import { startAgentServer, type AgentHandler } from '../support/agent-server.js';
import { docsUrl } from '../../src/version.js';
import { replayOptions } from '../support/replay-options.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const OPTIONS = replayOptions({ concurrency: 2 });

const CALLED: Assertion = { kind: 'toolCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'subset' };
const NOT_CALLED: Assertion = { kind: 'toolNotCalled', tool: 'find_order', match: 'subset' };

function fixture(label: string, message: string, assertion: Assertion | null): Fixture {
  return { label, message, persona: null, assertion, file: '.agent-replay/fixtures/tools.yml', line: 1 };
}

/** Replays fixtures against a loopback agent with config.yml's `agent:` section as given. */
async function run(handler: AgentHandler, agent: Record<string, unknown>, fixtures: Fixture[]) {
  const server = await startAgentServer(handler);
  cleanups.push(() => server.close());
  const resolved = resolveConfigFile(null, 'config.yml', { agent: { url: server.url, retries: 0, ...agent } }, {});
  expect(resolved.errors).toEqual([]);
  const client = createHttpAgentClient(resolved.config!.agent);
  cleanups.push(() => client.close());
  const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
  cleanups.push(() => regex.close());
  const record = await replay({ fixtures, personas: [], baselines: NO_BASELINES }, { agent: client, regex, judge: null }, OPTIONS);
  // Whatever a tool assertion records is valid results.json, read back the same.
  expect(parseRecord(serializeRecord(record), 'results.json').fixtures).toEqual(JSON.parse(serializeRecord(record)).fixtures);
  return record.fixtures;
}

/** An OpenAI chat completion: a tool call for a message that names an order, else text alone. */
const openaiChat: AgentHandler = (req) => {
  const messages = (req.json as { messages: { content: string }[] }).messages;
  const text = messages.at(-1)!.content;
  const order = /\d{4}/.exec(text)?.[0];
  const message = order
    ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'find_order', arguments: JSON.stringify({ orderId: order, verbose: true }) } }] }
    : { role: 'assistant', content: 'Hello! How can I help?' };
  return { json: { id: 'c1', object: 'chat.completion', choices: [{ index: 0, finish_reason: order ? 'tool_calls' : 'stop', message }] } };
};

describe('fixture tool assertions', () => {
  it('openai-chat: toolCalled passes on a matching call (subset), toolNotCalled fails on it, a reply without tool_calls made none', async () => {
    const [called, exact, notCalled, none, noneNot, listed] = await run(openaiChat, { preset: 'openai-chat', model: 'gpt-4o-mini' }, [
      fixture('called', 'Where is order 1234?', CALLED),
      fixture('exact', 'Where is order 1234?', { ...CALLED, match: 'exact' } as Assertion),
      fixture('not-called', 'Where is order 1234?', NOT_CALLED),
      fixture('none', 'Hi', CALLED),
      fixture('none-not', 'Hi', NOT_CALLED),
      fixture('listed', 'Where is order 1234?', { kind: 'all', assertions: [CALLED as never, { kind: 'toolNotCalled', tool: 'issue_refund', match: 'subset' }] }),
    ]);
    expect(called).toMatchObject({ verdict: 'pass', detail: 'called find_order {"orderId": "1234"} (input {"orderId": "1234", "verbose": true})' });
    // The call as the record keeps it: the message turn's, in the engine's shape.
    expect(called!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234', verbose: true }, output: null, mocked: true }]);
    expect(exact).toMatchObject({ verdict: 'fail', detail: 'expected a call of find_order {"orderId": "1234"} (exact): find_order was called with {"orderId": "1234", "verbose": true}' });
    expect(notCalled).toMatchObject({ verdict: 'fail', detail: 'find_order must not be called, but was (input {"orderId": "1234", "verbose": true})' });
    // OpenAI leaves tool_calls out when the model calls none: "no calls", so the checks are decided.
    expect(none).toMatchObject({ verdict: 'fail', detail: 'expected a call of find_order {"orderId": "1234"}: find_order was not called' });
    expect(none!.toolCalls).toBeUndefined();
    expect(noneNot).toMatchObject({ verdict: 'pass', detail: 'not called: find_order' });
    expect(listed).toMatchObject({ verdict: 'pass' });
    expect(listed!.checks!.map((c) => [c.assertion.kind, c.status, c.detail])).toEqual([
      ['toolCalled', 'pass', 'called find_order {"orderId": "1234"} (input {"orderId": "1234", "verbose": true})'],
      ['toolNotCalled', 'pass', 'not called: issue_refund'],
    ]);
  });

  it('vercel-ai: the UI message stream\'s server-run tool is a call with its output', async () => {
    const parts = [
      { type: 'start', messageId: 'm1' },
      { type: 'start-step' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'find_order', input: { orderId: '1234' } },
      { type: 'tool-output-available', toolCallId: 'c1', output: { status: 'shipped' } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'It has shipped.' },
      { type: 'text-end', id: 't1' },
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    const body = `${parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('')}data: [DONE]\n\n`;
    const [called, notCalled] = await run(() => ({ headers: { 'content-type': 'text/event-stream' }, body }), { preset: 'vercel-ai' }, [
      fixture('called', 'Where is order 1234?', { kind: 'all', assertions: [{ kind: 'contains', value: 'shipped' }, CALLED as never] }),
      fixture('not-called', 'Where is order 1234?', { kind: 'toolNotCalled', tool: 'find_order', input: { orderId: '1234' }, match: 'exact' }),
    ]);
    expect(called).toMatchObject({ verdict: 'pass', reply: 'It has shipped.' });
    expect(called!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234' }, output: { status: 'shipped' }, mocked: false }]);
    expect(notCalled).toMatchObject({ verdict: 'fail', detail: 'find_order {"orderId": "1234"} (exact) must not be called, but was' });
  });

  it('a turn that reports no tool calls leaves the check not evaluated, never failed, and says how to fix it', async () => {
    const [plain, probe, listed] = await run(() => ({ json: { reply: 'Your order has shipped.' } }), {}, [
      fixture('plain', 'Where is order 1234?', NOT_CALLED),
      fixture('probe', 'Where is order 1234?', null),
      fixture('listed', 'Where is order 1234?', { kind: 'all', assertions: [{ kind: 'contains', value: 'shipped' }, CALLED as never] }),
    ]);
    expect(plain).toMatchObject({ verdict: 'not_evaluated', detail: FIXTURE_NO_TOOL_CALLS });
    expect(FIXTURE_NO_TOOL_CALLS).toContain('agent.response.toolCalls');
    expect(FIXTURE_NO_TOOL_CALLS).toContain(docsUrl('traces.md', 'Fixtures'));
    expect(plain!.toolCalls).toBeUndefined();
    expect(probe).toMatchObject({ verdict: 'pass' });
    expect(listed).toMatchObject({ verdict: 'not_evaluated', detail: `1 of 2 checks not evaluated: ${FIXTURE_NO_TOOL_CALLS}` });
  });

  it('native: a mapped path set to null is "not reported"; calls of no known shape are named and not evaluated; secrets in a call are redacted', async () => {
    const handler: AgentHandler = (req) => {
      const message = (req.json as { message: string }).message;
      if (message === 'null') return { json: { reply: 'ok', toolCalls: null } };
      if (message === 'odd') return { json: { reply: 'ok', toolCalls: [{ surprise: 1 }] } };
      return { json: { reply: 'ok', toolCalls: [{ tool: 'find_order', input: { orderId: '1234', token: 'sk-secret-value' }, output: null }] } };
    };
    const server = await startAgentServer(handler);
    cleanups.push(() => server.close());
    const resolved = resolveConfigFile(null, 'config.yml', { agent: { url: server.url, retries: 0 } }, {});
    const client = createHttpAgentClient(resolved.config!.agent);
    cleanups.push(() => client.close());
    const regex = createRegexPool({ size: 1, timeoutMs: 1000 });
    cleanups.push(() => regex.close());
    const redact = (t: string): string => t.replaceAll('sk-secret-value', '***');
    const record = await replay(
      { fixtures: [fixture('null', 'null', CALLED), fixture('odd', 'odd', CALLED), fixture('secret', 'secret', CALLED)], personas: [], baselines: NO_BASELINES },
      { agent: client, regex, judge: null, redact },
      OPTIONS,
    );
    const [nul, odd, secret] = record.fixtures;
    expect(nul).toMatchObject({ verdict: 'not_evaluated', detail: FIXTURE_NO_TOOL_CALLS });
    expect(odd!.verdict).toBe('not_evaluated');
    expect(odd!.detail).toMatch(/^the agent's tool calls could not be read: "toolCalls\.0" is not a tool call: expected /);
    quotedAndSaid(odd!.detail ?? '', '"<path>.<n>" is not a tool call: expected ... (found ...)');
    expect(secret).toMatchObject({ verdict: 'pass' });
    expect(secret!.toolCalls).toEqual([{ tool: 'find_order', input: { orderId: '1234', token: '***' }, output: null, mocked: false }]);
    expect(serializeRecord(record)).not.toContain('sk-secret-value');
  });
});
