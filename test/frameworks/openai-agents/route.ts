// An OpenAI Agents SDK route on node:http: an Agent with function tools (wrapped by mockAgentsTool,
// mocks from the request through the run context) and a model implementing the SDK's Model
// interface (no network), scripted from the input items it receives. It answers in the Responses
// shape with the SDK's own items (function_call, function_call_result, message); with
// `stream: true`, the run's text stream as server-sent `data:` events.

import { createServer, type Server } from 'node:http';
import { Agent, run, tool, Usage, type AgentInputItem, type AssistantMessageItem, type FunctionCallItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent } from '@openai/agents';
import { z } from 'zod';
import { mockAgentsTool } from '../../../src/mocks/index.js';
import { readJson } from '../support.js';
import { scriptedAnswer, type PromptMessage } from '../scripted-model.js';

export const ranForReal: { tool: string; input: unknown }[] = [];

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: { text?: unknown }) => (typeof c.text === 'string' ? c.text : '')).join('');
}

function promptOf(input: string | AgentInputItem[]): PromptMessage[] {
  if (typeof input === 'string') return [{ role: 'user', text: input, toolResult: null }];
  return input.map((item) => {
    const i = item as { type?: string; role?: string; content?: unknown; name?: string; output?: unknown };
    if (i.type === 'function_call_result') return { role: 'tool', text: '', toolResult: { tool: i.name ?? '', output: textOf(typeof i.output === 'string' ? i.output : [i.output]) } };
    return { role: i.role ?? i.type ?? 'unknown', text: textOf(i.content), toolResult: null };
  });
}

let calls = 0;
/** A reply of several lines, as a model writes a list: its streamed chunks hold newlines. */
export const LIST_REPLY = 'Order 1234:\n- shipped ✓\n- paid\n\nAnything else?';

function respond(request: ModelRequest): (AssistantMessageItem | FunctionCallItem)[] {
  const prompt = promptOf(request.input);
  const message = (text: string): AssistantMessageItem => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
  if (/\blist\b/i.test(prompt.at(-1)?.text ?? '')) return [message(LIST_REPLY)];
  const answer = scriptedAnswer(prompt);
  // What the model says before its tool call is a message item of the same response, ahead of the call.
  if (answer.kind === 'tool') return [...(answer.say === undefined ? [] : [message(answer.say)]), { type: 'function_call', callId: `call_${++calls}`, name: answer.tool, arguments: JSON.stringify(answer.input), status: 'completed' }];
  return [message(answer.text)];
}

/** The SDK's Model interface, played by the scripted conversation. */
export class ScriptedModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }), output: respond(request) };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = respond(request);
    yield { type: 'response_started' };
    // A model that fails after its first words (a connection to it lost mid-answer).
    if (/fail midway/i.test(promptOf(request.input).at(-1)?.text ?? '')) {
      yield { type: 'output_text_delta', delta: 'Let me ' };
      throw new Error('the scripted model failed midway');
    }
    for (const item of output) {
      if (item.type !== 'message') continue;
      for (const delta of textOf(item.content).split(/(?<= )/)) yield { type: 'output_text_delta', delta };
    }
    yield { type: 'response_done', response: { id: `resp_${calls}`, usage: { requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }, output } };
  }
}

const findOrder = tool(
  mockAgentsTool({
    name: 'find_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: async ({ orderId }: { orderId: string }) => (ranForReal.push({ tool: 'find_order', input: { orderId } }), JSON.stringify({ orderId, status: 'delivered', source: 'orders-db' })),
  }),
);
const issueRefund = tool(
  mockAgentsTool({
    name: 'issue_refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), reason: z.string() }),
    execute: async (input: { orderId: string; reason: string }) => (ranForReal.push({ tool: 'issue_refund', input }), JSON.stringify({ refundId: `R-LIVE-${input.orderId}` })),
  }),
);
const escalate = tool({ name: 'escalate', description: 'Hand over to a human', parameters: z.object({}), execute: async () => 'T-1' });

export const agent = new Agent({ name: 'support', instructions: 'Help with orders.', model: new ScriptedModel(), tools: [findOrder, issueRefund, escalate] });

/** Responses-style chat messages ({role, content: text}) as the SDK's input items. */
function inputItems(messages: { role: string; content: string }[]): AgentInputItem[] {
  return messages.map((m) =>
    m.role === 'assistant'
      ? { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: m.content }] }
      : { role: 'user', content: m.content },
  );
}

/**
 * POST /v1/responses { input: [{role, content}], mocks?, stream? } -> { output: the run's raw items } or a
 * text stream; POST /agent (same body) -> { reply: finalOutput, items: the run items }.
 */
export function startRoute(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void readJson(req).then(async (body) => {
      const { input, mocks, stream } = body as { input: { role: string; content: string }[]; mocks?: unknown; stream?: boolean };
      try {
        if (stream === true) {
          const result = await run(agent, inputItems(input), { stream: true, context: { mocks } });
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Each line of a chunk on its own data: line: a reader drops a line without one (docs/frameworks/openai-agents.md).
          for await (const chunk of result.toTextStream()) res.write(chunk.split('\n').map((line) => `data: ${line}\n`).join('') + '\n');
          await result.completed;
          res.end();
          return;
        }
        const result = await run(agent, inputItems(input), { context: { mocks } });
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.url === '/agent') {
          // A route of one's own, read with a custom mapping: the final output and the run items as the SDK serializes them.
          res.end(JSON.stringify({ reply: result.finalOutput, items: result.newItems }));
          return;
        }
        res.end(JSON.stringify({ id: 'resp_run', object: 'response', status: 'completed', output: result.newItems.map((item) => item.rawItem) }));
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        // A run that fails once its stream began: an error event, not a stream that just ends (read as the reply so far).
        if (res.headersSent) {
          res.end(`event: error\ndata: ${message.replace(/\n/g, ' ')}\n\n`);
          return;
        }
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message } }));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    resolve({ server, url: `http://127.0.0.1:${address.port}/v1/responses` });
  }));
}
