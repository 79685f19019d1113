// Mastra's own fake model (MastraLanguageModelV2Mock from @mastra/core/test-utils/llm-mock, no
// network) playing the scripted refund conversation from the prompt it receives: `generate` calls
// doGenerate, `stream` doStream.

import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { scriptedAnswer, v2ContentOf, v2PromptOf, v2StreamOf } from '../scripted-model.js';

type Prompt = { role: string; content: unknown }[];

export const model = new MastraLanguageModelV2Mock({
  doGenerate: async ({ prompt }) => {
    const answer = scriptedAnswer(v2PromptOf(prompt as Prompt));
    const { content, finishReason } = v2ContentOf(answer);
    return { content: content as never, finishReason, usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, warnings: [] };
  },
  doStream: async ({ prompt }) => {
    const parts = v2StreamOf(scriptedAnswer(v2PromptOf(prompt as Prompt)));
    return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p as never)), c.close()) }) };
  },
});
