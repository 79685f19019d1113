// A LangGraph JS ReAct agent (createReactAgent) served by the LangGraph API dev server
// (`langgraphjs dev`, in-memory): tools answer from `config.configurable.mocks` with the mocks
// helper, the model is a fake chat model scripted from the messages it receives.

import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { mockLangGraphTool } from '../../../src/mocks/index.js';
import { scriptedAnswer, type PromptMessage } from '../scripted-model.js';

/** A fake chat model (LangChain's BaseChatModel, no network) playing the scripted conversation. */
class ScriptedChatModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted';
  }

  // createReactAgent binds the tools; the script already knows them.
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    let n = 0;
    const prompt: PromptMessage[] = messages.map((m) => {
      const type = m.getType();
      const text = typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? String(c.text) : '')).join('');
      return { role: type, text, toolResult: type === 'tool' ? { tool: String((m as { name?: string }).name ?? ''), output: text } : null };
    });
    const answer = scriptedAnswer(prompt);
    const message =
      answer.kind === 'text'
        ? new AIMessage(answer.text)
        : new AIMessage({ content: '', tool_calls: [{ id: `call-${messages.length}-${n++}`, name: answer.tool, args: answer.input, type: 'tool_call' }] });
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

const findOrder = tool(
  mockLangGraphTool('find_order', async ({ orderId }: { orderId: string }) => ({ orderId, status: 'delivered', source: 'orders-db' })),
  { name: 'find_order', description: 'Look up an order', schema: z.object({ orderId: z.string() }) },
);
const issueRefund = tool(
  mockLangGraphTool('issue_refund', async ({ orderId }: { orderId: string; reason: string }) => ({ refundId: `R-LIVE-${orderId}` })),
  { name: 'issue_refund', description: 'Refund an order', schema: z.object({ orderId: z.string(), reason: z.string() }) },
);
const escalate = tool(async () => ({ ticket: 'T-1' }), { name: 'escalate', description: 'Hand over to a human', schema: z.object({}) });

export const graph = createReactAgent({ llm: new ScriptedChatModel({}), tools: [findOrder, issueRefund, escalate] });
