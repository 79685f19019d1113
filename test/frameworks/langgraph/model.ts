// A fake chat model (LangChain's BaseChatModel, no network) scripted from the messages it receives,
// for the LangGraph graphs under test (agent.ts with createAgent, graph.ts with createReactAgent).

import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { scriptedAnswer, type PromptMessage } from '../scripted-model.js';

/** A fake chat model (LangChain's BaseChatModel, no network) playing the scripted conversation. */
export class ScriptedChatModel extends BaseChatModel {
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
        : // What the model says before its tool call (asked to "look up" an order) and the call: one AI message with both.
          new AIMessage({ content: answer.say ?? '', tool_calls: [{ id: `call-${messages.length}-${n++}`, name: answer.tool, args: answer.input, type: 'tool_call' }] });
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

export const model = new ScriptedChatModel({});
